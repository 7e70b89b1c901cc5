"""The Compare core (subtok_core/compare.py) and the Compare page (AppTest)."""

import pytest
from apptools import open_page

from subtok_core import compare
from subtok_core.corpus import load
from subtok_core.records import Span


@pytest.fixture(scope="module")
def cat_models():
    wc = load("toy:cat-bat")
    return {kind: compare.train(kind, wc, 12) for kind in compare.KINDS}


def test_parse_kinds_keeps_order_and_refuses_bad_lists():
    assert compare.parse_kinds("unigram,BPE, bpe") == ("unigram", "bpe")
    with pytest.raises(ValueError, match="Unknown tokenizer 'gpt'"):
        compare.parse_kinds("bpe,gpt")
    with pytest.raises(ValueError, match="2 to 6 tokenizers at a time, not 1"):
        compare.parse_kinds("bpe")


def test_every_tokenizer_reaches_the_same_vocab_size(cat_models):
    assert {kind: len(tuple(m.vocab)) for kind, m in cat_models.items()} == {
        "bpe": 12,
        "wordpiece": 12,
        "unigram": 12,
    }


def test_encoding_covers_the_text_and_ids_point_into_the_vocabulary(cat_models):
    text = "cats bag"
    for model in cat_models.values():
        enc = compare.encode(model, text)
        vocab = tuple(model.vocab)
        covered = "".join(text[s.start : s.end] for s in enc.spans)
        assert covered == "catsbag"
        assert all(vocab[i] == s.text for s, i in zip(enc.spans, enc.ids, strict=True))


def test_unknown_characters_get_the_id_after_the_vocabulary(cat_models):
    """[UNK] is no piece of a BPE vocabulary: it takes the next id, as in tokenizer.json."""
    model = cat_models["bpe"]
    enc = compare.encode(model, "zebra")
    assert [i for s, i in zip(enc.spans, enc.ids, strict=True) if s.text == "[UNK]"]
    unknown = [i for s, i in zip(enc.spans, enc.ids, strict=True) if s.text == "[UNK]"]
    assert set(unknown) == {len(model.vocab)}


def test_unshared_lists_the_cuts_not_every_tokenizer_makes():
    a = compare.Encoded((Span("ab", 0, 2), Span("c", 2, 3)), (0, 1))
    b = compare.Encoded((Span("a", 0, 1), Span("b", 1, 2), Span("c", 2, 3)), (0, 1, 2))
    marker = compare.Encoded((Span("\u2581", 0, 0), Span("abc", 0, 3)), (0, 1))
    assert compare.unshared({"a": a, "b": b}) == {"a": {(0, 2)}, "b": {(0, 1), (1, 2)}}
    assert compare.unshared({"a": a, "m": marker})["m"] == {(0, 3)}  # the lone ▁ is no cut


def test_training_refuses_an_unknown_tokenizer():
    with pytest.raises(ValueError, match="Unknown tokenizer 'sage'"):
        compare.train("sage", load("toy:cat-bat"), 12)


# --- the page ---------------------------------------------------------------------------


def token_lines(at) -> dict[str, str]:
    """Tokenizer label -> the HTML of its line of tokens."""
    lines = {}
    for md in at.markdown:
        if md.value.startswith("**") and "tokens" in md.value.split("\n")[0]:
            lines[md.value.split("**")[1]] = md.value
    return lines


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_compare_page_tokenizes_the_typed_text_with_each_tokenizer():
    at = open_page("lessons/compare/page.py", corpus="toy:cat-bat", size="12", tok="bpe,unigram")
    assert set(token_lines(at)) == {"BPE", "Unigram"}
    at.text_area(key="compare_encode").input("cats bag").run()
    lines = token_lines(at)
    assert lines["BPE"].startswith("**BPE**: 4 tokens")
    assert ">▁cat<" in lines["BPE"] and ">ag<" in lines["BPE"]
    assert lines["Unigram"].startswith("**Unigram**: 2 tokens") and ">▁bag<" in lines["Unigram"]
    assert 'class="tok odd"' in lines["BPE"]  # BPE cuts bag where Unigram does not
    at.checkbox(key="compare_ids").check().run()
    assert "<sub>" in token_lines(at)["BPE"]


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_compare_page_shows_the_metrics_of_each_tokenizer():
    at = open_page("lessons/compare/page.py", corpus="toy:hug-pug", size="14", tok="bpe,wordpiece")
    summary = next(df.value for df in at.dataframe if "tokens per word" in df.value.columns)
    assert list(summary["tokenizer"]) == ["BPE", "WordPiece"]
    # hug-pug is 36 running words; each tokenizer needs at least one token per word
    assert (summary["tokens"] >= 36).all()
    assert any("how many different tokens" in c.value for c in at.caption)


def test_bad_choices_show_an_error_not_a_traceback():
    at = open_page("lessons/compare/page.py", corpus="toy:cat-bat", size="3", tok="bpe,unigram")
    assert any("smaller than" in e.value for e in at.error)
    at.multiselect(key="compare_tok").set_value(["bpe"]).run()
    assert not at.exception
    assert any("2 to 6 tokenizers" in e.value for e in at.error)
