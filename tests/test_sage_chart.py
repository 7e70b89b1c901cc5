"""SaGe's loss curve as a spec (issue 39): a y scale that shows a loss moving by a few
hundred in 41,000, and a legend that becomes a column on a chart too narrow for its row.
(The browser's view: tests/test_e2e_sage_corners.py.)"""

from __future__ import annotations

import pandas as pd

from subtok_core.charts import lessons as viz

# the crime sample's run of tests/test_e2e_sage_corners.py: V 150, k 10, M 20, 3 steps
FRAME = pd.DataFrame(
    {
        "step": [1, 2, 3],
        "loss": [41115.1, 41413.5, 41636.4],
        "kind": ["embeddings retrained", "all losses recomputed", "embeddings retrained"],
    }
)


def spec() -> dict:
    chart = viz.loss_curve_chart(FRAME, 2, "loss, eq. (1)", colors=viz.SAGE_KINDS, height=290)
    return chart.to_dict()


def test_the_y_scale_starts_near_the_loss_on_round_numbers_with_several_labels():
    y = spec()["layer"][0]["encoding"]["y"]
    assert y["scale"] == {"zero": False, "nice": True}
    assert y["axis"]["tickCount"] >= 3


def test_the_legend_is_a_row_on_a_wide_chart_and_a_column_on_a_phone():
    legend = spec()["layer"][1]["encoding"]["color"]["legend"]
    # a row of the three names at 15 px: (40 + 9 x 20) + (40 + 9 x 21) + (40 + 9 x 15) px
    assert legend["columns"] == {"expr": "width < 624 ? 1 : 3"}
    assert legend["orient"] == "bottom"


def test_the_chart_is_as_tall_as_asked():
    assert spec()["height"] == 290
