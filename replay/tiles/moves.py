"""Moves of the tile-laying families: a tile placed (or discarded), maybe with a figure.

A family's move class extends ``TileMove`` with its own fields (flock choices, a bonus tile,
...). ``decode_tile_move``/``encode_tile_move`` read and write the fields every tile-laying log
shares; ``placement_surely_valid`` is the shared part of the fast schema check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.json_input import plain_int, short_text
from ..core.values import write_once

ROTATIONS = (0, 90, 180, 270)


@dataclass(slots=True, unsafe_hash=True)
class FigureChoice:
    """A figure put on the tile just placed: its kind and the location (half-side or name).
    Immutable (``core.values.write_once``)."""

    kind: str
    location: str

    def __init__(self, kind: str, location: str) -> None:
        self.kind = kind
        self.location = location


@dataclass(slots=True, unsafe_hash=True)
class TileMove:
    """A tile put at ``(x, y)`` turned ``rotation`` degrees clockwise, maybe with a figure.

    ``tile`` is required in table logs (no seed) and checked in seeded ones; ``discard`` says a
    table log's tile could not be placed anywhere (G5). Immutable (``core.values.write_once``;
    a subclass's ``__init__`` sets its own fields after calling this one)."""

    x: int = 0
    y: int = 0
    rotation: int = 0
    tile: str | None = None
    figure: FigureChoice | None = None
    discard: bool = False

    def __init__(self, x: int = 0, y: int = 0, rotation: int = 0, tile: str | None = None,
                 figure: FigureChoice | None = None, discard: bool = False) -> None:
        self.x = x
        self.y = y
        self.rotation = rotation
        self.tile = tile
        self.figure = figure
        self.discard = discard


write_once(FigureChoice)
write_once(TileMove)


TileFields = tuple[int, int, int, str | None, FigureChoice | None, bool]


def tile_fields(m: Mapping[str, Any]) -> TileFields:
    """The shared fields of a schema-valid move object, as the first arguments of a move:
    x, y, rotation, tile, figure, discard."""
    fig = m.get("figure")
    return (m.get("x", 0), m.get("y", 0), m.get("rotation", 0), m.get("tile"),
            None if fig is None else FigureChoice(fig.get("kind", "follower"), fig["at"]),
            "discard" in m)


def encode_tile_move(move: TileMove) -> dict[str, Any]:
    """The shared fields of a move as a log records them."""
    out: dict[str, Any] = {}
    if move.tile is not None:
        out["tile"] = move.tile
    if move.discard:
        out["discard"] = True
        return out
    out.update(x=move.x, y=move.y, rotation=move.rotation)
    if move.figure is not None:
        out["figure"] = ({"at": move.figure.location} if move.figure.kind == "follower"
                         else {"kind": move.figure.kind, "at": move.figure.location})
    return out


def placement_surely_valid(m: Mapping[str, Any], figure_kinds: frozenset[str]) -> bool:
    """x, y, rotation, tile and figure of a move object as the schema accepts them."""
    if not (plain_int(m.get("x"), -1000, 1000) and plain_int(m.get("y"), -1000, 1000)):
        return False
    if m.get("rotation") not in ROTATIONS or type(m["rotation"]) is not int:
        return False
    if "tile" in m and not short_text(m["tile"]):
        return False
    if "figure" in m:
        fig = m["figure"]
        if (type(fig) is not dict or not {"kind", "at"}.issuperset(fig)
                or not short_text(fig.get("at"))):
            return False
        if "kind" in fig and (type(fig["kind"]) is not str or fig["kind"] not in figure_kinds):
            return False
    return True
