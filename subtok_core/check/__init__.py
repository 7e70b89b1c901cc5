"""Check a student's own BPE: the first merge where its list leaves the reference run,
and the cause, found by counting the pairs again under each way a trainer may go wrong.

- ``formats``: merges.txt, tokenizer.json, JSON merge lists (byte-level too);
- ``setup``: the corpus and the reference settings, cut into units per hypothesis;
- ``reference``: our trainers' merges; ``recount``: pair counts under each hypothesis;
- ``diagnose``: the verdict (``check``); ``exercises``: the exercise corpora and keys;
- ``trainer``: a student's CS336 ``train_bpe`` run on the command line; ``cli``.
"""

from .diagnose import CAUSES, Difference, Verdict, check
from .formats import FORMATS, read_merges
from .setup import Setup

__all__ = ["CAUSES", "FORMATS", "Difference", "Setup", "Verdict", "check", "read_merges"]
