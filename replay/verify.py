"""The verifier (L1-L4): replay a log and say whether every move and every claim is right."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import hashing
from .errors import IllegalMove, LogFormatError
from .game import Event, Game
from .logfile import ParsedLog, parse, read_file
from .tileset import TileSet

EXIT_VALID, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


@dataclass(slots=True)
class Report:
    source: str
    valid: bool = False
    readable: bool = True
    finished: bool = False
    moves: int = 0
    moves_played: int = 0
    final_scores: dict[str, int] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    state_hash: str | None = None
    hashes: list[str] = field(default_factory=list)
    error: dict[str, Any] | None = None
    claims: list[dict[str, Any]] = field(default_factory=list)

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
        }

    def line(self) -> str:
        """One line for people."""
        if self.error is not None:
            e = self.error
            if e.get("path") is not None:
                return f"{self.source}: unreadable: {e['path'] or '/'}: {e['message']}"
            if e.get("move") is not None:
                where = f"move {e['move']}"
            else:
                where = "the end" if e["rule"] == "L2" else "header"
            who = f" ({e['player']})" if e.get("player") else ""
            return f"{self.source}: INVALID at {where}{who}: {e['rule']}: {e['message']}"
        scores = ", ".join(f"{n} {s}" for n, s in self.final_scores.items())
        if not self.finished:
            n = self.moves_played
            return (f"{self.source}: valid so far, unfinished after {n} move{'s' * (n != 1)} "
                    f"(scores {scores})")
        n = self.moves_played
        return (f"{self.source}: valid, {n} move{'s' * (n != 1)}; final scores {scores}; "
                f"winner{'s' if len(self.winners) > 1 else ''} {', '.join(self.winners)}")


@dataclass(slots=True)
class Replay:
    """A log replayed as far as it is legal, with the events and hash of every move."""

    log: ParsedLog
    game: Game
    events: list[list[Event]]
    hashes: list[str]
    error: IllegalMove | None
    scores: list[list[int]] = field(default_factory=list)  # after each move


def replay(log: ParsedLog, upto: int | None = None, keep_events: bool = True) -> Replay:
    game = Game(log.config)
    events: list[list[Event]] = []
    hashes: list[str] = []
    scores: list[list[int]] = []
    error: IllegalMove | None = None
    moves = log.moves if upto is None else log.moves[:upto]
    for move in moves:
        try:
            ev = game.play(move)
        except IllegalMove as exc:
            error = exc
            break
        if keep_events:
            events.append(ev)
        hashes.append(hashing.hexdigest(game.hash))
        scores.append(list(game.scores))
    if (error is None and log.end_after_last_move and not game.finished
            and game.moves_played == len(log.moves) and hashes):
        final = game.end_now()
        if keep_events:
            events[-1].extend(final)
        hashes[-1] = hashing.hexdigest(game.hash)
        scores[-1] = list(game.scores)
    return Replay(log, game, events, hashes, error, scores)


def verify_data(data: Any, source: str = "<log>", tileset: TileSet | None = None) -> Report:
    report = Report(source)
    try:
        log = parse(data, tileset)
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


def verify_parsed(log: ParsedLog, source: str = "<log>") -> Report:
    report = Report(source)
    report.moves = len(log.moves)
    r = replay(log, keep_events=False)
    game = r.game
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
            where = f"after move {move}" if move is not None else "at the end"
            report.claims.append({
                "move": move, "player": name, "claimed": claim[name], "actual": actual[name],
                "message": f"{name} is claimed to have {claim[name]} points {where}; "
                           f"the replay gives {actual[name]}"})


def verify_file(path: str | Path, tileset: TileSet | None = None,
                max_bytes: int | None = None) -> Report:
    try:
        data = read_file(path) if max_bytes is None else read_file(path, max_bytes)
    except LogFormatError as exc:
        report = Report(str(path), readable=False)
        report.error = {"move": None, "player": None, "rule": "L1", "message": exc.message,
                        "path": exc.path}
        return report
    return verify_data(data, str(path), tileset)
