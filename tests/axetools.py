"""axe-core in the browser tests: inject the engine into a Playwright page, run it, and keep
the serious and critical violations, less the few exceptions listed (and justified) here.

The engine is npm's axe-core, pinned to its newest release in tests/axe/package.json and
installed by the README's test command (`npm ci --prefix tests/axe`): installed once, it
works offline. Newer releases flag more (4.14's svg-img-alt found an unnamed Vega mark
layer that 4.12, the one axe-playwright-python bundles, let pass), so the pin is what the
pages are held to. We only read its file; the run is ours.
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page

SEVERE = ("serious", "critical")

# The ONE place where a rule is waived, each for one element only, with the reason. A
# waiver names the axe rule and a CSS selector; a violation's node is dropped only when
# the element axe points at matches (or lies inside) the selector. Keep this list short:
# everything the app draws itself is fixed in the app instead. Empty today: every serious
# finding (Streamlit's 60%-opacity captions, quotes and key badges, an image without alt,
# an empty Vega mark group) could be fixed from the app (lessons/ui/a11y.py, the charts).
# A waiver looks like {"rule": "color-contrast", "selector": "...", "reason": "..."}.
WAIVERS: list[dict[str, str]] = []


AXE_DIR = Path(__file__).parent / "axe"


def axe_version() -> str:
    """The axe-core release tests/axe/package.json pins."""
    return json.loads((AXE_DIR / "package.json").read_text())["dependencies"]["axe-core"]


def axe_js() -> Path:
    """The pinned axe-core engine, as `npm ci --prefix tests/axe` installs it."""
    path = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not path.exists():
        raise FileNotFoundError(
            f"axe-core is missing at {path}: install it with npm ci --prefix tests/axe "
            "(the README's test command does)."
        )
    return path


_RUN = """async (waivers) => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  const waived = (rule, node) => waivers.some(w => {
    if (w.rule !== rule || typeof node.target[0] !== 'string') return false;
    const el = document.querySelector(node.target[0]);
    return el !== null && el.closest(w.selector) !== null;
  });
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.filter(n => !waived(v.id, n))
                              .map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160),
                                          summary: n.failureSummary}))}))
    .filter(v => v.nodes.length > 0);
}"""


def severe_violations(page: Page) -> list[dict]:
    """axe-core's serious and critical violations on the page as drawn now, each
    {id, impact, help, nodes: [{target, html, summary}]}, waived nodes left out."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_js()))
    return page.evaluate(_RUN, WAIVERS)


_RULES = """async (rules) => {
  const result = await axe.run(document, {runOnly: {type: 'rule', values: rules},
                                          resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160),
                              summary: n.failureSummary}))}));
}"""


def rule_violations(page: Page, rules: list[str]) -> list[dict]:
    """axe-core's violations of the named rules only, whatever their impact (a moderate
    or minor rule, such as heading-order, is left out by severe_violations); no waiver."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_js()))
    return page.evaluate(_RULES, rules)


def node_count(violations: list[dict]) -> int:
    """How many elements fail, over every rule (the issue's 'serious nodes')."""
    return sum(len(v["nodes"]) for v in violations)


def describe(violations: list[dict]) -> str:
    """One line per failing element: rule, impact, where, and axe's own summary."""
    lines = []
    for v in violations:
        for n in v["nodes"]:
            summary = " ".join((n["summary"] or "").split())[:200]
            lines.append(f"{v['id']} ({v['impact']}) at {n['target']}: {n['html']} | {summary}")
    return "\n".join(lines)
