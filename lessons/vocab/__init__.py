"""Inside a vocabulary (/vocab): page.py; card.py (a token's card), health.py (the health
view: categories, examples, browse), data.py (tables and health), chat.py (chat turns as
Mistral's tokens)."""
