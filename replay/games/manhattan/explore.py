"""Manhattan's analysis board (``replay.core.explore``): a lot where no build is legal is told
why (the verifier's words for the card that marks it from the player's side with their
smallest piece); a table log names the card drawn after each build: the variation follows it
while it can be drawn. What a build and a lot are called is the view's
(``replay.games.manhattan.view.ManhattanView``: ``menu``, ``spot_name``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...core.explore import Explorer
from ...core.family import GameState
from .material import CITIES, HEIGHTS, LOTS
from .moves import Build, Discard
from .state import ManhattanState


def _state(state: GameState) -> ManhattanState:
    assert isinstance(state, ManhattanState)
    return state


class ManhattanExplorer(Explorer):
    """See the module."""

    def draw_of(self, state: GameState, move: Any) -> str | None:
        if _state(state).deck.seed is not None or type(move) not in (Build, Discard):
            return None
        return None if move.draw is None else str(move.draw)

    def moves(self, state: GameState, draw: str | None) -> Iterator[Any]:
        for move in state.legal_moves():
            if draw is None or self.draw_of(state, move) == draw:
                yield move

    def attempts(self, state: GameState, draw: str | None,
                 legal: set[str]) -> Iterator[tuple[str, Any]]:
        game = _state(state)
        seat = game.current_player
        if seat is None or game.phase != "build":
            return
        colour = game.colours_of[seat][0]
        heights = [h for h in HEIGHTS if game.chosen[colour][h]] or [1]
        marks = {game.lot_of(seat, card): card for card in range(LOTS)}
        for city in CITIES:
            for lot in range(LOTS):
                spot = f"{city}/{lot}"
                if spot not in legal and lot in marks:
                    yield spot, Build(marks[lot], city, heights[0], None,
                                      None if draw is None else int(draw))
