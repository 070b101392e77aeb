"""Manhattan's analysis board (``replay.core.explore``): a build's spot is the lot it goes on
("city/lot"), its facet the piece (storeys and colour: the page shades the lots each piece
may go on), named by its city and place and what stands on it (``spot_name``), its menu the
piece, then the card that marks the lot; a choice of pieces and a
discard are played on no spot. A lot where no build is legal is told why: the verifier's words
for the card that marks it from the player's side with their smallest piece. A table log
names the card drawn after each build: the variation follows it while it can be drawn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...core.explore import Explorer
from ...core.family import GameState
from .deck import card_text
from .events import pieces_text
from .material import CITIES, HEIGHTS, LOTS, lot_name
from .moves import Build, Choose, Discard
from .scoring import height, owner
from .state import ManhattanState


def _state(state: GameState) -> ManhattanState:
    assert isinstance(state, ManhattanState)
    return state


def piece_words(storeys: int, colour: str) -> str:
    """``a 3-storey black piece``."""
    return f"a {storeys}-storey {colour} piece"


class ManhattanExplorer(Explorer):
    """See the module."""

    def draw_of(self, state: GameState, move: Any) -> str | None:
        if _state(state).deck.seed is not None or type(move) not in (Build, Discard):
            return None
        return None if move.draw is None else str(move.draw)

    def draw_label(self, state: GameState, draw: str) -> str:
        return f"draw {card_text(int(draw))}" if draw.isdigit() else draw

    def moves(self, state: GameState, draw: str | None) -> Iterator[Any]:
        for move in state.legal_moves():
            if draw is None or self.draw_of(state, move) == draw:
                yield move

    def place(self, state: GameState, move: Any) -> tuple[str, str, tuple[str, ...]]:
        game = _state(state)
        seat = game.current_player
        if type(move) is Choose:
            return "", "", (f"take {pieces_text(move.pieces)} for this round",)
        if type(move) is Discard or seat is None:
            return "", "", (f"discard {card_text(move.card)} (no build is legal)",)
        colour = move.colour or game.colours_of[seat][0]
        lot = game.lot_of(seat, move.card)
        piece = piece_words(move.storeys, colour)
        return (f"{move.city}/{lot}", piece,
                (piece, f"play {card_text(move.card)}: {lot_name(lot)} of {move.city}"))

    def spot_label(self, spot: str) -> str:
        city, _, lot = spot.partition("/")
        return f"{lot_name(int(lot))} of {city}" if lot.isdigit() else spot

    def spot_name(self, state: GameState, spot: str) -> str:
        """A lot by its city and place, then what stands on it: ``the north-west lot of
        Sydney · empty``, ``the centre lot of Cairo · a blue building of 3 storeys`` (its
        owner: the colour of its top piece, M5)."""
        city, _, lot = spot.partition("/")
        if city not in CITIES or not lot.isdigit() or int(lot) >= LOTS:
            return self.spot_label(spot)
        stack = _state(state).board.get((CITIES.index(city), int(lot)))
        storeys = height(stack) if stack else 0
        there = (f"a {owner(stack)} building of {storeys} storey{'s' * (storeys != 1)}"
                 if stack else "empty")
        return f"{self.spot_label(spot)} · {there}"

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
