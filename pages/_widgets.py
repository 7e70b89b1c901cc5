"""UI pieces shared by the lesson pages: corpus picker, step slider, symbol chips, errors."""

from __future__ import annotations

import hashlib
import html
import logging
import math
import pickle
from collections.abc import Callable, Hashable, Iterable, Sequence

import pandas as pd
import streamlit as st

from pages import _cached as cached
from subtok_core import corpus, diskcache, export, limits
from subtok_core.charts import lessons as viz
from subtok_core.store import Store

TEXT, UPLOAD = "text:your own", "upload:a .txt file"
# key prefixes, one per page
PAGES = ("bpe", "bytebpe", "wordpiece", "unigram", "sage", "compare", "join", "home")
DEFAULT_TEXT = "the cat sat on the mat with the other cats"

CHIP_CSS = """
<style>
.chips {line-height: 2.3; font-size: 1.15rem;}
.chip {display: inline-block; padding: 0 .45em; margin: 0 .12em; border-radius: .35em;
       border: 1px solid #9aa5b1; background: #f4f6f8; font-family: monospace;}
.chip.new {background: #ffd6d6; border-color: #d62728; font-weight: bold;}
.chip.unk {background: #444; color: #fff;}
.chip.marker {color: #6b7785;}
.word {margin-right: 1.2em; white-space: nowrap;}
</style>
"""


def ensure_navigation() -> None:
    """Run the page inside app.py's navigation, also when a deep link is the first request.

    Streamlit starts in its legacy multipage mode when a folder named pages/ exists, and
    leaves it only once some run calls st.navigation; a fresh server whose first request
    is /bpe?... would run this page alone (no page config, a raw page list). Leave the
    legacy mode and rerun: the rerun goes through app.py and lands on the same page.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


# --- URL parameters: read, and corrected, before the widget bound to them is made -------
#
# A bound widget takes its first value from the address. Streamlit 1.67 drops a value it
# cannot use without a word (or, as the step slider read the address itself, raised).
# Every parameter goes through url_int / url_float / url_choice (number_box and choice_box
# for a bound widget, with the same range) on the run that shows its widget for the first
# time in the session, when the address decides its value: a value the page cannot use
# gives one st.warning naming the parameter, the value given and the value used, and the
# value used goes into the address (a bound widget: the page reruns at once, see
# _from_url) or into st.session_state (a value the page keeps itself).


def parse_int(text: str, lo: int, hi: int, default: int) -> tuple[int, str | None]:
    """The value of an address's whole-number parameter, and why it was changed (None:
    used as given). A number out of range is moved to the nearest end, a fraction cut to
    its whole part (as Streamlit reads a slider's); anything else gives the default.

    >>> parse_int("3", 0, 7, 0), parse_int("-1", 0, 7, 0), parse_int("1e12", 0, 7, 0)
    ((3, None), (0, 'below the smallest value, 0'), (7, 'above the largest value, 7'))
    >>> parse_int("abc", 0, 7, 2), parse_int("2.5", 0, 7, 0)
    ((2, 'not a number'), (2, 'not a whole number'))
    """
    try:
        return _clamp(int(text), lo, hi, "{:,}".format)
    except ValueError:
        number = _finite(text)
    if number is None:
        return default, ("empty" if not text.strip() else "not a number")
    value, why = _clamp(int(number), lo, hi, "{:,}".format)
    return value, why or "not a whole number"


def parse_float(text: str, lo: float, hi: float, default: float) -> tuple[float, str | None]:
    """The value of an address's number parameter, and why it was changed (None: used as
    given); nan and inf are not numbers.

    >>> parse_float("1.2", 1.01, 4.0, 1.2), parse_float("nan", 1.01, 4.0, 1.2)
    ((1.2, None), (1.2, 'not a number'))
    """
    value = _finite(text)
    if value is None:
        return default, ("empty" if not text.strip() else "not a number")
    return _clamp(value, lo, hi, lambda v: f"{v:g}")


def _finite(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _clamp(value, lo, hi, show: Callable) -> tuple:
    if value < lo:
        return lo, f"below the smallest value, {show(lo)}"
    if value > hi:
        return hi, f"above the largest value, {show(hi)}"
    return value, None


def parse_choice(text: str, options: Sequence[str], default: str) -> tuple[str, str | None]:
    """An address's choice among `options` (exactly as written), and why it was changed.

    >>> parse_choice("eow", ("none", "eow"), "none"), parse_choice("EOW", ("none", "eow"), "none")
    (('eow', None), ('none', 'not one of: none, eow'))
    """
    if text in options:
        return text, None
    if not text.strip():
        return default, "empty"
    shown = ", ".join(options) if len(options) <= 12 else ", ".join(options[:12]) + ", ..."
    return default, f"not one of: {shown}"


def url_text(key: str, state_key: str | None = None) -> str | None:
    """The address's value of `key` while it still decides the widget's value: before the
    session holds one under `state_key` (the key itself for a bound widget); else None."""
    if (state_key or key) in st.session_state or key not in st.query_params:
        return None
    return st.query_params.get(key)


def url_warning(key: str, given: str, why: str, used: str = "", instead: str | None = None) -> str:
    """The one warning a parameter the page cannot use gets: the parameter, the value
    given, why (a phrase, or a sentence of the core ending in a period), and the value
    used (or `instead`: what the page does instead)."""
    given = given.replace("`", "'")
    given = given if len(given) <= 40 else given[:40] + "…"
    said = f"The address gives `{key}={given}`" if given.strip() else f"The address gives `{key}=`"
    if why == "empty":
        said += " with no value"
    elif why.endswith("."):
        said += f". {why[:-1]}"
    else:
        said += f", {why}"
    message = f"{said}; {instead or f'this page uses `{key}={used}`'} instead."
    st.warning(message)
    return message


FIXES = "url_fixes"  # session: bound parameter -> its warning, shown until a run completes


def _from_url(key: str, parse: Callable, state_key: str | None, default, show: Callable = str):
    """Check the address's `key` with `parse`; warn and correct it when the page cannot
    use it. Returns the value to use (None: the address decides nothing here).

    A parameter bound to a widget (`state_key` None) is corrected in the address, and the
    page reruns at once: the widget takes its first value from the address the run
    starts with, and drops a value it cannot use without putting the value used there.
    The warning is kept in the session and shown again until a run completes."""
    fixes = st.session_state.setdefault(FIXES, {})
    if state_key is None and key in fixes:
        st.warning(fixes[key])
    text = url_text(key, state_key)
    if text is None:
        return None
    value, why = parse(text)
    if state_key is not None:  # kept by the page itself, in the session and the address
        st.session_state[state_key] = value
        if why is not None:
            url_warning(key, text, why, show(value))
            if value == default:  # as the page keeps it: a default is not in the address
                del st.query_params[key]
            else:
                st.query_params[key] = show(value)
    elif why is None:
        return value
    elif key not in fixes:
        fixes[key] = url_warning(key, text, why, show(value))
        st.query_params[key] = show(value)
        st.rerun()
    else:  # corrected once already and still refused: use the value, do not loop
        st.session_state[key] = value
    return value


def settle_url() -> None:
    """After a page's run has completed (app.py calls this): forget the warnings about
    parameters corrected before it."""
    st.session_state.pop(FIXES, None)


def url_int(key: str, lo: int, hi: int, default: int, state_key: str | None = None) -> int:
    """The whole number the address gives for `key` (bound widget `key`, or the session's
    `state_key`), checked against [lo, hi]; else the session's value, else `default`."""
    value = _from_url(key, lambda text: parse_int(text, lo, hi, default), state_key, default)
    return st.session_state.get(state_key or key, default) if value is None else value


def url_float(
    key: str, lo: float, hi: float, default: float, state_key: str | None = None
) -> float:
    """As url_int, for a number with a fraction."""
    value = _from_url(
        key, lambda text: parse_float(text, lo, hi, default), state_key, default, "{:g}".format
    )
    return st.session_state.get(state_key or key, default) if value is None else value


def url_choice(key: str, options: Sequence[str], default: str, state_key: str | None = None) -> str:
    """As url_int, for one of `options`."""
    value = _from_url(key, lambda text: parse_choice(text, options, default), state_key, default)
    return st.session_state.get(state_key or key, default) if value is None else value


def number_box(col, label: str, key: str, lo, hi, default, step=None, help=None):
    """A number input bound to the URL as ?`key`=..., the address checked first against the
    same range; a float box when `default` is a float, else whole numbers."""
    if isinstance(default, float):
        lo, hi = float(lo), float(hi)
        url_float(key, lo, hi, default)
    else:
        lo, hi = int(lo), int(hi)
        url_int(key, lo, hi, default)
    return col.number_input(label, lo, hi, default, step, key=key, help=help, bind="query-params")


def choice_box(col, label: str, options: Sequence[str], key: str, default: str, **kwargs) -> str:
    """A select box bound to the URL as ?`key`=..., the address checked first."""
    url_choice(key, options, default)
    index = list(options).index(default)
    return col.selectbox(label, options, index=index, key=key, bind="query-params", **kwargs)


def limit_help(name: str, text: str = "") -> str:
    """A widget's help: `text`, then the web limit of `name` and its reason."""
    said = limits.describe(name)
    return f"{text} {said[0].upper()}{said[1:]}.".strip()


def widget_key(page: str, name: str) -> str:
    """The key of a widget (or a value kept in the session) that is not bound to the URL.

    Every such key is made here: it starts with its page, so two pages never share one, and
    tests/test_app_keys.py checks that no two places make the same name on one page.
    Widgets bound to the URL (bind="query-params") keep their parameter name as key.

    >>> widget_key("bpe", "encode")
    'bpe_encode'
    """
    if page not in PAGES:
        raise ValueError(f"Widget keys start with a page ({', '.join(PAGES)}), not {page!r}.")
    return f"{page}_{name}"


def current_page() -> str:
    """The URL path of the page running now ('bpe', 'sage', ...): the prefix of its keys."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    pages = get_script_run_ctx().pages_manager
    return pages.get_pages()[pages.current_page_script_hash]["url_pathname"]


def corpus_label(name: str) -> str:
    """How a corpus name reads in a select box."""
    infos = {info.name: info for info in corpus.list_corpora()}
    if name in infos:
        return f"{name} — {infos[name].title}"
    return {"text:your own": "your own text", "upload:a .txt file": "upload a .txt file"}[name]


def corpus_options(samples: bool = True) -> list[str]:
    names = [info.name for info in corpus.list_corpora()]
    if not samples:
        names = [n for n in names if corpus.is_toy(n)]
    return [*names, TEXT, UPLOAD]


@st.cache_data(show_spinner=False)
def cached_load(name: str, split_punct: bool = False) -> corpus.WordCounts:
    return corpus.load(name, split_punct)


def is_sample(name: str) -> bool:
    """A real sample shipped in a package: the same words for every session."""
    return name not in (TEXT, UPLOAD) and not corpus.is_toy(name)


@st.cache_data(show_spinner=False)
def sample_print(name: str, split_punct: bool) -> str:
    """The fingerprint of a real sample's word counts, computed once (pickling them on
    every run costs some 7 ms on the Lee sample)."""
    return fingerprint(cached_load(name, split_punct))


def punct_box(prefix: str) -> bool:
    return st.checkbox(
        "split punctuation off as separate words",
        key=widget_key(prefix, "punct"),
        help="By default words are split at spaces only, so 'fox.' is one word.",
    )


def corpus_editor(name: str, prefix: str) -> corpus.WordCounts | None:
    """Show the chosen corpus so the student can edit it; return its word counts.

    Toy tables are editable in place, free text goes in a text box, a file is uploaded.
    Returns None (after an st.error) when the input cannot be used.
    """
    try:
        if corpus.is_toy(name):
            info = next(i for i in corpus.list_corpora() if i.name == name)
            st.caption(f"Source: {info.source}. Edit the table to try your own words.")
            rows = pd.DataFrame(cached_load(name).items(), columns=["word", "count"])
            edited = st.data_editor(
                rows,
                num_rows="dynamic",
                key=widget_key(prefix, f"table_{name}"),
                hide_index=True,
                width="stretch",
            )
            return corpus.from_pairs(edited.itertuples(index=False), name)
        if name == TEXT:
            text = st.text_area("Your text", DEFAULT_TEXT, key=widget_key(prefix, "text"))
            return corpus.from_text(text, punct_box(prefix), name="your text")
        if name == UPLOAD:
            upload = st.file_uploader(
                "A UTF-8 .txt file (20 MB at most)", key=widget_key(prefix, "upload")
            )
            if upload is None:
                st.info("Upload a file to train on it.")
                return None
            text = read_upload(upload)
            return None if text is None else corpus.from_text(text, punct_box(prefix), upload.name)
        split = punct_box(prefix)
        with st.spinner(f"Reading {name} from the gensim package ..."):
            wc = cached_load(name, split)
        st.caption(f"{wc.total:,} running words, {len(wc):,} distinct.")
        return wc
    except ValueError as err:
        st.error(str(err))
        return None


def read_upload(upload) -> str | None:
    """The text of an uploaded file; None after an st.error with the core's sentence when
    it is no UTF-8 text (binary, another encoding, empty, over 20 MB)."""
    try:
        return corpus.decode_upload(upload.getvalue(), upload.name)
    except ValueError as err:
        st.error(str(err))
        return None


def step_slider(
    last: int,
    key: str = "step",
    label: str = "step (0 = before the first merge)",
    page: str | None = None,
) -> int:
    """A step slider bound to the URL as ?`key`=i, with previous/next buttons beside it
    (keyed by `page`: the page running now unless given)."""
    # on the first run of a deep link the value is still only in the URL; later the
    # session's value, kept within the steps of a run that may have become shorter
    current = min(url_int(key, 0, max(last, 0), 0), max(last, 0))
    st.session_state[key] = current
    if last < 1:
        return 0

    def move(by: int) -> None:
        st.session_state[key] = max(0, min(last, st.session_state[key] + by))

    page = page or current_page()
    left, mid, right = st.columns([1, 8, 1], vertical_alignment="bottom")
    left.button(
        "◀ previous",
        on_click=move,
        args=(-1,),
        key=widget_key(page, f"{key}_prev"),
        disabled=current <= 0,
        width="stretch",
    )
    right.button(
        "next ▶",
        on_click=move,
        args=(1,),
        key=widget_key(page, f"{key}_next"),
        disabled=current >= last,
        width="stretch",
    )
    return mid.slider(label, 0, last, key=key, bind="query-params")


def chips(
    symbols: Iterable[str], highlight: Iterable[str] = (), markers: Iterable[str] = ()
) -> str:
    """Symbols as HTML chips; highlighted ones red, markers grey, [UNK] dark."""
    highlight, markers = set(highlight), set(markers)
    parts = []
    for sym in symbols:
        cls = "chip"
        if sym == "[UNK]":
            cls += " unk"
        elif sym in highlight:
            cls += " new"
        elif sym in markers:
            cls += " marker"
        parts.append(f'<span class="{cls}">{html.escape(sym)}</span>')
    return "".join(parts)


def show_chips(rows: str) -> None:
    st.markdown(CHIP_CSS + f'<div class="chips">{rows}</div>', unsafe_allow_html=True)


class TraceStore(Store):
    """The server-wide store (subtok_core.store: single flight, a byte budget) with a
    progress bar: the session that trains a run and every session waiting for it see it.

    st.cache_data cannot hold a run that draws a progress bar while it trains (it would
    replay the bar on every hit), so runs are trained outside it and kept here instead.
    """

    def trained(self, key: Hashable, compute: Callable, label: str):
        """The run under `key`, trained here or by another session, with a progress bar
        (or read from the disk cache, without one)."""
        name = label.rstrip(": ")  # what the run is, in the server's log
        done = self.cached(key, name)
        if done is not None:
            return done
        holder = st.empty()
        bar = holder.progress(0.0, text=label)

        def show(done: int, total: int) -> None:
            bar.progress(min(1.0, done / max(total, 1)), text=f"{label} {done:,} of {total:,}")

        try:
            return self.get(key, compute, show, name)
        finally:
            holder.empty()

    def key_of(self, run) -> str | None:
        """The key `run` is kept under, as a digest (what the page caches of pages._cached
        are keyed by); None when the store does not keep it. Found by identity: a page
        holds the run it got from here, so no other object can have taken its place."""
        with self.lock:
            key = next((k for k, (kept, _size) in self.runs.items() if kept is run), None)
        return key if key is None or isinstance(key, str) else fingerprint(key)


def fingerprint(*parts) -> str:
    """What every page cache is keyed by: a digest of what its result depends on, the trace
    or model (or the corpus and the settings it was trained with) and the text it is
    measured on. A cached function that takes an unhashed `_argument` takes this beside it.

    Pickling a big input costs time (a real sample: some 20 ms), so a page hashes it once
    per run and passes the digest on; a digest is a short string, cheap to hash again.

    >>> fingerprint("bpe", 10) == fingerprint("bpe", 10) != fingerprint("bpe", 11)
    True
    """
    return hashlib.md5(pickle.dumps(parts)).hexdigest()


def run_key(run) -> str | None:
    """The key of `run` (a trace) in the server-wide store, None when it is not kept (then
    the pieces drawn from it are not cached, see pages._cached)."""
    return trace_store().key_of(run)


@st.cache_resource
def trace_store() -> TraceStore:
    """One store for the whole server, shared by every session and page, with a copy of
    each run on disk (SUBTOK_CACHE_DIR, see subtok_core.diskcache) for the next server;
    each training it does is logged on the server (logger subtok_core.store)."""
    log = logging.getLogger("subtok_core")
    if not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    return TraceStore(disk=diskcache.from_env())


# --- pieces every merge lesson (BPE, WordPiece) shows the same way -------------------

TIES_HELP = (
    "first: the pair seen first in the corpus (reproduces the course material). "
    "lex: the alphabetically smallest pair. tokenizers: the pair with the oldest symbols, "
    "as Hugging Face tokenizers."
)
MARKERS = ("</w>", "\u2581")


def corpus_select(col, default: str | None = None) -> str:
    """The corpus choice, bound to the URL as ?corpus=NAME (`default` when the URL has none)."""
    options = corpus_options()
    name = choice_box(
        col, "corpus", options, "corpus", default if default in options else options[0]
    )
    col.caption(corpus_label(name))
    return name


def ties_select(col, rules: tuple[str, ...]) -> str:
    return choice_box(col, "tie rule", rules, "ties", rules[0], help=TIES_HELP)


def merges_input(col) -> int:
    top = limits.limit("merges", "web")
    return int(number_box(col, "merges", "merges", 0, top, 10, 1, limit_help("merges")))


def status_of(pair: tuple[str, str], chosen, tied) -> str:
    return "merged" if pair == chosen else "tied" if pair in tied else ""


STATUS_CSS = {
    "merged": "background-color: #ffd6d6; font-weight: bold",
    "pruned": "background-color: #ffd6d6; font-weight: bold",
    "tied": "background-color: #ffe8cc",
}


def style_status(df: pd.DataFrame):
    """Merged (or pruned) rows red, tied rows orange (the whole table styled at once: a
    function per row costs some 0.3 ms a row, a third of a second for a big vocabulary)."""

    def paint(table: pd.DataFrame) -> pd.DataFrame:
        css = table["status"].map(STATUS_CSS).fillna("").astype(object)
        return pd.DataFrame({column: css for column in table.columns}, index=table.index)

    return df.style.apply(paint, axis=None)


def show_corpus(rows, total_words: int, highlight: set[str]) -> None:
    """Each word as chips with its count; the newest symbol highlighted."""
    lines = [
        f'<div class="word">{chips(seg, highlight, MARKERS)} <small>× {count}</small></div>'
        for _word, count, seg in rows
    ]
    show_chips("".join(lines))
    if total_words > len(rows):
        st.caption(f"The first {len(rows)} of {total_words:,} distinct words.")


def show_vocab(vocab, highlight: set[str]) -> None:
    shown = vocab if len(vocab) <= 300 else vocab[:60] + vocab[-240:]
    show_chips(chips(shown, highlight, MARKERS))
    if len(vocab) > len(shown):
        st.caption(f"{len(vocab):,} symbols: the first 60 and the newest 240 are shown.")


def growth_frame(trace) -> pd.DataFrame:
    """Vocabulary size and corpus length before the first step and after each one."""
    rows = [
        {
            "step": 0,
            "vocab_size": len(trace.start.vocab),
            "corpus_symbols": trace.start.corpus_symbols,
        }
    ]
    rows += [
        {"step": s.number, "vocab_size": s.vocab_size, "corpus_symbols": s.corpus_symbols}
        for s in trace.steps
    ]
    return pd.DataFrame(rows)


def growth_chart(trace, i: int) -> None:
    """Vocabulary size against corpus length over the whole run, step i marked."""
    st.subheader("Vocabulary grows, the corpus shrinks")
    cached.chart(
        run_key(trace), ("growth",), lambda: viz.vocab_growth_chart(growth_frame(trace), i), i
    )


def predict_panel(trace, i: int, judge: Callable, pair_text: Callable, prefix: str) -> None:
    """The student picks the pair merged next; `judge(guess, step)` says right or wrong."""
    st.subheader("Predict the next merge")
    if i >= len(trace.steps):
        st.write("This was the last merge: nothing left to predict.")
        return
    nxt = trace.steps[i]
    options = sorted({(row[0], row[1]) for row in nxt.pair_table})
    guess = st.selectbox(
        f"Look at the corpus after merge {i}: which pair will merge next?",
        options,
        index=None,
        format_func=pair_text,
        key=widget_key(prefix, f"guess_{i}"),
        placeholder="pick a pair",
    )
    if guess is not None:
        right, why = judge(guess, nxt)
        (st.success if right else st.warning)(why)


def downloads(
    trace,
    prefix: str,
    csv: tuple[str, Callable] = ("merges (CSV)", export.steps_csv),
    full: bool | None = None,
) -> None:
    """A CSV of the steps (`csv`: its button label and writer) and the trace as JSON (the
    full snapshots unless the trace is compact, or as `full` says), written only when a
    button is clicked."""
    st.subheader("Download")
    left, right = st.columns(2)
    label, write = csv
    left.download_button(
        label,
        lambda: write(trace),
        f"{prefix}_{label.split()[0]}.csv",
        "text/csv",
        key=widget_key(prefix, "dl_csv"),
        on_click="ignore",
    )
    right.download_button(
        "whole trace (JSON)",
        lambda: export.trace_to_json(trace, full=not trace.compact if full is None else full),
        f"{prefix}_trace.json",
        "application/json",
        key=widget_key(prefix, "dl_json"),
        on_click="ignore",
    )


def punct_on(prefix: str) -> bool:
    """Whether the corpus was pre-tokenized with punctuation split off (toys never are)."""
    return not corpus.is_toy(st.session_state.get("corpus", "")) and bool(
        st.session_state.get(widget_key(prefix, "punct"), False)
    )


def corpus_trace_step(name: str, prefix: str, train: Callable, label: str | None = None):
    """The corpus panel, the trained trace and the step slider:
    (wc, corpus_print, trace, i, step), where corpus_print is the corpus's fingerprint,
    hashed once per run; `train(wc, corpus_print)` gives the trace.

    Stops the page (after an st.error) when the corpus or the settings cannot be used.
    """
    with st.expander("The corpus", expanded=not name.startswith("sample:")):
        wc = corpus_editor(name, prefix)
    if wc is None:
        st.stop()
    corpus_print = sample_print(name, punct_on(prefix)) if is_sample(name) else fingerprint(wc)
    try:
        trace = train(wc, corpus_print)
    except ValueError as err:
        st.error(str(err))
        st.stop()
    if trace.truncated:
        st.warning(trace.stop_reason)
    last = len(trace.steps)
    i = step_slider(last, label=label, page=prefix) if label else step_slider(last, page=prefix)
    return wc, corpus_print, trace, i, (trace.steps[i - 1] if i else None)


def lazy_expander(label: str, page: str, name: str):
    """A closed expander (keyed `name` on `page`) whose content the page runs only while it
    is open (opening it reruns the page): for a panel that costs more than the rest of the
    page. Use as ``with lazy_expander(...) as box:`` then ``if box.open:``. Its widgets are
    not drawn while it is closed, so they start again from their defaults when reopened."""
    return st.expander(label, key=widget_key(page, f"{name}_open"), on_change="rerun")


def table_panel(title: str, note: str, table: pd.DataFrame, trace, chart, **options) -> None:
    """The pair table of a step (merged and tied rows colored) and its bar chart."""
    st.subheader(title)
    if trace.compact:
        st.caption(note)
    height = min(420, 38 + 35 * len(table))
    st.dataframe(style_status(table), hide_index=True, height=height, **options)
    if len(table):
        cached.altair(chart)


def corpus_and_vocab(trace, i: int, highlight: set[str], algo) -> None:
    """The corpus after step i and the vocabulary, read from `algo` (bpe or wordpiece);
    drawn once per run and step (`highlight` is the step's new symbol)."""

    def draw() -> None:
        st.subheader("Corpus" + (f" after merge {i}" if i else ""))
        show_corpus(algo.corpus_at(trace, i), len(trace.start.words), highlight)
        vocab = algo.model_from_trace(trace, i).vocab
        st.subheader(f"Vocabulary ({len(vocab):,} symbols)")
        show_vocab(vocab, highlight)

    cached.drawn(run_key(trace), (algo.__name__, "corpus", i, tuple(sorted(highlight))), draw)
