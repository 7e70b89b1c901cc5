"""AppTest: on /compare an uploaded corpus is timed before any training, for the
tokenizers chosen at the chosen size, counted as the page trains them (side by side, one
per processor), with the offer of a smaller slice that changes what is trained; the
tokenizers that need no training are named; a toy or a shipped sample gets no estimate.

The expected times are worked out here from the fitted figures of subtok_core/data/scaling.toml with
the formula written out (not through subtok_core.estimate); no time is measured. The
training itself is replaced by a stand-in that notes what it was given and refuses, so
that the page stops right after it, with the refusal's sentence as an st.error.
"""

from __future__ import annotations

import math
import os
import tomllib
from pathlib import Path

import pytest
from apptools import APP, broken, open_page
from streamlit.testing.v1 import AppTest

from subtok_core import parallel

FIGURES = tomllib.loads(
    (Path(__file__).parents[1] / "subtok_core" / "data" / "scaling.toml").read_text("utf-8")
)
LINES = 100_000  # upload lines "w{i}a w{i}b": every word distinct, two a line
TEXT = "\n".join(f"w{i}a w{i}b" for i in range(LINES))
N_TYPES = 2 * LINES
N_CHARS = sum(2 * (len(str(i)) + 2) for i in range(LINES))  # "w" + i + "a"/"b", twice a line
SIZE = 8000
STAND_IN = "Training was replaced by the test."


def count_s(n_chars: int) -> float:
    """Counting the words: count.coef * n_chars ** count.exponent."""
    return FIGURES["count"]["coef"] * n_chars ** FIGURES["count"]["exponent"]


def train_s(name: str, n_types: int, size: int) -> float:
    """Training: exp(a + b x + c y + d x' y), x = ln n_types, y = ln(size / vocab_size),
    x' = x held inside the measured range of distinct words."""
    a, b, c, d = FIGURES[name]["coefs"]
    x, y = math.log(n_types), math.log(size / FIGURES["vocab_size"])
    lo, hi = (math.log(n) for n in FIGURES[name]["types_range"])
    return math.exp(a + b * x + c * y + d * min(max(x, lo), hi) * y)


def said(seconds: float) -> str:
    """How the page rounds a time under 9.5 min (see test_estimate's cases)."""
    assert 0 <= seconds < 570, seconds  # the rules below hold in this range only
    if seconds < 1:
        return "under a second"
    if seconds < 10:
        return f"about {round(seconds)} s"
    if round(seconds / 5) * 5 < 60:
        return f"about {round(seconds / 5) * 5} s"
    return f"about {round(seconds / 60)} min"


@pytest.fixture
def trainings(monkeypatch):
    """What the page asks to train, as (tokenizer, distinct words, size); each ask refused."""
    asked = []

    def stand_in(fn, kind, wc, size, report=None, **_):
        asked.append((kind, len(wc), size))
        raise ValueError(STAND_IN)

    monkeypatch.setattr(parallel, "run", stand_in)
    return asked


def upload(tok: str, text: str = TEXT, size: int = SIZE) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"corpus": "upload:a .txt file", "tok": tok, "size": str(size)})
    at.run()
    at.switch_page("lessons/compare/page.py").run()
    at.file_uploader(key="compare_upload").set_value(("big.txt", text.encode(), "text/plain"))
    at.run()
    assert not at.exception and not broken(at), at.exception
    return at


@pytest.mark.slow  # trains a slice of a big upload
def test_two_processors_wait_for_the_busiest_and_a_slice_trains_fewer_words(monkeypatch, trainings):
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one processor: the trainings take turns (the next test)")
    monkeypatch.setenv("SUBTOK_WORKERS", "2")
    at = upload("unigram,bpe,wordpiece,cl100k_base")
    uni, bpe, wp = (train_s(k, N_TYPES, SIZE) for k in ("unigram", "bpe", "wordpiece"))
    # Unigram goes to one processor, BPE to the other, WordPiece after BPE: the busiest
    wall = count_s(N_CHARS) + max(uni, bpe + wp)
    in_turn = count_s(N_CHARS) + uni + bpe + wp
    assert said(wall) != said(in_turn)  # the page's figure tells the two rules apart
    [warning] = [w.value for w in at.warning]
    assert warning.startswith(
        f"Training Unigram, BPE and WordPiece on this upload ({N_CHARS:,} characters, "
        f"{N_TYPES:,} distinct words) to 8,000 pieces will take {said(wall)} here, roughly."
    )
    alone = [said(count_s(N_CHARS) + t) for t in (uni, bpe, wp)]  # as a lesson page says
    assert f"Each alone: Unigram {alone[0]}, BPE {alone[1]}, WordPiece {alone[2]};" in warning
    assert "they train 2 at a time here, one per processor" in warning
    assert any("cl100k_base (GPT-4) comes trained" in c.value for c in at.caption)
    # nothing was trained before the estimate: the first ask is the whole upload
    assert trainings[0] == ("unigram", N_TYPES, SIZE)
    assert [e.value for e in at.error] == [STAND_IN]

    box = at.selectbox(key="compare_upload_slice")
    beta = FIGURES["heaps"]["exponent"]  # the first 1/8: its characters and Heaps' words
    chars, types = round(N_CHARS / 8), round(N_TYPES * (1 / 8) ** beta)
    u8, b8, w8 = (train_s(k, types, SIZE) for k in ("unigram", "bpe", "wordpiece"))
    eighth = count_s(chars) + max(u8, b8 + w8)
    assert box.options[-1] == f"first 1/8: {LINES // 8:,} lines, {said(eighth)}"
    trainings.clear()
    box.set_value(8).run()
    assert not at.exception and not broken(at)
    # the first 12,500 lines hold 25,000 distinct words: that is what is trained now
    assert trainings[0] == ("unigram", 2 * (LINES // 8), SIZE)


@pytest.mark.slow  # trainings in turn
def test_without_worker_processes_the_trainings_take_turns(monkeypatch, trainings):
    monkeypatch.setenv("SUBTOK_WORKERS", "0")
    at = upload("unigram,bpe,wordpiece")
    uni, bpe, wp = (train_s(k, N_TYPES, SIZE) for k in ("unigram", "bpe", "wordpiece"))
    in_turn = count_s(N_CHARS) + uni + bpe + wp  # the words counted once, then each run
    [warning] = [w.value for w in at.warning]
    assert f"will take {said(in_turn)} here, roughly" in warning
    assert "they train one after the other here" in warning
    assert not any("comes trained" in c.value for c in at.caption)  # none chosen
    assert trainings[0] == ("unigram", N_TYPES, SIZE)


@pytest.mark.slow  # loads two pretrained vocabularies
def test_only_pretrained_tokenizers_need_no_estimate(trainings):
    at = upload("cl100k_base,mistral-v1")
    assert not at.warning
    assert "compare_upload_slice" not in [s.key for s in at.selectbox]
    assert any("cl100k_base (GPT-4) and Mistral v1 come trained" in c.value for c in at.caption)
    assert trainings == []  # nothing to train


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_a_small_upload_is_trained_without_a_word(monkeypatch):
    monkeypatch.setenv("SUBTOK_WORKERS", "0")  # trained in this process: quicker here
    at = upload("bpe,unigram", "low lower newest widest\nlow low lower\n", size=30)
    assert not at.warning and not at.error
    assert "compare_upload_slice" not in [s.key for s in at.selectbox]
    assert any(s.value == "Encoding efficiency" for s in at.header)  # trained, measured


@pytest.mark.parametrize(
    "corpus", ["toy:low-lower", pytest.param("sample:enwiki", marks=pytest.mark.slow)]
)
def test_a_toy_or_a_sample_gets_no_estimate(corpus, trainings):
    # on the Wikipedia sample Unigram to 8,000 is estimated well over ten seconds: an
    # estimate shown for samples too would show here
    assert count_s(2_500_000) + train_s("unigram", 70_000, 8000) > 10
    at = open_page("lessons/compare/page.py", corpus=corpus, size="8000", tok="bpe,unigram")
    assert not at.warning
    assert "compare_upload_slice" not in [s.key for s in at.selectbox]
    assert trainings and trainings[0][0] == "bpe"  # the page went on to train


NOTICE = """
import sys
sys.path.insert(0, ROOT)
from lessons.ui.estimate import upload_notice
from subtok_core.corpus import WordCounts
wc = WordCounts(tuple(f"w{i}" for i in range(200_000)), (3,) * 200_000, "upload")
upload_notice(wc, "unigram,sage", 8000, n_lines=1000, page="compare")
"""


def test_a_tokenizer_without_timing_figures_is_named_as_not_counted():
    root = repr(str(Path(__file__).parents[1]))
    at = AppTest.from_string(NOTICE.replace("ROOT", root), default_timeout=60).run()
    assert not at.exception, at.exception
    [warning] = [w.value for w in at.warning]
    assert warning.startswith("Training Unigram on this upload")
    assert "Not counted (no timing figures): SaGe." in warning
