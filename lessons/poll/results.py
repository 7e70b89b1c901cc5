"""The results of a class poll on the teacher's screen (lessons/poll/panel.py places them): the
latest round's tally as students come in (unless the teacher keeps it hidden until Reveal,
lessons/poll/record.py), read again on a timer, the Reveal button, and after it the
algorithm's choice, why, and who predicted it.

Typed answers reach the projector as a count only ("something else (typed)"): anyone with
the code can type anything, and the projector is the class's screen; the teacher sees the
words by switching on "show what was typed", a deliberate act, as a plain-text table
(never HTML, never the chart's labels).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lessons.poll.record import tally_hidden
from lessons.ui.a11y import altair_chart  # the chart and its sentence
from lessons.ui.escape import as_text
from lessons.ui.keys import widget_key
from subtok_core import rooms
from subtok_core.charts.poll import answers_chart, legend_html

LIVE_EVERY = 0.75  # seconds between two looks at the answers: the tally is at most ~1 s old
OTHER = "something else (typed)"  # one bar for every typed answer that is no candidate


def answers_frame(tally, current, show_typed: bool = False) -> pd.DataFrame:
    """The tally as rows (answer, count, verdict); verdicts only once revealed. A typed
    answer that is none of the question's candidates is counted in one row, OTHER, unless
    the teacher chose to show what was typed (`show_typed`)."""
    revealed = current.state == "revealed"
    candidates = set(rooms.Question.from_json(current.question).candidates)

    def verdict(answer: str) -> str:
        if not revealed:
            return ""
        return (
            "right" if answer in current.answer else "tied" if answer in current.ties else "wrong"
        )

    counts: dict[str, int] = {}
    for answer, n in tally:
        shown = answer if show_typed or answer in candidates else OTHER
        counts[shown] = counts.get(shown, 0) + n
    rows = [{"answer": a, "count": n, "verdict": verdict(a)} for a, n in counts.items()]
    return pd.DataFrame(rows, columns=["answer", "count", "verdict"])


@st.fragment(run_every=LIVE_EVERY)
def live_results(page_name: str, code: str) -> None:
    """The room's latest round, read again every LIVE_EVERY seconds (this part only)."""
    polls = rooms.store()
    current = polls.current_round(code)
    if current is None:
        return
    show_typed = st.session_state.get(widget_key(page_name, "poll_typed"), False)
    frame = answers_frame(polls.tally(current.id), current)
    total = int(frame["count"].sum())
    students = "student" if total == 1 else "students"
    st.markdown(
        f"**Round on step {current.step}** ({current.state}): **{total}** {students} answered."
    )
    hidden = current.state == "open" and tally_hidden(code)
    # the tally (left) and the button or the reveal (right); stacked on a phone
    tally, side = st.columns([3, 2], gap="large")
    if hidden:
        tally.caption("The answers stay hidden until Reveal (switch on \"show the tally live\" "
                      "to show them now).")  # fmt: skip
    elif total:
        with tally:
            if current.state == "revealed":  # its key, in words, wrapping on a phone
                st.markdown(legend_html(), unsafe_allow_html=True)
            altair_chart(answers_chart(frame))
    with side:
        if current.state == "open":
            st.button(
                "Reveal",
                key=widget_key(page_name, "poll_reveal"),
                on_click=polls.reveal,
                args=(current.id,),
                disabled=total == 0,
                type="primary",
            )
        elif current.state == "revealed":
            show_reveal(current, frame)
    if OTHER in set(frame["answer"]) and not hidden:
        st.toggle("show what was typed", key=widget_key(page_name, "poll_typed"))
        if show_typed:
            typed = answers_frame(polls.tally(current.id), current, show_typed=True)
            typed_table(typed)


def show_reveal(current, frame: pd.DataFrame) -> None:
    """The algorithm's choice, why (its own sentence, with ties), and who predicted it."""
    question = rooms.Question.from_json(current.question)
    total = int(frame["count"].sum())
    right = int(frame.loc[frame["verdict"] == "right", "count"].sum())
    tied = int(frame.loc[frame["verdict"] == "tied", "count"].sum())
    # one under the other: a long answer or "30 of 30 (100%)" wraps, never cut (POLL_CSS)
    st.metric("The algorithm's choice", ", ".join(current.answer))
    share = f"{right} of {total}" + (f" ({right / total:.0%})" if total else "")
    st.metric("Predicted it", share)
    st.info(question.explanation)
    if current.ties:
        st.caption(
            f"Tied with it: {', '.join(current.ties)}. {tied} of {total} chose a tied "
            "candidate, which the tie rule set aside."
        )


def typed_table(frame: pd.DataFrame) -> None:
    """What the students typed, with counts: our own table, each answer escaped (shown as
    the text typed, never markdown or HTML), a long one wrapped, never cut (a data grid cuts
    it with "…", st.table reads its cells as markdown)."""
    rows = "".join(
        f"<tr><td>{as_text(str(answer))}</td><td>{int(count)}</td></tr>"
        for answer, count in zip(frame["answer"], frame["count"])
    )
    st.markdown(
        '<table class="poll-typed"><thead><tr><th>answer</th><th>students</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>",
        unsafe_allow_html=True,
    )
