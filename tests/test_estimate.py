"""The time estimate before a long run (subtok_core/estimate.py) and its notice on an upload
(lessons/ui/estimate.py): the model is read from the file bench/scaling.py writes, grows with
the vocab size, fails with a clear sentence; the page warns on a big corpus only and
offers smaller slices. No timings are asserted: expected values are computed by hand from
the constants of a file written here."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from subtok_core import estimate
from subtok_core.corpus import from_text

ROOT = Path(__file__).parents[1]

# a model with round numbers: counting 1e-6 s per character; BPE 1e-4 s per distinct word,
# doubling with the vocab size; Unigram with an interaction, its range of words 100..1000
MODEL = f"""
vocab_size = 1000
[heaps]
exponent = 0.5
[count]
coef = 1e-6
exponent = 1.0
[bpe]
coefs = [{math.log(1e-4)!r}, 1.0, 1.0, 0.0]
types_range = [100, 100000]
[unigram]
coefs = [0.0, 1.0, 0.0, 0.5]
types_range = [100, 1000]
"""


@pytest.fixture
def model_file(tmp_path: Path) -> Path:
    path = tmp_path / "scaling.toml"
    path.write_text(MODEL, encoding="utf-8")
    return path


def test_the_estimate_is_computed_from_the_constants_in_the_file(model_file):
    # 1e-6 * 1,000,000 characters + 1e-4 * 10,000 words * (2000 / 1000) = 1 + 2
    seconds = estimate.estimate_seconds("bpe", 1_000_000, 10_000, 2000, path=model_file)
    assert seconds == pytest.approx(3.0)
    # the interaction holds ln(words) at the top of its range, ln 1000, in the d x y term
    expected = 1.0 + 10_000 * math.exp(0.5 * math.log(1000) * math.log(2))
    got = estimate.estimate_seconds("unigram", 1_000_000, 10_000, 2000, path=model_file)
    assert got == pytest.approx(expected)
    assert estimate.algorithms(model_file) == ("bpe", "unigram")


def test_a_slice_scales_characters_in_proportion_and_words_by_heaps_law(model_file):
    # a quarter: 250,000 characters, 10,000 * 0.25 ** 0.5 = 5,000 distinct words
    chars, types = estimate.slice_size(1_000_000, 10_000, 0.25, path=model_file)
    assert (chars, types) == (250_000, 5000)
    got = estimate.estimate_seconds("bpe", chars, types, 2000, path=model_file)
    assert got == pytest.approx(0.25 + 1e-4 * 5000 * 2)
    with pytest.raises(ValueError, match="not between 0 and 1"):
        estimate.slice_size(1_000_000, 10_000, 1.5, path=model_file)


def test_the_shipped_file_says_where_and_how_it_was_measured():
    text = estimate.SCALING_FILE.read_text(encoding="utf-8")
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any(line.startswith("# command: python bench/scaling.py") for line in header)
    assert any(line.startswith("# date: ") for line in header)
    assert any(line.startswith("# machine: ") for line in header)
    data = tomllib.loads(text)
    assert set(estimate.algorithms()) == {"bpe", "wordpiece", "unigram"}
    for name in estimate.algorithms():
        assert len(data[name]["measured"]) >= 10  # fitted on measurements, not typed in


CORPORA = [(50_000, 5_000), (3_000_000, 70_000), (16_000_000, 290_000)]  # (chars, types)
SIZES = (100, 1000, 4000, 8000, 20_000)


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
def test_more_merges_take_longer(algorithm):
    # one merge per step: every step is work, so the time grows with the vocab size
    for n_chars, n_types in CORPORA:
        times = [estimate.estimate_seconds(algorithm, n_chars, n_types, s) for s in SIZES]
        assert times == sorted(times) and times[0] < times[-1], (n_chars, times)


def test_unigram_takes_longer_to_prune_to_a_smaller_vocab():
    # EM starts from a big seed and prunes a share of it per round down to the size:
    # a smaller size means more rounds
    for n_chars, n_types in CORPORA:
        times = [estimate.estimate_seconds("unigram", n_chars, n_types, s) for s in SIZES]
        assert times == sorted(times, reverse=True) and times[0] > times[-1], (n_chars, times)


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece", "unigram"])
def test_the_whole_upload_takes_longer_than_its_first_eighth(algorithm):
    whole = estimate.estimate_seconds(algorithm, 16_000_000, 290_000, 8000)
    eighth = estimate.slice_size(16_000_000, 290_000, 1 / 8)
    assert estimate.estimate_seconds(algorithm, *eighth, 8000) < whole


def test_an_unknown_algorithm_or_a_bad_number_is_a_sentence():
    with pytest.raises(ValueError, match="no time estimate for 'sage'.*bpe"):
        estimate.estimate_seconds("sage", 1000, 100, 500)
    with pytest.raises(ValueError, match="number of pieces is 0"):
        estimate.estimate_seconds("bpe", 1000, 100, 0)
    with pytest.raises(ValueError, match="scaling.toml\\) are missing"):
        estimate.estimate_seconds("bpe", 1000, 100, 500, path=ROOT / "no-such-scaling.toml")


def test_corpus_size_counts_running_characters_and_distinct_words():
    # "low"×2 + "lower" + "newest": 3 + 3 + 5 + 6 = 17 characters, 3 distinct words
    assert estimate.corpus_size(from_text("low lower low newest")) == (17, 3)


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(0.2, "under a second"), (7.4, "about 7 s"), (41, "about 40 s"), (59, "about 1 min"),
     (370, "about 6 min"), (1000, "about 15 min"), (3599, "about 1 h"), (9000, "about 2.5 h")],
)  # fmt: skip
def test_describe_rounds_as_a_person_says_it(seconds, said):
    assert estimate.describe(seconds) == said


# The page piece, in a script of its own: word counts of N_TYPES words seen COUNT times.
SCRIPT = """
import sys
sys.path.insert(0, ROOT)
import streamlit as st
from lessons.ui.estimate import upload_notice
from subtok_core.corpus import WordCounts

n_types, count, algorithm, size, n_lines = ARGS
wc = WordCounts(tuple(f"word{i}" for i in range(n_types)), (count,) * n_types, "upload")
keep = upload_notice(wc, algorithm, size, n_lines=n_lines, page=algorithm.split(",")[0])
st.text(f"keep={keep!r}")
"""


def page(n_types: int, count: int, algorithm: str, size: int, n_lines: int) -> AppTest:
    args = repr((n_types, count, algorithm, size, n_lines))
    script = SCRIPT.replace("ROOT", repr(str(ROOT))).replace("ARGS", args)
    at = AppTest.from_string(script, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_big_upload_gets_a_warning_and_smaller_slices_to_choose_from():
    # 500,000 distinct words, about 20 MB of text: EM on a seed of their substrings is
    # minutes in any sane fit (sentencepiece itself takes a minute and a half on 290,000)
    at = page(500_000, 4, "unigram", 8000, 80_000)
    assert len(at.warning) == 1
    assert "Training Unigram on this upload" in at.warning[0].value
    box = at.selectbox(key="unigram_upload_slice")
    assert box.options[0].startswith("all: 80,000 lines, about")
    assert [o.split(":")[0] for o in box.options] == ["all", "first 1/2", "first 1/4", "first 1/8"]
    assert at.text[0].value == "keep=None"
    box.set_value(4).run()
    assert at.text[0].value == "keep=20000"


def test_a_small_upload_or_sage_trains_without_a_word():
    small = page(12, 3, "bpe", 50, 4)
    assert not small.warning and not small.selectbox and small.text[0].value == "keep=None"
    sage = page(500_000, 4, "sage", 20_000, 80_000)
    assert not sage.warning and sage.text[0].value == "keep=None"


def test_compare_names_every_tokenizer_it_trains():
    at = page(500_000, 4, "bpe,wordpiece,unigram", 20_000, 80_000)
    assert "Training BPE, WordPiece and Unigram on this upload" in at.warning[0].value


def test_an_upload_of_one_line_gets_the_warning_but_no_slices():
    at = page(500_000, 4, "unigram", 8000, 1)
    assert len(at.warning) == 1 and not at.selectbox and at.text[0].value == "keep=None"


UPLOAD_SCRIPT = """
import sys
sys.path.insert(0, ROOT)
import streamlit as st
from lessons.ui.upload import counted_upload


class Upload:  # what st.file_uploader gives: a name, an id, a size, the bytes
    name, file_id = "big.txt", "upload-1"

    def getvalue(self):
        return "\\n".join(f"w{i}a w{i}b" for i in range(200_000)).encode()

    @property
    def size(self):
        return len(self.getvalue())


wc = counted_upload(Upload(), False, "bpe", "unigram", 8000)
st.write(f"{len(wc.words)} distinct words, {wc.total} running words from {wc.name}")
"""


@pytest.mark.slow  # times real runs
def test_an_upload_on_a_lesson_page_is_timed_and_can_be_cut_to_its_first_lines():
    """The page's upload path (lessons.ui.upload.counted_upload): an upload of 200,000
    lines, each with its own two words, would take Unigram EM minutes; the slice 1/8 keeps
    the first 25,000 lines, so 50,000 distinct words."""
    script = UPLOAD_SCRIPT.replace("ROOT", repr(str(ROOT)))
    at = AppTest.from_string(script, default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    assert len(at.warning) == 1 and "about" in at.warning[0].value
    assert "400000 distinct words" in at.markdown[-1].value
    slices = at.selectbox[0]
    eighth = next(o for o in slices.options if o.startswith("first 1/8"))
    slices.set_value(eighth).run()
    assert "50000 distinct words, 50000 running words from big.txt (first 25,000 lines)" in (
        at.markdown[-1].value
    )
