"""The report of ``python -m replay diff``: the summary (counts, and the mean score change
B - A with its 95 % confidence interval), and what each format shows of a row (``DIFF``, a
``replay.reports.Kind``: the writers are the audit's, ``replay.reports``; the page is
``replay/reports/templates/diff.html``: the summary, the mean score change per seat and per
kind of scoring as bars with their intervals, and the table of the changed games, the first
diverging move linked to the web viewer when its address is given, as the audit links a game).

The writers take the rows one at a time in the order of the walk and the summary at the end;
everything but the timings depends only on the rows, so the same corpus gives the same report
however many workers compared it.

**The score change.** Over the games that both sides replay to their end (no refused move;
with ``--baseline``, a wrong claim does not stop a replay), per seat (1: the log's first
player) the change of that seat's final score, and per kind of scoring event (the ``Score``
event's ``feature``: city, road, farm, ...) the change of the points the kind gave in the
game, all players together; a kind is averaged over the games of the families in which it
scored at least once (on either side), each such game counting, 0 when the kind scored
nothing in it. Each mean has a Student t-interval: mean ± t(0.975, n-1) · s / √n (s the
sample standard deviation; none for fewer than 2 games).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from ..core.printable import printable
from ..reports import Kind, reason
from .diff import COMPARED, INTERNAL, NOT_COMPARABLE, UNREADABLE, Row

MAX_TABLE = 2000  # changed games kept for the HTML table (the rest are counted)
MAX_EXAMPLES = 5  # names kept per reason a game was not compared
EXIT_SAME, EXIT_CHANGED, EXIT_NOT_COMPARED, EXIT_INTERNAL = 0, 1, 2, 3

# t(0.975, df) for df = 1..30; above, the Cornish-Fisher expansion (error below 1e-5)
T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (df >= 1)."""
    if df <= len(T975):
        return T975[df - 1]
    z = NormalDist().inv_cdf(0.975)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@dataclass
class Mean:
    """A running mean of integers (exact sums), with its t-interval."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, x: int) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merged(self, other: Mean) -> Mean:
        return Mean(self.n + other.n, self.total + other.total, self.squares + other.squares)

    def as_json(self) -> dict[str, Any]:
        """``n``, ``mean`` and ``ci95`` ([low, high], None for fewer than 2 games)."""
        if self.n == 0:
            return {"n": 0, "mean": None, "ci95": None}
        mean = self.total / self.n
        if self.n < 2:
            return {"n": 1, "mean": round(mean, 4), "ci95": None}
        var = max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))
        half = t975(self.n - 1) * math.sqrt(var / self.n)
        return {"n": self.n, "mean": round(mean, 4),
                "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def exit_code(row: Row) -> int:
    """0 the same, 1 changed, 2 not compared (unreadable, not comparable), 3 internal."""
    status = row["status"]
    if status == COMPARED:
        return EXIT_CHANGED if row["changed"] else EXIT_SAME
    return EXIT_INTERNAL if status == INTERNAL else EXIT_NOT_COMPARED


@dataclass
class DiffSummary:
    """Counts over the rows, the score changes, and the first changed games (for HTML)."""

    a: str = "A"  # what each side is, for people
    b: str = "B"
    baseline: bool = False
    games: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    changed: int = 0
    winners_changed: int = 0
    became_illegal: int = 0  # replayed to the end under A, not under B
    became_legal: int = 0
    seats: dict[int, Mean] = field(default_factory=dict)
    games_of: Counter[str] = field(default_factory=Counter)  # family -> games in the means
    kinds: dict[str, dict[str, Mean]] = field(default_factory=dict)  # family -> kind -> mean
    not_compared: Counter[str] = field(default_factory=Counter)  # reason -> games
    examples: dict[str, list[str]] = field(default_factory=dict)
    changed_rows: list[Row] = field(default_factory=list)
    baseline_only: int = 0  # games of the baseline report found in no source
    exit: int = 0
    seconds: float = 0.0

    def add(self, row: Row) -> None:
        self.games += 1
        self.statuses[row["status"]] += 1
        self.exit = max(self.exit, exit_code(row))
        if row["status"] != COMPARED:
            why = reason(row.get("message")) if row["status"] != INTERNAL else "internal error"
            self.not_compared[why] += 1
            names = self.examples.setdefault(why, [])
            if len(names) < MAX_EXAMPLES:
                names.append(row["source"])
            return
        if row["changed"]:
            self.changed += 1
            if len(self.changed_rows) < MAX_TABLE:
                self.changed_rows.append(row)
        self.winners_changed += row["winners_a"] != row["winners_b"]
        self.became_illegal += row["replayed_a"] and not row["replayed_b"]
        self.became_legal += row["replayed_b"] and not row["replayed_a"]
        if row["replayed_a"] and row["replayed_b"]:
            self._scores(row)

    def _scores(self, row: Row) -> None:
        a, b = list(row["final_scores_a"].values()), list(row["final_scores_b"].values())
        for seat, (x, y) in enumerate(zip(a, b, strict=False), 1):
            self.seats.setdefault(seat, Mean()).add(int(y) - int(x))
        pa, pb = row.get("points_by_kind_a"), row.get("points_by_kind_b")
        if pa is None or pb is None:
            return  # an earlier engine's report says no events
        fam = str(row.get("game"))
        self.games_of[fam] += 1
        kinds = self.kinds.setdefault(fam, {})
        for kind in set(pa) | set(pb):
            if kind not in kinds:  # its earlier games of this family scored none of it
                kinds[kind] = Mean(self.games_of[fam] - 1)
        for kind, mean in kinds.items():
            mean.add(int(pb.get(kind, 0)) - int(pa.get(kind, 0)))

    def per_kind(self) -> dict[str, Mean]:
        """Each kind's mean over the games of the families it scored in."""
        out: dict[str, Mean] = {}
        for fam in sorted(self.kinds):
            for kind, mean in self.kinds[fam].items():
                out[kind] = out[kind].merged(mean) if kind in out else mean
        return dict(sorted(out.items()))

    @property
    def rate(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def as_json(self) -> dict[str, Any]:
        s = self.statuses
        return {
            "games": self.games, "a": self.a, "b": self.b, "compared": s[COMPARED],
            "changed": self.changed, "unchanged": s[COMPARED] - self.changed,
            "winners_changed": self.winners_changed, "became_illegal": self.became_illegal,
            "became_legal": self.became_legal, "unreadable": s[UNREADABLE],
            "not_comparable": s[NOT_COMPARABLE], "internal": s[INTERNAL],
            **({"baseline_only": self.baseline_only} if self.baseline else {}),
            "score_change": {
                "method": "mean of B - A over the games both sides replay to their end, with "
                          "a 95 % Student t-interval",
                "per_seat": {str(k): self.seats[k].as_json() for k in sorted(self.seats)},
                "per_kind": None if self.baseline else {
                    k: m.as_json() for k, m in self.per_kind().items()}},
            "not_compared_by_reason": dict(sorted(self.not_compared.items())),
            "examples": {k: self.examples[k] for k in sorted(self.examples)},
            "exit_code": self.exit,
            "seconds": round(self.seconds, 3), "games_per_second": round(self.rate, 1),
        }

    def lines(self) -> list[str]:
        """The summary for people."""
        s = self.statuses
        out = [f"A: {self.a}; B: {self.b}",
               f"games: {self.games}; compared {s[COMPARED]}, changed {self.changed}, winners "
               f"changed {self.winners_changed}; illegal under B only {self.became_illegal}, "
               f"under A only {self.became_legal}; unreadable {s[UNREADABLE]}, not comparable "
               f"{s[NOT_COMPARABLE]}" + (f", internal errors {s[INTERNAL]}" if s[INTERNAL]
                                         else "")]
        if self.baseline and self.baseline_only:
            out.append(f"games of the baseline report in no source: {self.baseline_only}")
        if self.seats:
            out.append("score change B - A, mean [95 % t-interval] (games): " + "; ".join(
                f"seat {k} {change(self.seats[k])}" for k in sorted(self.seats)))
        kinds = {} if self.baseline else self.per_kind()
        if kinds:
            out.append("points by kind, B - A per game: " + "; ".join(
                f"{k} {change(m)}" for k, m in kinds.items()))
        for why, n in sorted(self.not_compared.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"not compared ({n}): {why} (e.g. {', '.join(self.examples[why][:2])})")
        out.append(f"{self.rate:.1f} games/s ({self.seconds:.1f} s)")
        return [printable(line) for line in out]


def change(mean: Mean) -> str:
    """``+1.25 [+0.80, +1.70] (40)``."""
    j = mean.as_json()
    if j["mean"] is None:
        return "- (0)"
    ci = f" [{j['ci95'][0]:+.2f}, {j['ci95'][1]:+.2f}]" if j["ci95"] else ""
    return f"{j['mean']:+.2f}{ci} ({j['n']})"


# ------------------------------------------------------------------ what differs, in words


def _seats(winners: list[int], names: list[str]) -> str:
    return ", ".join(names[w] if 0 <= w < len(names) else str(w) for w in winners) or "nobody"


EVENT_WORDS = {"end": "game end"}  # an event's kind as people say it, where its type is terse


def event_words(event: dict[str, Any], names: list[str]) -> str:
    """One event, short: ``score city 4 to Ada``, ``game end``, or its kind."""
    if event.get("type") == "score":
        return (f"score {event.get('feature')} {event.get('points')} to "
                f"{_seats(list(event.get('winners') or []), names)}")
    kind = str(event.get("type"))
    return EVENT_WORDS.get(kind, kind)


def side_words(side: dict[str, Any] | None, other: dict[str, Any] | None) -> str:
    """What one side did at the diverging move, for people: its refusal, the events the
    other side has not, else those of the other side it has not (``no game end``): "the same
    events" only when both did the same (or its state hash, against a baseline report)."""
    if not side:
        return "-"
    ref = side.get("refusal")
    if ref:
        # an unreadable log (L1) says where; a refused move is named by the line already
        where = f"{ref['path']}: " if ref.get("move") is None and ref.get("path") else ""
        return f"illegal, {ref['rule']}: {where}{ref['message']}"
    if "events" not in side:
        if "hash" in side:
            return f"hash {side['hash']}" if side["hash"] else "not played"
        return "header accepted" if "refusal" in side else "-"
    theirs = (other or {}).get("events") or []
    mine = [e for e in side["events"] if e not in theirs] if other and "events" in other \
        else side["events"]
    missing = [e for e in theirs if e not in side["events"]]
    names = list((side.get("scores") or {}).keys())
    said = (", ".join(event_words(e, names) for e in mine)
            or ", ".join(f"no {event_words(e, names)}" for e in missing) or "the same events")
    scores = ", ".join(f"{n} {s}" for n, s in (side.get("scores") or {}).items())
    hashed = f"hash {side['hash']}; " if side.get("hash") else ""
    return f"{hashed}{said}" + (f"; scores {scores}" if scores else "")


def scores_words(scores: dict[str, int]) -> str:
    return ", ".join(f"{n} {s}" for n, s in scores.items()) or "-"


def row_line(row: Row) -> str:
    """One line for a game: what changed where, or why it was not compared."""
    name = row["source"]
    if row["status"] != COMPARED:
        return f"{name}: {row['status']}: {row.get('message')}"
    if not row["changed"]:
        return f"{name}: same; final scores {scores_words(row['final_scores_b'])}"
    k = row["first_divergence"]
    there = row.get("divergence") or {}
    who = f" ({there['player']})" if there.get("player") else ""
    where = "the start" if k == 0 else f"move {k}"
    line = (f"{name}: changed at {where}{who}: A: {side_words(there.get('a'), there.get('b'))}"
            f" | B: {side_words(there.get('b'), there.get('a'))}; final A "
            f"{scores_words(row['final_scores_a'])}, B {scores_words(row['final_scores_b'])}")
    if row["winners_a"] != row["winners_b"]:
        line += (f"; winners A {', '.join(row['winners_a']) or '-'}, "
                 f"B {', '.join(row['winners_b']) or '-'}")
    return line


# ------------------------------------------------------------------ the formats


def _listed(row: Row) -> bool:
    """The text lists the changed games and those not compared (every game with
    ``verbose``)."""
    return row["status"] != COMPARED or bool(row["changed"])


OUTPUT_FIELDS = ("source", "status", "game", "changed", "first_divergence", "divergence",
                 "final_scores_a", "final_scores_b", "winners_a", "winners_b", "finished_a",
                 "finished_b", "refusal_a", "refusal_b", "replayed_a", "replayed_b",
                 "points_by_kind_a", "points_by_kind_b", "moves", "message", "sha256")


def public(row: Row) -> dict[str, Any]:
    """A row as the JSON Lines report gives it (every field, None where it does not apply)."""
    return {k: row.get(k) for k in OUTPUT_FIELDS}


CSV_COLUMNS = ("source", "status", "game", "changed", "first_divergence", "player", "a", "b",
               "refusal_a_move", "refusal_a_rule", "refusal_a_message", "refusal_b_move",
               "refusal_b_rule", "refusal_b_message", "final_scores_a", "final_scores_b",
               "winners_a", "winners_b", "message", "sha256")


def _cells(row: Row) -> list[Any]:
    there = row.get("divergence") or {}
    ra, rb = row.get("refusal_a") or {}, row.get("refusal_b") or {}
    compared = row["status"] == COMPARED
    return [row["source"], row["status"], row.get("game"), row.get("changed"),
            row.get("first_divergence"), there.get("player"),
            side_words(there.get("a"), there.get("b")) if there else None,
            side_words(there.get("b"), there.get("a")) if there else None,
            ra.get("move"), ra.get("rule"), ra.get("message"), rb.get("move"), rb.get("rule"),
            rb.get("message"),
            scores_words(row["final_scores_a"]) if compared else None,
            scores_words(row["final_scores_b"]) if compared else None,
            "; ".join(row.get("winners_a") or []), "; ".join(row.get("winners_b") or []),
            row.get("message"), row.get("sha256")]


CARDS = (("games", "games", ""), ("compared", "compared", ""),
         ("changed", "changed", "changed"), ("unchanged", "the same", "same"),
         ("winners_changed", "winners changed", ""),
         ("became_illegal", "illegal under B only", ""),
         ("became_legal", "illegal under A only", ""), ("unreadable", "unreadable", ""),
         ("not_comparable", "not comparable", ""), ("internal", "internal errors", ""))


def _changed_row(row: Row, viewer: str | None) -> dict[str, Any]:
    from ..reports.html import viewer_url

    k = row["first_divergence"]
    there = row.get("divergence") or {}
    return {"name": row["source"], "move": k,
            "url": viewer_url(viewer, row.get("sha256"),
                              k - 1 if isinstance(k, int) and k > 0 else None),
            "player": there.get("player") or "",
            "a": side_words(there.get("a"), there.get("b")),
            "b": side_words(there.get("b"), there.get("a")),
            "final_a": scores_words(row["final_scores_a"]),
            "final_b": scores_words(row["final_scores_b"]),
            "winners": f"{', '.join(row['winners_a']) or '-'} / "
                       f"{', '.join(row['winners_b']) or '-'}"}


def page(summary: DiffSummary, viewer: str | None) -> dict[str, Any]:
    """The values of the diff's page (``templates/diff.html``)."""
    from ..reports import charts

    s = summary.as_json()
    seats = [(f"seat {k}", summary.seats[k].as_json()) for k in sorted(summary.seats)]
    kinds = None if summary.baseline else [(k, m.as_json())
                                           for k, m in summary.per_kind().items()]
    return {
        "a": summary.a, "b": summary.b, "rate": summary.rate, "seconds": summary.seconds,
        "exit_code": s["exit_code"], "method": s["score_change"]["method"],
        "cards": [{"key": key, "label": label, "cls": cls, "value": s[key]}
                  for key, label, cls in CARDS
                  if key not in ("internal", "became_legal") or s[key]],
        "seats": charts.shifts(seats, "mean final score change per seat"),
        "kinds": None if kinds is None else charts.shifts(kinds, "mean points change per kind"),
        "not_compared": [{"n": n, "why": why, "examples": summary.examples[why]}
                         for why, n in sorted(summary.not_compared.items(),
                                              key=lambda kv: (-kv[1], kv[0]))],
        "changed": summary.changed,
        "rows": [_changed_row(row, viewer) for row in summary.changed_rows],
        "more": summary.changed - len(summary.changed_rows),
        "library": None, "ingest_option": False}


DIFF = Kind(listed=_listed, line=row_line, public=public, columns=CSV_COLUMNS, cells=_cells,
            template="diff.html", page=page)
