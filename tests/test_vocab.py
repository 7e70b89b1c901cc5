"""Vocabulary health, merge trees and token cards (subtok_core/vocab), against the
tokenizers' own libraries computing the same categories id by id."""

from collections import Counter

import pytest

from subtok_core import compare, corpus, registry
from subtok_core.bpe import BpeModel
from subtok_core.pretrained import files
from subtok_core.vocab.card import token_card, tree_of
from subtok_core.vocab.health import CATEGORIES, SENTENCES, health
from subtok_core.vocab.table import pretrained_table
from subtok_core.vocab.trained import trained_table
from subtok_core.vocab.trees import walk


def brute_force_tiktoken(encoding, ids, special_ids, offset=0) -> dict[int, str]:
    """Each id's category, straight from a tiktoken Encoding: special, partial (its bytes
    are no UTF-8), unreachable (encode_ordinary of its text is not [id]) or ok."""
    found = {}
    for token_id in ids:
        if token_id in special_ids:
            found[token_id] = "special"
            continue
        data = encoding.decode_single_token_bytes(token_id - offset)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            found[token_id] = "partial"
            continue
        same = [i + offset for i in encoding.encode_ordinary(text)] == [token_id]
        found[token_id] = "ok" if same else "unreachable"
    return found


def ours(name: str) -> dict[int, str]:
    report = health(pretrained_table(name))
    return dict(zip(report.table.ids, report.category, strict=True))


@pytest.mark.slow
def test_cl100k_categories_equal_tiktoken_id_by_id(tiktoken_cl100k):
    enc = tiktoken_cl100k
    specials = {enc.encode_single_token(s) for s in enc.special_tokens_set}
    defined = [i for i in range(enc.max_token_value + 1) if _defined(enc, i, specials)]
    expected = brute_force_tiktoken(enc, defined, specials)
    assert ours("cl100k_base") == expected
    assert Counter(expected.values())["special"] == 5


def _defined(enc, token_id: int, specials: set[int]) -> bool:
    """Whether cl100k_base defines an id (100256 and 100261-100275 are gaps)."""
    if token_id in specials:
        return True
    try:
        enc.decode_single_token_bytes(token_id)
    except KeyError:
        return False
    return True


@pytest.mark.slow
def test_tekken_categories_equal_tiktoken_id_by_id():
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    tekken = Tekkenizer.from_file(str(files.locate("tekken")))
    count = tekken.num_special_tokens
    ids = range(tekken.n_words)
    expected = brute_force_tiktoken(tekken._model, ids, set(range(count)), offset=count)
    assert ours("tekken") == expected
    assert Counter(expected.values())["special"] == 1000


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mistral-v1", "mistral-v3"])
def test_sentencepiece_categories_equal_sentencepiece_id_by_id(name):
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2

    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(files.locate(name).read_bytes())
    proto.normalizer_spec.add_dummy_prefix = False  # the piece's text alone, no ▁ before it
    sp = spm.SentencePieceProcessor(model_proto=proto.SerializeToString())
    expected = {}
    for i in range(sp.get_piece_size()):
        piece = sp.id_to_piece(i)
        if sp.is_control(i) or sp.is_unknown(i) or sp.is_unused(i):
            expected[i] = "special"
            continue
        data = bytes.fromhex(piece[3:5]) if sp.is_byte(i) else piece.replace("▁", " ").encode()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            expected[i] = "partial"
            continue
        expected[i] = "ok" if sp.encode(text) == [i] else "unreachable"
    assert ours(name) == expected
    counts = Counter(expected.values())
    assert counts["partial"] == 128  # the byte-fallback pieces <0x80> to <0xFF>


@pytest.mark.slow
def test_trained_bpe_unused_equal_a_recount_on_its_corpus():
    wc = corpus.load("sample:lee")
    model = compare.train("bpe", wc, 2000)
    report = health(trained_table(model), model=model, wc=wc)
    # recount: the whole corpus text encoded by the model's own segment, piece by piece
    used = Counter()
    for line in corpus.load_lines("sample:lee"):
        if line.strip():
            used.update(registry.get("bpe").segment(model, line).pieces)
    expected = {p for p in model.vocab if used[p] == 0}
    assert {model.vocab[k] for k in report.unused} == expected
    assert expected  # the merges leave intermediate tokens behind on a real sample


def test_unreachable_bpe_token_by_hand():
    """Merges a+b, b+c, then a+bc: 'abc' is in the vocabulary, but replaying the merges on
    a, b, c makes ab first, and (ab, c) is no merge, so 'abc' never comes out."""
    alphabet = ("a", "b", "c")
    model = BpeModel((("a", "b"), ("b", "c"), ("a", "bc")), (*alphabet, "ab", "bc", "abc"),
                     alphabet, "none")  # fmt: skip
    report = health(trained_table(model))
    assert dict(zip(model.vocab, report.category)) == {
        "a": "ok", "b": "ok", "c": "ok", "ab": "ok", "bc": "ok", "abc": "unreachable",
    }  # fmt: skip
    card = token_card(trained_table(model), 5, model=model)
    assert card.alone_pieces == ("ab", "c") and card.tree is None and card.step == 3


@pytest.mark.slow
def test_every_cl100k_tree_rebuilds_its_bytes_with_its_id_at_the_root():
    table = pretrained_table("cl100k_base")
    for k, (token_id, data) in enumerate(zip(table.ids, table.data, strict=True)):
        if data is None:
            continue
        tree = tree_of(table, k)
        assert tree is not None, token_id
        assert (
            b"".join(n.part for _, n in walk(tree) if n.leaf) == data and tree.rank == token_id
        ), token_id


def test_unigram_card_has_score_and_words():
    """A Unigram model written by hand over toy:run-bug (run 3, bug 5, fun 13, sun 10):
    each letter log P = -3, 'un' -2, 'ug' -2.5, 'run' -4. Viterbi by hand: run = run (-4
    beats r + un = -5), bug = b + ug (-5.5 beats b + u + g = -9), fun = f + un and sun =
    s + un (-5 each). So the card of 'un' says its score, -2, that the tokenizer uses it
    13 + 10 = 23 times, and the words fun and sun (most frequent first), not run."""
    from subtok_core.unigram import UnigramModel
    from subtok_core.vocab.trained import usage

    wc = corpus.load("toy:run-bug")
    alphabet = ("b", "f", "g", "n", "r", "s", "u")
    model = UnigramModel(
        (*alphabet, "un", "ug", "run"), (*[-3.0] * len(alphabet), -2.0, -2.5, -4.0), alphabet
    )
    table = trained_table(model)
    card = token_card(table, model.pieces.index("un"), model=model, used=usage(model, wc), wc=wc)
    assert card.piece == "un" and card.score == -2.0 and card.frequency == 23
    assert card.words == (("fun", 13, ("f", "un")), ("sun", 10, ("s", "un")))


def test_every_category_has_a_sentence_and_bad_ids_are_refused():
    assert set(SENTENCES) == {*CATEGORIES, "unused", "never in UTF-8"}
    table = pretrained_table("cl100k_base")
    with pytest.raises(ValueError, match="no token with id 100256"):
        token_card(table, 100256)


def test_unigram_piece_beaten_by_its_parts_is_unreachable():
    """log P(a) + log P(b) = -2 > log P(ab) = -3: Viterbi cuts 'ab' into a + b."""
    from subtok_core.unigram import UnigramModel

    model = UnigramModel(("a", "b", "ab"), (-1.0, -1.0, -3.0), ("a", "b"))
    report = health(trained_table(model))
    assert report.category == ("ok", "ok", "unreachable")
    assert token_card(trained_table(model), 2, model=model).alone_pieces == ("a", "b")


def test_wordpiece_longest_match_reaches_every_piece():
    """Longest match first takes a whole piece that is in the vocabulary, so every piece
    (a ## piece read as the inside of a word) comes out alone."""
    from subtok_core.wordpiece import WordPieceModel

    vocab = ("a", "b", "##a", "##b", "ab", "##ab")
    report = health(trained_table(WordPieceModel(vocab, ("a", "b"))))
    assert report.category == ("ok",) * 6
