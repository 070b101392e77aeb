"""The work of an audit: verify one item, or a batch, into plain rows (dicts that pickle,
travel to another machine and go into a checkpoint as JSON).

A row: ``index`` (its place in the walk), ``name``, ``verdict`` (``valid``, ``unfinished``,
``illegal``, ``unreadable`` or ``internal``), ``exit`` (the ``verify`` exit code), ``rule``,
``move``, ``player``, ``message``, ``format``, ``game`` (the family, when the log names one),
``scores``, ``sha256`` (of the bytes read: the web library's id is its start), ``line`` (what
``verify`` prints) and ``report`` (what ``verify --json`` prints, with ``file`` the name).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from ..core.errors import LogFormatError
from ..core.json_input import MAX_BYTES
from ..core.record import foreign, load
from ..core.verify import EXIT_INTERNAL, EXIT_UNREADABLE, Report, verify, verify_data

Row = dict[str, Any]
# what a worker is sent for one item: (index, name, path or None, bytes or None, error or None)
Task = tuple[int, str, str | None, bytes | None, str | None]

_WARM = False


def warm() -> None:
    """Load what every verification needs once per process: the schemas, the importers and
    the tile sets of every family and expansion mix (a worker's initializer)."""
    global _WARM
    if _WARM:
        return
    _WARM = True
    from ..core.family import families
    from ..core.schemas import validator
    from ..generate import config_for

    validator("log")
    validator("move")
    for fam in families():
        fam.importers()
    for fam in families():
        for mix in fam.mixes():
            try:
                config_for(fam.name, fam.min_players, 0, mix)
            except Exception:  # a mix that cannot be set up with these players: not needed
                continue


def internal_message(exc: BaseException) -> str:
    """The one line said of an exception that is a bug of ours (as ``verify`` says it)."""
    return (f"internal error ({type(exc).__name__}: {str(exc)[:200]}); this is a bug of the "
            "verifier, not a verdict on the log: please report it with the log")


def failed_row(index: int, name: str, verdict: str, message: str) -> Row:
    """A row for an item that was never verified: unreadable before reading, or an internal
    error (a crash)."""
    code = EXIT_UNREADABLE if verdict == "unreadable" else EXIT_INTERNAL
    rule = "L1" if verdict == "unreadable" else "internal"
    report: dict[str, Any]
    if verdict == "unreadable":
        report = Report(name, readable=False).as_json()
        report["error"] = {"move": None, "player": None, "rule": rule, "message": message,
                           "path": None}
    else:  # as ``verify --json`` says an internal error
        report = {"file": name, "valid": None, "error": {"rule": rule, "message": message}}
    what = "unreadable" if verdict == "unreadable" else "internal error"
    return {"index": index, "name": name, "verdict": verdict, "exit": code, "rule": rule,
            "move": None, "player": None, "message": message, "format": None, "game": None,
            "scores": {}, "sha256": None, "line": f"{name}: {what}: {message}",
            "report": report}


def _verdict(report: Report) -> str:
    if not report.readable:
        return "unreadable"
    if not report.valid:
        return "illegal"
    return "valid" if report.finished else "unfinished"


def verify_bytes(data: bytes, name: str, max_bytes: int = MAX_BYTES) -> tuple[Report, Any]:
    """``verify`` of a log's bytes, and the family the log names (None when unreadable); the
    same report ``verify`` gives, with the JSON decoded once."""
    try:
        value = load(data, max_bytes)
        imported = foreign(value)
    except LogFormatError:
        return verify(data, max_bytes=max_bytes, name=name), None
    if imported is None:
        game = value.get("game") if isinstance(value, dict) else None
        return verify_data(value, name), game
    report = verify_data(imported.log, name)
    report.format = imported.format
    report.problems = [p.as_json() for p in imported.problems]
    return report, imported.log.get("game")


def read_bounded(path: str, max_bytes: int) -> bytes:
    """The bytes of the file at ``path``; ``LogFormatError`` when it is over ``max_bytes``,
    ``OSError`` when it cannot be read."""
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > max_bytes:
            raise LogFormatError(f"the log is {size} bytes; the limit is {max_bytes} bytes")
        return fh.read(max_bytes + 1)


def verify_task(task: Task, max_bytes: int = MAX_BYTES) -> Row:
    """The row of one item: read it (bounded), verify it; never raises."""
    index, name, path, data, error = task
    if error is not None:
        return failed_row(index, name, "unreadable", error)
    try:
        if data is None:
            assert path is not None
            try:
                data = read_bounded(path, max_bytes)
            except (OSError, LogFormatError):
                data = b""
            if not data:  # too large, unreadable or empty: verify says why, as it says it
                return _row(index, name, verify(path, max_bytes=max_bytes, name=name), None,
                            None)
        report, game = verify_bytes(data, name, max_bytes)
    except Exception as exc:  # a bug of ours: said per game, the audit goes on
        return failed_row(index, name, "internal", internal_message(exc))
    return _row(index, name, report, game, data)


def _row(index: int, name: str, report: Report, game: Any, data: bytes | None) -> Row:
    err = report.error or {}
    return {"index": index, "name": name, "verdict": _verdict(report),
            "exit": report.exit_code, "rule": err.get("rule"), "move": err.get("move"),
            "player": err.get("player"), "message": err.get("message"),
            "format": report.format, "game": game if isinstance(game, str) else None,
            "scores": dict(report.final_scores),
            "sha256": hashlib.sha256(data).hexdigest() if data is not None else None,
            "line": report.line(), "report": report.as_json()}


def verify_batch(tasks: list[Task], max_bytes: int = MAX_BYTES) -> list[Row]:
    """The rows of a batch of items, in order (warming the process on its first batch)."""
    warm()
    return [verify_task(t, max_bytes) for t in tasks]
