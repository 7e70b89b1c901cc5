"""The SuperBPE lesson (and the views BoundlessBPE shares)."""
