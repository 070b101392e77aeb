"""The report of ``python -m replay balance``, in the formats of the shared report layer
(``replay.reports``: the writers of ``audit`` and ``diff``): text (a short table: a line per
figure, a column per rule set and one for B - A), JSON (one object, ``{"summary": ...}`` as
the other reports end) and HTML (``replay/reports/templates/balance.html``: the seat advantage
of both sets as intervals around the fair value, the first seat's margin and the points by
kind B - A as bars with their intervals, and the table of every figure).

Nothing in it depends on time or on the number of workers: the same games give the same
report (the command says the time taken on stderr).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.printable import printable
from ..reports import Kind
from .balance import Balance

COLOURS = {"A": "#2563eb", "B": "#c2410c"}
FLAG = "*"  # marks an interval that leaves the fair value out


class BalanceSummary:
    """A measure as the writers want it (``lines``, ``as_json``), its JSON made once."""

    def __init__(self, balance: Balance) -> None:
        self.balance = balance
        self.json = balance.as_json()

    def as_json(self) -> dict[str, Any]:
        return self.json

    def lines(self) -> list[str]:
        return [printable(line) for line in text_lines(self.json)]


def rate_text(r: dict[str, Any]) -> str:
    """``0.540 [0.443, 0.634]`` (``*`` after it when the interval leaves the fair value out)."""
    if r.get("rate") is None:
        return "-"
    flag = FLAG if r.get("excludes_fair") else ""
    return f"{r['rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]{flag}"


def mean_text(m: dict[str, Any] | None, signed: bool = False, digits: int = 2) -> str:
    """``+1.23 [-0.40, +2.86]`` (a ``Mean.as_json()``)."""
    if m is None or m.get("mean") is None:
        return "-"
    f = f"{'+' if signed else ''}.{digits}f"
    ci = f" [{m['ci95'][0]:{f}}, {m['ci95'][1]:{f}}]" if m.get("ci95") else ""
    return f"{m['mean']:{f}}{ci}{FLAG if m.get('excludes_fair') else ''}"


def rows(s: dict[str, Any]) -> list[tuple[str, list[str], str]]:
    """Every figure: its name, its text per set, the paired difference's text."""
    sets = list(s["sets"].values())
    d = s["difference"]
    out: list[tuple[str, list[str], str]] = []
    for k in range(s["players"]):
        out.append((f"seat {k + 1} score rate", [rate_text(x["seat_score_rate"][k])
                                                 for x in sets],
                    mean_text(d["seat_score_rate"][k], True, 3) if d else ""))
    out.append(("first seat margin", [mean_text(x["first_seat_margin"], True) for x in sets],
                mean_text(d["first_seat_margin"], True) if d else ""))
    out.append(("score spread", [mean_text(x["score_spread"]) for x in sets],
                mean_text(d["score_spread"], True) if d else ""))
    out.append(("tie rate", [rate_text(x["ties"]) for x in sets],
                mean_text(d["tie_rate"], True, 3) if d else ""))
    out.append(("length (moves)", [mean_text(x["length"]) for x in sets],
                mean_text(d["length"], True) if d else ""))
    for k in range(s["players"]):
        out.append((f"seat {k + 1} mean score", [mean_text(x["mean_score"][k], digits=1)
                                                 for x in sets], ""))
    for kind in sets[0]["points_by_kind"] if sets else ():
        out.append((f"points: {kind}", [mean_text(x["points_by_kind"][kind], digits=1)
                                        for x in sets],
                    mean_text(d["points_by_kind"][kind], True, 1) if d else ""))
    return out


def text_lines(s: dict[str, Any]) -> list[str]:
    """The short table (see the module)."""
    sets = s["sets"]
    head = [f"balance of {s['game']}, {s['players']} players, every seat {s['agent']}: "
            f"{s['games']} game{'s' * (s['games'] != 1)} a rule set (seeds {s['seeds']})",
            "; ".join(f"{label}: {x['rules']}" + (f" ({x['game']})" if x["game"] != s["game"]
                                                   else "") for label, x in sets.items())
            + ("  (the same rules: played once)" if s["same_rules"] else "")]
    table = rows(s)
    name_w = max(len(name) for name, _, _ in table)
    widths = [max([len(label)] + [len(cells[i]) for _, cells, _ in table])
              for i, label in enumerate(sets)]
    columns = list(sets) + (["B - A (paired)"] if s["difference"] else [])

    def line(name: str, cells: Sequence[str]) -> str:
        padded = [c.ljust(w) for c, w in zip(cells, widths, strict=False)]
        return "  ".join([name.ljust(name_w), *padded, *cells[len(widths):]]).rstrip()

    out = [*head, line("", columns)]
    out += [line(name, [*cells, *([diff] if s["difference"] else [])])
            for name, cells, diff in table]
    out.append(f"fair: a seat's score rate {s['fair_score_rate']:g} (1 / players), the first "
               f"seat's margin 0; {FLAG} its 95 % interval leaves the fair value out")
    return out


# ------------------------------------------------------------------ the page


def page(summary: BalanceSummary, viewer: str | None) -> dict[str, Any]:
    """The values of the balance page (``templates/balance.html``)."""
    from ..reports import charts

    s = summary.json
    fair = s["fair_score_rate"]
    seats = []
    for k in range(s["players"]):
        for label, x in s["sets"].items():
            r = x["seat_score_rate"][k]
            seats.append((f"{label}, seat {k + 1}: {rate_text(r)}", COLOURS.get(label, "#444"),
                          r["rate"], r["ci95"][0], r["ci95"][1]))
    d = s["difference"]
    margins = [(label, x["first_seat_margin"]) for label, x in s["sets"].items()]
    if d:
        margins.append(("B - A (paired)", d["first_seat_margin"]))
    return {
        "s": s, "sets": s["sets"], "difference": d,
        "columns": list(s["sets"]) + (["B - A (paired)"] if d else []),
        "rows": rows(s), "flag": FLAG,
        "seats": charts.intervals(seats, "each seat's score rate with its Wilson 95 % "
                                  "interval, per rule set", reference=fair),
        "margins": charts.shifts(margins, "the first seat's mean margin with its 95 % "
                                 "interval"),
        "kinds": None if not d else charts.shifts(
            list(d["points_by_kind"].items()), "mean points per game by kind, B - A")}


BALANCE = Kind(listed=lambda row: False, line=str, public=dict, columns=(),
               cells=lambda row: [], template="balance.html", page=page)
