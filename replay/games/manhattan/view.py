"""Manhattan's view (``replay.core.view``): its board drawn by ``drawing.board`` in one pass,
with the analysis board's spots over the lots (its scored cells and badges are always named by
their event, ``data-ev``, so ``linked`` changes nothing); its moves and playthrough lines told
by ``words``; the analysis board's words: a build's spot is the lot it goes on ("city/lot"),
its facet the piece (storeys and colour: the page shades the lots each piece may go on), its
menu the piece, then the card that marks the lot (a choice of pieces and a discard are played
on no spot); a lot is named by its city and place and what stands on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.events import Event
from ...core.family import GameState, MoveText
from ...core.view import View
from .deck import card_text
from .events import pieces_text
from .material import CITIES, LOTS, lot_name
from .moves import Choose, Discard
from .scoring import height, owner
from .state import ManhattanState


def _state(state: GameState) -> ManhattanState:
    assert isinstance(state, ManhattanState)
    return state


def piece_words(storeys: int, colour: str) -> str:
    """``a 3-storey black piece``."""
    return f"a {storeys}-storey {colour} piece"


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

    def menu(self, state: GameState, move: Any) -> tuple[str, str, tuple[str, ...]]:
        """A build's lot ("city/lot"), its piece as the facet, its menu the piece then the
        card that marks the lot; a choice of pieces and a discard on no spot."""
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

    def spot_name(self, state: GameState, spot: str) -> str:
        """A lot by its city and place, then what stands on it: ``the north-west lot of
        Sydney · empty``, ``the centre lot of Cairo · a blue building of 3 storeys`` (its
        owner: the colour of its top piece, M5)."""
        city, _, lot = spot.partition("/")
        if city not in CITIES or not lot.isdigit() or int(lot) >= LOTS:
            return spot
        stack = _state(state).board.get((CITIES.index(city), int(lot)))
        storeys = height(stack) if stack else 0
        there = (f"a {owner(stack)} building of {storeys} storey{'s' * (storeys != 1)}"
                 if stack else "empty")
        return f"{_lot(spot)} · {there}"

    def draw_label(self, state: GameState, draw: str) -> str:
        """A card a table log may draw: ``draw card 3 (the middle-west lot as printed)``."""
        return f"draw {card_text(int(draw))}" if draw.isdigit() else draw


def _lot(spot: str) -> str:
    """A lot by its city and place: ``the north-west lot of Sydney``."""
    city, _, lot = spot.partition("/")
    return f"{lot_name(int(lot))} of {city}"
