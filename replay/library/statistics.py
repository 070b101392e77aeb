"""The library's statistics, read from its games as data (``replay.library.tables``): a
player's (``of_player``: games, wins, average score, points by kind of scoring, figures used,
average rank by seat, recent games) and a corpus's, under the library's filters
(``of_corpus``: the first seat's win rate with a Wilson 95 % interval, the score spread and
the game length, each a mean with its interval, and the lengths' distribution). The web app's
statistics pages (``web.stats``) draw them.

What is counted: the games that were played to their end and broke no rule (``finished`` and
``valid``); the others are counted apart (a player's games in all, a filter's games in all).
Every query is bounded: at most ``CAP`` games of a corpus and ``PLAYER_CAP`` of a player, the
newest, are counted (the page says when there are more), lists are cut at ``TOP`` rows, and
each query reads through an index of ``tables.create`` (the player's ``results`` and
``result_points`` by name, a game's rows by its key; ``benchmarks/bench_stats.py`` times them
on 20,000 games).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from ..agents.stats import wilson
from .store import filter_clause

CAP = 20_000  # the newest games the corpus's page counts at most
PLAYER_CAP = 5_000  # the newest games of a player their page counts at most
TOP = 40  # rows of a list (kinds of scoring, figures) at most
RECENT = 20  # a player's recent games listed
NAME_LENGTH = 64  # a player's name at most (the log's own limit: schemas, header_check)
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Mean:
    """A mean with its 95 % interval (normal approximation; the mean itself for one value)."""

    mean: float
    low: float
    high: float
    n: int


def mean_of(values: list[float]) -> Mean | None:
    """The mean of ``values`` with its 95 % interval, None for none."""
    n = len(values)
    if not n:
        return None
    mean = math.fsum(values) / n
    if n < 2:
        return Mean(mean, mean, mean, n)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Mean(mean, mean - half, mean + half, n)


@dataclass(frozen=True)
class SeatRank:
    """A player's games in one seat (0 the first): how many, their average rank, the wins."""

    seat: int
    games: int
    rank: float
    wins: int


@dataclass
class PlayerStats:
    """A player's statistics (see the module): ``games`` every stored game they sat in,
    ``counted`` the finished valid ones counted (at most ``PLAYER_CAP``), ``finished`` all of
    those."""

    name: str
    games: int
    finished: int
    counted: int
    wins: int = 0
    score: float | None = None  # the average final score
    kinds: list[tuple[str, int]] = field(default_factory=list)  # (kind, points in all)
    figures: list[tuple[str, str, int]] = field(default_factory=list)  # (figure, feature, n)
    seats: list[SeatRank] = field(default_factory=list)
    recent: list[dict[str, Any]] = field(default_factory=list)

    @property
    def capped(self) -> bool:
        return self.counted < self.finished


def _one(db: Database, sql: str, params: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = next(db.query(sql, params))
    return row


# a player's finished valid games (their seat in each): all of them, or when there are more
# than PLAYER_CAP the newest PLAYER_CAP (by the games' dates: a join and a sort)
_ALL_MINE = ("with mine as (select game_id, seat, score, rank, winner from results "
             "where player = :name and finished = 1 and valid = 1) ")
_NEWEST_MINE = ("with mine as (select r.game_id, r.seat, r.score, r.rank, r.winner "
                "from results r join games g on g.id = r.game_id where r.player = :name "
                "and r.finished = 1 and r.valid = 1 order by g.created desc, g.id desc "
                "limit :cap) ")


def player_queries(capped: bool) -> dict[str, str]:
    """The SQL of a player's page (parameters ``player_params``), counting all their finished
    valid games, or with ``capped`` the newest ``PLAYER_CAP``."""
    mine = _NEWEST_MINE if capped else _ALL_MINE
    kinds = (mine + "select p.kind, sum(p.points) as points from mine join result_points p "
             "on p.game_id = mine.game_id and p.seat = mine.seat ") if capped else (
        "select p.kind, sum(p.points) as points from result_points p join results r "
        "on r.game_id = p.game_id and r.seat = p.seat where p.player = :name "
        "and r.finished = 1 and r.valid = 1 ")
    return {
        "games": "select count(*) as n, coalesce(sum(finished = 1 and valid = 1), 0) "
                 "as finished from results where player = :name",
        "seats": mine + "select seat, count(*) as n, avg(rank) as rank, sum(winner) as wins, "
                        "sum(score) as score from mine group by seat order by seat",
        "kinds": kinds + "group by p.kind order by points desc, p.kind limit :top",
        "figures": mine + "select e.figure, e.feature, count(*) as n from mine join events e "
                          "on e.game_id = mine.game_id and e.kind = 'figure' "
                          "and e.seats = json_array(mine.seat) group by e.figure, e.feature "
                          "order by n desc, e.figure, e.feature limit :top",
        "recent": "select g.id, g.game, g.expansions, g.created, g.players, g.scores, "
                  "g.verdict, g.finished, g.moves_played, r.seat, r.score, r.rank, r.winner "
                  "from results r join games g on g.id = r.game_id where r.player = :name "
                  "order by g.created desc, g.id desc limit :recent",
    }


def player_params(name: str) -> dict[str, Any]:
    """The parameters of ``player_queries`` for the player named ``name``."""
    return {"name": name, "cap": PLAYER_CAP, "top": TOP, "recent": RECENT}


def of_player(db: Database, name: str) -> PlayerStats | None:
    """The statistics of the player named ``name`` exactly, None when no stored game has a
    seat of that name (or the name is longer than a log allows)."""
    if not name or len(name) > NAME_LENGTH:
        return None
    p = player_params(name)
    games = _one(db, player_queries(False)["games"], p)
    if not games["n"]:
        return None
    out = PlayerStats(name, int(games["n"]), int(games["finished"]), 0)
    q = player_queries(out.finished > PLAYER_CAP)
    seats = list(db.query(q["seats"], p))
    out.seats = [SeatRank(int(r["seat"]), int(r["n"]), float(r["rank"]), int(r["wins"]))
                 for r in seats]
    out.counted = sum(s.games for s in out.seats)
    out.wins = sum(s.wins for s in out.seats)
    out.score = sum(r["score"] for r in seats) / out.counted if out.counted else None
    out.kinds = [(r["kind"], int(r["points"])) for r in db.query(q["kinds"], p)]
    out.figures = [(r["figure"] or "", r["feature"] or "", int(r["n"]))
                   for r in db.query(q["figures"], p)]
    out.recent = [{**r, "players": json.loads(r["players"]), "scores": json.loads(r["scores"]),
                   "expansions": json.loads(r["expansions"])} for r in db.query(q["recent"], p)]
    return out


@dataclass(frozen=True)
class FirstSeat:
    """The first seat's wins among games of ``players`` seats (``None``: every count): a
    shared win counts as a share (a tie of two, a half), ``fair`` the share of an even game."""

    players: int | None
    games: int
    wins: float
    low: float
    high: float
    fair: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class CorpusStats:
    """A filter's statistics (see the module): ``games`` matching the filter in all,
    ``finished`` of them finished and valid, ``counted`` of those counted (at most ``CAP``)."""

    games: int
    finished: int
    counted: int
    first_seat: list[FirstSeat] = field(default_factory=list)  # by player count, then all
    spread: Mean | None = None  # the best final score minus the worst
    length: Mean | None = None  # moves
    lengths: list[int] = field(default_factory=list)  # every counted game's moves, sorted

    @property
    def capped(self) -> bool:
        return self.counted < self.finished


CORPUS_COUNT = ("select count(*) as n, coalesce(sum(verdict = 'valid' and finished = 1), 0) "
                "as finished from games where {where}")
# a row per counted game (the newest CAP finished valid ones): its moves, seats, best and
# worst final scores, how many won and whether the first seat did
CORPUS_GAMES = (
    "with chosen as (select id, moves_played from games where {where} "
    "and verdict = 'valid' and finished = 1 order by created desc, id desc limit :cap) "
    "select c.id, c.moves_played as moves, count(*) as seats, max(r.score) as best, "
    "min(r.score) as worst, sum(r.winner) as winners, "
    "sum(case when r.seat = 0 then r.winner else 0 end) as first "
    "from chosen c join results r on r.game_id = c.id group by c.id")


def of_corpus(db: Database, verdict: str | None = None, player: str | None = None,
              game: str | None = None, expansion: str | None = None) -> CorpusStats:
    """The statistics of the games the library's filters choose (``store.filter_clause``)."""
    condition, params = filter_clause(verdict, player, game, expansion)
    params["cap"] = CAP
    counts = _one(db, CORPUS_COUNT.format(where=condition), params)
    rows = list(db.query(CORPUS_GAMES.format(where=condition), params))
    out = CorpusStats(int(counts["n"]), int(counts["finished"]), len(rows))
    by_count: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_count.setdefault(int(r["seats"]), []).append(r)
    groups: list[tuple[int | None, list[dict[str, Any]]]] = sorted(by_count.items())
    if len(groups) != 1:
        groups.append((None, rows))
    for players, group in groups:
        if not group:
            continue
        wins = math.fsum(r["first"] / r["winners"] for r in group if r["winners"])
        low, high = wilson(wins, len(group))
        fair = math.fsum(1 / r["seats"] for r in group) / len(group)
        out.first_seat.append(FirstSeat(players, len(group), wins, low, high, fair))
    out.spread = mean_of([float(r["best"] - r["worst"]) for r in rows])
    out.lengths = sorted(int(r["moves"]) for r in rows)
    out.length = mean_of([float(v) for v in out.lengths])
    return out


def histogram(values: list[int], bins: int = 12) -> list[tuple[int, int, int]]:
    """``values`` (integers) counted in at most ``bins`` bins of equal integer width:
    (lowest, highest, how many) each, from the smallest value to the largest (five bins of
    one at least: values all alike sit in the middle one)."""
    if not values:
        return []
    low, high = min(values), max(values)
    if high - low < 4:  # a few values alike: five columns at least, theirs in the middle
        low = max(0, low - (4 - (high - low)) // 2)
        high = low + 4
    width = max(1, -(-(high - low + 1) // bins))
    counts = [0] * (-(-(high - low + 1) // width))
    for v in values:
        counts[(v - low) // width] += 1
    return [(low + i * width, low + (i + 1) * width - 1, n) for i, n in enumerate(counts)]
