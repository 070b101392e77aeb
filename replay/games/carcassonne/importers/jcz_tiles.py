"""JCloisterZone tiles and meeple locations: tile ids to project ids, location masks to ``at``.

Every tile of the project's tile sets names its JCloisterZone id in ``source``
("JCloisterZone BA/RCr"); 4.x ids write the first "/" as "." (``BA.RCr``). A JCZ ``Location``
is a bit mask in the board frame written as atom names joined with "." (``NL.NR.EL.WR``,
``NWSE``, ``_N``, ``I``); it becomes one board-frame half-side of the placed tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ....core.events import article
from ....tiles.sets import builtin_tileset
from ....tiles.tileset import POSITIONS, SIDES, Rotated, TileType, location_name

# project tile set -> the log's expansion name ("" for the base game)
TILESETS = {"base-1e": "", "inns-cathedrals": "inns-cathedrals", "hills-sheep": "hills-sheep"}

# JCZ tile-id prefixes of the sets the project lacks, for the refusal message
FOREIGN_PREFIXES = {
    "AM": "Abbey & Mayor", "TB": "Traders & Builders", "PD": "Princess & Dragon",
    "TO": "The Tower", "CO": "Count, King & Robber", "KC": "Count, King & Robber",
    "BR": "Bridges, Castles & Bazaars", "BCB": "Bridges, Castles & Bazaars",
    "CA": "The Catapult", "CG": "Cult, Siege & Creativity", "GQ": "Games Quarterly",
    "WR": "Wind Roses", "MO": "Monasteries", "FL": "Flying Machines",
    "DB": "Darmstadt", "LB": "Little Buildings", "GA": "Garden tiles", "RI": "The River",
    "R1": "The River", "R2": "The River II",
}

FIELD_ATOMS = {"NL": 0, "NR": 2, "EL": 3, "ER": 5, "SL": 6, "SR": 8, "WL": 9, "WR": 11}
# JCZ names of side unions: every union of the four sides has one
SIDE_NAMES = {
    "N": "N", "E": "E", "S": "S", "W": "W", "NE": "NE", "SE": "SE", "SW": "SW", "NW": "NW",
    "NS": "NS", "WE": "WE", "NWSE": "NESW", "_N": "ESW", "_E": "NSW", "_S": "NEW", "_W": "NES",
}
FEATURE_TYPES = {"City": "city", "Road": "road", "Field": "field", "Monastery": "cloister",
                 "Cloister": "cloister"}
INNER = {"CLOISTER": "cloister", "INNER_FARM": "inner-field"}


@dataclass(frozen=True)
class JczTile:
    """A JCZ tile id resolved: the project tile type and the expansion it belongs to."""

    jcz_id: str
    tile: TileType
    expansion: str  # "" for the base game


@cache
def tile_map() -> dict[str, JczTile]:
    """JCZ tile id (5.x form, ``BA/RCr``) -> the project's tile, from the tile sets' ``source``."""
    out: dict[str, JczTile] = {}
    for set_id, expansion in TILESETS.items():
        raw = _sources(set_id)  # `source` is not kept on TileType: read it from the file
        for t in builtin_tileset(set_id).tiles:
            src = raw[t.id]
            if src.startswith("JCloisterZone "):
                jid = src.removeprefix("JCloisterZone ").strip()
                out[jid] = JczTile(jid, t, expansion)
    return out


def _sources(set_id: str) -> dict[str, str]:
    import json
    import os

    from ....tiles.sets import DATA_DIR

    with open(os.path.join(DATA_DIR, f"{set_id}.json"), encoding="utf-8") as f:
        data = json.loads(f.read())
    return {t["id"]: str(t.get("source", "")) for t in data["tiles"]}


def normalise_id(raw: str, old: bool) -> str:
    """A 4.x id (``BA.CFc.1``) in 5.x form (``BA/CFc.1``): only the first "." becomes "/"."""
    return raw.replace(".", "/", 1) if old and "/" not in raw else raw


def foreign_set(jcz_id: str) -> str | None:
    """The expansion a JCZ tile id belongs to when the project lacks it (by its prefix)."""
    prefix = jcz_id.replace(".", "/", 1).split("/", 1)[0]
    return FOREIGN_PREFIXES.get(prefix)


class MaskError(ValueError):
    """A location mask that names no segment, two segments, or a segment of the wrong kind."""


def location_at(tile: TileType, rotation: int, mask: str, feature: str | None) -> str:
    """The board-frame ``at`` of the segment a JCZ location ``mask`` names on ``tile`` placed
    with ``rotation`` degrees clockwise; ``feature`` is the 5.x pointer feature (or None).

    Raises ``MaskError`` when the mask names no segment, two segments, or a segment whose type
    is not the one ``feature`` says."""
    rot = tile.rotations[(rotation // 90) % 4]
    want = None
    if feature is not None:
        want = FEATURE_TYPES.get(feature)
        if want is None:
            raise MaskError(f"feature {feature!r} belongs to no supported expansion")
    atoms = [a for a in mask.split(".") if a] if isinstance(mask, str) else []
    if not atoms:
        raise MaskError(f"location {mask!r} names nothing")
    if len(atoms) == 1 and (atoms[0] in INNER or atoms[0] == "I"):
        return _inner(tile, rot.locations, atoms[0], want, mask)
    segs, allowed = _edge_segments(tile, rot, atoms, mask)
    if -1 in segs or not segs:
        raise MaskError(f"location {mask!r} names no segment of tile {tile.id}")
    if len(segs) > 1:
        raise MaskError(f"location {mask!r} spans two segments of tile {tile.id}")
    seg = tile.segments[segs.pop()]
    if seg.type not in allowed or (want is not None and seg.type != want):
        raise MaskError(f"location {mask!r} is {article(seg.type)} of tile {tile.id}, not "
                        f"{want or ' or '.join(sorted(allowed))}")
    return location_name(rot, seg.index)


def _edge_segments(tile: TileType, rot: Rotated, atoms: list[str],
                   mask: str) -> tuple[set[int], set[str]]:
    """The segments a mask of field halves or of sides names, and the types it may name."""
    fields = [a for a in atoms if a in FIELD_ATOMS]
    sides = [a for a in atoms if a in SIDE_NAMES]
    unknown = [a for a in atoms if a not in FIELD_ATOMS and a not in SIDE_NAMES]
    if unknown:
        raise MaskError(f"location {mask!r}: {unknown[0]!r} is no location of the base game, "
                        "Inns & Cathedrals or Hills & Sheep")
    if fields and sides:
        raise MaskError(f"location {mask!r} mixes field halves and sides (two segments)")
    if fields:
        return {rot.pos[FIELD_ATOMS[a]] for a in fields}, {"field"}
    letters = "".join(SIDE_NAMES[a] for a in sides)
    segs_per_side = [{i for i in rot.side_segs[SIDES.index(s)]
                      if tile.segments[i].type in ("city", "road")} for s in letters]
    common = set.intersection(*segs_per_side)
    # a side is named by its middle position; fall back on it when it alone is common
    mids = {rot.pos[1 + 3 * SIDES.index(s)] for s in letters}
    return (common if len(common) == 1 else mids), {"city", "road"}


def _inner(tile: TileType, locations: dict[str, int], atom: str, want: str | None,
           mask: str) -> str:
    if atom in INNER:
        name = INNER[atom]
    elif want == "cloister":
        name = "cloister"
    elif want == "field":
        name = "inner-field"
    else:
        named = [n for n in locations if n not in POSITIONS]
        if len(named) != 1:
            raise MaskError(f"location {mask!r} names no single inner segment of tile {tile.id}")
        name = named[0]
    if name not in locations:
        raise MaskError(f"location {mask!r}: tile {tile.id} has no {name}")
    seg = tile.segments[locations[name]]
    if want is not None and seg.type != want:
        raise MaskError(f"location {mask!r} is {article(seg.type)} of tile {tile.id}, not "
                        f"{want}")
    return name
