"""Home: page.py, what each lesson teaches, with a link to it."""
