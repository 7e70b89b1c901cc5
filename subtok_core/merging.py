"""The corpus under merges, shared by the BPE and WordPiece trainers.

Symbol i is written as the character chr(i), so a word is a str and a pair a 2-char str:
finding and replacing a pair runs in C (str.replace merges left to right without overlap,
as both algorithms do). Ids follow Hugging Face tokenizers: initial symbols in code point
order (BPE's word-final `x</w>` forms after them), then merged symbols in the order they
are made. `where` maps a pair to the words it was seen in; it may keep words that lost the
pair (merging there finds nothing), so it never needs cleaning. Its tuples are in word
order (a merge notes words in the order of the merged pair's tuple), except where a merge
re-creates a symbol that already exists; such pairs are kept in `unsorted`. They are
tuples, not lists, for the cycle collector: a tuple of ints is dropped from its watch at
its first pass, while 100,000 lists (a real sample) would be walked again and again; on
the Wikipedia sample those passes cost about a tenth of the training.

>>> from subtok_core.corpus import from_pairs
>>> corpus = SymbolCorpus(from_pairs([("abab", 2)]), [list("abab")], ["a", "b"], "first")
>>> counts = corpus.initial_pair_counts()
>>> new, is_new = corpus.intern("ab")
>>> delta, merged = corpus.merge_words(corpus.ids["a"] + corpus.ids["b"], new, is_new)
>>> corpus.segmentations(), merged, sorted((corpus.pair_name(p), d) for p, d in delta.items() if d)
((('ab', 'ab'),), 4, [(('ab', 'ab'), 2), (('b', 'a'), -2)])
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import repeat
from operator import add

from . import limits
from .corpus import WordCounts
from .merge_runs import (  # noqa: F401  (the trainers and commands import them from here)
    TIE_RULES,
    add_merge_options,
    collect_steps,
    load_words,
    merge_goal,
    snapshot_mode,
    stop_reason,
)
from .records import UNK

# the pairs a merge made, side by side: the pairs, the old pair each stands in place of,
# and the words each is made in (a word once per pair made there)
Made = tuple[list[str], list[str], list[list[int]]]


class SymbolCorpus:
    """Words as strings of symbol ids, the words each pair occurs in, and tie orders.

    `refuse_unknown`: [UNK] may not be learned where it stands for unknown characters;
    byte-level BPE has no unknown token (every text is bytes), so it passes False and
    learns "[UNK]" like any other text.
    """

    def __init__(
        self,
        wc: WordCounts,
        segs: Iterable[Sequence[str]],
        names: list[str],
        ties: str,
        refuse_unknown: bool = True,
    ):
        if ties not in TIE_RULES:
            raise ValueError(f"Unknown tie rule {ties!r}; choose one of {', '.join(TIE_RULES)}.")
        limits.check_words(wc.words)
        if refuse_unknown:
            _refuse_unknown_token(wc.words)
        self.ties, self.counts = ties, list(wc.counts)
        self.names = list(names)
        self.ids = {s: chr(i) for i, s in enumerate(self.names)}
        # a word given as a str is cut into its characters: translated in one go, in C
        table = {ord(s): i for s, i in self.ids.items() if len(s) == 1}
        id_of = self.ids.__getitem__
        self.words = [
            seg.translate(table) if isinstance(seg, str) else "".join(map(id_of, seg))
            for seg in segs
        ]
        self.where: dict[str, tuple[int, ...]] = {}
        self.unsorted: set[str] = set()
        self.corpus_symbols = sum(len(s) * c for s, c in zip(self.words, self.counts))

    def initial_pair_counts(self) -> dict[str, int]:
        """Note where every adjacent pair occurs (a word once per occurrence), then count
        each pair: the counts of its words added up."""
        where: dict[str, list[int]] = defaultdict(list)
        for w, word in enumerate(self.words):
            # map(add, ...) glues each symbol to the next in C: the word's pairs, in order
            for pair in map(add, word, word[1:]):
                where[pair].append(w)
        self.where.update(zip(where, map(tuple, where.values())))
        count_of = self.counts.__getitem__
        return {pair: sum(map(count_of, found)) for pair, found in where.items()}

    def name(self, symbol: str) -> str:
        return self.names[ord(symbol)]

    def pair_name(self, pair: str) -> tuple[str, str]:
        return self.names[ord(pair[0])], self.names[ord(pair[1])]

    def intern(self, name: str) -> tuple[str, bool]:
        """The id of a symbol string, made on first use; and whether it is new."""
        if name in self.ids:
            return self.ids[name], False
        self.ids[name] = chr(len(self.names))
        self.names.append(name)
        return self.ids[name], True

    def first_seen(self, pair: str) -> tuple[int, int]:
        """(word index, symbol index) of the pair's first occurrence in the corpus now."""
        words, seen = self.words, self.where[pair]
        if pair in self.unsorted:
            w = min(w for w in set(seen) if pair in words[w])
        else:  # in word order: the first word that still has the pair
            w = next(w for w in seen if pair in words[w])
        return (w, words[w].find(pair))

    def tie_order(self, pair: str):
        """Sort key among equally good pairs: the tie rule of this run."""
        if self.ties == "first":
            return self.first_seen(pair)
        if self.ties == "lex":
            return self.pair_name(pair)
        return pair  # ids: code point order, then merge order (tokenizers' rule)

    def merge_words(self, pair: str, new: str, is_new: bool) -> tuple[dict[str, int], int]:
        """Replace the pair by `new` in every word that has it.

        Returns the change of every pair count next to a merge (the merged pair's own
        count is left to the caller: it is gone) and how many symbols left the corpus.
        """
        if not is_new:
            return self._recount_words(pair, new)
        made, merged = self.replace_pair(pair, new)
        # each new pair gains what its words count, the old pair it replaced loses as much
        delta: dict[str, int] = defaultdict(int)
        count_of = self.counts.__getitem__
        for made_pair, replaced, made_words in zip(*made):
            n = delta[made_pair] = sum(map(count_of, made_words))
            delta[replaced] -= n
        self.note_made(pair, made)
        return delta, merged

    def replace_pair(self, pair: str, new: str) -> tuple[Made, int]:
        """Replace the pair by `new`, a symbol no word has yet, in every word that has it.

        Returns the pairs the new symbol makes with its neighbours (see `Made`) and how
        many symbols left the corpus. The loop only notes the words by neighbour; the
        counts follow from them. Call `note_made` once the counts are taken.

        >>> from subtok_core.corpus import from_pairs
        >>> wc = from_pairs([("abc", 1), ("xab", 2)])
        >>> corpus = SymbolCorpus(wc, wc.words, list("abcx"), "first")
        >>> _ = corpus.initial_pair_counts()
        >>> ab = corpus.ids["a"] + corpus.ids["b"]
        >>> (pairs, replaced, words), merged = corpus.replace_pair(ab, corpus.intern("ab")[0])
        >>> [corpus.pair_name(p) for p in pairs], [corpus.pair_name(p) for p in replaced]
        ([('x', 'ab'), ('ab', 'c')], [('x', 'a'), ('b', 'c')])
        >>> words, merged  # xab (word 1) makes (x, ab), abc (word 0) makes (ab, c); 1 + 2 merges
        ([[1], [0]], 3)
        """
        left: dict[str, list[int]] = defaultdict(list)  # x -> words where (x, new) is made
        right: dict[str, list[int]] = defaultdict(list)  # y -> words where (new, y) is made
        words, counts = self.words, self.counts
        merged = 0
        for w in self.where.pop(pair, ()):
            old = words[w]
            i = old.find(pair)
            if i < 0:
                continue  # this word lost the pair to an earlier merge
            word = words[w] = old.replace(pair, new)
            end = len(old) - 2
            if len(word) == end + 1:  # merged once (most words): neighbours are in old
                merged += counts[w]
                if i:  # the left neighbour now pairs with the new symbol
                    left[old[i - 1]].append(w)
                if i < end:  # and so does the right one
                    right[old[i + 2]].append(w)
                continue
            merged += counts[w] * (len(old) - len(word))
            last = len(word) - 1
            j = word.find(new)
            while j >= 0:
                if j:  # the left neighbour (maybe new itself) now pairs with new
                    left[word[j - 1]].append(w)
                if j < last and word[j + 1] != new:  # and so does the right one
                    right[word[j + 1]].append(w)
                j = word.find(new, j + 1)
        self.corpus_symbols -= merged
        # (x, new) stands where (x, a) was, (new, y) where (b, y) was, and (new, new) where
        # (b, a) was between two merges; map(add, ...) glues the symbol ids in C
        a, b = pair
        twice = left.pop(new, None)
        made = (
            [*map(add, left, repeat(new)), *map(add, repeat(new), right)],
            [*map(add, left, repeat(a)), *map(add, repeat(b), right)],
            [*left.values(), *right.values()],
        )
        if twice:  # two merges side by side in a word
            made[0].append(new + new)
            made[1].append(b + a)
            made[2].append(twice)
        return made, merged

    def note_made(self, pair: str, made: Made) -> None:
        """Keep the words of the pairs a merge made (no pair with a new symbol has any)."""
        made_pairs, _, made_words = made
        self.where.update(zip(made_pairs, map(tuple, made_words)))
        if pair in self.unsorted:  # the tuples made here follow this pair's tuple order
            self.unsorted.update(made_pairs)

    def _recount_words(self, pair: str, new: str) -> tuple[dict[str, int], int]:
        """`merge_words` when the new symbol stands in some words already (an old symbol
        made again): pairs may move inside a word, so each word is recounted whole."""
        delta: dict[str, int] = defaultdict(int)
        added: dict[str, list[int]] = defaultdict(list)  # words to add to `where`
        words, counts, where = self.words, self.counts, self.where
        merged = 0
        for w in where.pop(pair, ()):
            old = words[w]
            if pair not in old:
                continue  # this word lost the pair to an earlier merge
            word = words[w] = old.replace(pair, new)
            c = counts[w]
            merged += c * (len(old) - len(word))
            _diff_pairs(old, word, c, delta, added, w)
        for p, ws in added.items():  # a tuple grows once per merge, not once per word
            where[p] = (*where.get(p, ()), *ws)
        self.unsorted.update(added)  # the words added may come before the ones it had
        self.corpus_symbols -= merged
        return delta, merged

    def segmentations(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(self.name(s) for s in word) for word in self.words)


def _refuse_unknown_token(words) -> None:
    """[UNK] stands for what the vocabulary cannot spell; learned as a piece, a known word
    could no longer be told from an unknown character."""
    for word in words:
        if UNK in word:
            raise ValueError(
                f"The corpus word {word!r} contains {UNK}, the name of the unknown token; "
                "it cannot be learned as a piece. Remove it or spell it differently."
            )


def _diff_pairs(old: str, new: str, c: int, delta: dict, added: dict, w: int) -> None:
    """Pair changes of one word by recounting it (when the new symbol was there before)."""
    for pair in map(add, old, old[1:]):
        delta[pair] -= c
    for pair in map(add, new, new[1:]):
        delta[pair] += c
        added[pair].append(w)
