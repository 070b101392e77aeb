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

from typing import Any, Final

from .log import encode_move
from .material import CITIES, HEIGHTS, LOTS
from .moves import SEEN_FROM, Build, Choose, Discard, Move, may_build
from .state import ManhattanState

TRIES = 8
TAKEOVER_ODDS = 3  # a possible take-over is chosen one time in this many
CITY_COUNT = len(CITIES)
# the board's keys by lot, then city (typed Any so that, compiled, a key is looked up as the
# very tuple stored, not unpacked and packed again)
LOT_KEYS: Final[list[list[Any]]] = [[(city, lot) for city in range(CITY_COUNT)]
                                    for lot in range(LOTS)]


def play_game(state: ManhattanState, pick: Any) -> list[dict[str, Any]]:
    """Play ``state`` to its end by ``random_move``; the moves as log objects (the loop of
    ``generate.play_random`` for Manhattan, compiled with the policy)."""
    moves: list[dict[str, Any]] = []
    while not state.finished:
        move = random_move(state, pick)
        state.play(move)
        moves.append(encode_move(move))
    return moves


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
    mine = state.colours_of[seat]
    two = len(mine) > 1
    in_play = 0  # the pieces in play, in the order of the colours, then of ``chosen``
    for c in mine:
        for n in state.chosen[c].values():
            in_play += n
    seen = SEEN_FROM[state.sides[seat]]
    board = state.board
    for _ in range(TRIES):
        r = pick.below(len(hand) * in_play * CITY_COUNT * TAKEOVER_ODDS)
        card = hand[r % len(hand)]
        r //= len(hand)
        piece_index = r % in_play
        r //= in_play
        odds, offset = r // CITY_COUNT, r % CITY_COUNT
        colour, storeys = _piece(state, mine, piece_index)
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


def _piece(state: ManhattanState, mine: tuple[str, ...], index: int) -> tuple[str, int]:
    """The ``index``-th piece in play: colour by colour, each in the order of ``chosen``."""
    for c in mine:
        for h, n in state.chosen[c].items():
            if index < n:
                return c, h
            index -= n
    raise ValueError(f"no piece {index} in play")
