"""The SaGe lesson: page.py; controls.py (the sample and the settings), runs.py (SaGe and its
controls in workers), views.py (the step log), closeup.py (one token up close), results.py
(the paper's charts), paper.py (paper vs this run), latest.py (the last run, for Compare)."""
