"""The sample as SaGe sees it: sentences of words, each word cut greedily into pieces.

Every word is written with the ``▁`` word-start marker and cut by greedy longest prefix
(the longest piece of the vocabulary that starts the rest of the word, again and again),
the inference the SaGe paper applies. Words are cut once per distinct word; the running
tokens of the whole sample are one numpy array rebuilt after each prune.

>>> c = SentenceCorpus(["▁", "a", "b", "▁a", "▁ab", "ab"], [["ab", "ba"], ["ab"]])
>>> [c.pieces[i] for i in c.flat]
['▁ab', '▁', 'b', 'a', '▁ab']
>>> c.remove([c.index["▁ab"]])
>>> [c.pieces[i] for i in c.flat], c.sentence_tokens(0)
(['▁a', 'b', '▁', 'b', 'a', '▁a', 'b'], ['▁a', 'b', '▁', 'b', 'a'])
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence

import numpy as np

from ..corpus import load_lines, split_words
from ..corpus.words import split_sentences
from ..records import SOW

UNKNOWN = -1  # the id of a character that no piece covers (never seen in training)


def sample_sentences(
    source: str | Sequence[str],
    limit: int | None = None,
    sentences: bool = True,
    *,
    allow_paths: bool = False,
) -> list[list[str]]:
    """A corpus name (or its lines) -> sentences as word lists: lines are split into
    sentences (SaGe's context unit), empty ones dropped; `limit` keeps the first lines.
    A name may be a .txt path only with `allow_paths` (the command line; see corpus.load).

    >>> sample_sentences(["It rains. The cat sleeps.", "  ", "Done."])
    [['It', 'rains.'], ['The', 'cat', 'sleeps.'], ['Done.']]
    """
    lines = load_lines(source, allow_paths=allow_paths) if isinstance(source, str) else list(source)
    lines = [line for line in lines[:limit] if line.strip()]
    units = split_sentences(lines) if sentences else lines
    return [words for words in (split_words(u) for u in units) if words]


def greedy(text: str, index: dict[str, int], max_len: int, banned: int = UNKNOWN) -> list[int]:
    """Cut `text` by greedy longest prefix; `banned` is a piece id treated as absent.

    >>> greedy("▁abc", {"▁": 0, "a": 1, "b": 2, "c": 3, "▁ab": 4, "bc": 5}, 3)
    [4, 3]
    >>> greedy("▁abc", {"▁": 0, "a": 1, "b": 2, "c": 3, "▁ab": 4, "bc": 5}, 3, banned=4)
    [0, 1, 5]
    """
    ids: list[int] = []
    i, n = 0, len(text)
    while i < n:
        for j in range(min(n, i + max_len), i, -1):
            found = index.get(text[i:j], UNKNOWN)
            if found != UNKNOWN and found != banned:
                ids.append(found)
                i = j
                break
        else:  # no piece, not even the character: it was never seen in training
            ids.append(UNKNOWN)
            i += 1
    return ids


def is_protected(piece: str) -> bool:
    """Single characters and ``▁`` + one character are never pruned (every word stays
    spellable, as in Unigram LM and SaGe §3 note 3).

    >>> [is_protected(p) for p in ("a", "▁", "▁a", "ab", "▁ab")]
    [True, True, True, False, False]
    """
    return len(piece) == 1 or (len(piece) == 2 and piece.startswith(SOW))


class SentenceCorpus:
    """Sentences of words tokenized by greedy longest prefix over a shrinking vocabulary.

    Pieces keep the id they had in the initial vocabulary for the whole run (``alive``
    says which are still in it), so embeddings and step records index them the same way.
    """

    def __init__(self, pieces: Sequence[str], sentences: Iterable[Sequence[str]]):
        self.pieces = list(pieces)
        self.alive = np.ones(len(self.pieces), dtype=bool)
        self.index = {p: i for i, p in enumerate(self.pieces)}
        self.protected = np.array([is_protected(p) for p in self.pieces], dtype=bool)
        self.max_len = max(map(len, self.pieces))
        word_id: dict[str, int] = {}
        running: list[int] = []
        sentence_starts = [0]
        for sentence in sentences:
            running.extend(word_id.setdefault(SOW + w, len(word_id)) for w in sentence)
            sentence_starts.append(len(running))
        self.words = list(word_id)
        self.sentence_word_start = np.asarray(sentence_starts, dtype=np.int64)
        self.running = np.asarray(running, dtype=np.int64)  # distinct-word id per running word
        self.sentence_of_word = np.repeat(
            np.arange(len(sentence_starts) - 1), np.diff(sentence_starts)
        )
        self.segs = [tuple(greedy(w, self.index, self.max_len)) for w in self.words]
        self._recuts: dict[tuple[int, int], tuple[int, ...]] = {}  # see recut
        self._rebuild()

    def copy(self) -> SentenceCorpus:
        """A copy that prunes on its own: what ``remove`` changes in place (``alive``,
        ``index``, the cuts, the remembered cuts of ``recut``) is copied; the rest is shared
        (``_rebuild`` replaces it)."""
        other = copy.copy(self)
        other.alive, other.index, other.segs = self.alive.copy(), dict(self.index), list(self.segs)
        other._recuts = dict(self._recuts)
        return other

    @property
    def n_sentences(self) -> int:
        return len(self.sentence_start) - 1

    def _rebuild(self) -> None:
        """The running tokens and where each word and sentence starts in them."""
        lengths = np.fromiter(map(len, self.segs), dtype=np.int64, count=len(self.segs))
        word_lengths = lengths[self.running]
        self.word_start = np.concatenate([[0], np.cumsum(word_lengths)])
        seg_flat = np.fromiter(
            (t for seg in self.segs for t in seg), dtype=np.int64, count=int(lengths.sum())
        )
        seg_start = np.concatenate([[0], np.cumsum(lengths)])
        # token j of running word r is seg_flat[seg_start[word r] + j]
        within = np.arange(int(self.word_start[-1])) - np.repeat(self.word_start[:-1], word_lengths)
        self.flat = seg_flat[np.repeat(seg_start[self.running], word_lengths) + within]
        self.sentence_of_token = np.repeat(self.sentence_of_word, word_lengths)
        self.word_of_token = np.repeat(np.arange(len(self.running)), word_lengths)  # running word
        self.sentence_start = self.word_start[self.sentence_word_start]

    def remove(self, ids: Iterable[int]) -> None:
        """Take pieces out of the vocabulary and re-cut every word that used them."""
        ids = list(ids)
        self.alive[ids] = False
        for t in ids:
            del self.index[self.pieces[t]]
        # the distinct words cut with a removed piece: those of its running tokens
        used = np.zeros(len(self.pieces) + 1, dtype=bool)  # the extra entry: UNKNOWN (-1)
        used[ids] = True
        touched = np.unique(self.running[self.word_of_token[used[self.flat]]])
        for w in touched.tolist():
            self.segs[w] = tuple(greedy(self.words[w], self.index, self.max_len))
        # a remembered cut stays right unless it used a removed piece (see recut)
        gone = set(ids)
        self._recuts = {
            key: cut
            for key, cut in self._recuts.items()
            if key[1] not in gone and gone.isdisjoint(cut)
        }
        self._rebuild()

    def recut(self, w: int, t: int) -> tuple[int, ...]:
        """Distinct word `w` cut without piece `t` (what its ablation would make of it).

        Cuts are remembered from one prune step to the next: greedy longest prefix makes
        the same choice at every position of a cut when a piece the cut does not use goes,
        so a remembered cut is only dropped when a piece it uses is removed.
        """
        cut = self._recuts.get((w, t))
        if cut is None:
            cut = tuple(greedy(self.words[w], self.index, self.max_len, t))
            self._recuts[w, t] = cut
        return cut

    def usage(self) -> np.ndarray:
        """How often each piece occurs in the running tokens (0 for unused and pruned)."""
        return np.bincount(self.flat, minlength=len(self.pieces))

    def vocab(self) -> list[str]:
        return [p for p, keep in zip(self.pieces, self.alive, strict=True) if keep]

    def sentence_tokens(self, s: int) -> list[str]:
        a, b = self.sentence_start[s], self.sentence_start[s + 1]
        return [self.pieces[t] for t in self.flat[a:b].tolist()]

    def token_sentences(self) -> list[list[str]]:
        """Every sentence as its list of piece strings (what Word2Vec trains on)."""
        names = self.pieces
        bounds = self.sentence_start.tolist()
        flat = self.flat.tolist()
        return [[names[t] for t in flat[a:b]] for a, b in zip(bounds, bounds[1:])]
