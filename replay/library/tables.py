"""The library's games as data: four tables written with each game, in the transaction that
stores it (``store.add_game``), and filled for the games stored before them by a migration
(``store.create_game_tables``). Datasette, SQL and the statistics pages read them.

* ``moves``: a row per move of the log as far as it replays (an illegal move too, ``legal``
  0 with the ``rule`` it broke): ``game_id``, ``number`` (1 for the first move), ``seat``,
  ``player``, ``points`` (what the mover scored with it: the final scoring counts with the
  last move), ``scored`` (every seat's points of the move together), ``legal``, ``rule``, and
  the columns its family declares (``Family.move_columns``: a tile game's ``tile``, ``x``,
  ``y``, ``rotation``, ``figure``, ``figure_at``; Manhattan's ``card``, ``city``,
  ``storeys``, ``colour``);
* ``events``: a row per event of the replay: ``game_id``, ``seq`` (its order in the game),
  ``number`` (the move that made it), ``kind`` (score, place, figure, return, build, end, ...),
  ``seats`` and ``players`` (whom it concerns: a score's winners, else the player who acted;
  names joined by ", "), ``points`` (each winner's, for a score), ``feature`` (the kind of
  feature scored, or stood on), ``figure`` (a figure's kind), ``phase`` (play or final),
  ``rule``;
* ``results``: a row per seat: ``game_id``, ``seat``, ``player``, ``colour``, ``score`` (the
  final score, or the last legal position's when the game stopped; NULL for a header that
  broke a rule), ``rank`` (1 the best, equal scores sharing it), ``winner``, ``finished``,
  ``valid``, ``points_by_kind`` (JSON: kind of scoring -> points);
* ``result_points``: a row per seat and kind of scoring it scored: ``game_id``, ``seat``,
  ``player``, ``kind`` (city, road, cloister, farm, flock, meadow, ...), ``points``.

A family's columns are added to ``moves`` when a game of it is first stored (a plugin's
too); the core reads them from the move as the log records it, never naming a game.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.events import Score

if TYPE_CHECKING:
    from sqlite_utils import Database

    from ..core.family import Family
    from ..core.playback import Playback
    from ..core.record import GameRecord

TABLES = ("moves", "events", "results", "result_points")

Row = dict[str, Any]


@dataclass
class GameTables:
    """A game's rows of the four tables, without its id (given when they are written)."""

    moves: list[Row] = field(default_factory=list)
    events: list[Row] = field(default_factory=list)
    results: list[Row] = field(default_factory=list)
    points: list[Row] = field(default_factory=list)

    def count(self) -> int:
        """How many rows in all."""
        return len(self.moves) + len(self.events) + len(self.results) + len(self.points)

    def as_json(self) -> dict[str, list[Row]]:
        """The rows as JSON (an ingest worker sends them to the process that stores)."""
        return {"moves": self.moves, "events": self.events, "results": self.results,
                "points": self.points}

    @classmethod
    def from_json(cls, data: dict[str, list[Row]]) -> GameTables:
        return cls(data["moves"], data["events"], data["results"], data["points"])


def mover(events: list[Any]) -> int | None:
    """The seat that made a move, from its events: every family's first event naming a
    player is the mover's (place, choose, build, card-discard)."""
    return next((p for e in events if isinstance(p := getattr(e, "player", None), int)), None)


def of_record(record: GameRecord, playback: Playback | None = None,
              raw_moves: list[Any] | None = None) -> GameTables:
    """The rows of a parsed log, from its replay with events (``record.playback`` unless
    ``playback`` is given); ``raw_moves``: its moves as the log records them, when at hand
    (else each is encoded again)."""
    pb = playback if playback is not None else record.playback
    raws = raw_moves if raw_moves is not None and len(raw_moves) == len(record.moves) else \
        None
    names = [p.name for p in record.players]
    family = record.family
    out = GameTables()
    totals = {seat: {} for seat in range(len(names))}  # type: dict[int, dict[str, int]]
    seq = 0
    for i, events in enumerate(pb.events):
        seat = mover(events)
        gained = [0] * len(names)
        for e in events:
            row = _event_row(e, names, i + 1, seq)
            out.events.append(row)
            seq += 1
            if isinstance(e, Score):
                for w in e.winners:
                    gained[w] += e.points
                    totals[w][e.feature] = totals[w].get(e.feature, 0) + e.points
        out.moves.append(_move_row(family, raws[i] if raws else record.moves[i], i + 1, seat,
                                   names, gained[seat] if seat is not None else 0,
                                   sum(gained)))
    if pb.error is not None and pb.error.move is not None:
        i = pb.error.move
        seat = pb.state.current_player
        if seat is None and pb.error.player in names:
            seat = names.index(pb.error.player)
        row = _move_row(family, raws[i] if raws else record.moves[i], i + 1, seat, names, 0, 0)
        out.moves.append({**row, "legal": 0, "rule": pb.error.rule})
    scores = list(pb.state.scores)
    ranks = _ranks(scores)
    winners = set(pb.state.winners()) if pb.state.finished else set()
    for seat, p in enumerate(record.players):
        kinds = dict(sorted(totals[seat].items()))
        out.results.append({
            "seat": seat, "player": p.name, "colour": p.colour, "score": scores[seat],
            "rank": ranks[seat], "winner": int(seat in winners),
            "finished": int(pb.state.finished), "valid": int(pb.error is None),
            "points_by_kind": json.dumps(kinds, ensure_ascii=False)})
        out.points.extend({"seat": seat, "player": p.name, "kind": kind, "points": points}
                          for kind, points in kinds.items())
    return out


def of_players(players: list[dict[str, str]]) -> GameTables:
    """The rows of a game whose header broke a rule: its seats, no score."""
    return GameTables(results=[
        {"seat": i, "player": p["name"], "colour": p["colour"], "score": None, "rank": None,
         "winner": 0, "finished": 0, "valid": 0, "points_by_kind": "{}"}
        for i, p in enumerate(players)])


def _ranks(scores: list[int]) -> list[int]:
    return [1 + sum(1 for t in scores if t > s) for s in scores]


def _move_row(family: Family, move: Any, number: int, seat: int | None, names: list[str],
              points: int, scored: int) -> Row:
    raw = move if isinstance(move, dict) else family.encode_move(move)
    row: Row = {"number": number, "seat": seat,
                "player": names[seat] if seat is not None else None,
                "points": points, "scored": scored, "legal": 1, "rule": None}
    for column in family.move_columns:
        row[column.name] = column.value(raw)
    return row


def _event_row(e: Any, names: list[str], number: int, seq: int) -> Row:
    winners = getattr(e, "winners", None)
    player = getattr(e, "player", None)
    seats = list(winners) if isinstance(winners, tuple) else \
        [player] if isinstance(player, int) else []
    figure = getattr(e, "kind", None) if e.type in ("figure", "return") else None
    feature = getattr(e, "feature", None)
    return {"seq": seq, "number": number, "kind": e.type,
            "seats": f"[{', '.join(map(str, seats))}]",
            "players": ", ".join(names[s] for s in seats if 0 <= s < len(names)),
            "points": getattr(e, "points", None) if isinstance(e, Score) else None,
            "feature": feature if isinstance(feature, str) and feature else None,
            "figure": figure if isinstance(figure, str) else None,
            "phase": getattr(e, "phase", "play") if isinstance(e, Score) else "play",
            "rule": getattr(e, "rule", None) if isinstance(getattr(e, "rule", None), str)
            else None}


# ------------------------------------------------------------------------------ storage

def create(db: Database, families: list[Family]) -> None:
    """The four tables with their keys and indexes, ``moves`` with the columns of
    ``families`` (a migration)."""
    moves: dict[str, Any] = {"game_id": str, "number": int, "seat": int, "player": str,
                             "points": int, "scored": int, "legal": int, "rule": str}
    for family in families:
        for column in family.move_columns:
            moves.setdefault(column.name, int if column.kind == "integer" else str)
    db.table("moves").create(moves, pk=("game_id", "number"),
                             foreign_keys=[("game_id", "games", "id")])
    db.table("events").create({
        "game_id": str, "seq": int, "number": int, "kind": str, "seats": str, "players": str,
        "points": int, "feature": str, "figure": str, "phase": str, "rule": str,
    }, pk=("game_id", "seq"), foreign_keys=[("game_id", "games", "id")])
    db.table("results").create({
        "game_id": str, "seat": int, "player": str, "colour": str, "score": int, "rank": int,
        "winner": int, "finished": int, "valid": int, "points_by_kind": str,
    }, pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")])
    db.table("result_points").create({
        "game_id": str, "seat": int, "player": str, "kind": str, "points": int,
    }, pk=("game_id", "seat", "kind"), foreign_keys=[("game_id", "games", "id")])
    db.table("moves").create_index(["player"])
    db.table("events").create_index(["kind", "feature"])
    db.table("events").create_index(["game_id", "number"])
    db.table("results").create_index(["player"])
    db.table("results").create_index(["seat", "winner"])
    db.table("result_points").create_index(["kind"])
    db.table("result_points").create_index(["player", "kind"])


def write(db: Database, game_id: str, tables: GameTables) -> int:
    """Insert a game's rows (inside the caller's transaction); how many. A family's move
    columns that ``moves`` lacks (a plugin installed since) are added. One prepared
    statement a table (``executemany``): sqlite-utils' ``insert_all`` builds its SQL row by
    row, which cost an upload a third of its time."""
    conn = db.conn
    for name, rows in (("moves", tables.moves), ("events", tables.events),
                       ("results", tables.results), ("result_points", tables.points)):
        if not rows:
            continue
        columns = list(rows[0])
        if name == "moves":
            _add_columns(db, columns, rows[0])
        sql = (f"insert into [{name}] (game_id, {', '.join(f'[{c}]' for c in columns)}) "
               f"values (?{', ?' * len(columns)})")
        conn.executemany(sql, ([game_id, *(r[c] for c in columns)] for r in rows))
    return tables.count()


def _add_columns(db: Database, columns: list[str], sample: Row) -> None:
    """The columns of ``moves`` that a family declares and the table lacks, added."""
    have = {c.name for c in db.table("moves").columns}
    for c in columns:
        if c not in have:
            kind = "INTEGER" if isinstance(sample[c], int) else "TEXT"
            try:
                db.conn.execute(f"alter table moves add column [{c}] {kind}")
            except sqlite3.OperationalError as exc:  # another process added it meanwhile
                if "duplicate column" not in str(exc):
                    raise


def of_log(log: str, players: list[dict[str, str]]) -> GameTables:
    """The rows of a stored game from its log text (the migration; a game stored without
    them); a log that cannot be read any more, or whose header breaks a rule, gives its seats
    only (``of_players``)."""
    from ..core.errors import IllegalMove, LogFormatError
    from ..core.record import read_game

    try:
        record = read_game(log.encode("utf-8"))
    except (LogFormatError, IllegalMove):
        return of_players(players)
    value = json.loads(log)  # (read already: a log v1)
    return of_record(record, raw_moves=value.get("moves") if isinstance(value, dict) else None)
