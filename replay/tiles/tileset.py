"""Tile types as data: their segments and their four orientations, precomputed.

Reading, checking and combining tile-set files is ``tiles/sets.py``; this module is compiled
(``replay/native.py``), so the engine reads its objects' fields natively.

A tile's geometry is 12 half-side positions (``POSITIONS``) naming the segment that lies there.
Rotating a tile a quarter turn clockwise moves position i to position i + 3.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.errors import TileSetError
from ..core.values import value_type
from .kinds import FLAGS, SOURCES, SYMBOLS
from .words import describe_tile

POSITIONS = ("NL", "N", "NR", "EL", "E", "ER", "SL", "S", "SR", "WL", "W", "WR")
POSITION_INDEX = {name: i for i, name in enumerate(POSITIONS)}
SIDES = ("N", "E", "S", "W")
SIDE_INDEX = {name: i for i, name in enumerate(SIDES)}
# (dx, dy) of the neighbour across each side; y grows to the south (G1).
SIDE_DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))
ROTATIONS = (0, 90, 180, 270)


def _fitting_keys(edges: str) -> dict[str, tuple[int, ...]]:
    """Frontier key -> the quarter turns (increasing) in which tiles of these edges fit it.

    A turn fits the keys that are its edges with any of the four letters replaced by "." (no
    neighbour there): the 4 x 16 keys listed. Every other key fits no turn: a plain dict
    looked up with ``.get(key, ())`` (a dict subclass with ``__missing__`` costs an
    interpreted call per lookup in the compiled engine)."""
    fits: dict[str, list[int]] = {}
    for q in range(4):
        turned = edges[4 - q:] + edges[:4 - q]  # side s shows edges[(s - q) % 4]
        for mask in range(16):
            key = ""
            for s in range(4):
                key += "." if mask >> s & 1 else turned[s]
            turns = fits.get(key)
            if turns is None:
                fits[key] = [q]
            else:
                turns.append(q)
    return {key: tuple(turns) for key, turns in fits.items()}


# Which rotations fit a frontier key depends on a tile's edges alone: tile types with the same
# edges (in any tile set loaded) share one table.
_FITTING: dict[str, dict[str, tuple[int, ...]]] = {}


def _fit_table(edges: str) -> dict[str, tuple[int, ...]]:
    found = _FITTING.get(edges)
    if found is None:
        found = _FITTING[edges] = _fitting_keys(edges)
    return found


class Segment:
    """A segment of a tile type: its type, its name when it touches no side, the segments it
    touches (by index) and its symbols (``attrs``)."""

    index: int
    id: str
    type: str
    name: str | None
    touches: tuple[int, ...]
    extra_sides: tuple[int, ...]
    attrs: dict[str, int]  # not compared

    def __init__(self, index: int, id: str, type: str, name: str | None,
                 touches: tuple[int, ...], extra_sides: tuple[int, ...],
                 attrs: dict[str, int]) -> None:
        self.index = index
        self.id = id
        self.type = type
        self.name = name
        self.touches = touches
        self.extra_sides = extra_sides
        self.attrs = attrs

    def attr(self, key: str) -> int:
        return self.attrs.get(key, 0)


class Rotated:
    """A tile type in one of its four orientations, with everything a placement needs."""

    rotation: int
    edges: str
    pos: tuple[int, ...]  # segment index at each board position, -1 for none
    side_pairs: tuple[tuple[tuple[int, int], ...], ...]  # per side: (j, segment index)
    side_segs: tuple[tuple[int, ...], ...]  # per side: distinct segments incident there
    side_j: tuple[tuple[tuple[int, ...], ...], ...]  # per side, per position j: segments there
    locations: dict[str, int]  # location name (board frame) -> segment index
    names: tuple[str, ...]  # per segment: its canonical location (``location_name``)

    def __init__(self, rotation: int, edges: str, pos: tuple[int, ...],
                 side_pairs: tuple[tuple[tuple[int, int], ...], ...],
                 side_segs: tuple[tuple[int, ...], ...],
                 side_j: tuple[tuple[tuple[int, ...], ...], ...], locations: dict[str, int],
                 names: tuple[str, ...] = ()) -> None:
        self.rotation = rotation
        self.edges = edges
        self.pos = pos
        self.side_pairs = side_pairs
        self.side_segs = side_segs
        self.side_j = side_j
        self.locations = locations
        self.names = names


class SegmentSeed(NamedTuple):
    """What a new feature of a segment starts with when its tile is placed (precomputed: every
    placement makes one feature per segment)."""

    type: str
    open_sides: int  # the sides it touches: its open ends
    pennants: int
    counts: dict[str, int]  # its symbols (empty for most segments)
    flags: tuple[str, ...]  # "inn", "cathedral"
    touches: tuple[int, ...]  # segments of the tile it borders (fields: cities)
    cloister: bool  # completes by its neighbours (G7)


class TileType:
    """A kind of tile: how many the set holds, its edges and segments, its flags and its
    four orientations (``rotations``)."""

    id: str
    count: int
    edges: str
    segments: tuple[Segment, ...]
    start: bool
    bonus: bool
    hill: bool  # read by the engine at each figure: kept apart from ``flags`` too
    vineyard: bool
    flags: tuple[str, ...]  # the tile's flags (``kinds.FLAGS``: hill, vineyard, a family's)
    rotations: tuple[Rotated, ...]
    order: int  # index in the combined tile set, for deterministic sorting
    open_sides: tuple[int, ...]  # per segment: how many sides it touches (its open ends)
    # the rest is worked out from the above, and neither compared nor shown:
    # frontier key -> the turns that fit it, for the keys that some turn fits (``fits``)
    fitting: dict[str, tuple[int, ...]]
    seeds: tuple[SegmentSeed, ...]  # per segment
    _words: str | None  # ``words``, once asked for
    cloister_segs: tuple[int, ...]  # G7

    def __init__(self, id: str, count: int, edges: str, segments: tuple[Segment, ...],
                 start: bool, bonus: bool, hill: bool, vineyard: bool, flags: tuple[str, ...],
                 rotations: tuple[Rotated, ...], order: int, open_sides: tuple[int, ...],
                 fitting: dict[str, tuple[int, ...]], seeds: tuple[SegmentSeed, ...],
                 words: str | None = None, cloister_segs: tuple[int, ...] = ()) -> None:
        self.id = id
        self.count = count
        self.edges = edges
        self.segments = segments
        self.start = start
        self.bonus = bonus
        self.hill = hill
        self.vineyard = vineyard
        self.flags = flags
        self.rotations = rotations
        self.order = order
        self.open_sides = open_sides
        self.fitting = fitting
        self.seeds = seeds
        self._words = words
        self.cloister_segs = cloister_segs

    @property
    def words(self) -> str:
        """The tile in a few words, for people (``words.describe_tile``): worked out when
        first asked for (a verification that goes well never asks; 1.4M instructions of a
        start for the 24 base tiles)."""
        words = self._words
        if words is None:
            words = describe_tile(self.segments, self.open_sides, self.edges, hill=self.hill,
                                  flags=tuple(f for f in self.flags if f != "hill"))
            object.__setattr__(self, "_words", words)  # (a value's field is set once)
        return words

    def fits(self, key: str) -> tuple[int, ...]:
        """Quarter turns in which this tile fits a cell whose neighbours demand ``key``
        (one letter per side, "." where the cell has no neighbour)."""
        return self.fitting.get(key, ())

    def has_cloister(self) -> bool:
        return any(s.type == "cloister" for s in self.segments)


class TileSet:
    """A checked tile set: its tile types, the game it is for and the digest a log records."""

    id: str
    name: str
    game: str
    reconstruction: bool
    tiles: tuple[TileType, ...]
    digest: str  # sha256 of the canonical JSON of the source file(s)

    def __init__(self, id: str, name: str, game: str, reconstruction: bool,
                 tiles: tuple[TileType, ...], digest: str) -> None:
        self.id = id
        self.name = name
        self.game = game
        self.reconstruction = reconstruction
        self.tiles = tiles
        self.digest = digest

    def by_id(self) -> dict[str, TileType]:
        return {t.id: t for t in self.tiles}


_COMPARED = "id count edges segments start bonus hill vineyard flags rotations order open_sides"
value_type(Segment, "index id type name touches extra_sides attrs",
           compare="index id type name touches extra_sides")
value_type(Rotated, "rotation edges pos side_pairs side_segs side_j locations names")
value_type(TileType, f"{_COMPARED} fitting seeds words cloister_segs", compare=_COMPARED,
           show=_COMPARED)
value_type(TileSet, "id name game reconstruction tiles digest")


def _rotate(t_pos: list[int], segments: list[Segment], edges: str, quarter: int) -> Rotated:
    pos = tuple(t_pos[(b - 3 * quarter) % 12] for b in range(12))
    rot_edges = "".join(edges[(s - quarter) % 4] for s in range(4))
    side_pairs: list[tuple[tuple[int, int], ...]] = []
    side_segs: list[tuple[int, ...]] = []
    for s in range(4):
        pairs = [(j, pos[3 * s + j]) for j in range(3) if pos[3 * s + j] >= 0]
        for seg in segments:
            for extra in seg.extra_sides:
                if (extra + quarter) % 4 == s:
                    pairs.append((1, seg.index))
        side_pairs.append(tuple(pairs))
        distinct: list[int] = []
        for _, idx in pairs:
            if idx not in distinct:
                distinct.append(idx)
        side_segs.append(tuple(distinct))
    side_j = tuple(
        tuple(tuple(idx for jj, idx in side_pairs[s] if jj == j) for j in range(3))
        for s in range(4)
    )
    locations = {POSITIONS[b]: pos[b] for b in range(12) if pos[b] >= 0}
    for seg in segments:
        if seg.name:
            locations[seg.name] = seg.index
    names = tuple(_location_name(pos, locations, seg.index) for seg in segments)
    return Rotated(90 * quarter, rot_edges, pos, tuple(side_pairs), tuple(side_segs), side_j,
                   locations, names)


def location_name(rot: Rotated, seg_index: int) -> str:
    """The canonical location of a segment: its first board position, else its name."""
    return _location_name(rot.pos, rot.locations, seg_index)


def _location_name(pos: tuple[int, ...], locations: dict[str, int], seg_index: int) -> str:
    for b in range(12):
        if pos[b] == seg_index:
            return POSITIONS[b]
    for name, idx in locations.items():
        if idx == seg_index and name not in POSITIONS:
            return str(name)
    for name, idx in locations.items():
        if idx == seg_index:
            return str(name)
    raise ValueError("segment without a location")


def _segments(raw: dict[str, Any], where: str) -> tuple[list[Segment], dict[str, int]]:
    """The segments of a tile document, and the index of each segment id."""
    seg_ids = [s["id"] for s in raw["segments"]]
    if len(set(seg_ids)) != len(seg_ids):
        raise TileSetError(f"{where}: duplicate segment id")
    index = {sid: i for i, sid in enumerate(seg_ids)}
    segments: list[Segment] = []
    for i, s in enumerate(raw["segments"]):
        for ref in s.get("touches", []):
            if ref not in index:
                raise TileSetError(f"{where}/segments/{i}: touches unknown segment {ref!r}")
        # its symbols and sources (``kinds``), as counts (present: 1)
        attrs = {k: int(s[k]) for k in (*SYMBOLS, *SOURCES) if s.get(k)}
        segments.append(Segment(
            index=i, id=s["id"], type=s["type"], name=s.get("name"),
            touches=tuple(index[r] for r in s.get("touches", [])),
            extra_sides=tuple(SIDE_INDEX[x] for x in s.get("extra_sides", [])),
            attrs=attrs,
        ))
    return segments, index


def _positions(raw: dict[str, Any], index: dict[str, int], where: str) -> list[int]:
    """The segment at each of the 12 half-side positions (-1: none)."""
    t_pos: list[int] = []
    for k, p in enumerate(raw["positions"]):
        if p is None:
            t_pos.append(-1)
        elif p in index:
            t_pos.append(index[p])
        else:
            raise TileSetError(f"{where}/positions/{k}: unknown segment {p!r}")
    return t_pos


def _check_locations(segments: list[Segment], t_pos: list[int], where: str) -> None:
    """A segment touches a side or has a name (not both); names are unique."""
    on_edge = {p for p in t_pos if p >= 0} | {s.index for s in segments if s.extra_sides}
    for s in segments:
        if s.index not in on_edge and not s.name:
            raise TileSetError(f"{where}: segment {s.id!r} touches no side and has no name")
        if s.index in on_edge and s.name:
            raise TileSetError(f"{where}: segment {s.id!r} touches a side, so it takes no name")
    names = [s.name for s in segments if s.name]
    if len(set(names)) != len(names):
        raise TileSetError(f"{where}: two segments share a location name")


def _build_tile(raw: dict[str, Any], order: int, where: str) -> TileType:
    segments, index = _segments(raw, where)
    t_pos = _positions(raw, index, where)
    _check_locations(segments, t_pos, where)
    rotations = tuple(_rotate(t_pos, segments, raw["edges"], q) for q in range(4))
    open_sides = tuple(sum(1 for side in range(4) if seg.index in rotations[0].side_segs[side])
                       for seg in segments)
    return TileType(
        id=raw["id"], count=raw["count"], edges=raw["edges"], segments=tuple(segments),
        start=bool(raw.get("start")), bonus=bool(raw.get("bonus")), hill=bool(raw.get("hill")),
        vineyard=bool(raw.get("vineyard")), flags=tuple(f for f in FLAGS if raw.get(f)),
        rotations=rotations, order=order, open_sides=open_sides,
        fitting=_fit_table(raw["edges"]),
        seeds=tuple(SegmentSeed(seg.type, open_sides[seg.index], seg.attr("pennants"),
                                dict(seg.attrs),
                                tuple(f for f in ("inn", "cathedral") if seg.attr(f)),
                                seg.touches, seg.type == "cloister")
                    for seg in segments),
        cloister_segs=tuple(seg.index for seg in segments if seg.type == "cloister"),
    )


def build_tiles(data: Any, label: str) -> tuple[TileType, ...]:
    """The tile types of a tile-set document the schema accepts, checked for what the schema
    cannot say (unique ids, segments that exist, locations); the family it is for has told the
    tile layer its symbols, attributes and flags (``kinds``) already."""
    ids = [t["id"] for t in data["tiles"]]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise TileSetError(f"{label}: duplicate tile ids {dupes}")
    return tuple(
        _build_tile(t, k, f"{label}: /tiles/{k}") for k, t in enumerate(data["tiles"])
    )


def reordered(t: TileType, order: int) -> TileType:
    """``t`` at place ``order`` of a combined tile set."""
    return TileType(
        id=t.id, count=t.count, edges=t.edges, segments=t.segments, start=t.start,
        bonus=t.bonus, hill=t.hill, vineyard=t.vineyard, flags=t.flags,
        rotations=t.rotations, order=order, open_sides=t.open_sides, fitting=t.fitting,
        seeds=t.seeds, words=t._words, cloister_segs=t.cloister_segs,
    )
