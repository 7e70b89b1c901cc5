"""Corpus loading: text and tables -> WordCounts, the built-in corpora, input validation.

Expected numbers of the toy corpora are the tables of the course material
(../shared/seeds/001_*, 003_*, 004_*), not output of our own code.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from subtok_core import corpus
from subtok_core.corpus import (
    MAX_BYTES,
    WordCounts,
    count_lines,
    count_words,
    decode_upload,
    from_pairs,
    from_text,
    load,
    load_lines,
    split_words,
)

# --- from_text: first-appearance order and counts -------------------------------------


def test_from_text_keeps_first_appearance_order_and_counts():
    wc = from_text("the cat and the hat sat on the cat")
    assert wc.words == ("the", "cat", "and", "hat", "sat", "on")
    assert wc.counts == (3, 2, 1, 1, 1, 1)
    assert wc.total == 9
    assert len(wc) == 6
    assert wc.items() == list(zip(wc.words, wc.counts, strict=True))


def test_from_text_splits_on_any_whitespace():
    wc = from_text("  low\tlow\n\nlower   low \r\n")
    assert wc.items() == [("low", 3), ("lower", 1)]


def test_from_text_is_case_sensitive():
    assert from_text("The the THE the").items() == [("The", 1), ("the", 2), ("THE", 1)]


def test_from_text_keeps_the_name():
    assert from_text("a b", name="mine").name == "mine"


def test_split_punct_splits_punctuation_off():
    text = "Hello, world! Hello... world"
    assert from_text(text).items() == [
        ("Hello,", 1),
        ("world!", 1),
        ("Hello...", 1),
        ("world", 1),
    ]
    assert from_text(text, split_punct=True).items() == [
        ("Hello", 2),
        (",", 1),
        ("world", 2),
        ("!", 1),
        (".", 3),
    ]


def test_split_words_punct_keeps_words_whole():
    assert split_words("don't stop", split_punct=True) == ["don", "'", "t", "stop"]
    assert split_words("don't stop") == ["don't", "stop"]


def test_count_words_matches_counter():
    words = ["b", "a", "b", "c", "a", "b", "d"]
    wc = count_words(words)
    assert dict(wc.items()) == Counter(words)
    assert wc.words == ("b", "a", "c", "d")


@pytest.mark.slow  # a long run (fast tier: README)
def test_count_lines_counts_the_words_and_the_line_ends():
    wc = count_lines(["a b a", "", "b c", "c"])
    assert wc.items() == [("a", 2), ("b", 2), ("c", 2)]
    assert wc.line_ends == (1, 0, 2)  # a ends line 1, c lines 3 and 4; a blank line ends none
    sample = load("sample:enwiki")
    lines = load_lines("sample:enwiki")
    assert sample.items() == count_words(" ".join(lines).split()).items()
    assert sum(sample.line_ends) == sum(1 for line in lines if line.split())


# --- word/frequency tables ------------------------------------------------------------


def test_from_pairs_keeps_table_order():
    wc = from_pairs([("low", 5), ("lower", 2), ("newest", 6), ("widest", 3)])
    assert wc.items() == [("low", 5), ("lower", 2), ("newest", 6), ("widest", 3)]


def test_from_pairs_adds_up_repeated_words():
    wc = from_pairs([("low", 5), ("lower", 2), ("low", 3), ("lower", "1")])
    assert wc.items() == [("low", 8), ("lower", 3)]


def test_from_pairs_accepts_string_and_whole_float_counts():
    assert from_pairs([("a", "7"), ("b", 2.0), ("c", " 3 ")]).counts == (7, 2, 3)


def test_from_pairs_drops_zero_counts_and_blank_words():
    wc = from_pairs([("a", 0), ("", 4), (None, 4), ("b", 1)])
    assert wc.items() == [("b", 1)]


# --- the toy corpora of the course material -------------------------------------------

TOYS = {
    # 001, BPE worked example
    "toy:cat-bat": [("cat", 10), ("bat", 5), ("bag", 12), ("tag", 4), ("cats", 5)],
    # 003, BPE with </w>
    "toy:low-lower": [("low", 5), ("lower", 2), ("newest", 6), ("widest", 3)],
    # 001, WordPiece worked example
    "toy:sunflower": [
        ("sunflower", 1),
        ("sun", 2),
        ("flower", 1),
        ("flow", 1),
        ("flowers", 1),
        ("flowing", 2),
        ("flows", 2),
        ("flowed", 1),
    ],
    # 001, Unigram worked example
    "toy:run-bug": [("run", 3), ("bug", 5), ("fun", 13), ("sun", 10)],
    # 004, Unigram example (from the Hugging Face course)
    "toy:hug-pug": [("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5)],
}


@pytest.mark.parametrize("name", sorted(TOYS))
def test_toy_tables_match_the_material(name):
    wc = load(name)
    assert wc.items() == TOYS[name]
    assert wc.name == name
    assert corpus.load(name).items() == TOYS[name]


def test_toy_fox_is_the_blog_sentence():
    # 004: "The big brown fox jumps over the box and ox"; The and the are different words.
    wc = load("toy:fox")
    words = ["The", "big", "brown", "fox", "jumps", "over", "the", "box", "and", "ox"]
    assert wc.words == tuple(words)
    assert wc.counts == (1,) * 10
    assert len(wc) == 10
    assert wc.total == 10


def test_every_toy_is_listed_with_its_source():
    names = corpus.toy_names()
    # written for the byte-level lesson, and for SuperBPE and BoundlessBPE; their sources say so
    ours = {"toy:emoji-cjk", "toy:by-the-way", "toy:cat-mat"}
    assert set(names) == set(TOYS) | {"toy:fox"} | ours
    infos = {info.name: info for info in corpus.list_corpora()}
    for name in names:
        assert corpus.is_toy(name)
        assert infos[name].title
        if name in ours:
            assert infos[name].source.startswith("ours")
        else:
            assert any(seed in infos[name].source for seed in ("001_", "003_", "004_"))
    assert {"sample:enwiki", "sample:lee", "sample:crime"} <= set(infos)


@pytest.mark.parametrize("name", sorted(TOYS) + ["toy:fox"])
def test_toy_lines_count_back_to_the_table(name):
    # the parity tests count words of load_lines(); that must give the same table
    lines = load_lines(name)
    assert count_words(" ".join(lines).split()).items() == load(name).items()


# --- non-Latin text and emoji ---------------------------------------------------------


def test_russian_chinese_and_emoji_are_counted():
    text = "привет мир 你好 привет 😀 你好 😀 😀 мир👍🏽 мир"
    wc = from_text(text)
    assert wc.items() == [
        ("привет", 2),
        ("мир", 2),
        ("你好", 2),
        ("😀", 3),
        ("мир👍🏽", 1),
    ]


def test_non_latin_upload():
    data = "ёжик 猫 ёжик\n🐈 ёжик 猫\n".encode()
    wc = from_text(decode_upload(data, "t.txt"))
    assert wc.items() == [("ёжик", 3), ("猫", 2), ("🐈", 1)]


def test_split_punct_on_non_latin():
    assert split_words("Привет, мир! 你好。", split_punct=True) == [
        "Привет",
        ",",
        "мир",
        "!",
        "你好",
        "。",
    ]


# --- files and uploads ----------------------------------------------------------------


def test_txt_path_loads(tmp_path: Path):
    path = tmp_path / "mine.txt"
    path.write_text("low lower\nlow новый 🙂\n", encoding="utf-8")
    wc = load(str(path), allow_paths=True)
    assert wc.items() == [("low", 2), ("lower", 1), ("новый", 1), ("🙂", 1)]
    assert load_lines(str(path), allow_paths=True) == ["low lower", "low новый 🙂"]


def test_txt_path_with_bom_and_punct(tmp_path: Path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffHi, hi.".encode())
    assert load(str(path), allow_paths=True).items() == [("Hi,", 1), ("hi.", 1)]
    assert load(str(path), split_punct=True, allow_paths=True).items() == [
        ("Hi", 1),
        (",", 1),
        ("hi", 1),
        (".", 1),
    ]


def test_decode_upload_accepts_utf8_and_strips_bom():
    assert decode_upload("\ufeffzürich 東京".encode()) == "zürich 東京"


# --- bad input: ValueError with a sentence a student understands ----------------------


@pytest.mark.parametrize("text", ["", "   ", "\n\t \r\n"])
def test_empty_text_raises(text):
    with pytest.raises(ValueError, match="text is empty"):
        from_text(text)


def test_empty_word_list_raises():
    with pytest.raises(ValueError, match="corpus is empty"):
        count_words([])


def test_binary_upload_raises():
    with pytest.raises(ValueError, match="data.bin looks like a binary file"):
        decode_upload(b"PK\x03\x04\x00\x00abc", "data.bin")


def test_non_utf8_upload_raises_and_says_where():
    data = "café".encode("latin-1")  # é is byte 3, 0xE9, not valid UTF-8 here
    with pytest.raises(ValueError, match=r"notes.txt is not UTF-8 text \(byte 3"):
        decode_upload(data, "notes.txt")


def test_whitespace_upload_raises():
    with pytest.raises(ValueError, match="big.txt is empty"):
        decode_upload(b" \n\t ", "big.txt")


def test_upload_over_20_mb_raises():
    with pytest.raises(ValueError, match="limit is 20 MB"):
        decode_upload(b" " * (MAX_BYTES + 1), "huge.txt")


def test_upload_of_exactly_20_mb_is_allowed():
    assert decode_upload(b"a" + b" " * (MAX_BYTES - 1)).strip() == "a"


def test_file_over_20_mb_raises(tmp_path: Path):
    path = tmp_path / "huge.txt"
    with open(path, "wb") as fh:  # sparse: nothing is written
        fh.truncate(MAX_BYTES + 1)
    with pytest.raises(ValueError, match="larger than 20 MB"):
        load(str(path), allow_paths=True)


def test_binary_file_raises(tmp_path: Path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"abc\x00def")
    with pytest.raises(ValueError, match="binary file"):
        load(str(path), allow_paths=True)


def test_negative_count_raises():
    with pytest.raises(ValueError, match=r"count of 'low' is -3; counts cannot be negative"):
        from_pairs([("low", -3)])


@pytest.mark.parametrize("bad", ["2.5", "x", 2.5, None, True, "nan", "inf", ""])
def test_non_integer_count_raises(bad):
    with pytest.raises(ValueError, match=r"count of 'low' is .* not a whole number"):
        from_pairs([("low", bad)])


def test_word_with_space_raises():
    with pytest.raises(ValueError, match="Row 2: the word 'new est' contains a space"):
        from_pairs([("low", 1), ("new est", 2)])


def test_table_with_only_zero_counts_raises():
    with pytest.raises(ValueError, match="no word with a count above 0"):
        from_pairs([("low", 0)])


def test_unknown_toy_raises_and_lists_the_toys():
    with pytest.raises(ValueError, match=r"no toy corpus 'toy:nope'.*toy:cat-bat"):
        load("toy:nope")
    with pytest.raises(ValueError, match="no toy corpus"):
        load_lines("toy:nope")


def test_unknown_sample_raises_and_lists_the_samples():
    with pytest.raises(ValueError, match=r"Unknown sample 'nope'.*enwiki"):
        load("sample:nope")


def test_nonexistent_path_raises(tmp_path: Path):
    missing = tmp_path / "missing.txt"
    with pytest.raises(ValueError, match="Unknown corpus .*toy:NAME, sample:NAME"):
        load(str(missing), allow_paths=True)
    with pytest.raises(ValueError, match="Unknown corpus"):
        load(str(tmp_path), allow_paths=True)  # a directory is no corpus either


# --- real samples ---------------------------------------------------------------------


def _gensim_file(name: str) -> Path:
    import gensim

    return Path(gensim.__file__).parent / "test" / "test_data" / name


def test_sample_lee_counts_every_word_of_the_file():
    wc = load("sample:lee")
    assert isinstance(wc, WordCounts)
    assert wc.name == "sample:lee"
    # recount independently from the file shipped with gensim
    words = _gensim_file("lee_background.cor").read_text(encoding="utf-8").split()
    expected = Counter(words)
    assert len(wc) == len(expected) > 5_000
    assert wc.total == len(words) > 50_000
    assert dict(wc.items()) == expected
    assert list(wc.words) == list(dict.fromkeys(words))


def test_sample_lines_are_non_empty_and_stripped():
    lines = load_lines("sample:lee")
    assert len(lines) > 100
    assert all(line and line == line.strip() for line in lines)


@pytest.mark.slow
def test_sample_enwiki_is_large():
    wc = load("sample:enwiki")
    assert wc.name == "sample:enwiki"
    assert wc.total > 400_000
    assert len(wc) > 60_000
    lines = load_lines("sample:enwiki")
    assert all(len(line.split()) > 2 for line in lines)
    assert count_words(" ".join(lines).split()).items() == wc.items()


# --- the web path: a name from a request never opens a file on the server ---------------


@pytest.mark.parametrize("name", ["/etc/passwd", "../README.md", "data/toys.toml", "C:\\x.txt"])
def test_a_path_is_refused_unless_paths_are_allowed(name):
    with pytest.raises(ValueError, match=r"choose toy:NAME or sample:NAME here, or upload"):
        load(name)
    with pytest.raises(ValueError, match="Unknown corpus"):
        load_lines(name)


def test_sage_sample_sentences_refuses_a_path_unless_allowed(tmp_path: Path):
    from subtok_core import sage

    path = tmp_path / "mine.txt"
    path.write_text("It rains. The cat sleeps.\n", encoding="utf-8")
    with pytest.raises(ValueError, match="Unknown corpus"):
        sage.sample_sentences(str(path))
    assert sage.sample_sentences(str(path), allow_paths=True) == [
        ["It", "rains."],
        ["The", "cat", "sleeps."],
    ]


def test_the_command_line_still_trains_on_a_txt_path(tmp_path: Path, capsys):
    from subtok_core.cli import main

    path = tmp_path / "mine.txt"
    path.write_text("low lower lowest low\n", encoding="utf-8")
    assert main(["train", "bpe", "--corpus", str(path), "--merges", "2"]) == 0
    out = capsys.readouterr().out
    assert "l + o" in out and "Reached the 2 merges asked for" in out


# --- UTF-16 and UTF-32: named, not called binary ----------------------------------------


@pytest.mark.parametrize(
    ("codec", "name"),
    [
        ("utf-16", "UTF-16"),  # with its byte order mark
        ("utf-16-le", "UTF-16"),
        ("utf-16-be", "UTF-16"),
        ("utf-32", "UTF-32"),
    ],
)
def test_a_wide_encoding_is_named_and_utf8_asked_for(codec, name):
    data = "low lower newest\nwidest\n".encode(codec)
    with pytest.raises(ValueError, match=rf"^f.txt is {name} text, not UTF-8\. Save it as UTF-8"):
        decode_upload(data, "f.txt")


def test_non_latin_utf16_with_its_mark_is_named_too():
    with pytest.raises(ValueError, match="is UTF-16 text"):
        decode_upload("ёжик 猫".encode("utf-16"), "f.txt")


def test_binary_with_nul_bytes_is_still_binary():
    with pytest.raises(ValueError, match="looks like a binary file"):
        decode_upload(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00", "a.out")


@pytest.mark.slow
def test_the_wikipedia_text_is_kept_on_disk_and_read_back_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBTOK_CACHE_DIR", str(tmp_path))
    corpus.sample_lines.cache_clear()
    made = corpus.sample_lines("enwiki")
    kept = list(tmp_path.glob("*.run"))  # kept like a run: within the cache's budget
    assert len(kept) == 1
    corpus.sample_lines.cache_clear()
    parsed_again = lambda path: pytest.fail("parsed again")  # noqa: E731
    monkeypatch.setattr(corpus.samples, "_wiki_paragraphs", parsed_again)
    assert corpus.sample_lines("enwiki") == made
    corpus.sample_lines.cache_clear()


def test_word_counts_keep_their_public_name_so_their_cache_keys_stay_the_same():
    """WordCounts lives in subtok_core/corpus/words.py, but is pickled (the pages'
    fingerprints) and written as plain data under subtok_core.corpus, its name before the
    module became a package: a corpus keeps the keys it had."""
    import pickle

    from subtok_core import plaindata

    wc = from_text("the cat and the hat\nthe end")
    assert type(wc).__module__ == "subtok_core.corpus"
    assert b"subtok_core.corpus\x94\x8c\nWordCounts" in pickle.dumps(wc)
    assert pickle.loads(pickle.dumps(wc)) == wc
    assert b"subtok_core.corpus" in plaindata.encode(wc)
    assert plaindata.decode(plaindata.encode(wc)) == wc
