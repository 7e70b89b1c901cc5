"""AppTest: sessions side by side in one process, the caches shared on purpose (nothing is
cleared between them), and widgets of one page that used to share a key.

The Compare page measures the SaGe vocabulary the SaGe page last trained in the session;
its caches are server-wide, so they must be keyed by that vocabulary: a class that
retrained SaGe to 120 pieces saw the numbers of the 150-piece run of another session.
"""

import ast
from pathlib import Path

import pytest
from apptools import APP, open_page
from streamlit.testing.v1 import AppTest

from lessons.sage.latest import LATEST
from subtok_core import compare, corpus, sage
from subtok_core import measure as metrics
from subtok_core.unigram.seed import SEEDS

SAMPLE, SIZE = "sample:crime", 150  # 19 Russian sentences: quick to train and to measure


@pytest.fixture(scope="module")
def sage_models() -> tuple[sage.SageModel, sage.SageModel]:
    """Two SaGe vocabularies of the sample: 150 pieces, and the first 120 of them (every
    character is among the first 73, so both encode the whole sample)."""
    pieces = compare.train("bpe", corpus.load(SAMPLE), SIZE).vocab
    return sage.SageModel(tuple(pieces)), sage.SageModel(tuple(pieces[:120]))


def true_tokens(model: sage.SageModel) -> int:
    """The tokens `model` needs for the whole sample, computed without the page."""
    lines = list(corpus.load_lines(SAMPLE))
    return metrics.efficiency(metrics.tokenize_with(model, lines, "SaGe")).tokens


def latest(model: sage.SageModel) -> dict:
    """What the SaGe page leaves in the session after a run."""
    return {"model": model, "sample": SAMPLE, "size": len(model.vocab)}


def compare_with(model: sage.SageModel) -> AppTest:
    """A new session whose SaGe page trained `model`, on the Compare page with BPE and SaGe."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state[LATEST] = latest(model)
    for name, value in {"corpus": SAMPLE, "size": str(SIZE), "tok": "bpe,sage"}.items():
        at.query_params[name] = value
    at.run()
    at.switch_page("lessons/compare/page.py").run()
    assert not at.exception, at.exception
    return at


def sage_tokens(at: AppTest) -> int:
    summary = next(df.value for df in at.dataframe if "tokens per word" in df.value.columns)
    return int(summary.set_index("tokenizer").loc["SaGe", "tokens"])


@pytest.mark.slow  # SaGe on a real sample
def test_two_sessions_each_measure_the_sage_vocabulary_they_trained(sage_models):
    big, small = sage_models
    assert true_tokens(big) != true_tokens(small)
    first = compare_with(big)
    second = compare_with(small)  # same corpus, size and text: only the vocabulary differs
    assert sage_tokens(first) == true_tokens(big)
    assert sage_tokens(second) == true_tokens(small)
    first.run()  # and the first session still sees its own
    assert sage_tokens(first) == true_tokens(big)


@pytest.mark.slow  # SaGe on a real sample
def test_retraining_sage_changes_the_numbers_compare_shows(sage_models):
    big, small = sage_models
    at = compare_with(big)
    at.session_state[LATEST] = latest(small)  # the SaGe page ran again, V = 120
    at.run()
    assert not at.exception
    assert sage_tokens(at) == true_tokens(small)
    assert any("V = 120" in info.value for info in at.info)


@pytest.mark.slow  # compare trains twice
def test_your_own_text_on_compare_has_its_own_box_beside_the_text_to_encode():
    """The corpus editor's box and the box of the text to encode once shared one key."""
    mine, typed = "low lower lowest newer newest wider", "slowest"
    at = open_page(
        "lessons/compare/page.py", corpus="text:your own", size="30", tok="bpe,wordpiece"
    )
    at.text_area(key="compare_text").input(mine).run()
    at.text_area(key="compare_encode").input(typed).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.text_area(key="compare_text").value == mine
    bpe = compare.train("bpe", corpus.from_text(mine, False, name="your text"), 30)
    spans = compare.encode(bpe, typed).spans
    line = next(m.value for m in at.markdown if m.value.startswith("**BPE**"))
    assert line.startswith(f"**BPE**: {len(spans)} tokens")
    assert all(f">{span.text}<" in line for span in spans)


def by_label(widgets, label: str):
    """The widget with this label (found by what the student reads, whatever its key)."""
    return next(widget for widget in widgets if widget.label == label)


@pytest.mark.slow  # a long AppTest (fast tier: README)
def test_the_sage_seed_does_not_leak_into_the_unigram_seed_vocabulary():
    """The SaGe page binds ?seed= to Word2Vec's seed (a number); Unigram's seed vocabulary
    once had the same key and showed that number as its choice."""
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in {"corpus": "sample:crime", "V": "60", "seed": "3"}.items():
        at.query_params[name] = value  # V = 60 is refused at once: no run needed
    at.run()
    at.switch_page("lessons/sage/page.py").run()
    assert at.number_input(key="seed").value == 3
    at.switch_page("lessons/unigram/page.py").run()
    assert not at.exception
    assert by_label(at.selectbox, "seed vocabulary").value == SEEDS[0]
    at.selectbox(key="corpus").set_value("toy:hug-pug").run()
    by_label(at.selectbox, "seed vocabulary").set_value("frequent").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert by_label(at.number_input, "seed size").value == 5000
    assert by_label(at.selectbox, "seed vocabulary").value == "frequent"


@pytest.mark.parametrize(("value", "shown"), [("frequent", "frequent"), ("3", SEEDS[0])])
def test_the_unigram_seed_vocabulary_keeps_its_url_name(value, shown):
    at = open_page("lessons/unigram/page.py", corpus="toy:run-bug", seed=value)
    assert by_label(at.selectbox, "seed vocabulary").value == shown
    assert not at.error, [e.value for e in at.error]


def cached_functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef) and any(
            "cache_" in ast.unparse(decorator) for decorator in node.decorator_list
        ):
            yield node


# what a cached function names the digest of an argument it does not hash (a model, a
# trace): subtok_core.keys.fingerprint of it, or the store's key of the run (run_key)
DIGESTS = {"fingerprint", "model_print", "run", "digest"}
# unhashed arguments that are not values the result depends on: what draws the cached
# elements (keyed by the run and the piece), a progress callback
NOT_VALUES = {"_draw", "_progress"}
PAGE_FILES = sorted(
    str(path.relative_to(Path(__file__).parents[1] / "lessons"))
    for path in (Path(__file__).parents[1] / "lessons").rglob("*.py")
)


def test_the_pages_have_cached_functions_to_check():
    assert "bpe/page.py" in PAGE_FILES and "ui/store.py" in PAGE_FILES
    checked = [f for file in PAGE_FILES for f in cached_functions(lessons_file(file))]
    assert len(checked) >= 20, [f.name for f in checked]


@pytest.mark.parametrize("file", PAGE_FILES)
def test_a_cache_that_does_not_hash_an_argument_is_keyed_by_its_fingerprint(file):
    """st.cache_* skips arguments named _x; what they change must reach the key through a
    digest argument (subtok_core.keys.fingerprint of the model or trace, or run_key)."""
    for function in cached_functions(lessons_file(file)):
        names = [arg.arg for arg in function.args.args]
        if any(name.startswith("_") and name not in NOT_VALUES for name in names):
            assert DIGESTS & set(names), f"{file}: {function.name}({', '.join(names)})"


def lessons_file(file: str) -> Path:
    return Path(__file__).parents[1] / "lessons" / file


def hf_json(vocab_size: int) -> bytes:
    """A BPE tokenizer.json trained by Hugging Face tokenizers on the sample."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=["[UNK]"], show_progress=False
    )
    tok.train_from_iterator(corpus.load_lines(SAMPLE), trainer)
    return tok.to_str().encode()


@pytest.mark.slow  # two uploads measured
def test_two_sessions_uploading_files_of_one_name_each_measure_their_own():
    """Compare's measures, charts and pairwise tables are shared by every session; an
    uploaded tokenizer.json is known by its content, not its name."""
    from tokenizers import Tokenizer

    files = {size: hf_json(size) for size in (300, 120)}
    lines = list(corpus.load_lines(SAMPLE))
    words = [word for line in lines for word in line.split()]
    truth = {  # the page measures word by word: tokenizers' own count, word by word
        size: sum(len(Tokenizer.from_str(data.decode()).encode(w).tokens) for w in words)
        for size, data in files.items()
    }
    assert truth[300] != truth[120]
    for size in (300, 120, 300):  # each session after one that uploaded the other file
        at = open_page(
            "lessons/compare/page.py", corpus=SAMPLE, size=str(SIZE), tok="bpe,cl100k_base"
        )
        upload = ("mine.json", files[size], "text/json")
        at.file_uploader(key="compare_hf_file").set_value(upload).run()
        at.multiselect(key="compare_tok").set_value(["bpe", "hf:mine.json"]).run()
        assert not at.exception  # (its pieces cannot be matched to BPE's ▁ ones: an st.error)
        summary = next(df.value for df in at.dataframe if "tokens per word" in df.value.columns)
        shown = summary.set_index("tokenizer").loc["mine.json (tokenizers)", "tokens"]
        assert int(shown) == truth[size]
