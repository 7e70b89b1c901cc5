"""Parity-aware BPE as the lab's other algorithms run: a corpus per language and a dev
text per language in, a Trace out (``trace_parity``), the model after any step.

The merges, the languages served and the dev lengths are ``train_parity``'s; this module
adds what a lesson shows beside them: the vocabulary and the training corpora's length
after each merge.

>>> from subtok_core.parity.trace import load, trace_parity
>>> source = load("en=toy:low-lower xx=toy:hug-pug")
>>> trace = trace_parity(source, {"en": "low newest widest", "xx": "hug pun bun"}, merges=8)
>>> [(s.language, s.new_symbol) for s in trace.steps][:3]
[('en', 'st'), ('en', 'est'), ('en', 'ow')]
>>> trace.steps[-1].dev_after
(7, 6)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from .. import corpus
from ..records import Trace
from .records import ParityModel, ParityRecord, ParityStart
from .train import MIN_FREQUENCY, _length, _merge, _merged, _words, train_parity

SourceSpec = str | Sequence[str]


def pairs_of(items: SourceSpec, what: str) -> list[tuple[str, str]]:
    """`LANG=VALUE` items (a string is split at whitespace) as (LANG, VALUE), each language
    once; anything else is a sentence."""
    items = items.split() if isinstance(items, str) else list(items)
    out: list[tuple[str, str]] = []
    for item in items:
        lang, sep, value = item.partition("=")
        lang = lang.strip()
        if not sep or not lang or not value.strip():
            raise ValueError(
                f"Give each {what} as LANG=VALUE (for example en=toy:low-lower), not {item!r}."
            )
        if lang in dict(out):
            raise ValueError(f"The language {lang!r} is given twice; give each {what} once.")
        out.append((lang, value.strip()))
    if len(out) < 2:
        raise ValueError(f"Parity-aware BPE needs at least two languages: give a {what} for each.")
    return out


def load(spec: SourceSpec, split_punct: bool = False, *, allow_paths: bool = False):
    """`en=toy:low-lower xx=toy:hug-pug` -> {LANG: word counts}, each corpus loaded as the
    lab loads a corpus (toy:NAME, sample:NAME; a .txt path on the command line)."""
    return {
        lang: dict(corpus.load(name, split_punct, allow_paths=allow_paths).items())
        for lang, name in pairs_of(spec, "corpus")
    }


def dev_counts(dev: Mapping[str, str] | Sequence[tuple[str, str]], languages) -> dict:
    """Dev texts (LANG -> text) as word counts in the corpora's order of languages."""
    texts = dict(dev)
    if set(texts) != set(languages):
        raise ValueError(
            f"Give a dev text for each language of the corpora ({', '.join(languages)}); "
            f"the dev texts are for {', '.join(texts) or 'none'}."
        )
    out = {}
    for lang in languages:
        words = Counter(str(texts[lang]).split())
        if not words:
            raise ValueError(f"The dev text of {lang} is empty: give it a sentence or more.")
        out[lang] = dict(words)
    return out


def trace_parity(
    source: Mapping[str, Mapping[str, int]],
    dev: Mapping[str, str] | Sequence[tuple[str, str]],
    merges: int,
    global_merges: int = 0,
    min_frequency: int = MIN_FREQUENCY,
    progress=None,
) -> Trace:
    """The whole run: train_parity's merges, with the vocabulary and corpus length after
    each. `dev` holds each language's dev text; its words are counted at whitespace."""
    languages = tuple(source)
    texts = dict(dev)
    held = dev_counts(texts, languages) if len(languages) >= 2 else dict(texts)
    run = train_parity(source, held, merges, global_merges, min_frequency)
    words = [_words(source[lang]) for lang in languages]
    alphabet = sorted({ch for table in words for word in table for ch in word})
    vocab = list(alphabet)
    steps = []
    afters = [s.dev_before for s in run.steps[1:]] + [run.dev_lengths]
    for step, after in zip(run.steps, afters):
        words = [_merged(table, step.pair) for table in words]
        new = step.pair[0] + step.pair[1]
        if new not in vocab:
            vocab.append(new)
        steps.append(ParityRecord(
            step.number, step.language, step.dev_before, after, step.pair, step.counts,
            step.tied_with, step.top, len(vocab), sum(_length(t) for t in words),
        ))  # fmt: skip
    start_symbols = sum(_length(_words(source[lang])) for lang in languages)
    everything = [(w, n) for lang in languages for w, n in source[lang].items()]
    start = ParityStart(
        languages, tuple(texts[lang] for lang in languages), run.dev_start, tuple(alphabet),
        start_symbols, (), tuple(w for w, _ in everything), tuple(int(n) for _, n in everything),
    )  # fmt: skip
    said = ", ".join(f"{lang} {n}" for lang, n in zip(languages, run.dev_lengths))
    reason = f"{run.stop_reason} Dev tokens: {said} ({sum(run.dev_lengths)} in all)."
    params = (("dev", tuple((lang, texts[lang]) for lang in languages)), ("merges", merges),
              ("global_merges", global_merges), ("min_frequency", min_frequency))  # fmt: skip
    truncated = len(steps) < merges
    return Trace("parity", params, start, tuple(steps), truncated, reason, False)


def iter_parity(source, **params) -> Iterator[ParityRecord]:
    """The merges one at a time (the whole run is short: it is trained, then yielded)."""
    yield from trace_parity(source, **params).steps


def corpus_at(trace: Trace, i: int, limit: int | None = None):
    """The training words (every language's, in order) cut after the first i merges, as
    (word, count, pieces): what a class poll shows on the phones."""
    start, merges = trace.start, [step.pair for step in trace.steps[:i]]
    rows = []
    for word, count in list(zip(start.words, start.counts))[:limit]:
        pieces = tuple(word)
        for pair in merges:
            pieces = _merge(pieces, pair)
        rows.append((word, count, pieces))
    return rows


def model_from_trace(trace: Trace, i: int | None = None, split_punct: bool = False):
    """The model after the first i merges (all by default)."""
    steps = trace.steps if i is None else trace.steps[:i]
    vocab = list(trace.start.vocab)
    for step in steps:
        if step.new_symbol not in vocab:
            vocab.append(step.new_symbol)
    merges = tuple(step.pair for step in steps)
    return ParityModel(merges, tuple(vocab), tuple(trace.start.vocab), "none", split_punct)
