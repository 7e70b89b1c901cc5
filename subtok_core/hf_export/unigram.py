"""A Unigram model as tokenizers' Unigram: the same pieces and log-probabilities.

Both find the most probable segmentation of a word by Viterbi. Where they differ, the
file is built around it:

- An unknown character. Ours prices it as [UNK] alone, each character apart; tokenizers
  fuses neighbouring unknown characters into one token. A character that is no piece is
  in no piece at all (checked), so the pre-tokenizer cuts it off as a word of its own: it
  is its own [UNK] in both.
- The unknown token must be a piece of the file. It gets a score so low that the text
  ``[UNK]`` never beats spelling it out with other pieces (see ``_unigram``).
- Ties. Of two equally probable segmentations (log-probabilities within
  ``lattice.TIE_TOLERANCE``), ours keeps the one whose last piece starts latest (the
  slides' ``run -> ru n``); tokenizers keeps the one whose last piece starts earliest
  (``r un``), and no choice of scores can change that. Two kinds of ties:

  * the same pieces in another order (``lll`` as ``ll + l`` or ``l + ll``), equally
    probable whatever the probabilities: any model with ``l`` and ``ll`` has them. They
    are rare in running text and the export says so (:data:`REORDER_NOTE`);
  * different pieces whose probabilities happen to multiply to the same number (the
    textbook's counts: ``fun`` as ``fu + n`` or ``f + un``). The export searches for one
    among the pieces and the words of two pieces (up to :data:`PROBE_WORDS` of them; ▁
    only in front in ▁ models) and refuses the model when it finds one, naming the word.
    A search, not a proof; with the probabilities EM learns, such ties are rare.

The model's log-probabilities are natural logs whatever log base a textbook run showed
(the model takes ``math.log`` of each probability), as tokenizers' scores are.

>>> from subtok_core.unigram import UnigramModel
>>> tok = build(UnigramModel(("a", "b", "ab"), (-2.0, -2.0, -1.0), ("a", "b")))
>>> [tok.id_to_token(i) for i in tok.encode("ab ba zz").ids]
['ab', 'b', 'a', '[UNK]', '[UNK]']
"""

from __future__ import annotations

import math

from tokenizers import Tokenizer, decoders, models, pre_tokenizers

from ..lattice import TIE_TOLERANCE, viterbi
from ..records import SOW, UNK
from ..unigram.encode import UNK_PENALTY
from ..unigram.records import UnigramModel
from . import words

PROBE_WORDS = 20_000  # words tried by the tie search (some 1 s)
REORDER_NOTE = (
    "Where the same pieces fit a word in two orders, both are equally probable and the file "
    "keeps the other one: lll becomes l + ll in the file and ll + l here. Such words are "
    "rare in running text."
)


def _usable(model: UnigramModel) -> list[tuple[str, float]]:
    """The pieces with a probability above zero (a piece at log 0 = -inf is never used by
    our Viterbi, and JSON cannot hold -inf)."""
    return [(p, lp) for p, lp in zip(model.pieces, model.logprobs) if math.isfinite(lp)]


def notes(model: UnigramModel) -> list[str]:
    """What the exported file may still do otherwise (see the module's docstring)."""
    return [REORDER_NOTE]


def check(model: UnigramModel) -> None:
    """Refuse a model with no piece, with a character that is inside some piece but no
    piece of its own (ours and tokenizers price the unknown character differently there),
    or with a tie that tokenizers would break the other way (see the module's docstring)."""
    pieces = _usable(model)
    if not pieces:
        raise ValueError("This Unigram model has no piece with a probability above zero.")
    single = {p for p, _ in pieces if len(p) == 1}
    for piece, _ in pieces:
        missing = [ch for ch in piece if ch not in single]
        if missing:
            raise ValueError(
                f"The piece {piece!r} holds {missing[0]!r}, which is no piece of its own; "
                "tokenizers would price that character differently, so this model cannot "
                "be exported."
            )
    _search_ties(model)


def _probe_words(names: list[str], sow: bool) -> list[str]:
    """The pieces, then pieces with a character before or after, then pairs of pieces."""
    chars = [p for p in names if len(p) == 1]
    found = dict.fromkeys(names)
    for batch in ((a + b for a in names for b in chars), (a + b for a in chars for b in names),
                  (a + b for a in names for b in names)):  # fmt: skip
        for word in batch:
            if len(found) >= PROBE_WORDS:
                break
            if not sow or SOW not in word[1:]:  # in a ▁ model, ▁ starts a word only
                found.setdefault(word)
    return list(found)


def _search_ties(model: UnigramModel) -> None:
    """Refuse when tokenizers' Viterbi and ours cut some probe word differently."""
    logp = dict(_usable(model))
    longest, unk = max(map(len, logp)), min(logp.values()) - UNK_PENALTY
    theirs = _unigram(model)
    for word in _probe_words(list(logp), model.marker == "sow"):
        ours = viterbi(word, logp, longest, unk_logp=unk)[0]
        other = tuple(token.value for token in theirs.tokenize(word))
        if ours == other or sorted(ours) == sorted(other):  # a reordering: see REORDER_NOTE
            continue
        gap = abs(sum(map(logp.get, ours)) - sum(logp.get(p, -math.inf) for p in other))
        if gap > TIE_TOLERANCE:  # not a tie: the two Viterbis disagree for another reason
            raise ValueError(
                f"tokenizers cuts {word!r} as {' + '.join(other)} and subtok as "
                f"{' + '.join(ours)}, so this model cannot be exported."
            )
        raise ValueError(
            f"{word!r} has two segmentations of equal probability, {' + '.join(ours)} "
            f"and {' + '.join(other)}: subtok keeps the one whose last piece starts "
            "latest, tokenizers the one whose last piece starts earliest, and no score "
            "in the file can change that. Words with such ties would be cut "
            "differently, so this model cannot be exported."
        )


def _unigram(model: UnigramModel) -> models.Unigram:
    """tokenizers' Unigram with our pieces in our order (so with our ids) and [UNK] last.

    [UNK], and a piece of probability zero, are priced below spelling them with single
    characters (each costs at least the lowest log-probability): the text "[UNK]" is then
    never read as the unknown token, and a piece ours never uses is never used. Unknown
    characters are cut off alone before (see build), so the price of [UNK] is never
    compared with anything else.
    """
    lowest = min(lp for _, lp in _usable(model))
    below = lambda piece: len(piece) * lowest - UNK_PENALTY  # noqa: E731
    scored = [
        (piece, lp if math.isfinite(lp) else below(piece))
        for piece, lp in zip(model.pieces, model.logprobs, strict=True)
    ]
    return models.Unigram([*scored, (UNK, below(UNK))], unk_id=len(scored), byte_fallback=False)


def build(model: UnigramModel) -> Tokenizer:
    """tokenizers' Unigram with our pieces and log-probabilities, [UNK] last."""
    check(model)
    known = {p for p, _ in _usable(model) if len(p) == 1}
    tok = Tokenizer(_unigram(model))
    if model.marker == "sow":
        tok.normalizer = words.normalizer(SOW, "start", model.split_punct)
        split = words.pre_tokenizer(model.split_punct, SOW, "start")
        tok.decoder = decoders.Metaspace(replacement=SOW, prepend_scheme="always")
    else:
        split = words.pre_tokenizer(model.split_punct)
    tok.pre_tokenizer = pre_tokenizers.Sequence([split, words.isolate(known)])
    return tok
