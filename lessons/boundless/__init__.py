"""The BoundlessBPE lesson."""
