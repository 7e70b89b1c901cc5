"""The BPE lesson: page.py, on the merge-lesson page shape (lessons/ui/merge_lesson.py)."""
