"""The Picky BPE lesson: page.py on the merge-lesson page shape, views.py its own panels."""
