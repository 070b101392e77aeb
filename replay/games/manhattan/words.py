"""Manhattan's moves told for people and in the log's codes (``Family.describe_move``): the
entries of the viewer's move list.

* a choice (M4): ``chooses blue 1,1,2,3 for round 2``, in codes ``choose blue 1,1,2,3``;
* a build (M5): ``blue 2-storey piece on the north-west lot of Sydney (card 0), now 5 storeys,
  taking it from red``, in codes ``card 0 → Sydney NW, blue 2; draw 7``;
* a discard (no legal build): ``discards card 4 (no legal build)``, in codes ``discard 4;
  draw 7``.

A move that ends a round says so (``· the round is scored``), one that empties the draw pile
that it was reshuffled (M3). An illegal move is told from the move alone, its lot read from
the side of the player who tried it (M2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.events import Event, Score
from ...core.family import GameState, MoveText
from .events import Built, PiecesChosen, Reshuffle, pieces_text
from .material import HEIGHTS, LOTS, lot_name, lot_seen_from
from .moves import Build, Choose, Discard
from .state import ManhattanState

# A lot in codes, as the board lies with south at the bottom (lot = row * 3 + column).
LOT_CODES = ("NW", "N", "NE", "W", "C", "E", "SW", "S", "SE")


def describe_move(move: Any, events: Sequence[Event] | None, state: GameState) -> MoveText:
    """``move`` in words and in codes (see the module); ``events`` are what it did (None when
    it is illegal), ``state`` a position of the game (the one an illegal move was tried in)."""
    legal = events is not None
    events = events or ()
    if isinstance(move, Choose):
        text, codes = _choose(move, events)
    elif isinstance(move, Build):
        text, codes = _build(move, events, state)
    elif isinstance(move, Discard):
        text = f"discards card {move.card}" + (" (no legal build)" if legal else "")
        codes = f"discard {move.card}" + _draw(move.draw)
    else:
        return MoveText(repr(move), repr(move))
    after = []
    if any(isinstance(e, Reshuffle) for e in events):
        after.append("the draw pile is reshuffled")
    if any(isinstance(e, Score) for e in events):
        after.append("the round is scored")
    return MoveText(" · ".join([text, *after]), codes)


def _choose(move: Choose, events: Sequence[Event]) -> tuple[str, str]:
    chosen = next((e for e in events if isinstance(e, PiecesChosen)), None)
    pieces = chosen.pieces if chosen is not None else move.pieces
    by_colour: dict[str, list[str]] = {}
    for colour, storeys in pieces:
        by_colour.setdefault(str(colour), []).append(str(storeys))
    words = " and ".join(f"{c} {','.join(hs)}" for c, hs in by_colour.items()) or "no pieces"
    text = f"chooses {words}" + (f" for round {chosen.round}" if chosen is not None else "")
    return text, f"choose {pieces_text(pieces)}"


def _build(move: Build, events: Sequence[Event], state: GameState) -> tuple[str, str]:
    built = next((e for e in events if isinstance(e, Built)), None)
    colour: str | None
    lot: int | None
    if built is not None:
        colour, lot = built.colour, built.lot
        text = (f"{colour} {built.storeys}-storey piece on {lot_name(lot)} of {built.city} "
                f"(card {built.card})")
        if built.previous_owner is not None:
            text += f", now {built.height} storeys"
            if built.previous_owner != colour:
                text += f", taking it from {built.previous_owner}"
    else:  # illegal: the lot as the player who tried it reads the card
        colour, lot = move.colour, None
        if isinstance(state, ManhattanState) and state.current_player is not None:
            seat = state.current_player
            mine = state.colours_of[seat]
            colour = colour or (mine[0] if len(mine) == 1 else None)
            if type(move.card) is int and 0 <= move.card < LOTS:
                lot = lot_seen_from(move.card, state.sides[seat])
        piece = f"{colour} {move.storeys}-storey piece" if colour else (
            f"{move.storeys}-storey piece")
        where = lot_name(lot) if lot is not None else "a lot"
        text = f"{piece} on {where} of {move.city} (card {move.card})"
    at = f"{move.city} {LOT_CODES[lot]}" if lot is not None else move.city
    what = f"{colour} {move.storeys}" if colour else str(move.storeys)
    return text, f"card {move.card} → {at}, {what}{_draw(move.draw)}"


def _draw(card: int | None) -> str:
    return "" if card is None else f"; draw {card}"


def status(state: ManhattanState) -> dict[str, Any]:
    """``GameState.status``: round, phase, first player, cards and pieces in play."""
    return {"round": state.round, "rounds": state.rounds, "phase": state.phase,
            "first_player": state.first, "pile": len(state.pile),
            "played_cards": len(state.played), "hands": [len(h) for h in state.hands],
            "colour_scores": dict(state.colour_scores),
            "chosen": {c: pieces_text(state.chosen_list(c)) for c in state.colours}}


def playthrough_intro(state: ManhattanState) -> list[str]:
    """The first lines of a playthrough (``tools/golden.py``): material, seats, cards."""
    m = state.material
    seats = ", ".join(f"{p.name} {state.sides[i]} {'+'.join(state.colours_of[i])}"
                      for i, p in enumerate(state.config.players))
    return [f"material cards per lot {list(m.cards_per_lot)}, pieces "
            f"{[m.pieces[h] for h in HEIGHTS]}, hand {m.hand_size}",
            f"seats {seats}", cards_line(state)]


def cards_line(state: ManhattanState) -> str:
    """The hands, the pile and the played cards in one line."""
    hands = ", ".join(f"{p.name} {sorted(state.hands[i])}"
                      for i, p in enumerate(state.config.players))
    return f"hands {hands}; pile {len(state.pile)}, played {len(state.played)}"
