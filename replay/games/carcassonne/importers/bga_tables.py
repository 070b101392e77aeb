"""Board Game Arena Carcassonne numbering: tile types and ids, rotations, spots, colours.

Taken from ``docs/reference/import-formats.md`` §2.3-§2.5 (re-derived there from the
public ``Koki-Yamaguchi/carcassonne-ai`` decoder). Everything here is data plus small lookups;
the reading itself is in ``bga``.
"""

from __future__ import annotations

from functools import cache

from ....tiles.sets import builtin_tileset
from ....tiles.tileset import TileType

# BGA tile type (1-24) -> (project letter, first BGA tile id, last BGA tile id).
TYPES: dict[int, tuple[str, int, int]] = {
    1: ("T", 1, 1), 2: ("S", 2, 3), 3: ("N", 4, 6), 4: ("M", 7, 8), 5: ("P", 9, 11),
    6: ("O", 12, 13), 7: ("G", 14, 14), 8: ("F", 15, 16), 9: ("I", 17, 18), 10: ("H", 19, 21),
    11: ("E", 22, 26), 12: ("K", 27, 29), 13: ("J", 30, 32), 14: ("L", 33, 35),
    15: ("D", 36, 39), 16: ("U", 40, 47), 17: ("V", 48, 56), 18: ("W", 57, 60),
    19: ("X", 61, 61), 20: ("B", 62, 65), 21: ("A", 66, 67), 22: ("C", 68, 68),
    23: ("R", 69, 71), 24: ("Q", 72, 72),
}

START_ID = 36
"""The start tile (D at (0,0), unrotated); BGA never notifies it."""

ROTATION_OFFSET = {16: 90}
"""BGA draws type 16 (U) north-south; the project's U runs west-east."""

HALF_SIDES = ("NL", "N", "NR", "EL", "E", "ER", "SL", "S", "SR", "WL", "W", "WR")

# Spot kinds: r road, c city, f field, m cloister; and the partisan ``type`` each one takes.
KIND_OF_TARGET = {"road": "r", "city": "c", "field": "f", "abbey": "m"}
SEGMENT_OF_KIND = {"r": "road", "c": "city", "f": "field", "m": "cloister"}

_SPOTS_BY_LETTERS: dict[str, str] = {
    "TS": "1 S r, 2 N c, 3 SR f, 4 SL f",
    "NMERQ": "1 N c, 2 S f",
    "PO": "1 E r, 2 N c, 3 EL f, 4 ER f",
    "GF": "1 E c, 2 N f, 3 S f",
    "I": "1 N c, 2 W c, 3 S f",
    "H": "1 N c, 2 S c, 3 E f",
    "K": "1 S r, 2 N c, 3 E f, 4 SR f",
    "J": "1 E r, 2 N c, 3 W f, 4 ER f",
    "L": "1 W r, 2 E r, 3 S r, 4 N c, 5 EL f, 6 SR f, 7 ER f",
    "D": "1 E r, 2 N c, 3 EL f, 4 S f",
    "U": "1 N r, 3 W f, 4 E f",
    "V": "1 S r, 2 N f, 3 SR f",
    "W": "1 W r, 2 E r, 3 S r, 4 N f, 5 SR f, 6 ER f",
    "X": "1 W r, 2 E r, 3 S r, 4 N r, 5 NL f, 6 NR f, 7 ER f, 8 SR f",
    "B": "1 m, 2 N f",
    "A": "1 m, 2 S r, 3 N f",
    "C": "1 N c",
}


def _spots() -> dict[str, dict[int, tuple[str | None, str]]]:
    table: dict[str, dict[int, tuple[str | None, str]]] = {}
    for letters, text in _SPOTS_BY_LETTERS.items():
        spots: dict[int, tuple[str | None, str]] = {}
        for item in text.split(", "):
            parts = item.split()
            if len(parts) == 2:  # a cloister: no half-side
                spots[int(parts[0])] = (None, parts[1])
            else:
                spots[int(parts[0])] = (parts[1], parts[2])
        for letter in letters:
            table[letter] = spots
    return table


SPOTS = _spots()
"""Project letter -> BGA spot (``pos``) -> (half-side as BGA draws the tile at ori 1, or None
for the cloister; kind r/c/f/m)."""

COLOURS = {"ff0000": "red", "0000ff": "blue", "008000": "green", "000000": "black"}
"""BGA player colours (hex) the project has; others are omitted."""


def letter_of_id(tile_id: int) -> tuple[int, str] | None:
    """The (BGA type, project letter) of a BGA tile id, or None for an unknown id."""
    for bga_type, (letter, first, last) in TYPES.items():
        if first <= tile_id <= last:
            return bga_type, letter
    return None


def rotation(bga_type: int, ori: int) -> int:
    """The project rotation (clockwise degrees) of a tile of ``bga_type`` at BGA ``ori`` 1-4."""
    return (ROTATION_OFFSET.get(bga_type, 0) + 90 * (ori - 1)) % 360


def spot_at(letter: str, pos: int, ori: int) -> tuple[str, str] | None:
    """Where BGA spot ``pos`` of a tile at ``ori`` lies on the board: (``figure.at``, kind), or
    None when the tile has no such spot. The +90° of type 16 is *not* added here (§2.4)."""
    spot = SPOTS.get(letter, {}).get(pos)
    if spot is None:
        return None
    half, kind = spot
    if half is None:
        return "cloister", kind
    return HALF_SIDES[(HALF_SIDES.index(half) + 3 * (ori - 1)) % 12], kind


@cache
def tiles() -> dict[str, TileType]:
    """The base tile set by letter."""
    return builtin_tileset("base-1e").by_id()


def segment_type(letter: str, rotation_deg: int, at: str) -> str | None:
    """The type (city, road, field, cloister) of the segment at ``at`` of tile ``letter``
    lying at ``rotation_deg``, from the project's tile set; None when there is none."""
    tile = tiles()[letter]
    seg = tile.rotations[rotation_deg // 90].locations.get(at)
    if seg is None and at == "cloister":
        seg = next((s.index for s in tile.segments if s.type == "cloister"), None)
    return None if seg is None else tile.segments[seg].type


def pile_size() -> int:
    """Tiles in the draw pile of a base game (the set without the start tile)."""
    return sum(t.count for t in tiles().values()) - 1
