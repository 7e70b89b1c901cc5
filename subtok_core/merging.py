"""The corpus under merges, shared by the BPE and WordPiece trainers.

Symbol i is written as the character chr(i), so a word is a str and a pair a 2-char str:
finding and replacing a pair runs in C (str.replace merges left to right without overlap,
as both algorithms do). Ids follow Hugging Face tokenizers: initial symbols in code point
order (BPE's word-final `x</w>` forms after them), then merged symbols in the order they
are made. `where` maps a pair to the words it was seen in; it may keep words that lost the
pair (merging there finds nothing), so it never needs cleaning. Its lists grow in word
order (a merge appends in the order of the merged pair's list), except where a merge
re-creates a symbol that already exists; such pairs are kept in `unsorted`.

>>> from subtok_core.corpus import from_pairs
>>> corpus = SymbolCorpus(from_pairs([("abab", 2)]), [list("abab")], ["a", "b"], "first")
>>> counts = corpus.initial_pair_counts()
>>> new, is_new = corpus.intern("ab")
>>> delta, merged = corpus.merge_words(corpus.ids["a"] + corpus.ids["b"], new, is_new)
>>> corpus.segmentations(), merged, sorted((corpus.pair_name(p), d) for p, d in delta.items() if d)
((('ab', 'ab'),), 4, [(('ab', 'ab'), 2), (('b', 'a'), -2)])
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from . import limits
from .corpus import WordCounts
from .records import UNK

TIE_RULES = ("first", "lex", "tokenizers")


class SymbolCorpus:
    """Words as strings of symbol ids, the words each pair occurs in, and tie orders."""

    # [UNK] may not be learned where it stands for unknown characters; byte-level BPE has
    # no unknown token (every text is bytes), so it learns "[UNK]" like any other text
    refuses_unknown_token = True

    def __init__(self, wc: WordCounts, segs: Iterable[Sequence[str]], names: list[str], ties: str):
        if ties not in TIE_RULES:
            raise ValueError(f"Unknown tie rule {ties!r}; choose one of {', '.join(TIE_RULES)}.")
        limits.check_words(wc.words)
        if self.refuses_unknown_token:
            _refuse_unknown_token(wc.words)
        self.ties, self.counts = ties, list(wc.counts)
        self.names = list(names)
        self.ids = {s: chr(i) for i, s in enumerate(self.names)}
        # a word given as a str is cut into its characters: translated in one go, in C
        table = {ord(s): i for s, i in self.ids.items() if len(s) == 1}
        id_of = self.ids.__getitem__
        self.words = [
            seg.translate(table) if isinstance(seg, str) else "".join(map(id_of, seg))
            for seg in segs
        ]
        self.where: dict[str, list[int]] = defaultdict(list)
        self.unsorted: set[str] = set()
        self.corpus_symbols = sum(len(s) * c for s, c in zip(self.words, self.counts))

    def initial_pair_counts(self) -> dict[str, int]:
        """Note where every adjacent pair occurs (a word once per occurrence), then count
        each pair: the counts of its words added up."""
        where = self.where
        for w, word in enumerate(self.words):
            for i in range(len(word) - 1):
                where[word[i : i + 2]].append(w)
        count_of = self.counts.__getitem__
        return {pair: sum(map(count_of, found)) for pair, found in where.items()}

    def name(self, symbol: str) -> str:
        return self.names[ord(symbol)]

    def pair_name(self, pair: str) -> tuple[str, str]:
        return self.names[ord(pair[0])], self.names[ord(pair[1])]

    def intern(self, name: str) -> tuple[str, bool]:
        """The id of a symbol string, made on first use; and whether it is new."""
        if name in self.ids:
            return self.ids[name], False
        self.ids[name] = chr(len(self.names))
        self.names.append(name)
        return self.ids[name], True

    def first_seen(self, pair: str) -> tuple[int, int]:
        """(word index, symbol index) of the pair's first occurrence in the corpus now."""
        words, seen = self.words, self.where[pair]
        if pair in self.unsorted:
            w = min(w for w in set(seen) if pair in words[w])
        else:  # in word order: the first word that still has the pair
            w = next(w for w in seen if pair in words[w])
        return (w, words[w].find(pair))

    def tie_order(self, pair: str):
        """Sort key among equally good pairs: the tie rule of this run."""
        if self.ties == "first":
            return self.first_seen(pair)
        if self.ties == "lex":
            return self.pair_name(pair)
        return pair  # ids: code point order, then merge order (tokenizers' rule)

    def merge_words(self, pair: str, new: str, is_new: bool) -> tuple[dict[str, int], int]:
        """Replace the pair by `new` in every word that has it.

        Returns the change of every pair count next to a merge (the merged pair's own
        count is left to the caller: it is gone) and how many symbols left the corpus.
        Each pair made with a new symbol stands where an old pair stood: (x, new) where
        (x, a) was, (new, y) where (b, y) was, (new, new) where (b, a) was. So the loop
        only notes the words each new pair is made in; the counts follow from them.
        """
        a, b = pair
        delta: dict[str, int] = defaultdict(int)
        made_in: dict[str, list[int]] = defaultdict(list)  # a word once per pair made there
        where, words, counts = self.where, self.words, self.counts
        merged = 0
        for w in where.pop(pair, ()):
            old = words[w]
            i = old.find(pair)
            if i < 0:
                continue  # this word lost the pair to an earlier merge
            word = words[w] = old.replace(pair, new)
            if not is_new:  # the new symbol may stand in the word already: recount it
                c = counts[w]
                merged += c * (len(old) - len(word))
                _diff_pairs(old, word, c, delta, where, w)
                self.unsorted.update(word[i : i + 2] for i in range(len(word) - 1))
                continue
            end = len(old) - 2
            if len(word) == end + 1:  # merged once (most words): neighbours are in old
                merged += counts[w]
                if i:  # the left neighbour now pairs with the new symbol
                    made_in[old[i - 1] + new].append(w)
                if i < end:  # and so does the right one
                    made_in[new + old[i + 2]].append(w)
                continue
            merged += counts[w] * (len(old) - len(word))
            last = len(word) - 1
            j = word.find(new)
            while j >= 0:
                if j:  # the left neighbour (maybe new itself) now pairs with new
                    made_in[word[j - 1] + new].append(w)
                if j < last and word[j + 1] != new:  # and so does the right one
                    made_in[new + word[j + 1]].append(w)
                j = word.find(new, j + 1)
        # each new pair gains what its words count, the old pair it replaced loses as much
        count_of = counts.__getitem__
        for made, made_words in made_in.items():
            n = sum(map(count_of, made_words))
            delta[made] += n
            if made[0] != new:
                delta[made[0] + a] -= n  # (x, new) replaced (x, a)
            elif made[1] != new:
                delta[b + made[1]] -= n  # (new, y) replaced (b, y)
            else:
                delta[b + a] -= n  # (new, new) replaced (b, a) between two merges
        where.update(made_in)  # pairs with a new symbol: no list yet
        if pair in self.unsorted:  # the lists made here follow this pair's list order
            self.unsorted.update(p for p in delta if new in p)
        self.corpus_symbols -= merged
        return delta, merged

    def segmentations(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(self.name(s) for s in word) for word in self.words)


def _refuse_unknown_token(words) -> None:
    """[UNK] stands for what the vocabulary cannot spell; learned as a piece, a known word
    could no longer be told from an unknown character."""
    for word in words:
        if UNK in word:
            raise ValueError(
                f"The corpus word {word!r} contains {UNK}, the name of the unknown token; "
                "it cannot be learned as a piece. Remove it or spell it differently."
            )


def _diff_pairs(old: str, new: str, c: int, delta: dict, where: dict, w: int) -> None:
    """Pair changes of one word by recounting it (when the new symbol was there before)."""
    for i in range(len(old) - 1):
        delta[old[i : i + 2]] -= c
    for i in range(len(new) - 1):
        delta[new[i : i + 2]] += c
        where[new[i : i + 2]].append(w)


def merge_goal(start_size: int, merges: int | None, vocab_size: int | None, what: str = "") -> int:
    """How many merges (or new symbols, for a vocab size) a run is asked for; `what` says
    what the start size is made of, when that helps."""
    if (merges is None) == (vocab_size is None):
        raise ValueError("Give either a number of merges or a target vocabulary size.")
    limits.check("merges", merges)
    limits.check("vocab_size", vocab_size)
    if merges is not None:
        if merges < 0:
            raise ValueError(f"The number of merges must be 0 or more, not {merges}.")
        return merges
    if vocab_size < start_size:
        raise ValueError(
            f"vocab size {vocab_size} is smaller than the {start_size} symbols this corpus "
            f"starts with{what}; choose at least {start_size}."
        )
    return vocab_size - start_size


def snapshot_mode(wc: WordCounts, snapshot: bool | None, max_words: int) -> bool:
    """Full snapshots per step for small corpora (toys), compact steps for real samples."""
    return len(wc) <= max_words if snapshot is None else snapshot


def collect_steps(steps, goal: int, progress=None) -> list:
    """Run a step iterator to the end, reporting progress every 50 steps and at the end."""
    done = []
    for step in steps:
        done.append(step)
        if progress and (len(done) % 50 == 0 or len(done) == goal):
            progress(len(done), goal)
    return done


def stop_reason(
    made: int, goal: int, merges: int | None, vocab_size: int | None, steps: int
) -> tuple[bool, str]:
    """Whether a run stopped short of its goal, and a sentence saying why it stopped."""
    if made < goal:
        return True, f"Stopped after {steps} merges: no pair is left, every word is one symbol."
    goal_text = f"{merges} merges" if merges is not None else f"vocab size {vocab_size}"
    return False, f"Reached the {goal_text} asked for."


# --- the command line options the merge lessons share ------------------------------------


def add_merge_options(cmd) -> None:
    """--merges or --vocab-size (one of them), --ties, --split-punct."""
    size = cmd.add_mutually_exclusive_group(required=True)
    size.add_argument(
        "--merges", type=int,
        help=f"number of merges to make ({limits.describe('merges')})",
    )  # fmt: skip
    size.add_argument(
        "--vocab-size", type=int,
        help=f"stop when the vocabulary has N symbols ({limits.describe('vocab_size')})",
    )  # fmt: skip
    cmd.add_argument(
        "--ties",
        choices=TIE_RULES,
        default="first",
        help="which pair wins a tie (default: first seen in the corpus)",
    )
    cmd.add_argument(
        "--split-punct", action="store_true", help="split punctuation off words before counting"
    )


def load_words(args):
    """The word counts of --corpus (a name or, on the command line, a .txt path),
    punctuation split off with --split-punct."""
    from .corpus import load

    return load(args.corpus, split_punct=args.split_punct, allow_paths=True)
