"""The byte-level BPE lesson: page.py, its pre-split and step views (views.py) and the encode
replay (replay.py)."""
