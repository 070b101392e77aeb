"""An arena between two agents (``python -m replay arena``): its games played in worker
processes and taken back in game order, the SPRT after each game, and the report.

Game ``k`` is ``games.arena_game``'s: agent a at seat ``k % players`` (the seats alternate),
b at the others, the seed ``<seed>-<k>``. Every game is decided by its seed and the two specs
alone, and the results are read in game order whatever process played them, so the report is
the same with any ``--jobs`` (an SPRT stopping at game k stops there with any ``--jobs``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from . import agent
from .base import Agent
from .games import arena_game
from .stats import SPRT_BOUNDS, elo, sprt_llr, sprt_verdict, wilson

MAX_GAMES = 100_000  # an arena of more games is a mistake (greedy plays about 3 games a second)


@dataclass(frozen=True)
class ArenaSpec:
    """What an arena plays: ``games`` games of ``game`` between the specs ``a`` and ``b``;
    ``sprt``: (Elo0, Elo1) to stop at the SPRT's verdict."""

    game: str
    a: str
    b: str
    games: int
    players: int = 2
    seed: int | str = 0
    expansions: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    sprt: tuple[float, float] | None = None


class Played(NamedTuple):
    """One game of an arena: a's result (1, 0.5, 0), its seat (from 0), the final scores by
    seat and the moves played."""

    number: int  # the game's index in the arena, from 0
    result: float
    seat: int
    scores: tuple[int, ...]
    length: int


@cache
def _agents(a: str, b: str) -> tuple[Agent, Agent]:
    return agent(a), agent(b)  # once per process: an agent keeps no state between moves


def play_one(spec: ArenaSpec, index: int) -> Played:
    """Game ``index`` of ``spec`` (in a worker process, or in this one)."""
    a, b = _agents(spec.a, spec.b)
    result, seat, state = arena_game(spec.game, a, b, index, spec.seed, spec.players,
                                     spec.expansions, spec.options)
    return Played(index, result, seat, tuple(state.scores), state.moves_played)


def played(spec: ArenaSpec, jobs: int, dask: str | None = None) -> Generator[Played, None, None]:
    """Every game of ``spec`` in game order, played by ``jobs`` processes (1: this one), or
    on the Dask cluster at ``dask`` (``audit.runner.in_order``: closing the iterator cancels
    the games not started)."""
    from ..audit.runner import in_order

    return in_order(play_one, ((spec, k) for k in range(spec.games)),
                    min(jobs, spec.games), dask=dask)


def _rate(points: float, n: int) -> dict[str, Any]:
    low, high = wilson(points, n)
    return {"games": n, "score": _round(points / n if n else 0.0),
            "interval": [_round(low), _round(high)]}


def _round(x: float, digits: int = 6) -> float:
    return round(x, digits)


def _elo(x: float) -> float | None:
    """An Elo difference for JSON: None for an unbounded one (a score of 0 or 1)."""
    return round(x, 1) if math.isfinite(x) else None


def _shown_elo(x: float) -> str:
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _percent(x: float) -> str:
    return f"{100 * x:.1f} %"


@dataclass
class ArenaSummary:
    """The counts of an arena's games so far (``add`` each in game order), the SPRT's state,
    and the report (``lines``: a short table; ``as_json``: one object)."""

    spec: ArenaSpec
    label: str = ""  # the game's name for people
    wins: int = 0
    ties: int = 0
    losses: int = 0
    seat_games: list[int] = field(default_factory=list)
    seat_points: list[float] = field(default_factory=list)
    a_scores: int = 0
    b_scores: float = 0.0  # b's mean score per seat, summed over the games
    moves: int = 0
    llr: float = 0.0
    verdict: str | None = None

    def __post_init__(self) -> None:
        self.seat_games = [0] * self.spec.players
        self.seat_points = [0.0] * self.spec.players

    @property
    def games(self) -> int:
        """The games counted."""
        return self.wins + self.ties + self.losses

    @property
    def points(self) -> float:
        """a's points: a win 1, a tie 1/2."""
        return self.wins + self.ties / 2

    def add(self, game: Played) -> None:
        """Count one more game (in game order), and the SPRT after it."""
        self.wins += game.result == 1.0
        self.ties += game.result == 0.5
        self.losses += game.result == 0.0
        self.seat_games[game.seat] += 1
        self.seat_points[game.seat] += game.result
        self.a_scores += game.scores[game.seat]
        others = [s for k, s in enumerate(game.scores) if k != game.seat]
        self.b_scores += sum(others) / len(others)
        self.moves += game.length
        if self.spec.sprt is not None:
            self.llr = sprt_llr(self.wins, self.ties, self.losses, *self.spec.sprt)
            self.verdict = sprt_verdict(self.llr)

    def running(self) -> str:
        """The score so far, for the progress bar: ``a +12 =1 -3 (78.1 %)``."""
        rate = self.points / self.games if self.games else 0.0
        return f"a +{self.wins} ={self.ties} -{self.losses} ({_percent(rate)})"

    def as_json(self) -> dict[str, Any]:
        """The report as one object (Elo values of an unbounded interval are null)."""
        spec, n = self.spec, self.games
        rate = _rate(self.points, n)
        low, high = wilson(self.points, n)
        out: dict[str, Any] = {
            "game": spec.game, "players": spec.players, "seed": spec.seed,
            "expansions": list(spec.expansions), "options": dict(spec.options),
            "a": spec.a, "b": spec.b, "games": n, "games_asked": spec.games,
            "wins": self.wins, "ties": self.ties, "losses": self.losses,
            "score": rate["score"], "score_interval": rate["interval"],
            "elo": _elo(elo(self.points / n)), "elo_interval": [_elo(elo(low)), _elo(elo(high))],
            "seats": [{"seat": k + 1, **_rate(self.seat_points[k], self.seat_games[k])}
                      for k in range(spec.players)],
            "mean_scores": {"a": _round(self.a_scores / n, 3), "b": _round(self.b_scores / n, 3)},
            "mean_length": _round(self.moves / n, 3),
            "even_score": _round(1 / spec.players),  # an agent as strong as the others
            "sprt": None,
        }
        if spec.sprt is not None:
            out["sprt"] = {"elo0": spec.sprt[0], "elo1": spec.sprt[1], "llr": _round(self.llr),
                           "bounds": [_round(b) for b in SPRT_BOUNDS], "verdict": self.verdict}
        return out

    def lines(self) -> list[str]:
        """The report as a short table."""
        spec, n = self.spec, self.games
        low, high = wilson(self.points, n)
        rules = ", ".join([*spec.expansions, *(f"{k}={v}" for k, v in spec.options.items())])
        out = [f"arena: {spec.a} (a) against {spec.b} (b): {self.label or spec.game}, "
               f"{spec.players} players{', ' + rules if rules else ''}, seed {spec.seed}",
               f"{n} games: a won {self.wins}, tied {self.ties}, lost {self.losses}", "",
               f"{'':14}{'games':>6}  {'score of a':>10}  95 % interval"]
        rows = [("all seats", self.points, n)] + [
            (f"a at seat {k + 1}", self.seat_points[k], self.seat_games[k])
            for k in range(spec.players)]
        for name, points, games in rows:
            lo, hi = wilson(points, games)
            shown = _percent(points / games) if games else "-"
            out.append(f"{name:14}{games:>6}  {shown:>10}  {_percent(lo)} to {_percent(hi)}")
        out += ["", f"Elo a-b: {_shown_elo(elo(self.points / n))} (95 %: "
                    f"{_shown_elo(elo(low))} to {_shown_elo(elo(high))})",
                f"mean final score: a {self.a_scores / n:.1f}, b {self.b_scores / n:.1f}; "
                f"mean length {self.moves / n:.1f} moves"]
        if spec.players > 2:
            out.append(f"(an agent as strong as the others scores {_percent(1 / spec.players)} "
                       f"of {spec.players} players' games; the Elo and the SPRT take a score "
                       "of 50 % as even)")
        if spec.sprt is not None:
            elo0, elo1 = spec.sprt
            said = (f"{self.verdict} accepted after {n} games" if self.verdict
                    else f"no verdict after {n} games")
            out.append(f"SPRT Elo {elo0:g} against {elo1:g}: {said} (LLR {self.llr:.2f}, "
                       f"bounds {SPRT_BOUNDS[0]:.2f} and {SPRT_BOUNDS[1]:.2f})")
        return out


def run_arena(spec: ArenaSpec, jobs: int | None = None, label: str = "",
              tick: Callable[[ArenaSummary], None] | None = None,
              dask: str | None = None) -> ArenaSummary:
    """Play ``spec``'s games (``jobs`` processes, default every core, or on the Dask cluster
    at ``dask``) in game order until the last or the SPRT's verdict; ``tick`` is told the
    summary after each game."""
    summary = ArenaSummary(spec, label)
    games = played(spec, jobs or os.cpu_count() or 1, dask)
    try:
        for game in games:
            summary.add(game)
            if tick is not None:
                tick(summary)
            if summary.verdict is not None:
                break
    finally:
        games.close()
    return summary
