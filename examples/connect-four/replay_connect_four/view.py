"""How Connect Four looks and reads (``replay.core.view``): the board drawn by ``drawing`` in
one pass, and each move in words for the viewer's move list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replay.core.events import Event
from replay.core.family import GameState, MoveText
from replay.core.view import View

from .state import ConnectFourState, Dropped


class ConnectFourView(View):
    """See the module. No analysis board spots: its explorer is the default (a list of the
    legal drops, on no spot), so ``spots``, ``linked`` and ``ghost`` draw nothing more."""

    def board(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
              notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-",
              spots: Mapping[str, str] | None = None,
              spot_names: Mapping[str, str] | None = None, linked: bool = False,
              ghost: Sequence[Any] = ()) -> str:
        from .drawing import board  # on first use: a verification draws nothing

        assert isinstance(state, ConnectFourState)
        return board(state, events=events, failure=failure, notes=notes, size=size,
                     prefix=prefix)

    def describe_move(self, move: Any, events: Sequence[Event] | None,
                      state: GameState) -> MoveText:
        """``disc in column 4, row 2 · four in a row``, from the move and its events."""
        text = f"disc in column {move.column}"
        for e in events or ():
            if isinstance(e, Dropped):
                text += f", row {e.row}"
            elif e.type == "score":
                text += " · four in a row"
        return MoveText(text, f"column {move.column}")
