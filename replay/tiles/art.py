"""Tile artwork computed from the tile data (the 12 half-side model), never from images.

A tile is drawn in its canonical orientation in a 100 x 100 box; the board rotates it. The
drawing follows a few generic rules, so new tile sets need no code:

* ground segments (a field...) are the background;
* area segments (a city...) fill the part of the tile that hugs the sides they cover, closed
  by a curved wall (one side: a cap; two adjacent sides: a diagonal; two opposite sides: a band;
  three sides: everything but a bay);
* line segments (a road...) run from the middle of each side they reach toward the centre (two
  sides: one curve through the centre); a road that ends on the tile ends at a crossing (3 or
  more ends), a cloister, a city gate or a house; a line feeding a pool ends in it or at its
  source on the tile (``kinds.SOURCES``);
* segments that touch no side (a cloister, a pool, an inner field) sit in the middle.

Which segment type is drawn how, and in which colour, is ``kinds`` (a family adds its own).

The same geometry is rasterised on a coarse grid to find, for every segment, a point inside it
where a figure stands (``anchors``) and free spots for its symbols (``icons``): fields are the
grid cells left free, split into connected regions by the lines and areas.

The shapes are in ``geometry``, the raster in ``raster``; this module assembles a tile's
art (``tile_art``) and its SVG terrain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.svgtext import element, num, wrap
from .geometry import (
    CENTRE,
    INWARD,
    SIZE,
    Point,
    Shape,
    area_shape,
    area_sides,
    centroid,
    distance,
    edge_distance,
    fmt,
    lerp,
    line_shape,
    line_sides,
    offset,
    point_inside,
    polyline_point,
    rotate_point,
    side_mid,
)
from .icons import icon_def
from .kinds import (
    AREA_TYPES,
    COLOURS,
    COUNTED,
    GROUND_TYPES,
    LINE_TYPES,
    MIDDLE_TYPES,
    POOLS,
    SOURCES,
    SYMBOLS,
)
from .raster import (
    BLOCKED,
    FREE,
    GRID,
    LINE_HALF_WIDTH,
    anchor,
    beside,
    fill_disc,
    fill_polygon,
    free_spots,
    ground_regions,
    rect_runs,
    stroke_line,
)
from .tileset import Segment, TileType

__all__ = ["SIZE", "Point", "TileArt", "art_key", "rotate_point", "svg_id", "tile_art",
           "tile_picture"]





def _known(t: str) -> bool:
    """Whether segment type ``t`` has a drawing (``kinds``: a family adds its own types)."""
    return t in AREA_TYPES or t in LINE_TYPES or t in GROUND_TYPES or t in MIDDLE_TYPES


@dataclass(frozen=True, slots=True)
class TileArt:
    """Everything the board needs to draw one tile type, in the canonical orientation."""

    terrain: str  # SVG elements, tile box 0..100
    anchors: tuple[Point, ...]  # per segment: where a figure stands
    icons: tuple[tuple[str, Point], ...]  # (symbol name, centre), upright symbols
    emphasis: tuple[str, ...]  # per segment: SVG elements outlining it (for highlights)


def art_key(tile: TileType) -> tuple[Any, ...]:
    """What the artwork depends on (tile types of combined sets are rebuilt on every parse)."""
    return (tile.id, tile.edges, tile.rotations[0].pos, tile.flags,
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


class _Work:
    """A tile's artwork while it is built, pass by pass (``_build``)."""

    def __init__(self, tile: TileType) -> None:
        self.tile = tile
        self.pos = tile.rotations[0].pos
        self.segs = tile.segments
        self.n = len(self.segs)
        self.types = [s.type for s in self.segs]
        self.anchors: list[Point | None] = [None] * self.n
        self.icons: list[tuple[str, Point]] = []
        self.grid = [FREE] * (GRID * GRID)
        self.pool_centre: dict[int, Point] = {}
        self.pool_r = (17.0, 13.0)
        self.shapes: dict[int, Shape] = {}  # area shapes (cities...)
        self.lines: dict[int, list[Shape]] = {}  # line shapes (roads...)
        self.ends: list[tuple[str, Point]] = []  # crossings and sources
        self.stubs: list[Shape] = []
        self.regions: dict[int, set[int]] = {}
        self.has_cloister = "cloister" in self.types
        self.cities = [i for i in range(self.n) if self.types[i] == "city"]
        self.one_sided_roads = [i for i in range(self.n) if self.types[i] == "road"
                                and len(line_sides(self.pos, i)) == 1]

    def cells_of(self, i: int) -> set[int]:
        """The grid cells segment ``i`` filled."""
        return {k for k, v in enumerate(self.grid) if v == i}


def svg_id(tile_id: str) -> str:
    """A tile id as an XML id fragment (tile ids may hold ``/``, ``!``, ``.``, ``+``)."""
    return "".join(ch if ch.isalnum() or ch in "-_" else f"_{ord(ch):x}" for ch in tile_id)


def tile_picture(tile: TileType, rotation: int = 0, *, size: int | None = 64,
                 prefix: str = "tp-") -> str:
    """One tile on its own, as SVG (the viewer shows the next tile to play with it)."""
    art = tile_art(tile)
    q = (rotation // 90) % 4
    sid = f"{prefix}t-{svg_id(tile.id)}"
    defs = [icon_def(prefix, name) for name in sorted({name for name, _ in art.icons})]
    uses = [element("use", href=f"#{prefix}i-{name}", x=num(rotate_point(pt, q)[0]),
                    y=num(rotate_point(pt, q)[1])) for name, pt in art.icons]
    turn = f" rotate({90 * q} 50 50)" if q else ""
    return wrap("svg", element("title", f"tile {tile.id}"),
                wrap("defs", wrap("g", art.terrain, id=sid), *defs),
                element("use", href=f"#{sid}", transform=f"translate(0,0){turn}"), *uses,
                xmlns="http://www.w3.org/2000/svg", class_="carcassonne-tile",
                viewBox="-2 -2 104 104", width=size, height=size)


def _build(tile: TileType) -> TileArt:
    w = _Work(tile)
    _pools(w)
    _areas(w)
    _lines(w)
    _road_ends(w)
    _centre_objects(w)
    w.regions = ground_regions(w.grid, tile)
    for i, cells in w.regions.items():
        w.anchors[i] = anchor(cells)
    anchors = tuple(a if a is not None else CENTRE for a in w.anchors)
    emphasis = tuple(_emphasis(w, i) for i in range(w.n))
    _segment_icons(w, anchors)
    terrain = _terrain_svg(tile, w.shapes, w.lines, w.pool_centre, w.pool_r, w.ends, w.stubs)
    return TileArt(terrain, anchors, tuple(w.icons), emphasis)


def _pools(w: _Work) -> None:
    """Pools first, lines end in them: each pool between the lines that feed it."""
    pools = [s.index for s in w.segs if s.type in POOLS]
    for li in pools:
        feeds = POOLS[w.types[li]]
        feeders = [side_mid(line_sides(w.pos, s.index)[0]) for s in w.segs
                   if s.type == feeds and li in s.touches and line_sides(w.pos, s.index)]
        if feeders:
            avg = (sum(p[0] for p in feeders) / len(feeders),
                   sum(p[1] for p in feeders) / len(feeders))
            w.pool_centre[li] = lerp(avg, CENTRE, 0.5)
        else:
            w.pool_centre[li] = CENTRE
    if len(pools) > 1 and len(set(w.pool_centre.values())) < len(pools):
        for k, li in enumerate(pools):  # pools fed by no line: spread them out
            w.pool_centre[li] = offset(CENTRE, (math.cos(k * 2.1), math.sin(k * 2.1)), 20)
    if len(pools) > 1:
        w.pool_r = (12.0, 9.0)


def _areas(w: _Work) -> None:
    """Area shapes (cities...): several on one tile are drawn a little smaller."""
    types = w.types
    area_idx = [i for i in range(w.n) if types[i] in AREA_TYPES and area_sides(w.pos, i)]
    for i in area_idx:
        depth = 42.0 if sum(1 for j in area_idx if types[j] == types[i]) == 1 else 38.0
        w.shapes[i] = area_shape(area_sides(w.pos, i), depth)
        fill_polygon(w.grid, w.shapes[i].poly, i)
    for i in area_idx:
        cells = w.cells_of(i)
        w.anchors[i] = anchor(cells) if cells else centroid(w.shapes[i].poly)


def _lines(w: _Work) -> None:
    """Line shapes (roads...), from the middle of each side they reach."""
    for i in range(w.n):
        if w.types[i] not in LINE_TYPES:
            continue
        sides = line_sides(w.pos, i)
        if not sides:
            continue
        if len(sides) == 2:
            shapes_i = [line_shape(side_mid(sides[0]), side_mid(sides[1]), CENTRE)]
        elif len(sides) == 1:
            start = side_mid(sides[0])
            shapes_i = [line_shape(start, _line_end(w, i, sides[0], start))]
        else:
            shapes_i = [line_shape(side_mid(s), CENTRE) for s in sides]
        w.lines[i] = shapes_i
        for sh in shapes_i:
            stroke_line(w.grid, sh.poly, LINE_HALF_WIDTH, i)
        w.anchors[i] = polyline_point(shapes_i[0].poly, 0.5 if len(sides) != 1 else 0.45)


def _line_end(w: _Work, i: int, side: int, start: Point) -> Point:
    """Where a line that reaches one side ends: its pool, its source, a city gate or the
    centre."""
    seg = w.segs[i]
    if w.types[i] in POOLS.values():
        touched = [t for t in seg.touches if t in w.pool_centre]
        if touched:
            return w.pool_centre[touched[0]]
        source = next((s for s in SOURCES if seg.attr(s)), None)
        if source is not None:
            end = offset(start, INWARD[side], 30)
            w.ends.append((source, end))
            return end
    elif not w.has_cloister and len(w.one_sided_roads) == 1 and w.cities:
        # a road ending at a city gate runs on under the wall
        return min((w.anchors[c] or CENTRE for c in w.cities), key=lambda p: distance(p, start))
    return CENTRE


def _road_ends(w: _Work) -> None:
    """Where roads that reach one side meet: a crossing, a house, stubs to city gates."""
    roads = w.one_sided_roads
    if w.has_cloister or not roads:
        return
    if len(roads) >= 3 or (len(roads) == 2 and w.cities):
        w.ends.append(("crossing", CENTRE))
    elif not w.cities:
        w.icons.append(("house", CENTRE))
    if len(roads) == 2 and w.cities:
        # a crossing between cities: short stubs lead to their gates (no road runs there)
        for city in w.cities:
            w.stubs.append(line_shape(CENTRE, w.anchors[city] or CENTRE))
            stroke_line(w.grid, w.stubs[-1].poly, LINE_HALF_WIDTH, BLOCKED)


def _centre_objects(w: _Work) -> None:
    """Segments in the middle of the tile: cloisters and pools."""
    for i in range(w.n):
        t = w.types[i]
        if t == "cloister":
            fill_disc(w.grid, CENTRE, 15, 17, i)
            w.anchors[i] = (50.0, 56.0)
            w.icons.append(("cloister", CENTRE))
        elif t in POOLS:
            c = w.pool_centre[i]
            fill_disc(w.grid, c, w.pool_r[0] + 2, w.pool_r[1] + 2, i)
            w.anchors[i] = c


def _emphasis(w: _Work, i: int) -> str:
    """The outline of segment ``i``, emphasized when its feature scores."""
    if i in w.shapes:
        return element("path", d=w.shapes[i].d)
    if i in w.lines:
        return "".join(element("path", d=sh.d, fill="none", stroke_width="15",
                               stroke_linecap="round") for sh in w.lines[i])
    t = w.types[i]
    if t == "cloister":
        return element("circle", cx="50", cy="50", r="30")
    if t in POOLS:
        c = w.pool_centre[i]
        return element("ellipse", cx=fmt(c[0]), cy=fmt(c[1]), rx=fmt(w.pool_r[0] + 4),
                       ry=fmt(w.pool_r[1] + 4))
    if i in w.regions:
        return element("path", d=rect_runs(w.regions[i]))
    return ""


def _wanted(seg: Segment) -> list[str]:
    """The symbols a segment's attributes ask for (a count of up to 4 of some)."""
    wanted: list[str] = []
    for key in SYMBOLS:
        k = seg.attr(key)
        if k and key in COUNTED:
            wanted.extend([key] * min(k, 4))
        elif k:
            wanted.append(key)
    return wanted


def _segment_icons(w: _Work, anchors: tuple[Point, ...]) -> None:
    """The symbols of the segments' attributes, then of the tile's flags."""
    taken: list[Point] = list(anchors)
    for i, seg in enumerate(w.segs):
        wanted = _wanted(seg)
        if not wanted:
            continue
        if w.types[i] in POOLS:
            _pool_icons(w, w.pool_centre[i], wanted)
        elif w.types[i] in LINE_TYPES and i in w.lines:
            _line_icons(w, w.lines[i][0].poly, wanted)
        else:
            cells = w.regions.get(i) or w.cells_of(i)
            spots = free_spots(cells, taken, len(wanted)) if cells else []
            for k, name in enumerate(wanted):
                p = spots[k] if k < len(spots) else offset(anchors[i], (10.0 * (k + 1), -8.0))
                w.icons.append((name, p))
                taken.append(p)
    _flag_icons(w, taken)


def _pool_icons(w: _Work, c: Point, wanted: list[str]) -> None:
    for k, name in enumerate(wanted):
        angle = 2 * math.pi * k / max(1, len(wanted)) + 0.6
        r = 0.0 if len(wanted) == 1 else 6.0
        w.icons.append((name, (c[0] + r * math.cos(angle), c[1] + r * 0.7 * math.sin(angle))))


def _line_icons(w: _Work, poly: list[Point], wanted: list[str]) -> None:
    """An inn stands beside its road, in a field; other symbols lie along their line."""
    for k, name in enumerate(wanted):
        frac = 0.2 + 0.6 * (k + 1) / (len(wanted) + 1)
        p = polyline_point(poly, frac)
        if name == "inn":
            p = beside(poly, frac, w.regions)
        w.icons.append((name, p))


def _flag_icons(w: _Work, taken: list[Point]) -> None:
    """The tile's flags (``kinds.FLAGS``: a hill...), in its largest ground region."""
    flags = list(w.tile.flags)
    if not flags:
        return
    regions = w.regions
    ground = max(regions, key=lambda i: (len(regions[i]), -i)) if regions else None
    cells = regions[ground] if ground is not None else set(range(GRID * GRID))
    spots = free_spots(cells, taken, len(flags))
    for k, name in enumerate(flags):
        p = spots[k] if k < len(spots) else (14.0 + 18 * k, 86.0)
        w.icons.append((name, p))
        taken.append(p)


def _terrain_svg(tile: TileType, shapes: dict[int, Shape], lines: dict[int, list[Shape]],
                 pool_centre: dict[int, Point], pool_r: tuple[float, float],
                 ends: list[tuple[str, Point]], stubs: list[Shape]) -> str:
    types = [s.type for s in tile.segments]
    ground = next((t for t in types if t in GROUND_TYPES and t != "field"), "field")
    out = [element("rect", class_=ground, width="100", height="100", fill=COLOURS[ground])]
    _line_svg(out, types, lines, stubs, ends)
    _area_svg(out, types, shapes)
    for i, c in pool_centre.items():
        t = types[i]
        out.append(element("ellipse", class_=t, cx=fmt(c[0]), cy=fmt(c[1]),
                           rx=fmt(pool_r[0]), ry=fmt(pool_r[1]), fill=COLOURS[t],
                           stroke=COLOURS[f"{POOLS[t]}-edge"], stroke_width="2.5"))
    for kind, p in ends:
        if kind in SOURCES:
            out.append(element("circle", class_=kind, cx=fmt(p[0]), cy=fmt(p[1]), r="6",
                               fill=COLOURS[kind], stroke=COLOURS[f"{kind}-edge"],
                               stroke_width="2"))
    for t in types:
        if not _known(t):  # a segment type this drawing does not know yet: a neutral patch
            out.append(element("circle", class_=f"segment-{_safe(t)}", cx="50", cy="50",
                               r="10", fill=COLOURS["unknown"], stroke="#555",
                               stroke_width="1.5"))
    out.append(element("rect", class_="edge", width="100", height="100", fill="none",
                       stroke=COLOURS["grid"], stroke_width="1"))
    return "".join(out)


def _line_svg(out: list[str], types: list[str], lines: dict[int, list[Shape]],
              stubs: list[Shape], ends: list[tuple[str, Point]]) -> None:
    """Lines (an edge under a fill), the stubs to city gates, the crossings."""
    for i, sh_list in lines.items():
        kind = types[i]
        edge, fill = COLOURS[f"{kind}-edge"], COLOURS[kind]
        wide, narrow = (12, 8) if kind == "road" else (13, 8.5)
        for sh in sh_list:
            out.append(element("path", class_=kind, d=sh.d, fill="none", stroke=edge,
                               stroke_width=wide))
        for sh in sh_list:
            out.append(element("path", d=sh.d, fill="none", stroke=fill, stroke_width=narrow))
    for sh in stubs:
        out.append(element("path", class_="stub", d=sh.d, fill="none",
                           stroke=COLOURS["road-edge"], stroke_width="9"))
        out.append(element("path", d=sh.d, fill="none", stroke=COLOURS["road"],
                           stroke_width="5.5"))
    for kind, p in ends:
        if kind == "crossing":
            out.append(element("circle", class_="crossing", cx=fmt(p[0]), cy=fmt(p[1]), r="8",
                               fill=COLOURS["road"], stroke=COLOURS["road-edge"],
                               stroke_width="2"))


def _area_svg(out: list[str], types: list[str], shapes: dict[int, Shape]) -> None:
    """Cities with their walls, other areas with their trees."""
    for i, sh in shapes.items():
        if types[i] == "city":
            out.append(element("path", class_="city", d=sh.d, fill=COLOURS["city"]))
            for w in sh.walls:
                out.append(element("path", class_="wall", d=w, fill="none",
                                   stroke=COLOURS["wall"], stroke_width="4.5",
                                   stroke_linecap="round"))
                out.append(element("path", d=w, fill="none", stroke="#e9d3a6",
                                   stroke_width="1.2", stroke_dasharray="3 3"))
        else:
            t = types[i]
            out.append(element("path", class_=t, d=sh.d, fill=COLOURS[t]))
            out.append(_trees(sh.poly))
            for w in sh.walls:
                out.append(element("path", d=w, fill="none", stroke=COLOURS[f"{t}-edge"],
                                   stroke_width="2.5"))


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "-" else "_" for ch in text)


def _trees(poly: list[Point]) -> str:
    """Tree crowns on a regular lattice, kept inside the area's outline."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    crowns = []
    y = 9.0
    row = 0
    while y < 100:
        x = 9.0 + (7.0 if row % 2 else 0.0)
        while x < 100:
            if min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys) and point_inside((x, y), poly) \
                    and edge_distance((x, y), poly) > 6:
                crowns.append(f"M{fmt(x - 4)},{fmt(y)}a4,4 0 1,0 8,0a4,4 0 1,0 -8,0")
            x += 14.0
        y += 12.0
        row += 1
    if not crowns:
        return ""
    return element("path", class_="trees", d="".join(crowns), fill="#3f8a3a", stroke="#1f4a1d",
                   stroke_width="1")
