"""A Manhattan position as SVG: a pure function of a ``ManhattanState``.

``board(state, events=...)`` draws the six cities (3 across, 2 down, in ``CITIES`` order) with
south at the bottom, each a 3×3 grid of lots (lot = row·3 + column, row 0 north); every
building as an oblique stack of storeys in its pieces' colours, its height on top; the tallest
building(s) starred (grey, "tie", when shared: nobody scores, M10); the lot just built outlined
in orange, a take-over flagged; each ``Score``'s cells tinted in its scorer's colour (``<g
class="hl" data-ev="i">``) with a "+N" badge; the compass sides with the players there (a card
is read from its side, M2); and under the board the round, phase, turn, scores, pieces in play,
supplies and hands. Storeys share one thickness over the board (heights compare at a glance),
thinner as the tallest grows; a building too tall for its lot is drawn cut above the ground.
No Carcassonne helper is imported: Manhattan shares nothing of the tile engine.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.colours import MARK_STYLE, PLAYER_COLOURS, player_colour, seat_marks, text_on
from ...core.events import Event, Score
from ...core.playback import Failure
from ...core.svgtext import element, wrap
from ...core.svgtext import num as _f
from . import scoring
from .events import Built
from .material import CITIES, LOTS, SIDES, lot_name, lot_seen_from
from .moves import Build
from .panel import FAIL, GOLD, GREY, INK, LAST, NOBODY, NOTE, owned_chip, panel, short
from .panel import outline as _outline
from .state import ManhattanState

TABLE, STREET, GROUND = "#ebe5d5", "#b8ae98", "#f6f2e8"
P, IN = 84.0, 3.0  # lot pitch and the street half-width around a lot
NAME, GX, GY, M = 26.0, 26.0, 16.0, 36.0  # city-name band, gaps between cities, margin
W = 2 * M + 9 * P + 2 * GX  # board width
BH = 2 * M + 2 * (NAME + 3 * P) + GY  # board height
BX, BW, DX, DY = 20.0, 36.0, 14.0, 12.0  # a building's front face and its depth offset
BOTTOM, ROOM, BREAK = 74.0, 44.0, 6.0  # front-face bottom in its lot; room above; a cut


def _mix(colour: str, other: str, k: float) -> str:
    """``colour`` moved ``k`` of the way to ``other`` (both ``#rrggbb``)."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * k):02x}" for x, y in zip(a, b, strict=True))


STAR = "M" + "L".join(f"{_f(q * math.cos(a))},{_f(q * math.sin(a))}" for q, a in (
    (9.0 if k % 2 == 0 else 4.0, math.pi * (k / 5 - 0.5)) for k in range(10))) + "Z"


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width) or [""]


def lot_origin(city: int, lot: int) -> tuple[float, float]:
    """The top-left corner of a lot's cell in board units (south at the bottom)."""
    row, col = divmod(lot, 3)
    cx = M + (city % 3) * (3 * P + GX)
    cy = M + (city // 3) * (NAME + 3 * P + GY) + NAME
    return cx + col * P, cy + row * P


def _cell(c: Sequence[int]) -> tuple[int, int] | None:
    if len(c) == 2 and 0 <= c[0] < len(CITIES) and 0 <= c[1] < LOTS:
        return int(c[0]), int(c[1])
    return None


def storey_size(state: ManhattanState) -> float:
    """The thickness of one storey on this board: 8 units, less as the tallest grows (down to
    1.5: a taller building is drawn cut)."""
    top = max((scoring.height(s) for s in state.board.values() if s), default=1)
    return max(1.5, min(8.0, ROOM / top))


def board(state: ManhattanState, *, events: Sequence[Event] = (), failure: Failure | None = None,
          notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-",
          spots: Mapping[str, str] | None = None,
          spot_names: Mapping[str, str] | None = None, ghost: Sequence[Any] = ()) -> str:
    """An SVG picture of ``state``.

    ``events`` are the events of the move just played: the lot a ``Built`` names is outlined
    (a take-over flagged), the cells of each ``Score`` are tinted in a layer of its own
    (``<g class="hl" data-ev="i">``, ``i`` its index in ``events``) with its "+N" badge.
    ``failure`` outlines the lot an illegal build aimed at and writes its text in a red
    banner; ``notes`` are written above the board. ``size`` sets the width in pixels (by
    default the picture fills its container); ``prefix`` starts every id of the picture.
    ``spots`` (the analysis board's, "city/lot" -> "legal" or "illegal") are drawn as squares
    over their lots, each named by ``spot_names``. ``ghost`` (the analysis board's options,
    ``replay.core.explore.Option``): each lot's building as each piece would make it, hidden
    until the page shows one (``previews``).
    """
    banner = [(FAIL, failure.text())] if failure is not None else []
    banner += [(NOTE, note) for note in notes]
    top_svg, bh = _banner(banner)
    gained = dict.fromkeys(state.colours, 0)
    for ev in events:
        colour = _score_colour(state, ev) if isinstance(ev, Score) else None
        if isinstance(ev, Score) and colour in gained:
            gained[colour] += ev.points
    strip, anchors, ph = panel(state, events, gained, BH, W, f"{prefix}star")
    vy, vh = -bh, bh + BH + ph
    layers = [element("rect", class_="table", x="0", y=_f(vy), width=_f(W), height=_f(vh),
                      fill=TABLE),
              _cities(state, prefix), _sides(state), _scored(state, events),
              _buildings(state), _tallest(state, prefix), _last(events),
              _failed(state, failure), strip, _popups(state, events, anchors), top_svg]
    if spots:
        layers.append(_spots(spots, spot_names or {}))
    if ghost:
        layers.append(previews(state, ghost))
    return wrap("svg", wrap("defs", element("path", id=f"{prefix}star", d=STAR), MARK_STYLE),
                *layers,
                xmlns="http://www.w3.org/2000/svg", class_="manhattan-board",
                viewBox=f"0 {_f(vy)} {_f(W)} {_f(vh)}", width=size or "100%",
                height=round(size * vh / W) if size else None,
                font_family="DejaVu Sans, Verdana, sans-serif") + "\n"


def _spots(spots: Mapping[str, str], names: Mapping[str, str]) -> str:
    """The analysis board's spots as squares over their lots, each named by ``names``."""
    out = []
    for spot, kind in sorted(spots.items()):
        city, _, lot_text = spot.partition("/")
        if city not in CITIES or not lot_text.isdigit():
            continue
        lot = int(lot_text)
        x, y = lot_origin(CITIES.index(city), lot)
        where = names.get(spot) or f"{kind}: {lot_name(lot)} of {city}"
        out.append(wrap("g", element("title", where), element(
            "rect", x=_f(x + IN), y=_f(y + IN), width=_f(P - 2 * IN),
            height=_f(P - 2 * IN), rx="4"), class_=f"spot {kind}", data_spot=spot,
            tabindex="0", role="button", aria_label=where))
    return wrap("g", *out, class_="spots")


def _cities(state: ManhattanState, prefix: str) -> str:
    out = []
    for c, name in enumerate(CITIES):
        x, y = lot_origin(c, 0)
        lots = [element("rect", x=_f(x - 2), y=_f(y - 2), width=_f(3 * P + 4),
                        height=_f(3 * P + 4), rx="5", fill=STREET),
                element("text", name, x=_f(x + 2), y=_f(y - 8), font_size="16",
                        font_weight="bold", fill=INK)]
        for lot in range(LOTS):
            lx, ly = lot_origin(c, lot)
            built = state.board.get((c, lot))
            what = (f"{scoring.height(built)} storeys, {scoring.owner(built)}'s" if built
                    else "empty")
            lots.append(wrap("rect", element("title", f"{name}, {lot_name(lot)} (lot {lot}): "
                                                      f"{what}"),
                             class_="lot", id=f"{prefix}lot-{c}-{lot}", x=_f(lx + IN),
                             y=_f(ly + IN), width=_f(P - 2 * IN), height=_f(P - 2 * IN), rx="3",
                             fill=GROUND))
        out.append(wrap("g", *lots, class_="city", id=f"{prefix}city-{c}"))
    return wrap("g", *out, class_="cities")


def _sides(state: ManhattanState) -> str:
    """The compass letters around the board, each with the players who sit on that side."""
    spots = {"south": (W / 2, BH - M / 2, 0), "north": (W / 2, M / 2, 0),
             "west": (M / 2, BH / 2, -90), "east": (W - M / 2, BH / 2, 90)}
    out = []
    for side in SIDES:
        x, y, turn = spots[side]
        seats = [s for s, where in enumerate(state.sides) if where == side]
        names = "".join(
            element("tspan", f"{'▶ ' if s == state.current_player else ''}"
                             f"{short(state.config.players[s].name, 24)}"
                             f"{_two(state.colours_of[s])}",
                    fill=player_colour(state.colours_of[s][0])) for s in seats)
        parts = [element("circle", r="11", fill=INK),
                 element("text", side[0].upper(), y="5", font_size="14", text_anchor="middle",
                         fill="#ffffff")]
        if names:
            parts.append(wrap("text", names, x="17", y="5", font_size="14"))
        out.append(wrap("g", *parts, class_=f"side side-{side}",
                        transform=f"translate({_f(x)},{_f(y)}) rotate({turn})"))
    return wrap("g", *out, class_="sides", font_weight="bold")


def _two(colours: tuple[str, ...]) -> str:
    return f" ({' and '.join(colours)})" if len(colours) > 1 else ""


def colour_marks(state: ManhattanState) -> dict[str, str]:
    """Each colour's mark: its seat's (``seat_marks``), so a seat of two colours has one."""
    marks = seat_marks(p.name for p in state.config.players)
    return {c: marks[s] for c, s in state.seat_of.items() if 0 <= s < len(marks)}


def previews(state: ManhattanState, options: Sequence[Any]) -> str:
    """The analysis board's ghosts: for each lot and piece the builds of ``options`` put
    there, a group ``g.preview`` (``data-spot`` the lot, ``data-label`` the piece,
    ``data-options`` its builds' indexes) holding the building the piece would make, hidden
    until the page shows it (``web/static/ghost.js``)."""
    t = storey_size(state)
    marks = colour_marks(state)
    groups: dict[tuple[str, str], list[Any]] = {}
    pieces: dict[tuple[str, str], tuple[int, str]] = {}
    seat = state.current_player
    for o in options:
        city, _, lot = o.spot.partition("/")
        if city not in CITIES or not lot.isdigit() or seat is None:
            continue
        move = state.family.decode_move(o.move, "")
        if type(move) is not Build:
            continue
        key = (o.spot, o.facet)
        groups.setdefault(key, []).append(o)
        pieces[key] = (move.storeys, move.colour or state.colours_of[seat][0])
    out = []
    for (spot, facet), found in sorted(groups.items()):
        city, _, lot = spot.partition("/")
        c = CITIES.index(city)
        storeys, colour = pieces[spot, facet]
        stack = [*state.board.get((c, int(lot)), []), (colour, storeys)]
        out.append(wrap("g", _building(c, int(lot), stack, t, marks), class_="preview",
                        data_spot=spot, data_label=facet,
                        data_options=" ".join(str(o.index) for o in found)))
    return wrap("g", *out, class_="previews", font_weight="bold", text_anchor="middle")


def _buildings(state: ManhattanState) -> str:
    t = storey_size(state)
    marks = colour_marks(state)
    return wrap("g", *(_building(c, lot, stack, t, marks) for (c, lot), stack
                       in sorted(state.board.items()) if stack), class_="buildings",
                font_weight="bold", text_anchor="middle")


def _building(c: int, lot: int, stack: scoring.Stack, t: float,
              marks: dict[str, str] | None = None) -> str:
    x0, y0 = lot_origin(c, lot)
    h, who = scoring.height(stack), scoring.owner(stack)
    cut = h - (h if h * t <= ROOM else int((ROOM - BREAK) / t))
    pieces = " + ".join(f"{col} {s}" for col, s in stack)
    title = (f"{CITIES[c]}, {lot_name(lot)}: {h} storeys, {who}'s ({pieces}, from the ground "
             f"up){f'; the lowest {cut} storeys are not drawn' if cut else ''}")
    out = [element("title", title)]
    x, y = x0 + BX, y0 + BOTTOM
    if cut:
        zigzag = "".join(f"l{_f(BW / 8)},{2 - 4 * (k % 2)}" for k in range(8))
        out.append(_box(x, y, BREAK, "#ffffff", "#e6e6e6", GREY, ".6", "cut"))
        out.append(element("path", d=f"M{_f(x)},{_f(y - 2)}{zigzag}", fill="none", stroke=GREY,
                           stroke_width=".8"))
        y -= BREAK
    skip = cut
    mixed = len({colour for colour, _ in stack}) > 1
    for colour, storeys in stack:
        n = storeys - min(skip, storeys)
        skip -= storeys - n
        if not n:
            continue
        fill = player_colour(colour)
        out.append(_box(x, y, n * t, fill, _mix(fill, "#000000", .35), _outline(fill),
                        _f(min(0.6, n * t / 5)), "piece"))
        mark = (marks or {}).get(colour, "")
        if mark and mixed and n * t >= 9:  # whose each piece is, when it has the room
            out.append(_mark(mark, x + BW / 2, y - n * t / 2, min(11.0, n * t - 1), fill))
        y -= n * t
    fill = player_colour(who)
    out.append(element("path", class_="roof",
                       d=f"M{_f(x)},{_f(y)}l{_f(DX)},{_f(-DY)}h{_f(BW)}l{_f(-DX)},{_f(DY)}Z",
                       fill=_mix(fill, "#ffffff", .3), stroke=_outline(fill), stroke_width=".8",
                       stroke_linejoin="round"))
    mark = (marks or {}).get(who, "")
    if mark:  # the owner's mark on the roof
        out.append(_mark(mark, x + (BW + DX) / 2, y - DY / 2, 10.0, fill))
    out.append(element("text", h, class_="height", x=_f(x + (BW + DX) / 2), y=_f(y - DY - 3),
                       font_size="13", font_weight="bold", text_anchor="middle", fill=INK,
                       stroke="#ffffff", stroke_width="3", paint_order="stroke"))
    return wrap("g", *out, class_="building", data_city=c, data_lot=lot, data_owner=who,
                data_height=h)


def _mark(mark: str, x: float, y: float, size: float, fill: str) -> str:
    """A seat's mark centred on (``x``, ``y``), over a piece of colour ``fill`` (bold and
    centred by its group, ``_buildings``)."""
    return element("text", mark, class_="mark", x=_f(x), y=_f(y + size * 0.36),
                   font_size=_f(size), fill=text_on(fill))


def _box(x: float, y: float, band: float, fill: str, side: str, line: str, sw: str,
         cls: str) -> str:
    """One piece of a building: its front face (``cls``) from ``y`` up, and its side."""
    return (element("rect", class_=cls, x=_f(x), y=_f(y - band), width=_f(BW), height=_f(band),
                    fill=fill, stroke=line, stroke_width=sw)
            + element("path", d=f"M{_f(x + BW)},{_f(y)}l{_f(DX)},{_f(-DY)}v{_f(-band)}"
                                f"l{_f(-DX)},{_f(DY)}Z",
                      fill=side, stroke=line, stroke_width=sw, stroke_linejoin="round"))


def _tallest(state: ManhattanState, prefix: str) -> str:
    built = sorted((k, s) for k, s in state.board.items() if s)
    if not built:
        return ""
    top = max(scoring.height(s) for _, s in built)
    keys = [k for k, s in built if scoring.height(s) == top]
    tie = len(keys) > 1
    title = (f"{len(keys)} buildings share the greatest height, {top} storeys: nobody scores "
             f"the tallest (M10)" if tie else
             f"the tallest building, {top} storeys: 3 points to its owner at scoring (M6)")
    out = [element("title", title)]
    for c, lot in keys:
        x, y = lot_origin(c, lot)
        out.append(element("use", href=f"#{prefix}star", x=_f(x + 12), y=_f(y + 15),
                           fill="#c9c9c9" if tie else GOLD, stroke=INK, stroke_width="1.2",
                           stroke_dasharray="2 1.5" if tie else None))
        if tie:
            out.append(element("text", "tie", x=_f(x + 12), y=_f(y + 36), font_size="10",
                               font_weight="bold", text_anchor="middle", fill=INK))
    return wrap("g", *out, class_=f"tallest{' tie' if tie else ''}")


def _last(events: Sequence[Event]) -> str:
    out = []
    for ev in events:
        if not (isinstance(ev, Built) and ev.city in CITIES and 0 <= ev.lot < LOTS):
            continue
        x, y = lot_origin(CITIES.index(ev.city), ev.lot)
        out.append(element("rect", class_="last", x=_f(x + 1.5), y=_f(y + 1.5), width=_f(P - 3),
                           height=_f(P - 3), rx="4", fill="none", stroke=LAST, stroke_width="4"))
        if ev.previous_owner is not None and ev.previous_owner != ev.colour:
            out.append(_takeover(x, y, ev.previous_owner, ev.colour))
    return "".join(out)


def _takeover(x: float, y: float, previous: str, colour: str) -> str:
    """The flag of a building taken over: the colour it was, an arrow, the colour it is."""
    was, now = player_colour(previous), player_colour(colour)
    return wrap("g", element("title", f"{colour} took this building over from {previous}"),
                element("rect", x=_f(x + 4), y=_f(y + 47), width="15", height="30", rx="7",
                        fill="#ffffff", stroke=LAST, stroke_width="2"),
                element("circle", cx=_f(x + 11.5), cy=_f(y + 54), r="4.5", fill=was,
                        stroke=_outline(was)),
                element("path", d=f"M{_f(x + 11.5)},{_f(y + 59)}v6m-3,-3l3,3l3,-3",
                        fill="none", stroke=LAST, stroke_width="2"),
                element("circle", cx=_f(x + 11.5), cy=_f(y + 71), r="4.5", fill=now,
                        stroke=_outline(now)),
                class_="takeover")


def _score_colour(state: ManhattanState, ev: Score) -> str | None:
    """The colour a score went to: the most common owner among its cells whose seat won."""
    won = [c for w in ev.winners if 0 <= w < len(state.colours_of) for c in state.colours_of[w]]
    stacks = [state.board.get(cell) for cell in map(_cell, ev.cells) if cell]
    count = Counter(scoring.owner(s) for s in stacks if s)
    return max(won, key=lambda c: count[c]) if won else None


def _scored(state: ManhattanState, events: Sequence[Event]) -> str:
    """Each score's cells in its scorer's colour. Every one is a round's scoring (the last
    round's too, phase "final"): ``data-round`` asks the viewer to tint it as such."""
    rounds = "last" if state.phase == "over" else "round"
    out = []
    for i, ev in enumerate(events):
        if not isinstance(ev, Score):
            continue
        colour = _score_colour(state, ev)
        fill = player_colour(colour) if colour else NOBODY
        city = ev.feature_id
        major = ev.feature == "city majority" and city is not None and 0 <= city < len(CITIES)
        cells = []
        for raw in ev.cells:  # a majority's cells faint (its city is framed), others tinted
            cell = _cell(raw)
            if cell is not None:
                x, y = lot_origin(*cell)
                cells.append(element("rect", x=_f(x + IN + 1.5), y=_f(y + IN + 1.5),
                                     width=_f(P - 2 * IN - 3), height=_f(P - 2 * IN - 3), rx="3",
                                     fill_opacity=".15" if major else None))
        if major and city is not None:
            x, y = lot_origin(city, 0)
            cells.append(element("rect", x=_f(x - 5), y=_f(y - 5), width=_f(3 * P + 10),
                                 height=_f(3 * P + 10), rx="7", fill="none", stroke_width="5"))
        out.append(wrap("g", *cells, class_=f"hl hl-{ev.phase}", data_ev=i, fill=fill,
                        stroke=fill, stroke_width="3", opacity=".45", data_round=rounds))
    return wrap("g", *out, class_="scored")


def _badge(x: float, y: float, text: str, fill: str, ev: int, seat: int | None) -> str:
    """The "+N" badge of event ``ev`` (for ``seat``, when someone scored)."""
    width = 14 + 8.5 * len(text)
    ink = "#1b1b1b" if fill in (GOLD, NOBODY, PLAYER_COLOURS["yellow"]) else "#ffffff"
    return wrap("g", element("rect", x=_f(-width / 2), y="-10", width=_f(width), height="20",
                             rx="6", fill=fill, stroke="#ffffff", stroke_width="2"),
                element("text", text, y="5", font_size="14", fill=ink),
                class_=f"popup{' tie' if fill == NOBODY else ''}", data_ev=ev, data_seat=seat,
                transform=f"translate({_f(x)},{_f(y)})")


def _popups(state: ManhattanState, events: Sequence[Event],
            anchors: dict[str, tuple[float, float]]) -> str:
    out = []
    marks = colour_marks(state)
    for i, ev in enumerate(events):
        if not isinstance(ev, Score) or not ev.points:
            continue
        colour = _score_colour(state, ev)
        attrs = i, state.seat_of.get(colour or "")
        mark = marks.get(colour or "", "")
        text, fill = (f"{mark} +{ev.points}".lstrip(), player_colour(colour)) if colour \
            else ("tie", NOBODY)
        cells = [c for c in (_cell(raw) for raw in ev.cells) if c is not None]
        city = ev.feature_id
        if ev.feature == "city majority" and city is not None and 0 <= city < len(CITIES):
            x, y = lot_origin(city, 2)
            out.append(_badge(x + P - 22, y - NAME / 2 - 3, text, fill, *attrs))
        elif ev.feature == "building" and colour in anchors:  # 1 point a building (M6 3)
            out.append(owned_chip(*anchors[colour], len(ev.cells) or ev.points, fill, *attrs))
        elif cells:  # the tallest: under its star, clear of the roof and the height
            x, y = lot_origin(*cells[0])
            out.append(_badge(x + 8, y + 38, text, fill, *attrs))
    return wrap("g", *out, class_="popups", font_weight="bold", text_anchor="middle")


def _failed(state: ManhattanState, failure: Failure | None) -> str:
    move = failure.move if failure is not None else None
    seat = state.current_player
    if not (isinstance(move, Build) and seat is not None and move.city in CITIES
            and isinstance(move.card, int) and 0 <= move.card < LOTS):
        return ""
    lot = lot_seen_from(move.card, state.sides[seat])
    x, y = lot_origin(CITIES.index(move.city), lot)
    cx, cy = x + P - 14, y + P - 14
    return wrap("g", element("title", f"the illegal build: card {move.card} read from the "
                                      f"{state.sides[seat]}, {lot_name(lot)} of {move.city}"),
                element("rect", x=_f(x + 2), y=_f(y + 2), width=_f(P - 4), height=_f(P - 4),
                        rx="4", fill=FAIL, fill_opacity=".15", stroke=FAIL, stroke_width="5",
                        stroke_dasharray="10 6"),
                element("circle", cx=_f(cx), cy=_f(cy), r="10", fill=FAIL, stroke="#ffffff",
                        stroke_width="2"),
                element("path", d=f"M{_f(cx - 4.5)},{_f(cy - 4.5)}l9,9m0,-9l-9,9",
                        stroke="#ffffff", stroke_width="3"),
                class_="failed")


def _banner(items: list[tuple[str, str]]) -> tuple[str, float]:
    """Messages written above the board (ending at y = 0): the SVG and its height."""
    fs, pad = 15.0, 9.0
    blocks, y = [], 0.0
    for colour, text in items:
        lines = _wrap(text, int((W - 2 * pad) / (fs * 0.53)))
        h = len(lines) * fs * 1.25 + pad * 1.2
        blocks.append((colour, y, h, lines))
        y += h
    if not blocks:
        return "", y
    out = []
    for colour, y0, h, lines in blocks:
        spans = (element("tspan", line, x=_f(pad), dy=_f(fs * 1.25 if k else 0))
                 for k, line in enumerate(lines))
        out.append(element("rect", x="0", y=_f(y0 - y), width=_f(W), height=_f(h), fill=colour))
        out.append(wrap("text", *spans, y=_f(y0 - y + pad * 0.6 + fs), font_size=_f(fs),
                        fill="#ffffff"))
    return wrap("g", *out, class_="banner"), y
