"""The Compare lesson: page.py; models.py (the tokenizers chosen), views.py (typed text),
languages.py (six languages), measures.py (the papers' measures), paper.py (Bostrom & Durrett)."""
