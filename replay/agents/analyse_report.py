"""The report of ``python -m replay analyse``, written by the reports' shared writers
(``replay.reports``: text, JSON Lines, the HTML page of ``templates/analyse.html``).

A game's row (``analysis.analyse_task``) is told as report rows (``told``), each a ``kind``:
``game`` (what was analysed, or why it could not be), then one ``position`` per move analysed,
then one ``player`` per seat (its inaccuracies, mistakes, blunders and average loss). The text
has a line for each; the JSON Lines an object for each (a position's ``win`` by seat, in the
order of its game's ``players``), then ``{"summary": ...}``. The page draws each game's
win-chance chart (a line per player, the marked moves as dots on the mover's line) over the
table of its moves.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.colours import player_colour
from ..reports import Kind
from .analysis import MARKS, STATUSES, SYMBOLS

Row = dict[str, Any]
MAX_PAGE_GAMES = 100  # games drawn on the page (the others are counted)
EXIT = {"analysed": 0, "illegal": 1, "unreadable": 2, "internal": 3}
PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
COLOURS = {"inaccuracy": "#c99a06", "mistake": "#e8710a", "blunder": "#b42318"}


def public(row: Row) -> Row:
    """A runner's row made an analysis's: the audit's row of a game whose worker died every
    time (``audit.runner.CRASH_MESSAGE``) is an internal error."""
    if "status" in row:
        return row
    return {"index": row["index"], "name": row["name"], "agent": None, "status": "internal",
            "message": row.get("message")}


def told(row: Row) -> Iterator[Row]:
    """The report rows of a game's row (see the module)."""
    names = [p["name"] for p in row.get("players") or []]
    yield {"kind": "game", "game": row["name"], "family": row.get("game"),
           "label": row.get("label"), "players": names, "moves": row.get("moves"),
           "agent": row.get("agent"), "status": row["status"], "message": row.get("message")}
    for p in row.get("positions") or []:
        yield {"kind": "position", "game": row["name"], **p}
    for s in row.get("summary") or []:
        yield {"kind": "player", "game": row["name"], **s}


def _pct(x: float | None) -> str:
    return "?" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None) -> str:
    return "?" if x is None else f"{x:.3f}"


def _n(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else PLURAL.get(word, word + 's')}"


def line(r: Row) -> str:
    """A report row's line of text."""
    if r["kind"] == "game":
        if r["status"] in ("unreadable", "internal") or r.get("players") is None:
            return f"{r['game']}: {r['status']}: {r['message']}"
        head = (f"{r['game']}: {r['label']}, {', '.join(r['players'])}; {r['moves']} moves; "
                f"analysed by {r['agent']}; win chances in this order")
        return head + (f"; {r['message']}" if r.get("message") else "")
    if r["kind"] == "player":
        return (f"  {r['player']}: {_n(r['inaccuracies'], 'inaccuracy')}, "
                f"{_n(r['mistakes'], 'mistake')}, {_n(r['blunders'], 'blunder')}; average loss "
                f"{_num(r['average_loss'])} over {_n(r['moves'], 'move')}")
    start = f"  {r['move']:>3}. {r['player']}"
    if r["best"] is None:
        return f"{start}: not searched ({r['note']})"
    played, best = r["played"], r["best"]
    win = " ".join(_pct(w) for w in r["win"])
    text = (f"{start} [win {win}] played {played['text']} (value {_num(played['value'])}, "
            f"win {_pct(played['win'])})")
    if played["best"]:
        return text + " = best"
    text += (f"; best {best['text']} (value {_num(best['value'])}, win {_pct(best['win'])}); "
             f"loss {_num(r['loss'])}")
    return text + (f"  {SYMBOLS[r['mark']]} {r['mark']}" if r["mark"] else "")


@dataclass
class AnalyseSummary:
    """What the report ends with: the games by status, the marks, the games the page draws."""

    agent: str
    games: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    positions: int = 0
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    drawn: list[Row] = field(default_factory=list)  # the games on the page
    more: int = 0  # games left off the page
    seconds: float = 0.0

    def add(self, row: Row) -> None:
        """Count a game's row (``public``)."""
        self.games[row["status"]] += 1
        positions = row.get("positions") or []
        self.positions += len(positions)
        for p in positions:
            if p["mark"]:
                self.marks[p["mark"]] += 1
        if len(self.drawn) < MAX_PAGE_GAMES:
            self.drawn.append(row)
        else:
            self.more += 1

    @property
    def exit(self) -> int:
        """0 every game analysed to its end, 1 some log has an illegal move (analysed up to
        it), 2 some log unreadable, 3 an internal error: the worst."""
        return max((EXIT[s] for s, n in self.games.items() if n), default=0)

    def lines(self) -> list[str]:
        n = sum(self.games.values())
        counts = ", ".join(f"{k} {v}" for k, v in self.games.items() if v) or "none"
        return [f"{_n(n, 'game')} ({counts}), {_n(self.positions, 'position')} analysed by "
                f"{self.agent} in {self.seconds:.1f} s: "
                + ", ".join(_n(self.marks[m], m) for m in MARKS)]

    def as_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "games": dict(self.games), "positions": self.positions,
                "marks": dict(self.marks), "exit": self.exit,
                "seconds": round(self.seconds, 3)}


def win_chart(row: Row, plot_w: int = 600, last: int | None = None) -> dict[str, Any] | None:
    """The geometry of a game's win-chance chart: a polyline per player over the positions
    (x: the move, y: the win chance, 0 at the bottom), a dot per marked move on its mover's
    line (None: no position searched); ``plot_w`` wide, the x axis running to move ``last``
    (the last one searched by default). ``x`` maps a move to its abscissa and ``step`` is
    the width of a move's column (the web app's links, ``web.computer``)."""
    points = [p for p in row.get("positions") or [] if p["win"] is not None]
    if not points:
        return None
    players = row["players"]
    left, top, plot_h = 36, 10, 160
    end: int = max(p["move"] for p in points) if last is None else last

    def x(move: int) -> float:
        return round(left + plot_w * (move - 1) / max(1, end - 1), 1)

    def y(win: float) -> float:
        return round(top + plot_h * (1 - win), 1)

    lines = []
    for seat, player in enumerate(players):
        lines.append({"name": player["name"], "colour": player_colour(player["colour"]),
                      "points": " ".join(f"{x(p['move'])},{y(p['win'][seat])}"
                                         for p in points)})
    dots = [{"x": x(p["move"]), "y": y(p["win"][p["seat"]]), "colour": COLOURS[p["mark"]],
             "title": f"move {p['move']}, {p['player']}: {p['mark']} (win chance "
                      f"{_pct(p['best']['win'])} with the best move, {_pct(p['played']['win'])}"
                      " with the move played)"}
            for p in points if p["mark"]]
    return {"width": left + plot_w + 10, "height": top + plot_h + 34, "left": left,
            "right": left + plot_w, "top": top, "bottom": top + plot_h,
            "mid": top + plot_h / 2, "last": end, "lines": lines, "dots": dots,
            "label_y": top + plot_h + 16, "caption_y": top + plot_h + 30,
            "centre": left + plot_w / 2, "min_width": 440, "x": x,
            "step": plot_w / max(1, end - 1)}


def page(summary: AnalyseSummary, viewer: str | None) -> Mapping[str, Any]:
    """The page's values (``templates/analyse.html``)."""
    games = []
    for row in summary.drawn:
        games.append({"name": row["name"], "status": row["status"],
                      "message": row.get("message"), "label": row.get("label"),
                      "players": row.get("players") or [],
                      "summary": row.get("summary") or [], "chart": win_chart(row),
                      "positions": row.get("positions") or []})
    cards = [{"key": k, "value": v, "label": f"games {k}", "cls": k}
             for k, v in summary.games.items() if v or k == "analysed"]
    cards += [{"key": k, "value": v, "label": PLURAL[k], "cls": k}
              for k, v in summary.marks.items()]
    return {"agent": summary.agent, "cards": cards, "games": games, "more": summary.more,
            "positions": summary.positions, "seconds": summary.seconds,
            "exit_code": summary.exit, "colours": COLOURS, "symbols": SYMBOLS}


ANALYSE = Kind(listed=lambda r: True, line=line, public=lambda r: r, columns=(),
               cells=lambda r: (), template="analyse.html", page=page)
