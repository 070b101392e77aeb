"""Manhattan's view (``replay.core.view``): its board drawn by ``drawing.board`` in one pass,
with the analysis board's spots over the lots. Its scored cells and badges are always named by
their event (``data-ev``), so ``linked`` changes nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.events import Event
from ...core.family import GameState
from ...core.view import View
from .state import ManhattanState


class ManhattanView(View):
    """See the module."""

    def board(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
              notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-",
              spots: Mapping[str, str] | None = None,
              spot_names: Mapping[str, str] | None = None, linked: bool = False) -> str:
        from .drawing import board  # on first use: a verification draws nothing

        assert isinstance(state, ManhattanState)
        return board(state, events=events, failure=failure, notes=notes, size=size,
                     prefix=prefix, spots=spots, spot_names=spot_names)
