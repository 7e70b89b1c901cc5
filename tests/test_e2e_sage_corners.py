"""The SaGe step log as drawn (issue 39): at 1280x720 no label of the run in numbers is cut
and the loss curve's y axis has several labels (one label, 2,900,000, made the curve look
flat); at 390 px its legend keeps all three kinds of step."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
LINK = "/sage?corpus=sample:crime&V=150&k=10&M=20&step=2"
KINDS = ["embeddings retrained", "all losses recomputed", "candidates only"]

# the loss curve: the first chart after the step's sentence, its y axis's labels, its
# legend's labels and any of its words drawn past its right edge
CURVE = """() => {
    const chart = [...document.querySelectorAll('.vega-embed')]
        .find(c => c.getBoundingClientRect().height > 0);
    const box = chart.getBoundingClientRect();
    const texts = sel => [...chart.querySelectorAll(sel)]
        .filter(t => t.getBoundingClientRect().width > 0).map(t => t.textContent);
    const yAxis = [...chart.querySelectorAll('.role-axis')]
        .find(a => (a.getAttribute('aria-label') || '').startsWith('Y-axis'));
    return {
        y: yAxis ? [...yAxis.querySelectorAll('.role-axis-label text')]
            .filter(t => t.getBoundingClientRect().width > 0).map(t => t.textContent) : [],
        legend: texts('.role-legend-label text'),
        cut: [...chart.querySelectorAll('svg text')]
            .filter(t => t.getBoundingClientRect().width > 0)
            .filter(t => t.getBoundingClientRect().right > box.right + 1)
            .map(t => t.textContent),
    };
}"""
# the labels of st.metric cut by an ellipsis: wider inside than the box they are drawn in
CUT_LABELS = """() => [...document.querySelectorAll('[data-testid=stMetricLabel]')]
    .filter(el => el.getBoundingClientRect().width > 0)
    .filter(el => [el, ...el.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1))
    .map(el => el.textContent)"""


def opened(page: Page, url: str, width: int, height: int) -> dict:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector(IDLE, timeout=240_000)
    expect(page.get_by_text("Step 2 pruned 10 pieces")).to_be_visible(timeout=240_000)
    page.wait_for_timeout(1500)
    page.wait_for_selector(IDLE, timeout=60_000)
    chart = page.locator(".vega-embed").first
    chart.scroll_into_view_if_needed()
    expect(chart.locator(".role-legend-label text").first).to_be_attached(timeout=30_000)
    return page.evaluate(CURVE)


def test_the_step_log_at_the_projector(page: Page, app_url: str):
    curve = opened(page, app_url + LINK, 1280, 720)
    assert len(curve["y"]) >= 3, f"the loss axis has only {curve['y']}"
    assert curve["legend"] == KINDS and not curve["cut"], curve
    page.get_by_text("prune steps", exact=True).scroll_into_view_if_needed()
    assert page.evaluate(CUT_LABELS) == []


def test_the_loss_legend_on_a_phone(page: Page, app_url: str):
    curve = opened(page, app_url + LINK, 390, 844)
    assert curve["legend"] == KINDS, curve
    assert not curve["cut"], curve
    assert len(curve["y"]) >= 2, f"the loss axis has only {curve['y']}"  # its legend: 3 rows
