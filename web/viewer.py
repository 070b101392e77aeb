"""What the viewer shows at one position, shared by the HTML page and the JSON API."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from replay import svg
from replay.core.events import Event

from .games import Entry, Summary


@dataclass(frozen=True, slots=True)
class Seat:
    """A player as the viewer shows them at one position."""

    name: str
    colour: str  # the player colour name
    fill: str  # its drawing colour
    score: int
    gained: int  # points gained with the move that led here
    supply: tuple[tuple[str, int], ...]
    to_play: bool
    winner: bool


@dataclass(slots=True)
class View:
    """What the viewer shows at one position: the board, the seats, the events that led
    there and their explanations, a failure, the next tile."""

    entry: Entry
    n: int
    board: str  # the SVG
    seats: list[Seat]
    events: list[Event] = field(default_factory=list)
    lines: list[tuple[str, str]] = field(default_factory=list)  # (event type, text)
    failure: svg.Failure | None = None
    notes: tuple[str, ...] = ()
    tiles_left: int | None = None
    next_tile: str | None = None
    next_tile_svg: str = ""
    finished: bool = False
    header_error: str | None = None

    @property
    def last(self) -> int:
        return self.entry.last


def build(entry: Entry, n: int, draw: bool = True) -> View:
    """The view of position ``n`` (with its pictures when ``draw``); raises ``IndexError``
    for a position the game lacks."""
    row = entry.row
    if entry.parsed is None:
        if n != 0:
            raise IndexError(f"position {n} is not in this game")
        seats = [Seat(p["name"], p["colour"], svg.player_colour(p["colour"]), 0, 0, (), False,
                      False) for p in row.players]
        if entry.unreadable is not None:
            return View(entry, 0, "", seats, header_error=(
                "This stored log cannot be read any more (it was stored before the checks "
                f"that now refuse it): {entry.unreadable}"))
        text = f"{row.rule}: {row.message}" if row.rule else str(row.message)
        return View(entry, 0, "", seats, header_error=f"The header is illegal: {text}")
    summary = entry.summary
    if n > summary.last:
        raise IndexError(f"position {n} is not in this game (0 to {summary.last})")
    pos = svg.position(entry.parsed, n)
    game = pos.state
    notes = svg.claim_notes(entry.parsed, n, entry.report) if pos.failure is None else ()
    board = (svg.board(game, events=pos.events, failure=pos.failure, notes=notes)
             if draw else "")
    players = game.players
    gained = _gained(summary, n)
    winners = set(game.winners()) if game.finished else set()
    seats = [
        Seat(p.name, p.colour, svg.player_colour(p.colour), game.scores[i], gained[i],
             tuple(game.supply_of(i).items()),
             not game.finished and pos.failure is None and game.current_player == i,
             i in winners)
        for i, p in enumerate(players)
    ]
    status = game.status()
    view = View(entry, n, board, seats, events=pos.events, failure=pos.failure,
                notes=notes, tiles_left=status.get("tiles_left"), finished=game.finished)
    view.lines = [(e.type, e.explain(players)) for e in pos.events]
    if status.get("next_tile") is not None and pos.failure is None:
        view.next_tile = status["next_tile"]
        if draw:
            view.next_tile_svg = svg.next_piece(game, 56)
    return view


def _gained(summary: Summary, n: int) -> list[int]:
    if 0 < n <= len(summary.scores) - 1:
        return [a - b for a, b in zip(summary.scores[n], summary.scores[n - 1], strict=True)]
    return [0] * len(summary.scores[0])


def as_json(view: View, urls: dict[str, str]) -> dict[str, Any]:
    """The state at a position, for ``GET /api/games/<id>/moves/<n>``."""
    entry = view.entry
    out: dict[str, Any] = {
        "id": entry.row.id, "move": view.n, "last": view.last, **urls,
        "verdict": verdict_json(entry),
        "players": [{"name": s.name, "colour": s.colour, "score": s.score, "gained": s.gained,
                     "supply": dict(s.supply), "to_play": s.to_play, "winner": s.winner}
                    for s in view.seats],
        "scores": {s.name: s.score for s in view.seats},
        "tiles_left": view.tiles_left, "next_tile": view.next_tile, "finished": view.finished,
        "events": [e.to_json() for e in view.events],
        "explanations": [text for _, text in view.lines],
        "failure": None, "notes": list(view.notes),
    }
    if view.failure is not None:
        f = view.failure
        out["failure"] = {"move": f.index, "player": f.player, "rule": f.rule,
                          "message": f.message, "text": f.text()}
    if view.header_error is not None:
        out["failure"] = {"move": None, "player": None, "rule": entry.row.rule,
                          "message": entry.row.message, "text": view.header_error}
    return out


def verdict_json(entry: Entry) -> dict[str, Any]:
    """A stored game's verdict as the API returns it."""
    row = entry.row
    return {"valid": row.verdict == "valid", "verdict": row.verdict, "finished": row.finished,
            "rule": row.rule, "move": row.error_move, "player": row.error_player,
            "message": row.message}


# --------------------------------------------------------------------------- chart

CHART_W, CHART_H, PAD = 600.0, 170.0, 22.0


def chart(entry: Entry, n: int, base_url: str) -> str:
    """Scores over time as SVG: one line per player, a cursor at ``n``; every column is a link
    to its position (the viewer's script turns the links into in-page jumps)."""
    summary = entry.summary
    players = entry.row.players
    last = max(1, summary.last)
    top = max([1, *(max(s) for s in summary.scores if s)])

    def px(k: int) -> float:
        return PAD + k * (CHART_W - 2 * PAD) / last

    def py(score: int) -> float:
        return CHART_H - PAD - score * (CHART_H - 2 * PAD) / top

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {CHART_W:g} '
           f'{CHART_H:g}" role="img" aria-label="scores over time">']
    for frac in (0.0, 0.5, 1.0):
        y = py(round(top * frac))
        out.append(f'<line x1="{PAD}" x2="{CHART_W - PAD}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'class="grid"/><text x="{PAD - 4}" y="{y + 4:.1f}" class="axis" '
                   f'text-anchor="end">{round(top * frac)}</text>')
    out.append(f'<text x="{CHART_W - PAD}" y="{CHART_H - 5}" class="axis" '
               f'text-anchor="end">move {summary.last}</text>')
    for i, p in enumerate(players):
        pts = " ".join(f"{px(k):.1f},{py(s[i]):.1f}" for k, s in enumerate(summary.scores))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{svg.player_colour(p["colour"])}"'
                   f' stroke-width="2.2"><title>{escape(p["name"])}</title></polyline>')
    if summary.failure is not None:
        x = px(summary.failure + 1)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{PAD}" y2="{CHART_H - PAD}" '
                   f'class="fail"/>')
    x = px(n)
    out.append(f'<line class="cursor" x1="{x:.1f}" x2="{x:.1f}" y1="4" y2="{CHART_H - PAD}"/>')
    width = (CHART_W - 2 * PAD) / last
    for k in range(summary.last + 1):
        if k < len(summary.scores):
            tip = ", ".join(f"{p['name']} {s}" for p, s in zip(players, summary.scores[k],
                                                                strict=False))
        else:
            tip = "illegal move"
        out.append(f'<a href="{base_url}{k}" data-move="{k}"><rect x="{px(k) - width / 2:.1f}" '
                   f'y="0" width="{width:.1f}" height="{CHART_H:g}" class="hit">'
                   f'<title>{escape(f"move {k}: {tip}")}</title></rect></a>')
    out.append("</svg>")
    return "".join(out)
