"""The statistics pages (``replay.library.statistics``): a player's and a corpus's.

* ``GET /players/<name>`` (or ``/players?name=``, the form ``player_url`` gives a name that
  a path cannot carry: one holding ``/``, or ``.`` and ``..``): a player's games, wins,
  average score, points by kind of scoring (a bar chart), figures used, average rank by seat
  and their recent games (links to the viewer); 404 with a page saying so for a name no
  stored game has;
* ``GET /stats?game=&expansion=&verdict=&player=``: under the library's filters, the first
  seat's win rate (a Wilson 95 % interval, by number of players), the score spread and the
  game length (means with their intervals, the lengths' distribution as a chart).

Their JSON twins: ``GET /api/players/<name>`` (``/api/players?name=``) and ``GET /api/stats``
(the same figures; 404 in JSON for a name without games).

Every text drawn is escaped (templates and ``replay.core.svgtext``), query strings are cut
to the library's 64 characters, and the queries are bounded (see the library module).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from replay.core.svgtext import element, wrap
from replay.library import statistics

from . import db as store
from .errors import respond

bp = Blueprint("stats", __name__)

FIELD = 64  # the library's filter fields at most (``views.library``)


def player_url(name: str) -> str:
    """The page of the player named ``name``: ``/players/<name>`` percent-encoded, or
    ``/players?name=`` for a name a path cannot carry (a ``/`` in it, ``.`` or ``..``)."""
    if "/" in name or name in ("", ".", ".."):
        return url_for("stats.player_query", name=name)
    return url_for("stats.player_query") + "/" + quote(name, safe="")


@bp.app_context_processor
def helpers() -> dict[str, object]:
    """``player_url`` in every template."""
    return {"player_url": player_url}


@bp.get("/players")
def player_query() -> ResponseReturnValue:
    """A player's page, the name in the query (``?name=``)."""
    return _player_page(request.args.get("name", ""))


@bp.get("/players/<path:name>")
def player(name: str) -> ResponseReturnValue:
    """A player's page (see the module)."""
    return _player_page(name)


def _player_page(name: str) -> ResponseReturnValue:
    found = statistics.of_player(store.get_db(), name)
    shown = name if len(name) <= FIELD else name[:FIELD] + "…"
    if found is None:
        return Response(render_template("player.html", name=shown, found=None,
                                        too_long=len(name) > statistics.NAME_LENGTH), 404)
    chart = bars([(kind, points) for kind, points in found.kinds], "points", "kinds")
    return render_template("player.html", name=shown, found=found, chart=Markup(chart))


@bp.get("/stats")
def corpus() -> ResponseReturnValue:
    """A corpus's statistics under the library's filters (see the module)."""
    filters = _filters()
    found = statistics.of_corpus(store.get_db(), **filters)
    chart = columns(statistics.histogram(found.lengths), "moves", "games")
    return render_template("stats.html", found=found, chart=Markup(chart), filters=filters)


def _filters() -> dict[str, str | None]:
    """The library's filters in the query, each cut to ``FIELD`` characters (None: absent)."""
    verdict = request.args.get("verdict", "")
    found: dict[str, str | None] = {"verdict": verdict if verdict in store.VERDICTS else None}
    for key in ("player", "game", "expansion"):
        found[key] = request.args.get(key, "").strip()[:FIELD] or None
    return found


@bp.get("/api/players")
def player_query_json() -> ResponseReturnValue:
    """A player's statistics in JSON, the name in the query (``?name=``)."""
    return _player_json(request.args.get("name", ""))


@bp.get("/api/players/<path:name>")
def player_json(name: str) -> ResponseReturnValue:
    """A player's statistics in JSON (``statistics.PlayerStats``, its page's figures); 404
    for a name no stored game has."""
    return _player_json(name)


def _player_json(name: str) -> ResponseReturnValue:
    found = statistics.of_player(store.get_db(), name)
    if found is None:
        return respond(404, "Not Found", "no stored game has a player of this name")
    out: dict[str, Any] = asdict(found)
    out["figures"] = [{"figure": f, "feature": p, "count": n} for f, p, n in found.figures]
    out["kinds"] = [{"kind": k, "points": p} for k, p in found.kinds]
    out["capped"] = found.capped
    out["recent"] = [{**g, "url": url_for("pages.game", game_id=g["id"])} for g in found.recent]
    return jsonify(out)


@bp.get("/api/stats")
def corpus_json() -> ResponseReturnValue:
    """A corpus's statistics in JSON (``statistics.CorpusStats``, its page's figures: each
    first-seat row with its ``rate``; the lengths as the histogram's bins)."""
    found = statistics.of_corpus(store.get_db(), **_filters())
    out: dict[str, Any] = asdict(found)
    out["first_seat"] = [{**asdict(s), "rate": s.rate} for s in found.first_seat]
    out["capped"] = found.capped
    out["lengths"] = [{"from": lo, "to": hi, "games": n}
                      for lo, hi, n in statistics.histogram(found.lengths)]
    return jsonify(out)


# ------------------------------------------------------------------------------ charts

BAR_W = 360  # a bar chart's width (its viewBox; the page scales it)
BAR_H = 24  # a bar's row
LABEL_W = 112  # the labels' column


def _ticks(top: int) -> list[int]:
    """Round ticks from 0 to at least ``top`` (steps of 1, 2, 5, 10, 20, 50, ...; 6 ticks
    at most)."""
    step, k = 1, 0
    while top > 5 * step:
        step = (1, 2, 5)[(k + 1) % 3] * 10 ** ((k + 1) // 3)
        k += 1
    return list(range(0, -(-max(1, top) // step) * step + 1, step))


def bars(rows: list[tuple[str, int]], unit: str, label: str) -> str:
    """A horizontal bar chart as SVG: a row per (label, value), the value at the bar's end;
    "" for no rows."""
    if not rows:
        return ""
    top = max(1, max(v for _, v in rows))
    plot = BAR_W - LABEL_W - 48
    height = 8 + BAR_H * len(rows)
    out = []
    for i, (name, value) in enumerate(rows):
        y = 6 + i * BAR_H
        w = max(1.0, value * plot / top)
        out.append(wrap(
            "g", element("title", f"{name}: {value} {unit}"),
            element("text", name[:17], x=LABEL_W - 6, y=y + 15, class_="label",
                    text_anchor="end"),
            element("rect", x=LABEL_W, y=y + 3, width=f"{w:.1f}", height=BAR_H - 8,
                    class_="bar"),
            element("text", value, x=f"{LABEL_W + w + 5:.1f}", y=y + 15, class_="axis"),
            class_="row"))
    return wrap("svg", *out, xmlns="http://www.w3.org/2000/svg", class_="chart bars",
                viewBox=f"0 0 {BAR_W} {height}", role="img",
                aria_label=f"{unit} by {label}")


COL_W = 400
COL_H = 190
LEFT, BOTTOM, TOP_GAP = 40, 34, 10


def columns(bins: list[tuple[int, int, int]], unit: str, counted: str) -> str:
    """A histogram as SVG: a column per bin (lowest, highest, count), ``unit`` under the
    axis, ``counted`` up it; "" for no bins."""
    if not bins:
        return ""
    yticks = _ticks(max(n for _, _, n in bins))
    top = yticks[-1] or 1
    plot_w, plot_h = COL_W - LEFT - 10, COL_H - TOP_GAP - BOTTOM
    width = plot_w / len(bins)
    out = []
    for v in yticks:
        y = TOP_GAP + plot_h - v * plot_h / top
        out.append(element("line", x1=LEFT, x2=COL_W - 10, y1=f"{y:.1f}", y2=f"{y:.1f}",
                           class_="grid"))
        out.append(element("text", v, x=LEFT - 5, y=f"{y + 4:.1f}", class_="axis",
                           text_anchor="end"))
    every = max(1, -(-len(bins) // 6))  # at most 6 labels: they fit a phone
    for i, (low, high, n) in enumerate(bins):
        x = LEFT + i * width
        h = n * plot_h / top
        span = f"{low}" if low == high else f"{low}–{high}"
        out.append(wrap("g", element("title", f"{span} {unit}: {n} {counted}"),
                        element("rect", x=f"{x + 1:.1f}", y=f"{TOP_GAP + plot_h - h:.1f}",
                                width=f"{max(1.0, width - 2):.1f}", height=f"{h:.1f}",
                                class_="bar"), class_="row"))
        if i % every == 0:  # a bin of one value is named under its middle
            one = low == high
            out.append(element("text", low, x=f"{x + (width / 2 if one else 1):.1f}",
                               y=f"{TOP_GAP + plot_h + 15:.1f}", class_="axis",
                               text_anchor="middle" if one else None))
    out.append(element("text", unit, x=f"{LEFT + plot_w / 2:.1f}", y=COL_H - 3,
                       class_="label", text_anchor="middle"))
    out.append(element("text", counted, transform=f"translate(11 {TOP_GAP + plot_h / 2:.1f}) "
                                                   f"rotate(-90)",
                       class_="label", text_anchor="middle"))
    return wrap("svg", *out, xmlns="http://www.w3.org/2000/svg", class_="chart columns",
                viewBox=f"0 0 {COL_W} {COL_H}", role="img",
                aria_label=f"{counted} by {unit}")
