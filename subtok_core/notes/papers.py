"""Notes on the two papers' Algorithm 2 (UnigramLM): 000 (SaGe) takes the argmin of a
difference of log-likelihoods, 002 (Bostrom & Durrett) removes the tokens with the highest
likelihood loss; both would prune the most useful piece. Shown on round 2 of 001's run.

>>> sage_sign_note().figures[1].value, bostrom_sign_note().figures[1].value
('fu', 'fu')
"""

from __future__ import annotations

from .records import Figure, Note
from .slides import RUN_BUG, run_bug, step_of

SAGE = "000_9765466770ca3327.txt"
BOSTROM = "002_8d9114d3f001dd78.txt"


def _plain(x: float) -> str:
    """Three decimals, without the sign of a negative zero."""
    return f"{round(x, 3) + 0.0:.3f}"


def _tied(pieces: list[str]) -> str:
    return f", tied with {', '.join(pieces)}" if pieces else ""


def _sign_example() -> dict:
    """Round 2 of 001's run (after `un`): which piece each reading of the rule removes."""
    trace = run_bug()
    m2, pruned = step_of(trace, 2, "m"), step_of(trace, 2, "prune")
    # 000: L is a log-likelihood (no minus sign), loss_t = L(V \ t) - L(V) = -(increase)
    loss_t = {p: -(without - m2.loss) for p, without in m2.removal}
    # 002: L_t = p(D) - p'(D), with probabilities (log base 10, as the run)
    l_t = {p: 10**-m2.loss - 10**-without for p, without in m2.removal}
    return {
        "step": m2,
        "loss_t": loss_t,
        "l_t": l_t,
        "argmin": min(loss_t, key=loss_t.get),
        "highest": max(l_t, key=l_t.get),
        "meant": pruned.removed[0],
        "tied": [p for p in loss_t if p != pruned.removed[0] and _plain(loss_t[p]) == "0.000"],
    }


def sage_sign_note() -> Note:
    ex = _sign_example()
    worst, meant, loss_t = ex["argmin"], ex["meant"], ex["loss_t"]
    return Note(
        "000-argmin",
        "000's Algorithm 2 (UnigramLM) prunes with the wrong sign",
        SAGE,
        "Section 2, Algorithm 2 (UNIGRAMLM vocabulary creation), its steps 4, 7 and 9",
        (
            Figure(
                "L(V): a log-likelihood, no minus sign",
                "L(V) ← Σ log P(X)",
                f"{-ex['step'].loss:.3f} on run/bug/fun/sun after un (log base 10)",
                -ex["step"].loss,
                68,
                r"\sum^{|C|} \log\left(P(X^{(j)})\right)",
            ),
            Figure(
                "pruned: argmin of loss_t = L(V∖{t}) − L(V)",
                "arg min (loss_t)",
                f"{worst} (loss_t {_plain(loss_t[worst])}, the lowest)",
                worst,
                68,
                r"\arg\min_{t \in \mathcal{V}} (loss_t)",
            ),
            Figure(
                "pruned by the smallest loss increase (Kudo 2018)",
                "",
                f"{meant} (loss_t {_plain(loss_t[meant])}{_tied(ex['tied'])})",
                meant,
            ),
        ),
        f"With L a log-likelihood, L(V∖{{t}}) − L(V) is never positive here, so its argmin "
        f"removes the piece the corpus misses most ({worst}, not {meant}); Algorithm 3 "
        f"defines L with a minus sign (eq. 1), where argmin is right.",
        "unigram",
        (*RUN_BUG, ("remove", "un"), ("step", str(ex["step"].number))),
    )


def bostrom_sign_note() -> Note:
    ex = _sign_example()
    worst, meant, l_t, m2 = ex["highest"], ex["meant"], ex["l_t"], ex["step"]
    without = dict(m2.removal)
    return Note(
        "002-highest",
        "002's Algorithm 2 removes the tokens with the highest loss",
        BOSTROM,
        "Section 2, Algorithm 2 (Unigram language modeling), its steps 8 and 12",
        (
            Figure(
                "L_t = p_θ(D) − p_θ′(D): what the corpus loses without t",
                "L_t ← p_θ(D) − p_θ′(D)",
                f"largest for {worst}: p_θ′(D) = 10^−{without[worst]:.3f}, p_θ(D) = "
                f"10^−{m2.loss:.3f}",
                l_t[worst],
                76,
                r"L_t \leftarrow p_\theta(D) - p_{\theta'}(D)",
            ),
            Figure(
                "removed: the tokens with the highest L_t",
                "with highest L_t",
                f"{worst}",
                worst,
                80,
                "with highest  $L_t$",
            ),
            Figure(
                "removed by the lowest L_t (Kudo 2018)",
                "",
                f"{meant} (L_t = {l_t[meant]:g}{_tied(ex['tied'])})",
                meant,
            ),
        ),
        f"L_t measures how much likelihood the corpus loses without t, so removing the "
        f"highest removes the most useful token ({worst} on run/bug/fun/sun after un); "
        f"Kudo's rule removes the lowest ({meant}).",
        "unigram",
        (*RUN_BUG, ("remove", "un"), ("step", str(m2.number))),
    )
