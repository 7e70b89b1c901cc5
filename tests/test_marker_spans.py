"""Issue 39: `subtok encode --model M --json` gives every token the offsets the exported
tokenizer.json gives it in tokenizers (a ▁ covers the space it stands for), for every model
we export, on held-out text with Russian (sample:crime) and hard cases. Expected offsets come
from tokenizers reading the file `subtok export --format hf` wrote.
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from tokenizers import Tokenizer

from subtok_core import compare, corpus, export, hf_export
from subtok_core.bpe import train_bpe
from subtok_core.cli import main
from subtok_core.unigram import train_unigram
from subtok_core.wordpiece import train_wordpiece

LEE, CRIME = corpus.sample_lines("lee"), corpus.sample_lines("crime")
TRAIN = "\n".join(LEE[:30] + CRIME[:10])
HELD_OUT = "\n".join(LEE[200:206] + CRIME[10:]) + "\n  two  spaces, \tx ▁typed ½ end."


def wc(split_punct: bool = False):
    return corpus.from_text(TRAIN, split_punct)


def offsets_agree(model, tmp_path, capsys, text: str = HELD_OUT) -> int:
    path = tmp_path / "model.json"
    export.save_model(model, path)
    assert main(["export", "--model", str(path), "--format", "hf"]) == 0
    exported = capsys.readouterr().out
    assert main(["encode", "--model", str(path), "--json", text]) == 0
    ours = json.loads(capsys.readouterr().out)["tokens"]
    theirs = Tokenizer.from_str(exported).encode(text)
    assert [t["id"] for t in ours] == theirs.ids
    pairs = zip(ours, theirs.offsets, strict=True)
    differ = [
        (t["text"], (t["start"], t["end"]), o) for t, o in pairs if (t["start"], t["end"]) != o
    ]
    assert differ == [], f"{len(differ)} of {len(ours)} offsets differ, first {differ[:3]}"
    return len(ours)


@pytest.mark.parametrize("split_punct", [False, True])
def test_bpe_sow_offsets_are_tokenizers(split_punct, tmp_path, capsys):
    model = dataclasses.replace(train_bpe(wc(split_punct), merges=300, marker="sow"),
                                split_punct=split_punct)  # fmt: skip
    assert offsets_agree(model, tmp_path, capsys) > 1000


def test_bpe_eow_offsets_are_tokenizers(tmp_path, capsys):
    assert offsets_agree(train_bpe(wc(), merges=300, marker="eow"), tmp_path, capsys) > 1000


@pytest.mark.slow  # a reference library's runs
def test_unigram_offsets_are_tokenizers(tmp_path, capsys):
    model = train_unigram(wc(), "em", vocab_size=300)
    # a word whose pieces fit in two equally probable orders ("000": 00 + 0 here, 0 + 00 in
    # the file) is the export's noted difference (tests/test_hf_export.py): left out
    tok = hf_export.to_hf(model)
    text = re.sub(r"\S+", lambda m: m.group() if _same(model, tok, m.group()) else "x", HELD_OUT)
    assert offsets_agree(model, tmp_path, capsys, text) > 1000


def _same(model, tok, word: str) -> bool:
    return tok.encode(word).ids == list(compare.encode(model, word).ids)


def test_wordpiece_offsets_are_tokenizers(tmp_path, capsys):
    model = train_wordpiece(wc(), vocab_size=300)
    assert offsets_agree(model, tmp_path, capsys) > 1000


def test_sage_offsets_are_tokenizers(tmp_path, capsys):
    from subtok_core import registry

    sage = registry.get("sage")
    name, params = sage.demo
    model = sage.model_at(sage.trace(sage.load(name), **dict(params)))
    text = "The big brown fox jumps over the box and ox.  Foxes, jumped; BOXING oxen 日本 ▁x"
    assert offsets_agree(model, tmp_path, capsys, text) > 10


def test_a_lone_word_start_covers_the_space_before_it(tmp_path, capsys):
    # by hand: in "cat  bat" the ▁ of bat stands for the space at index 4; at the text's
    # start there is no space, so the first ▁ covers nothing
    model = train_bpe(corpus.load("toy:cat-bat"), merges=0, marker="sow")
    path = tmp_path / "m.json"
    export.save_model(model, path)
    main(["encode", "--model", str(path), "--json", "cat  bat"])
    spans = [
        (t["text"], t["start"], t["end"]) for t in json.loads(capsys.readouterr().out)["tokens"]
    ]
    assert spans[0] == ("▁", 0, 0) and spans[4] == ("▁", 4, 5)
