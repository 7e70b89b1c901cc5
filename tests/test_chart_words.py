"""Every chart builder of subtok_core/charts gives its chart a title and a Vega-Lite
description stating the number it shows (issue 31: charts with words). A builder added
later without a case here fails test_every_builder_is_checked."""

import importlib
import inspect
import pkgutil

import pandas as pd
import pytest
from test_viz_compare import all_charts, rows

import subtok_core.charts as charts_pkg
from lessons.ui.merge_lesson import growth_frame
from subtok_core import bpe, corpus
from subtok_core.charts import classwork, languages, lessons, morphology, poll, regularize


def builders() -> set[str]:
    """module.name of every public function named *_chart in subtok_core/charts."""
    found = set()
    for info in pkgutil.iter_modules(charts_pkg.__path__):
        module = importlib.import_module(f"subtok_core.charts.{info.name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if name.endswith("_chart") and fn.__module__ == module.__name__:
                found.add(f"{info.name}.{name}")
    return found


def low_lower_growth():
    """003's corpus (low ×5, lower ×2, newest ×6, widest ×3) with </w>, 10 merges."""
    trace = bpe.trace_bpe(corpus.load("toy:low-lower"), merges=10, marker="eow")
    return lessons.vocab_growth_chart(growth_frame(trace), 3)


PAIRS = pd.DataFrame(
    {"pair": ["(e, s)", "(s, t)", "(l, o)"], "count": [9, 9, 7], "status": ["merged", "tied", ""]}
)
LATTICE = pd.DataFrame(
    {"start": [0, 0, 1], "end": [1, 2, 2], "piece": ["r", "ru", "u"], "logp": [-3.9, -3.9, -1.6],
     "posterior": [0.2, 0.8, 0.2], "best": [False, True, False], "row": [0, 1, 2]}
)  # fmt: skip
CASES = {
    "lessons.vocab_growth_chart": low_lower_growth,
    "lessons.pair_count_chart": lambda: lessons.pair_count_chart(PAIRS),
    "lessons.loss_curve_chart": lambda: lessons.loss_curve_chart(
        pd.DataFrame({"step": [1, 2, 3], "loss": [66.1, 66.1, 61.2], "kind": ["E", "M", "prune"]}),
        current=2,
    ),
    "lessons.lattice_chart": lambda: lessons.lattice_chart(LATTICE),
    "lessons.removal_chart": lambda: lessons.removal_chart(
        pd.DataFrame({"piece": ["bu", "ru"], "increase": [0.0, 1.86], "status": ["pruned", ""]})
    ),
    **{f"compare.{name}_chart": (lambda c=chart: c) for name, chart in all_charts().items()},
    "languages.premium_chart": lambda: languages.premium_chart(
        pd.DataFrame(
            {
                "tokenizer": ["BPE", "BPE"],
                "language": ["English", "Hindi"],
                "tokens": [10, 31],
                "unknown": [0, 30],
                "characters": [40, 38],
                "premium": [1.0, 3.1],
            }
        )
    ),  # fmt: skip
    "morphology.alignment_chart": lambda: morphology.alignment_chart(
        pd.DataFrame(
            {
                "tokenizer": ["BPE", "Unigram"],
                "precision": [0.4, 0.5],
                "recall": [0.6, 0.7],
                "F1": [0.48, 0.58],
                "right cuts": [6, 7],
            }
        )
    ),  # fmt: skip
    "classwork.causes_chart": lambda: classwork.causes_chart(
        {"identical": 3, "tie": 2, "first-occurrence": 1}
    ),
    "poll.answers_chart": lambda: poll.answers_chart(
        pd.DataFrame(
            {
                "answer": ["(e, s)", "(s, t)", "(l, o)"],
                "count": [2, 3, 1],
                "verdict": ["right", "tied", "wrong"],
            }
        )
    ),  # fmt: skip
    "regularize.count_spread_chart": lambda: regularize.count_spread_chart(
        pd.DataFrame(
            {
                "p": [0.0, 1.0],
                "mean": [2.0, 4.0],
                "min": [2, 4],
                "q1": [2.0, 4.0],
                "median": [2.0, 4.0],
                "q3": [2.0, 4.0],
                "max": [2, 4],
            }
        )
    ),  # fmt: skip
    "regularize.sampling_chart": lambda: regularize.sampling_chart(
        pd.DataFrame(
            {"segmentation": ["ru n", "r un"], "exact": [0.5, 0.5], "observed": [0.48, 0.52]}
        )
    ),  # fmt: skip
}


def drawn_max(column: str, shown: str):
    """The words for each tokenizer's largest `column` among the rows the chart draws."""

    def expected(spec) -> tuple[str, ...]:
        frame = pd.DataFrame(rows(spec))
        return tuple(shown.format(top) for top in frame.groupby("tokenizer")[column].max())

    return expected


# The number each description must state, from the case's own data by hand; the comparison
# charts' corpus (test_viz_compare.LINES) has 14 running words of 38 letters: 10 of the
# words have 3 letters, 2 are 'a'; 8 distinct words (5 of 3 letters); its letters are 10
# distinct ones, 't' 10 times; its halves (t|he, c|at, ...) are 11 distinct pieces, 7 of
# one letter, and 26 tokens. Where the count is no hand's work (distinct neighbours within
# 5 tokens), the number is the largest one the chart draws, read from its data.
NUMBERS = {
    "lessons.vocab_growth_chart": ("from 11 to 21 symbols over 10 steps", "from 95 to"),
    "lessons.pair_count_chart": ("3 bars", "(e, s) with 9"),
    "lessons.loss_curve_chart": ("from 66.1 at step 1 to 61.2 at step 3",),
    "lessons.lattice_chart": ("3 pieces", "cuts it as ru"),
    "lessons.removal_chart": ("2 pieces", "bu +0.000", "+1.860"),
    # 38 letters over 38, 14 and 26 tokens
    "compare.efficiency_chart": ("BPE: 1.00", "SaGe: 2.71", "random-pruned: 1.46"),
    # 10 of 14 words in 3 pieces, 14 of 14 in 1, 12 of 14 in 2
    "compare.fertility_chart": ("3 most often (71%)", "1 most often (100%)", "2 most often (86%)"),
    # 10 of 10 letters, 5 of 8 words (62.5%, rounded half to even), 7 of 11 halves
    "compare.token_length_chart": ("1 most often (100%)", "3 most often (62%)", "often (64%)"),
    "compare.frequency_profile_chart": ("1 of 11 entries", "1 of 9 entries", "1 of 12 entries"),
    "compare.frequency_diff_chart": ("'t': used 10 times against 0",),
    "compare.neighbours_chart": drawn_max("neighbours", "{} distinct neighbours"),
    "compare.ratio_chart": drawn_max("share", "{:.0%} of tokens"),
    "languages.premium_chart": ("BPE Hindi 3.10", "1 bar mostly [UNK]"),  # 31/10; 30 of 31
    "morphology.alignment_chart": ("BPE: F1 0.48", "Unigram: F1 0.58"),
    # 3 + 2 + 1 students; 3 identical; the others by cause
    "classwork.causes_chart": ("Of 6 students, 3", "tie (2)", "first-occurrence (1)"),
    "poll.answers_chart": ("6 answers", "(s, t) (3)", "(e, s) got 2"),  # 2 + 3 + 1
    "regularize.count_spread_chart": ("2.00 at p = 0.0", "4.00 at p = 1.0", "spread is 0 "),
    "regularize.sampling_chart": ("2 segmentations", "exact 0.500, observed 0.480"),
}  # fmt: skip


def test_every_builder_is_checked():
    assert builders() == set(CASES) == set(NUMBERS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_chart_has_a_title_and_a_description_with_its_number(name):
    spec = CASES[name]().to_dict()
    assert isinstance(spec.get("title"), str) and spec["title"].strip(), spec.get("title")
    said = spec.get("description", "")
    numbers = NUMBERS[name] if isinstance(NUMBERS[name], tuple) else NUMBERS[name](spec)
    assert said.endswith(".") and numbers, said
    assert [n for n in numbers if n not in said] == [], said


def test_the_growth_chart_says_what_003s_corpus_does():
    """By hand: 003's words spell 10 letters, plus </w>: 11 symbols; each of the 10 merges
    adds one, 21. The corpus is 5·4 + 2·6 + 6·7 + 3·7 = 95 symbols before any merge."""
    said = low_lower_growth().to_dict()["description"]
    assert "grows from 11 to 21 symbols over 10 steps" in said
    assert "shrinks from 95 to" in said


def test_the_sentences_name_the_marked_bars_and_the_polls_choice():
    said = lessons.pair_count_chart(PAIRS).to_dict()["description"]
    assert said == "3 bars; the largest count is (e, s) with 9; merged: (e, s); tied: (s, t)."
    assert lessons.lattice_chart(LATTICE).to_dict()["description"].endswith("cuts it as ru.")
    answers = CASES["poll.answers_chart"]().to_dict()
    assert answers["description"] == (
        "6 answers; the most given is (s, t) (3); the algorithm's choice (e, s) got 2."
    )
    # the choice has a second cue besides its colour: a thick outline; a tie a dashed one
    width = answers["encoding"]["strokeWidth"]
    assert width["value"] == 0 and width["condition"][0] == {
        "test": 'datum.verdict === "the algorithm\'s choice"',
        "value": 4,
    }


def test_a_large_loss_is_written_with_its_digits_not_in_e_notation():
    """SaGe's loss on a small sample is some 41,115.1: the sentence under the curve says so,
    as the table beside it does (it said 4.112e+04)."""
    from subtok_core.charts import words

    frame = pd.DataFrame({"step": [1, 3], "loss": [41115.1, 41640.0]})
    assert words.loss(frame, "loss") == "The loss goes from 41,115.1 at step 1 to 41,640 at step 3."
