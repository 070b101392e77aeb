"""The picture of a Connect Four position, as SVG (``ConnectFour.draw``).

Every element is written by ``replay.core.svgtext`` (``element``, ``wrap``), which escapes
attribute values and text: player names, notes and the message of an illegal move are user
strings and reach the picture only through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.core.colours import player_colour
from replay.core.events import Event
from replay.core.svgtext import element, num, wrap

from .state import ConnectFourState, Dropped

CELL = 60  # one cell, in SVG units
MARGIN = 20
LINE_H = 22  # a line of text above the board
FRAME = "#1d4fa3"
HOLE = "#f4f1e8"
FAIL = "#c62828"
INK = "#1b1b1b"


def board(state: ConnectFourState, *, events: Sequence[Event] = (), failure: Any = None,
          notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-") -> str:
    """The board: a disc per cell, the disc just dropped outlined, the winning line (CF3)
    drawn through its discs, an illegal move as a red ring above its column with the rule and
    reason written above the board, and ``notes`` (wrong claims) above that."""
    texts = ([(FAIL, failure.text())] if failure is not None else []) + [(INK, n) for n in notes]
    # the texts, then a row above the board for the ring of an illegal drop
    top = len(texts) * LINE_H + (CELL if failure is not None else MARGIN)
    width = state.columns * CELL + 2 * MARGIN
    height = top + state.rows * CELL + MARGIN + LINE_H
    layers = [element("rect", x="0", y="0", width=width, height=height, fill="#ffffff")]
    layers += [element("text", text, x=MARGIN, y=(i + 1) * LINE_H - 6, fill=colour,
                       font_size="15") for i, (colour, text) in enumerate(texts)]
    layers.append(element("rect", x=MARGIN - 6, y=top - 6, width=state.columns * CELL + 12,
                          height=state.rows * CELL + 12, rx="10", fill=FRAME))
    last = next((e for e in events if isinstance(e, Dropped)), None)
    for c in range(state.columns):
        for r in range(state.rows):
            x, y = _centre(state, c, r, top)
            seat = state.seat_at(c, r)
            fill = HOLE if seat is None else player_colour(state.players[seat].colour)
            just = last is not None and (last.column - 1, last.row - 1) == (c, r)
            layers.append(element("circle", cx=num(x), cy=num(y), r="24", fill=fill,
                                  stroke=INK if just else None, stroke_width="4" if just else None,
                                  class_="last" if just else None))
        layers.append(element("text", c + 1, x=num(MARGIN + (c + 0.5) * CELL),
                              y=top + state.rows * CELL + MARGIN + 8, text_anchor="middle",
                              font_size="14", fill=INK))
    if state.line:
        (x1, y1), (x2, y2) = (_centre(state, c, r, top) for c, r in
                              (state.line[0], state.line[-1]))
        layers.append(element("line", x1=num(x1), y1=num(y1), x2=num(x2), y2=num(y2),
                              stroke="#ffffff", stroke_width="8", stroke_linecap="round",
                              opacity="0.85", class_="win"))
    if failure is not None:
        layers.append(_ring(state, failure.move, top))
    return wrap("svg", *layers, xmlns="http://www.w3.org/2000/svg", class_="connect-four-board",
                id=f"{prefix}board", viewBox=f"0 0 {width} {height}", width=size or "100%",
                height=round(size * height / width) if size else None,
                font_family="DejaVu Sans, Verdana, sans-serif") + "\n"


def _centre(state: ConnectFourState, c: int, r: int, top: int) -> tuple[float, float]:
    """The centre of column ``c``, row ``r`` (0-based, row 0 at the bottom)."""
    return MARGIN + (c + 0.5) * CELL, top + (state.rows - r - 0.5) * CELL


def _ring(state: ConnectFourState, move: Any, top: int) -> str:
    """An illegal drop: a red ring above its column (over the nearest edge when the column
    is off the board)."""
    column = getattr(move, "column", 1)
    c = min(max(column - 1, 0), state.columns - 1)
    return element("circle", cx=num(MARGIN + (c + 0.5) * CELL), cy=num(top - CELL / 2 - 4),
                   r="22", fill="none", stroke=FAIL, stroke_width="5", stroke_dasharray="6 4",
                   class_="failed")
