"""The class poll: the teacher's panel on a lesson page (panel.py, results.py) and the
student's /join (page.py, student.py: the anonymous id)."""
