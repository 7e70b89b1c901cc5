"""Check your own BPE (/check): page.py and its verdict views (views.py)."""
