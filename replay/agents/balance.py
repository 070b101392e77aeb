"""Rule variants measured by self-play: the games and the statistics of ``python -m replay
balance`` (issue 37, item 3; the command line is ``balance_command``).

**The games.** Rule set A and rule set B are each a family and its options (``--a``/``--b``,
read as ``diff`` reads them). Game k of each set is played from the seed ``<seed>-<k>`` (as
``agents.games.play_game`` deals it) by the same agent at every seat, so game k of A and game k
of B deal the same material when the rules allow and the sets are *paired*: a difference B - A
is the mean of the per-game differences, which removes the deal's share of the variance. The
games run on ``jobs`` processes and are merged in game order, so the report is the same for
any ``jobs``. When A and B are the same rules (the same family and options once the defaults
are filled in), the set is played once and no difference is given.

**The figures of a set** (n games):

* *seat advantage*: each seat's score rate, a game counting 1 for the best score alone, 1/k
  for a best score shared by k seats (1/2 between two), 0 otherwise (``base.outcome``), with
  its Wilson 95 % interval (``stats.wilson``); the rates of the seats add up to 1, so the fair
  value is 1/players, and an interval that excludes it is flagged;
* *first seat's margin*: the first seat's final score minus the mean of the others', its mean
  with a Student t-interval (``diff_report.Mean``; fair value 0);
* *score spread*: the best final score minus the worst (t-interval);
* *tie rate*: the games whose best score is shared (Wilson);
* *length*: the moves of a game (t-interval);
* *points by kind*: the points the ``Score`` events of a game gave per kind of scoring (the
  event's ``feature``: city, road, farm, ...; all seats together, 0 in a game where the kind
  scored nothing), per game (t-interval); the events are those of a replay of the game's log
  (``lab.diff.Walk``, which checks every move again).

**The difference B - A** of every figure but the tie rate's interval: for each seed, the
figure of game k under B minus that under A (a seat's score rate: its outcome), averaged, with
a Student t-interval over the n pairs. The tie rate's difference is a difference of means too
(a game tied 1, else 0).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..lab.diff_report import Mean
from .base import outcome
from .stats import wilson

BATCH = 4  # games a worker is given at a time
SHARE = 60  # outcomes (1/k of a point, k up to 6) times SHARE are whole: ``Mean`` sums them
GameResult = dict[str, Any]  # ``scores``, ``moves``, ``points`` (kind -> points): it pickles


@dataclass(frozen=True)
class RuleSet:
    """One side of a measure: its label (``A``), the family and its options as given, and
    the options the game is played with (defaults filled in)."""

    label: str
    game: str
    given: Mapping[str, Any]
    options: Mapping[str, Any]

    def describe(self) -> str:
        """``small_city=4``, or the game's own rules; the family when it is another's."""
        said = " ".join(f"{k}={v}" for k, v in self.given.items() if k != "game")
        return said or "the game's own rules"


def rule_set(label: str, game: str, players: int, settings: Mapping[str, Any]) -> RuleSet:
    """The rule set of ``settings`` (``game=NAME`` and options) on ``game``: the game set up
    once to check it; raises ``LogFormatError``/``IllegalMove`` saying what is wrong."""
    from ..generate import config_for

    fam = str(settings.get("game", game))
    options = {k: v for k, v in settings.items() if k != "game"}
    config = config_for(fam, players, "0", (), options)
    return RuleSet(label, fam, dict(settings), dict(config.options))


# ------------------------------------------------------------------ the games


def play_one(game: str, players: int, options: Mapping[str, Any], spec: str,
             seed: str) -> GameResult:
    """One self-play game: every seat the agent ``spec`` (one each), from ``seed``."""
    from ..core.record import parse
    from ..lab.diff import Walk
    from . import agent
    from .games import play_game

    state, log = play_game(game, [agent(spec) for _ in range(players)], seed, (),
                           dict(options))
    walk = Walk(parse(log))
    for k in range(len(walk.record.moves)):
        walk.step(k)
    if walk.error is not None or walk.state.scores != state.scores:
        raise RuntimeError(f"the self-play game of seed {seed!r} does not replay: "
                           f"{walk.error or 'other final scores'}")
    return {"scores": list(state.scores), "moves": len(log["moves"]),
            "points": dict(sorted(walk.points.items()))}


Task = tuple[int, int, str, Mapping[str, Any], str]  # set, k, game, options, seed


def play_batch(players: int, spec: str, tasks: Sequence[Task]) -> list[GameResult]:
    """``play_one`` of each task (a worker's batch)."""
    return [play_one(game, players, options, spec, seed)
            for _, _, game, options, seed in tasks]


def self_play(sets: Sequence[RuleSet], players: int, spec: str, games: int, seed: int | str,
              jobs: int = 1, tick: Callable[[int], None] | None = None,
              dask: str | None = None) -> list[list[GameResult]]:
    """The ``games`` games of each rule set, in game order (the same for any ``jobs``, and
    on the Dask cluster at ``dask``);
    ``tick`` is told how many more games are done. The sets' games are interleaved (game k
    of each, then k + 1), so a run stopped early has played pairs."""
    tasks: list[Task] = [(s, k, rules.game, rules.options, f"{seed}-{k}")
                         for k in range(games) for s, rules in enumerate(sets)]
    batches = [tasks[i:i + BATCH] for i in range(0, len(tasks), BATCH)]
    results: list[list[GameResult | None]] = [[None] * games for _ in sets]

    def keep(batch: Sequence[Task], done: list[GameResult]) -> None:
        for (s, k, *_), result in zip(batch, done, strict=True):
            results[s][k] = result
        if tick is not None:
            tick(len(batch))

    from ..audit.runner import in_order

    done = in_order(play_batch, ((players, spec, batch) for batch in batches), jobs,
                    dask=dask)
    for batch, result in zip(batches, done, strict=True):
        keep(batch, result)
    out: list[list[GameResult]] = []
    for side in results:
        assert all(r is not None for r in side)
        out.append([r for r in side if r is not None])
    return out


def default_jobs() -> int:
    """Every core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count() or 1


# ------------------------------------------------------------------ the figures


def scaled(mean: Mean, by: int) -> dict[str, Any]:
    """``mean.as_json()`` of numbers summed ``by`` times too large (kept whole for ``Mean``),
    divided back."""
    j = mean.as_json()
    if j["mean"] is None:
        return j
    return {"n": j["n"], "mean": round(mean.total / mean.n / by, 4),
            "ci95": None if j["ci95"] is None else [round(x / by, 4) for x in j["ci95"]]}


def shares(scores: Sequence[int]) -> list[int]:
    """Each seat's outcome (``base.outcome``) times ``SHARE``: whole numbers."""
    return [round(x * SHARE) for x in outcome(scores)]


def margin(scores: Sequence[int]) -> int:
    """The first seat's score minus the mean of the others', times (players - 1)."""
    return (len(scores) - 1) * scores[0] - sum(scores[1:])


def tied(scores: Sequence[int]) -> int:
    return int(scores.count(max(scores)) > 1)


def rate(points: float, n: int, fair: float | None = None) -> dict[str, Any]:
    """A rate with its Wilson 95 % interval, and whether the interval leaves out ``fair``."""
    low, high = wilson(points, n)
    out: dict[str, Any] = {"points": round(points, 4), "n": n,
                           "rate": round(points / n, 4) if n else None,
                           "ci95": [round(low, 4), round(high, 4)]}
    if fair is not None:
        out["excludes_fair"] = not low <= fair <= high
    return out


@dataclass
class SetFigures:
    """The figures of one rule set's games (see the module)."""

    rules: RuleSet
    players: int
    kinds: Sequence[str]  # every kind either set scored, sorted
    games: int = 0
    seat_points: list[float] = field(default_factory=list)
    ties: int = 0
    margin: Mean = field(default_factory=Mean)
    spread: Mean = field(default_factory=Mean)
    length: Mean = field(default_factory=Mean)
    score: list[Mean] = field(default_factory=list)
    points: dict[str, Mean] = field(default_factory=dict)

    def add(self, game: GameResult) -> None:
        scores = game["scores"]
        if not self.seat_points:
            self.seat_points = [0.0] * len(scores)
            self.score = [Mean() for _ in scores]
            self.points = {k: Mean() for k in self.kinds}
        self.games += 1
        for seat, share in enumerate(outcome(scores)):
            self.seat_points[seat] += share
            self.score[seat].add(scores[seat])
        self.ties += tied(scores)
        self.margin.add(margin(scores))
        self.spread.add(max(scores) - min(scores))
        self.length.add(game["moves"])
        for kind, mean in self.points.items():
            mean.add(int(game["points"].get(kind, 0)))

    def as_json(self) -> dict[str, Any]:
        fair = 1 / self.players
        score_rate = [{"seat": k + 1, **rate(p, self.games, fair)}
                      for k, p in enumerate(self.seat_points)]
        first_margin = scaled(self.margin, self.players - 1)
        ci = first_margin["ci95"]
        first_margin["excludes_fair"] = ci is not None and not ci[0] <= 0 <= ci[1]
        return {"rules": self.rules.describe(), "game": self.rules.game,
                "options": dict(self.rules.options), "games": self.games,
                "seat_score_rate": score_rate, "first_seat_margin": first_margin,
                "score_spread": self.spread.as_json(), "ties": rate(self.ties, self.games),
                "length": self.length.as_json(),
                "mean_score": [{"seat": k + 1, **m.as_json()} for k, m in enumerate(self.score)],
                "points_by_kind": {k: m.as_json() for k, m in self.points.items()}}


def differences(a: Sequence[GameResult], b: Sequence[GameResult],
                kinds: Sequence[str]) -> dict[str, Any]:
    """The paired differences B - A, game k with game k (see the module)."""
    seats = [Mean() for _ in a[0]["scores"]] if a else []
    players = len(seats)
    first, spread, length, ties = Mean(), Mean(), Mean(), Mean()
    points = {k: Mean() for k in kinds}
    for x, y in zip(a, b, strict=True):
        sx, sy = x["scores"], y["scores"]
        for seat, (p, q) in enumerate(zip(shares(sx), shares(sy), strict=True)):
            seats[seat].add(q - p)
        first.add(margin(sy) - margin(sx))
        spread.add((max(sy) - min(sy)) - (max(sx) - min(sx)))
        length.add(y["moves"] - x["moves"])
        ties.add(tied(sy) - tied(sx))
        for kind, mean in points.items():
            mean.add(int(y["points"].get(kind, 0)) - int(x["points"].get(kind, 0)))
    return {"method": "B - A paired by seed: the mean of the per-game differences, with a "
                      "95 % Student t-interval",
            "seat_score_rate": [{"seat": k + 1, **scaled(m, SHARE)} for k, m in enumerate(seats)],
            "first_seat_margin": scaled(first, max(1, players - 1)),
            "score_spread": spread.as_json(), "tie_rate": ties.as_json(),
            "length": length.as_json(),
            "points_by_kind": {k: m.as_json() for k, m in points.items()}}


@dataclass
class Balance:
    """A whole measure: what was played, and each set's figures (``report``)."""

    game: str
    players: int
    agent: str
    games: int
    seed: int | str
    sets: list[RuleSet]
    results: list[list[GameResult]]

    @property
    def kinds(self) -> list[str]:
        return sorted({k for side in self.results for g in side for k in g["points"]})

    def figures(self) -> list[SetFigures]:
        kinds = self.kinds
        out = []
        for rules, side in zip(self.sets, self.results, strict=True):
            fig = SetFigures(rules, self.players, kinds)
            for game in side:
                fig.add(game)
            out.append(fig)
        return out

    def as_json(self) -> dict[str, Any]:
        figs = self.figures()
        return {
            "game": self.game, "players": self.players, "agent": self.agent,
            "games": self.games, "seed": self.seed,
            "seeds": f"{self.seed}-0 to {self.seed}-{self.games - 1}",
            "same_rules": len(self.sets) == 1,
            "fair_score_rate": round(1 / self.players, 4),
            "method": "Score rate: a win 1, a best score shared by k seats 1/k, with a Wilson "
                      "95 % interval; means with a 95 % Student t-interval; margin: the first "
                      "seat's score minus the mean of the others'",
            "sets": {f.rules.label: f.as_json() for f in figs},
            "difference": None if len(self.results) < 2 else differences(
                self.results[0], self.results[1], self.kinds)}
