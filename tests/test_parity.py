"""Parity-aware BPE (subtok_core/parity) held to the authors' code, cimeister/parity-aware-bpe
(parity_aware_bpe/parity_aware_learn_bpe.py at the mirrored HEAD), run locally on word-count
files (`--dict-input`, its default --min-frequency 2):

  python parity_aware_bpe/parity_aware_learn_bpe.py --dict-input -i en.txt xx.txt \
      -d en.dev xx.dev -s 8 -o par.txt --verbose          # parity-aware
  ... the same with -g 8                                   # every merge global: plain BPE

The numbers below are what it printed (the merges file, and the "lengths [..]: picking
best subword in corpus K" lines of --verbose). The real case trains English on gensim's
Lee sample and Russian on its Crime and Punishment sample (word counts of whitespace-split
lines), with Compare's English and Russian sentences (subtok_core/data/languages.toml) as
the parallel dev sets, 200 merges.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from subtok_core import corpus, languages
from subtok_core.parity import train_parity

EN = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
XX = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
DEV = {"en": {"low": 1, "newest": 1, "widest": 1}, "xx": {"hug": 1, "pun": 1, "bun": 1}}


def merges(run) -> list[str]:
    return [" ".join(step.pair) for step in run.steps]


def test_the_toy_serves_the_longest_language_as_the_reference_does():
    run = train_parity({"en": EN, "xx": XX}, DEV, merges=8)
    assert merges(run) == ["s t", "e st", "o w", "l ow", "w est", "u g", "n e", "u n"]
    # the reference's --verbose: lengths before each merge and the language it served
    assert [(s.dev_before, s.language) for s in run.steps] == [
        ((15, 9), "en"), ((13, 9), "en"), ((11, 9), "en"), ((10, 9), "en"), ((9, 9), "en"),
        ((8, 9), "xx"), ((8, 8), "en"), ((7, 8), "xx"),
    ]  # fmt: skip
    assert run.dev_lengths == (7, 6) and sum(run.dev_lengths) == 13
    assert [s.counts for s in run.steps][:2] == [(9, 0), (9, 0)]  # "frequency [9 0]"


def test_with_every_merge_global_it_is_plain_bpe_on_both_corpora():
    run = train_parity({"en": EN, "xx": XX}, DEV, merges=8, global_merges=8)
    assert merges(run) == ["u g", "u n", "h ug", "p un", "s t", "e st", "o w", "l ow"]
    assert all(step.language is None for step in run.steps)
    assert run.dev_lengths == (9, 4) and sum(run.dev_lengths) == 13


def test_ties_go_to_the_greater_pair_and_to_the_first_longest_language():
    run = train_parity({"en": EN, "xx": XX}, DEV, merges=1)
    first = run.steps[0]
    assert first.pair == ("s", "t") and ("e", "s") in first.tied_with  # both 9: s t > e s
    fifth = train_parity({"en": EN, "xx": XX}, DEV, merges=5).steps[4]
    assert fifth.dev_before == (9, 9) and fifth.language == "en"  # a tie of lengths


@pytest.mark.slow
def test_english_and_russian_samples_with_the_compare_sentences_as_dev_sets():
    def counts(lines):
        table = Counter()
        for line in lines:
            table.update(line.split())
        return table

    train = {"en": counts(corpus.load_lines("sample:lee")),
             "ru": counts(corpus.load_lines("sample:crime"))}  # fmt: skip
    dev = {k: counts(languages.LANGUAGES[k].sentences) for k in ("en", "ru")}
    run = train_parity(train, dev, merges=200)
    got = merges(run)
    assert got[:10] == ["t h", "i n", "e r", "с т", "н и", "к о", "a n", "н о", "н а", "т о"]
    digest = hashlib.sha256("\n".join(got).encode()).hexdigest()
    assert digest == "9ed0728b8872dfd0527611062d7b72cb7491f4240ccc961a3260c310170e490a"
    assert run.steps[0].dev_before == (121, 113)
    assert Counter(s.language for s in run.steps) == {"ru": 153, "en": 47}
    assert run.dev_lengths == (85, 86)


def test_it_stops_under_the_minimum_frequency_with_a_sentence():
    run = train_parity({"en": {"ab": 1, "cd": 1}, "xx": {"ef": 3}},
                       {"en": {"ab": 1}, "xx": {"e": 1}}, merges=5)  # fmt: skip
    assert run.steps == () and "minimum frequency 2" in run.stop_reason


@pytest.mark.parametrize(
    "corpora, dev, said",
    [
        ({"en": EN}, {"en": DEV["en"]}, "at least two languages"),
        ({"en": EN, "xx": XX}, {"xx": DEV["xx"], "en": DEV["en"]}, "same order"),
        ({"en": {"a b": 2}, "xx": XX}, DEV, "hold a space"),
    ],
)
def test_bad_input_is_a_sentence(corpora, dev, said):
    with pytest.raises(ValueError, match=said):
        train_parity(corpora, dev, merges=3)
