"""A BPE model as a tokenizers BPE: the same vocabulary (same ids), the merges as ranks.

tokenizers' BPE merges, in a word, the pair of lowest rank among the pairs present, again
and again; ours replays the merges in the order they were learned, each once. Both do the
same as long as no merge uses a symbol that a *later* merge makes (then, after that later
merge, tokenizers could go back to the earlier one and ours would not), and that is
checked. The tie rule a model was trained with changes only which merges it has, never how
they are replayed, so every tie rule exports.

The markers: ``▁`` (sow) is a character of its own, written in front of each word by the
normalizer; ``</w>`` glued to the last character (suffix) is tokenizers'
``end_of_word_suffix``; ``</w>`` as a symbol of its own (eow) has no counterpart, since
tokenizers starts a word from its characters, so the file writes it as one private-use
character (:data:`EOW_STAND_IN`, U+E000) put after each word, and ``</w>`` stands in for it
again on the way back (:func:`subtok_core.hf_export.our_tokens`).

>>> from subtok_core.bpe import train_bpe
>>> from subtok_core.corpus import load
>>> tok = build(train_bpe(load("toy:low-lower"), merges=4, marker="eow"))
>>> tok.encode("lowest").tokens == ["lo", "w", "est" + EOW_STAND_IN]
True
"""

from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, normalizers

from ..bpe.records import BpeModel
from ..records import EOW, SOW, UNK
from . import words

EOW_STAND_IN = "\ue000"  # a private-use character: no script writes it


def check(model: BpeModel) -> None:
    """Raise ValueError when tokenizers would cut some word differently from our replay."""
    if UNK in model.vocab:
        raise ValueError(
            f"This BPE vocabulary has {UNK} as a symbol made from text, and tokenizers "
            "would take it for the unknown token; it cannot be exported."
        )
    seen: dict[tuple[str, str], int] = {}
    made_at: dict[str, list[int]] = {}
    for rank, pair in enumerate(model.merges):
        if pair in seen:
            raise ValueError(
                f"Merge {rank + 1} ({pair[0]} + {pair[1]}) repeats merge {seen[pair] + 1}; "
                "tokenizers keeps one rank per pair, so this model cannot be exported."
            )
        seen[pair] = rank
        made_at.setdefault(pair[0] + pair[1], []).append(rank)
    for rank, pair in enumerate(model.merges):
        for symbol in pair:
            later = [r for r in made_at.get(symbol, []) if r > rank]
            if later:
                raise ValueError(
                    f"Merge {rank + 1} ({pair[0]} + {pair[1]}) uses {symbol!r}, which merge "
                    f"{later[0] + 1} makes later: tokenizers would go back to merge "
                    f"{rank + 1} after it, while subtok replays each merge once, in order, "
                    "so some words could be cut differently. This model cannot be exported."
                )
    known = {a + b for a, b in model.merges} | set(model.alphabet)
    strays = [symbol for symbol in model.vocab if symbol not in known]
    if strays:
        raise ValueError(
            f"The vocabulary holds {strays[0]!r}, which is neither a first symbol nor made by "
            "a merge; this model cannot be exported."
        )
    if model.marker == "eow":
        _stand_in_names(model)  # refuses a corpus that spells the marker itself


def build(model: BpeModel) -> Tokenizer:
    """The tokenizers pipeline of a BPE model (see the module's docstring)."""
    check(model)
    name = _stand_in_names(model) if model.marker == "eow" else {}
    rename = lambda symbol: name.get(symbol, symbol)  # noqa: E731
    vocab = {rename(symbol): i for i, symbol in enumerate(model.vocab)}
    for symbol in model.alphabet:  # every first symbol, so that it is no unknown token
        vocab.setdefault(rename(symbol), len(vocab))
    vocab[UNK] = len(vocab)
    merges = [(rename(a), rename(b)) for a, b in model.merges]
    suffix = {"end_of_word_suffix": EOW} if model.marker == "suffix" else {}
    bpe = models.BPE(vocab, merges, unk_token=UNK, fuse_unk=False, ignore_merges=False,
                     **suffix)  # fmt: skip
    tok = Tokenizer(bpe)
    if model.marker == "sow":
        tok.normalizer = words.normalizer(SOW, "start", model.split_punct)
        tok.pre_tokenizer = words.pre_tokenizer(model.split_punct, SOW, "start")
        tok.decoder = decoders.Metaspace(replacement=SOW, prepend_scheme="always")
    elif model.marker == "eow":
        # a stand-in typed in the text is no marker: it becomes another character, which
        # is unknown as the stand-in is to our model
        other = _free_char(model, EOW_STAND_IN)
        tok.normalizer = normalizers.Sequence([
            normalizers.Replace(EOW_STAND_IN, other),
            words.normalizer(EOW_STAND_IN, "end", model.split_punct),
        ])  # fmt: skip
        tok.pre_tokenizer = words.pre_tokenizer(model.split_punct, EOW_STAND_IN, "end")
        tok.decoder = decoders.Sequence(
            [decoders.Replace(EOW_STAND_IN, " "), decoders.Strip(" ", 0, 1)]
        )
    else:
        tok.pre_tokenizer = words.pre_tokenizer(model.split_punct)
        tok.decoder = decoders.BPEDecoder(suffix=EOW) if suffix else None
    return tok


def _free_char(model: BpeModel, after: str) -> str:
    """The first private-use character after `after` that no symbol of the model holds."""
    used = {ch for symbol in model.alphabet for ch in symbol}
    code = ord(after) + 1
    while chr(code) in used:
        code += 1
    return chr(code)


def _stand_in_names(model: BpeModel) -> dict[str, str]:
    """Each symbol that ends with the eow marker -> its name with the stand-in instead.

    The merges are replayed to know which symbols carry the marker (only a right part can
    carry it). A symbol spelled with the characters ``<``, ``/``, ``w``, ``>`` of the text
    looks the same to our model and not to tokenizers, so such a model is refused.
    """
    spelled = (
        f"The corpus of this model spells {EOW} with its own characters: subtok takes them for "
        "the end-of-word marker and tokenizers would not, so this model cannot be exported."
    )
    if EOW_STAND_IN in {ch for symbol in model.alphabet for ch in symbol}:
        raise ValueError(
            f"The corpus holds the character U+E000 that the file uses for {EOW}; this model "
            "cannot be exported."
        )
    marked, plain = {EOW}, {s for s in model.alphabet if s != EOW}
    for a, b in model.merges:
        if a in marked or (b in marked and b in plain):
            raise ValueError(spelled)
        (marked if b in marked else plain).add(a + b)
    if marked & plain:
        raise ValueError(spelled)
    return {s: s[: -len(EOW)] + EOW_STAND_IN for s in marked}
