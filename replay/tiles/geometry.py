"""Geometry of the tile box and the shapes drawn on it, from the 12 half-side model.

Points live in the tile's 100 x 100 box (canonical orientation, y downwards). Half-side position
``b`` (0..11: NL, N, NR, EL, ...) lies on side ``b // 3`` (0 N, 1 E, 2 S, 3 W). The shapes are:

* areas (a city...): the part of the tile that hugs the sides they cover, closed by a curved
  wall (one side: a cap; two adjacent sides: a diagonal; two opposite sides: a band; three
  sides: everything but a bay);
* lines (a road...): from the middle of a side toward the centre, or one curve through it.

Which segment type is drawn as which shape is ``kinds`` (a family adds its own types there).

Every shape carries its SVG path data and a flattened polygon (outline or centre line) for the
raster (see ``raster``) and for placing things on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]

SIZE = 100.0
CENTRE: Point = (50.0, 50.0)
CORNERS: tuple[Point, ...] = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))
INWARD: tuple[Point, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))


_CUBIC_STEPS = 14


def lerp(a: Point, b: Point, t: float) -> Point:
    """The point at fraction ``t`` of the way from ``a`` to ``b``."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def offset(a: Point, b: Point, k: float = 1.0) -> Point:
    """``a`` moved by ``k`` times the vector ``b``."""
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def distance(a: Point, b: Point) -> float:
    """The distance between two points."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def side_mid(side: int) -> Point:
    """The middle of a side (0 N, 1 E, 2 S, 3 W) of the tile box."""
    return lerp(CORNERS[side], CORNERS[(side + 1) % 4], 0.5)


def position_point(b: int) -> Point:
    """The border point of half-side position ``b`` (NL, N, NR, EL, ...)."""
    side, j = divmod(b, 3)
    return lerp(CORNERS[side], CORNERS[(side + 1) % 4], (0.25, 0.5, 0.75)[j])


def rotate_point(p: Point, quarter: int) -> Point:
    """Turn a point of the tile box ``quarter`` quarter turns clockwise about the centre."""
    x, y = p
    for _ in range(quarter % 4):
        x, y = SIZE - y, x
    return (x, y)


def fmt(v: float) -> str:
    """A coordinate for SVG: one decimal, without a trailing ``.0``."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _pt(p: Point) -> str:
    return f"{fmt(p[0])},{fmt(p[1])}"


def _cubic(p0: Point, c1: Point, c2: Point, p1: Point) -> list[Point]:
    out = []
    for i in range(1, _CUBIC_STEPS + 1):
        t = i / _CUBIC_STEPS
        u = 1 - t
        out.append((
            u * u * u * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * p1[0],
            u * u * u * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * p1[1],
        ))
    return out


# --------------------------------------------------------------------------- shapes

@dataclass(slots=True)
class Shape:
    d: str  # SVG path data
    poly: list[Point]  # flattened outline (areas) or centre line (lines)
    walls: list[str]  # path data of the curved inner edges (areas)


def area_sides(pos: tuple[int, ...], seg: int) -> list[int]:
    """Sides an area segment covers: the middle position, or two of the three, is its own."""
    return [s for s in range(4)
            if pos[3 * s + 1] == seg or sum(1 for j in range(3) if pos[3 * s + j] == seg) >= 2]


def line_sides(pos: tuple[int, ...], seg: int) -> list[int]:
    """Sides a line segment (a road...) reaches: those whose middle position is its own."""
    return [s for s in range(4) if pos[3 * s + 1] == seg]


def area_shape(sides: list[int], depth: float = 42.0) -> Shape:
    """The region hugging ``sides``, closed by curved walls (see the module docstring)."""
    covered = set(sides)
    if len(covered) == 4:
        return Shape("M0,0H100V100H0Z", list(CORNERS), [])
    start = next(s for s in range(4) if s in covered and (s - 1) % 4 not in covered)
    order = [(start + i) % 4 for i in range(4)]
    runs: list[tuple[bool, list[int]]] = []
    for s in order:
        c = s in covered
        if runs and runs[-1][0] == c:
            runs[-1][1].append(s)
        else:
            runs.append((c, [s]))
    d = [f"M{_pt(CORNERS[start])}"]
    poly: list[Point] = [CORNERS[start]]
    walls: list[str] = []
    for is_covered, run in runs:
        if is_covered:
            for s in run:
                p = CORNERS[(s + 1) % 4]
                d.append(f"L{_pt(p)}")
                poly.append(p)
            continue
        a, b = CORNERS[run[0]], CORNERS[(run[-1] + 1) % 4]
        if len(run) == 1:
            n = INWARD[run[0]]
            c1, c2 = offset(lerp(a, b, 0.25), n, depth), offset(lerp(a, b, 0.75), n, depth)
        elif len(run) == 2:
            m = CORNERS[run[1]]
            ctrl = lerp(m, CENTRE, 0.65)
            c1, c2 = lerp(a, ctrl, 2 / 3), lerp(b, ctrl, 2 / 3)
        else:
            cover = next(s for s in range(4) if s not in run)
            n = INWARD[cover]
            c1, c2 = offset(lerp(a, b, 0.2), n, depth), offset(lerp(a, b, 0.8), n, depth)
        curve = f"C{_pt(c1)} {_pt(c2)} {_pt(b)}"
        d.append(curve)
        walls.append(f"M{_pt(a)}{curve}")
        poly.extend(_cubic(a, c1, c2, b))
    if poly[-1] == poly[0]:
        poly.pop()
    return Shape("".join(d) + "Z", poly, walls)


def line_shape(start: Point, end: Point, via: Point | None = None) -> Shape:
    """A line (a road...) from ``start`` to ``end``: straight, or curving towards ``via``."""
    if via is None:
        return Shape(f"M{_pt(start)}L{_pt(end)}", [start, end], [])
    c1, c2 = lerp(start, via, 2 / 3), lerp(end, via, 2 / 3)
    return Shape(f"M{_pt(start)}C{_pt(c1)} {_pt(c2)} {_pt(end)}",
                  [start, *_cubic(start, c1, c2, end)], [])


def polyline_point(poly: list[Point], t: float) -> Point:
    """The point at fraction ``t`` of the length of a polyline."""
    lengths = [distance(a, b) for a, b in zip(poly, poly[1:], strict=False)]
    total = sum(lengths)
    if total == 0:
        return poly[0]
    goal = total * t
    for (a, b), seg_len in zip(zip(poly, poly[1:], strict=False), lengths, strict=True):
        if goal <= seg_len and seg_len > 0:
            return lerp(a, b, goal / seg_len)
        goal -= seg_len
    return poly[-1]


def centroid(poly: list[Point]) -> Point:
    """The mean of a polygon's vertices."""
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


def point_inside(p: Point, poly: list[Point]) -> bool:
    """Whether ``p`` lies inside ``poly`` (even-odd rule)."""
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def edge_distance(p: Point, poly: list[Point]) -> float:
    """The distance from ``p`` to the nearest edge of ``poly`` (at most ``SIZE``)."""
    best = SIZE
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                                  / length2))
        best = min(best, distance(p, (a[0] + t * dx, a[1] + t * dy)))
    return best
