"""An audit's report: the summary, and the writers of its formats (text, JSON Lines, CSV;
the HTML page is ``html_report``).

Writers take the rows one at a time, in the order of the walk, and the summary at the end,
so a report of ten million games is written as it goes. Everything but the timings
(``seconds``, ``games_per_second``) depends only on the rows: the same games give the same
report, however many workers verified them, and wherever.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

from ..core.printable import printable
from .work import Row

VERDICTS = ("valid", "unfinished", "illegal", "unreadable", "internal")
MAX_TABLE = 2000  # non-valid games kept for the HTML table (the rest are counted)
MAX_EXAMPLES = 5  # names kept per reason something could not be read


def reason(message: str | None) -> str:
    """A message with its numbers taken out, to group alike refusals."""
    return re.sub(r"(?<![\w.-])\d+(?![\w.])", "N", message or "")[:160]


@dataclass
class Summary:
    """Counts over the rows: verdicts, failing rules, why games could not be read, scores."""

    games: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)  # rule ids of illegal games
    unreadable: Counter[str] = field(default_factory=Counter)  # reason -> games
    examples: dict[str, list[str]] = field(default_factory=dict)  # reason -> a few names
    scores: dict[str, Counter[int]] = field(default_factory=dict)  # family -> score -> seats
    failures: list[Row] = field(default_factory=list)  # the first MAX_TABLE non-valid rows
    # archives not read to their end (broken, or stopped by a limit): how many, a few names
    partial: int = 0
    partial_names: list[str] = field(default_factory=list)
    exit: int = 0
    seconds: float = 0.0
    # a resumed audit: the games given back from its checkpoint rather than verified again
    resumed: int = 0
    sources: tuple[str, ...] = ()
    checkpoint: str | None = None

    def add(self, row: Row) -> None:
        self.games += 1
        verdict = row["verdict"]
        self.verdicts[verdict] += 1
        self.exit = max(self.exit, int(row["exit"]))
        if verdict == "illegal":
            self.rules[str(row["rule"])] += 1
        elif verdict in ("unreadable", "internal"):
            why = reason(row["message"]) if verdict == "unreadable" else "internal error"
            self.unreadable[why] += 1
            names = self.examples.setdefault(why, [])
            if len(names) < MAX_EXAMPLES:
                names.append(row["name"])
            if str(row["name"]).endswith("!"):  # the archive itself: what follows is not read
                self.partial += 1
                if len(self.partial_names) < MAX_EXAMPLES:
                    self.partial_names.append(str(row["name"])[:-1])
        elif verdict == "valid" and row.get("game"):
            seats = self.scores.setdefault(row["game"], Counter())
            seats.update(int(s) for s in row["scores"].values())
        if verdict not in ("valid", "unfinished") and len(self.failures) < MAX_TABLE:
            self.failures.append({k: row[k] for k in (
                "index", "name", "verdict", "rule", "move", "player", "message", "format",
                "game", "sha256")})

    @property
    def rate(self) -> float:
        """Games verified a second (those of a checkpoint left out: they cost nothing)."""
        return (self.games - self.resumed) / self.seconds if self.seconds > 0 else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games, **{v: self.verdicts[v] for v in VERDICTS},
            "illegal_by_rule": dict(sorted(self.rules.items())),
            "unreadable_by_reason": dict(sorted(self.unreadable.items())),
            "examples": {k: self.examples[k] for k in sorted(self.examples)},
            "archives_not_read_whole": self.partial,
            "exit_code": self.exit,
            "seconds": round(self.seconds, 3), "games_per_second": round(self.rate, 1),
        }

    def lines(self) -> list[str]:
        """The summary for people (``printable``)."""
        v = self.verdicts
        out = [f"games: {self.games}; valid {v['valid']}, unfinished {v['unfinished']}, "
               f"illegal {v['illegal']}, unreadable {v['unreadable']}"
               + (f", internal errors {v['internal']}" if v["internal"] else "")]
        if self.partial:
            out.append(f"INCOMPLETE: {self.partial} archive{'s' * (self.partial != 1)} not "
                       f"read to the end ({', '.join(self.partial_names)}"
                       f"{', ...' if self.partial > len(self.partial_names) else ''}): the "
                       "games after the break are missing from this report")
        if self.rules:
            out.append("illegal by rule: " + ", ".join(
                f"{r} {n}" for r, n in sorted(self.rules.items())))
        for why, n in sorted(self.unreadable.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"not read ({n}): {why} (e.g. {', '.join(self.examples[why][:2])})")
        out.append(self.pace())
        return [printable(line) for line in out]

    def pace(self) -> str:
        """The rate; for a resumed audit, what its checkpoint gave, or that it left nothing
        to do (no rate then: the games were verified before)."""
        if self.resumed and self.resumed == self.games:
            games = "the 1 game" if self.games == 1 else f"all {self.games} games"
            return (f"nothing left to do: {games} of {', '.join(self.sources)} "
                    f"{'is' if self.games == 1 else 'are'} already in {self.checkpoint}")
        line = f"{self.rate:.1f} games/s ({self.seconds:.1f} s)"
        if self.resumed:
            line += (f"; {self.resumed} game{'s' * (self.resumed != 1)} taken from "
                     f"{self.checkpoint}")
        return line


class Writer(Protocol):
    """A report format: rows one by one, then the summary."""

    def row(self, row: Row) -> None: ...

    def close(self, summary: Summary) -> None: ...


class TextWriter:
    """What ``verify`` prints, for every game that is not valid (all with ``verbose``), then
    the summary."""

    def __init__(self, out: IO[str], verbose: bool = False) -> None:
        self.out = out
        self.verbose = verbose

    def row(self, row: Row) -> None:
        if self.verbose or row["verdict"] not in ("valid", "unfinished"):
            self.out.write(printable(row["line"]) + "\n")

    def close(self, summary: Summary) -> None:
        self.out.write("\n".join(summary.lines()) + "\n")


class JsonWriter:
    """JSON Lines: the ``verify --json`` object of each game, then ``{"summary": ...}``."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    def row(self, row: Row) -> None:
        self.out.write(json.dumps(row["report"], ensure_ascii=False) + "\n")

    def close(self, summary: Summary) -> None:
        self.out.write(json.dumps({"summary": summary.as_json()}, ensure_ascii=False) + "\n")


# "move" counts from 1 as people do (move 9 is the log entry /moves/8), as in every text
CSV_COLUMNS = ("name", "verdict", "exit_code", "rule", "move", "player", "message", "format",
               "game", "moves_played", "finished", "scores", "winners", "sha256")


def cell(value: Any) -> Any:
    """A cell a spreadsheet will not run: text starting with = + - @ is quoted with '."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


class CsvWriter:
    """One line per game, for spreadsheets (the summary is not a row: it goes to stderr)."""

    def __init__(self, out: IO[str]) -> None:
        self.writer = csv.writer(out)
        self.writer.writerow(CSV_COLUMNS)

    def row(self, row: Row) -> None:
        report = row["report"]
        scores = "; ".join(f"{n} {s}" for n, s in row["scores"].items())
        self.writer.writerow([cell(x) for x in (
            row["name"], row["verdict"], row["exit"], row["rule"],
            row["move"] + 1 if isinstance(row["move"], int) else None, row["player"],
            row["message"], row["format"], row["game"], report.get("moves_played"),
            report.get("finished"), scores, "; ".join(report.get("winners") or []),
            row["sha256"])])

    def close(self, summary: Summary) -> None:
        pass
