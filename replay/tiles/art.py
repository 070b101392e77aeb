"""Tile artwork computed from the tile data (the 12 half-side model), never from images.

A tile is drawn in its canonical orientation in a 100 x 100 box; the board rotates it. The
drawing follows a few generic rules, so new tile sets need no code:

* ground segments (field, meadow) are the background;
* area segments (city, forest) fill the part of the tile that hugs the sides they cover, closed
  by a curved wall (one side: a cap; two adjacent sides: a diagonal; two opposite sides: a band;
  three sides: everything but a bay);
* line segments (road, river) run from the middle of each side they reach toward the centre (two
  sides: one curve through the centre); a road that ends on the tile ends at a crossing (3 or
  more ends), a cloister, a city gate or a house; a river ends in its lake or at a spring;
* segments that touch no side (cloister, lake, inner field) sit in the middle.

The same geometry is rasterised on a coarse grid to find, for every segment, a point inside it
where a figure stands (``anchors``) and free spots for its symbols (``icons``): fields are the
grid cells left free, split into connected regions by roads, rivers, cities and forests.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any

from .tileset import TileType

Point = tuple[float, float]

SIZE = 100.0
CENTRE: Point = (50.0, 50.0)
CORNERS: tuple[Point, ...] = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))
INWARD: tuple[Point, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))

AREA_TYPES = frozenset({"city", "forest"})
LINE_TYPES = frozenset({"road", "river"})
GROUND_TYPES = frozenset({"field", "meadow"})

COLOURS = {
    "field": "#8dbb4c", "meadow": "#b8cf68", "city": "#d3ad6f", "wall": "#7b5a2e",
    "forest": "#2f6b2d", "forest-edge": "#1f4a1d", "road": "#f4f0e2", "road-edge": "#7c7a70",
    "river": "#5ba8e8", "river-edge": "#2a6aaa", "lake": "#5ba8e8", "grid": "#57583f",
    "unknown": "#b9b2a3",
}

# Symbols a segment attribute or a tile flag stands for (see svg.ICONS for their drawings).
ATTR_ICONS = ("pennants", "cathedral", "inn", "fish", "gold", "mushrooms", "deer", "mammoth",
              "aurochs", "tiger", "fire", "sacred")
FLAG_ICONS = ("hill", "vineyard", "volcano")

GRID = 20  # raster cells per side
CELL = SIZE / GRID
LINE_HALF_WIDTH = 5.5  # blocking half-width of roads and rivers on the raster
_CUBIC_STEPS = 14


@dataclass(frozen=True, slots=True)
class TileArt:
    """Everything the board needs to draw one tile type, in the canonical orientation."""

    terrain: str  # SVG elements, tile box 0..100
    anchors: tuple[Point, ...]  # per segment: where a figure stands
    icons: tuple[tuple[str, Point], ...]  # (symbol name, centre), upright symbols
    emphasis: tuple[str, ...]  # per segment: SVG elements outlining it (for highlights)


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _add(a: Point, b: Point, k: float = 1.0) -> Point:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def side_mid(side: int) -> Point:
    """The middle of a side (0 N, 1 E, 2 S, 3 W) of the tile box."""
    return _lerp(CORNERS[side], CORNERS[(side + 1) % 4], 0.5)


def position_point(b: int) -> Point:
    """The border point of half-side position ``b`` (NL, N, NR, EL, ...)."""
    side, j = divmod(b, 3)
    return _lerp(CORNERS[side], CORNERS[(side + 1) % 4], (0.25, 0.5, 0.75)[j])


def rotate_point(p: Point, quarter: int) -> Point:
    """Turn a point of the tile box ``quarter`` quarter turns clockwise about the centre."""
    x, y = p
    for _ in range(quarter % 4):
        x, y = SIZE - y, x
    return (x, y)


def _fmt(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _pt(p: Point) -> str:
    return f"{_fmt(p[0])},{_fmt(p[1])}"


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
class _Shape:
    d: str  # SVG path data
    poly: list[Point]  # flattened outline (areas) or centre line (lines)
    walls: list[str]  # path data of the curved inner edges (areas)


def area_sides(pos: tuple[int, ...], seg: int) -> list[int]:
    """Sides an area segment covers: the middle position, or two of the three, is its own."""
    return [s for s in range(4)
            if pos[3 * s + 1] == seg or sum(1 for j in range(3) if pos[3 * s + j] == seg) >= 2]


def line_sides(pos: tuple[int, ...], seg: int) -> list[int]:
    """Sides a line segment (road, river) reaches: those whose middle position is its own."""
    return [s for s in range(4) if pos[3 * s + 1] == seg]


def area_shape(sides: list[int], depth: float = 42.0) -> _Shape:
    """The region hugging ``sides``, closed by curved walls (see the module docstring)."""
    covered = set(sides)
    if len(covered) == 4:
        return _Shape("M0,0H100V100H0Z", list(CORNERS), [])
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
            c1, c2 = _add(_lerp(a, b, 0.25), n, depth), _add(_lerp(a, b, 0.75), n, depth)
        elif len(run) == 2:
            m = CORNERS[run[1]]
            ctrl = _lerp(m, CENTRE, 0.65)
            c1, c2 = _lerp(a, ctrl, 2 / 3), _lerp(b, ctrl, 2 / 3)
        else:
            cover = next(s for s in range(4) if s not in run)
            n = INWARD[cover]
            c1, c2 = _add(_lerp(a, b, 0.2), n, depth), _add(_lerp(a, b, 0.8), n, depth)
        curve = f"C{_pt(c1)} {_pt(c2)} {_pt(b)}"
        d.append(curve)
        walls.append(f"M{_pt(a)}{curve}")
        poly.extend(_cubic(a, c1, c2, b))
    if poly[-1] == poly[0]:
        poly.pop()
    return _Shape("".join(d) + "Z", poly, walls)


def line_shape(start: Point, end: Point, via: Point | None = None) -> _Shape:
    """A road or river from ``start`` to ``end``: straight, or curving towards ``via``."""
    if via is None:
        return _Shape(f"M{_pt(start)}L{_pt(end)}", [start, end], [])
    c1, c2 = _lerp(start, via, 2 / 3), _lerp(end, via, 2 / 3)
    return _Shape(f"M{_pt(start)}C{_pt(c1)} {_pt(c2)} {_pt(end)}",
                  [start, *_cubic(start, c1, c2, end)], [])


def _polyline_point(poly: list[Point], t: float) -> Point:
    """The point at fraction ``t`` of the length of a polyline."""
    lengths = [_dist(a, b) for a, b in zip(poly, poly[1:], strict=False)]
    total = sum(lengths)
    if total == 0:
        return poly[0]
    goal = total * t
    for (a, b), seg_len in zip(zip(poly, poly[1:], strict=False), lengths, strict=True):
        if goal <= seg_len and seg_len > 0:
            return _lerp(a, b, goal / seg_len)
        goal -= seg_len
    return poly[-1]


# --------------------------------------------------------------------------- raster

FREE = -1
BLOCKED = -2


def _cell_centre(i: int) -> Point:
    r, c = divmod(i, GRID)
    return ((c + 0.5) * CELL, (r + 0.5) * CELL)


def _cell_of(p: Point) -> int:
    c = min(GRID - 1, max(0, int(p[0] / CELL)))
    r = min(GRID - 1, max(0, int(p[1] / CELL)))
    return r * GRID + c


def _fill_polygon(grid: list[int], poly: list[Point], value: int) -> None:
    """Scanline fill: every free cell whose centre lies inside ``poly``."""
    n = len(poly)
    for r in range(GRID):
        y = (r + 0.5) * CELL
        xs: list[float] = []
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            if (y1 <= y < y2) or (y2 <= y < y1):
                xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
        xs.sort()
        for a, b in zip(xs[::2], xs[1::2], strict=False):
            c0 = max(0, math.ceil(a / CELL - 0.5))
            c1 = min(GRID - 1, math.floor(b / CELL - 0.5))
            for c in range(c0, c1 + 1):
                if grid[r * GRID + c] == FREE:
                    grid[r * GRID + c] = value


def _stroke(grid: list[int], poly: list[Point], half: float, value: int) -> None:
    reach = int(half / CELL) + 1
    for a, b in zip(poly, poly[1:], strict=False):
        steps = max(1, int(_dist(a, b)))
        for k in range(steps + 1):
            p = _lerp(a, b, k / steps)
            r0, c0 = int(p[1] / CELL), int(p[0] / CELL)
            for r in range(r0 - reach, r0 + reach + 1):
                for c in range(c0 - reach, c0 + reach + 1):
                    if 0 <= r < GRID and 0 <= c < GRID and grid[r * GRID + c] == FREE:
                        q = ((c + 0.5) * CELL, (r + 0.5) * CELL)
                        if _dist(p, q) <= half:
                            grid[r * GRID + c] = value


def _disc(grid: list[int], centre: Point, rx: float, ry: float, value: int) -> None:
    for i in range(GRID * GRID):
        x, y = _cell_centre(i)
        if grid[i] == FREE and ((x - centre[0]) / rx) ** 2 + ((y - centre[1]) / ry) ** 2 <= 1:
            grid[i] = value


def _neighbours(i: int) -> list[int]:
    r, c = divmod(i, GRID)
    out = []
    if r > 0:
        out.append(i - GRID)
    if r < GRID - 1:
        out.append(i + GRID)
    if c > 0:
        out.append(i - 1)
    if c < GRID - 1:
        out.append(i + 1)
    return out


def _clearance(cells: set[int]) -> dict[int, int]:
    """Distance (in cells, 4-connected) from each cell of a region to the nearest cell outside
    it; the tile border counts as outside."""
    dist: dict[int, int] = {}
    queue: deque[int] = deque()
    for i in cells:
        r, c = divmod(i, GRID)
        if r in (0, GRID - 1) or c in (0, GRID - 1) or any(n not in cells for n in _neighbours(i)):
            dist[i] = 1
            queue.append(i)
    while queue:
        i = queue.popleft()
        for n in _neighbours(i):
            if n in cells and n not in dist:
                dist[n] = dist[i] + 1
                queue.append(n)
    return dist


def _anchor(cells: set[int]) -> Point:
    """The deepest point of a region, nearest its centroid among equals."""
    dist = _clearance(cells)
    pts = [_cell_centre(i) for i in cells]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    best = max(cells, key=lambda i: (min(dist[i], 3), -_dist(_cell_centre(i), (cx, cy)), -i))
    return _cell_centre(best)


def _spots(cells: set[int], taken: list[Point], count: int, gap: float = 15.0) -> list[Point]:
    """Up to ``count`` points of a region, away from the border and from each other."""
    if not cells or count <= 0:
        return []
    dist = _clearance(cells)
    deep = [i for i in cells if dist[i] >= 2] or list(cells)
    out: list[Point] = []
    for _ in range(count):
        best: tuple[float, int] | None = None
        for i in deep:
            p = _cell_centre(i)
            near = min((_dist(p, q) for q in taken + out), default=SIZE)
            key = min(near, 24.0) + 5.0 * min(dist[i], 5) - 0.02 * _dist(p, CENTRE)
            if best is None or key > best[0] or (key == best[0] and i < best[1]):
                best = (key, i)
        if best is None:
            break
        p = _cell_centre(best[1])
        if min((_dist(p, q) for q in taken + out), default=SIZE) < gap * 0.6 and out:
            break
        out.append(p)
    return out


def _rect_runs(cells: set[int]) -> str:
    """A region as horizontal runs of raster cells (used to emphasize fields)."""
    parts = []
    for r in range(GRID):
        c = 0
        while c < GRID:
            if r * GRID + c in cells:
                start = c
                while c < GRID and r * GRID + c in cells:
                    c += 1
                parts.append(f"M{_fmt(start * CELL)},{_fmt(r * CELL)}h{_fmt((c - start) * CELL)}"
                             f"v{_fmt(CELL)}h{_fmt(-(c - start) * CELL)}z")
            else:
                c += 1
    return "".join(parts)


# --------------------------------------------------------------------------- the tile

def art_key(tile: TileType) -> tuple[Any, ...]:
    """What the artwork depends on (tile types of combined sets are rebuilt on every parse)."""
    return (tile.id, tile.edges, tile.rotations[0].pos, tile.hill, tile.vineyard, tile.volcano,
            tuple((s.type, s.name, s.touches, tuple(sorted(s.attrs.items())))
                  for s in tile.segments))


_CACHE: dict[tuple[Any, ...], TileArt] = {}


def tile_art(tile: TileType) -> TileArt:
    """The artwork of a tile type, built once per ``art_key``."""
    key = art_key(tile)
    art = _CACHE.get(key)
    if art is None:
        art = _build(tile)
        if len(_CACHE) > 2000:
            _CACHE.clear()
        _CACHE[key] = art
    return art


def _build(tile: TileType) -> TileArt:
    pos = tile.rotations[0].pos
    segs = tile.segments
    n = len(segs)
    types = [s.type for s in segs]
    anchors: list[Point | None] = [None] * n
    emphasis = [""] * n
    icons: list[tuple[str, Point]] = []
    grid = [FREE] * (GRID * GRID)

    # lakes first: rivers end in them
    lake_centre: dict[int, Point] = {}
    lakes = [s.index for s in segs if s.type == "lake"]
    for li in lakes:
        feeders = [side_mid(line_sides(pos, s.index)[0]) for s in segs
                   if s.type == "river" and li in s.touches and line_sides(pos, s.index)]
        if feeders:
            avg = (sum(p[0] for p in feeders) / len(feeders),
                   sum(p[1] for p in feeders) / len(feeders))
            lake_centre[li] = _lerp(avg, CENTRE, 0.5)
        else:
            lake_centre[li] = CENTRE
    if len(lakes) > 1 and len(set(lake_centre.values())) < len(lakes):
        for k, li in enumerate(lakes):  # lakes without rivers: spread them out
            lake_centre[li] = _add(CENTRE, (math.cos(k * 2.1), math.sin(k * 2.1)), 20)
    lake_r = (12.0, 9.0) if len(lakes) > 1 else (17.0, 13.0)

    has_cloister = "cloister" in types
    cities = [i for i in range(n) if types[i] == "city"]
    one_sided_roads = [i for i in range(n) if types[i] == "road" and len(line_sides(pos, i)) == 1]

    # area shapes (cities, forests): several on one tile are drawn a little smaller
    area_idx = [i for i in range(n) if types[i] in AREA_TYPES and area_sides(pos, i)]
    shapes: dict[int, _Shape] = {}
    for i in area_idx:
        depth = 42.0 if sum(1 for j in area_idx if types[j] == types[i]) == 1 else 38.0
        shapes[i] = area_shape(area_sides(pos, i), depth)
        _fill_polygon(grid, shapes[i].poly, i)
    for i in area_idx:
        cells = {k for k, v in enumerate(grid) if v == i}
        anchors[i] = _anchor(cells) if cells else _centroid(shapes[i].poly)

    # line shapes (roads, rivers)
    lines: dict[int, list[_Shape]] = {}
    ends: list[tuple[str, Point]] = []
    for i in range(n):
        if types[i] not in LINE_TYPES:
            continue
        sides = line_sides(pos, i)
        if not sides:
            continue
        if len(sides) == 2:
            shapes_i = [line_shape(side_mid(sides[0]), side_mid(sides[1]), CENTRE)]
        elif len(sides) == 1:
            start = side_mid(sides[0])
            end = CENTRE
            seg = segs[i]
            touched_lakes = [t for t in seg.touches if t in lake_centre]
            if types[i] == "river":
                if touched_lakes:
                    end = lake_centre[touched_lakes[0]]
                elif seg.attr("spring"):
                    end = _add(start, INWARD[sides[0]], 30)
                    ends.append(("spring", end))
            elif not has_cloister and len(one_sided_roads) == 1 and cities:
                # a road ending at a city gate runs on under the wall
                end = min((anchors[c] or CENTRE for c in cities), key=lambda p: _dist(p, start))
            shapes_i = [line_shape(start, end)]
        else:
            shapes_i = [line_shape(side_mid(s), CENTRE) for s in sides]
        lines[i] = shapes_i
        for sh in shapes_i:
            _stroke(grid, sh.poly, LINE_HALF_WIDTH, i)
        main = shapes_i[0].poly
        anchors[i] = _polyline_point(main, 0.5 if len(sides) != 1 else 0.45)
    stubs: list[_Shape] = []
    if not has_cloister and one_sided_roads:
        if len(one_sided_roads) >= 3 or (len(one_sided_roads) == 2 and cities):
            ends.append(("crossing", CENTRE))
        elif not cities:
            icons.append(("house", CENTRE))
        if len(one_sided_roads) == 2 and cities:
            # a crossing between cities: short stubs lead to their gates (IC4: no road there)
            for city in cities:
                stubs.append(line_shape(CENTRE, anchors[city] or CENTRE))
                _stroke(grid, stubs[-1].poly, LINE_HALF_WIDTH, BLOCKED)

    # centre objects
    for i in range(n):
        t = types[i]
        if t == "cloister":
            _disc(grid, CENTRE, 15, 17, i)
            anchors[i] = (50.0, 56.0)
            icons.append(("cloister", CENTRE))
        elif t == "lake":
            c = lake_centre[i]
            _disc(grid, c, lake_r[0] + 2, lake_r[1] + 2, i)
            anchors[i] = c

    # ground regions: free cells, split by connectivity, then among fields by nearest side
    regions = _ground_regions(grid, tile)
    for i, cells in regions.items():
        anchors[i] = _anchor(cells)
    for i in range(n):
        if anchors[i] is None:
            anchors[i] = CENTRE
    final_anchors = tuple(a if a is not None else CENTRE for a in anchors)

    # emphasis outlines
    for i in range(n):
        t = types[i]
        if i in shapes:
            emphasis[i] = f'<path d="{shapes[i].d}"/>'
        elif i in lines:
            emphasis[i] = "".join(f'<path d="{sh.d}" fill="none" stroke-width="15" '
                                  f'stroke-linecap="round"/>' for sh in lines[i])
        elif t == "cloister":
            emphasis[i] = '<circle cx="50" cy="50" r="30"/>'
        elif t == "lake":
            c = lake_centre[i]
            emphasis[i] = (f'<ellipse cx="{_fmt(c[0])}" cy="{_fmt(c[1])}" '
                           f'rx="{_fmt(lake_r[0] + 4)}" ry="{_fmt(lake_r[1] + 4)}"/>')
        elif i in regions:
            emphasis[i] = f'<path d="{_rect_runs(regions[i])}"/>'

    # symbols
    taken: list[Point] = [final_anchors[i] for i in range(n)]
    for i, seg in enumerate(segs):
        wanted: list[str] = []
        for key in ATTR_ICONS:
            k = seg.attr(key)
            if k and key in ("pennants", "fish", "gold", "mushrooms", "deer", "mammoth",
                             "aurochs", "tiger"):
                wanted.extend([key] * min(k, 4))
            elif k:
                wanted.append(key)
        if not wanted:
            continue
        if types[i] == "lake":
            c = lake_centre[i]
            for k, name in enumerate(wanted):
                angle = 2 * math.pi * k / max(1, len(wanted)) + 0.6
                r = 0.0 if len(wanted) == 1 else 6.0
                icons.append((name, (c[0] + r * math.cos(angle), c[1] + r * 0.7 * math.sin(angle))))
            continue
        if types[i] in LINE_TYPES and i in lines:
            # an inn stands beside its road, in a field; fish swim along their river
            poly = lines[i][0].poly
            for k, name in enumerate(wanted):
                frac = 0.2 + 0.6 * (k + 1) / (len(wanted) + 1)
                p = _polyline_point(poly, frac)
                if name == "inn":
                    p = _beside(poly, frac, regions)
                icons.append((name, p))
            continue
        cells = regions.get(i) or {k for k, v in enumerate(grid) if v == i}
        spots = _spots(cells, taken, len(wanted)) if cells else []
        for k, name in enumerate(wanted):
            p = spots[k] if k < len(spots) else _add(final_anchors[i], (10.0 * (k + 1), -8.0))
            icons.append((name, p))
            taken.append(p)
    flags = [f for f in FLAG_ICONS if getattr(tile, f)]
    if flags:
        ground = max(regions, key=lambda i: (len(regions[i]), -i)) if regions else None
        cells = regions[ground] if ground is not None else set(range(GRID * GRID))
        spots = _spots(cells, taken, len(flags))
        for k, name in enumerate(flags):
            p = spots[k] if k < len(spots) else (14.0 + 18 * k, 86.0)
            icons.append((name, p))
            taken.append(p)

    terrain = _terrain_svg(tile, shapes, lines, lake_centre, lake_r, ends, stubs)
    return TileArt(terrain, final_anchors, tuple(icons), tuple(emphasis))


def _beside(poly: list[Point], t: float, regions: dict[int, set[int]]) -> Point:
    """A point next to a line, on the side where a ground region (a field) lies."""
    ground = set().union(*regions.values()) if regions else set()
    for tt in (t, 0.3, 0.7, 0.15, 0.85):
        p = _polyline_point(poly, tt)
        q = _polyline_point(poly, min(1.0, tt + 0.05))
        dx, dy = q[0] - p[0], q[1] - p[1]
        norm = math.hypot(dx, dy) or 1.0
        for sign in (1, -1):
            c = (p[0] - sign * dy / norm * 14, p[1] + sign * dx / norm * 14)
            if 8 <= c[0] <= 92 and 8 <= c[1] <= 92 and _cell_of(c) in ground:
                return c
    return _add(_polyline_point(poly, t), (7.0, -9.0))


def _centroid(poly: list[Point]) -> Point:
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


def _ground_regions(grid: list[int], tile: TileType) -> dict[int, set[int]]:
    pos = tile.rotations[0].pos
    segs = tile.segments
    ground = [s.index for s in segs if s.type in GROUND_TYPES]
    if not ground:
        return {}
    # connected components of free cells
    comp = [-1] * len(grid)
    comps: list[list[int]] = []
    for i, v in enumerate(grid):
        if v != FREE or comp[i] >= 0:
            continue
        k = len(comps)
        members = [i]
        comp[i] = k
        queue = deque([i])
        while queue:
            j = queue.popleft()
            for nb in _neighbours(j):
                if grid[nb] == FREE and comp[nb] < 0:
                    comp[nb] = k
                    members.append(nb)
                    queue.append(nb)
        comps.append(members)
    # seeds: the free cell nearest each half-side position of each ground segment
    seeds: dict[int, list[int]] = {g: [] for g in ground}
    for b in range(12):
        g = pos[b]
        if g < 0 or g not in seeds:
            continue
        p = _add(position_point(b), INWARD[b // 3], CELL * 0.5)
        cell = _nearest_free(grid, _cell_of(p))
        if cell is not None:
            seeds[g].append(cell)
    by_comp: dict[int, list[int]] = {}
    for g in ground:
        for cell in seeds[g]:
            lst = by_comp.setdefault(comp[cell], [])
            if g not in lst:
                lst.append(g)
    owner: dict[int, int] = {}
    for k, members in enumerate(comps):
        gs = by_comp.get(k)
        if not gs:
            inner = [g for g in ground if not seeds[g]]
            if inner:
                for cell in members:
                    owner[cell] = inner[0]
            continue
        if len(gs) == 1:
            for cell in members:
                owner[cell] = gs[0]
            continue
        # several fields in one free region (a wall drawn simpler than the real tile):
        # split it by distance from their sides (multi-source breadth-first search)
        member_set = set(members)
        queue = deque()
        for g in gs:
            for cell in seeds[g]:
                if comp[cell] == k and cell not in owner:
                    owner[cell] = g
                    queue.append(cell)
        while queue:
            j = queue.popleft()
            for nb in _neighbours(j):
                if nb in member_set and nb not in owner:
                    owner[nb] = owner[j]
                    queue.append(nb)
    regions: dict[int, set[int]] = {}
    for cell, g in owner.items():
        regions.setdefault(g, set()).add(cell)
    return regions


def _nearest_free(grid: list[int], start: int) -> int | None:
    if grid[start] == FREE:
        return start
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        i, d = queue.popleft()
        if d > 3:
            break
        for nb in _neighbours(i):
            if nb not in seen:
                if grid[nb] == FREE:
                    return nb
                seen.add(nb)
                queue.append((nb, d + 1))
    return None


def _terrain_svg(tile: TileType, shapes: dict[int, _Shape], lines: dict[int, list[_Shape]],
                 lake_centre: dict[int, Point], lake_r: tuple[float, float],
                 ends: list[tuple[str, Point]], stubs: list[_Shape]) -> str:
    segs = tile.segments
    types = [s.type for s in segs]
    ground = "meadow" if "meadow" in types else "field"
    out = [f'<rect class="{ground}" width="100" height="100" fill="{COLOURS[ground]}"/>']
    known = AREA_TYPES | LINE_TYPES | GROUND_TYPES | {"cloister", "lake"}
    for i, sh_list in lines.items():
        kind = types[i]
        edge, fill = COLOURS[f"{kind}-edge"], COLOURS[kind]
        wide, narrow = (12, 8) if kind == "road" else (13, 8.5)
        for sh in sh_list:
            out.append(f'<path class="{kind}" d="{sh.d}" fill="none" stroke="{edge}" '
                       f'stroke-width="{wide}"/>')
        for sh in sh_list:
            out.append(f'<path d="{sh.d}" fill="none" stroke="{fill}" stroke-width="{narrow}"/>')
    for sh in stubs:
        out.append(f'<path class="stub" d="{sh.d}" fill="none" stroke="{COLOURS["road-edge"]}" '
                   f'stroke-width="9"/><path d="{sh.d}" fill="none" stroke="{COLOURS["road"]}" '
                   f'stroke-width="5.5"/>')
    for kind, p in ends:
        if kind == "crossing":
            out.append(f'<circle class="crossing" cx="{_fmt(p[0])}" cy="{_fmt(p[1])}" r="8" '
                       f'fill="{COLOURS["road"]}" stroke="{COLOURS["road-edge"]}" '
                       f'stroke-width="2"/>')
    for i, sh in shapes.items():
        kind = types[i]
        if kind == "city":
            out.append(f'<path class="city" d="{sh.d}" fill="{COLOURS["city"]}"/>')
            for w in sh.walls:
                out.append(f'<path class="wall" d="{w}" fill="none" stroke="{COLOURS["wall"]}" '
                           f'stroke-width="4.5" stroke-linecap="round"/>')
                out.append(f'<path d="{w}" fill="none" stroke="#e9d3a6" stroke-width="1.2" '
                           f'stroke-dasharray="3 3"/>')
        else:
            out.append(f'<path class="forest" d="{sh.d}" fill="{COLOURS["forest"]}"/>')
            out.append(_trees(sh.poly))
            for w in sh.walls:
                out.append(f'<path d="{w}" fill="none" stroke="{COLOURS["forest-edge"]}" '
                           f'stroke-width="2.5"/>')
    for c in lake_centre.values():
        out.append(f'<ellipse class="lake" cx="{_fmt(c[0])}" cy="{_fmt(c[1])}" '
                   f'rx="{_fmt(lake_r[0])}" ry="{_fmt(lake_r[1])}" fill="{COLOURS["lake"]}" '
                   f'stroke="{COLOURS["river-edge"]}" stroke-width="2.5"/>')
    for kind, p in ends:
        if kind == "spring":
            out.append(f'<circle class="spring" cx="{_fmt(p[0])}" cy="{_fmt(p[1])}" r="6" '
                       f'fill="#bfe3ff" stroke="{COLOURS["river-edge"]}" stroke-width="2"/>')
    for t in types:
        if t not in known:  # a segment type this drawing does not know yet: a neutral patch
            out.append(f'<circle class="segment-{_safe(t)}" cx="50" cy="50" r="10" '
                       f'fill="{COLOURS["unknown"]}" stroke="#555" stroke-width="1.5"/>')
    out.append(f'<rect class="edge" width="100" height="100" fill="none" '
               f'stroke="{COLOURS["grid"]}" stroke-width="1"/>')
    return "".join(out)


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "-" else "_" for ch in text)


def _trees(poly: list[Point]) -> str:
    """Tree crowns on a regular lattice, kept inside the forest outline."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    crowns = []
    y = 9.0
    row = 0
    while y < 100:
        x = 9.0 + (7.0 if row % 2 else 0.0)
        while x < 100:
            if min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys) and _inside((x, y), poly) \
                    and _edge_distance((x, y), poly) > 6:
                crowns.append(f"M{_fmt(x - 4)},{_fmt(y)}a4,4 0 1,0 8,0a4,4 0 1,0 -8,0")
            x += 14.0
        y += 12.0
        row += 1
    if not crowns:
        return ""
    return f'<path class="trees" d="{"".join(crowns)}" fill="#3f8a3a" stroke="#1f4a1d" ' \
           f'stroke-width="1"/>'


def _inside(p: Point, poly: list[Point]) -> bool:
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _edge_distance(p: Point, poly: list[Point]) -> float:
    best = SIZE
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                                  / length2))
        best = min(best, _dist(p, (a[0] + t * dx, a[1] + t * dy)))
    return best
