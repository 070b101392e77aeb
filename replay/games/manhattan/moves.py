"""Manhattan's moves (M4, M5 and the discard of docs/rules.md) and the lookups a move needs:
the city of a name, the lot a card marks from a side (M2), whether a piece may go on a
building (M5), what a choice of pieces takes from the supply (M4), and the check of a choice
(``check_choice``: M1, M2, M4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.errors import IllegalMove
from ...core.values import value_type
from .material import CITIES, HEIGHTS, SIDES, lot_seen_from

CITY_INDEX = {name: i for i, name in enumerate(CITIES)}
SEEN_FROM = {side: [lot_seen_from(card, side) for card in range(9)] for side in SIDES}


class Choose:
    """M4: the pieces a player takes into play for the round, as (colour, storeys) pairs.
    Immutable, as every move (see below)."""

    pieces: tuple[tuple[str, int], ...]

    def __init__(self, pieces: tuple[tuple[str, int], ...]) -> None:
        self.pieces = pieces


class Build:
    """M5: play ``card`` (the lot as printed, 0–8) and put a piece of ``storeys`` of
    ``colour`` (needed only by a player with two colours) on the lot it marks in ``city``;
    ``draw`` is the card drawn after it (required without a seed, checked with one)."""

    card: int
    city: str
    storeys: int
    colour: str | None
    draw: int | None

    def __init__(self, card: int, city: str, storeys: int, colour: str | None = None,
                 draw: int | None = None) -> None:
        self.card = card
        self.city = city
        self.storeys = storeys
        self.colour = colour
        self.draw = draw

    def with_draw(self, draw: int | None) -> Build:
        """This build with ``draw`` as the card drawn after it."""
        return Build(self.card, self.city, self.storeys, self.colour, draw)


class Discard:
    """A player with no legal build discards ``card`` and draws (see the module)."""

    card: int
    draw: int | None

    def __init__(self, card: int, draw: int | None = None) -> None:
        self.card = card
        self.draw = draw

    def with_draw(self, draw: int | None) -> Discard:
        """This discard with ``draw`` as the card drawn after it."""
        return Discard(self.card, draw)


Move = Choose | Build | Discard
# Moves are values, immutable once built (``core.values.value_type``).
value_type(Choose)
value_type(Build)
value_type(Discard)


def may_build(stack: list[tuple[str, int]], colour: str, storeys: int) -> bool:
    """M5: a piece of ``colour`` and ``storeys`` may go on this (non-empty) building: the
    colour owns it, or has with the piece at least as many storeys in it as the owner."""
    owner = stack[-1][0]
    if owner == colour:
        return True
    theirs = mine = 0
    for c, s in stack:
        if c == owner:
            theirs += s
        elif c == colour:
            mine += s
    return mine + storeys >= theirs


def choice_counts(pieces: Sequence[tuple[str, int]], mine: tuple[str, ...],
                  supply: dict[str, dict[int, int]], per_round: int) -> list[int] | None:
    """M4: how many pieces of each height a choice of ``pieces`` by the player of the colours
    ``mine`` takes, at ``5 * k + height`` for the k-th colour; None if the choice is illegal
    (a colour not theirs, a height that does not exist, more than the supply holds, not
    ``per_round`` pieces of each colour; ``ManhattanState`` words why)."""
    counts = [0] * 10
    for colour, h in pieces:
        if colour == mine[0]:
            k = 0
        elif len(mine) > 1 and colour == mine[1]:
            k = 5
        else:
            return None
        if not 1 <= h <= 4:
            return None
        counts[k + h] += 1
    for k, colour in enumerate(mine):
        left = supply[colour]
        taken = 0
        for h in range(1, 5):
            n = counts[5 * k + h]
            if n > left[h]:
                return None
            taken += n
        if taken != per_round:
            return None
    return counts


def check_choice(state: Any, seat: int, move: Choose) -> dict[tuple[str, int], int]:
    """M1, M2, M4 for a choice of pieces by ``seat`` in ``state`` (a ``ManhattanState``); how
    many it takes of each colour and height."""
    name = state.config.players[seat].name
    mine = state.colours_of[seat]
    if state.phase != "choose":
        raise IllegalMove("M4", f"{name} must build now: pieces are chosen at the start of a "
                          "round")
    counts: dict[tuple[str, int], int] = {}
    per_colour = dict.fromkeys(mine, 0)
    for colour, h in move.pieces:
        if colour not in mine:
            raise IllegalMove("M2", f"{colour} is not a colour of {name} "
                              f"({' and '.join(mine)})")
        if h not in HEIGHTS:
            raise IllegalMove("M1", f"there is no {h}-storey piece (1 to 4)")
        counts[colour, h] = counts.get((colour, h), 0) + 1
        per_colour[colour] += 1
    for colour, taken in per_colour.items():
        if taken != state.per_round:
            what = "too many" if taken > state.per_round else "too few"
            raise IllegalMove("M4", f"{name} takes {taken} {colour} pieces, {what}: each "
                              f"round takes {state.per_round}")
    for (colour, h), n in counts.items():
        if n > state.supply[colour][h]:
            raise IllegalMove("M4", f"{name} takes {n} {colour} {h}-storey pieces; "
                              f"{state.supply[colour][h]} left")
    return counts
