"""The SaGe lesson: page.py; runs.py (SaGe and its controls in workers), views.py (step log,
close-up), results.py (the paper's charts), paper.py (paper vs this run)."""
