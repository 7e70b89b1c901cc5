"""AppTest of /vocab: the token card by deep link, the health table beside tiktoken's own
count, bad addresses, the chat view, and two sessions training different tokenizers.

Every run sorts cl100k_base's and Tekken's 230,000 tokens (a few seconds), so these tests
are marked slow."""

import html

import pytest
from apptools import APP, open_page
from streamlit.testing.v1 import AppTest

from subtok_core import compare, corpus, registry

pytestmark = pytest.mark.slow
PAGE = "lessons/vocab/page.py"
TOY = {"corpus": "toy:cat-bat", "size": "12"}


def text_of(at: AppTest) -> str:
    """The markdown as the student reads it (a user's string is written as character
    references, lessons/ui/escape.py)."""
    return html.unescape("\n".join(m.value for m in at.markdown))


def health_row(at: AppTest, label: str) -> dict:
    frame = next(d.value for d in at.dataframe if "unreachable" in d.value.columns)
    return frame.set_index("tokenizer").loc[label].to_dict()


def test_deep_link_opens_the_card_and_counts_match_tiktoken(tiktoken_cl100k):
    at = open_page(PAGE, tok="cl100k_base", id="15339", **TOY)
    assert "cl100k_base (GPT-4), id 15339" in text_of(at)
    facts = at.table[0].value
    assert "68 65 6C 6C 6F" in facts.to_string()  # 'hello' in hex, by hand
    assert "rank 15,339" in text_of(at)  # the tree's root: the token's own rank
    row = health_row(at, "cl100k_base (GPT-4)")
    enc = tiktoken_cl100k
    partial = 0
    for rank in range(enc.max_token_value + 1):
        try:
            enc.decode_single_token_bytes(rank).decode("utf-8")
        except KeyError:
            continue  # an id cl100k_base does not define
        except UnicodeDecodeError:
            partial += 1
    assert row["special"] == len(enc.special_tokens_set)
    assert row["partial"] == partial
    assert row["unused"] == "—"


def test_bad_id_and_bad_tokenizer_are_said_and_the_page_goes_on():
    at = open_page(PAGE, tok="mistral-v1", id="99999", **TOY)
    assert any("has no token with id 99999" in e.value for e in at.error)
    assert any(d for d in at.dataframe if "unreachable" in d.value.columns)
    at = open_page(PAGE, tok="gpt-9", id="1", **TOY)
    assert any("tok=gpt-9" in wn.value for wn in at.warning)


def test_a_trained_token_card_says_which_merge_made_it():
    """cat-bat with the ▁ marker: BPE's first merge is a+t (at: 10+5+5 = 20 times, by hand
    the most frequent pair), so 'at' is made by merge 1."""
    model = compare.train("bpe", corpus.load("toy:cat-bat"), 12)
    token_id = model.vocab.index("at")
    at = open_page(PAGE, tok="bpe", id=str(token_id), **TOY)
    facts = at.table[0].value.to_string()
    assert "made by merge" in facts and "produced on its training corpus" in facts
    assert model.merges[0] == ("a", "t")


def test_chat_counts_and_an_empty_turn():
    at = open_page(PAGE, **TOY)
    frame = next(d.value for d in at.dataframe if "assistant" in d.value.columns)
    assert list(frame["tokenizer"]) == ["Mistral v1", "Mistral v3", "Tekken"]
    assert (frame["control"] >= 2).all()
    assert "does not publish its chat format" in text_of(at)
    at.text_area(key="vocab_chat_user").set_value("   ").run()
    assert any("cannot be empty" in e.value for e in at.error)
    assert not at.exception


def unused_by_recount(name: str, size: int) -> int:
    """The BPE tokens never produced on the corpus, recounted by encoding each word."""
    wc = corpus.load(name)
    model = compare.train("bpe", wc, size)
    used = set()
    for word in wc.words:
        used.update(registry.get("bpe").segment(model, word).pieces)
    return sum(piece not in used for piece in model.vocab)


def test_two_sessions_each_see_their_own_trained_health():
    first = AppTest.from_file(APP, default_timeout=120)
    second = AppTest.from_file(APP, default_timeout=120)
    for at, name in ((first, "toy:cat-bat"), (second, "toy:low-lower")):
        at.query_params.update({"corpus": name, "size": "14", "tok": "cl100k_base", "id": "1"})
        at.run()
        at.switch_page(PAGE).run()
        assert not at.exception
    for at, name in ((first, "toy:cat-bat"), (second, "toy:low-lower")):
        row = health_row(at, "BPE (trained here)")
        assert int(row["unused"]) == unused_by_recount(name, 14)


def tiny_tokenizer_json() -> bytes:
    """A WordLevel tokenizer.json of three tokens, split at whitespace."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    raw = Tokenizer(models.WordLevel({"[UNK]": 0, "hi": 1, "yo": 2}, unk_token="[UNK]"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    return raw.to_str().encode()


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key="vocab_hf_file").set_value((name, data, "application/json")).run()
    assert not at.exception, at.exception
    return at


def test_an_uploaded_tokenizer_json_gets_cards_and_health():
    """hi and yo encode to themselves; the text '[UNK]' is cut at its brackets by the
    Whitespace pre-tokenizer into three unknowns, so [UNK] is unreachable."""
    at = upload(open_page(PAGE, **TOY), "tiny.json", tiny_tokenizer_json())
    row = health_row(at, "hf:tiny.json")
    assert (row["tokens"], row["ok"], row["unreachable"], row["unused"]) == (3, 2, 1, "—")
    at.selectbox(key="tok").set_value("hf:tiny.json").run()
    at.number_input(key="id").set_value(1).run()
    assert "tiny.json (tokenizers), id 1" in text_of(at)


def test_two_sessions_uploading_one_file_under_two_names_each_see_their_own_name():
    content = tiny_tokenizer_json()
    first = upload(open_page(PAGE, **TOY), "first.json", content)
    second = upload(open_page(PAGE, **TOY), "second.json", content)
    for at, name in ((first, "first.json"), (second, "second.json")):
        at.selectbox(key="tok").set_value(f"hf:{name}").run()
        at.number_input(key="id").set_value(2).run()
        assert f"{name} (tokenizers), id 2" in text_of(at)
        other = "second.json" if name == "first.json" else "first.json"
        assert other not in text_of(at)
        assert health_row(at, f"hf:{name}")["tokens"] == 3


def test_uploads_are_held_in_the_store_and_go_with_their_sessions():
    import hashlib

    from lessons.ui.store import trace_store

    store = trace_store()
    content = tiny_tokenizer_json()
    digest = hashlib.sha256(content).hexdigest()
    key = ("vocab health", digest)
    for k in range(2):
        upload(open_page(PAGE, **TOY), f"t{k}.json", content)
    assert key in store.runs and len(store.holders[key]) == 2  # one copy, in the budget
    assert [k for k in store.runs if digest in repr(k)] == [key]  # nothing kept beside it
    for token in list(store.holders[key]):  # every tab closed (lessons.ui.upload's holder)
        store.release(token)
    assert key not in store.holders and key not in store.runs
