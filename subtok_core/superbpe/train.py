"""SuperBPE and BoundlessBPE, byte-level as the reference trainers are
(kensho-technologies/fastboundlessbpe: tokens are bytes, the pre-split is GPT-4o's).

Both start with ordinary byte-level BPE: the text is cut into pre-tokens, each pre-token
starts as its UTF-8 bytes, and the most frequent pair inside a pre-token merges, ties to
the smallest pair. Then a pair may cross a pre-token boundary: a "superword run" is a run
of two or more neighbouring pre-tokens that are each one token of the ordinary vocabulary
and hold a letter (so "," and "." cut runs), and a supermerge joins two neighbouring
tokens of a run.

- SuperBPE (Liu et al. 2025): the ordinary merges up to the transition point, then only
  supermerges, on top of the whole ordinary vocabulary.
- BoundlessBPE (Schmidt et al. 2025): one budget of merges. The ordinary merges are learned
  first to the budget; then they are replayed in order, and at each step the best
  supermerge takes the step instead when it occurs more often than the next ordinary
  merge did (a tie goes to the ordinary merge, which may make a part of the supermerge).
  Both compete for the same budget.

Toy (the issue's): 20 x "by the way, of the people, by the people, for the people." and
10 x "in the end of the day we go by the way home.", GPT-4o's pattern, 32 merges: every
pre-token is one token and the first sentence 16 tokens. Eight supermerges make it 8 tokens;
BoundlessBPE with the same 32 merges makes it 8 as well.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..bytebpe.symbols import to_letters
from .encode import Encoder
from .merging import BytePair, count_pairs, merge_pair, ranked
from .presplit import joinable, split
from .records import ORDINARY, SUPER

TABLE_ROWS = 30  # pairs kept per step (the most frequent)
SHOWN_LINES = 40  # lines whose tokens every step keeps
MAX_CHARACTERS = 20_000  # distinct text a lesson trains on: every step re-encodes it


@dataclass(frozen=True)
class Found:
    """One merge as a trainer chose it: the pair, its count, the ranked candidates of its
    stage (best first), its stage, and the losing candidate of the other stage."""

    pair: BytePair
    count: int
    candidates: list[tuple[BytePair, int]]
    stage: str
    rival: tuple[BytePair, int] | None = None


def distinct_lines(source: str | Sequence[str]) -> dict[str, int]:
    """The non-empty lines of a text (or a list of lines), each with how often it occurs."""
    texts = [source] if isinstance(source, str) else list(source)
    counts: dict[str, int] = {}
    for line in (line for text in texts for line in text.splitlines()):
        if line.strip():
            counts[line] = counts.get(line, 0) + 1
    if not counts:
        raise ValueError("The corpus is empty: there is no line with text in it.")
    if sum(map(len, counts)) > MAX_CHARACTERS:
        raise ValueError(
            f"This lesson trains on at most {MAX_CHARACTERS:,} characters of distinct lines "
            "(every step encodes the corpus again); choose a smaller corpus."
        )
    return counts


def pretoken_counts(lines: dict[str, int], pattern: str) -> dict[bytes, int]:
    counts: dict[bytes, int] = {}
    for line, n in lines.items():
        for pretoken in split(line, pattern):
            data = pretoken.encode("utf-8")
            counts[data] = counts.get(data, 0) + n
    return counts


def ordinary_merges(pretokens: dict[bytes, int], merges: int, ties: str) -> Iterator[Found]:
    """Ordinary byte-level BPE inside the pre-tokens, one merge at a time."""
    tokens = {p: [p[i : i + 1] for i in range(len(p))] for p in pretokens}
    for _ in range(merges):
        counts = count_pairs((tokens[p], n) for p, n in pretokens.items())
        if not counts:
            return
        candidates = ranked(counts, ties)
        pair, count = candidates[0]
        yield Found(pair, count, candidates, ORDINARY)
        for p in tokens:
            tokens[p] = merge_pair(tokens[p], pair)


def superword_runs(lines: dict[str, int], pattern: str, words: set[bytes]) -> dict[tuple, int]:
    """Every run of two or more neighbouring pre-tokens that are each one ordinary token
    (in `words`) and hold a letter, with how often it occurs."""
    runs: dict[tuple, int] = {}
    for line, n in lines.items():
        run: list[bytes] = []
        for pretoken in [*split(line, pattern), None]:  # None closes the last run
            data = None if pretoken is None else pretoken.encode("utf-8")
            if data in words and joinable(pretoken):
                run.append(data)
                continue
            if len(run) >= 2:
                runs[tuple(run)] = runs.get(tuple(run), 0) + n
            run = []
    return runs


class Supermerges:
    """The runs, each as its current tokens, and the supermerges made on them.
    `max_words` (0: no limit, as the reference) is the SuperBPE paper's cap on the words
    (pre-tokens) one token may join; the paper uses 4."""

    def __init__(self, runs: dict[tuple, int], ties: str, max_words: int = 0):
        self.runs = {run: list(run) for run in runs}
        self.counts, self.ties, self.max_words = runs, ties, max_words
        self.words = {word: 1 for run in runs for word in run}  # token -> words it joins

    def allowed(self, pair: BytePair, made: set[bytes]) -> bool:
        """Both tokens already in the vocabulary (`made`), and not too many words."""
        if pair[0] not in made or pair[1] not in made:
            return False
        return not self.max_words or self.words[pair[0]] + self.words[pair[1]] <= self.max_words

    def candidates(self, made: set[bytes]) -> list[tuple[BytePair, int]]:
        """The pairs inside runs that may merge, best first."""
        counts = count_pairs((self.runs[r], n) for r, n in self.counts.items())
        return [(p, n) for p, n in ranked(counts, self.ties) if self.allowed(p, made)]

    def merge(self, pair: BytePair) -> None:
        self.words[pair[0] + pair[1]] = self.words[pair[0]] + self.words[pair[1]]
        for run in self.runs:
            self.runs[run] = merge_pair(self.runs[run], pair)


def ordinary_stage(lines, pattern, merges, ties) -> tuple[list[Found], set[bytes]]:
    """The ordinary merges and the pre-tokens that end as one token."""
    pretokens = pretoken_counts(lines, pattern)
    found = list(ordinary_merges(pretokens, merges, ties))
    made = {f.pair[0] + f.pair[1] for f in found} | {bytes([b]) for b in range(256)}
    cut = Encoder([tuple(map(to_letters, f.pair)) for f in found], [False] * len(found), pattern)
    words = {p for p in pretokens if cut.word(p.decode("utf-8")) == [p] and p in made}
    return found, words


def superbpe_merges(lines, pattern, merges, supermerges, ties, max_words=0) -> Iterator[Found]:
    """SuperBPE: `merges` ordinary merges (the transition point), then `supermerges`, each
    token joining at most `max_words` words (0: any number)."""
    found, words = ordinary_stage(lines, pattern, merges, ties)
    yield from found
    made = {bytes([b]) for b in range(256)} | {f.pair[0] + f.pair[1] for f in found}
    stage2 = Supermerges(superword_runs(lines, pattern, words), ties, max_words)
    for _ in range(supermerges):
        candidates = stage2.candidates(made)
        if not candidates:
            return
        pair, count = candidates[0]
        yield Found(pair, count, candidates, SUPER)
        stage2.merge(pair)
        made.add(pair[0] + pair[1])


def boundless_merges(lines, pattern, merges, ties) -> Iterator[Found]:
    """BoundlessBPE: the ordinary merges replayed, each step taken by the best supermerge
    instead when its count is higher than the next ordinary merge's."""
    found, words = ordinary_stage(lines, pattern, merges, ties)
    stage2 = Supermerges(superword_runs(lines, pattern, words), ties)
    made = {bytes([b]) for b in range(256)}
    k = 0  # the next ordinary merge to replay
    for _ in range(len(found)):
        supers = stage2.candidates(made)
        ordinary = found[k] if k < len(found) else None
        best = supers[0] if supers else None
        if best and (ordinary is None or best[1] > ordinary.count):
            rival = None if ordinary is None else (ordinary.pair, ordinary.count)
            yield Found(best[0], best[1], supers, SUPER, rival)
            stage2.merge(best[0])
            made.add(best[0][0] + best[0][1])
        elif ordinary is not None:
            yield Found(ordinary.pair, ordinary.count, ordinary.candidates, ORDINARY, best)
            made.add(ordinary.pair[0] + ordinary.pair[1])
            k += 1
        else:
            return
