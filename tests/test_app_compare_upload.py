"""An uploaded tokenizer.json on /compare (issues 25 and 26): a file that makes tokenizers
panic or fail gives a sentence and the page goes on; an upload is in the list at once;
three sessions uploading one file share one copy in the server-wide store."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from lessons.ui.escape import plain
from lessons.ui.store import trace_store
from subtok_core.pretrained import hf
from tests.apptools import APP, broken

KEY = "compare_hf_file"


def tokenizer_json(model: dict) -> bytes:
    """A tokenizer.json around `model`, split at whitespace, nothing else in the pipeline."""
    doc = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": None, "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": None, "decoder": None, "model": model,
    }  # fmt: skip
    return json.dumps(doc).encode()


# the panic file: the merge "x y" names tokens the vocab does not have
PANIC = tokenizer_json({
    "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
    "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
    "vocab": {"l": 0, "o": 1}, "merges": ["l o", "x y"],
})  # fmt: skip
# a WordLevel file whose unknown token is not in its vocab: fails on a word it lacks
NO_UNK = tokenizer_json({"type": "WordLevel", "vocab": {"hi": 0, "yo": 1}, "unk_token": "[UNK]"})
GOOD = tokenizer_json({"type": "WordLevel", "vocab": {"[UNK]": 0, "low": 1}, "unk_token": "[UNK]"})


def compare_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"corpus": "toy:low-lower", "tok": "bpe,unigram", "size": "20"})
    at.run()
    at.switch_page("lessons/compare/page.py").run()
    assert not at.exception and not broken(at), at.exception
    return at


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key=KEY).set_value((name, data, "application/json"))
    at.run()
    assert not at.exception and not broken(at), at.exception
    return at


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_panic_file_gives_a_sentence_and_the_page_goes_on():
    at = upload(compare_page(), "panic.json", PANIC)
    assert [e.value for e in at.error] == [  # its merges are checked before tokenizers panics
        "'panic.json' is not a usable tokenizer.json: merge 1 ('l', 'o') makes 'lo', which is "
        "not in the vocabulary."
    ]
    assert "panic.json (tokenizers)" not in at.multiselect(key="compare_tok").options
    said = at.error[0].value
    at.multiselect(key="compare_tok").set_value(["bpe", "wordpiece"]).run()  # still answers
    assert not at.exception and not broken(at) and [e.value for e in at.error] == [said]
    assert at.multiselect(key="compare_tok").value == ["bpe", "wordpiece"]


def test_an_upload_is_in_the_list_at_once_and_a_failing_encode_is_a_sentence():
    at = upload(compare_page(), "nounk.json", NO_UNK)
    tokens = at.multiselect(key="compare_tok")
    assert (
        "nounk.json (tokenizers)" in tokens.options
    )  # in the run that read the file, no other rerun
    assert at.success[0].value.startswith("nounk.json (tokenizers) can now be chosen above")
    tokens.set_value(["bpe", "hf:nounk.json"]).run()
    assert not at.exception and not broken(at)
    said = plain(  # as the page writes it: markdown's signs escaped (issue 40)
        "The tokenizers library failed while encoding with 'nounk.json' (Exception: WordLevel "
        "error: Missing [UNK] token from the vocabulary)."
    )
    assert any(said in e.value for e in at.error), [e.value for e in at.error]


@pytest.mark.slow  # three sessions train
def test_three_sessions_uploading_one_file_hold_one_copy():
    store = trace_store()
    sessions = [upload(compare_page(), f"mine-{n}.json", GOOD) for n in range(3)]
    kept = [k for k in store.runs if isinstance(k, tuple) and k[0] == "tokenizer.json"]
    assert len(kept) == 1 and len(store.holders[kept[0]]) == 3
    # counted against the budget: at least the estimate, more if parsing grew the process more
    assert store.runs[kept[0]][1] >= hf.MEMORY_PER_BYTE * len(GOOD)
    for n, at in enumerate(sessions):  # each session sees the file under its own name
        assert f"mine-{n}.json (tokenizers)" in at.multiselect(key="compare_tok").options
    holders = sorted(store.holders[kept[0]])
    for token in holders[:2]:  # two tabs closed (lessons.ui.upload: what a tab's end calls)
        store.release(token)
    assert kept[0] in store.runs and store.holders[kept[0]] == {holders[2]}
    store.release(holders[2])  # the last tab closed: dropped at once, its bytes back
    assert kept[0] not in store.runs and store.holders == {} and store.held_bytes() == 0


@pytest.fixture(autouse=True)
def fresh_store():
    trace_store().clear()
    yield


@pytest.mark.slow  # many reruns
def test_an_uploaded_corpus_is_counted_once_however_often_the_page_reruns(monkeypatch):
    from subtok_core import corpus

    counted, real = [], corpus.from_text
    monkeypatch.setattr(corpus, "from_text", lambda *a, **k: counted.append(1) or real(*a, **k))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"corpus": "upload:a .txt file", "tok": "bpe,unigram", "size": "20"})
    at.run()
    at.switch_page("lessons/compare/page.py").run()
    text = b"low lower newest widest\nlow low lower\n"
    at.file_uploader(key="compare_upload").set_value(("class.txt", text, "text/plain")).run()
    for size in ("21", "22"):  # two more full reruns, the file unchanged
        at.number_input(key="size").set_value(int(size)).run()
    assert not at.exception and not broken(at) and counted == [1]
    second = AppTest.from_file(APP, default_timeout=120)  # another tab, the same file
    second.query_params.update({"corpus": "upload:a .txt file", "tok": "bpe,unigram"})
    second.run()
    second.switch_page("lessons/compare/page.py").run()
    second.file_uploader(key="compare_upload").set_value(("class.txt", text, "text/plain")).run()
    assert not second.exception and counted == [1]
