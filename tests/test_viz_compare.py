"""Comparison charts, checked through chart.to_dict() on a hand-made corpus cut three ways."""

import pandas as pd
import pytest

from subtok_core import measure as m
from subtok_core.charts import compare as vc
from subtok_core.charts.lessons import FONT_SIZE

# the colour-blind-safe palette (subtok_core/palette.py): Okabe-Ito, then Tol's darker ones
BLUE, VERMILLION, GREEN, WINE = "#0072B2", "#D55E00", "#009E73", "#882255"
PURPLE, INDIGO = "#AA4499", "#332288"
LINES = ["the cat sat on the mat", "the cats sat", "a cat and a mat"]


def halves(word):
    return [word[:1], word[1:]] if len(word) > 1 else [word]


CUTS = {"BPE": list, "SaGe": lambda w: [w], "random-pruned": halves}
TOKENIZED = {name: m.tokenize_corpus(cut, LINES, name=name) for name, cut in CUTS.items()}
NAMES = list(CUTS)


def vocab(t):
    return list(t.pieces)


def layers(spec):
    return spec.get("layer", [spec])


def rows(spec, layer=0):
    """The data rows a chart (or one layer of it) draws."""
    part = layers(spec)[layer]
    name = part.get("data", spec.get("data"))["name"]
    return spec["datasets"][name]


def color_scale(spec):
    scale = next(p["encoding"]["color"]["scale"] for p in layers(spec) if "color" in p["encoding"])
    return scale["domain"], scale["range"]


def all_charts():
    a, b = TOKENIZED["BPE"], TOKENIZED["SaGe"]
    return {
        "token_length": vc.token_length_chart(
            vc.stack({n: m.token_lengths(vocab(t)) for n, t in TOKENIZED.items()})
        ),
        "fertility": vc.fertility_chart(
            vc.stack({n: m.fertility(t).table for n, t in TOKENIZED.items()})
        ),
        "neighbours": vc.neighbours_chart(
            vc.stack({n: m.distinct_neighbours(t) for n, t in TOKENIZED.items()})
        ),
        "ratio": vc.ratio_chart(
            vc.stack({n: m.neighbour_ratio(t).histogram for n, t in TOKENIZED.items()})
        ),
        "frequency_profile": vc.frequency_profile_chart(
            vc.stack(
                {n: m.frequency_profile(t, vocab(t) + ["zz"]).table for n, t in TOKENIZED.items()}
            )
        ),
        "frequency_diff": vc.frequency_diff_chart(m.frequency_diff(a, b, top=3), names=NAMES),
        "efficiency": vc.efficiency_chart(
            vc.summary_table({n: m.efficiency(t) for n, t in TOKENIZED.items()})
        ),
    }


@pytest.fixture(scope="module")
def specs():
    return {name: chart.to_dict() for name, chart in all_charts().items()}


def test_palette_fixes_known_names_and_orders_the_others():
    palette = vc.tokenizer_palette(["frequency-pruned", "SaGe", "random-pruned", "Unigram"])
    assert palette == {
        "frequency-pruned": PURPLE,
        "SaGe": WINE,
        "random-pruned": INDIGO,
        "Unigram": GREEN,
    }
    assert vc.tokenizer_palette(["WordPiece", "BPE"]) == {"WordPiece": VERMILLION, "BPE": BLUE}
    scale = vc.tokenizer_colors(NAMES, shown=["random-pruned", "BPE"]).to_dict()
    assert scale == {"domain": ["BPE", "random-pruned"], "range": [BLUE, PURPLE]}


def test_stack_adds_the_tokenizer_column_first():
    df = vc.stack({n: m.token_lengths(vocab(t)) for n, t in TOKENIZED.items()})
    assert list(df.columns) == ["tokenizer", "length", "tokens", "share"]
    assert list(dict.fromkeys(df["tokenizer"])) == NAMES
    with pytest.raises(ValueError, match="no tokenizer"):
        vc.stack({})


def test_every_chart_colors_the_same_names_alike(specs):
    scales = {name: color_scale(spec) for name, spec in specs.items()}
    expected = (NAMES, [BLUE, WINE, PURPLE])
    for name, scale in scales.items():
        if name == "frequency_diff":  # two tokenizations only, colored as everywhere else
            assert scale == (NAMES[:2], expected[1][:2])
        else:
            assert scale == expected, name
    for name, spec in specs.items():
        assert spec["config"]["axis"]["labelFontSize"] == FONT_SIZE
        legend = next(
            p["encoding"]["color"]["legend"] for p in layers(spec) if "color" in p["encoding"]
        )
        if name == "efficiency":  # its axis names the tokenizers: no legend (issue 25)
            assert legend is None
        else:
            assert legend["orient"] == "bottom"


def test_a_chart_showing_fewer_tokenizers_keeps_their_colors():
    df = vc.stack({n: m.token_lengths(vocab(TOKENIZED[n])) for n in ["SaGe", "random-pruned"]})
    alone = color_scale(vc.token_length_chart(df).to_dict())
    assert alone == (["SaGe", "random-pruned"], [WINE, PURPLE])
    assert color_scale(vc.token_length_chart(df[::-1], names=NAMES).to_dict()) == alone


def test_grouped_bars_for_lengths_and_fertility(specs):
    spec = specs["token_length"]
    enc = spec["encoding"]
    assert spec["mark"]["type"] == "bar"
    assert (enc["x"]["field"], enc["xOffset"]["field"], enc["y"]["field"]) == (
        "length",
        "tokenizer",
        "share",
    )
    assert enc["x"]["title"] and enc["y"]["title"]
    assert {t["field"] for t in enc["tooltip"]} == {"tokenizer", "length", "tokens", "share"}
    assert {r["tokenizer"] for r in rows(spec)} == set(NAMES)
    fert = specs["fertility"]["encoding"]
    assert (fert["x"]["field"], fert["y"]["field"]) == ("subwords", "words_share")
    df = vc.stack({n: m.fertility(t).table for n, t in TOKENIZED.items()})
    assert (
        vc.fertility_chart(df, by="word_types").to_dict()["encoding"]["y"]["field"] == "types_share"
    )
    with pytest.raises(ValueError, match="word_types"):
        vc.fertility_chart(df, by="tokens")


def test_neighbours_keeps_the_top_ranks_of_each_tokenizer():
    lines = [" ".join(f"w{i + j}" for j in range(5)) for i in range(0, 260, 5)]
    long = {n: m.tokenize_corpus(cut, lines, name=n) for n, cut in CUTS.items() if n != "BPE"}
    df = vc.stack({n: m.distinct_neighbours(t) for n, t in long.items()})
    spec = vc.neighbours_chart(df).to_dict()
    assert [p["mark"]["type"] for p in spec["layer"]] == ["line", "point"]
    line = spec["layer"][0]["encoding"]
    assert (line["x"]["field"], line["y"]["field"], line["strokeDash"]["field"]) == (
        "rank",
        "neighbours",
        "tokenizer",
    )
    drawn = pd.DataFrame(rows(spec))
    assert drawn.groupby("tokenizer")["rank"].max().to_dict() == {"SaGe": 200, "random-pruned": 200}
    assert len(drawn) == 400
    small = vc.neighbours_chart(df, top=3).to_dict()
    assert max(r["rank"] for r in rows(small)) == 3


def test_ratio_draws_step_lines_over_the_histogram(specs):
    spec = specs["ratio"]
    line, hover = spec["layer"]
    assert line["mark"]["interpolate"] == "step-after"
    assert (line["encoding"]["x"]["field"], line["encoding"]["y"]["field"]) == (
        "bin_start",
        "share",
    )
    assert hover["encoding"]["x"]["field"] == "bin_mid"
    steps = pd.DataFrame(rows(spec, 0))
    assert steps.groupby("tokenizer").size().to_dict() == dict.fromkeys(NAMES, 21)  # 20 bins + end
    assert steps["bin_start"].max() == 10.0  # 2 x window 5: the last bin is closed
    assert len(rows(spec, 1)) == 60


def test_frequency_profile_is_log_scale_with_unused_entries_drawn_at_half(specs):
    spec = specs["frequency_profile"]
    y = spec["layer"][0]["encoding"]["y"]
    assert y["scale"]["type"] == "log" and y["field"] == "drawn"
    assert 0.5 in y["axis"]["values"]
    unused = [r for r in rows(spec) if r["token"] == "zz"]
    assert [(r["frequency"], r["drawn"]) for r in unused] == [(0, 0.5)] * 3
    df = vc.stack({"BPE": m.frequency_profile(TOKENIZED["BPE"], vocab(TOKENIZED["BPE"])).table})
    flat = vc.frequency_profile_chart(df, log=False).to_dict()["layer"][0]["encoding"]["y"]
    assert "type" not in flat.get("scale", {})


def test_frequency_profile_thins_long_vocabularies():
    freqs = list(range(3000, 0, -1)) + [0] * 1000
    table = pd.DataFrame({"rank": range(1, 4001), "token": [f"t{i}" for i in range(4000)],
                          "frequency": freqs})  # fmt: skip
    spec = vc.frequency_profile_chart(vc.stack({"BPE": table, "SaGe": table}), max_points=500)
    drawn = pd.DataFrame(rows(spec.to_dict()))
    assert drawn.groupby("tokenizer").size().max() <= 502
    assert {3000, 3001, 1, 4000} <= set(drawn["rank"])  # last used, first unused, both ends


def test_frequency_diff_diverges_by_tokenizer(specs):
    spec = specs["frequency_diff"]
    bars, zero = spec["layer"]
    assert (bars["mark"]["type"], zero["mark"]["type"]) == ("bar", "rule")
    enc = bars["encoding"]
    assert (enc["x"]["field"], enc["y"]["field"], enc["color"]["field"]) == (
        "difference",
        "token",
        "more_in",
    )
    assert enc["y"]["sort"] == "-x"
    assert "more in SaGe" in enc["x"]["title"] and "more in BPE" in enc["x"]["title"]
    assert {t.get("title") for t in enc["tooltip"]} >= {"uses in BPE", "uses in SaGe"}
    drawn = rows(spec)
    assert {r["more_in"] for r in drawn if r["difference"] > 0} == {"BPE"}
    assert {r["more_in"] for r in drawn if r["difference"] < 0} == {"SaGe"}


def test_efficiency_bars_one_per_tokenizer(specs):
    spec = specs["efficiency"]
    bars, text = spec["layer"]
    assert (bars["mark"]["type"], text["mark"]["type"]) == ("bar", "text")
    assert bars["encoding"]["x"]["field"] == "chars_per_token"
    drawn = {r["tokenizer"]: r for r in rows(spec)}
    assert list(drawn) == NAMES
    assert drawn["BPE"]["chars_per_token"] == 1.0 and drawn["SaGe"]["tokens"] == 14
    df = vc.summary_table({n: m.efficiency(t) for n, t in TOKENIZED.items()})
    tokens = vc.efficiency_chart(df, value="tokens").to_dict()
    assert tokens["layer"][0]["encoding"]["x"]["field"] == "tokens"
    with pytest.raises(ValueError, match="chars_per_token"):
        vc.efficiency_chart(df, value="speed")


def test_every_chart_has_one_sentence_to_read_it_by(specs):
    assert set(vc.HOW_TO_READ) == set(specs)
    for text in vc.HOW_TO_READ.values():
        assert text.endswith(".") and text.count(". ") == 0
