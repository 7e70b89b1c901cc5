"""The command line: train a tokenizer, encode with a saved model, list the corpora.

Run it as ``subtok ...`` (after installing) or ``python -m subtok_core ...``.

>>> main(["train", "bpe", "--corpus", "toy:cat-bat", "--merges", "2"])
  #  pair        new symbol  count  ties
  1  a + t       at             20
  2  a + g       ag             16
Reached the 2 merges asked for. Vocabulary: 8 symbols.
0

Errors (a bad corpus name, a vocab size below the alphabet, a missing model file) print
``error: <sentence>`` on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from dataclasses import replace

from . import bpe, corpus, export, sage, unigram, wordpiece
from .compare import algorithm_of
from .steps import Trace
from .unigram_seed import SEEDS

EXIT_ERROR = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="subtok", description="Subword tokenization lab: train, encode, list corpora."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_train(commands)
    _add_encode(commands)
    listing = commands.add_parser("corpora", help="list the built-in corpora and samples")
    listing.set_defaults(run=_run_corpora)
    return parser


def _add_train(commands) -> None:
    train = commands.add_parser("train", help="train a tokenizer on a corpus")
    algorithms = train.add_subparsers(dest="algorithm", metavar="ALGORITHM", required=True)
    bpe_cmd = algorithms.add_parser("bpe", help="byte-pair encoding, one merge at a time")
    _add_corpus_and_size(bpe_cmd)
    bpe_cmd.add_argument(
        "--marker", choices=bpe.MARKERS, default="none", help="word-boundary marker (default: none)"
    )
    _add_ties_and_output(bpe_cmd, "add every step's pair table (and segmentations on toys)")
    bpe_cmd.set_defaults(run=_run_train_bpe)
    wp_cmd = algorithms.add_parser("wordpiece", help="WordPiece, merging the best-scoring pair")
    _add_corpus_and_size(wp_cmd)
    wp_cmd.add_argument(
        "--prefix", default=wordpiece.PREFIX, help="prefix of word-internal pieces (default: ##)"
    )
    wp_cmd.add_argument(
        "--special-tokens",
        action="store_true",
        help="put [PAD] [UNK] [CLS] [SEP] [MASK] at the front of the vocabulary",
    )
    _add_ties_and_output(wp_cmd, "add every step's scored pair table (and segmentations on toys)")
    wp_cmd.set_defaults(run=_run_train_wordpiece)
    _add_unigram(algorithms)
    _add_sage(algorithms)


def _add_unigram(algorithms) -> None:
    cmd = algorithms.add_parser("unigram", help="Unigram LM: prune a big seed vocabulary")
    cmd.add_argument("--corpus", required=True, help="toy:NAME, sample:NAME or a .txt path")
    cmd.add_argument("--variant", choices=unigram.VARIANTS, default="textbook")
    cmd.add_argument("--vocab-size", type=int, help="stop at N pieces (default: the characters)")
    seed = cmd.add_mutually_exclusive_group()
    seed.add_argument("--seed", choices=SEEDS, default="all", help="textbook seed")
    seed.add_argument(
        "--strict", dest="seed", action="store_const", const="strict",
        help="seed with strict substrings only, as the 001 slides",
    )  # fmt: skip
    cmd.add_argument("--seed-size", type=int, help="pieces in a 'frequent' (or EM) seed")
    cmd.add_argument("--max-piece-len", type=int, help="longest seed piece, in characters")
    cmd.add_argument("--log-base", choices=("e", "10"), default="e", help="textbook loss base")
    cmd.add_argument(
        "--prune-percent", type=float, default=10.0, help="textbook: %% pruned per round"
    )
    cmd.add_argument(
        "--remove", action="append", default=[], metavar="PIECE",
        help="textbook: remove this piece in the next round (repeat for later rounds)",
    )  # fmt: skip
    cmd.add_argument("--shrink", type=float, help="EM: share of pieces kept per round (0.75)")
    cmd.add_argument("--em-iterations", type=int, help="EM: E/M pairs per round (2)")
    cmd.add_argument(
        "--split-punct", action="store_true", help="split punctuation off words before counting"
    )
    cmd.add_argument("--json", action="store_true", help="print the trace as JSON")
    cmd.add_argument("--full", action="store_true", help="with --json: add frequencies")
    cmd.add_argument("--out", metavar="FILE", help="save the trained model as JSON")
    cmd.set_defaults(run=_run_train_unigram)


def _add_sage(algorithms) -> None:
    """SaGe's options carry the paper's names: --k, --M, --m and --l (case matters)."""
    cmd = algorithms.add_parser("sage", help="SaGe: prune a big BPE vocabulary by context loss")
    cmd.add_argument("--corpus", required=True, help="toy:NAME, sample:NAME or a .txt path")
    cmd.add_argument("--limit", type=int, metavar="N", help="use only the first N lines")
    default = sage.SageSettings()
    options = [
        ("--vocab-size", "vocab_size", int, f"final vocab size V (default: {default.vocab_size})"),
        ("--initial-size", "initial_size", int, "BPE size to start from (default: round(n x V))"),
        ("--n", "n", float, f"overshoot factor without --initial-size (default: {default.n})"),
        ("--k", "k", int, f"pieces pruned per step (default: {default.k})"),
        ("--M", "M", int, f"size of the candidate set (default: {default.M})"),
        ("--m", "m", int, f"recompute every score every m steps (default: {default.m})"),
        ("--l", "l", int, f"retrain embeddings every l x m steps (default: {default.l})"),
        ("--window", "window", int, f"context window of the loss (default: {default.window})"),
        ("--dim", "dim", int, f"embedding dimensions (default: {default.dim})"),
        ("--seed", "seed", int, f"Word2Vec and random-control seed (default: {default.seed})"),
    ]
    for flag, dest, kind, text in options:
        cmd.add_argument(flag, dest=dest, type=kind, help=text)
    cmd.add_argument(
        "--paper", action="store_true",
        help="start from the paper's Table 6 settings (V 16000, n 1.25, k 100, M 1500, m 10, "
        "l 4); the options above override them",
    )  # fmt: skip
    cmd.add_argument(
        "--control", choices=sage.CONTROLS, help="prune by this rule instead of the loss"
    )
    cmd.add_argument("--json", action="store_true", help="print the trace as JSON")
    cmd.add_argument("--full", action="store_true", help="with --json: add each candidate set")
    cmd.add_argument("--out", metavar="FILE", help="save the trained model as JSON")
    cmd.set_defaults(run=_run_train_sage)


def _add_corpus_and_size(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--corpus", required=True, help="toy:NAME, sample:NAME or a .txt path")
    size = cmd.add_mutually_exclusive_group(required=True)
    size.add_argument("--merges", type=int, help="number of merges to make")
    size.add_argument("--vocab-size", type=int, help="stop when the vocabulary has N symbols")


def _add_ties_and_output(cmd: argparse.ArgumentParser, full_help: str) -> None:
    cmd.add_argument(
        "--ties",
        choices=bpe.TIE_RULES,
        default="first",
        help="which pair wins a tie (default: first seen in the corpus)",
    )
    cmd.add_argument(
        "--split-punct", action="store_true", help="split punctuation off words before counting"
    )
    cmd.add_argument("--json", action="store_true", help="print the trace as JSON")
    cmd.add_argument("--full", action="store_true", help=f"with --json: {full_help}")
    cmd.add_argument("--out", metavar="FILE", help="save the trained model as JSON")


def _add_encode(commands) -> None:
    encode = commands.add_parser("encode", help="encode text with a saved model")
    encode.add_argument("--model", required=True, metavar="FILE", help="a model saved by --out")
    encode.add_argument(
        "--trace",
        action="store_true",
        help="show each merge applied (BPE), each longest-match attempt (WordPiece), the "
        "Viterbi path with log-probabilities (Unigram) or the greedy pieces (SaGe) per word",
    )
    encode.add_argument("text", nargs="+", help="the text to encode")
    encode.set_defaults(run=_run_encode)


# --- commands -------------------------------------------------------------------------


def _run_train_bpe(args: argparse.Namespace) -> None:
    wc = corpus.load(args.corpus, split_punct=args.split_punct)
    # toy corpora keep a snapshot per step, real samples compact steps (see bpe.py)
    trace = bpe.trace_bpe(wc, args.merges, args.vocab_size, args.marker, args.ties)
    model = bpe.model_from_trace(trace, split_punct=args.split_punct)
    _report(trace, model, args, _merge_table)


def _merge_table(trace: Trace) -> str:
    """One merge per line: number, pair, new symbol, count, pairs tied with it."""
    width = max([len(f"{s.pair[0]} + {s.pair[1]}") for s in trace.steps] + [10])
    lines = [f"{'#':>3}  {'pair':<{width}}  {'new symbol':<{width}}  count  ties"]
    for step in trace.steps:
        pair = f"{step.pair[0]} + {step.pair[1]}"
        ties = ", ".join(f"{a} {b}" for a, b in step.tied_with)
        line = f"{step.number:>3}  {pair:<{width}}  {step.new_symbol:<{width}}  {step.count:>5}  "
        lines.append((line + ties).rstrip())
    return "\n".join(lines)


def _run_train_wordpiece(args: argparse.Namespace) -> None:
    """Train WordPiece; the table shows each merge's exact score and its three counts.

    >>> main(["train", "wordpiece", "--corpus", "toy:sunflower", "--merges", "3"])
      #  pair        new symbol  score  = pair / (left x right)  ties
      1  s + ##u     su           1/3   = 3 / (3 x 3)
      2  ##e + ##r   ##er         1/4   = 3 / (4 x 3)            ##e ##d
      3  ##e + ##d   ##ed         1/1   = 1 / (1 x 1)
    Reached the 3 merges asked for. Vocabulary: 17 symbols.
    0
    """
    wc = corpus.load(args.corpus, split_punct=args.split_punct)
    trace = wordpiece.trace_wordpiece(
        wc, args.merges, args.vocab_size, args.prefix, args.ties, args.special_tokens
    )
    model = wordpiece.model_from_trace(trace, split_punct=args.split_punct)
    _report(trace, model, args, _score_table)


def _run_train_unigram(args: argparse.Namespace) -> None:
    """Train Unigram; one line per E, M and prune step.

    >>> main(["train", "unigram", "--corpus", "toy:run-bug", "--strict", "--log-base", "10",
    ...       "--vocab-size", "12", "--remove", "un"])
      #  round  kind    pieces     loss  removed
      1      1  E           13   66.109
      2      1  M           13   66.109
      3      1  prune       12   66.109  un
      4      2  E           12   61.165
    Reached the vocab size 12 asked for. Vocabulary: 12 symbols.
    0
    """
    wc = corpus.load(args.corpus, split_punct=args.split_punct)
    trace = unigram.trace_unigram(
        wc,
        args.variant,
        vocab_size=args.vocab_size,
        seed=args.seed,
        seed_size=args.seed_size,
        max_piece_len=args.max_piece_len,
        prune_percent=args.prune_percent,
        choices=tuple(args.remove),
        log_base=args.log_base,
        shrinking_factor=args.shrink,
        em_iterations=args.em_iterations,
    )
    model = unigram.model_from_trace(trace, split_punct=args.split_punct)
    _report(trace, model, args, _unigram_table)


def _unigram_table(trace: Trace) -> str:
    lines = [f"{'#':>3}  round  kind    pieces  {'loss':>7}  removed"]
    for step in trace.steps:
        removed = ", ".join(step.removed[:8]) + (" ..." if len(step.removed) > 8 else "")
        kind = step.kind.upper() if len(step.kind) == 1 else step.kind
        line = f"{step.number:>3}  {step.round:>5}  {kind:<6}  {step.vocab_size:>6}  "
        lines.append(f"{line}{step.loss:>7.3f}  {removed}".rstrip())
    return "\n".join(lines)


SAGE_FIELDS = ("vocab_size", "initial_size", "n", "k", "M", "m", "l", "window", "dim", "seed")


def _run_train_sage(args: argparse.Namespace) -> None:
    """Train SaGe; progress goes to stderr, one line per prune step to stdout."""
    if args.limit is not None and args.limit < 1:
        raise ValueError(f"--limit must be at least 1 line, not {args.limit}.")
    base = sage.PAPER if args.paper else sage.SageSettings()
    chosen = {name: getattr(args, name) for name in SAGE_FIELDS}
    settings = replace(base, **{k: v for k, v in chosen.items() if v is not None})
    sage.check_settings(settings, args.control)
    sentences = sage.sample_sentences(args.corpus, args.limit)
    words = sum(map(len, sentences))
    print(
        f"{len(sentences)} sentences, {words} words: {settings.start_size} -> "
        f"{settings.vocab_size} pieces in {sage.steps_needed(settings)} prune steps",
        file=sys.stderr,
    )

    def phase(text: str) -> None:
        print(f"  {text} ...", file=sys.stderr)

    def progress(step, total: int) -> None:
        print(f"step {step.number}/{total}: {step.vocab_size} pieces", file=sys.stderr)

    trace = sage.trace_sage(sentences, settings, args.control, on_step=progress, on_phase=phase)
    _report(trace, sage.model_from_trace(trace), args, _sage_table)


def _sage_table(trace: Trace, shown: int = 5) -> str:
    """One prune step per line: pieces left, loss, whether every score was recomputed and
    the embeddings retrained, and the first pruned pieces with their scores."""
    score = sage.SCORE_NAMES[trace.param("control")]
    lines = [f"{'#':>3}  pieces  {'loss':>12}  all scores  retrained  pruned ({score})"]
    for step in trace.steps:
        loss = "-" if step.loss is None else f"{step.loss:.1f}"
        pruned = ", ".join(f"{p} ({v:.3g})" for p, v in step.pruned[:shown])
        more = f", ... ({len(step.pruned)})" if len(step.pruned) > shown else ""
        line = f"{step.number:>3}  {step.vocab_size:>6}  {loss:>12}  "
        flags = f"{_yes(step.recomputed_losses):<10}  {_yes(step.retrained_embeddings):<9}  "
        lines.append(f"{line}{flags}{pruned}{more}".rstrip())
    return "\n".join(lines)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _report(trace: Trace, model, args: argparse.Namespace, table) -> None:
    """Save the model, print the trace (JSON or a table), then say where it was saved."""
    if args.out:
        export.save_model(model, args.out)
    if args.json:
        print(export.trace_to_json(trace, full=args.full))
    else:
        print(table(trace))
        print(f"{trace.stop_reason} Vocabulary: {len(model.vocab)} symbols.")
    if args.out:  # on stderr, so that --json output stays valid JSON
        print(f"Saved the model to {args.out}.", file=sys.stderr)


def _score_table(trace: Trace) -> str:
    """One WordPiece merge per line: number, pair, new symbol, exact score, counts, ties."""
    width = max([len(f"{s.pair[0]} + {s.pair[1]}") for s in trace.steps] + [10])
    head = f"{'#':>3}  {'pair':<{width}}  {'new symbol':<{width}}  score  "
    lines = [head + "= pair / (left x right)  ties"]
    for step in trace.steps:
        pair = f"{step.pair[0]} + {step.pair[1]}"
        score = wordpiece.fraction_text(step.score_fraction)
        counts = f"= {step.pair_count} / ({step.left_count} x {step.right_count})"
        ties = ", ".join(f"{a} {b}" for a, b in step.tied_with)
        line = f"{step.number:>3}  {pair:<{width}}  {step.new_symbol:<{width}}  {score:^5}  "
        lines.append(f"{line}{counts:<23}  {ties}".rstrip())
    return "\n".join(lines)


def _run_encode(args: argparse.Namespace) -> None:
    model = export.load_model(args.model)
    text = " ".join(args.text)
    algorithm = algorithm_of(model)
    encoded = algorithm.segment(model, text)
    if args.trace:
        TRACE_PRINTERS[algorithm.__name__](encoded, model)
    print(" ".join(encoded.pieces))


def _print_lattices(encoded, model) -> None:
    """Per word, its Viterbi path with each piece's log-probability."""
    for lattice in encoded.words:
        path = " + ".join(f"{lattice.edges[i].piece} ({lattice.edges[i].logp:.3f})"
                          for i in lattice.best)  # fmt: skip
        print(f"{lattice.word}: {path} = {lattice.best_logp:.3f}")


def _print_greedy(encoded, model) -> None:
    """Per word, the pieces greedy longest prefix cut it into."""
    cut = sage.word_segmenter(model)
    for word in corpus.split_words(encoded.text, model.split_punct):
        print(f"{word}: {' '.join(cut(word))} (greedy longest prefix)")


def _print_merges(encoded, model) -> None:
    """Per word, its first symbols and every merge applied to them."""
    for word in encoded.words:
        print(f"{word.word}: {' '.join(word.initial)}")
        for number, (a, b), symbols in word.applied:
            print(f"  merge {number:>3} ({a} + {b}): {' '.join(symbols)}")


def _print_attempts(words) -> None:
    """Per word, every longest-match attempt: the piece tried and whether it is known."""
    for word in words:
        print(f"{word.word}:")
        for attempt in word.attempts:
            print(f"  {attempt.piece}: {'yes' if attempt.found else 'no'}")
        if word.unknown:
            print(f"  {word.note}")


TRACE_PRINTERS = {  # `encode --trace`: how each algorithm found its pieces
    bpe.__name__: _print_merges,
    wordpiece.__name__: lambda encoded, model: _print_attempts(encoded.words),
    unigram.__name__: _print_lattices,
    sage.__name__: _print_greedy,
}


def _run_corpora(args: argparse.Namespace) -> None:
    infos = corpus.list_corpora()
    width = max(len(info.name) for info in infos)
    for info in infos:
        print(f"{info.name:<{width}}  {info.title}")
        print(f"{'':<{width}}  source: {info.source}")


# --- entry point ----------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, run one command, return the exit status (0 ok, 2 error)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed usage and its own "error:" line
        return stop.code if isinstance(stop.code, int) else EXIT_ERROR
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        args.run(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # `subtok ... | head`: the reader left, which is no error
        _silence_stdout()
        return 0
    except OSError as err:
        print(f"error: {err.strerror or err}.", file=sys.stderr)
        return EXIT_ERROR
    return 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # stdout is not a real file (a test's capture): nothing will flush it


if __name__ == "__main__":
    raise SystemExit(main())
