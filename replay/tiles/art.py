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

The shapes are in ``geometry``, the raster in ``raster``; this module assembles a tile's
art (``tile_art``) and its SVG terrain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .geometry import (
    AREA_TYPES,
    CENTRE,
    GROUND_TYPES,
    INWARD,
    LINE_TYPES,
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
from .tileset import TileType

__all__ = ["SIZE", "Point", "TileArt", "art_key", "rotate_point", "tile_art"]


COLOURS = {
    "field": "#8dbb4c", "meadow": "#b8cf68", "city": "#d3ad6f", "wall": "#7b5a2e",
    "forest": "#2f6b2d", "forest-edge": "#1f4a1d", "road": "#f4f0e2", "road-edge": "#7c7a70",
    "river": "#5ba8e8", "river-edge": "#2a6aaa", "lake": "#5ba8e8", "grid": "#57583f",
    "unknown": "#b9b2a3",
}

# Symbols a segment attribute or a tile flag stands for (see icons.ICONS for their drawings).
ATTR_ICONS = ("pennants", "cathedral", "inn", "fish", "gold", "mushrooms", "deer", "mammoth",
              "aurochs", "tiger", "fire", "sacred")
FLAG_ICONS = ("hill", "vineyard", "volcano")


@dataclass(frozen=True, slots=True)
class TileArt:
    """Everything the board needs to draw one tile type, in the canonical orientation."""

    terrain: str  # SVG elements, tile box 0..100
    anchors: tuple[Point, ...]  # per segment: where a figure stands
    icons: tuple[tuple[str, Point], ...]  # (symbol name, centre), upright symbols
    emphasis: tuple[str, ...]  # per segment: SVG elements outlining it (for highlights)


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
            lake_centre[li] = lerp(avg, CENTRE, 0.5)
        else:
            lake_centre[li] = CENTRE
    if len(lakes) > 1 and len(set(lake_centre.values())) < len(lakes):
        for k, li in enumerate(lakes):  # lakes without rivers: spread them out
            lake_centre[li] = offset(CENTRE, (math.cos(k * 2.1), math.sin(k * 2.1)), 20)
    lake_r = (12.0, 9.0) if len(lakes) > 1 else (17.0, 13.0)

    has_cloister = "cloister" in types
    cities = [i for i in range(n) if types[i] == "city"]
    one_sided_roads = [i for i in range(n) if types[i] == "road" and len(line_sides(pos, i)) == 1]

    # area shapes (cities, forests): several on one tile are drawn a little smaller
    area_idx = [i for i in range(n) if types[i] in AREA_TYPES and area_sides(pos, i)]
    shapes: dict[int, Shape] = {}
    for i in area_idx:
        depth = 42.0 if sum(1 for j in area_idx if types[j] == types[i]) == 1 else 38.0
        shapes[i] = area_shape(area_sides(pos, i), depth)
        fill_polygon(grid, shapes[i].poly, i)
    for i in area_idx:
        cells = {k for k, v in enumerate(grid) if v == i}
        anchors[i] = anchor(cells) if cells else centroid(shapes[i].poly)

    # line shapes (roads, rivers)
    lines: dict[int, list[Shape]] = {}
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
                    end = offset(start, INWARD[sides[0]], 30)
                    ends.append(("spring", end))
            elif not has_cloister and len(one_sided_roads) == 1 and cities:
                # a road ending at a city gate runs on under the wall
                end = min((anchors[c] or CENTRE for c in cities), key=lambda p: distance(p, start))
            shapes_i = [line_shape(start, end)]
        else:
            shapes_i = [line_shape(side_mid(s), CENTRE) for s in sides]
        lines[i] = shapes_i
        for sh in shapes_i:
            stroke_line(grid, sh.poly, LINE_HALF_WIDTH, i)
        main = shapes_i[0].poly
        anchors[i] = polyline_point(main, 0.5 if len(sides) != 1 else 0.45)
    stubs: list[Shape] = []
    if not has_cloister and one_sided_roads:
        if len(one_sided_roads) >= 3 or (len(one_sided_roads) == 2 and cities):
            ends.append(("crossing", CENTRE))
        elif not cities:
            icons.append(("house", CENTRE))
        if len(one_sided_roads) == 2 and cities:
            # a crossing between cities: short stubs lead to their gates (IC4: no road there)
            for city in cities:
                stubs.append(line_shape(CENTRE, anchors[city] or CENTRE))
                stroke_line(grid, stubs[-1].poly, LINE_HALF_WIDTH, BLOCKED)

    # centre objects
    for i in range(n):
        t = types[i]
        if t == "cloister":
            fill_disc(grid, CENTRE, 15, 17, i)
            anchors[i] = (50.0, 56.0)
            icons.append(("cloister", CENTRE))
        elif t == "lake":
            c = lake_centre[i]
            fill_disc(grid, c, lake_r[0] + 2, lake_r[1] + 2, i)
            anchors[i] = c

    # ground regions: free cells, split by connectivity, then among fields by nearest side
    regions = ground_regions(grid, tile)
    for i, cells in regions.items():
        anchors[i] = anchor(cells)
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
            emphasis[i] = (f'<ellipse cx="{fmt(c[0])}" cy="{fmt(c[1])}" '
                           f'rx="{fmt(lake_r[0] + 4)}" ry="{fmt(lake_r[1] + 4)}"/>')
        elif i in regions:
            emphasis[i] = f'<path d="{rect_runs(regions[i])}"/>'

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
                p = polyline_point(poly, frac)
                if name == "inn":
                    p = beside(poly, frac, regions)
                icons.append((name, p))
            continue
        cells = regions.get(i) or {k for k, v in enumerate(grid) if v == i}
        spots = free_spots(cells, taken, len(wanted)) if cells else []
        for k, name in enumerate(wanted):
            p = spots[k] if k < len(spots) else offset(final_anchors[i], (10.0 * (k + 1), -8.0))
            icons.append((name, p))
            taken.append(p)
    flags = [f for f in FLAG_ICONS if getattr(tile, f)]
    if flags:
        ground = max(regions, key=lambda i: (len(regions[i]), -i)) if regions else None
        cells = regions[ground] if ground is not None else set(range(GRID * GRID))
        spots = free_spots(cells, taken, len(flags))
        for k, name in enumerate(flags):
            p = spots[k] if k < len(spots) else (14.0 + 18 * k, 86.0)
            icons.append((name, p))
            taken.append(p)

    terrain = _terrain_svg(tile, shapes, lines, lake_centre, lake_r, ends, stubs)
    return TileArt(terrain, final_anchors, tuple(icons), tuple(emphasis))


def _terrain_svg(tile: TileType, shapes: dict[int, Shape], lines: dict[int, list[Shape]],
                 lake_centre: dict[int, Point], lake_r: tuple[float, float],
                 ends: list[tuple[str, Point]], stubs: list[Shape]) -> str:
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
            out.append(f'<circle class="crossing" cx="{fmt(p[0])}" cy="{fmt(p[1])}" r="8" '
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
        out.append(f'<ellipse class="lake" cx="{fmt(c[0])}" cy="{fmt(c[1])}" '
                   f'rx="{fmt(lake_r[0])}" ry="{fmt(lake_r[1])}" fill="{COLOURS["lake"]}" '
                   f'stroke="{COLOURS["river-edge"]}" stroke-width="2.5"/>')
    for kind, p in ends:
        if kind == "spring":
            out.append(f'<circle class="spring" cx="{fmt(p[0])}" cy="{fmt(p[1])}" r="6" '
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
            if min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys) and point_inside((x, y), poly) \
                    and edge_distance((x, y), poly) > 6:
                crowns.append(f"M{fmt(x - 4)},{fmt(y)}a4,4 0 1,0 8,0a4,4 0 1,0 -8,0")
            x += 14.0
        y += 12.0
        row += 1
    if not crowns:
        return ""
    return f'<path class="trees" d="{"".join(crowns)}" fill="#3f8a3a" stroke="#1f4a1d" ' \
           f'stroke-width="1"/>'
