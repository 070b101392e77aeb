"""The strip under a Manhattan board: the round, phase and turn, the move just played, one row
per colour (score, buildings owned, pieces in play, supply, hand) and a legend of the marks.

Its text is large (``SMALL`` board units at least, about 9 px when the board is fitted to a
390 px phone) and its height depends only on the number of colours and players, so the
picture keeps its shape while stepping through a game.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ...core.colours import PLAYER_COLOURS, player_colour, seat_marks, text_on
from ...core.events import Event, Score, join_words
from ...core.svgtext import element, esc, wrap
from ...core.svgtext import num as _f
from .material import HEIGHTS, LOTS, lot_name, lot_seen_from
from .state import ManhattanState

INK, GREY, NOBODY = "#231f1a", "#6b6358", "#8a8a8a"
LAST, GOLD, FAIL, NOTE = "#ff7a00", "#ffd21f", "#c62828", "#8a5a00"
MARKER = "#f2c413"  # the first-player marker (yellow, M1's decision)
BIG, FONT, SMALL = 24, 22, 21  # font sizes (board units)
LINE, ROW = 30.0, 62.0  # a line of text; a colour's row
PHASES = {"choose": "choosing pieces", "build": "building", "over": "game over"}
TEXT = 62  # characters of a line of the move's text


def outline(fill: str) -> str:
    """The outline of a piece of colour ``fill``: light on black, dark otherwise."""
    return "#c8c8c8" if fill == PLAYER_COLOURS["black"] else "#1b1b1b"


def short(name: str, n: int = 16) -> str:
    """``name`` cut to ``n`` characters (an ellipsis ends a cut name)."""
    return name if len(name) <= n else name[:n - 1] + "…"


def _text(x: float, y: float, text: object, size: int = FONT, fill: str = INK,
          **attrs: object) -> str:
    return element("text", text, x=_f(x), y=_f(y), font_size=size, fill=fill, **attrs)


def tower(x: float, y: float, colour: str) -> str:
    """A small outlined building (the mark of "buildings owned") with its foot at (x, y)."""
    return element("path", d=f"M{_f(x)},{_f(y)}v-13l6,-5l6,5v13Zm3,-10h2v3h-2Zm4,0h2v3h-2Z",
                   fill="#ffffff", stroke=colour, stroke_width="2", stroke_linejoin="round")


def owned_chip(x: float, y: float, count: int, fill: str, ev: int | None,
               seat: int | None, kind: str = "popup owned") -> str:
    """The chip of a colour's buildings (M6 3): an outlined tower and the count, centred on
    (x, y); unlike the filled "+N" of points. ``ev`` links it to its line (``data-ev``);
    ``kind`` is its class (the legend's sample is no badge: ``owned``)."""
    text = str(count)
    width = 34 + 13.5 * len(text)
    return wrap("g", element("title", f"{count} building{'' if count == 1 else 's'} owned: "
                                      f"{count} point{'' if count == 1 else 's'} (M6)"),
                element("rect", x=_f(-width / 2), y="-14", width=_f(width), height="28", rx="6",
                        fill="#ffffff", stroke=fill, stroke_width="2.5"),
                tower(-width / 2 + 7, 9, fill),
                element("text", text, x=_f(-width / 2 + 25), y="8", font_size=FONT,
                        font_weight="bold", fill=INK, text_anchor="start"),
                class_=kind, data_ev=ev, data_seat=seat,
                transform=f"translate({_f(x)},{_f(y)})")


def _card(x: float, y: float, lot: int, title: str) -> str:
    """A card in a hand: a 3×3 grid, ``lot`` filled."""
    cells = (element("rect", x=_f(x + 3 + k % 3 * 12), y=_f(y + 3 + k // 3 * 12), width="10",
                     height="10", fill=INK if k == lot else "#e2ddd0") for k in range(LOTS))
    return wrap("g", element("title", title),
                element("rect", x=_f(x), y=_f(y), width="40", height="40", rx="3",
                        fill="#ffffff", stroke=GREY), *cells, class_="card")


def _move_lines(state: ManhattanState, events: Sequence[Event],
                gained: dict[str, int]) -> list[str]:
    """The move just played in two lines at most: what it did, then what it scored."""
    names = [p.name for p in state.config.players]
    said = [line for ev in events if not isinstance(ev, Score)
            for line in textwrap.wrap(ev.describe(names), TEXT)]
    scored = " · ".join(f"{c} +{n}" for c, n in gained.items() if n)
    room = 1 if scored else 2
    lines = said[:room]
    if len(said) > room:
        lines[-1] = short(lines[-1] + " …", TEXT)
    return lines + ([f"This move scored: {scored}"] if scored else [])


def panel(state: ManhattanState, events: Sequence[Event], gained: dict[str, int], top: float,
          width: float, star: str) -> tuple[str, dict[str, tuple[float, float]], float]:
    """The strip from ``top`` down, ``width`` wide: its SVG, the anchors of the colours'
    "buildings owned" chips, and its height. ``gained`` is what each colour scored with the
    move; ``star`` is the id of the picture's star."""
    names = [p.name for p in state.config.players]
    seat = state.current_player
    who = join_words([short(names[s], 20) for s in ([seat] if seat is not None
                                                     else state.winners())])
    y = top + 36
    out = [_text(20, y, f"Round {state.round} of {state.rounds} · "
                        f"{PHASES.get(state.phase, state.phase)}: {who} "
                        f"{'to play' if seat is not None else 'won'}", BIG, font_weight="bold")]
    if len(names) == 2:  # a player plays two colours: their score is the sum (M7)
        y += LINE
        scores = esc(" · ").join(element("tspan", f"{short(n, 12)} {state.scores[s]}",
                                         fill=player_colour(state.colours_of[s][0]))
                                 for s, n in enumerate(names))
        out.append(wrap("text", esc("Scores: "), scores, esc(" (two colours each, M7)"),
                        x="20", y=_f(y), font_size=FONT, font_weight="bold", fill=INK))
    y += LINE
    out.append(_text(20, y, f"draw pile {len(state.pile)} · played {len(state.played)} · "
                            f"reshuffles {state.reshuffles}", SMALL, GREY))
    lines = _move_lines(state, events, gained)
    for k in range(2):
        y += LINE - 2
        if k < len(lines):
            out.append(_text(20, y, lines[k], SMALL, NOTE, class_="said"))
    y += LINE + 8
    for hx, head in ((44, "player · colour, then supply"), (430, "score, in play"),
                     (658, "hand")):
        out.append(_text(hx, y, head, SMALL, GREY))
    anchors: dict[str, tuple[float, float]] = {}
    marks = seat_marks(names)
    for s, colours in enumerate(state.colours_of):
        for k, colour in enumerate(colours):
            out.append(_row(state, s, k, names[s], y + 6, marks[s] if s < len(marks) else ""))
            anchors[colour] = (555.0, y + 6 + 21)
            y += ROW
    legend, y = _legend(y + 8, width, star)
    frame = element("rect", x="8", y=_f(top), width=_f(width - 16), height=_f(y + 10 - top),
                    rx="6", fill="#faf7f0", stroke="#cfc6b2")
    return wrap("g", frame, *out, legend, class_="panel"), anchors, y + 16 - top


def _row(state: ManhattanState, s: int, k: int, name: str, top: float, mark: str = "") -> str:
    """The two lines of seat ``s``'s ``k``-th colour, from ``top`` down (its swatch bears the
    seat's ``mark``, as its pieces on the board do)."""
    colour = state.colours_of[s][k]
    fill, line = player_colour(colour), outline(player_colour(colour))
    a, b = top + 22, top + 50  # the baselines of its two lines
    out = []
    if k == 0 and s == state.current_player:
        out.append(_text(2, a, "▶", FONT, LAST, class_="to-play"))
    if k == 0 and s == state.first:
        out.append(wrap("circle", element("title", "start player this round"), cx="33",
                        cy=_f(a - 8), r="9", fill=MARKER, stroke=INK, class_="start"))
    out.append(element("rect", x="45", y=_f(a - 20), width="24", height="24", fill=fill,
                       stroke=line))
    if mark:
        out.append(_text(57, a - .5, mark, SMALL, text_on(fill), class_="mark",
                         font_weight="bold", text_anchor="middle"))
    out.append(_text(74, a, f"{short(name, 14)} · {colour}", FONT, fill, font_weight="bold"))
    out.append(_text(430, a + 1, state.colour_scores[colour], BIG + 2, font_weight="bold"))
    left = " · ".join(str(state.supply[colour][h]) for h in HEIGHTS)
    out.append(wrap("text", esc(f"supply {left} "),
                    element("tspan", f"({sum(state.supply[colour].values())} left)", fill=GREY),
                    x="74", y=_f(b), font_size=SMALL, fill=INK))
    chosen = [h for h in HEIGHTS for _ in range(state.chosen[colour][h])]
    for j, h in enumerate(chosen):
        x = 430 + 26 * j
        ink = "#1b1b1b" if colour == "yellow" else "#ffffff"
        out.append(wrap("g", element("rect", x=_f(x), y=_f(b - 20), width="22", height="26",
                                     rx="3", fill=fill, stroke=line, stroke_width=".8"),
                        _text(x + 11, b - 1, h, SMALL, ink, text_anchor="middle",
                              font_weight="bold"), class_="in-play"))
    if not chosen:
        out.append(_text(430, b, "—", SMALL, GREY))
    side = state.sides[s]
    for j, card in enumerate(state.hands[s] if k == 0 else []):
        lot = lot_seen_from(card, side)
        out.append(_card(658 + 50 * j, top + 6, lot, f"card {card} (printed {lot_name(card)}) "
                         f"marks {lot_name(lot)} from the {side}"))
    return "".join(out)


def _legend(top: float, width: float, star: str) -> tuple[str, float]:
    """The legend of the board's marks, in lines that fit ``width``: its SVG and its end."""
    chip = wrap("g", element("rect", x="0", y="-18", width="38", height="24", rx="6", fill=INK),
                element("text", "+2", x="19", y="0", font_size=SMALL, font_weight="bold",
                        fill="#ffffff", text_anchor="middle"))
    items: list[tuple[str, float, str]] = [
        (element("use", href=f"#{star}", x="9", y="-7", fill=GOLD, stroke=INK), 20, "tallest"),
        (element("use", href=f"#{star}", x="9", y="-7", fill="#c9c9c9", stroke=INK,
                 stroke_dasharray="2 1.5"), 20, "tie: nobody scores (M10)"),
        (element("rect", x="1", y="-16", width="18", height="18", rx="3", fill="none",
                 stroke=LAST, stroke_width="3"), 20, "just built"),
        (element("rect", x="1", y="-16", width="18", height="18", rx="3", fill=NOBODY,
                 opacity=".45"), 20, "scored by this move"),
        (chip, 38, "points"),
        (owned_chip(21, -6, 3, INK, None, None, "owned"),
         42, "buildings owned, 1 point each"),
        (element("circle", cx="9", cy="-7", r="9", fill=MARKER, stroke=INK), 20, "start player"),
        (element("text", "▶", x="0", y="0", font_size=SMALL, fill=LAST), 18, "to play"),
        ("", 0, "numbers: storeys; a hand shows each card's lot as its player reads it (M2)")]
    out, x, y = [], 20.0, top + LINE - 6
    for icon, size, text in items:
        at = size + 8 if icon else 0
        w = at + 11.5 * len(text) + 28
        if x > 20 and x + w > width - 20:
            x, y = 20.0, y + LINE + 2
        out.append(wrap("g", icon, _text(at, 0, text, SMALL, GREY),
                        transform=f"translate({_f(x)},{_f(y)})"))
        x += w
    return wrap("g", *out, class_="legend"), y
