"""WordPiece invariants on random small corpora (hypothesis), checked against a naive reference.

The reference below recounts every pair and every symbol of the whole corpus before every
merge, scores every pair as an exact Fraction, and knows nothing of the trainer's
incremental bookkeeping or its float-keyed heap. Encoding is checked against Hugging Face
tokenizers' WordPiece model, which implements the same longest-match-first rule.
"""

from __future__ import annotations

import pickle
import random
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers.models import WordPiece as HfWordPiece

from subtok_core.bpe import TIE_RULES
from subtok_core.corpus import WordCounts, from_pairs
from subtok_core.wordpiece import (
    SPECIAL_TOKENS,
    iter_wordpiece,
    model_from_trace,
    segment,
    trace_wordpiece,
    train_wordpiece,
)

# a small alphabet (many repeated pairs), a Cyrillic letter, an emoji, and "#", which can
# build symbols that look like the prefix ("#" + "###" -> "##")
ALPHABET = "abcж😀#"
PREFIXES = ("##", "@@", "")

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- the naive reference --------------------------------------------------------------


def naive_initial(word: str, prefix: str) -> tuple[str, ...]:
    return (word[0], *(prefix + ch for ch in word[1:]))


def join_back(seg, prefix: str) -> str:
    """The word a segmentation stands for: non-first pieces lose their prefix."""
    return seg[0] + "".join(piece[len(prefix) :] for piece in seg[1:])


def recount(segs, counts):
    """Pair counts and symbol counts of the whole corpus, weighted by the word counts."""
    pairs: dict[tuple[str, str], int] = {}
    symbols: dict[str, int] = {}
    for seg, c in zip(segs, counts, strict=True):
        for pair in pairwise(seg):
            pairs[pair] = pairs.get(pair, 0) + c
        for symbol in seg:
            symbols[symbol] = symbols.get(symbol, 0) + c
    return pairs, symbols


def exact_scores(pairs, symbols) -> dict[tuple[str, str], Fraction]:
    return {(a, b): Fraction(c, symbols[a] * symbols[b]) for (a, b), c in pairs.items()}


def tie_key(ties, segs, ids):
    if ties == "first":
        pos: dict[tuple[str, str], tuple[int, int]] = {}
        for w, seg in enumerate(segs):
            for i, pair in enumerate(pairwise(seg)):
                pos.setdefault(pair, (w, i))
        return lambda pair: pos[pair]
    if ties == "lex":
        return lambda pair: pair
    return lambda pair: (ids[pair[0]], ids[pair[1]])


def apply_merge(seg, pair, new) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(seg):
        if i + 1 < len(seg) and (seg[i], seg[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(seg[i])
            i += 1
    return tuple(out)


def naive_wordpiece(words, counts, prefix, ties, n_merges, specials=()):
    """Rescore every pair before each merge; the highest exact score wins, ties by the rule.
    Returns one dict per merge, the final segmentations and the final vocabulary."""
    segs = [naive_initial(w, prefix) for w in words]
    names = sorted({s for seg in segs for s in seg})
    ids = {s: i for i, s in enumerate(names)}
    vocab = list(specials) + [s for s in names if s not in specials]
    steps = []
    for _ in range(n_merges):
        pairs, symbols = recount(segs, counts)
        if not pairs:
            break
        score = exact_scores(pairs, symbols)
        key = tie_key(ties, segs, ids)
        best = max(score.values())
        tied = sorted((p for p, s in score.items() if s == best), key=key)
        (a, b), most = tied[0], max(pairs.values())
        new = a + b[len(prefix) :]
        steps.append(
            {
                "pair": (a, b),
                "score": best,
                "counts": (pairs[(a, b)], symbols[a], symbols[b]),
                "tied_with": tuple(tied[1:]),
                "bpe": (min((p for p, c in pairs.items() if c == most), key=key), most),
                "new_symbol": new,
                "new_in_vocab": new not in vocab,
            }
        )
        ids.setdefault(new, len(ids))
        if new not in vocab:
            vocab.append(new)
        segs = [apply_merge(seg, (a, b), new) for seg in segs]
    return steps, segs, vocab


# --- strategies -----------------------------------------------------------------------

words_st = st.text(alphabet=ALPHABET, min_size=1, max_size=7)
corpus_st = st.dictionaries(words_st, st.integers(1, 20), min_size=1, max_size=7)


@st.composite
def setups(draw):
    wc = from_pairs(list(draw(corpus_st).items()))
    prefix = draw(st.sampled_from(PREFIXES))
    ties = draw(st.sampled_from(TIE_RULES))
    return wc, prefix, ties, draw(st.integers(0, 30))


def snapshot_trace(wc: WordCounts, prefix, ties, merges, special_tokens=False):
    return trace_wordpiece(
        wc, merges, prefix=prefix, ties=ties, special_tokens=special_tokens, snapshot=True
    )


def states(trace):
    """The segmentations before each step, then after the last one."""
    return [trace.start.segmentations] + [s.segmentations for s in trace.steps]


# --- training -------------------------------------------------------------------------


@SETTINGS
@given(setups(), st.booleans())
@pytest.mark.slow  # a long run (fast tier: README)
def test_steps_equal_the_naive_reference(setup, special_tokens):
    wc, prefix, ties, merges = setup
    specials = SPECIAL_TOKENS if special_tokens else ()
    expected, final, vocab = naive_wordpiece(wc.words, wc.counts, prefix, ties, merges, specials)
    trace = snapshot_trace(wc, prefix, ties, merges, special_tokens)
    got = [
        {
            "pair": s.pair,
            "score": s.score_fraction,
            "counts": (s.pair_count, s.left_count, s.right_count),
            "tied_with": s.tied_with,
            "bpe": (s.bpe_pair, s.bpe_count),
            "new_symbol": s.new_symbol,
            "new_in_vocab": s.new_in_vocab,
        }
        for s in trace.steps
    ]
    assert got == expected
    assert states(trace)[-1] == tuple(final)
    assert list(model_from_trace(trace).vocab) == vocab
    size = len(specials) + len(trace.start.alphabet)
    for step in trace.steps:  # the vocabulary grows by one per merge that makes a new symbol
        size += step.new_in_vocab
        assert step.vocab_size == size


@SETTINGS
@given(setups())
def test_pair_tables_equal_a_recount(setup):
    wc, prefix, ties, merges = setup
    trace = snapshot_trace(wc, prefix, ties, merges)
    before = states(trace)
    assert before[0] == tuple(naive_initial(w, prefix) for w in wc.words)
    # the start table and each step's table score the corpus as it was before that step
    checks = [(trace.start.pair_table, before[0])]
    checks += [(step.pair_table, before[i]) for i, step in enumerate(trace.steps)]
    for table, segs in checks:
        pairs, symbols = recount(segs, wc.counts)
        expected = exact_scores(pairs, symbols)
        rows = {(r.left, r.right): r for r in table}
        assert len(rows) == len(table) == len(expected)
        for pair, row in rows.items():
            assert row.score_fraction == expected[pair]
            assert (row.pair_count, row.left_count, row.right_count) == (
                pairs[pair],
                symbols[pair[0]],
                symbols[pair[1]],
            )
            assert row.score == float(row.score_fraction)
        fractions = [r.score_fraction for r in table]
        assert fractions == sorted(fractions, reverse=True)
    for step in trace.steps:
        # the chosen pair has the highest exact score of its table and heads it
        assert step.score_fraction == max(r.score_fraction for r in step.pair_table)
        assert (step.pair_table[0].left, step.pair_table[0].right) == step.pair
        assert step.score == float(step.score_fraction)


@SETTINGS
@given(setups())
def test_segmentations_join_back_to_the_words(setup):
    wc, prefix, ties, merges = setup
    trace = snapshot_trace(wc, prefix, ties, merges)
    for segs in states(trace):
        assert tuple(join_back(seg, prefix) for seg in segs) == wc.words
    for step in trace.steps:
        assert step.new_symbol == step.pair[0] + step.pair[1][len(prefix) :]


@SETTINGS
@given(setups())
def test_last_step_equals_train_and_compact_trace_agrees(setup):
    wc, prefix, ties, merges = setup
    full = snapshot_trace(wc, prefix, ties, merges)
    compact = trace_wordpiece(wc, merges, prefix=prefix, ties=ties, snapshot=False)
    assert compact.compact and not full.compact
    model = model_from_trace(full)
    assert model == train_wordpiece(wc, merges, prefix=prefix, ties=ties)
    assert model_from_trace(compact) == model
    assert (compact.truncated, compact.stop_reason) == (full.truncated, full.stop_reason)
    assert len(compact.steps) == len(full.steps)
    for a, b in zip(full.steps, compact.steps, strict=True):
        assert b.segmentations is None
        assert b.pair_table == a.pair_table[:20]
        same = ("pair", "score_fraction", "tied_with", "bpe_pair", "bpe_count", "vocab_size")
        assert [getattr(a, f) for f in same] == [getattr(b, f) for f in same]
        assert a.corpus_symbols == b.corpus_symbols
    assert tuple(iter_wordpiece(wc, merges, prefix=prefix, ties=ties, snapshot=True)) == full.steps


@SETTINGS
@given(setups())
@pytest.mark.slow  # a long run (fast tier: README)
def test_runs_repeat_and_pickle(setup):
    wc, prefix, ties, merges = setup
    one = snapshot_trace(wc, prefix, ties, merges)
    assert one == snapshot_trace(wc, prefix, ties, merges)
    assert pickle.loads(pickle.dumps(one)) == one
    model = train_wordpiece(wc, merges, prefix=prefix, ties=ties)
    assert pickle.loads(pickle.dumps(model)) == model
    enc = segment(model, " ".join(wc.words))
    assert pickle.loads(pickle.dumps(enc)) == enc


@SETTINGS
@given(setups(), st.integers(0, 12), st.booleans())
def test_vocab_size_target(setup, extra, special_tokens):
    wc, prefix, ties, _ = setup
    start = trace_wordpiece(wc, merges=0, prefix=prefix, special_tokens=special_tokens).start
    size = len(start.vocab) + extra
    trace = trace_wordpiece(
        wc, vocab_size=size, prefix=prefix, ties=ties, special_tokens=special_tokens
    )
    made = sum(s.new_in_vocab for s in trace.steps)
    assert made == extra or (trace.truncated and made < extra)
    assert len(model_from_trace(trace).vocab) == len(start.vocab) + made


def test_compact_trace_of_a_larger_corpus_equals_the_naive_reference():
    # 600 distinct words: above the snapshot limit, so the steps are compact
    rng = random.Random(7)
    table = {}
    while len(table) < 600:
        word = "".join(rng.choice("abcdefgh") for _ in range(rng.randint(1, 8)))
        table[word] = rng.randint(1, 30)
    wc = from_pairs(list(table.items()))
    trace = trace_wordpiece(wc, merges=60)
    assert trace.compact
    expected, _, _ = naive_wordpiece(wc.words, wc.counts, "##", "first", 60)
    assert [(s.pair, s.score_fraction, s.tied_with) for s in trace.steps] == [
        (e["pair"], e["score"], e["tied_with"]) for e in expected
    ]


# --- encoding -------------------------------------------------------------------------


@SETTINGS
@given(setups(), st.lists(st.text(alphabet=ALPHABET + "xё🙂", min_size=1, max_size=8)))
def test_encoding_joins_back_and_spans_cover_the_text(setup, extra):
    wc, prefix, ties, merges = setup
    model = train_wordpiece(wc, merges, prefix=prefix, ties=ties)
    vocab = set(model.vocab)
    words = list(wc.words) + extra  # extra words may hold characters never seen in training
    text = "  " + "  ".join(words) + " \n"
    enc = segment(model, text)
    assert [w.word for w in enc.words] == words
    tokens = list(enc.tokens)
    for n, word in enumerate(enc.words):
        spans, tokens = tokens[: len(word.pieces)], tokens[len(word.pieces) :]
        assert [t.text for t in spans] == list(word.pieces)
        assert spans[0].start == word.start and spans[-1].end == word.start + len(word.word)
        assert all(left.end == right.start for left, right in pairwise(spans))
        if word.unknown:
            assert word.pieces == ("[UNK]",) and n >= len(wc.words)  # training words never
        else:
            assert join_back(word.pieces, prefix) == word.word
            assert all(piece in vocab for piece in word.pieces)
            # a span covers the word characters of its piece; the prefix covers none
            for i, tok in enumerate(spans):
                chars = tok.text if i == 0 else tok.text[len(prefix) :]
                assert text[tok.start : tok.end] == chars
        _check_longest_match(word, vocab, prefix)
    assert tokens == []


def _check_longest_match(word, vocab, prefix) -> None:
    """From each start, the attempts go from the whole rest down, and stop at the first
    piece in the vocabulary."""
    start, attempts = 0, list(word.attempts)
    while attempts:
        mark = prefix if start else ""
        expect = [mark + word.word[start:end] for end in range(len(word.word), start, -1)]
        here = [a for a in attempts if a.start == start]
        attempts = attempts[len(here) :]
        assert [a.piece for a in here] == expect[: len(here)]
        assert [a.found for a in here] == [a.piece in vocab for a in here]
        assert not any(a.found for a in here[:-1])
        if not here[-1].found:
            assert word.unknown and not attempts
        start = here[-1].end


@SETTINGS
@given(setups(), st.lists(st.text(alphabet=ALPHABET + "xё🙂", min_size=1, max_size=8)))
def test_encoding_equals_hugging_face_tokenizers(setup, extra):
    wc, prefix, ties, merges = setup
    prefix = prefix or "##"  # tokenizers' WordPiece needs a prefix to tell pieces apart
    model = train_wordpiece(wc, merges, prefix=prefix, ties=ties, special_tokens=True)
    hf = HfWordPiece(
        vocab={piece: i for i, piece in enumerate(model.vocab)},
        unk_token="[UNK]",
        continuing_subword_prefix=prefix,
        max_input_chars_per_word=100,
    )
    for word in list(wc.words) + extra:
        ours = segment(model, word).pieces
        assert ours == [token.value for token in hf.tokenize(word)], word
