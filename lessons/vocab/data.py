"""The /vocab page's data: every tokenizer's table and health, computed once (with a
progress bar the first time) and shared by every session. A health is kept as plain data
in the server-wide store and on disk (lessons.ui.store.derived), keyed by the tokenizer's
name and file (a pretrained one) or by the fingerprint of the model and its corpus (one
trained here): a restarted server, or one `subtok warm` prepared, reads it."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import streamlit as st

from lessons.ui.store import derived, fingerprint, trace_store
from lessons.ui.upload import held, held_again
from subtok_core import compare, parallel
from subtok_core.pretrained import LABELS as PRETRAINED_LABELS
from subtok_core.pretrained import files
from subtok_core.shapes import many, mapping, maybe, such_that
from subtok_core.vocab.card import Card, token_card
from subtok_core.vocab.health import CATEGORIES, Health, health
from subtok_core.vocab.table import Table, pretrained_table
from subtok_core.vocab.trained import trained_table, usage
from subtok_core.vocab.uploaded import as_named

PRETRAINED = ("cl100k_base", "mistral-v1", "mistral-v3", "tekken")
SIDE_BY_SIDE = ("cl100k_base", "mistral-v1", "tekken")  # the three real ones
TRAINED = compare.KINDS  # BPE, WordPiece, Unigram, trained as Compare trains them
LABELS = {**PRETRAINED_LABELS, **{k: f"{compare.LABELS[k]} (trained here)" for k in TRAINED}}


def label(name: str) -> str:
    return LABELS.get(name, name)


def _with_bar(text: str, compute: Callable[[Callable[[int, int], None]], object]):
    """Run `compute(progress)` under a progress bar that goes away when it is done (on a
    cached result the bar shows for an instant only)."""
    holder = st.empty()
    bar = holder.progress(0.0, text=text)
    try:
        return compute(lambda done, total: bar.progress(min(1.0, done / max(total, 1)), text))
    finally:
        holder.empty()


HEALTH = "vocab health"  # the kind of the tables kept below (lessons.ui.store.derived)
KEPT_FORMAT = 1  # bump when what kept() writes changes: older tables are then not read
EXAMPLES = 6  # example tokens kept per category and tokenizer (the page shows them)
CODES = {"special": "s", "partial": "p", "unreachable": "u", "ok": "o"}
CATEGORY_OF = {code: category for category, code in CODES.items()}
EXAMPLE = (int, str)  # a token: its id and piece
# what kept() writes, as a health read back from disk must be
KEPT = {
    "codes": such_that(
        str,
        lambda codes: set(codes) <= set(CATEGORY_OF),
        f"holds a letter other than {', '.join(CATEGORY_OF)}",
    ),
    "unused": maybe(many(int)),
    "used": maybe(mapping(str, int)),
    "size": int,
    "examples": dict.fromkeys((*CATEGORIES, "unused"), many(EXAMPLE)),
}
LISTED = many((int, str, maybe(bytes)))  # Sorted.listed: id, piece, bytes


def kept(report: Health, used: dict | None = None) -> dict:
    """A tokenizer's health as plain data, what the store keeps on disk: each token's
    category as one letter (CODES), the unused positions, the trained model's use of each
    piece (`used`), the table's size and the first EXAMPLES tokens of each category (id,
    piece), so that the health table and its examples need no table of tokens."""
    table = report.table
    return {
        "codes": "".join(CODES[c] for c in report.category),
        "unused": report.unused,
        "used": used,
        "size": table.size,
        "examples": {
            category: tuple((table.ids[k], table.pieces[k]) for k in positions[:EXAMPLES])
            for category in (*CATEGORIES, "unused")
            for positions in [report.positions(category)]
        },
    }


class Sorted:
    """One tokenizer's health as the page shows it, from what `kept` keeps: the counts and
    examples at once, the tokens of a category (listed) kept too under `key` (the health's
    own key; None: an upload, listed from its health), the full Health (every token's
    category beside its table) only when asked for, its table built then by `table()`."""

    def __init__(self, data: dict, table: Callable[[], Table], key: tuple | None = None):
        self.data, self._table, self.key = data, table, key
        self._health: Health | None = None

    @classmethod
    def of(cls, report: Health) -> Sorted:
        """An uploaded tokenizer's health, held in memory by the sessions using it."""
        found = cls(kept(report), lambda: report.table)
        found._health = report
        return found

    @property
    def size(self) -> int:
        return self.data["size"]

    @property
    def used(self) -> dict | None:
        return self.data["used"]

    def counts(self) -> dict[str, int | None]:
        codes, unused = self.data["codes"], self.data["unused"]
        counts: dict[str, int | None] = {c: codes.count(CODES[c]) for c in CATEGORIES}
        counts["unused"] = None if unused is None else len(unused)
        return counts

    def examples(self, category: str) -> tuple[tuple[int, str], ...]:
        """The first tokens of `category` (or "unused"), by id: (id, piece)."""
        return self.data["examples"][category]

    def listed(self, category: str, limit: int) -> tuple[tuple[int, str, bytes | None], ...]:
        """The first `limit` tokens of `category` (or "unused") by id: (id, piece, bytes),
        kept like the health (browsing the default category builds no table of tokens)."""

        def compute() -> tuple[tuple[int, str, bytes | None], ...]:
            report = self.health()
            table = report.table
            first = report.positions(category)[:limit]
            return tuple((table.ids[k], table.pieces[k], table.data[k]) for k in first)

        if self.key is None:
            return compute()
        return derived(("vocab listed", *self.key[1:], category, limit), compute, LISTED)

    def health(self) -> Health:
        if self._health is None:
            category = tuple(CATEGORY_OF[code] for code in self.data["codes"])
            self._health = Health(self._table(), category, self.data["unused"])
        return self._health


@functools.cache  # the files of installed packages do not change under a running server
def file_print(name: str) -> str:
    """What a pretrained vocabulary's kept health depends on besides our code: its file's
    name and size (a package upgrade that changes the file changes them)."""
    path = files.locate(name)
    return f"{path.name}:{path.stat().st_size}"


def pretrained_health(name: str) -> Sorted:
    """A pretrained tokenizer's health, computed once (some seconds, with a progress bar)
    and kept in the server-wide store and on disk: a restarted server reads it and builds
    no table of tokens until one is browsed."""
    text = f"Sorting the {label(name)} tokens into categories (once per server) ..."

    def compute() -> dict:
        return kept(_with_bar(text, lambda report: health(pretrained_table(name), report)))

    key = (HEALTH, KEPT_FORMAT, "pretrained", name, file_print(name))
    return Sorted(derived(key, compute, KEPT), lambda: pretrained_table(name), key)


def trained_health(model, model_print: str, wc) -> Sorted:
    """A trained model's health with its unused tokens, and its use of each piece on its
    training words (`model_print`: the fingerprint of the model and of its corpus), kept
    like a pretrained one's."""

    def compute() -> dict:
        def sort(report) -> Health:
            return health(trained_table(model, model.algorithm), report, model=model, wc=wc)

        return kept(_with_bar(text, sort), dict(usage(model, wc)))

    text = f"Sorting the tokens of your {compare.LABELS[model.algorithm]} into categories ..."
    key = (HEALTH, KEPT_FORMAT, "trained", model_print)
    return Sorted(derived(key, compute, KEPT), lambda: _trained_table(model_print, model), key)


def card(name: str, token_id: int, mine: dict) -> tuple[Card, bool]:
    """The card of id `token_id` of one tokenizer (see table_of for `mine`), and whether
    the tokenizer was trained here. A pretrained one's card is kept in the server-wide
    store and on disk (the card a shared link opens: a restarted server builds no table of
    tokens for it); ValueError for an id the tokenizer does not have."""
    if name in PRETRAINED:
        key = ("vocab card", KEPT_FORMAT, name, file_print(name), token_id)
        return derived(key, lambda: token_card(pretrained_table(name), token_id), Card), False
    table, model, used = table_of(name, mine)
    wc = None if model is None else mine[name][2]
    return token_card(table, token_id, model=model, used=used, wc=wc), model is not None


# what an uploaded tokenizer.json's health holds per byte of the file, estimated before it
# is read: an 18 MB file grew the server by 482 MB (issue 40); a 15 MB WordLevel file of
# 800,000 tokens by 325 MB (22 per byte)
HEALTH_PER_BYTE = 27
HEALTH_SLOT = "vocab tokenizer.json"  # where a session holds it (lessons.ui.upload.held)


def uploaded_health(upload, digest: str) -> Health:
    """The health of an uploaded tokenizer.json, computed once per server and file
    content (`digest`, its SHA-256) in the server-wide store and held there by the
    sessions using it (lessons.ui.upload.held): counted at what building it grew the
    process by, and refused before it is read when its estimate (HEALTH_PER_BYTE times
    the file's size) does not fit in the budget. The health kept reads its file's name
    from whoever uploaded it first: see named()."""
    from subtok_core import corpus
    from subtok_core.vocab.uploaded import hf_table

    name = upload.name
    said = f"Sorting the tokens of {name} into categories ..."

    def build() -> Health:
        text = corpus.decode_upload(upload.getvalue(), name)
        return _with_bar(said, lambda report: health(hf_table(text, name), report))

    return held(HEALTH_SLOT, (HEALTH, digest), build, HEALTH_PER_BYTE * upload.size)


def health_again(digest: str) -> Health | None:
    """The uploaded health this session holds (None once the store let it go)."""
    return held_again(HEALTH_SLOT, (HEALTH, digest))


def named(report: Health, name: str) -> Health:
    """An uploaded file's health under this session's name for the file."""
    return dataclasses.replace(report, table=as_named(report.table, name))


def models(kinds, wc, corpus_print: str, size: int) -> dict[str, tuple[object, str]]:
    """Each trained tokenizer and its fingerprint: trained as Compare trains it and kept
    in the same server-wide store under the same key, so a run trained on either page
    serves both."""
    keys = {kind: fingerprint("compare", kind, corpus_print, size) for kind in kinds}
    wanted = {
        keys[kind]: (
            lambda report, kind=kind: parallel.run(compare.train, kind, wc, size, report=report),
            f"Training {compare.LABELS[kind]}:",
        )
        for kind in kinds
    }
    found = trace_store().trained_all(wanted)
    return {kind: (found[keys[kind]], keys[kind]) for kind in kinds}


def table_of(name: str, mine: dict) -> tuple[Table, object, dict | None]:
    """The table, the model (None: pretrained) and the use on the corpus of one tokenizer:
    a pretrained name, an upload, or a kind trained here (`mine`: kind -> (model,
    fingerprint, word counts); an upload: name -> its Sorted health)."""
    if name in PRETRAINED:
        return pretrained_table(name), None, None
    if name.startswith("hf:"):
        return mine[name].health().table, None, None
    model, model_print, wc = mine[name]
    return _trained_table(model_print, model), model, trained_health(model, model_print, wc).used


@st.cache_resource(max_entries=16, show_spinner=False)
def _trained_table(model_print: str, _model) -> Table:
    """The table of a model trained here (fingerprint `model_print`), built once."""
    return trained_table(_model, _model.algorithm)
