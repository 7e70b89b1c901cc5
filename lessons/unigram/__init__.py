"""The Unigram LM lesson: page.py; controls.py (settings, removals, training), seed.py (EM's
seed), views.py (a step's tables and charts), lattice.py (a word's lattice)."""
