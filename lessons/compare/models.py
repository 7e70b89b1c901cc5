"""The Compare page's tokenizers: which ones a session can choose (the address's ?tok=, a
tokenizer.json it uploaded, SaGe's once the SaGe page trained one) and each one's model,
trained here once per corpus and size or read from where it comes."""

from __future__ import annotations

import dataclasses
import hashlib

import streamlit as st

from lessons.sage.latest import latest
from lessons.ui.address import url_text, url_warning
from lessons.ui.escape import plain
from lessons.ui.keys import widget_key
from lessons.ui.store import fingerprint, trace_store
from lessons.ui.upload import read_upload
from subtok_core import compare, parallel, registry
from subtok_core.pretrained import Pretrained, hf

PAGE = "compare"
UPLOADED = widget_key(PAGE, "hf")  # this session's tokenizer.json: kind, name, print, lease
UPLOAD_REFUSED = widget_key(PAGE, "hf_refused")  # (file_id, sentence) of a refused file


def known_kinds() -> tuple[str, ...]:
    """BPE, WordPiece, Unigram (and SaGe once the SaGe page has trained a vocabulary), the
    pretrained tokenizers, and the tokenizer.json this session uploaded."""
    sage = ("sage",) if latest() is not None else ()
    mine = (st.session_state[UPLOADED]["kind"],) if UPLOADED in st.session_state else ()
    return compare.KINDS + sage + compare.PRETRAINED + mine


def label(kind: str) -> str:
    if kind.startswith("hf:"):  # an upload, as hf.from_str labels it (known without it)
        return f"{kind.removeprefix('hf:')} (tokenizers)"
    return compare.LABELS[kind]


def kinds_from_url() -> list[str]:
    """?tok=bpe,unigram -> the tokenizers chosen (all three trained ones when the URL has
    none). Every name this session can use is kept; the others are left out with a
    warning, and the trained ones fill in when fewer than two are left."""
    text = url_text("tok", widget_key(PAGE, "tok"))
    if text is None:
        return list(compare.KINDS)
    kinds, why = compare.read_kinds(text, known_kinds())
    used = ",".join(kinds)
    if why or not text.strip():
        url_warning("tok", text, why or "empty", used)
        st.query_params["tok"] = used
    return list(kinds)


def store_kinds() -> None:
    st.query_params["tok"] = ",".join(st.session_state[widget_key(PAGE, "tok")])


def upload_tokenizer() -> None:
    """A Hugging Face tokenizer.json of the teacher's, added to the choices of this session.

    Parsed once per server and kept in the server-wide store under the file's SHA-256,
    counted against its budget (hf.MEMORY_PER_BYTE times the file's size, as measured on a
    20 MB file); the session holds a lease on it, so it stays while a tab uses it and can
    be dropped once every such tab is gone. Runs before the tokenizer list is drawn, so
    the upload is in the list at once.
    """
    upload = st.file_uploader(
        "Add a Hugging Face tokenizer.json", type=["json"], key=widget_key(PAGE, "hf_file")
    )
    if upload is None:
        return
    mine = st.session_state.get(UPLOADED, {})
    if mine.get("file_id") == upload.file_id:
        return  # read already (on every rerun the uploader gives the same file back)
    refused = st.session_state.get(UPLOAD_REFUSED, ("", ""))
    if refused[0] == upload.file_id:
        st.error(refused[1])  # said again, not parsed again
        return
    data = upload.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    text = read_upload(upload)
    if text is None:
        return
    try:
        lease = trace_store().lease(
            ("tokenizer.json", digest),
            lambda report: hf.from_str(text, upload.name),
            size=hf.MEMORY_PER_BYTE * len(data),
        )
    except ValueError as err:
        st.session_state[UPLOAD_REFUSED] = upload.file_id, str(err)
        st.error(plain(str(err)))
        return
    if "lease" in mine:
        mine["lease"].release()
    tok = as_named(lease.value, upload.name)
    st.session_state[UPLOADED] = {
        "kind": tok.name, "name": upload.name, "print": digest, "lease": lease,
        "file_id": upload.file_id,
    }  # fmt: skip
    st.success(f"{plain(tok.label)} can now be chosen above: {plain(tok.provenance)}")


def as_named(tok: Pretrained, name: str) -> Pretrained:
    """The tokenizer kept for a file's content, under this session's name for the file
    (another session may have uploaded the same content under another name first)."""
    kept = tok.name.removeprefix("hf:")
    return dataclasses.replace(
        tok,
        name=f"hf:{name}",
        label=tok.label.replace(kept, name, 1),
        provenance=tok.provenance.rsplit("; from ", 1)[0] + f"; from {name}",
    )


def uploaded() -> Pretrained:
    """This session's uploaded tokenizer (kept for it in the server-wide store)."""
    mine = st.session_state[UPLOADED]
    return as_named(mine["lease"].value, mine["name"])


def trained(kinds, wc, corpus_print: str, size: int) -> dict[str, tuple[object, str]]:
    """Each tokenizer's model and its fingerprint, in the order of `kinds`. SaGe's is the
    vocabulary the SaGe page last trained in this session, known by itself; a pretrained
    one is read once per server and known by its name (an uploaded one by its file's
    digest); the others are trained here, once per corpus and size, and known by those
    (`corpus_print`: the corpus's fingerprint): all at once, each in a worker process of
    its own (subtok_core.parallel) with its own progress bar.
    """
    found, wanted = {}, {}
    for kind in kinds:
        if kind in compare.FROM_PAGE:  # SaGe: what its page last trained
            model = latest()["model"]
            found[kind] = model, fingerprint(model)
        elif kind in compare.PRETRAINED:
            found[kind] = registry.pretrained(kind), kind
        elif UPLOADED in st.session_state and kind == st.session_state[UPLOADED]["kind"]:
            found[kind] = uploaded(), "hf:" + st.session_state[UPLOADED]["print"][:16]
        else:  # trained below, all at once
            key = fingerprint("compare", kind, corpus_print, size)
            found[kind] = None, key
            wanted[key] = training(kind, wc, size), f"Training {label(kind)}:"
    models = trace_store().trained_all(wanted)
    return {kind: (models.get(key, model), key) for kind, (model, key) in found.items()}


def training(kind: str, wc, size: int):
    """How the store trains one tokenizer: compare.train in a worker process."""
    return lambda report: parallel.run(compare.train, kind, wc, size, report=report)
