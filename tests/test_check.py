"""subtok check: buggy trainers written here, each a few lines off the textbook loop, run
on the exercise corpora; the checker must name the merge where they first leave a correct
textbook trainer (also written here) and the bug's cause.

The expected merge numbers come from comparing the two trainers written here, never from
the checker; the causes are the bugs put in.
"""

from __future__ import annotations

import json

import pytest
import regex
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from subtok_core.check import Setup, check, exercises, read_merges
from subtok_core.check.formats import from_bytes_pairs
from subtok_core.cli import main

GPT2 = regex.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+")


# --- the textbook loop, and its bugs ---------------------------------------------------


def count(seqs):
    table = {}
    for s in seqs:
        for pair in zip(s, s[1:]):
            table[pair] = table.get(pair, 0) + 1
    return table


def merge(s, pair):
    out, i = [], 0
    while i < len(s):
        if i + 1 < len(s) and (s[i], s[i + 1]) == pair:
            out.append(s[i] + s[i + 1])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return tuple(out)


def first(table):  # dict order is the order met in the corpus: the first of a tie
    return max(table, key=table.get)


def lex(table):
    return min(table, key=lambda p: (-table[p], p))


def textbook(seqs, n, counter=count, pick=first):
    merges = []
    for _ in range(n):
        table = counter(seqs)
        if not table:
            break
        pair = pick(table)
        merges.append(pair)
        seqs = [merge(s, pair) for s in seqs]
    return merges


def no_overlap(seqs):  # bug: a run a a a holds (a, a) once
    table = {}
    for s in seqs:
        i = 0
        while i + 1 < len(s):
            table[(s[i], s[i + 1])] = table.get((s[i], s[i + 1]), 0) + 1
            i += 2 if s[i] == s[i + 1] else 1
    return table


def stale(seqs, n):  # bug: counted once; a merge adds the new pairs, lowers nothing
    table, merges = count(seqs), []
    for _ in range(n):
        pair = first(table)
        merges.append(pair)
        del table[pair]
        seqs = [merge(s, pair) for s in seqs]
        for q, c in count(seqs).items():
            table.setdefault(q, c)
    return merges


def words(ex, marker=""):
    return [(*w, *([marker] if marker else [])) for w in ex.text.split()]


def byte_chunks(text, special=None, pre=GPT2.findall):
    """Chunks line by line, each line with its break (as tokenizers reads a file)."""
    lines = text.splitlines(keepends=True)
    pieces = [p for line in lines for p in (line.split(special) if special else [line])]
    return [tuple(bytes([b]) for b in c.encode()) for p in pieces for c in pre(p)]


def first_difference(mine, right):
    return next(i for i, (a, b) in enumerate(zip(mine, right), start=1) if a != b)


def as_letters(merges):
    return from_bytes_pairs(merges)


def verdict_of(name, merges, **settings):
    ex = exercises.load(name)
    return check(ex.setup(**settings), merges)


# --- one test per cause ------------------------------------------------------------------

CHAR_CASES = {
    "tie": ("ties", lambda ex: textbook(words(ex), 20, pick=lex), {}),
    "overlap": ("runs", lambda ex: textbook(words(ex), 9, counter=no_overlap), {}),
    "stale-counts": ("endings", lambda ex: stale(words(ex, "</w>"), 20), {}),
    "marker": ("endings", lambda ex: textbook(words(ex), 20), {}),
}


@pytest.mark.parametrize("cause", list(CHAR_CASES))
def test_character_level_bug_is_named(cause):
    name, buggy, settings = CHAR_CASES[cause]
    ex = exercises.load(name)
    marker = "</w>" if ex.setting("marker") == "eow" else ""
    right = textbook(words(ex, marker), 40)
    mine = buggy(ex)
    d = verdict_of(name, mine, **settings).first_difference
    assert d is not None and d.cause == cause, d
    assert d.merge == first_difference(mine, right)
    assert d.yours == mine[d.merge - 1] and d.expected == right[d.merge - 1]


def test_tie_names_the_rule_that_matches_the_whole_list():
    ex = exercises.load("ties")
    mine = textbook(words(ex), 20, pick=lex)
    d = verdict_of("ties", mine).first_difference
    assert d.tie_rule == "lex"
    assert check(ex.setup("lex"), mine).identical


BYTE_CASES = {
    "boundary": ("whitespace", {"pre": lambda line: [line]}),  # no pre-split at all
    "special-token": ("special", {"special": None}),  # <|endoftext|> read as text
    "pre-split": ("emoji-cjk", {"pre": str.split}),  # words at whitespace, spaces gone
}


@pytest.mark.parametrize("cause", list(BYTE_CASES))
def test_byte_level_bug_is_named(cause):
    name, bug = BYTE_CASES[cause]
    ex = exercises.load(name)
    right = textbook(byte_chunks(ex.text, ex.setting("special")), 30)
    options = {"special": ex.setting("special"), **bug}
    mine = textbook(byte_chunks(ex.text, **options), 30)
    d = verdict_of(name, as_letters(mine)).first_difference
    assert d is not None and d.cause == cause, d
    number = first_difference(mine, right)
    assert d.merge == number
    assert d.yours == as_letters(mine)[number - 1]
    assert d.expected == as_letters(right)[number - 1]


def test_the_issues_example_in_words():
    """'aaa aaa ab ab ab': (a, a) 4 against (a, b) 3; without overlap (a, a) has 2."""
    from subtok_core.check import Setup

    d = check(Setup(("aaa aaa ab ab ab",)), [("a", "b")]).first_difference
    assert (d.merge, d.cause, d.counts) == (1, "overlap", {"yours": 3, "expected": 4})
    assert "(a, b) has 3 and (a, a) has 2" in d.explanation


def test_a_pair_no_hypothesis_explains_is_unknown():
    d = verdict_of("runs", [("a", "a"), ("b", "b"), ("b", "a")]).first_difference
    assert (d.merge, d.cause) == (2, "unknown")
    assert d.counts["yours"] < d.counts["expected"]


# --- correct trainers: identical ---------------------------------------------------------


@pytest.mark.parametrize("name", ["ties", "runs", "endings"])
def test_textbook_trainer_is_identical_under_first(name):
    ex = exercises.load(name)
    marker = "</w>" if ex.setting("marker") == "eow" else ""
    verdict = verdict_of(name, textbook(words(ex, marker), 40))
    assert verdict.identical and verdict.first_difference is None


@pytest.mark.parametrize("name", ["whitespace", "special", "emoji-cjk"])
def test_byte_level_textbook_trainer_is_identical(name):
    ex = exercises.load(name)
    mine = textbook(byte_chunks(ex.text, ex.setting("special")), 30)
    assert verdict_of(name, as_letters(mine)).identical


def hf_tokenizer_json(lines, bytelevel: bool, vocab_size: int) -> str:
    tok = Tokenizer(models.BPE())
    if bytelevel:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        alphabet = pre_tokenizers.ByteLevel.alphabet()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size, show_progress=False, initial_alphabet=alphabet
        )
    else:
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False)
    tok.train_from_iterator(lines, trainer)
    return tok.to_str()


@pytest.mark.parametrize("name", ["ties", "runs"])
def test_tokenizers_json_is_identical_under_tokenizers_rule(name):
    ex = exercises.load(name)
    setup = ex.setup("tokenizers")
    merges = read_merges(hf_tokenizer_json(list(setup.lines), False, 60))
    assert len(merges) > 5
    assert check(setup, merges).identical
    assert not check(ex.setup("first"), merges).identical  # the ties decide there


def test_byte_level_tokenizers_json_is_identical(tmp_path):
    ex = exercises.load("whitespace")
    setup = ex.setup("tokenizers")
    path = tmp_path / "tokenizer.json"
    path.write_text(hf_tokenizer_json(list(setup.lines), True, 280))
    merges = read_merges(path.read_text(), bytelevel=True)
    # tokenizers stops before 280: at 19 merges every word of a line is one token. By hand:
    # def 2, Ġf Ġg Ġx Ġ0 ): 1 each, Ġif 2, Ġreturn 6, ĠĠ and ĠĠĠ 2, and the line of 7
    # spaces at least 2 more (ĠĠĠ + ĠĠĠ, then + Ġ): 19; the library's vocab agrees.
    vocab = json.loads(path.read_text())["model"]["vocab"]
    assert len(merges) == len(vocab) - 256 == 19
    assert check(setup, merges).identical


# --- formats and the command line ---------------------------------------------------------


def test_the_formats_read_the_same_merges():
    text = read_merges("#version: 0.2\nĠ t\nĠt h\n", bytelevel=True)
    lists = read_merges('{"merges": [[[32], [116]], [[32, 116], [104]]]}', bytelevel=True)
    hf = read_merges('{"model": {"type": "BPE", "merges": ["Ġ t", ["Ġt", "h"]]}}')
    assert text == lists == hf == [("Ġ", "t"), ("Ġt", "h")]


@pytest.mark.parametrize(
    "text",
    ["", "a b c", '{"merges": 3}', '{"model": {"type": "Unigram"}}', '{"merges": [[1, 2]]}'],
)
def test_bad_merges_files_say_why(text):
    with pytest.raises(ValueError, match=r"\w+ .*\w"):
        read_merges(text, bytelevel=True)


def test_cli_json_shape(tmp_path, capsys):
    (tmp_path / "c.txt").write_text("aaa aaa ab ab ab\n")
    (tmp_path / "m.txt").write_text("#version: 0.2\na b\n")
    code = main(["check", "merges", str(tmp_path / "m.txt"), "--corpus", str(tmp_path / "c.txt"),
                 "--json"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["identical"] is False and out["merges"] == 1
    d = out["first_difference"]
    assert set(d) == {"merge", "yours", "expected", "cause", "explanation", "counts", "tie_rule",
                      "matched", "tried"}  # fmt: skip
    assert (d["merge"], d["yours"], d["expected"], d["cause"]) == (
        1,
        ["a", "b"],
        ["a", "a"],
        "overlap",
    )


def test_cli_identical_and_errors(tmp_path, capsys):
    (tmp_path / "m.txt").write_text("a a\n")
    assert main(["check", "merges", str(tmp_path / "m.txt"), "--corpus", "exercise:runs"]) == 0
    assert "identical: your 1 merges" in capsys.readouterr().out
    assert main(["check", "merges", str(tmp_path / "none.txt"), "--corpus", "exercise:runs"]) == 2
    assert capsys.readouterr().err.startswith("error: There is no merges file")


STUDENT = """
import regex
def train_bpe(input_path, vocab_size, special_tokens):
    text = open(input_path, encoding="utf-8").read()
    for tok in special_tokens:
        text = text.replace(tok, "\\0")
    pat = regex.compile(r"{pattern}")
    chunks = [c for p in text.split("\\0") for c in pat.findall(p)]
    seqs = [tuple(bytes([b]) for b in c.encode()) for c in chunks]
    vocab = {{i: bytes([i]) for i in range(256)}}
    for tok in special_tokens:
        vocab[len(vocab)] = tok.encode()
    merges = []
    while len(vocab) < vocab_size:
        table = {{}}
        for s in seqs:
            for pair in zip(s, s[1:]):
                table[pair] = table.get(pair, 0) + 1
        if not table:
            break
        pair = max(table, key=table.get)
        merges.append(pair)
        vocab[len(vocab)] = pair[0] + pair[1]
        seqs = [merge(s, pair) for s in seqs]
    return vocab, merges

def merge(s, pair):
    out, i = [], 0
    while i < len(s):
        if i + 1 < len(s) and (s[i], s[i + 1]) == pair:
            out.append(s[i] + s[i + 1]); i += 2
        else:
            out.append(s[i]); i += 1
    return tuple(out)
"""


def test_check_trainer_runs_a_cs336_function(tmp_path, monkeypatch, capsys):
    (tmp_path / "student_bpe.py").write_text(STUDENT.format(pattern=GPT2.pattern))
    monkeypatch.chdir(tmp_path)
    args = ["check", "trainer", "student_bpe:train_bpe", "--corpus", "exercise:special",
            "--vocab-size", "270", "--json"]  # fmt: skip
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["identical"] and out["merges"] == 270 - 257 and out["vocab_problems"] == []


def test_check_trainer_says_what_the_vocab_gets_wrong(tmp_path, monkeypatch, capsys):
    """A vocab that leaves out the last merge's product and gives the special token no id."""
    broken = STUDENT.format(pattern=GPT2.pattern).replace(
        "    return vocab, merges",
        "    vocab.pop(max(vocab))\n"
        "    vocab = {i: t for i, t in vocab.items() if t != b'<|endoftext|>'}\n"
        "    return vocab, merges",
    )
    (tmp_path / "broken_bpe.py").write_text(broken)
    monkeypatch.chdir(tmp_path)
    args = ["check", "trainer", "broken_bpe:train_bpe", "--corpus", "exercise:special",
            "--vocab-size", "270"]  # fmt: skip
    assert main(args) == 1  # the merges are right, the vocab is not: different
    out = capsys.readouterr().out
    assert "identical: your 13 merges" in out  # 270 - 256 bytes - 1 special token
    assert "vocab: the product of merge 13" in out and "is not in the vocab" in out
    assert "vocab: the special token <|endoftext|> has no id." in out


def test_a_students_module_is_found_in_the_current_directory_and_the_path_is_left_as_it_was(
    tmp_path, monkeypatch
):
    import sys

    from subtok_core.check.trainer import load_function

    (tmp_path / "path_probe_bpe.py").write_text("def train_bpe():\n    return 'mine'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    before = list(sys.path)
    assert load_function("path_probe_bpe:train_bpe")() == "mine"
    assert sys.path == before  # no directory added for the rest of the process
    with pytest.raises(ValueError, match="Cannot import 'no_such_module_here'"):
        load_function("no_such_module_here:f")
    assert sys.path == before


def test_check_trainer_refuses_a_bad_name(capsys):
    assert main(["check", "trainer", "no_such_module_here:f", "--corpus", "exercise:runs"]) == 2
    assert "error: Cannot import 'no_such_module_here'" in capsys.readouterr().err


def test_a_list_longer_than_the_command_line_limit_is_refused_before_training():
    from subtok_core import limits

    top = int(limits.limit("merges", "cli"))
    with pytest.raises(ValueError, match=f"Your list has {top + 1:,} merges; at most {top:,}"):
        check(Setup(("aaa ab",)), [("a", "b")] * (top + 1))
