"""The verifier (L1-L4): read a log, import it when it is foreign, replay it, and say whether
every move and every claim is right.

``verify`` is the one path from a source to a ``Report``: the command line, the web app (upload,
API), the audit's workers and ``ingest`` all call it. The claims (L2) are compared here once;
the viewer shows the ones of a position from the report (``claims_at``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from . import hashing
from .errors import IllegalMove, LogFormatError
from .json_input import MAX_BYTES, check_strings, decode, read_bounded
from .playback import Playback, play_through
from .printable import printable
from .record import GameRecord, Source, foreign, parse
from .values import replace, value_type

EXIT_VALID, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2
EXIT_INTERNAL = 3  # a bug of ours, never a verdict on the log
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a command whose reader went away
INTERNAL = "internal"  # the rule of a report on a log the verifier failed on (a bug of ours)


def move_number(index: int) -> int:
    """The number people read for the move at ``index`` of a log's ``moves`` (0-based).

    One numbering on every surface (the CLI, the web viewer and its API, ``render --move``,
    the JSON reports, the docs): **move N is the N-th move of the log, counted from 1, and
    position N is the board after it** (position 0: the start). The JSON writes the number
    (``error.move``) and, beside it, the log entry as a JSON pointer (``error.entry``,
    ``/moves/N-1``); inside the engine a move is its 0-based index."""
    return index + 1


# The version of the JSON reports (``verify --json``, the API's verdicts, the audit's lines):
# 1 (no ``report_version`` field) named a move by its 0-based index; 2 by its number, counted
# from 1, with its log entry (``entry``: ``/moves/N-1``) beside it.
REPORT_VERSION = 2


def where_json(index: int | None) -> dict[str, Any]:
    """How the JSON names the move at ``index`` (0-based; None: no move): its number and its
    log entry."""
    if index is None:
        return {"move": None, "entry": None}
    return {"move": move_number(index), "entry": f"/moves/{index}"}


def move_index(report: Mapping[str, Any]) -> int | None:
    """The 0-based index of the failing move of a ``verify --json`` report of any version
    (None: no move, or not a report)."""
    error = report.get("error")
    move = error.get("move") if isinstance(error, dict) else None
    if not isinstance(move, int) or isinstance(move, bool):
        return None
    return move if _version(report) == 1 else move - 1


def _version(report: Mapping[str, Any]) -> Any:
    return report.get("report_version") or 1  # none (or null): version 1


def upgrade(report: dict[str, Any]) -> dict[str, Any]:
    """A ``verify --json`` report of version 1 (moves by their 0-based index) written as the
    current version; a current one as it is."""
    if _version(report) != 1 or "error" not in report:
        return report
    out = {**report, "report_version": REPORT_VERSION}
    error = report.get("error")
    if isinstance(error, dict) and "move" in error:
        out["error"] = {**error, **where_json(move_index(report))}
    if isinstance(report.get("claims"), list):
        out["claims"] = [{**c, **where_json(c["move"])} if isinstance(c, dict)
                         and isinstance(c.get("move"), int) else c for c in report["claims"]]
    return out


class Fault:
    """Why a log is not valid: the rule, the message, and where (the 0-based index of the
    move, the player, the JSON pointer of an unreadable value; None where it does not
    apply). Its JSON names the move by its number and its log entry (``where_json``)."""

    __slots__ = ("rule", "message", "move", "player", "path")
    rule: str  # L1 (unreadable), L2 (a wrong claim), a rule id, or INTERNAL
    message: str
    move: int | None
    player: str | None
    path: str | None  # "" for the whole file

    def __init__(self, rule: str, message: str, move: int | None = None,
                 player: str | None = None, path: str | None = None) -> None:
        self.rule = rule
        self.message = message
        self.move = move
        self.player = player
        self.path = path

    def as_json(self) -> dict[str, Any]:
        if self.rule == INTERNAL:
            return {"rule": self.rule, "message": self.message}
        return {**where_json(self.move), "player": self.player, "rule": self.rule,
                "message": self.message, "path": self.path}


class Claim:
    """A wrong claim of the log (L2): what it claimed, what the replay gives, after which move
    (0-based; None: at the end) and of which player (None: the winners). Its JSON names the
    move by its number and its log entry (``where_json``): a claim of ``moves[i].scores`` is
    "after move i+1"."""

    __slots__ = ("move", "player", "claimed", "actual", "message")
    move: int | None
    player: str | None
    claimed: Any
    actual: Any
    message: str

    def __init__(self, move: int | None, player: str | None, claimed: Any, actual: Any,
                 message: str) -> None:
        self.move = move
        self.player = player
        self.claimed = claimed
        self.actual = actual
        self.message = message

    def as_json(self) -> dict[str, Any]:
        return {**where_json(self.move), "player": self.player, "claimed": self.claimed,
                "actual": self.actual, "message": self.message}


value_type(Fault, "rule message move player path")
value_type(Claim, "move player claimed actual message")


class Report:
    """The verdict on one log: valid or not, where it fails, scores, hashes, wrong claims.

    Besides the verdict it keeps what was read, for a caller that stores the game: ``data``
    (the bytes, when the source was not a decoded value), ``log`` (the log v1 verified: the
    decoded source, or what its importer made of it), ``game`` (the family it names) and
    ``record`` (the parsed log; with ``verify(..., keep=True)`` its ``playback`` is the one
    verified, with events and checkpoints for viewing)."""

    __slots__ = ("source", "valid", "readable", "finished", "moves", "moves_played",
                 "final_scores", "winners", "state_hash", "hashes", "failure", "claims",
                 "format", "problems", "game", "data", "log", "record")
    source: str
    valid: bool
    readable: bool
    finished: bool
    moves: int
    moves_played: int
    final_scores: dict[str, int]
    winners: list[str]
    state_hash: str | None
    hashes: list[str]  # the state hash after each move played (L4)
    failure: Fault | None
    claims: list[Claim]
    format: str  # "log v1", or the foreign format it was imported from
    problems: list[Any]  # ``importing.Problem``s met while importing
    game: str | None
    data: bytes | None
    log: Any
    record: GameRecord | None

    def __init__(self, source: str, readable: bool = True) -> None:
        self.source = source
        self.valid = False
        self.readable = readable
        self.finished = False
        self.moves = 0
        self.moves_played = 0
        self.final_scores = {}
        self.winners = []
        self.state_hash = None
        self.hashes = []
        self.failure = None
        self.claims = []
        self.format = "log v1"
        self.problems = []
        self.game = None
        self.data = None
        self.log = None
        self.record = None

    @property
    def internal(self) -> bool:
        """Whether the verifier failed on this log (a bug of ours, not a verdict)."""
        return self.failure is not None and self.failure.rule == INTERNAL

    @property
    def exit_code(self) -> int:
        if self.internal:
            return EXIT_INTERNAL
        if not self.readable:
            return EXIT_UNREADABLE
        return EXIT_VALID if self.valid else EXIT_ILLEGAL

    def as_json(self) -> dict[str, Any]:
        """What ``verify --json`` prints (``move_hashes``: the state hash after each move
        played, 16 hex digits each, one after the other; ``report_version``: see
        ``REPORT_VERSION``)."""
        error = None if self.failure is None else self.failure.as_json()
        if self.internal:
            return {"report_version": REPORT_VERSION, "file": self.source, "valid": None,
                    "error": error}
        return {
            "report_version": REPORT_VERSION, "file": self.source, "valid": self.valid,
            "finished": self.finished, "moves": self.moves, "moves_played": self.moves_played,
            "final_scores": self.final_scores, "winners": self.winners,
            "state_hash": self.state_hash, "error": error,
            "claims": [c.as_json() for c in self.claims],
            "format": self.format, "import_problems": [p.as_json() for p in self.problems],
            "game": self.game, "move_hashes": "".join(self.hashes),
        }

    def line(self) -> str:
        """One line for people (the format read, when the file was foreign), fit for a
        terminal (``printable``: control characters in a name escaped)."""
        text = self._line()
        if self.format == "log v1":
            return printable(text)
        name, _, rest = text.partition(": ")
        problems = f", {len(self.problems)} import problem{'s' * (len(self.problems) != 1)}" \
            if self.problems else ""
        return printable(f"{name} ({self.format}{problems}): {rest}")

    def _line(self) -> str:
        e = self.failure
        if e is not None:
            if e.rule == INTERNAL:
                return f"{self.source}: {e.message}"
            if e.path is not None:  # "": the whole file, named by the message
                where = f"{e.path}: " if e.path else ""
                if not e.path and e.message.startswith("unsupported: "):  # an import refused:
                    return f"{self.source}: {e.message}"  # a game not played, not unreadable
                return f"{self.source}: unreadable: {where}{e.message}"
            notes = [e.player] if e.player else []
            if e.move is not None:
                where = f"move {move_number(e.move)}"
                notes.append(f"log entry /moves/{e.move}")
            else:
                where = "the end" if e.rule == "L2" else "header"
            who = f" ({', '.join(notes)})" if notes else ""
            return f"{self.source}: INVALID at {where}{who}: {e.rule}: {e.message}"
        scores = ", ".join(f"{n} {s}" for n, s in self.final_scores.items())
        n = self.moves_played
        if not self.finished:
            return (f"{self.source}: valid so far, unfinished after {n} move{'s' * (n != 1)} "
                    f"(scores {scores})")
        return (f"{self.source}: valid, {n} move{'s' * (n != 1)}; final scores {scores}; "
                f"winner{'s' if len(self.winners) > 1 else ''} {', '.join(self.winners)}")

    def _refuse(self, exc: LogFormatError) -> Report:
        """This report made the one of an unreadable log (L1)."""
        self.readable = False
        self.failure = Fault("L1", exc.message, path=exc.path)
        fmt = getattr(exc, "format", None)
        if fmt is not None:  # an import refused: say which format, and every problem met
            self.format = fmt
            self.problems = list(exc.problems)  # type: ignore[attr-defined]
        return self


value_type(Report, "source valid readable finished moves moves_played final_scores winners "
           "state_hash hashes failure claims format problems game data log record",
           compare="source valid readable finished moves moves_played final_scores winners "
                   "state_hash hashes failure claims format problems game",
           frozen=False, by_init=False)


def internal_message(exc: BaseException) -> str:
    """The one line said of an exception that is a bug of ours."""
    return (f"internal error ({type(exc).__name__}: {str(exc)[:200]}); this is a bug of the "
            "verifier, not a verdict on the log: please report it with the log")


def internal_report(source: str, exc: BaseException) -> Report:
    """The report on a log the verifier failed on (exit 3): a bug of ours, said per log so
    that a command over many logs goes on."""
    report = Report(source)
    report.failure = Fault(INTERNAL, internal_message(exc))
    return report


def _label(source: Source, name: str | None) -> str:
    if name is not None:
        return name
    if isinstance(source, os.PathLike) or (isinstance(source, str)
                                           and not source.lstrip().startswith("{")):
        return os.fspath(source)
    return "<log>"


def _read(source: Source, max_bytes: int) -> tuple[bytes | None, Any]:
    """The bytes of a source (None for a decoded value) and its decoded JSON."""
    if isinstance(source, bytes | bytearray):
        data = bytes(source)
    elif isinstance(source, str) and source.lstrip().startswith("{"):
        return None, decode(source, max_bytes)  # a log's text
    elif isinstance(source, str | os.PathLike):
        data = read_bounded(source, max_bytes)
    elif hasattr(source, "read"):
        got = source.read(max_bytes + 1)
        if isinstance(got, str):
            return None, decode(got, max_bytes)
        data = bytes(got)
    elif isinstance(source, Mapping):
        check_strings(source)
        return None, source
    else:
        raise TypeError(f"cannot read a game from {type(source).__name__}: give a path, a "
                        "file, bytes, text or a decoded JSON object")
    return data, decode(data, max_bytes)


def verify(source: Source, material: Any = None, max_bytes: int = MAX_BYTES,
           name: str | None = None, *, keep: bool = False) -> Report:
    """Verify a log given as a path, an open file, bytes, text or a decoded JSON value: read
    it (at most ``max_bytes``), convert it when it is a foreign saved game (its family's
    importers), replay it and compare its claims.

    Never raises for bad input: an unreadable log is a report with ``readable`` false.
    ``material``: a tile-set file replacing the family's built-in one (HG13); ``name``: the
    source's name in the report; ``keep``: replay with the events and checkpoints a viewer
    needs, kept as ``report.record.playback``."""
    report = Report(_label(source, name))
    try:
        report.data, value = _read(source, max_bytes)
    except LogFormatError as exc:
        return report._refuse(exc)
    return verify_value(value, report, material, keep)


def verify_value(value: Any, report: Report | str = "<log>", material: Any = None,
                 keep: bool = False) -> Report:
    """``verify`` of a decoded JSON value that ``json_input.decode`` gave (its strings are not
    checked again), into ``report`` (or a new one of that name)."""
    if isinstance(report, str):
        report = Report(report)
    try:
        imported = foreign(value)
    except LogFormatError as exc:
        return report._refuse(exc)
    if imported is not None:
        report.format = imported.format
        report.problems = list(imported.problems)
        value = imported.log
    report.log = value
    if type(value) is dict and type(value.get("game")) is str:
        report.game = value["game"]
    try:
        record = parse(value, material)
    except LogFormatError as exc:
        return report._refuse(exc)
    except IllegalMove as exc:  # a well-formed header that breaks a rule
        report.failure = Fault(exc.rule, exc.message)
        return report
    if imported is not None:
        record = replace(record, imported=imported)
    report.record = record
    if keep:
        return judge(record, record.playback, report)
    return judge(record, play_through(record, keep_events=False, checkpoints=False), report)


def judge(record: GameRecord, playback: Playback, report: Report | None = None) -> Report:
    """The verdict on a parsed log from its ``playback``, written into ``report`` (a new one
    named by nothing when not given): what ``verify`` does after reading."""
    report = report if report is not None else Report("<log>")
    report.moves = len(record.moves)
    game = playback.state
    names = [p.name for p in record.config.players]
    report.hashes = playback.hashes
    if playback.error is not None:
        e = playback.error
        report.failure = Fault(e.rule, e.message, e.move, e.player)
    for i, claim in sorted(record.move_claims.items()):
        if i < len(playback.scores):
            _compare(report, claim, dict(zip(names, playback.scores[i], strict=True)), i)
    report.moves_played = game.moves_played
    report.state_hash = hashing.hexdigest(game.hash)
    report.final_scores = dict(zip(names, game.scores, strict=True))
    report.finished = game.finished
    if report.failure is not None:
        return report
    if game.finished:
        report.winners = [names[p] for p in game.winners()]
    if record.final_claims is not None:
        if not game.finished:
            report.claims.append(Claim(None, None, None, None,
                                       "final scores are claimed but the game is unfinished"))
        else:
            _compare(report, record.final_claims, report.final_scores, None)
    if (record.winner_claims is not None and game.finished
            and sorted(record.winner_claims) != sorted(report.winners)):
        report.claims.append(Claim(None, None, list(record.winner_claims), report.winners,
                                   f"claimed winners {', '.join(record.winner_claims)}; the "
                                   f"replay gives {', '.join(report.winners)}"))
    if report.claims:
        first = report.claims[0]
        report.failure = Fault("L2", first.message, first.move, first.player)
        return report
    report.valid = True
    return report


def _compare(report: Report, claim: dict[str, int], actual: dict[str, int],
             move: int | None) -> None:
    for name in sorted(claim):
        if claim[name] != actual[name]:
            where = f"after move {move_number(move)}" if move is not None else "at the end"
            report.claims.append(Claim(
                move, name, claim[name], actual[name],
                f"{name} is claimed to have {claim[name]} points {where}; the replay gives "
                f"{actual[name]}"))


def claims_at(report: Report, n: int, moves: int) -> list[Claim]:
    """The wrong claims (L2) to show at position ``n`` of a log of ``moves`` moves."""
    return [c for c in report.claims
            if (c.move is not None and c.move == n - 1) or (c.move is None and n == moves)]
