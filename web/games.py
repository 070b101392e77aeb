"""Games as the web app sees them: checking an upload, storing it, and replays kept in memory.

The engine does the work (``replay.core.record``, ``replay.core.verify``, ``replay.svg``);
this module turns its results into stored rows and keeps, per game id, the record (with its
playback) and a summary of every move (scores over time, the move list), so that a position
is a copied checkpoint and a few moves away.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from flask import abort, current_app, redirect, request, url_for
from sqlite_utils import Database

from replay.core.errors import IllegalMove, LogFormatError
from replay.core.events import Score
from replay.core.json_input import decode
from replay.core.outlook import if_ended_now
from replay.core.playback import Playback
from replay.core.record import GameRecord, parse
from replay.core.verify import Report, judge, verify
from replay.core.view import view_of
from replay.library.rows import game_row, source_meta
from replay.library.rows import save as save_row
from replay.library.spellings import resolve

from . import db as store

K = TypeVar("K")
V = TypeVar("V")
GAME_ID = re.compile(r"[0-9a-f]{16}(?:[0-9a-f]{48})?")


@dataclass(frozen=True, slots=True)
class Checked:
    """An uploaded log, checked: the row to store, the parsed log and the verifier's report."""

    row: store.GameRow
    parsed: GameRecord | None  # None when the header breaks a rule (e.g. B1)
    report: Report


def check(data: bytes, max_bytes: int, source: str = "upload") -> Checked:
    """Read, import and verify a log (``replay.core.verify.verify``, the one path), and make
    its library row. Raises ``LogFormatError`` (with its JSON path) for input that is not a
    readable log; a well-formed log that breaks a rule is checked all the same (its verdict
    says so)."""
    report = verify(data, max_bytes=max_bytes, name=source, keep=True)
    return Checked(game_row(report), report.record, report)


def save(db: Database, checked: Checked, name: str = "") -> tuple[store.GameRow, bool]:
    """Store a checked game, from a file that came under ``name`` ("" when none was given):
    the same game, however its file is spelled, gets the same id (``replay.library.identity``).
    Returns the row and whether it was new."""
    return save_row(db, checked.row, name, source_meta(checked.report))


# --------------------------------------------------------------------------- summaries

@dataclass(frozen=True, slots=True)
class MoveInfo:
    """One entry of the move list: move ``number`` (1-based: the ``number``-th move of the log,
    ``/moves/<number - 1>`` in its JSON) leads to position ``number``.

    ``text`` tells the move in words, without the player, and ``codes`` the same in the log's
    codes, for a tooltip: both from its family's view (``View.describe_move``)."""

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
    # the scores if the game ended there, at positions 0 .. last (``replay.core.outlook``)
    if_ended: tuple[tuple[int, ...], ...] = ()

    @property
    def last(self) -> int:
        return len(self.moves)


def summarise(parsed: GameRecord, r: Playback, before: Summary | None = None,
              base: int = 0) -> Summary:
    """The move list and the scores after every move of a replayed log (the sum of the score
    events, which is what the scores are, G12); each move told by its family's view; and the
    scores if the game ended at each position (``replay.core.outlook.if_ended_now``).

    ``before``: the summary of a log whose first ``base`` moves are this one's, all legal (a
    variation's game): what it says of them is taken, only the moves after are told."""
    names = [p.name for p in parsed.config.players]
    family = view_of(parsed.family)
    if before is None:
        base = 0
    total = list(before.scores[base]) if before is not None else [0] * len(names)
    scores = list(before.scores[:base + 1]) if before is not None else [tuple(total)]
    moves: list[MoveInfo] = list(before.moves[:base]) if before is not None else []
    for i, events in enumerate(r.events[base:], base):
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
    ended = [*before.if_ended[:base]] if before is not None else []
    ended += (tuple(s) for s in if_ended_now(r, base))
    return Summary(tuple(moves), tuple(scores), failure, r.state.finished, tuple(ended))


# --------------------------------------------------------------------------- the cache

KEPT = 8  # values one game keeps (``Entry.keep``): a chart per kind of page, a few at most


class Entry:
    """A stored game with its parsed log and (computed on first use) its summary."""

    def __init__(self, row: store.GameRow, parsed: GameRecord | None = None,
                 before: tuple[Entry, int] | None = None) -> None:
        """``parsed``: the record of ``row.log`` when the caller has read it already (a
        variation, checked as it was read), else it is read here; ``before``: the game whose
        first moves (that many) are this one's, all legal (a variation's game), whose summary
        tells them (``summarise``)."""
        self.row = row
        self.before = before
        self.parsed: GameRecord | None = parsed
        self.header_error: IllegalMove | None = None
        self.unreadable: str | None = None  # a log stored before a check that now refuses it
        try:
            if parsed is None:
                self.parsed = parse(decode(row.log))
        except IllegalMove as exc:
            self.header_error = exc
        except LogFormatError as exc:
            self.unreadable = f"{exc.path or '/'}: {exc.message}"
        self._summary: Summary | None = None
        self._report: Report | None = None
        self._lock = threading.Lock()
        self._kept: dict[Hashable, object] = {}
        self.line: tuple[int, str] | None = None  # a variation's branch and line (web.variations)

    @property
    def summary(self) -> Summary:
        if self._summary is None:
            with self._lock:
                if self._summary is None:
                    prefix, base = ((self.before[0].summary, self.before[1])
                                    if self.before is not None else (None, 0))
                    self._summary = (summarise(self.parsed, self.parsed.playback, prefix, base)
                                     if self.parsed is not None
                                     else Summary((), ((0,) * len(self.row.players),), None,
                                                  False, ((0,) * len(self.row.players),)))
                    self.before = None  # told: the game need not be held any longer
        return self._summary

    @property
    def last(self) -> int:
        return self.summary.last

    def keep(self, key: Hashable, make: Callable[[], V]) -> V:
        """``make()``, made once and kept with this game under ``key`` (at most ``KEPT`` keys,
        the oldest going first): what every page of the game shows alike (its chart)."""
        try:
            return self._kept[key]  # type: ignore[return-value]
        except KeyError:
            pass
        value = make()
        with self._lock:
            if len(self._kept) >= KEPT:
                del self._kept[next(iter(self._kept))]
            self._kept[key] = value
        return value

    @property
    def report(self) -> Report | None:
        """The verifier's report, from the kept playback (computed once)."""
        if self.parsed is None:
            return None
        if self._report is None:
            self._report = judge(self.parsed, self.parsed.playback, Report(self.row.id))
        return self._report

    def default_position(self) -> int:
        """Where the viewer opens: the failing move of an invalid game, else the last move."""
        if self.row.error_move is not None:
            return min(self.row.error_move + 1, self.last)
        return self.last


class LRU(Generic[K, V]):
    """A thread-safe map of at most ``size`` items weighing at most ``budget`` in all (each
    weighed once by ``weigh`` when it is put; None: no bound by weight), the least recently
    used going first. An item heavier than the budget is kept alone."""

    def __init__(self, size: int, budget: int | None = None,
                 weigh: Callable[[V], int] | None = None) -> None:
        self.size = size
        self.budget = budget
        self.weigh = weigh
        self.weight = 0  # of the items kept
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V) -> None:
        weight = self.weigh(value) if self.weigh is not None and self.budget is not None else 0
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.weight -= old[1]
            self._items[key] = (value, weight)
            self.weight += weight
            while len(self._items) > self.size or (
                    self.budget is not None and self.weight > self.budget
                    and len(self._items) > 1):
                _, (_, gone) = self._items.popitem(last=False)
                self.weight -= gone


# What a kept replay weighs, estimated from its row before it is replayed: measured with
# tracemalloc (its record, playback and checkpoints, summary, report and charts, the process's
# own caches warm: tests/test_web_memory.py) at 3.3 KB a position (the card game) to 9.5 KB (a
# 6-player tile game), plus the log's text, kept as a string and read into the record's
# values; an estimate never under what a game holds
BYTES_PER_POSITION = 11_000
BYTES_PER_LOG_BYTE = 4


def weigh(entry: Entry) -> int:
    """The estimated bytes a kept ``Entry`` holds (``BYTES_PER_POSITION``), from its row."""
    return (entry.row.moves + 1) * BYTES_PER_POSITION + entry.row.size * BYTES_PER_LOG_BYTE


class Cache:
    """Parsed logs and summaries of recently viewed games (least recently used goes first),
    at most ``size`` games and ``budget`` bytes (``weigh``)."""

    def __init__(self, size: int = 64, budget: int | None = None) -> None:
        self._games: LRU[str, Entry] = LRU(size, budget, weigh)

    @property
    def weight(self) -> int:
        """The estimated bytes of the games kept."""
        return self._games.weight

    def kept(self, game_id: str) -> Entry | None:
        """The game ``game_id`` if it is kept, else None (no connection needed)."""
        return self._games.get(game_id)

    def get(self, db: Database, game_id: str) -> Entry | None:
        entry = self._games.get(game_id)
        if entry is not None:
            return entry
        row = store.find(db, game_id)
        if row is None:
            return None
        entry = Entry(row)
        self._games.put(game_id, entry)
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
    """The stored game ``game_id`` (hex digits of its sha256), or a 404 response; a 308
    redirect to the same URL of the game kept when ``game_id`` is a game merged into another
    or another spelling of a stored game (``replay.library.spellings.resolve``)."""
    if not GAME_ID.fullmatch(game_id):
        abort(404)
    entry = cache().kept(game_id)
    if entry is not None:  # a game viewed lately: no connection to open (about 0.5 ms)
        return entry
    db = store.get_db()
    entry = cache().get(db, game_id)
    if entry is None:
        kept = resolve(db, game_id)
        if kept is not None and kept != game_id and request.endpoint:
            query = request.query_string.decode("latin-1")
            url = url_for(request.endpoint, **{**(request.view_args or {}), "game_id": kept})
            abort(redirect(url + (f"?{query}" if query else ""), 308))
        abort(404)
    return entry
