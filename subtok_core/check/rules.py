"""The tie rules a check knows, each with the course or library it comes from: when pairs
tie for the highest count, the references students copy pick differently.

>>> RULES
('first', 'lex', 'greatest', 'tokenizers')
>>> print(rule_name("greatest"))
CS336's rule (greatest pair)
"""

from __future__ import annotations

from .variants import RULES

AUTO = "auto"

HOMES = {
    "first": "the first pair seen in the corpus, as minbpe and Picky BPE do",
    "lex": "the lexicographically smallest pair, as BoundlessBPE does",
    "greatest": (
        "the lexicographically greatest pair, as CS336's assignment 1 handout (and "
        "parity-aware BPE) asks"
    ),
    "tokenizers": (
        "the pair of the earliest created symbols (smallest ids), as Hugging Face "
        "tokenizers' BpeTrainer does"
    ),
}

NAMES = {
    "first": "minbpe's rule (first pair seen)",
    "lex": "BoundlessBPE's rule (smallest pair)",
    "greatest": "CS336's rule (greatest pair)",
    "tokenizers": "the tokenizers library's rule (creation order)",
}


def rule_name(rule: str) -> str:
    return NAMES[rule]


def rules_help() -> str:
    """One line per rule for --help and the page."""
    return "; ".join(f"{rule}: {HOMES[rule]}" for rule in RULES)


def check_rule(rule: str, auto: bool = False) -> None:
    allowed = (*RULES, AUTO) if auto else RULES
    if rule not in allowed:
        raise ValueError(f"Unknown tie rule {rule!r}; choose one of {', '.join(allowed)}.")
