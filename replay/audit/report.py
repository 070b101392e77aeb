"""An audit's report: the summary, and what each format shows of a row (``AUDIT``, a
``replay.reports.Kind``: the writers of every format are ``replay.reports``'); the page is
``replay/reports/templates/audit.html``.

Writers take the rows one at a time, in the order of the walk, and the summary at the end,
so a report of ten million games is written as it goes. Everything but the timings
(``seconds``, ``games_per_second``) depends only on the rows: the same games give the same
report, however many workers verified them, and wherever.

The page: the summary, a chart of the failing rule ids (with their names, "G4 · Placement"),
the score distribution of each game, and the table of the games that are not valid with their
first failing move (an illegal game linked to the web viewer when its address is given; a
file that could not be read is not stored there, so it gets no link). A file that is no log is
said to be what it is ("not UTF-8", "malformed JSON", "unreadable": ``work.not_read``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any

from ..core.printable import printable
from ..reports import Kind, reason
from .work import Row

VERDICTS = ("valid", "unfinished", "illegal", "unreadable", "internal")
MAX_TABLE = 2000  # non-valid games kept for the HTML table (the rest are counted)
MAX_EXAMPLES = 5  # names kept per reason something could not be read


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
    # ``--ingest DB``: the library the games were stored in, and how many were new there
    library: dict[str, Any] | None = None

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
        if self.library is not None:
            lib = self.library
            out.append(f"library {lib['path']}: {lib['new']} games stored, {lib['there']} there "
                       f"already, {lib['not_stored']} not stored (not readable as logs)")
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


def _listed(row: Row) -> bool:
    """The text lists the games that are not valid (every game with ``verbose``)."""
    return row["verdict"] not in ("valid", "unfinished")


# "move" counts from 1 as people do (move 9 is the log entry /moves/8), as in every text
CSV_COLUMNS = ("name", "verdict", "exit_code", "rule", "move", "player", "message", "format",
               "game", "moves_played", "finished", "scores", "winners", "sha256")


def _cells(row: Row) -> list[Any]:
    report = row["report"]
    scores = "; ".join(f"{n} {s}" for n, s in row["scores"].items())
    return [row["name"], row["verdict"], row["exit"], row["rule"],
            row["move"] + 1 if isinstance(row["move"], int) else None, row["player"],
            row["message"], row["format"], row["game"], report.get("moves_played"),
            report.get("finished"), scores, "; ".join(report.get("winners") or []),
            row["sha256"]]


def game_url(viewer: str | None, row: Row) -> str | None:
    """The viewer's page of a game (its failing move), when the game is one the library
    stores: a readable log (a file that could not be read, or is no log, is never stored: a
    link would answer 404)."""
    from ..reports.html import viewer_url

    if row.get("verdict") in ("unreadable", "internal"):
        return None
    return viewer_url(viewer, row.get("sha256"), row.get("move"))


def _text(value: Any) -> Any:
    return "" if value is None else value


def page(summary: Summary, viewer: str | None) -> dict[str, Any]:
    """The values of the audit's page (``templates/audit.html``)."""
    from ..core.rule_names import rule_label
    from ..reports import charts
    from ..reports.html import family_label

    s = summary.as_json()
    cards = [{"key": key, "label": label, "value": s[key]} for key, label in (
        ("games", "games"), ("valid", "valid"), ("unfinished", "unfinished"),
        ("illegal", "illegal"), ("unreadable", "unreadable"), ("internal", "internal errors"))
        if key != "internal" or s[key]]
    families = []
    for label, game in sorted((family_label(g), g) for g in summary.scores):
        title = f"final scores of {label}"
        families.append({"label": label, "chart_title": title,
                         "chart": charts.histogram(summary.scores[game], title)})
    failures = [{"name": r["name"], "url": game_url(viewer, r), "verdict": r["verdict"],
                 "rule": rule_label(r["rule"]),
                 "move": r["move"] + 1 if isinstance(r["move"], int) else "",  # from 1
                 "player": _text(r["player"]), "message": _text(r["message"]),
                 "format": _text(r["format"])} for r in summary.failures]
    bad = summary.games - s["valid"] - s["unfinished"]
    return {
        "cards": cards, "rate": summary.rate, "exit_code": s["exit_code"],
        "seconds": summary.seconds, "partial": summary.partial,
        "partial_names": summary.partial_names,
        "rules": charts.bars([(rule_label(r), n) for r, n in sorted(
            summary.rules.items(), key=lambda kv: (-kv[1], kv[0]))], "illegal games by rule id"),
        "unreadable": [{"n": n, "why": why, "examples": summary.examples[why]} for why, n in
                       sorted(summary.unreadable.items(), key=lambda kv: (-kv[1], kv[0]))],
        "families": families, "bad": bad, "failures": failures,
        "more": bad - len(failures), "library": summary.library, "ingest_option": True}


AUDIT = Kind(listed=_listed, line=lambda row: str(row["line"]),
             public=lambda row: row["report"], columns=CSV_COLUMNS, cells=_cells,
             template="audit.html", page=page)


def write_html(out: IO[str], summary: Summary, title: str = "Audit",
               viewer: str | None = None) -> None:
    """The audit's page of ``summary``."""
    from ..reports.html import write_page

    write_page(out, AUDIT, summary, title, viewer)
