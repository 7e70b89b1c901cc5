"""What every merge trainer's run shares besides the corpus (``merging.py``, which also
offers these names): how many merges it is asked for, progress, why it stopped, and the
command-line options of the merge lessons.

>>> merge_goal(10, merges=None, vocab_size=25)
15
>>> stop_reason(3, 5, merges=5, vocab_size=None, steps=3)
(True, 'Stopped after 3 merges: no pair is left, every word is one symbol.')
"""

from __future__ import annotations

from . import limits
from .corpus import WordCounts

TIE_RULES = ("first", "lex", "tokenizers")


def merge_goal(start_size: int, merges: int | None, vocab_size: int | None, what: str = "") -> int:
    """How many merges (or new symbols, for a vocab size) a run is asked for; `what` says
    what the start size is made of, when that helps."""
    if (merges is None) == (vocab_size is None):
        raise ValueError("Give either a number of merges or a target vocabulary size.")
    limits.check("merges", merges)
    limits.check("vocab_size", vocab_size)
    if merges is not None:
        if merges < 0:
            raise ValueError(f"The number of merges must be 0 or more, not {merges}.")
        return merges
    if vocab_size < start_size:
        raise ValueError(
            f"vocab size {vocab_size} is smaller than the {start_size} symbols this corpus "
            f"starts with{what}; choose at least {start_size}."
        )
    return vocab_size - start_size


def snapshot_mode(wc: WordCounts, snapshot: bool | None, max_words: int) -> bool:
    """Full snapshots per step for small corpora (toys), compact steps for real samples."""
    return len(wc) <= max_words if snapshot is None else snapshot


def collect_steps(steps, goal: int, progress=None) -> list:
    """Run a step iterator to the end, reporting progress every 50 steps and at the end."""
    done = []
    for step in steps:
        done.append(step)
        if progress and (len(done) % 50 == 0 or len(done) == goal):
            progress(len(done), goal)
    return done


def stop_reason(
    made: int, goal: int, merges: int | None, vocab_size: int | None, steps: int
) -> tuple[bool, str]:
    """Whether a run stopped short of its goal, and a sentence saying why it stopped."""
    if made < goal:
        return True, f"Stopped after {steps} merges: no pair is left, every word is one symbol."
    goal_text = f"{merges} merges" if merges is not None else f"vocab size {vocab_size}"
    return False, f"Reached the {goal_text} asked for."


# --- the command line options the merge lessons share ------------------------------------


def add_merge_options(cmd) -> None:
    """--merges or --vocab-size (one of them), --ties, --split-punct."""
    size = cmd.add_mutually_exclusive_group(required=True)
    size.add_argument(
        "--merges", type=int,
        help=f"number of merges to make ({limits.describe('merges')})",
    )  # fmt: skip
    size.add_argument(
        "--vocab-size", type=int,
        help=f"stop when the vocabulary has N symbols ({limits.describe('vocab_size')})",
    )  # fmt: skip
    cmd.add_argument(
        "--ties",
        choices=TIE_RULES,
        default="first",
        help="which pair wins a tie (default: first seen in the corpus)",
    )
    cmd.add_argument(
        "--split-punct", action="store_true", help="split punctuation off words before counting"
    )


def load_words(args):
    """The word counts of --corpus (a name or, on the command line, a .txt path),
    punctuation split off with --split-punct."""
    from .corpus import load

    return load(args.corpus, split_punct=args.split_punct, allow_paths=True)
