"""The statistics of games between agents: win rates with Wilson 95 % intervals, the Elo
difference they mean, and the sequential probability ratio test that stops an arena early.

A *score* counts a win 1, a shared best score 1/2 and a loss 0. Its Wilson score interval
(z = 1.96) is the one lichess and fishtest report for win rates: unlike the normal one it stays
within [0, 1] and is right for few games and rates near 0 or 1. The Elo difference of a score
p is ``-400·log10(1/p - 1)`` (the logistic model), its interval the Elo of the interval's
bounds. The SPRT is fishtest's: the log-likelihood ratio of ``elo1`` against ``elo0`` from the
wins, ties and losses in the normal approximation, stopped at the bounds of α = β = 0.05
(``SPRT_BOUNDS``).
"""

from __future__ import annotations

import math

Z95 = 1.959964  # the 97.5 % quantile of the normal distribution
ALPHA = BETA = 0.05
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
    return max(0.0, centre - half), min(1.0, centre + half)


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
    """The log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``) after these games,
    in the normal approximation of fishtest's trinomial SPRT; 0 before a game of each kind
    would give a variance."""
    n = wins + ties + losses
    if n == 0:
        return 0.0
    w, d = wins / n, ties / n
    score = w + d / 2
    variance = w + d / 4 - score * score
    if variance <= 0:
        return 0.0
    s0, s1 = expected(elo0), expected(elo1)
    return (s1 - s0) * (2 * score - s0 - s1) / (2 * variance / n)


def sprt_verdict(llr: float) -> str | None:
    """"H1" (the better Elo is accepted), "H0" or None (go on) for a log-likelihood ratio."""
    low, high = SPRT_BOUNDS
    return "H1" if llr >= high else "H0" if llr <= low else None
