"""AppTests of the 002 views on /compare (examples, Table 2, morphology alignment) and of
003's word-level opening on the home page."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from apptools import infos, open_page, seeds_dir

from subtok_core.notes import bostrom

HEADINGS = (
    "### Their examples (Figure 1, Appendix A)",
    "### Their Table 2: tokens per word",
    "### Do the cuts follow morphology?",
)


def frame_with(at, *columns: str):
    """The first table on the page with all these columns."""
    return next(df.value for df in at.dataframe if set(columns) <= set(df.value.columns))


@pytest.mark.slow  # compare on a sample
def test_compare_shows_the_three_002_views_with_bpe_and_unigram():
    at = open_page("lessons/compare/page.py", corpus="toy:hug-pug", size="14", tok="bpe,unigram")
    assert "Bostrom & Durrett (002): BPE against unigram LM" in [s.value for s in at.header]
    shown = [m.value for m in at.markdown]
    assert all(h in shown for h in HEADINGS)
    # (a) every example, the paper's two cuts and one column per chosen tokenizer
    examples = frame_with(at, "002 unigram LM")
    assert examples["text"].tolist() == [ex.original for ex in bostrom.EXAMPLES]
    assert examples.loc[0, "002 BPE"] == "_fur iously"
    assert {"BPE", "Unigram"} <= set(examples.columns)
    assert any("cut two ways by its BPE" in c.value for c in at.caption)
    # (b) Table 2: the paper's numbers beside the page's own tokens per word (type)
    table2 = frame_with(at, "measure", "002 BPE")
    table2 = table2[table2["measure"].isin(["tokens per word type", "tokens per word"])]
    assert table2["002 BPE"].tolist() == ["4.721", "1.343"]
    summary = frame_with(at, "tokens per word type")
    for name in ("BPE", "Unigram"):
        row = summary[summary["tokenizer"] == name].iloc[0]
        expected = [f"{row['tokens per word type']:.3f}", f"{row['tokens per word']:.3f}"]
        assert table2[name].tolist() == expected
    assert any("20,000 tokens" in c.value for c in at.caption)
    # (c) the measure: hug-pug has only the letters of hug, pug, pun, bun: no gold word
    scores = frame_with(at, "gold boundaries")
    assert scores["tokenizer"].tolist() == ["BPE", "Unigram"]
    assert (scores["words scored"] == 0).all() and (scores["words left out"] > 300).all()
    assert "cannot be tested" in infos(at)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_verdict_needs_both_bpe_and_unigram():
    at = open_page("lessons/compare/page.py", corpus="toy:hug-pug", size="14", tok="bpe,wordpiece")
    assert "Choose both BPE and Unigram above to test the claim." in infos(at)


@pytest.mark.slow  # the Lee sample
def test_on_the_lee_sample_the_verdict_states_the_scores_shown():
    at = open_page("lessons/compare/page.py", corpus="sample:lee", size="300", tok="bpe,unigram")
    scores = frame_with(at, "gold boundaries").set_index("tokenizer")
    assert (scores["words scored"] > 500).all()
    b, u = scores.loc["BPE", "F1"], scores.loc["Unigram", "F1"]
    text = infos(at)
    assert f"F1 {u:.3f} for Unigram against {b:.3f} for BPE" in text
    if round(u, 3) > round(b, 3):
        assert "better than BPE's" in text
    elif round(u, 3) < round(b, 3):
        assert "does not beat BPE" in text
    else:
        assert "tie" in text
    # precision and recall are right cuts over cuts and over gold boundaries
    for name in ("BPE", "Unigram"):
        row = scores.loc[name]
        assert row["precision"] == row["right cuts"] / row["cuts"]
        assert row["recall"] == row["right cuts"] / row["gold boundaries"]


def seed_vocabulary() -> list[tuple[str, int]]:
    """003's "Vocabulary" slide: the rows under "Word<TAB>ID" (lines 51-58)."""
    lines = (seeds_dir() / "003_fbf19eb985f31fbe.txt").read_text(encoding="utf-8").splitlines()
    start = lines.index("Word\tID") + 1
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        word, number = line.split("\t")
        rows.append((word, int(number)))
    return rows


def test_home_opens_with_003s_word_ids_and_an_unknown_word():
    at = open_page("lessons/home/page.py")
    vocab = seed_vocabulary()
    assert len(vocab) == 8 and vocab[-1][0] == "<UNK>"
    table = at.dataframe[0].value
    assert list(zip(table["word"], table["ID"], strict=True)) == vocab
    unk = dict(vocab)["<UNK>"]
    ids = dict(zip(at.dataframe[1].value["word"], at.dataframe[1].value["ID"], strict=True))
    assert ids["bananas"] == ids["aples"] == unk and ids["love"] == dict(vocab)["love"]
    said = " ".join(m.value for m in at.markdown)
    assert "`<UNK>` (ID 7)" in said and "*aples* uses only characters of the corpus" in said
    at.text_input(key="home_sentence").input("I like pineapples .").run()
    assert list(at.dataframe[1].value["ID"]) == [2, 3, 5, 6]
    assert "Every word is in the vocabulary" in " ".join(m.value for m in at.markdown)


def test_the_tokens_per_word_verdict_shows_the_digits_where_the_two_part():
    from lessons.compare.paper import _fewer

    def per(b: float, u: float) -> dict:
        return {name: {"fertility": SimpleNamespace(tokens_per_word=v)}
                for name, v in (("BPE", b), ("Unigram", u))}  # fmt: skip

    labels = {"bpe": "BPE", "unigram": "Unigram"}
    # as on Lee at 2,000 pieces: 100,601 and 100,644 tokens for 59,890 running words,
    # equal at 3 decimals, apart at 4
    said = _fewer(per(100601 / 59890, 100644 / 59890), labels)
    assert said.startswith("002's unigram LM needs fewer tokens")  # 2.98B against 3.01B
    assert said.endswith("Unigram needs more tokens per word: 1.6805 against BPE's 1.6798.")
    said = _fewer(per(1.6, 1.5), labels)
    assert said.endswith("Unigram needs fewer tokens per word: 1.500 against BPE's 1.600.")
    assert _fewer(per(1.6, 1.6), labels).endswith(
        "as many tokens per word: 1.600000 against BPE's 1.600000."
    )
    assert _fewer({"BPE": per(1, 1)["BPE"]}, labels) == ""  # no Unigram chosen
