"""``python -m replay ingest SRC... --db games.db``: a corpus into the web app's library.

The workers check each game as an upload is checked (``replay.core.verify.verify``: read,
import a foreign save, verify; ``replay.library.rows.game_row``) and send back the row to
store; this process stores the rows in batches, one ``BEGIN IMMEDIATE`` transaction each
(``replay.library.store.write``), so a running server
keeps answering meanwhile. A game is stored once, whatever the spelling of its file
(``replay.library.identity``: a file, the same re-indented or with another ``meta``, a line of
a ``.jsonl`` are one game): a new game's id is the start of its file's sha256 (the whole sha256
when two files share the start); a game already in the library, or met twice in the corpus, is
counted as a duplicate, and its file's name and ``meta`` are noted with it. An unreadable or
schema-invalid file is not stored (the summary says why); an illegal game is stored with its
verdict, as the viewer shows it.
"""

from __future__ import annotations

import sqlite3
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.errors import LogFormatError
from ..core.json_input import MAX_BYTES
from ..core.printable import printable
from ..core.verify import EXIT_INTERNAL, EXIT_UNREADABLE, EXIT_VALID, internal_message, verify
from ..library import store as library
from ..library.rows import game_row, source_meta, store_row
from ..library.tables import GameTables
from ..reports import reason
from .sources import DEFAULT_LIMITS, Limits
from .work import Row, Task, failed_row, row_of, verified, warm


def check_task(task: Task, max_bytes: int = MAX_BYTES) -> Row:
    """The library row of one item (``store``), or why it cannot be stored; never raises."""
    index, name, path, data, error = task
    if error is not None:
        return failed_row(index, name, "unreadable", error)
    try:
        report = verify(data if data is not None else path or "", max_bytes=max_bytes,
                        name=name, keep=True)  # (kept: the events make its rows as data)
        try:
            row = game_row(report)
        except LogFormatError as exc:
            where = f"{exc.path}: " if exc.path else ""
            return failed_row(index, name, "unreadable", where + exc.message)
    except Exception as exc:  # a bug of ours
        return failed_row(index, name, "internal", internal_message(exc))
    return {"index": index, "name": name, "verdict": row.verdict, "exit": 0,
            "message": None, "store": row.as_row(), "meta": source_meta(report),
            "tables": row.tables.as_json()}


def audit_task(task: Task, max_bytes: int = MAX_BYTES) -> Row:
    """The audit's row of one item (``work.verify_task``) and, for a game the library can
    store, its library row (``store``) and its file's ``meta``: one verification for both
    (``audit --ingest``); never raises."""
    index, name, _, _, error = task
    if error is not None:
        return failed_row(index, name, "unreadable", error)
    report = verified(task, max_bytes, keep=True)  # one replay: the verdict and the rows
    row = row_of(index, report)
    if report.readable and not report.internal:
        try:
            made = game_row(report)
            row["store"] = made.as_row()
            row["meta"] = source_meta(report)
            row["tables"] = made.tables.as_json()
        except LogFormatError:
            pass  # not stored; the audit's verdict says why
    return row


def audit_batch(tasks: list[Task], max_bytes: int = MAX_BYTES) -> list[Row]:
    """``audit_task`` of each item of a batch."""
    warm()
    return [audit_task(t, max_bytes) for t in tasks]


def check_batch(tasks: list[Task], max_bytes: int = MAX_BYTES) -> list[Row]:
    """``check_task`` of each item of a batch."""
    warm()
    return [check_task(t, max_bytes) for t in tasks]


@dataclass
class Ingested:
    """What an ingest did."""

    games: int = 0
    stored: Counter[str] = field(default_factory=Counter)  # verdict -> new games
    duplicates: int = 0
    unreadable: Counter[str] = field(default_factory=Counter)  # reason -> games
    internal: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)  # what opening the library did (merges)

    @property
    def exit(self) -> int:
        if self.internal:
            return EXIT_INTERNAL
        return EXIT_UNREADABLE if self.unreadable else EXIT_VALID

    def lines(self) -> list[str]:
        rate = self.games / self.seconds if self.seconds > 0 else 0.0
        out = [f"library: {note}" for note in self.notes]
        out += [f"games: {self.games}; stored {sum(self.stored.values())} "
                f"(valid {self.stored['valid']}, invalid {self.stored['invalid']}), "
                f"duplicates {self.duplicates}, not stored {sum(self.unreadable.values())}"
                + (f", internal errors {self.internal}" if self.internal else "")]
        for why, n in sorted(self.unreadable.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"not stored ({n}): {why}")
        out.append(f"{rate:.1f} games/s ({self.seconds:.1f} s)")
        return [printable(line) for line in out]


def store(db: Any, rows: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """Store the rows of ``check_task`` (``store``: the library row; ``name``, ``meta``: its
    file's) in one transaction: (new, duplicates, verdicts of the new)."""
    new, dup, verdicts = 0, 0, []
    with library.write(db):
        for item in rows:
            made = library.GameRow.from_row(item["store"])
            if item.get("tables") is not None:
                made = replace(made, tables=GameTables.from_json(item["tables"]))
            row, created = store_row(db, made, item["name"], item.get("meta"))
            if created:
                new += 1
                verdicts.append(row.verdict)
            else:
                dup += 1
    return new, dup, verdicts


class LibraryError(Exception):
    """A library that cannot be opened (its directory missing, a read-only disk...)."""


class Library:
    """The library at ``path`` (created and migrated when new) taking rows as they come, and
    storing them ``batch_rows`` at a time (one transaction each); what it did in ``result``.
    ``ingest`` feeds it every row; ``audit --ingest`` the rows of the games it verified.
    Raises ``LibraryError`` when the file cannot be opened or made."""

    def __init__(self, path: str, batch_rows: int = 500) -> None:
        try:
            self.result = Ingested(notes=library.migrate(path))
            self.db = library.connect(path)
        except (sqlite3.Error, OSError) as exc:
            why = library.storage_fault(exc) or "not a library"
            raise LibraryError(f"cannot open the library {path!r} ({why}: {exc})") from None
        self.batch_rows = batch_rows
        self.pending: list[dict[str, Any]] = []

    def add(self, row: Row) -> None:
        """Count a row of ``check_task`` (or ``audit_task``), and store it with the next
        batch if it can be."""
        result = self.result
        result.games += 1
        if "store" in row:
            self.pending.append(row)
            if len(self.pending) >= self.batch_rows:
                self.flush()
        elif row["verdict"] == "internal":
            result.internal += 1
        else:
            result.unreadable[reason(row["message"])] += 1

    def flush(self) -> None:
        """Store the rows waiting."""
        if self.pending:
            _, dup, verdicts = store(self.db, self.pending)
            self.result.duplicates += dup
            self.result.stored.update(verdicts)
            self.pending.clear()

    def close(self) -> None:
        """Store what waits, and close the library."""
        try:
            self.flush()
        finally:
            self.db.close()

    def said(self, path: str) -> dict[str, Any]:
        """What an audit's report says of it (``Summary.library``)."""
        result = self.result
        return {"path": path, "new": sum(result.stored.values()), "there": result.duplicates,
                "not_stored": sum(result.unreadable.values()) + result.internal}


def ingest(sources: Sequence[str], path: str, jobs: int | None = None,
           progress: bool | None = None, limits: Limits = DEFAULT_LIMITS,
           batch_rows: int = 500) -> Ingested:
    """Check every game of ``sources`` on ``jobs`` workers and store them in the library
    at ``path`` (created and migrated when new); ``progress``: a bar on stderr (by default
    when it is a terminal)."""
    from .command import working

    store_in = Library(path, batch_rows)
    start = time.perf_counter()
    try:
        with working(sources, progress, limits, jobs=jobs, worker=check_batch) as stream:
            for row in stream:
                store_in.add(row)
    finally:
        store_in.close()
    store_in.result.seconds = time.perf_counter() - start
    return store_in.result
