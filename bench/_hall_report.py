"""The report of bench/hall.py: the phones' answers against the rows stored, double
votes, answer-to-tally and follow times, the phones of the killed server, CPU seconds,
and the last line the issue asks for. Not a benchmark itself."""

from __future__ import annotations

from collections import Counter

from _server import pct, spread


def report(phones, t, rows: list, cluster, used: dict, args, every: float) -> None:
    """Print it all; `t` is the Teacher, `rows` (student id, round) of the answers table,
    `used` CPU seconds by process, `every` the teacher's period of reads."""
    owner = {sid: p.n for p in phones for sid in p.ids}
    per_pair = Counter((owner.get(sid), r) for sid, r in rows)
    sent = [(p.n, r) for p in phones for r in p.sent]
    # an answer a rate limit refused, the phone told so, is not lost: counted apart
    missing = [(n, r) for n, r in sent if not per_pair[(n, r)]]
    told = {(p.n, r) for p in phones for r in p.told_to_wait}
    lost = sum(1 for pair in missing if pair not in told)
    double = sum(c - 1 for (n, _), c in per_pair.items() if n is not None and c > 1)
    double += sum(c for (n, _), c in per_pair.items() if n is None)
    tally = [
        min(t.seen[(sid, r)] for sid in p.ids if (sid, r) in t.seen) - at
        for p in phones
        for r, (_, at) in p.sent.items()
        if any((sid, r) in t.seen for sid in p.ids)
    ]
    follows = [s for p in phones for step, s in p.follow.items() if step and s is not None]
    killed = [p for p in phones if p.n in t.on_killed]
    back = [p for p in killed if p.back]
    joined = [p.joined for p in phones if p.joined is not None]
    print(f"\njoined: {len(joined)} of {len(phones)} phones; time to the room drawn: "
          f"{spread(joined)}")  # fmt: skip
    refused = sum(p.refused for p in phones)
    print(f"answers: sent {len(sent)} (of {len(phones) * len(t.rounds)} asked), stored "
          f"{len(rows)}, lost {lost}, double votes {double}; refused by a rate limit: "
          f"{refused} times, {len(missing) - lost} never stored")  # fmt: skip
    print(f"answer-to-tally (tap to the teacher's read every {every:g} s): "
          f"{spread(tally, (50, 95, 'max'))}")  # fmt: skip
    print(f"step follow (move committed to the page drawn, {len(follows)} of "
          f"{len(phones) * len(t.rounds)}): {spread(follows, (50, 95, 'max'))}")  # fmt: skip
    by_step = {
        step: pct([s for p in phones if (s := p.follow.get(step)) is not None], 95)
        for step in t.rounds
    }
    print("  p95 by step: " + ", ".join(f"{k}: {v:.2f} s" for k, v in by_step.items()))
    if t.killed_at is not None:
        after = [p.back_after for p in back if p.back_after is not None]
        middle = t.rounds.get((args.steps + 1) // 2)
        had = sum(1 for p in killed if any((sid, middle) in t.before_kill for sid in p.ids))
        print(f"killed app server b ({len(killed)} phones on it, {had} of them with an answer "
              f"in the open round at the teacher's last read): {len(back)} back as the "
              f"same student, {sum(1 for p in killed if p.back is False)} back as another; "
              f"drop to page drawn again: {spread(after, (50, 95, 'max'))}")  # fmt: skip
    if args.forget and t.killed_at is not None:  # the bench's own check
        old = sum(1 for p in killed if p.ids and (p.ids[0], middle) in set(rows))
        print(f"phones that forgot their student id: {old} with a row under the old id")
    print(f"script runs: {sum(p.runs for p in phones)} (every phone's watching fragment "
          f"every 0.75 s, and the page drawn anew on each change)")  # fmt: skip
    print("CPU seconds: " + ", ".join(f"{k} {v:.1f}" for k, v in used.items()))
    for said in sorted({e for p in phones for e in p.errors})[:5]:
        print(f"  error: {said[:200]}")
    for said in cluster.events[:8]:
        print(f"  HAProxy: {said[:160]}")
    for said in t.waits:
        print(f"  the teacher stopped waiting: {said}")
    print(
        f"hall: {len(phones)} phones, {len(cluster.servers)} servers: sent {len(sent)}, "
        f"stored {len(rows)}, lost {lost}; p95 answer-to-tally {pct(tally, 95):.2f} s; "
        f"p95 follow {pct(follows, 95):.2f} s; after a server was killed: "
        f"{len(back)} of {len(killed)} phones back, {double} double votes"
    )
