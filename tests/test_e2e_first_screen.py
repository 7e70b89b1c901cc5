"""The first screen of every lesson, measured in chromium (issue 25): at the projector's
1280x720, in normal and presenter mode, the step controls, the step's sentence and the
first 5 rows of its main table (SaGe: its first chart) lie inside the window without
scrolling; on a 390x844 phone the step's sentence does.

Every position is the browser's own (getBoundingClientRect), measured in the page as
opened, the main area not scrolled."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
ROWS = 5  # rows of the step's main table that must show
LESSONS = {  # a deep link on a toy (SaGe: its smallest real sample), the page's key prefix
    "bpe": "/bpe?corpus=toy:low-lower&marker=eow&step=3",
    "bytebpe": "/bytebpe?corpus=toy:emoji-cjk&step=3",
    "superbpe": "/superbpe?corpus=toy:by-the-way&step=35",
    "boundless": "/boundless?corpus=toy:by-the-way&step=10",
    "wordpiece": "/wordpiece?corpus=toy:sunflower&step=2",
    "unigram": "/unigram?corpus=toy:run-bug&step=2",
    "sage": "/sage?corpus=sample:crime&V=150&k=10&M=20&step=2",
}

# In the page: the bottom edge (px from the window's top) of the step controls, the step's
# sentence, the first ROWS rows of the first table after the sentence, and the first chart
# after it; null when not drawn. A table drawn by st.dataframe is a canvas: its rows are
# its header's height apart (Streamlit draws 35 px rows), so row n ends n+1 rows down.
MEASURE = """(rows) => {
  const bottom = (el) => el ? el.getBoundingClientRect().bottom : null;
  const after = (a, b) => a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING;
  const all = (sel) => Array.from(document.querySelectorAll(sel))
    .filter((el) => el.getBoundingClientRect().height > 0);
  const slider = all('.st-key-step')[0];
  if (!slider) return {controls: null};
  const buttons = all('[class*="_step_next"], [class*="_step_last"], [class*="_step_play"]');
  const controls = Math.max(bottom(slider), ...buttons.map(bottom));
  const said = all('[data-testid=stAlert]').filter((el) => after(slider, el))[0];
  let table = null;
  if (said) {
    const t = all('.present-table, [data-testid=stTable], [data-testid=stDataFrame]')
      .filter((el) => after(said, el))[0];
    if (t && t.dataset.testid !== 'stDataFrame') {
      const trs = t.querySelectorAll('tr');
      table = bottom(trs[Math.min(rows, trs.length - 1)]);
    } else if (t) {
      const box = t.getBoundingClientRect();
      table = Math.min(box.bottom, box.top + 35 * (rows + 1));
    }
  }
  const chart = said && all('.vega-embed').filter((el) => after(said, el))[0];
  const main = document.querySelector('[data-testid=stMain]');
  return {controls, sentence: bottom(said), table, chart: chart ? bottom(chart) : null,
          scrolled: main ? main.scrollTop : 0};
}"""


def settle(page: Page, seconds: int = 60) -> None:
    page.wait_for_selector(IDLE, timeout=seconds * 1000)
    page.wait_for_timeout(1000)  # a deep link's first load may rerun once more
    page.wait_for_selector(IDLE, timeout=seconds * 1000)


def opened(page: Page, app_url: str, lesson: str, size: dict, present: bool) -> dict:
    """Open the lesson at this window size and measure its first screen."""
    page.set_viewport_size(size)
    page.goto(app_url + LESSONS[lesson] + ("&present=1" if present else ""))
    settle(page, 240)
    expect(page.locator(".st-key-step").first).to_be_attached(timeout=240_000)
    settle(page)
    page.wait_for_timeout(500)  # the table's canvas and the chart are laid out
    found = page.evaluate(MEASURE, ROWS)
    print(f"\n{lesson} {size['width']}x{size['height']} present={present}: {found}")
    return found


def within(found: dict, parts: tuple[str, ...], height: int) -> list[str]:
    """The parts missing from the first `height` px, each with where it ends."""
    return [
        f"{part} ends at {found.get(part)} px"
        for part in parts
        if found.get(part) is None or found[part] > height
    ]


@pytest.mark.parametrize("present", [False, True], ids=["normal", "present"])
@pytest.mark.parametrize("lesson", list(LESSONS))
def test_the_step_is_on_the_projector_first_screen(page: Page, app_url: str, lesson, present):
    found = opened(page, app_url, lesson, PROJECTOR, present)
    assert found["scrolled"] == 0, f"the page opened scrolled down by {found['scrolled']} px"
    view = "chart" if lesson == "sage" else "table"
    missing = within(found, ("controls", "sentence", view), PROJECTOR["height"])
    assert not missing, f"{lesson} at 1280x720: " + "; ".join(missing)


@pytest.mark.parametrize("lesson", list(LESSONS))
def test_the_step_sentence_is_on_a_phone_first_screen(page: Page, app_url: str, lesson):
    found = opened(page, app_url, lesson, PHONE, False)
    missing = within(found, ("sentence",), PHONE["height"])
    assert not missing, f"{lesson} at 390x844: " + "; ".join(missing)
