"""How a token is built: its merge tree, down to bytes or characters.

The tree is what the byte-level replay does to the token's own bytes: start from its
single bytes (or characters), merge the adjacent pair of the lowest rank (the leftmost one
on a tie), again and again, until no pair merges. Each merge is a node holding its rank
and the two parts it joined; the leaves are the single bytes or characters. For
cl100k_base and Tekken a pair's rank is the rank of the token the two parts make
(``ranks[left + right]``, plus Tekken's special ids), so a token's root has the token's
own id. Mistral's SentencePiece BPE models merge by score instead (sentencepiece's
bpe_model.cc): the adjacent pair whose joined piece has the highest score merges first,
the leftmost on a tie, so their trees are drawn ``highest`` first with each merge's score.
Ids do not give that order: ``▁▁`` (id 259) has the lowest score of all, -1e9.

>>> ranks = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4}
>>> node = merge_tree([b"a", b"b", b"c"], lambda x, y: ranks.get(x + y), ranks.get)
>>> node.part, node.rank, [n.part for n in (node.left, node.right)]
(b'abc', 4, [b'ab', b'c'])
>>> [(depth, n.part) for depth, n in walk(node)]
[(0, b'abc'), (1, b'ab'), (2, b'a'), (2, b'b'), (1, b'c')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Node:
    """One part of a token: its bytes or text, its rank (a leaf: its own id, or None when
    the single byte or character is no token), and the two parts it joined (leaves: None).
    """

    part: Any
    rank: int | None
    left: Node | None = None
    right: Node | None = None

    @property
    def leaf(self) -> bool:
        return self.left is None


def merge_tree(
    symbols: Sequence[Any],
    rank_of: Callable[[Any, Any], Any],
    leaf_rank: Callable[[Any], Any],
    highest: bool = False,
) -> Node | None:
    """The tree of merging `symbols` lowest rank first (`highest`: highest first, as
    SentencePiece BPE merges by score); None when they do not end as one part (the merges
    never join them all)."""
    nodes = merged(symbols, rank_of, leaf_rank, highest)
    return nodes[0] if len(nodes) == 1 else None


def merged(
    symbols: Sequence[Any],
    rank_of: Callable[[Any, Any], Any],
    leaf_rank: Callable[[Any], Any],
    highest: bool = False,
) -> list[Node]:
    """The parts `symbols` end as when every pair that merges has merged: the pair of the
    lowest rank first (`highest`: of the highest), the leftmost one on a tie.

    >>> scores = {"ab": -5.0, "bc": -1.0}
    >>> [n.part for n in merged("abc", lambda x, y: scores.get(x + y), scores.get, True)]
    ['a', 'bc']
    """
    pick = max if highest else min
    nodes = [Node(s, leaf_rank(s)) for s in symbols]
    if not nodes:
        return nodes
    # ranks[i]: the rank of merging nodes[i] and nodes[i + 1] (None: they never merge)
    ranks = [rank_of(a.part, b.part) for a, b in zip(nodes, nodes[1:])]
    while any(r is not None for r in ranks):
        best = pick(r for r in ranks if r is not None)
        i = ranks.index(best)  # the leftmost pair of the lowest (highest) rank
        left, right = nodes[i], nodes[i + 1]
        nodes[i : i + 2] = [Node(left.part + right.part, best, left, right)]
        del ranks[i]
        if i > 0:  # the new part's two neighbour pairs get their ranks
            ranks[i - 1] = rank_of(nodes[i - 1].part, nodes[i].part)
        if i < len(nodes) - 1:
            ranks[i] = rank_of(nodes[i].part, nodes[i + 1].part)
    return nodes


def replayed_tree(symbols: Sequence[str], merges: Sequence[tuple[str, str]]) -> Node | None:
    """The tree of a BPE model trained here: its merges applied in the order learned, each
    to every place its pair stands, left to right (as ``bpe.encode`` replays them); a
    node's rank is the merge's number (1 = the first merge learned)."""
    nodes = [Node(s, None) for s in symbols]
    for number, (a, b) in enumerate(merges, start=1):
        if len(nodes) == 1:
            break
        out, i = [], 0
        while i < len(nodes):
            if i + 1 < len(nodes) and nodes[i].part == a and nodes[i + 1].part == b:
                out.append(Node(a + b, number, nodes[i], nodes[i + 1]))
                i += 2
            else:
                out.append(nodes[i])
                i += 1
        nodes = out
    return nodes[0] if len(nodes) == 1 else None


def walk(node: Node, depth: int = 0) -> Iterator[tuple[int, Node]]:
    """Every node of a tree with its depth, the root first, then left before right."""
    yield depth, node
    if node.left is not None and node.right is not None:
        yield from walk(node.left, depth + 1)
        yield from walk(node.right, depth + 1)


def lines(node: Node, show: Callable[[Any], str], rank_word: str = "rank") -> list[str]:
    """A tree as indented lines, one per node: its part and, for a merge, its rank.

    >>> tree = Node("ab", 3, Node("a", 0), Node("b", 1))
    >>> print("\\n".join(lines(tree, str)))
    ab  (rank 3: a + b)
      a  (rank 0)
      b  (rank 1)
    """
    out = []
    for depth, n in walk(node):
        if n.leaf:
            said = "" if n.rank is None else f"  ({rank_word} {n.rank})"
        else:
            said = f"  ({rank_word} {n.rank}: {show(n.left.part)} + {show(n.right.part)})"
        out.append("  " * depth + show(n.part) + said)
    return out
