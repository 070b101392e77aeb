"""A verified game as the library stores it: the row made from a ``verify`` report, and saving
it once: the same game (``replay.library.identity``), whatever the spelling of its file, gets
the id of the first file that brought it; each file is noted (``replay.library.spellings``)."""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from sqlite_utils import Database

from ..core.errors import LogFormatError
from ..core.family import COLOURS
from ..core.verify import Report
from ..generate import dumps
from . import tables
from .identity import content_key, meta_of
from .spellings import add_source, has_source
from .store import GameRow, add_game, find, find_content, storage_fault, write

ID_LENGTH = 16  # hex digits of the sha256 that name a game


def game_row(report: Report) -> GameRow:
    """The library row of a log ``verify`` read (a legal game or not: its verdict says so).

    Raises the report's ``LogFormatError`` (with its JSON path) when the log is unreadable:
    there is nothing to store."""
    if not report.readable or report.log is None:
        failure = report.failure
        raise LogFormatError(failure.message if failure else "unreadable",
                             (failure.path or "") if failure else "")
    value = report.log
    imported = report.format != "log v1"
    data = report.data if report.data is not None else dumps(value).encode("utf-8")
    sha = hashlib.sha256(data).hexdigest()
    parsed = report.record
    if parsed is not None:
        players = [{"name": p.name, "colour": p.colour} for p in parsed.config.players]
    else:  # a header that breaks a rule: the seats as written
        players = [{"name": str(p["name"]), "colour": str(p.get("colour") or COLOURS[i % 6])}
                   for i, p in enumerate(value["players"])]
    failure = report.failure
    return GameRow(
        id=sha[:ID_LENGTH], sha256=sha, created=datetime.now(UTC).isoformat(timespec="seconds"),
        size=len(data), log=data.decode("utf-8") if not imported else dumps(value),
        game=str(value["game"]), expansions=[str(x) for x in value.get("expansions", [])],
        players=players, moves=len(value["moves"]), moves_played=report.moves_played,
        finished=report.finished, verdict="valid" if report.valid else "invalid",
        rule=failure.rule if failure else None, error_move=failure.move if failure else None,
        error_player=failure.player if failure else None,
        message=failure.message if failure else None,
        scores=[report.final_scores.get(p["name"], 0) for p in players] if parsed else [],
        winners=list(report.winners), source_format=report.format,
        original=data.decode("utf-8") if imported else None,
        import_problems=[p.as_json() for p in report.problems],
        content_key=content_key(report),
        tables=tables.of_record(parsed, raw_moves=value.get("moves")) if parsed is not None
        else tables.of_players(players),
    )


def save(db: Database, row: GameRow, name: str = "",
         meta: dict[str, Any] | None = None) -> tuple[GameRow, bool]:
    """Store a game's row, from a file that came under ``name`` ("" when none was given) with
    ``meta``; the same game, whatever its spelling, gets the same id. Returns the stored row
    and whether it was new."""
    existing = find_content(db, row.content_key)
    if existing is not None and has_source(db, row.sha256, name):
        return existing, False
    try:
        with write(db):
            return store_row(db, row, name, meta)
    except sqlite3.OperationalError as exc:
        if existing is None or storage_fault(exc) is None:
            raise
        return existing, False  # stored already: only this spelling could not be noted


def store_row(db: Database, row: GameRow, name: str = "",
              meta: dict[str, Any] | None = None) -> tuple[GameRow, bool]:
    """``save`` inside the caller's write transaction (``store.write``)."""
    existing = find_content(db, row.content_key)
    if existing is None:
        clash = find(db, row.id)
        if clash is not None and clash.sha256 != row.sha256:
            row = replace(row, id=row.sha256)  # two files share the first digits: use them all
            clash = find(db, row.id)
        existing = clash
    if existing is not None:
        add_source(db, existing.id, row.sha256, name, meta, row.created)
        return existing, False
    add_game(db, row)
    add_source(db, row.id, row.sha256, name, meta, row.created)
    return row, True


def source_meta(report: Report) -> dict[str, Any] | None:
    """The ``meta`` block of the log a report read (what its importer made, for a foreign
    file)."""
    return meta_of(report.log)
