"""The generator's policy for Manhattan: what ``python -m replay generate --game manhattan``
plays. Random, legal, and lively enough that the fuzz tests reach take-overs and ties.

* **Choosing (M4):** the round's pieces of each colour are drawn at random from its supply
  (every piece is used by the end: 24 = rounds × pieces per round).
* **Building (M5):** a random card of the hand and a random chosen piece; among the cities
  where that piece may go on the lot the card marks, a take-over (when there is one) one
  time in three, else any. After ``TRIES`` draws with no legal city, the first legal build
  in order; with none, a discard (see ``state``).

Every build names the card drawn after it (``draw``), so a generated log also shows the hands.
"""

from __future__ import annotations

from typing import Any

from .material import CITIES, HEIGHTS, lot_seen_from
from .state import Build, Choose, Discard, ManhattanState, Move

TRIES = 8
TAKEOVER_ODDS = 3  # a possible take-over is chosen one time in this many


def random_move(state: ManhattanState, pick: Any) -> Move:
    """A random legal move for the player to move (``pick``: a ``SeededStream``)."""
    seat = state.current_player
    assert seat is not None
    if state.phase == "choose":
        pieces: list[tuple[str, int]] = []
        for colour in state.colours_of[seat]:
            pool = [h for h in HEIGHTS for _ in range(state.supply[colour][h])]
            for k in range(state.per_round):
                j = k + pick.below(len(pool) - k)
                pool[k], pool[j] = pool[j], pool[k]
            pieces += [(colour, h) for h in sorted(pool[:state.per_round])]
        return Choose(tuple(pieces))
    hand = state.hands[seat]
    two = len(state.colours_of[seat]) > 1
    in_play = [(c, h) for c in state.colours_of[seat] for h in HEIGHTS
               for _ in range(state.chosen[c][h])]
    side = state.sides[seat]
    for _ in range(TRIES):
        card = hand[pick.below(len(hand))]
        colour, storeys = in_play[pick.below(len(in_play))]
        lot = lot_seen_from(card, side)
        free: list[str] = []
        takeovers: list[str] = []
        for city_index, city in enumerate(CITIES):
            stack = state.board.get((city_index, lot))
            if not stack or stack[-1][0] == colour:
                free.append(city)
            elif state.takeover_error(seat, card, city, storeys, colour) is None:
                takeovers.append(city)
        if takeovers and (not free or pick.below(TAKEOVER_ODDS) == 0):
            city = takeovers[pick.below(len(takeovers))]
        elif free:
            city = free[pick.below(len(free))]
        else:
            continue
        return Build(card, city, storeys, colour if two else None,
                     state.deck.next_card(card))
    build = next(state.builds(seat), None)
    if build is not None:
        return Build(build.card, build.city, build.storeys, build.colour,
                     state.deck.next_card(build.card))
    card = min(hand)
    return Discard(card, state.deck.next_card(card))
