"""A word-level vocabulary, as the 003 slides ("Sub-word Tokenization") open the topic:
split a corpus into words at spaces (punctuation on its own), give each distinct word an
ID, and add <UNK> for every word the corpus did not have. An unseen or misspelled word
becomes <UNK>, which is why subword vocabularies are favored.

003's corpus and vocabulary (its slide "How to build the vocabulary?"): words in
alphabetical order (ignoring case), then punctuation, then <UNK>.

>>> vocab = word_vocab(CORPUS_003)
>>> list(vocab.items())
[('and', 0), ('apples', 1), ('I', 2), ('like', 3), ('love', 4), ('pineapples', 5), ('.', 6), \
('<UNK>', 7)]
>>> word_ids(vocab, "I love aples.")
[('I', 2), ('love', 4), ('aples', 7), ('.', 6)]
"""

from __future__ import annotations

from .corpus import split_words

UNK = "<UNK>"  # 003's spelling of the unknown word
CORPUS_003 = "I love apples. I like apples and pineapples."


def _order(word: str) -> tuple[bool, str, str]:
    """Words first, alphabetically ignoring case; then punctuation."""
    return (not any(c.isalnum() for c in word), word.lower(), word)


def word_vocab(text: str) -> dict[str, int]:
    """Each distinct word of `text` (punctuation split off) -> its ID, <UNK> last.

    >>> word_vocab("b a. A")
    {'A': 0, 'a': 1, 'b': 2, '.': 3, '<UNK>': 4}
    """
    words = set(split_words(text, split_punct=True))
    if not words:
        raise ValueError("The corpus is empty: give it at least one word.")
    ordered = sorted(words, key=_order)
    return {word: i for i, word in enumerate([*ordered, UNK])}


def word_ids(vocab: dict[str, int], text: str) -> list[tuple[str, int]]:
    """Each word of `text` with its ID; a word not in `vocab` gets the ID of <UNK>."""
    words = split_words(text, split_punct=True)
    if not words:
        raise ValueError("Type at least one word to look up.")
    return [(word, vocab.get(word, vocab[UNK])) for word in words]


def unknown(vocab: dict[str, int], text: str) -> list[str]:
    """The distinct words of `text` that the vocabulary lacks, in order.

    >>> unknown(word_vocab(CORPUS_003), "I love bananas and aples and bananas")
    ['bananas', 'aples']
    """
    return list(dict.fromkeys(w for w, i in word_ids(vocab, text) if i == vocab[UNK]))


def unseen_letters(corpus: str, word: str) -> list[str]:
    """The characters of `word` that never occur in `corpus`: a vocabulary of the corpus's
    characters cannot spell the word without them.

    >>> unseen_letters(CORPUS_003, "bananas"), unseen_letters(CORPUS_003, "aples")
    (['b'], [])
    """
    have = set(corpus)
    return list(dict.fromkeys(c for c in word if c not in have))
