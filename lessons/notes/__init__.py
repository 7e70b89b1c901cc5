"""Notes on the material (/notes): page.py."""
