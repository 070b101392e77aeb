"""Carcassonne's view (``replay.tiles.view``): the tile families' boards and words, and the
flock choices of Hills & Sheep told on the analysis board's menu (HS3)."""

from __future__ import annotations

from typing import Any

from ...core.family import GameState
from ...tiles.view import TileView
from ...tiles.words import where
from .sheep_moves import SheepFields

FLOCK_WORDS = {"expand": "expand it (draw a sheep token)", "herd": "herd it (score the flock)"}


class CarcassonneView(TileView):
    """See the module."""

    def choice_words(self, state: GameState, move: Any) -> str:
        """HS3: the flock choices of a move, in words."""
        flock = [c for extra in getattr(move, "extras", ()) if isinstance(extra, SheepFields)
                 for c in extra.flock]
        return "; ".join(f"the flock in the field {where(c.location)}: "
                         f"{FLOCK_WORDS.get(c.action, c.action)}" for c in flock)
