"""Manhattan's view (``replay.core.view``): its board drawn by ``drawing.board`` in one pass,
with the analysis board's spots over the lots (its scored cells and badges are always named by
their event, ``data-ev``, so ``linked`` changes nothing); its moves and playthrough lines told
by ``words``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.events import Event
from ...core.family import GameState, MoveText
from ...core.view import View
from .state import ManhattanState


class ManhattanView(View):
    """See the module."""

    def board(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
              notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-",
              spots: Mapping[str, str] | None = None,
              spot_names: Mapping[str, str] | None = None, linked: bool = False,
              ghost: Sequence[Any] = ()) -> str:
        from .drawing import board  # on first use: a verification draws nothing

        assert isinstance(state, ManhattanState)
        return board(state, events=events, failure=failure, notes=notes, size=size,
                     prefix=prefix, spots=spots, spot_names=spot_names, ghost=ghost)

    def describe_move(self, move: Any, events: Sequence[Event] | None,
                      state: GameState) -> MoveText:
        """A move in words and in codes, for the viewer's move list (``words``)."""
        from .words import describe_move

        return describe_move(move, events, state)

    def playthrough_intro(self, state: GameState) -> list[str]:
        from .words import playthrough_intro

        assert isinstance(state, ManhattanState)
        return playthrough_intro(state)

    def playthrough_after(self, state: GameState, before: Any) -> str:
        from .words import cards_line

        assert isinstance(state, ManhattanState)
        return f"round {state.round} {state.phase}; {cards_line(state)}"
