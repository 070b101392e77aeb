"""The statistics of games between agents: win rates with Wilson 95 % intervals, the Elo
difference they mean, and the sequential probability ratio test that stops an arena early.

A *score* counts a win 1, a shared best score 1/2 and a loss 0. Its Wilson score interval
(z = 1.96) is the one lichess and fishtest report for win rates: unlike the normal one it stays
within [0, 1] and is right for few games and rates near 0 or 1. The Elo difference of a score
p is ``-400·log10(1/p - 1)`` (the logistic model), its interval the Elo of the interval's
bounds. The SPRT is fishtest's GSPRT (``LLR_logistic``): the generalized log-likelihood ratio
of ``elo1`` against ``elo0`` from the wins, ties and losses, each hypothesis's distribution
the most likely one of its expected score, a kind of result never seen counted as 0.001 of a
game (fishtest's ``regularize``), stopped at the bounds of α = β = 0.05 (``SPRT_BOUNDS``).
Not its normal approximation (``LLR_alt2``): while one agent wins every game that has no
variance, so it never stops the clearest match (regularized, it stops at the first game).
"""

from __future__ import annotations

import math

Z95 = 1.959964  # the 97.5 % quantile of the normal distribution
ALPHA = BETA = 0.05
REGULARIZE = 1e-3  # the count of a kind of result never seen (fishtest's ``regularize``)
SPRT_BOUNDS = (math.log(BETA / (1 - ALPHA)), math.log((1 - BETA) / ALPHA))  # (-2.94, 2.94)


def wilson(points: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``points`` in ``n`` trials (a tie counts half);
    (0, 1) for no trial."""
    if n <= 0:
        return 0.0, 1.0
    p = points / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at a rate of 0 or 1 a bound is 0 or 1 exactly (rounding left 1 - 1e-16: an Elo of 6000)
    low = 0.0 if points <= 0 else max(0.0, centre - half)
    return low, 1.0 if points >= n else min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference of an expected score (the logistic model); ±inf at 0 and 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected(elo_difference: float) -> float:
    """The expected score of an Elo difference (``elo``'s inverse)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo_difference / 400.0))


def sprt_llr(wins: int, ties: int, losses: int, elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``) after
    these games: fishtest's ``LLR_logistic`` for a trinomial (see the module); 0 before the
    first game."""
    if wins + ties + losses == 0:
        return 0.0
    counts = [c if c > 0 else REGULARIZE for c in (losses, ties, wins)]
    total = sum(counts)
    pdf = [(k / 2, c / total) for k, c in enumerate(counts)]  # a loss 0, a tie 1/2, a win 1
    h0, h1 = (_closest(pdf, expected(e)) for e in (elo0, elo1))
    return total * sum(p * math.log(q1 / q0) for (_, p), q0, q1 in zip(pdf, h0, h1,
                                                                          strict=True))


def _closest(pdf: list[tuple[float, float]], score: float) -> list[float]:
    """The most likely distribution of the results ``pdf`` was drawn from among those of
    mean ``score``: ``p / (1 + x·(a - score))`` for each result a of frequency p, x the root
    of ``Σ p·(a - score) / (1 + x·(a - score)) = 0`` (fishtest's ``MLE_expected``; found by
    bisection: the sum falls as x grows, between the poles ``-1/max`` and ``-1/min``)."""
    score = min(max(score, 1e-9), 1 - 1e-9)
    shifted = [(a - score, p) for a, p in pdf]
    low = -1 / max(a for a, _ in shifted) + 1e-12
    high = -1 / min(a for a, _ in shifted) - 1e-12
    for _ in range(200):
        x = (low + high) / 2
        if sum(p * a / (1 + x * a) for a, p in shifted) > 0:
            low = x
        else:
            high = x
        if high - low < 1e-15 * max(1.0, abs(x)):
            break
    x = (low + high) / 2
    return [p / (1 + x * a) for a, p in shifted]


def sprt_verdict(llr: float) -> str | None:
    """"H1" (the better Elo is accepted), "H0" or None (go on) for a log-likelihood ratio."""
    low, high = SPRT_BOUNDS
    return "H1" if llr >= high else "H0" if llr <= low else None
