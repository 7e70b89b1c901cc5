"""The /vocab page's data: every tokenizer's table and health, computed once per server
(with a progress bar the first time) and shared by every session, keyed by the tokenizer's
name (a pretrained one) or by the fingerprint of the model and its corpus (one trained
here)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable

import streamlit as st

from lessons._store import fingerprint, trace_store
from subtok_core import compare, parallel
from subtok_core.pretrained import LABELS as PRETRAINED_LABELS
from subtok_core.store import Lease
from subtok_core.vocab.health import Health, health
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


KEPT_TRAINED = 16  # trained tokenizers' health kept per server, the oldest going first
_LOCK = threading.Lock()  # one computation at a time: a second session waits for the first


@st.cache_resource(show_spinner=False)
def _kept() -> dict:
    """The health of every tokenizer computed so far, by key, shared by every session as
    it is (a Health holds the tokenizer's encoder: never copied, never changed)."""
    return {}


def _once(key, text: str, compute: Callable[[Callable[[int, int], None]], object]):
    """The value under `key`, computed once per server with a progress bar (no bar when
    another session has computed it; a session arriving meanwhile waits for it). The
    value is read once and returned as read: another session may drop the key meanwhile."""
    kept = _kept()
    value = kept.get(key)
    if value is None:
        with _LOCK:
            value = kept.get(key)
            if value is None:
                value = kept[key] = _with_bar(text, compute)
                trained = [k for k in kept if k[0] == "trained"]
                for old in trained[:-KEPT_TRAINED]:
                    kept.pop(old, None)
    return value


def pretrained_health(name: str) -> Health:
    """A pretrained tokenizer's health (some seconds the first time on a server)."""
    text = f"Sorting the {label(name)} tokens into categories (once per server) ..."
    return _once(("pretrained", name), text, lambda report: health(pretrained_table(name), report))


def trained_health(model, model_print: str, wc) -> tuple[Health, dict]:
    """A trained model's health with its unused tokens, and its use of each piece on its
    training words (`model_print`: the fingerprint of the model and of its corpus)."""

    def compute(report) -> tuple[Health, dict]:
        found = health(trained_table(model, model.algorithm), report, model=model, wc=wc)
        return found, dict(usage(model, wc))

    text = f"Sorting the tokens of your {compare.LABELS[model.algorithm]} into categories ..."
    return _once(("trained", model_print), text, compute)


def uploaded_lease(text: str, name: str, digest: str) -> Lease:
    """A lease on the health of an uploaded tokenizer.json, computed once per server and
    file content (`digest`, its SHA-256) in the server-wide store, counted against its
    budget as Compare counts an upload (hf.MEMORY_PER_BYTE per byte of the file): it stays
    while a session holds the lease and can go once every such session has ended. The
    health kept reads its file's name from whoever uploaded it first: see named()."""
    from subtok_core.pretrained import hf
    from subtok_core.vocab.uploaded import hf_table

    said = f"Sorting the tokens of {name} into categories ..."

    def compute(_report) -> Health:
        return _with_bar(said, lambda report: health(hf_table(text, name), report))

    size = hf.MEMORY_PER_BYTE * len(text.encode("utf-8"))
    return trace_store().lease(("vocab health", digest), compute, size=size)


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


def table_of(name: str, mine: dict) -> tuple[Table, Health, object, dict | None]:
    """The table, the health, the model (None: pretrained) and the use on the corpus of
    one tokenizer: a pretrained name, or a kind trained here (`mine`: kind -> (model,
    fingerprint, word counts))."""
    if name in PRETRAINED:
        report = pretrained_health(name)
        return report.table, report, None, None
    if name.startswith("hf:"):
        report = mine[name]
        return report.table, report, None, None
    model, model_print, wc = mine[name]
    report, used = trained_health(model, model_print, wc)
    return report.table, report, model, used
