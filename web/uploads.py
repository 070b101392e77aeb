"""Several files in one post of the upload page: each checked, stored and given its verdict.

The page's script sends the files one by one to ``POST /api/games`` (with progress); this is
the same without script: one multipart post of up to ``UPLOAD_BATCH_FILES`` files and
``UPLOAD_BATCH_BYTES`` bytes in all, answered with a page listing every file's verdict. Each
file counts as one upload against the client's rate limit (``web.limits.take``); a file over
the log size limit, unreadable, or past the budget gets its own verdict and leaves nothing
stored, while the other files are stored as usual (an illegal game is stored, as always).
Files past the cap are not read: their verdict says to send them again.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from flask import current_app, url_for
from werkzeug.datastructures import FileStorage
from werkzeug.exceptions import TooManyRequests

from replay.core.errors import LogFormatError
from replay.library.store import storage_fault

from . import db as store
from .games import check, log_limit, save
from .limits import take

UPLOAD_PATH = "/upload"  # the page whose posts may be larger than one log (``batch_bytes``)
BATCH_FILES = 50  # files one post may hold (``UPLOAD_BATCH_FILES``)
BATCH_BYTES = 20 * 1024 * 1024  # bytes one post may hold (``UPLOAD_BATCH_BYTES``)
NAME_LENGTH = 200  # characters of a file's name kept with the game (as the API keeps)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What became of one file: ``kind`` is ``valid``, ``illegal`` (both stored, ``url`` opens
    the game in the viewer), ``unreadable``, ``too-large`` or ``not-stored`` (nothing stored);
    ``text`` says it in words; ``new`` is false for a game the library held already."""

    name: str
    kind: str
    text: str
    url: str | None = None
    new: bool = False

    @property
    def stored(self) -> bool:
        return self.url is not None


def batch_files() -> int:
    """The most files one post of the upload page may hold."""
    return int(current_app.config.get("UPLOAD_BATCH_FILES") or BATCH_FILES)


def batch_bytes() -> int:
    """The largest post of the upload page, in bytes (never less than one log's limit)."""
    return max(log_limit(), int(current_app.config.get("UPLOAD_BATCH_BYTES") or BATCH_BYTES))


def _megabytes(n: int) -> str:
    return f"{n / 1024 / 1024:g} MB"


def store_files(files: list[FileStorage]) -> list[Verdict]:
    """Check and store each of ``files`` (in the order sent); one verdict per file. The
    files past the client's rate budget get ``not-stored`` verdicts; when not one fits, 429
    (``TooManyRequests`` with ``Retry-After``) as for a single upload."""
    cap = batch_files()
    taken, rest = files[:cap], files[cap:]
    fit, wait = take(len(taken))
    if fit == 0 and wait is not None:
        raise TooManyRequests(retry_after=wait)
    out = [_one(f) for f in taken[:fit]]
    out += [Verdict(_name(f), "not-stored",
                    f"not stored: over the upload limit of this address; send it again in "
                    f"{wait} seconds") for f in taken[fit:]]
    out += [Verdict(_name(f), "not-stored",
                    f"not read: one upload takes at most {cap} files; send this one again "
                    f"in another upload") for f in rest]
    return out


def _name(f: FileStorage) -> str:
    return (f.filename or "")[:NAME_LENGTH]


def _one(f: FileStorage) -> Verdict:
    name = _name(f)
    limit = log_limit()
    data = f.stream.read(limit + 1)
    if len(data) > limit:
        f.stream.seek(0, 2)
        return Verdict(name, "too-large", f"too large: {f.stream.tell():,} bytes; the limit "
                                          f"is {limit:,} bytes ({_megabytes(limit)}) a file")
    try:
        checked = check(data, limit, source=name or "upload")
    except LogFormatError as exc:
        return Verdict(name, "unreadable", f"unreadable: {exc}")
    db = store.get_db()
    try:
        row, created = save(db, checked, name)
    except (sqlite3.OperationalError, OSError) as exc:
        why = storage_fault(exc)
        if why is None:
            raise
        return Verdict(name, "not-stored", f"not stored: the library cannot store games right "
                                           f"now ({why}); try again later")
    # the game's own URL: the server opens it where the visitor wants (its start while the
    # results are hidden, ``views.opening``)
    url = url_for("pages.game", game_id=row.id)
    report = checked.report
    again = "" if created else " (already in the library)"
    if report.valid:
        state = "finished" if report.finished else "unfinished"  # no winner: no spoiler
        moves = f"{report.moves_played} move{'s' * (report.moves_played != 1)}"
        return Verdict(name, "valid", f"valid: {moves}, {state}{again}", url, created)
    failure = report.failure
    if failure is None or failure.move is None:
        where = "at the end" if failure is not None and failure.rule == "L2" else "in its header"
    else:
        where = f"at move {failure.move + 1}"
    who = f" ({failure.player})" if failure is not None and failure.player else ""
    why_text = f": {failure.rule}: {failure.message}" if failure is not None else ""
    return Verdict(name, "illegal", f"illegal {where}{who}{why_text}{again}", url, created)
