"""What a tile-laying board draws round and over the game (``drawing.board``): the banner of
messages above it (an illegal move's rule and reason, wrong claims), wrapped to its width, and
the analysis board's spots over their cells, the view grown to hold them."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.svgtext import element, wrap
from ..core.svgtext import num as _f
from .art import SIZE


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


def banner(items: list[tuple[str, str]], vx: float, top: float,
            vw: float) -> tuple[str, float]:
    """Messages written above the board, from ``top`` down: the SVG and its height."""
    fs = max(12.0, vw / 46)
    pad = fs * 0.6
    per_line = max(16, int((vw - 2 * pad) / (fs * 0.58)))
    blocks = []
    y = 0.0
    for colour, text in items:
        lines = _wrap(text, per_line)
        h = len(lines) * fs * 1.25 + pad * 1.2
        spans = "".join(element("tspan", line + (" " if k < len(lines) - 1 else ""),
                                x=_f(vx + pad), dy=_f(fs * 1.25 if k else 0))
                        for k, line in enumerate(lines))
        blocks.append((colour, y, h, spans))
        y += h
    out = []
    for colour, y0, h, spans in blocks:
        out.append(element("rect", x=_f(vx), y=_f(top + y0), width=_f(vw), height=_f(h),
                           fill=colour))
        out.append(wrap("text", spans, x=_f(vx + pad), y=_f(top + y0 + pad * 0.6 + fs),
                        font_size=_f(fs), fill="#ffffff"))
    return wrap("g", *out, class_="banner"), y


def grown(vx: float, vy: float, vw: float, vh: float,
           spots: Mapping[str, str]) -> tuple[float, float, float, float]:
    """The view grown to hold the cells of ``spots``, 10 units round each."""
    cells = [(int(a) * SIZE, int(b) * SIZE) for a, b in (s.split(",") for s in spots)]
    x0, y0 = min(vx, *(x - 10 for x, _ in cells)), min(vy, *(y - 10 for _, y in cells))
    x1 = max(vx + vw, *(x + SIZE + 10 for x, _ in cells))
    y1 = max(vy + vh, *(y + SIZE + 10 for _, y in cells))
    return x0, y0, x1 - x0, y1 - y0


def spots_svg(spots: Mapping[str, str], names: Mapping[str, str]) -> str:
    """The analysis board's spots as squares over their cells, each named by ``names``."""
    out = []
    for spot, kind in sorted(spots.items()):
        x, y = (int(v) for v in spot.split(","))
        name = names.get(spot) or f"{kind}: cell ({x},{y})"
        out.append(wrap("g", element("title", name), element(
            "rect", x=_f(x * SIZE + 3), y=_f(y * SIZE + 3), width=_f(SIZE - 6),
            height=_f(SIZE - 6), rx="6"), class_=f"spot {kind}", data_spot=spot, tabindex="0",
            role="button", aria_label=name))
    return wrap("g", *out, class_="spots")
