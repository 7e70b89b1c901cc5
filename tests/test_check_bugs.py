"""subtok check against BPE trainers written here, each with one realistic bug (none of
them uses the checker's code): the checker must find the first merge where each leaves a
correct trainer (also written here), name the bug only with the evidence of a re-training,
and exit 1; a correct trainer under CS336's tie rule is identical under `--ties auto`.

Expected merge numbers come from comparing the two trainers written here; the causes are
the bugs put in. The toy corpora bring each bug out early; the real sample is the first 200
lines of gensim's Lee corpus (300 merges).
"""

from __future__ import annotations

import json
import unicodedata  # noqa: F401  (kept for readers: NFKC is one of the checker's hypotheses)

import pytest
import regex

from subtok_core.check import Setup, check
from subtok_core.check.formats import from_bytes_pairs
from subtok_core.cli import main
from subtok_core.corpus import load_lines

GPT2 = regex.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+")
CL100K = regex.compile(
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
LEE = tuple(load_lines("sample:lee"))[:200]


# --- a correct trainer, and its bugs (words as tuples of symbols, with counts) ----------


def words_of(lines, lower=False):
    table = {}
    for line in lines:
        for w in (line.lower() if lower else line).split():
            table[tuple(w)] = table.get(tuple(w), 0) + 1
    return table


def chunks_of(lines, pattern=GPT2):
    table = {}
    for line in lines:
        for c in pattern.findall(line):
            key = tuple(bytes([b]) for b in c.encode())
            table[key] = table.get(key, 0) + 1
    return table


def every(w):
    return list(zip(w, w[1:]))


def once(w):  # bug: a pair counted once per word
    return list(dict.fromkeys(zip(w, w[1:])))


def merge_all(w, pair, first_only=False):
    out, i, done = [], 0, False
    while i < len(w):
        if not done and i + 1 < len(w) and (w[i], w[i + 1]) == pair:
            out.append(w[i] + w[i + 1])
            i += 2
            done = first_only
        else:
            out.append(w[i])
            i += 1
    return tuple(out)


def merge_first(w, pair):  # bug: only the first occurrence in each word
    return merge_all(w, pair, first_only=True)


def merge_rtl(w, pair):  # bug: occurrences taken from the right
    return tuple(s[::-1] for s in merge_all(tuple(s[::-1] for s in w[::-1]), pair[::-1]))[::-1]


def first_seen(table, words):
    top = max(table.values())
    for w in words:  # dict order: the order the words came in
        for p in zip(w, w[1:]):
            if table.get(p) == top:
                return p


def greatest(table, words):  # CS336: the lexicographically greater pair wins a tie
    return max(table, key=lambda p: (table[p], p))


def train(words, n, count=every, merge=merge_all, pick=first_seen, weights=True):
    words, merges = dict(words), []
    for _ in range(n):
        table = {}
        for w, c in words.items():
            for p in count(w):
                table[p] = table.get(p, 0) + (c if weights else 1)
        if not table:
            break
        pair = pick(table, words)
        merges.append(pair)
        merged = {}
        for w, c in words.items():
            key = merge(w, pair)
            merged[key] = merged.get(key, 0) + c
        words = merged
    return merges


def first_difference(mine, right):
    return next(i for i, (a, b) in enumerate(zip(mine, right), start=1) if a != b)


def letters(merges):
    return from_bytes_pairs(merges) if merges and isinstance(merges[0][0], bytes) else merges


def verdict(lines, merges, bytelevel=False, ties="auto"):
    return check(Setup(tuple(lines), bytelevel, ties=ties), letters(merges))


def assert_named(lines, words, bug, cause, n, bytelevel=False, ties="auto"):
    right, mine = train(words, n), train(words, n, **bug)
    d = verdict(lines, mine, bytelevel, ties).first_difference
    number = first_difference(mine, right)
    assert (d.merge, d.cause) == (number, cause), d.explanation
    assert d.matched > number and f"your first {d.matched} merges match" in d.explanation
    assert d.tie_rule == "first"
    return d


# --- the three misdiagnoses of issue 36 ---------------------------------------------------

TOY = ("abab abab abab cdcd cdcd ab ab", "xyxyxy xy xy abab")


def test_first_occurrence_only_is_named_not_tie_or_boundary():
    assert_named(TOY, words_of(TOY), {"merge": merge_first}, "first-occurrence", 8, ties="first")


@pytest.mark.slow  # a real sample: each of these trains 300 merges several times over
def test_first_occurrence_only_on_the_lee_sample():
    assert_named(LEE, words_of(LEE), {"merge": merge_first}, "first-occurrence", 300)


@pytest.mark.slow
def test_a_lowercasing_trainer_is_named_normalised_not_marker():
    right, mine = train(words_of(LEE), 300), train(words_of(LEE, lower=True), 300)
    d = verdict(LEE, mine).first_difference
    assert (d.merge, d.cause) == (first_difference(mine, right), "normalised")
    assert "lowercases the corpus" in d.explanation and "marker" not in d.explanation
    assert d.matched == 300


@pytest.mark.slow
def test_cl100k_instead_of_gpt2_is_named_pre_split_not_tie():
    right = train(chunks_of(LEE), 300, pick=greatest)
    mine = train(chunks_of(LEE, CL100K), 300, pick=greatest)
    d = verdict(LEE, mine, bytelevel=True).first_difference
    assert (d.merge, d.cause) == (first_difference(mine, right), "pre-split")
    assert "cl100k's pattern" in d.explanation and d.matched == 300
    assert d.tie_rule == "greatest"


# --- the other bugs, on a toy where each shows early ---------------------------------------

RUNS = ("aaaa aaaa aaa baaa ab ab ab", "aaab aaab bb")


@pytest.mark.parametrize(
    ("lines", "bug", "cause"),
    [
        (("xy xy xy xy abc abd abe",), {"weights": False}, "frequencies"),
        (TOY, {"count": once}, "once-per-word"),
        (RUNS, {"merge": merge_rtl}, "right-to-left"),
    ],
)
def test_each_bug_on_a_toy(lines, bug, cause):
    assert_named(lines, words_of(lines), bug, cause, 8)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("bug", "cause"),
    [({"weights": False}, "frequencies"), ({"count": once}, "once-per-word")],
)
def test_each_bug_on_the_lee_sample(bug, cause):
    assert_named(LEE, words_of(LEE), bug, cause, 300)


# --- tie rules -----------------------------------------------------------------------------


@pytest.mark.slow
def test_cs336_ties_are_found_and_named():
    mine = train(chunks_of(LEE), 300, pick=greatest)
    v = verdict(LEE, mine, bytelevel=True)
    assert v.identical and v.ties == "greatest"
    assert "Your ties follow CS336's rule (greatest pair): your first 300 merges" in v.summary()
    d = verdict(LEE, mine, bytelevel=True, ties="first").first_difference
    assert (d.cause, d.tie_rule, d.matched) == ("tie", "greatest", 300)


def test_the_tokenizers_rule_is_the_tokenizers_librarys():
    """BpeTrainer's own merges on a toy where its rule and 'lex' part ways."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    text = "hello world low lower newest widest"
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator([text], trainers.BpeTrainer(vocab_size=100, show_progress=False))
    theirs = [tuple(m) for m in json.loads(tok.to_str())["model"]["merges"]]
    v = verdict((text,), theirs)
    assert v.identical and v.ties == "tokenizers", v.summary()
    assert not verdict((text,), theirs, ties="lex").identical


@pytest.mark.slow  # trains every hypothesis
def test_a_bug_no_hypothesis_reproduces_is_unknown():
    def second_best_once(table, words, seen=[]):  # noqa: B006  (bug: at merge 3, the runner-up)
        seen.append(1)
        ranked = sorted(table, key=lambda p: -table[p])
        return ranked[1] if len(seen) == 3 else first_seen(table, words)

    mine = train(words_of(LEE), 20, pick=second_best_once)
    d = verdict(LEE, mine).first_difference
    assert (d.merge, d.cause) == (3, "unknown")
    assert "No hypothesis tried reproduces" in d.explanation
    assert len(d.tried) >= 12 and all(n < 4 for _c, _h, n in d.tried)


# --- the exit status -----------------------------------------------------------------------


def _merges_file(tmp_path, merges):
    path = tmp_path / "merges.txt"
    path.write_text("".join(f"{a} {b}\n" for a, b in merges), encoding="utf-8")
    return str(path)


def test_exit_status_identical_different_unreadable(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(TOY) + "\n", encoding="utf-8")
    args = ["--corpus", str(corpus)]
    right = train(words_of(TOY), 8)
    mine = train(words_of(TOY), 8, merge=merge_first)
    assert main(["check", "merges", _merges_file(tmp_path, right), *args]) == 0
    assert main(["check", "merges", _merges_file(tmp_path, mine), *args]) == 1
    out = capsys.readouterr().out
    assert "(first-occurrence)" in out
    (tmp_path / "bad.txt").write_text("a b c\n", encoding="utf-8")
    assert main(["check", "merges", str(tmp_path / "bad.txt"), *args]) == 2
    assert main(["check", "merges", str(tmp_path / "none.txt"), *args]) == 2
    assert main(["check", "merges", _merges_file(tmp_path, right), *args, "--ties", "x"]) == 2


def test_help_states_the_exit_status_and_each_rules_home(capsys):
    assert main(["check", "merges", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "0 when your merges are the reference's, 1 when they differ, 2 when" in out
    for home in ("minbpe", "BoundlessBPE", "CS336", "tokenizers' BpeTrainer"):
        assert home in out


# --- fast twins of the slow tests: a toy for each misdiagnosis and rule ---------------------

TEXT = ("The cat sat. THE CAT SAT! the Cat sat on the mat", "Cat and cat and CAT")


def test_a_lowercasing_trainer_on_a_toy():
    right, mine = train(words_of(TEXT), 10), train(words_of(TEXT, lower=True), 10)
    d = verdict(TEXT, mine, ties="first").first_difference
    assert (d.merge, d.cause) == (first_difference(mine, right), "normalised")
    assert "marker" not in d.explanation


def test_cl100k_on_a_toy():
    lines = ("it's 12345 and 678!!\n", "so 12345 ... 12345 it's\n")
    right, mine = train(chunks_of(lines), 12), train(chunks_of(lines, CL100K), 12)
    d = verdict(lines, mine, bytelevel=True, ties="first").first_difference
    number = first_difference(mine, right)
    assert (d.merge, d.cause, d.tie_rule) == (number, "pre-split", "first")
    assert "cl100k's pattern" in d.explanation


def test_cl100k_with_cs336_ties_on_a_toy():
    lines = ("it's 12345 and 678!!\n", "so 12345 ... 12345 it's\n")
    right = train(chunks_of(lines), 12, pick=greatest)
    mine = train(chunks_of(lines, CL100K), 12, pick=greatest)
    d = verdict(lines, mine, bytelevel=True).first_difference
    number = first_difference(mine, right)
    assert (d.merge, d.cause, d.tie_rule) == (number, "pre-split", "greatest")


def test_cs336_ties_on_a_toy():
    lines = ("zy yz xw wx ab ba",)
    mine = train(words_of(lines), 6, pick=greatest)
    v = verdict(lines, mine)
    assert v.identical and v.ties == "greatest", v.summary()
    assert main_exit(lines, mine, "greatest") == 0 and main_exit(lines, mine, "first") == 1


def main_exit(lines, merges, ties):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "c.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        m = _merges_file(Path(tmp), merges)
        return main(["check", "merges", m, "--corpus", str(Path(tmp) / "c.txt"), "--ties", ties])
