"""The class poll: the teacher opens a room on a lesson's step, the students answer on
their phones, the teacher sees the answers and reveals the algorithm's choice.

- ``db``: the database setting ($SUBTOK_DB_URL, else an SQLite file), one engine per
  URL, the tables class_rooms, class_rounds, class_answers, class_students, class_joined,
  class_hits;
- ``clients``: who asks (a network address), the teacher passcode setting;
- ``records``: a room, a round; the checks on a typed room code and answer;
- ``store``: ``RoomStore`` (open_room, join, try_code, move, open_round, current_round,
  reveal, expire_rooms; submit, answer_of, tally from ``answers``; teacher_room, follow,
  seen, end, show_live, pulse from ``teacher``; answer_rows, summary from ``report``) and
  ``store()``, the store of the setting;
- ``limits``: the rate limits (answers, room-code tries, new rooms), in the database;
- ``address``: the base URL of the join link;
- ``questions``: what a round asks at step i of a trace, and the trace's answer.

A poll round, end to end:

>>> import tempfile
>>> from subtok_core.corpus import load
>>> from subtok_core.bpe import trace_bpe
>>> trace = trace_bpe(load("toy:low-lower"), merges=4, marker="eow")
>>> polls = RoomStore(f"sqlite:///{tempfile.mkdtemp()}/polls.sqlite3")
>>> code = polls.open_room("bpe", "bpe", "toy:low-lower", "c0rpus", "run", "/bpe", True)
>>> q = next_merge(trace, 2)
>>> round_id = polls.open_round(code, q)
>>> for session, said in [("a", "est </w>"), ("b", "(est, </w>)"), ("c", "l o")]:
...     polls.submit(code, round_id, session, q.canonical(said))
>>> polls.tally(round_id)
[('(est, </w>)', 2), ('(l, o)', 1)]
"""

from .db import database_url
from .questions import QUESTIONS, Question, next_merge, next_prune, question_for
from .records import ABSENT, Room, RoomEnded, Round, clean_answer, normal_code
from .store import LIFETIME, UNJOINED, RoomStore, store
from .views import step_view

__all__ = [
    "ABSENT", "LIFETIME", "QUESTIONS", "Question", "Room", "RoomEnded", "RoomStore", "Round",
    "UNJOINED", "clean_answer",
    "database_url", "next_merge", "next_prune", "normal_code", "question_for",
    "step_view", "store",
]  # fmt: skip
