"""The generator's policy for Manhattan: what ``python -m replay generate --game manhattan``
plays. Random, legal, and lively enough that the fuzz tests reach take-overs and ties.

* **Choosing (M4):** the round's pieces of each colour are drawn at random from its supply
  (every piece is used by the end: 24 = rounds × pieces per round).
* **Building (M5):** a random card of the hand and a random chosen piece; among the cities
  where that piece may go on the lot the card marks, a take-over (when there is one) one
  time in three, else any. After ``TRIES`` draws with no legal city, the first legal build
  in order; with none, a discard (see ``state``). One draw of the stream decides card,
  piece, city and odds together (``below`` of their product is uniform over each).

Every build names the card drawn after it (``draw``), so a generated log also shows the hands.
"""

from __future__ import annotations

from typing import Any

from .material import CITIES, HEIGHTS
from .moves import SEEN_FROM, Build, Choose, Discard, Move, may_build
from .state import ManhattanState

TRIES = 8
TAKEOVER_ODDS = 3  # a possible take-over is chosen one time in this many
CITY_COUNT = len(CITIES)
LOT_KEYS = [[(city, lot) for city in range(CITY_COUNT)] for lot in range(9)]  # board keys


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
    in_play = [(c, h) for c in state.colours_of[seat] for h, n in state.chosen[c].items()
               for _ in range(n)]
    seen = SEEN_FROM[state.sides[seat]]
    board = state.board
    for _ in range(TRIES):
        r = pick.below(len(hand) * len(in_play) * CITY_COUNT * TAKEOVER_ODDS)
        r, card_index = divmod(r, len(hand))
        r, piece_index = divmod(r, len(in_play))
        odds, offset = divmod(r, CITY_COUNT)
        card = hand[card_index]
        colour, storeys = in_play[piece_index]
        lot = seen[card]
        free: list[int] = []
        takeovers: list[int] = []
        for city, key in enumerate(LOT_KEYS[lot]):
            stack = board.get(key)
            if not stack or stack[-1][0] == colour:
                free.append(city)
            elif may_build(stack, colour, storeys):
                takeovers.append(city)
        if takeovers and (not free or odds == 0):
            city = takeovers[offset % len(takeovers)]
        elif free:
            city = free[offset % len(free)]
        else:
            continue
        return Build(card, CITIES[city], storeys, colour if two else None,
                     state.deck.next_card(card))
    build = next(state.builds(seat), None)
    if build is not None:
        return Build(build.card, build.city, build.storeys, build.colour,
                     state.deck.next_card(build.card))
    card = min(hand)
    return Discard(card, state.deck.next_card(card))
