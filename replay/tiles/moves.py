"""Moves of the tile-laying families: a tile placed (or discarded), maybe with a figure.

A family's move class extends ``TileMove`` with its own fields (flock choices, a bonus tile,
...). ``tile_fields``/``encode_tile_move`` read and write the fields every tile-laying log
shares; ``plain_fields`` is the shared part of the fast schema check (and of the fast
readers of moves).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core.scan import scores_object
from ..core.values import value_type

ROTATIONS = (0, 90, 180, 270)


class FigureChoice:
    """A figure put on the tile just placed: its kind and the location (half-side or name).
    A value (``core.values.value_type``)."""

    kind: str
    location: str

    def __init__(self, kind: str, location: str) -> None:
        self.kind = kind
        self.location = location


class TileMove:
    """A tile put at ``(x, y)`` turned ``rotation`` degrees clockwise, maybe with a figure.

    ``tile`` is required in table logs (no seed) and checked in seeded ones; ``discard`` says a
    table log's tile could not be placed anywhere (G5). A value (``core.values.value_type``;
    a subclass's ``__init__`` sets its own fields after calling this one)."""

    x: int
    y: int
    rotation: int
    tile: str | None
    figure: FigureChoice | None
    discard: bool

    def __init__(self, x: int = 0, y: int = 0, rotation: int = 0, tile: str | None = None,
                 figure: FigureChoice | None = None, discard: bool = False) -> None:
        self.x = x
        self.y = y
        self.rotation = rotation
        self.tile = tile
        self.figure = figure
        self.discard = discard


value_type(FigureChoice)
value_type(TileMove)  # a subclass's fields go after these


TileFields = tuple[int, int, int, str | None, FigureChoice | None, bool]


def tile_fields(m: Mapping[str, Any]) -> TileFields:
    """The shared fields of a schema-valid move object, as the first arguments of a move:
    x, y, rotation, tile, figure, discard."""
    # a dict (always, from JSON) is read with its own methods: compiled, no lookup per field
    d: dict[str, Any] = m if type(m) is dict else dict(m)
    fig = d.get("figure")
    return (d.get("x", 0), d.get("y", 0), d.get("rotation", 0), d.get("tile"),
            None if fig is None else FigureChoice(fig.get("kind", "follower"), fig["at"]),
            "discard" in d)


def plain_fields(raw: Any, fields: frozenset[str],
                 figure_kinds: frozenset[str]) -> TileFields | None:
    """``tile_fields`` of a move object that has no field but ``fields`` (no discard) and that
    the schema surely accepts, scores claim included; None for any other."""
    if type(raw) is not dict:
        return None
    m: dict[str, Any] = raw
    for key in m:  # (``fields.issuperset(m)`` makes a set of the keys first)
        if key not in fields:
            return None
    if "discard" in m or ("scores" in m and not scores_object(m["scores"])):
        return None
    return placement_fields(m, figure_kinds)


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


_FIGURE_FIELDS: Final = frozenset({"kind", "at"})


def placement_fields(m: dict[str, Any], figure_kinds: frozenset[str]) -> TileFields | None:
    """``tile_fields`` of a move object (no discard) whose x, y, rotation, tile and figure
    the schema accepts; None when it may not.

    ``json_input.plain_int`` and ``short_text``, written out: this runs on every move read,
    and a call from the compiled module into the interpreted one costs more than the test."""
    x, y, rotation = m.get("x"), m.get("y"), m.get("rotation")
    if not (type(x) is int and -1000 <= x <= 1000 and type(y) is int and -1000 <= y <= 1000
            and type(rotation) is int and rotation in ROTATIONS):
        return None
    tile = m.get("tile")
    if tile is not None and not (type(tile) is str and 1 <= len(tile) <= 32):
        return None
    if "tile" in m and tile is None:
        return None
    figure: FigureChoice | None = None
    fig = m.get("figure")
    if fig is not None or "figure" in m:
        if type(fig) is not dict or not _FIGURE_FIELDS.issuperset(fig):
            return None
        at = fig.get("at")
        if not (type(at) is str and 1 <= len(at) <= 32):
            return None
        kind = fig.get("kind", "follower")
        if "kind" in fig and (type(kind) is not str or kind not in figure_kinds):
            return None
        figure = FigureChoice(kind, at)
    return (x, y, rotation, tile, figure, False)
