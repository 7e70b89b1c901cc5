"""subtok check reads the files students' references write: minbpe's .model, a tiktoken
rank file, a vocab.json + merges.txt pair; anything else gets one sentence naming the
formats read. The merges are those of a byte-level textbook trainer written here (first
pair seen wins a tie, as minbpe does), written in each format by hand, as each project's
save() lays it out; `subtok check trainer` says when ids leave the reference's numbering
and never shows a token blank.
"""

from __future__ import annotations

import base64
import json

import regex

from subtok_core.check.trainer import vocab_problems
from subtok_core.cli import main

GPT2 = regex.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+")
TEXT = "the cat sat on the mat\nthe hat that sat\n"


def byte_merges(text, n):
    """Textbook byte-level BPE (GPT-2 pre-split, line by line): merges as bytes pairs."""
    seqs = [tuple(bytes([b]) for b in c.encode()) for line in text.splitlines(keepends=True)
            for c in GPT2.findall(line)]  # fmt: skip
    merges = []
    for _ in range(n):
        table = {}
        for s in seqs:
            for p in zip(s, s[1:]):
                table[p] = table.get(p, 0) + 1
        if not table:
            break
        pair = max(table, key=table.get)  # the first of equals in dict order: first seen
        merges.append(pair)
        out = []
        for s in seqs:
            merged, i = [], 0
            while i < len(s):
                if i + 1 < len(s) and (s[i], s[i + 1]) == pair:
                    merged.append(s[i] + s[i + 1])
                    i += 2
                else:
                    merged.append(s[i])
                    i += 1
            out.append(tuple(merged))
        seqs = out
    return merges


def gpt2_letters():
    """GPT-2's bytes_to_unicode, written out: printable bytes stand for themselves."""
    keep = [*range(33, 127), *range(161, 173), *range(174, 256)]
    extra = [b for b in range(256) if b not in keep]
    table = {b: chr(b) for b in keep} | {b: chr(256 + i) for i, b in enumerate(extra)}
    return lambda token: "".join(table[b] for b in token)


MERGES = byte_merges(TEXT, 12)


def run(tmp_path, name, content, *extra):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    args = ["check", "merges", str(path), "--corpus", str(corpus), "--bytebpe", "--ties", "first"]
    return main([*args, *extra])


def test_a_minbpe_model_is_read(tmp_path, capsys):
    ids = {bytes([b]): b for b in range(256)}
    lines = ["minbpe v1", GPT2.pattern, "1", "<|endoftext|> 300"]
    for i, (a, b) in enumerate(MERGES):
        lines.append(f"{ids[a]} {ids[b]}")
        ids[a + b] = 256 + i
    assert run(tmp_path, "toy.model", "\n".join(lines) + "\n") == 0
    assert "identical: your 12 merges" in capsys.readouterr().out


def test_a_tiktoken_rank_file_is_read(tmp_path, capsys):
    tokens = [bytes([b]) for b in range(256)] + [a + b for a, b in MERGES]
    text = "".join(f"{base64.b64encode(t).decode()} {rank}\n" for rank, t in enumerate(tokens))
    assert run(tmp_path, "toy.tiktoken", text) == 0
    assert "identical: your 12 merges" in capsys.readouterr().out


def test_a_vocab_json_is_read_with_the_merges_txt_beside_it(tmp_path, capsys):
    letters = gpt2_letters()
    (tmp_path / "merges.txt").write_text(
        "#version: 0.2\n" + "".join(f"{letters(a)} {letters(b)}\n" for a, b in MERGES),
        encoding="utf-8",
    )
    vocab = {letters(bytes([b])): b for b in range(256)}
    vocab |= {letters(a + b): 256 + i for i, (a, b) in enumerate(MERGES)}
    assert run(tmp_path, "vocab.json", json.dumps(vocab)) == 0
    assert "identical: your 12 merges" in capsys.readouterr().out


def test_a_file_in_no_format_read_gets_one_sentence_naming_them(tmp_path, capsys):
    assert run(tmp_path, "notes.txt", "some notes about BPE\nand more\n") == 2
    err = capsys.readouterr().err
    assert "none of the formats the checker reads" in err
    for name in ("merges.txt", "tokenizer.json", "minbpe .model", "tiktoken rank file"):
        assert name in err
    assert "should be two symbols" not in err


def test_a_minbpe_model_without_bytebpe_says_so(tmp_path, capsys):
    (tmp_path / "c.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "m.model").write_text("minbpe v1\n\n0\n116 104\n", encoding="utf-8")
    args = ["check", "merges", str(tmp_path / "m.model"), "--corpus", str(tmp_path / "c.txt")]
    assert main(args) == 2
    assert "add --bytebpe" in capsys.readouterr().err


def test_the_trainer_check_flags_shifted_ids_and_shows_whitespace():
    """Special token first at id 0 pushes every byte up by one: flagged. A merge product
    ' t' missing from the vocab is written "Ġt", never as a blank."""
    vocab = {0: b"<|endoftext|>"} | {b + 1: bytes([b]) for b in range(256)}
    vocab[257] = b"th"
    problems = vocab_problems(vocab, [(b"t", b"h")], ("<|endoftext|>",))
    assert len(problems) == 1 and problems[0].startswith("ids are shifted")
    assert "byte 0 has id 1" in problems[0]
    missing = vocab_problems({b: bytes([b]) for b in range(256)}, [(b" ", b"t")], ())
    assert missing == ['the product of merge 1, "Ġt", is not in the vocab.']
    good = {b: bytes([b]) for b in range(256)} | {256: b"<s>", 257: b" t"}
    assert vocab_problems(good, [(b" ", b"t")], ("<s>",)) == []
