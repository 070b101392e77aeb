"""The view of the tile-laying families (``replay.core.view``): their boards drawn by
``drawing.board`` in one pass, with the analysis board's spots over the cells and the scored
features linked to their explanations; the tile drawn, on its own. Each tile family may bring
its own subclass (its words, icons, terrain)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.events import Event
from ..core.family import GameState
from ..core.view import View
from .state import TileState


class TileView(View):
    """See the module."""

    def board(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
              notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-",
              spots: Mapping[str, str] | None = None,
              spot_names: Mapping[str, str] | None = None, linked: bool = False) -> str:
        from . import drawing  # on first use: the command line's verify draws nothing

        assert isinstance(state, TileState)
        return drawing.board(state, events=events, failure=failure, notes=notes, size=size,
                             prefix=prefix, spots=spots, spot_names=spot_names, linked=linked)
