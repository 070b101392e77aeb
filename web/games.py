"""Games as the web app sees them: checking an upload, storing it, and replays kept in memory.

The engine does the work (``replay.core.record``, ``replay.core.verify``, ``replay.svg``);
this module turns its results into stored rows and keeps, per game id, the record (with its
playback) and a summary of every move (scores over time, the move list), so that a position
is a copied checkpoint and a few moves away.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from flask import abort, current_app, request
from sqlite_utils import Database

from replay.core.errors import IllegalMove, LogFormatError
from replay.core.events import Score
from replay.core.family import COLOURS
from replay.core.json_input import decode
from replay.core.playback import Playback
from replay.core.record import GameRecord, foreign, parse
from replay.core.verify import Report, verify_data, verify_parsed
from replay.generate import dumps

from . import db as store

ID_LENGTH = 16  # hex digits of the sha256 that name a game
GAME_ID = re.compile(r"[0-9a-f]{16}(?:[0-9a-f]{48})?")


class BadLog(Exception):
    """Input that is not a readable, schema-valid log (HTTP 400): what and where (JSON path)."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def as_json(self) -> dict[str, Any]:
        return {"rule": "L1", "message": self.message, "path": self.path}


@dataclass(frozen=True, slots=True)
class Checked:
    """An uploaded log, checked: the row to store, the parsed log and the verifier's report."""

    row: store.GameRow
    parsed: GameRecord | None  # None when the header breaks a rule (e.g. B1)
    report: Report


def check(data: bytes, max_bytes: int, source: str = "upload") -> Checked:
    """Decode, schema-check and verify a log. Raises ``BadLog`` for malformed input; a
    well-formed log that breaks a rule is checked all the same (its verdict says so)."""
    imported = None
    try:
        value = decode(data, max_bytes)
        imported = foreign(value)
        if imported is not None:  # a foreign saved game: its log v1 is what is checked
            value = imported.log
        parsed: GameRecord | None = parse(value)
    except LogFormatError as exc:
        raise BadLog(exc.message, exc.path) from None
    except IllegalMove:
        parsed = None
    report = (verify_parsed(parsed, source, parsed.playback) if parsed is not None
              else verify_data(value, source))
    if imported is not None:
        report.format = imported.format
        report.problems = [p.as_json() for p in imported.problems]
    sha = hashlib.sha256(data).hexdigest()
    if parsed is not None:
        players = [{"name": p.name, "colour": p.colour} for p in parsed.config.players]
    else:
        players = [{"name": str(p["name"]), "colour": str(p.get("colour") or COLOURS[i % 6])}
                   for i, p in enumerate(value["players"])]
    err = report.error or {}
    row = store.GameRow(
        id=sha[:ID_LENGTH], sha256=sha, created=datetime.now(UTC).isoformat(timespec="seconds"),
        size=len(data), log=data.decode("utf-8") if imported is None else dumps(value),
        game=str(value["game"]),
        expansions=[str(x) for x in value.get("expansions", [])], players=players,
        moves=len(value["moves"]), moves_played=report.moves_played, finished=report.finished,
        verdict="valid" if report.valid else "invalid", rule=err.get("rule"),
        error_move=err.get("move"), error_player=err.get("player"), message=err.get("message"),
        scores=[report.final_scores.get(p["name"], 0) for p in players] if parsed else [],
        winners=list(report.winners),
        source_format=report.format,
        original=None if imported is None else data.decode("utf-8"),
        import_problems=report.problems,
    )
    return Checked(row, parsed, report)


def save(db: Database, checked: Checked) -> tuple[store.GameRow, bool]:
    """Store a checked game; identical logs get the same id. Returns the row and whether it
    was new."""
    row = checked.row
    existing = store.find(db, row.id)
    if existing is not None and existing.sha256 != row.sha256:
        row = replace(row, id=row.sha256)  # two logs share the first digits: use them all
        existing = store.find(db, row.id)
    if existing is not None:
        return existing, False
    if not store.insert(db, row):
        found = store.find(db, row.id)
        assert found is not None
        return found, False
    return row, True


# --------------------------------------------------------------------------- summaries

@dataclass(frozen=True, slots=True)
class MoveInfo:
    """One entry of the move list: move ``number`` (1-based: the ``number``-th move of the log,
    ``/moves/<number - 1>`` in its JSON) leads to position ``number``.

    ``text`` tells the move in words, without the player, and ``codes`` the same in the log's
    codes, for a tooltip: both from its family (``Family.describe_move``)."""

    number: int
    player: int  # seat
    text: str
    points: tuple[int, ...]  # points each seat gained with this move
    codes: str = ""
    failed: bool = False


@dataclass(frozen=True, slots=True)
class Summary:
    """A replayed game's move list and the scores at every position."""

    moves: tuple[MoveInfo, ...]
    scores: tuple[tuple[int, ...], ...]  # scores at positions 0 .. last legal position
    failure: int | None  # 0-based index of the illegal move
    finished: bool

    @property
    def last(self) -> int:
        return len(self.moves)


def summarise(parsed: GameRecord, r: Playback) -> Summary:
    """The move list and the scores after every move of a replayed log (the sum of the score
    events, which is what the scores are, G12); each move told by its family."""
    names = [p.name for p in parsed.config.players]
    family = parsed.family
    total = [0] * len(names)
    scores = [tuple(total)]
    moves: list[MoveInfo] = []
    for i, events in enumerate(r.events):
        move = parsed.moves[i]
        gained = [0] * len(names)
        for e in events:
            if isinstance(e, Score):
                for w in e.winners:
                    gained[w] += e.points
        total = [a + b for a, b in zip(total, gained, strict=True)]
        scores.append(tuple(total))
        # every family's first event naming a player is the mover's (place, choose, build,
        # card-discard)
        seat = next((p for e in events if isinstance(p := getattr(e, "player", None), int)), 0)
        told = family.describe_move(move, events, r.state)
        moves.append(MoveInfo(i + 1, seat, told.text, tuple(gained), told.codes))
    failure = r.error.move if r.error is not None else None
    if r.error is not None and failure is not None:
        move = parsed.moves[failure]
        mover = r.state.current_player
        if mover is None:
            mover = names.index(r.error.player) if r.error.player in names else 0
        told = family.describe_move(move, None, r.state)
        moves.append(MoveInfo(failure + 1, mover, told.text, (), told.codes, failed=True))
    return Summary(tuple(moves), tuple(scores), failure, r.state.finished)


# --------------------------------------------------------------------------- the cache

class Entry:
    """A stored game with its parsed log and (computed on first use) its summary."""

    def __init__(self, row: store.GameRow) -> None:
        self.row = row
        self.parsed: GameRecord | None = None
        self.header_error: IllegalMove | None = None
        self.unreadable: str | None = None  # a log stored before a check that now refuses it
        try:
            self.parsed = parse(decode(row.log))
        except IllegalMove as exc:
            self.header_error = exc
        except LogFormatError as exc:
            self.unreadable = f"{exc.path or '/'}: {exc.message}"
        self._summary: Summary | None = None
        self._report: Report | None = None
        self._lock = threading.Lock()

    @property
    def summary(self) -> Summary:
        if self._summary is None:
            with self._lock:
                if self._summary is None:
                    self._summary = (summarise(self.parsed, self.parsed.playback)
                                     if self.parsed is not None
                                     else Summary((), ((0,) * len(self.row.players),), None,
                                                  False))
        return self._summary

    @property
    def last(self) -> int:
        return self.summary.last

    @property
    def report(self) -> Report | None:
        """The verifier's report, from the kept playback (computed once)."""
        if self.parsed is None:
            return None
        if self._report is None:
            self._report = verify_parsed(self.parsed, self.row.id, self.parsed.playback)
        return self._report

    def default_position(self) -> int:
        """Where the viewer opens: the failing move of an invalid game, else the last move."""
        if self.row.error_move is not None:
            return min(self.row.error_move + 1, self.last)
        return self.last


class Cache:
    """Parsed logs and summaries of recently viewed games (least recently used goes first)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, db: Database, game_id: str) -> Entry | None:
        with self._lock:
            entry = self._items.get(game_id)
            if entry is not None:
                self._items.move_to_end(game_id)
                return entry
        row = store.find(db, game_id)
        if row is None:
            return None
        entry = Entry(row)
        with self._lock:
            self._items[game_id] = entry
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return entry


# --------------------------------------------------------------------------- request helpers

def cache() -> Cache:
    """The app's cache of replayed games."""
    found: Cache = current_app.extensions["replay_cache"]
    return found


def log_limit() -> int:
    """The largest log accepted, in bytes (``MAX_CONTENT_LENGTH``)."""
    return int(current_app.config["MAX_CONTENT_LENGTH"])


MAX_OFFSET = 10**9  # no library holds more games; larger offsets are clamped to it


def query_int(name: str, default: int, lo: int, hi: int) -> int:
    """The integer query argument ``name`` clamped to ``lo``..``hi``; ``default`` when it is
    missing or not a plain whole number (``1e23``, ``abc``)."""
    text = request.args.get(name, "")
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        return default if not (text.isascii() and text.isdigit()) else hi
    return max(lo, min(int(text), hi))


def entry_or_404(game_id: str) -> Entry:
    """The stored game ``game_id`` (hex digits of its sha256), or a 404 response."""
    if not GAME_ID.fullmatch(game_id):
        abort(404)
    entry = cache().get(store.get_db(), game_id)
    if entry is None:
        abort(404)
    return entry
