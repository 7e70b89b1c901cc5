"""Parity-aware BPE (Foroutan, Meister et al. 2025): BPE on several languages at once,
where each merge serves the language that is currently longest on a parallel development
set. Before each merge the trainer encodes the dev set of every language with the merges
so far and counts its tokens; the language with the most tokens (the first such language
on a tie) chooses the merge: the pair most frequent in its own training corpus, ties to
the greater pair (the authors' rule, as CS336's). The merge is then applied to every
language's words. The first `global_merges` merges may be chosen on all languages' counts
together, as ordinary BPE does (the paper's hybrid); with all merges global this is
ordinary BPE on the concatenated corpora, the baseline the paper compares with.

Words are the characters of whitespace-separated words, with no word-boundary marker,
as the reference reads word-count files (its `--dict-input`).

On the issue's toy (English low 5, lower 2, newest 6, widest 3; a second language hug 10,
pug 5, pun 12, bun 4, hugs 5; dev sets "low newest widest" and "hug pun bun"), 8 merges:

>>> en = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
>>> xx = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
>>> dev = {"en": {"low": 1, "newest": 1, "widest": 1}, "xx": {"hug": 1, "pun": 1, "bun": 1}}
>>> run = train_parity({"en": en, "xx": xx}, dev, merges=8)
>>> [" ".join(s.pair) for s in run.steps]
['s t', 'e st', 'o w', 'l ow', 'w est', 'u g', 'n e', 'u n']
>>> run.dev_lengths, train_parity({"en": en, "xx": xx}, dev, 8, global_merges=8).dev_lengths
((7, 6), (9, 4))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

Pair = tuple[str, str]
MIN_FREQUENCY = 2  # the reference stops when the chosen language's best pair is rarer


@dataclass(frozen=True, slots=True)
class ParityStep:
    """One merge: the language it served (None: chosen on every language's counts), the
    dev set's tokens per language before it, the pair, its count in each training corpus,
    and the pairs tied with it in the serving language's counts."""

    number: int
    language: str | None
    dev_before: tuple[int, ...]
    pair: Pair
    counts: tuple[int, ...]
    tied_with: tuple[Pair, ...]
    top: tuple[tuple[str, str, int], ...]  # the serving language's most frequent pairs


@dataclass(frozen=True, slots=True)
class ParityRun:
    languages: tuple[str, ...]
    dev_start: tuple[int, ...]
    steps: tuple[ParityStep, ...]
    dev_lengths: tuple[int, ...]  # the dev set's tokens per language after the last merge
    stop_reason: str


def _words(counts: Mapping[str, int]) -> dict[tuple[str, ...], int]:
    """A word-count table as symbol tuples (one symbol per character)."""
    table: dict[tuple[str, ...], int] = {}
    for word, n in counts.items():
        if not word or any(c.isspace() for c in word):
            raise ValueError(f"A word may not be empty or hold a space: {word!r}.")
        if int(n) < 0:
            raise ValueError(f"A word's count must be 0 or more, not {n} ({word!r}).")
        table[tuple(word)] = table.get(tuple(word), 0) + int(n)
    return table


def _pair_counts(words: Mapping[tuple[str, ...], int]) -> Counter[Pair]:
    counts: Counter[Pair] = Counter()
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] += n
    return counts


def _merge(word: tuple[str, ...], pair: Pair) -> tuple[str, ...]:
    """`word` with every occurrence of `pair` joined, left to right."""
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def _merged(
    words: dict[tuple[str, ...], int], pair: Pair, counts: Counter[Pair] | None = None
) -> dict[tuple[str, ...], int]:
    """The words with `pair` merged; `counts` (their pair counts) follow the change."""
    out: dict[tuple[str, ...], int] = {}
    for word, n in words.items():
        new = _merge(word, pair) if pair[0] in word else word
        if counts is not None and new != word:
            for gone in zip(word, word[1:]):
                counts[gone] -= n
                if counts[gone] <= 0:
                    del counts[gone]
            for made in zip(new, new[1:]):
                counts[made] += n
        out[new] = out.get(new, 0) + n
    return out


def _length(words: Mapping[tuple[str, ...], int]) -> int:
    return sum(len(word) * n for word, n in words.items())


def train_parity(
    corpora: Mapping[str, Mapping[str, int]],
    dev: Mapping[str, Mapping[str, int]],
    merges: int,
    global_merges: int = 0,
    min_frequency: int = MIN_FREQUENCY,
    top: int = 8,
) -> ParityRun:
    """Learn `merges` merges on the training word counts of each language (`corpora`),
    serving the language longest on its `dev` word counts (the same languages, the same
    order), the first `global_merges` on every language's counts together."""
    languages = tuple(corpora)
    if len(languages) < 2:
        raise ValueError("Parity-aware BPE needs at least two languages, each with a corpus.")
    if tuple(dev) != languages:
        raise ValueError(
            f"Give a dev set for each language, in the same order: the corpora are "
            f"{', '.join(languages)}; the dev sets {', '.join(dev) or 'none'}."
        )
    if merges < 0 or global_merges < 0 or min_frequency < 1:
        raise ValueError(
            "The numbers of merges must be 0 or more, and the minimum frequency 1 or more."
        )
    train = [_words(corpora[lang]) for lang in languages]
    held = [_words(dev[lang]) for lang in languages]
    if not any(train):
        raise ValueError("Every training corpus is empty: give each language some words.")
    start = tuple(_length(words) for words in held)
    steps: list[ParityStep] = []
    reason = f"Learned the {merges} merges asked for."
    per_language = [_pair_counts(words) for words in train]  # kept up to date below
    for number in range(1, merges + 1):
        lengths = tuple(_length(words) for words in held)
        if number <= global_merges:
            served, counts = None, sum(per_language, Counter())
        else:
            index = max(range(len(languages)), key=lambda k: (lengths[k], -k))
            served, counts = languages[index], per_language[index]
        if not counts:
            reason = "No pair is left to merge: every word is one symbol."
            break
        best = max(counts, key=lambda p: (counts[p], p))  # ties: the greater pair
        if counts[best] < min_frequency:
            who = served or "the languages together"
            reason = (
                f"Stopped after {number - 1} merges: {who}'s most frequent pair occurs "
                f"{counts[best]} time(s), under the minimum frequency {min_frequency}."
            )
            break
        tied = tuple(sorted((p for p in counts if counts[p] == counts[best] and p != best),
                            reverse=True))  # fmt: skip
        # the serving counts as the rule reads them: most frequent first, a tie greater first
        ranked = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
        shown = tuple((a, b, n) for (a, b), n in ranked[:top])
        made = tuple(c.get(best, 0) for c in per_language)
        steps.append(ParityStep(number, served, lengths, best, made, tied, shown))
        train = [_merged(words, best, c) for words, c in zip(train, per_language)]
        held = [_merged(words, best) for words in held]
    return ParityRun(languages, start, tuple(steps), tuple(_length(w) for w in held), reason)
