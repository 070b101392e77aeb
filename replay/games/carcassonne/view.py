"""Carcassonne's view (``replay.tiles.view``): the tile families' boards and words, and the
flock choices of Hills & Sheep told on the analysis board's menu (HS3)."""

from __future__ import annotations

from typing import Any

from ...core.family import GameState
from ...tiles.tileset import TileType
from ...tiles.view import TileView
from ...tiles.words import feature_side, where
from .sheep_moves import SheepFields

FLOCK_WORDS = {"expand": "expand it (draw a sheep token)", "herd": "herd it (score the flock)"}


class CarcassonneView(TileView):
    """See the module."""

    def choice_words(self, state: GameState, move: Any) -> str:
        """HS3: the flock choices of a move, in words."""
        flock = [c for extra in getattr(move, "extras", ()) if isinstance(extra, SheepFields)
                 for c in extra.flock]
        tile_id = getattr(move, "tile", None)
        tile = (getattr(state, "tiles_by_id", {}).get(tile_id) if tile_id
                else getattr(state, "current", None))
        return "; ".join(f"the flock in the field{_side(tile, move.rotation, c.location)}: "
                         f"{FLOCK_WORDS.get(c.action, c.action)}" for c in flock)


def _side(tile: TileType | None, rotation: int, location: str) -> str:
    """Which field of the tile, as the figures' words point at it (none when the tile has
    one field; the location's direction when the tile is not known)."""
    if tile is None:
        return f" {where(location)}"
    if sum(s.type == "field" for s in tile.segments) == 1:
        return ""
    side = feature_side(tile, rotation, location)
    return f" {side}" if side else ""
