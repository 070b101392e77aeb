"""What the viewer shows at one position, shared by the HTML page and the JSON API."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from replay import svg
from replay.core.colours import NOBODY, seat_marks, text_on
from replay.core.events import Event, Score, worth_telling
from replay.core.explore import Choices, Option
from replay.core.svgtext import element, open_tag, wrap
from replay.core.verify import REPORT_VERSION, where_json
from replay.core.view import draw_board, view_of

from .db import GameRow
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
    if_ended: int = 0  # the score if the game ended here (``Summary.if_ended``)


@dataclass(frozen=True, slots=True)
class Line:
    """One explanation: the event it explains (its index in the move's events, which the board
    pieces it links to carry as ``data-ev``), its kind and text; for a score, who gained what."""

    index: int
    kind: str  # the event type
    text: str
    phase: str = ""  # a score's phase: "play" or "final"
    gains: tuple[tuple[str, str, int], ...] = ()  # (fill, text colour, points) per winner
    fill: str = ""  # the scorer's colour (the first winner's)


@dataclass(slots=True)
class View:
    """What the viewer shows at one position: the board, the seats, the events that led
    there and their explanations, a failure, the game's status (``GameState.status()``: what
    the family shows beside the board, e.g. the tiles left and the next tile, or the round
    and the draw pile) and the facts of it the page writes."""

    entry: Entry
    n: int
    board: str  # the SVG
    seats: list[Seat]
    events: list[Event] = field(default_factory=list)
    lines: list[tuple[str, str]] = field(default_factory=list)  # (event type, text)
    failure: svg.Failure | None = None
    notes: tuple[str, ...] = ()
    status: dict[str, Any] = field(default_factory=dict)
    facts: list[tuple[str, str, str]] = field(default_factory=list)  # see ``facts``
    next_tile: str | None = None
    next_tile_svg: str = ""
    next_tile_words: str = ""  # the next tile described (``a city cap``), "" if unknown
    finished: bool = False
    header_error: str | None = None
    items: list[Line] = field(default_factory=list)

    @property
    def tiles_left(self) -> int | None:
        """The tiles left in the pile, for a game played with tiles."""
        left = self.status.get("tiles_left")
        return left if isinstance(left, int) else None

    @property
    def next_tile_label(self) -> str:
        """The next tile as people read it: ``a city cap (E)``, its id alone if undescribed."""
        if not self.next_tile:
            return ""
        if not self.next_tile_words:
            return f"tile {self.next_tile}"
        return f"{self.next_tile_words} ({self.next_tile})"

    @property
    def quiet(self) -> str:
        """What the explanations say when the position has no event to explain."""
        if self.header_error:
            return "Nothing to replay: the header breaks a rule."
        tiles = "tiles_left" in self.status
        if self.failure is not None:
            return ("The tile shown in red was not placed: the game stops here." if tiles
                    else "The illegal move was not played: the game stops here.")
        if self.n == 0:
            return ("The start tile is on the table." if tiles
                    else "The game is set up: nobody has moved yet.")
        return "No event."

    @property
    def end(self) -> Line | None:
        """The game-over line of this move, if it has one."""
        return next((x for x in self.items if x.kind == "end"), None)

    @property
    def returned(self) -> list[Line]:
        """The figures that went back to their supply (shown folded: there can be many)."""
        return [x for x in self.items if x.kind == "return"]

    @property
    def shown(self) -> list[Line]:
        """The other lines, in the order they happened."""
        return [x for x in self.items if x.kind not in ("end", "return")]

    @property
    def last(self) -> int:
        return self.entry.last


def build(entry: Entry, n: int, draw: bool = True, found: Choices | None = None,
          best: Option | None = None) -> View:
    """The view of position ``n`` (with its pictures when ``draw``: the board drawn by the
    family's view, its scored features linked to the explanations, the spots of the analysis
    board's choices ``found`` on it; ``best``, the computer's best move there, drawn as a
    ghost). ``n`` is a position of the game (0 to ``entry.last``):
    the routes answer 404 for any other before building (an ``IndexError`` here is a bug)."""
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
    look = view_of(entry.parsed.family)
    board = draw_board(look, game, events=pos.events, failure=pos.failure, notes=notes,
                       linked=True,
                       spots=found.spots() if found else None,
                       spot_names=found.spot_names() if found else None,
                       ghost=found.options if found else (best,) if best else ()
                       ) if draw else ""
    players = game.players
    gained = _gained(summary, n)
    ended = summary.if_ended[n] if n < len(summary.if_ended) else game.scores
    winners = set(game.winners()) if game.finished else set()
    seats = [
        Seat(p.name, p.colour, svg.player_colour(p.colour), game.scores[i], gained[i],
             tuple(game.supply_of(i).items()),
             not game.finished and pos.failure is None and game.current_player == i,
             i in winners, ended[i])
        for i, p in enumerate(players)
    ]
    status = look.status(game)
    view = View(entry, n, board, seats, events=pos.events, failure=pos.failure,
                notes=notes, status=status, facts=facts(status), finished=game.finished)
    lines = [(e.type, e.explain(players)) for e in pos.events]
    # a score of no points is not told (worth_telling); the kept lines keep their event index,
    # which the board's layers and badges are tagged with
    view.items = [_line(i, e, text, seats) for i, (e, (_, text)) in
                  enumerate(zip(pos.events, lines, strict=True)) if worth_telling(e)]
    view.lines = [line for e, line in zip(pos.events, lines, strict=True) if worth_telling(e)]
    if status.get("next_tile") is not None and pos.failure is None:
        view.next_tile = status["next_tile"]
        view.next_tile_words = look.next_piece_words(game)
        if draw:
            view.next_tile_svg = look.next_piece(game, 56)
    return view


PHASES = {"choose": "choosing pieces", "build": "building", "play": "playing"}


def facts(status: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The status facts the side panel writes, as (words before, the figure in bold, words
    after), from the keys a status may have: ``tiles_left``; ``round`` with ``rounds`` and
    ``phase``; ``pile`` (a draw pile of cards). Other keys stay in the JSON."""
    out: list[tuple[str, str, str]] = []
    if isinstance(status.get("tiles_left"), int):
        out.append(("Tiles left: ", str(status["tiles_left"]), ""))
    if isinstance(status.get("round"), int):
        rounds = status.get("rounds")
        phase = status.get("phase")
        after = f" of {rounds}" if isinstance(rounds, int) else ""
        if isinstance(phase, str) and phase != "over":
            after += f" · {PHASES.get(phase, phase)}"
        out.append(("Round ", str(status["round"]), after))
    if isinstance(status.get("pile"), int):
        out.append(("", str(status["pile"]),
                    " card to draw" if status["pile"] == 1 else " cards to draw"))
    return out


def _line(index: int, event: Event, text: str, seats: list[Seat]) -> Line:
    if isinstance(event, Score):
        won = [w for w in event.winners if 0 <= w < len(seats)]
        gains = tuple((seats[w].fill, text_on(seats[w].fill), event.points) for w in won)
        return Line(index, event.type, text, event.phase, gains,
                    seats[won[0]].fill if won else NOBODY)
    return Line(index, event.type, text)


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
                     "supply": dict(s.supply), "to_play": s.to_play, "winner": s.winner,
                     "if_ended_now": s.if_ended}
                    for s in view.seats],
        "scores": {s.name: s.score for s in view.seats},
        "if_ended_now": {s.name: s.if_ended for s in view.seats},
        "tiles_left": view.tiles_left, "next_tile": view.next_tile, "finished": view.finished,
        "status": view.status,
        "played": None,
        "events": [e.to_json() for e in view.events],
        "explanations": [text for _, text in view.lines],
        "failure": None, "notes": list(view.notes),
    }
    moves = entry.summary.moves if entry.parsed is not None else ()
    if 0 < view.n <= len(moves):  # the move that led here, told by its family
        m = moves[view.n - 1]
        out["played"] = {"number": m.number, "player": entry.row.players[m.player]["name"],
                         "text": m.text, "codes": m.codes, "points": list(m.points),
                         "illegal": m.failed}
    if view.failure is not None:
        f = view.failure
        out["failure"] = {**where_json(f.index), "player": f.player, "rule": f.rule,
                          "message": f.message, "text": f.text()}
    if view.header_error is not None:
        out["failure"] = {**where_json(None), "player": None, "rule": entry.row.rule,
                          "message": entry.row.message, "text": view.header_error}
    return out


def verdict_json(entry: Entry) -> dict[str, Any]:
    """A stored game's verdict as the API returns it."""
    return row_verdict(entry.row)


def row_verdict(row: GameRow) -> dict[str, Any]:
    """A library row's verdict as the API returns it: its move counted from 1, with its log
    entry (the row keeps the 0-based index), and the ``report_version`` of that numbering."""
    return {"valid": row.verdict == "valid", "verdict": row.verdict, "finished": row.finished,
            "rule": row.rule, **where_json(row.error_move), "player": row.error_player,
            "message": row.message, "report_version": REPORT_VERSION}


# --------------------------------------------------------------------------- chart

CHART_W, CHART_H = 400.0, 230.0
LEFT, RIGHT, TOP, BOTTOM = 38.0, 18.0, 10.0, 36.0  # room for the axes, labels and marks


def _ticks(top: int, count: int = 4) -> list[int]:
    """Round values from 0 to at least ``top`` for an axis."""
    raw = max(1, top) / count
    step = next(m * 10 ** e for e in range(0, 7) for m in (1, 2, 5) if m * 10 ** e >= raw)
    return list(range(0, max(1, top) + step, step))


def chart(entry: Entry, n: int, base_url: str, suffix: str = "", hide: bool = False) -> str:
    """Scores over time as SVG: one line per player, and under it a dashed one of the scores
    if the game ended there (``Summary.if_ended``), axes with their labels, a cursor at
    ``n``; every column is a link to its position, ``base_url`` + its number + ``suffix``
    (escaped here, as every attribute; the viewer's script turns the links into in-page
    jumps). The legend is the page's (``standings``).

    Everything but the cursor is the same on every page of a game: it is drawn once and kept
    with the game (``Entry.keep``), and each page adds its cursor. With ``hide`` (results
    hidden) before the last position, the spoiler-safe variant instead, drawn for the page:
    the lines stop at ``n``, the points axis runs to the highest score up to ``n`` and not the
    game's, and the columns after ``n`` tell their number only."""
    if hide and n < entry.summary.last:
        before, after = _chart_parts(entry, base_url, suffix, n)
    else:
        before, after = entry.keep(("chart", base_url, suffix),
                                   lambda: _chart_parts(entry, base_url, suffix))
    x = f"{LEFT + n * (CHART_W - LEFT - RIGHT) / max(1, entry.summary.last):.1f}"
    return before + element("line", class_="cursor", x1=x, x2=x, y1=f"{TOP - 6:.1f}",
                            y2=f"{CHART_H - BOTTOM:.1f}") + after


def _chart_parts(entry: Entry, base_url: str, suffix: str,
                 upto: int | None = None) -> tuple[str, str]:
    """The chart of ``entry`` (see ``chart``) before its cursor and after it; with ``upto``,
    its spoiler-safe variant at that position (nothing of the later moves)."""
    summary = entry.summary
    players = entry.row.players
    last = max(1, summary.last)
    known = summary.scores if upto is None else summary.scores[:upto + 1]
    ended = summary.if_ended[:len(known)]
    yticks = _ticks(max([1, *(max(s) for s in known + ended if s)]))
    top = yticks[-1]
    xticks = [k for k in _ticks(last, 5) if k < last]
    if xticks and last - xticks[-1] < (xticks[1] - xticks[0] if len(xticks) > 1 else 1) / 2:
        xticks.pop()
    xticks.append(last)
    plot_w, plot_h = CHART_W - LEFT - RIGHT, CHART_H - TOP - BOTTOM

    def px(k: float) -> float:
        return LEFT + k * plot_w / last

    def py(score: float) -> float:
        return TOP + plot_h - score * plot_h / top

    out = []
    for v in yticks:
        y = py(v)
        out.append(element("line", x1=LEFT, x2=CHART_W - RIGHT, y1=f"{y:.1f}", y2=f"{y:.1f}",
                           class_="grid"))
        out.append(element("text", v, x=LEFT - 5, y=f"{y + 4:.1f}", class_="axis",
                           text_anchor="end"))
    for k in xticks:
        x = f"{px(k):.1f}"
        out.append(element("line", x1=x, x2=x, y1=f"{TOP + plot_h:.1f}",
                           y2=f"{TOP + plot_h + 4:.1f}", class_="tick"))
        out.append(element("text", k, x=x, y=f"{TOP + plot_h + 16:.1f}", class_="axis",
                           text_anchor="middle"))
    out.append(element("text", "move", x=f"{LEFT + plot_w / 2:.1f}", y=f"{CHART_H - 3:g}",
                       class_="label", text_anchor="middle"))
    out.append(element("text", "points", transform=f"translate(11 {TOP + plot_h / 2:.1f}) "
                                                   f"rotate(-90)",
                       class_="label", text_anchor="middle"))
    for i, p in enumerate(players):  # the dashed lines first, under the scores
        pts = " ".join(f"{px(k):.1f},{py(s[i]):.1f}" for k, s in enumerate(ended))
        out.append(wrap("polyline", element("title", f"{p['name']} if the game ended there"),
                        points=pts, fill="none", stroke=svg.player_colour(p["colour"]),
                        stroke_width="1.5", stroke_dasharray="5 3", stroke_opacity="0.8",
                        stroke_linejoin="round", class_="if-ended", data_seat=i))
    for i, p in enumerate(players):
        pts = " ".join(f"{px(k):.1f},{py(s[i]):.1f}" for k, s in enumerate(known))
        out.append(wrap("polyline", element("title", p["name"]), points=pts, fill="none",
                        stroke=svg.player_colour(p["colour"]), stroke_width="2.5",
                        stroke_linejoin="round", data_seat=i))
    out.extend(_line_marks(players, [py(s) for s in known[-1]] if known else []))
    if summary.failure is not None and (upto is None or summary.failure < upto):
        x = f"{px(summary.failure + 1):.1f}"
        out.append(element("line", x1=x, x2=x, y1=f"{TOP:g}", y2=f"{TOP + plot_h:.1f}",
                           class_="fail"))
    cursor = len(out)
    width = plot_w / last
    for k in range(summary.last + 1):
        if upto is not None and k > upto:
            tip = "not reached yet"
        elif k < len(summary.scores):
            tip = _tip(players, summary.scores[k], ended[k] if k < len(ended) else ())
        else:
            tip = "illegal move"
        out.append(wrap("a", wrap("rect", element("title", f"move {k}: {tip}"),
                                  x=f"{px(k) - width / 2:.1f}", y="0", width=f"{width:.1f}",
                                  height=f"{TOP + plot_h + 20:.1f}", class_="hit"),
                        href=f"{base_url}{k}{suffix}", data_move=k, tabindex="-1"))
    start = open_tag("svg", xmlns="http://www.w3.org/2000/svg",
                     class_="chart" if upto is None else "chart safe",
                     viewBox=f"0 0 {CHART_W:g} {CHART_H:g}", role="img",
                     aria_label="scores after each move; dashed: the scores if the game ended "
                                "there" + ("" if upto is None else "; the moves to come hidden"))
    return start + "".join(out[:cursor]), "".join(out[cursor:]) + "</svg>"


def _line_marks(players: list[dict[str, Any]], ends: list[float]) -> list[str]:
    """Each player's mark (``seat_marks``, as on their pieces and in the legend) at the end
    of their line, so that the lines are told apart by more than their colour; marks that
    would overlap are moved apart."""
    marks = seat_marks(players)
    order = sorted(range(min(len(ends), len(marks))), key=lambda i: ends[i])
    at: dict[int, float] = {}
    for i in order:
        at[i] = max(ends[i], max(at.values(), default=-1e9) + 14)
    low = max(at.values(), default=0) - (CHART_H - BOTTOM + 6)  # kept above the axis' labels
    out = []
    for i in order:
        y = at[i] - max(0.0, low)
        fill = svg.player_colour(players[i]["colour"])
        out.append(wrap("g", element("circle", r="7", fill=fill),
                        element("text", marks[i], y="3.6", fill=text_on(fill)),
                        class_="mark", data_seat=i,
                        transform=f"translate({CHART_W - RIGHT / 2:g} {y:.1f})"))
    return out


def _tip(players: list[dict[str, Any]], scores: tuple[int, ...], ended: tuple[int, ...]) -> str:
    """A column's tooltip: the scores, then the scores if the game ended there when any
    differs."""
    tip = ", ".join(f"{p['name']} {s}" for p, s in zip(players, scores, strict=False))
    if ended and tuple(ended) != tuple(scores):
        tip += "; if it ended now: " + ", ".join(f"{p['name']} {s}" for p, s in
                                                zip(players, ended, strict=False))
    return tip


def standings(entry: Entry, n: int) -> list[tuple[str, str, int]]:
    """The chart's legend: (name, fill, score at ``n``) per seat."""
    scores = entry.summary.scores
    at = scores[min(n, len(scores) - 1)] if scores else ()
    return [(p["name"], svg.player_colour(p["colour"]), at[i] if i < len(at) else 0)
            for i, p in enumerate(entry.row.players)]


@dataclass(frozen=True, slots=True)
class MoveLink:
    """What a move's link in the move list shows whatever the position (``move_links``):
    its own classes (`` failed``, `` scored``), its ``title`` attribute (the move in codes)
    and its content: number, seat's dot, player, words, points by seat with their marks."""

    cls: str
    title: Markup
    inner: Markup


def move_links(entry: Entry) -> tuple[MoveLink, ...]:
    """The move list's links of ``entry`` (a game or a variation), made once a game
    (``Entry.keep``): a page adds only what depends on its position (``_moves.html``), so
    the list of a hundred moves is not told again by a template macro on every page."""
    return entry.keep("move links", lambda: _move_links(entry))


def _move_links(entry: Entry) -> tuple[MoveLink, ...]:
    players = entry.row.players
    marks = seat_marks(players)
    colours = [svg.player_colour(p["colour"]) for p in players]
    out = []
    for m in entry.summary.moves:
        pts = Markup("").join(
            Markup(' <span class="pts" style="color:{}">{}+{}</span>').format(
                colours[i], marks[i], p) for i, p in enumerate(m.points) if p)
        inner = Markup('<span class="num">{}</span><i class="dot" style="background:{}"></i>'
                       '{} · {}{}{}').format(
            m.number, colours[m.player], players[m.player]["name"], m.text,
            Markup(" · <b>illegal</b>") if m.failed else "", pts)
        cls = (" failed" if m.failed else "") + (" scored" if sum(m.points) else "")
        title = Markup(' title="{}"').format(m.codes) if m.codes else Markup("")
        out.append(MoveLink(cls, title, inner))
    return tuple(out)
