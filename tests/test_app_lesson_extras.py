"""The class poll and the tokenizer.json export on the lesson pages themselves (BPE,
WordPiece, Unigram): both closed or behind a button until asked for, both working then.

Expected answers come from the course material: 003's merge 3 on low/lower/newest/widest
with </w> is "est </w>" (../shared/seeds/003_fbf19eb985f31fbe.txt); the export's file is
checked against our own encoder by tests/test_hf_export.py, here only that it is offered.
"""

from __future__ import annotations

import pytest
from apptools import open_page

from subtok_core import rooms

LESSONS = [  # page, query, the expected answer to the poll at that step
    ("bpe", {"corpus": "toy:low-lower", "marker": "eow", "step": "2"}, ("(est, </w>)",)),
    ("wordpiece", {"corpus": "toy:sunflower", "step": "1"}, None),
    ("unigram", {"corpus": "toy:run-bug", "step": "2"}, None),
]
POLLED = [  # byte-level BPE has a poll but no tokenizer.json export yet
    *LESSONS,
    # by hand, bytes of low×5 lower×2 newest×6 widest×3 (GPT-2's pre-split): merge 1 (e, s)
    # and merge 2 (es, t), both 9; then (l, o) and (o, w) tie at 7 and the first seen wins
    ("bytebpe", {"corpus": "toy:low-lower", "step": "2"}, ("(l, o)",)),
]


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBTOK_DB_URL", f"sqlite:///{tmp_path / 'polls.sqlite3'}")


@pytest.mark.parametrize("page, query, expected", POLLED, ids=[p for p, _, _ in POLLED])
def test_the_poll_opens_a_room_on_the_step_shown(page, query, expected):
    at = open_page(f"lessons/{page}/page.py", **query)
    assert f"{page}_poll_start" not in [b.key for b in at.button]  # closed: nothing runs
    at.session_state[f"{page}_class_poll_open"] = True
    at.run()
    at.button(key=f"{page}_poll_start").click().run()
    assert not at.exception
    code = at.session_state["poll_teacher_room"]
    assert any(f"Room code <b>{code}</b>" in m.value for m in at.markdown)
    room = rooms.store().join(code)
    assert room.page == page
    at.button(key=f"{page}_poll_round").click().run()
    current = rooms.store().current_round(code)
    assert current is not None and current.step == int(query["step"])
    if expected is not None:
        assert current.answer == expected, current.answer


@pytest.mark.parametrize("page, query, _", LESSONS, ids=[p for p, _, _ in LESSONS])
def test_the_export_is_prepared_on_request(page, query, _):
    at = open_page(f"lessons/{page}/page.py", **query)
    labels = [d.proto.label for d in at.get("download_button")]
    assert "Download as Hugging Face tokenizer.json" not in labels
    at.button(key=f"{page}_hf_ask").click().run()
    assert not at.exception
    labels = [d.proto.label for d in at.get("download_button")]
    refused = [c.value for c in at.caption if c.value.startswith("No Hugging Face")]
    # a file, or the sentence that says why this model has none (a Unigram tie)
    assert ("Download as Hugging Face tokenizer.json" in labels) != bool(refused)


def test_a_run_the_store_does_not_keep_is_named_by_its_own_digest_not_none(monkeypatch):
    """The export button's guard (lessons/ui/export.py) asks again for each run: two runs the
    server-wide store does not keep (its key None) get two names, neither of them "None"."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1]))  # lessons/, as the app imports it
    from lessons.ui import export
    from subtok_core.bpe import trace_bpe
    from subtok_core.corpus import load

    monkeypatch.setattr(export, "run_key", lambda trace: None)
    first = trace_bpe(load("toy:low-lower"), merges=2)
    second = trace_bpe(load("toy:low-lower"), merges=3)
    names = {export.run_ident(first), export.run_ident(second)}
    assert len(names) == 2 and "None" not in names
    assert export.run_ident(first) == export.run_ident(trace_bpe(load("toy:low-lower"), merges=2))
    monkeypatch.setattr(export, "run_key", lambda trace: "kept-run")
    assert export.run_ident(first) == "kept-run"
