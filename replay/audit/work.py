"""The work of an audit: verify one item (``replay.core.verify.verify``, the one path), or a
batch, into plain rows (dicts that pickle, travel to another machine and go into a checkpoint
as JSON).

A row: ``index`` (its place in the walk), ``name``, ``verdict`` (``valid``, ``unfinished``,
``illegal``, ``unreadable`` or ``internal``), ``exit`` (the ``verify`` exit code), ``rule``,
``move``, ``player``, ``message``, ``format``, ``game`` (the family, when the log names one),
``scores``, ``sha256`` (of the bytes read: the web library's id is its start), ``line`` (what
``verify`` prints) and ``report`` (what ``verify --json`` prints, with ``file`` the name).

A file that was never read as JSON is not a log: its row's ``rule`` says what it is instead of
L1 (``not_read``: "unreadable", "not UTF-8" or "malformed JSON") and its ``format`` is
"unknown". A JSON value that is no log (schema-invalid, or a foreign save an importer refused)
keeps L1 and the format it was read as; ``report`` is ``verify --json``'s either way.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..core.json_input import MAX_BYTES
from ..core.verify import INTERNAL, Fault, Report, internal_report, verify

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
    from ..core.schemas import envelope_validator, header_validator, move_validator
    from ..generate import config_for

    envelope_validator()
    for fam in families():
        header_validator(fam)
        move_validator(fam)
        fam.importers()
    for fam in families():
        for mix in fam.mixes():
            try:
                config_for(fam.name, fam.min_players, 0, mix)
            except Exception:  # a mix that cannot be set up with these players: not needed
                continue


def failed_row(index: int, name: str, verdict: str, message: str) -> Row:
    """A row for an item that was never verified: unreadable before reading (the walk said
    why), or an internal error (a crash)."""
    report = Report(name, readable=verdict != "unreadable")
    report.failure = Fault("L1" if verdict == "unreadable" else INTERNAL, message,
                           path="" if verdict == "unreadable" else None)
    return row_of(index, report)


UNKNOWN = "unknown"  # the format of a file never read as JSON


def not_read(report: Report) -> str | None:
    """What a file whose bytes never became a JSON value is (None for any other report):
    "not UTF-8", "malformed JSON" (``json_input.decode`` refused the text) or "unreadable"
    (not read at all: the file, a size limit, an archive's entry)."""
    if report.readable or report.internal or report.log is not None \
            or report.format != "log v1" or report.failure is None:
        return None
    message = report.failure.message
    if message.startswith("not UTF-8"):
        return "not UTF-8"
    if message.startswith("invalid JSON") or "lone UTF-16 surrogate" in message \
            or message.startswith("the key ") and message.endswith("appears twice in one object"):
        return "malformed JSON"
    return "unreadable"


def _verdict(report: Report) -> str:
    if report.internal:
        return "internal"
    if not report.readable:
        return "unreadable"
    if not report.valid:
        return "illegal"
    return "valid" if report.finished else "unfinished"


def verify_task(task: Task, max_bytes: int = MAX_BYTES) -> Row:
    """The row of one item: read it (bounded) and verify it, by ``verify``; never raises."""
    index, name, path, data, error = task
    if error is not None:
        return failed_row(index, name, "unreadable", error)
    return row_of(index, verified(task, max_bytes))


def verified(task: Task, max_bytes: int = MAX_BYTES, keep: bool = False) -> Report:
    """The report of an item the walk could read (``verify``; ``keep``: its replay with the
    events kept in ``report.record``); never raises."""
    _, name, path, data, _ = task
    try:
        return verify(data if data is not None else path or "", max_bytes=max_bytes,
                      name=name, keep=keep)
    except Exception as exc:  # a bug of ours: said per game, the audit goes on
        return internal_report(name, exc)


def row_of(index: int, report: Report) -> Row:
    """The audit's row of a report (see the module)."""
    f = report.failure
    kind = not_read(report)
    return {"index": index, "name": report.source, "verdict": _verdict(report),
            "exit": report.exit_code, "rule": kind or (f.rule if f else None),
            "move": f.move if f else None, "player": f.player if f else None,
            "message": f.message if f else None,
            "format": None if report.internal else UNKNOWN if kind else report.format,
            "game": report.game,
            "scores": dict(report.final_scores),
            "sha256": hashlib.sha256(report.data).hexdigest() if report.data else None,
            "line": report.line(), "report": report.as_json()}


def verify_batch(tasks: list[Task], max_bytes: int = MAX_BYTES) -> list[Row]:
    """The rows of a batch of items, in order (warming the process on its first batch)."""
    warm()
    return [verify_task(t, max_bytes) for t in tasks]
