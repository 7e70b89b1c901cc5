"""Inside a vocabulary: every token's card, its merge tree, and the health categories.

- table.py: a tokenizer's tokens by id (pieces, bytes, how its text alone encodes)
- trained.py: the table of a tokenizer trained here, and its use on its own corpus
- health.py: special / partial / unreachable / ok, and unused, each with its sentence
- trees.py: merge trees down to bytes or characters, each node with its rank
- card.py: one token's card
- uploaded.py: the table of an uploaded Hugging Face tokenizer.json
- chat.py: a conversation as Mistral's chat tokens (mistral-common)
- cli.py: ``subtok vocab``
"""
