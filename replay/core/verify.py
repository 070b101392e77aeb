"""The verifier (L1-L4): replay a log and say whether every move and every claim is right.

The claims (L2) are compared here once; the viewer shows the ones of a position from the
report (``claims_at``)."""

from __future__ import annotations

import os
from typing import Any

from . import hashing
from .errors import IllegalMove, LogFormatError
from .playback import Playback, play_through
from .record import GameRecord, Source, foreign, load, parse
from .values import value_type

EXIT_VALID, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2
EXIT_INTERNAL = 3  # a bug of ours, never a verdict on the log
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a command whose reader went away


def move_number(index: int) -> int:
    """The number people read for the move at ``index`` of a log's ``moves`` (0-based).

    One numbering on every surface (the CLI, the web viewer, ``render --move``, the docs):
    **move N is the N-th move of the log, counted from 1, and position N is the board after
    it** (position 0: the start). The JSON keeps the 0-based index (``error.move``, the path
    ``/moves/N-1``), written beside the number where a person might want the log entry."""
    return index + 1


class Report:
    """The verdict on one log: valid or not, where it fails, scores, hashes, wrong claims.

    Made with the source and, at most, ``readable``; the verifier fills in the rest."""

    __slots__ = ("source", "valid", "readable", "finished", "moves", "moves_played",
                 "final_scores", "winners", "state_hash", "hashes", "error", "claims", "format",
                 "problems")
    source: str
    valid: bool
    readable: bool
    finished: bool
    moves: int
    moves_played: int
    final_scores: dict[str, int]
    winners: list[str]
    state_hash: str | None
    hashes: list[str]
    error: dict[str, Any] | None
    claims: list[dict[str, Any]]
    format: str  # "log v1", or the foreign format it was imported from
    problems: list[dict[str, Any]]  # met while importing

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
        self.error = None
        self.claims = []
        self.format = "log v1"
        self.problems = []

    @property
    def exit_code(self) -> int:
        if not self.readable:
            return EXIT_UNREADABLE
        return EXIT_VALID if self.valid else EXIT_ILLEGAL

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.source, "valid": self.valid, "finished": self.finished,
            "moves": self.moves, "moves_played": self.moves_played,
            "final_scores": self.final_scores, "winners": self.winners,
            "state_hash": self.state_hash, "error": self.error, "claims": self.claims,
            "format": self.format, "import_problems": self.problems,
        }

    def line(self) -> str:
        """One line for people (the format read, when the file was foreign)."""
        text = self._line()
        if self.format == "log v1":
            return text
        name, _, rest = text.partition(": ")
        problems = f", {len(self.problems)} import problem{'s' * (len(self.problems) != 1)}" \
            if self.problems else ""
        return f"{name} ({self.format}{problems}): {rest}"

    def _line(self) -> str:
        if self.error is not None:
            e = self.error
            if e.get("path") is not None:  # "": the whole file, named by the message
                where = f"{e['path']}: " if e["path"] else ""
                return f"{self.source}: unreadable: {where}{e['message']}"
            notes = [e["player"]] if e.get("player") else []
            if e.get("move") is not None:
                where = f"move {move_number(e['move'])}"
                notes.append(f"log entry /moves/{e['move']}")
            else:
                where = "the end" if e["rule"] == "L2" else "header"
            who = f" ({', '.join(notes)})" if notes else ""
            return f"{self.source}: INVALID at {where}{who}: {e['rule']}: {e['message']}"
        scores = ", ".join(f"{n} {s}" for n, s in self.final_scores.items())
        if not self.finished:
            n = self.moves_played
            return (f"{self.source}: valid so far, unfinished after {n} move{'s' * (n != 1)} "
                    f"(scores {scores})")
        n = self.moves_played
        return (f"{self.source}: valid, {n} move{'s' * (n != 1)}; final scores {scores}; "
                f"winner{'s' if len(self.winners) > 1 else ''} {', '.join(self.winners)}")



value_type(Report, "source valid readable finished moves moves_played final_scores winners "
           "state_hash hashes error claims format problems", frozen=False, by_init=False)


def verify_data(data: Any, source: str = "<log>", material: Any = None) -> Report:
    """The report on a decoded log (``material``: a tile-set file replacing the built-in)."""
    report = Report(source)
    try:
        log = parse(data, material)
    except LogFormatError as exc:
        report.readable = False
        report.error = {"move": None, "player": None, "rule": "L1", "message": exc.message,
                        "path": exc.path}
        return report
    except IllegalMove as exc:
        report.error = {"move": None, "player": None, "rule": exc.rule, "message": exc.message,
                        "path": None}
        return report
    return verify_parsed(log, source)


def verify_parsed(log: GameRecord, source: str = "<log>",
                  playback: Playback | None = None) -> Report:
    """The report on a record read already (from its ``playback`` when one is at hand)."""
    report = Report(source)
    report.moves = len(log.moves)
    r = playback or play_through(log, keep_events=False, checkpoints=False)
    game = r.state
    names = [p.name for p in log.config.players]
    report.hashes = r.hashes
    if r.error is not None:
        e = r.error
        report.error = {"move": e.move, "player": e.player, "rule": e.rule,
                        "message": e.message, "path": None}
    for i, claim in sorted(log.move_claims.items()):
        if i < len(r.scores):
            _compare(report, claim, dict(zip(names, r.scores[i], strict=True)), i)
    report.moves_played = game.moves_played
    report.state_hash = hashing.hexdigest(game.hash)
    report.final_scores = dict(zip(names, game.scores, strict=True))
    report.finished = game.finished
    if report.error is not None:
        return report
    if game.finished:
        report.winners = [names[p] for p in game.winners()]
    if log.final_claims is not None:
        if not game.finished:
            report.claims.append({"move": None, "player": None, "claimed": None, "actual": None,
                                  "message": "final scores are claimed but the game is unfinished"})
        else:
            _compare(report, log.final_claims, report.final_scores, None)
    if (log.winner_claims is not None and game.finished
            and sorted(log.winner_claims) != sorted(report.winners)):
            report.claims.append({"move": None, "player": None,
                                  "claimed": list(log.winner_claims), "actual": report.winners,
                                  "message": f"claimed winners {list(log.winner_claims)}, "
                                             f"replay gives {report.winners}"})
    if report.claims:
        first = report.claims[0]
        report.error = {"move": first["move"], "player": first["player"], "rule": "L2",
                        "message": first["message"], "path": None}
        return report
    report.valid = True
    return report


def _compare(report: Report, claim: dict[str, int], actual: dict[str, int],
             move: int | None) -> None:
    for name in sorted(claim):
        if claim[name] != actual[name]:
            where = f"after move {move_number(move)}" if move is not None else "at the end"
            report.claims.append({
                "move": move, "player": name, "claimed": claim[name], "actual": actual[name],
                "message": f"{name} is claimed to have {claim[name]} points {where}; "
                           f"the replay gives {actual[name]}"})


def verify_file(path: str | os.PathLike[str], material: Any = None,
                max_bytes: int | None = None) -> Report:
    """The report on a log file (an unreadable file is a report too, never an exception)."""
    return verify(path, material, max_bytes, str(path))


def verify(source: Source, material: Any = None, max_bytes: int | None = None,
           name: str | None = None) -> Report:
    """Verify a log given as a path, an open file, bytes, text or a decoded JSON value.

    Never raises for bad input: an unreadable log is a report with ``readable`` false."""
    label = name or (str(source) if isinstance(source, str | os.PathLike) else "<log>")
    try:
        data = load(source) if max_bytes is None else load(source, max_bytes)
        imported = foreign(data)
    except LogFormatError as exc:
        report = Report(label, readable=False)
        report.error = {"move": None, "player": None, "rule": "L1", "message": exc.message,
                        "path": exc.path}
        fmt = getattr(exc, "format", None)
        if fmt is not None:  # an import refused: say which format, and every problem met
            report.format = fmt
            report.problems = [p.as_json() for p in exc.problems]  # type: ignore[attr-defined]
        return report
    if imported is None:
        return verify_data(data, label, material)
    report = verify_data(imported.log, label, material)
    report.format = imported.format
    report.problems = [p.as_json() for p in imported.problems]
    return report


def claims_at(report: Report, n: int, moves: int) -> list[dict[str, Any]]:
    """The wrong claims (L2) to show at position ``n`` of a log of ``moves`` moves."""
    return [c for c in report.claims
            if (c["move"] is not None and c["move"] == n - 1)
            or (c["move"] is None and n == moves)]
