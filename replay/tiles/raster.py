"""The tile's shapes rasterised on a coarse grid, to place figures and symbols.

Every cell of a ``GRID`` x ``GRID`` raster of the tile box holds the segment drawn over it, or
``FREE`` or ``BLOCKED``. From it come, for every segment, a point inside it where a figure stands
(``anchor``) and free spots for its symbols (``free_spots``, ``beside``): fields are the cells
left free, split into connected regions by the lines and areas (roads, cities...)
(``ground_regions``).
"""

from __future__ import annotations

import math
from collections import deque

from .geometry import (
    CENTRE,
    INWARD,
    SIZE,
    Point,
    distance,
    fmt,
    lerp,
    offset,
    polyline_point,
    position_point,
)
from .kinds import GROUND_TYPES
from .tileset import TileType

GRID = 20  # raster cells per side
CELL = SIZE / GRID
LINE_HALF_WIDTH = 5.5  # blocking half-width of lines (roads...) on the raster
FREE = -1  # cell value: nothing drawn here
BLOCKED = -2  # cell value: drawn over, but by no segment (road stubs)


def _cell_centre(i: int) -> Point:
    r, c = divmod(i, GRID)
    return ((c + 0.5) * CELL, (r + 0.5) * CELL)


def _cell_of(p: Point) -> int:
    c = min(GRID - 1, max(0, int(p[0] / CELL)))
    r = min(GRID - 1, max(0, int(p[1] / CELL)))
    return r * GRID + c


def fill_polygon(grid: list[int], poly: list[Point], value: int) -> None:
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


def stroke_line(grid: list[int], poly: list[Point], half: float, value: int) -> None:
    reach = int(half / CELL) + 1
    for a, b in zip(poly, poly[1:], strict=False):
        steps = max(1, int(distance(a, b)))
        for k in range(steps + 1):
            p = lerp(a, b, k / steps)
            r0, c0 = int(p[1] / CELL), int(p[0] / CELL)
            for r in range(r0 - reach, r0 + reach + 1):
                for c in range(c0 - reach, c0 + reach + 1):
                    if 0 <= r < GRID and 0 <= c < GRID and grid[r * GRID + c] == FREE:
                        q = ((c + 0.5) * CELL, (r + 0.5) * CELL)
                        if distance(p, q) <= half:
                            grid[r * GRID + c] = value


def fill_disc(grid: list[int], centre: Point, rx: float, ry: float, value: int) -> None:
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


def anchor(cells: set[int]) -> Point:
    """The deepest point of a region, nearest its centroid among equals."""
    dist = _clearance(cells)
    pts = [_cell_centre(i) for i in cells]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    best = max(cells, key=lambda i: (min(dist[i], 3), -distance(_cell_centre(i), (cx, cy)), -i))
    return _cell_centre(best)


def free_spots(cells: set[int], taken: list[Point], count: int, gap: float = 15.0) -> list[Point]:
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
            near = min((distance(p, q) for q in taken + out), default=SIZE)
            key = min(near, 24.0) + 5.0 * min(dist[i], 5) - 0.02 * distance(p, CENTRE)
            if best is None or key > best[0] or (key == best[0] and i < best[1]):
                best = (key, i)
        if best is None:
            break
        p = _cell_centre(best[1])
        if min((distance(p, q) for q in taken + out), default=SIZE) < gap * 0.6 and out:
            break
        out.append(p)
    return out


def rect_runs(cells: set[int]) -> str:
    """A region as horizontal runs of raster cells (used to emphasize fields)."""
    parts = []
    for r in range(GRID):
        c = 0
        while c < GRID:
            if r * GRID + c in cells:
                start = c
                while c < GRID and r * GRID + c in cells:
                    c += 1
                parts.append(f"M{fmt(start * CELL)},{fmt(r * CELL)}h{fmt((c - start) * CELL)}"
                             f"v{fmt(CELL)}h{fmt(-(c - start) * CELL)}z")
            else:
                c += 1
    return "".join(parts)


def beside(poly: list[Point], t: float, regions: dict[int, set[int]]) -> Point:
    """A point next to a line, on the side where a ground region (a field) lies."""
    ground = set().union(*regions.values()) if regions else set()
    for tt in (t, 0.3, 0.7, 0.15, 0.85):
        p = polyline_point(poly, tt)
        q = polyline_point(poly, min(1.0, tt + 0.05))
        dx, dy = q[0] - p[0], q[1] - p[1]
        norm = math.hypot(dx, dy) or 1.0
        for sign in (1, -1):
            c = (p[0] - sign * dy / norm * 14, p[1] + sign * dx / norm * 14)
            if 8 <= c[0] <= 92 and 8 <= c[1] <= 92 and _cell_of(c) in ground:
                return c
    return offset(polyline_point(poly, t), (7.0, -9.0))


def ground_regions(grid: list[int], tile: TileType) -> dict[int, set[int]]:
    """The grid cells of each ground segment (a field...): the free cells, split into
    connected regions, each region given to the segment whose sides reach it (among several,
    by distance from their sides)."""
    ground = [s.index for s in tile.segments if s.type in GROUND_TYPES]
    if not ground:
        return {}
    comp, comps = _free_components(grid)
    seeds = _ground_seeds(grid, tile, ground)
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
        elif len(gs) == 1:
            for cell in members:
                owner[cell] = gs[0]
        else:
            _split_region(owner, set(members),
                          [(c, g) for g in gs for c in seeds[g] if comp[c] == k])
    regions: dict[int, set[int]] = {}
    for cell, g in owner.items():
        regions.setdefault(g, set()).add(cell)
    return regions


def _free_components(grid: list[int]) -> tuple[list[int], list[list[int]]]:
    """The connected components of the free cells: each cell's component (-1: not free) and
    the cells of each."""
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
    return comp, comps


def _ground_seeds(grid: list[int], tile: TileType, ground: list[int]) -> dict[int, list[int]]:
    """Per ground segment: the free cell nearest each of its half-side positions."""
    pos = tile.rotations[0].pos
    seeds: dict[int, list[int]] = {g: [] for g in ground}
    for b in range(12):
        g = pos[b]
        if g < 0 or g not in seeds:
            continue
        p = offset(position_point(b), INWARD[b // 3], CELL * 0.5)
        cell = _nearest_free(grid, _cell_of(p))
        if cell is not None:
            seeds[g].append(cell)
    return seeds


def _split_region(owner: dict[int, int], member_set: set[int],
                  starts: list[tuple[int, int]]) -> None:
    """Several fields in one free region (a wall drawn simpler than the real tile): split it
    by distance from their sides (multi-source breadth-first search from ``starts``, the seed
    cells of the fields in the region with their field)."""
    queue: deque[int] = deque()
    for cell, g in starts:
        if cell not in owner:
            owner[cell] = g
            queue.append(cell)
    while queue:
        j = queue.popleft()
        for nb in _neighbours(j):
            if nb in member_set and nb not in owner:
                owner[nb] = owner[j]
                queue.append(nb)


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
