"""Round scoring (M6), with Manhattan's tie-score rule (M10), as ``Score`` events.

After every round, in this fixed order: (1) the tallest building on the board, 3 points to
its owner, nobody when two or more share the greatest height; (2) each city in board order
(M1), 2 points to the colour owning more buildings there than every other colour, nobody on a
tie for most; (3) each colour in seat order, 1 point per building it owns.

Scores are per **colour** (M7: in the two-player game every colour is scored as if it were a
player); a ``Score`` names seats, so its ``winners`` are the seats of the winning colours and
its ``strengths`` give, for each seat, the best strength among its colours (the detail
text names every colour). ``cells`` are ``[city, lot]`` pairs (city index as in
``material.CITIES``, lot 0–8); ``feature_id`` is the city index for a majority.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.events import Score
from .material import CITIES, lot_name

Stack = list[tuple[str, int]]  # (colour, storeys) from the ground up
Board = Mapping[tuple[int, int], Stack]  # (city, lot) -> stack; absent = empty lot

TALLEST, MAJORITY, BUILDING = 3, 2, 1


def height(stack: Stack) -> int:
    """A building's storeys."""
    return sum(s for _, s in stack)


def owner(stack: Stack) -> str:
    """A building's owner: the colour of its top piece (M5)."""
    return stack[-1][0]


def _strengths(by_colour: Mapping[str, int], seat_of: Mapping[str, int]) -> tuple[
        tuple[int, int], ...]:
    best: dict[int, int] = {}
    for colour, n in by_colour.items():
        seat = seat_of[colour]
        best[seat] = max(best.get(seat, 0), n)
    return tuple(sorted(best.items()))


def score_round(board: Board, colours: Sequence[str], seat_of: Mapping[str, int],
                phase: str) -> tuple[list[Score], dict[str, int]]:
    """The events of one round's scoring and the points each colour makes (M6, M10)."""
    events: list[Score] = []
    points = dict.fromkeys(colours, 0)
    built = sorted((key, stack) for key, stack in board.items() if stack)
    if not built:
        return events, points
    # (1) the tallest building
    top = max(height(s) for _, s in built)
    tallest = [(key, s) for key, s in built if height(s) == top]
    where = ", ".join(f"{lot_name(lot)} of {CITIES[city]} ({owner(s)})"
                      for (city, lot), s in tallest)
    if len(tallest) == 1:
        colour = owner(tallest[0][1])
        points[colour] += TALLEST
        events.append(Score(phase, "tallest building", TALLEST, (seat_of[colour],),
                            ((seat_of[colour], top),),
                            f"the tallest building, {top} storeys: {where}", "M6",
                            [list(tallest[0][0])]))
    else:
        events.append(Score(phase, "tallest building", TALLEST, (),
                            _strengths({owner(s): top for _, s in tallest}, seat_of),
                            f"{len(tallest)} buildings share the greatest height, {top} "
                            f"storeys ({where}): nobody scores", "M10",
                            sorted(list(k) for k, _ in tallest)))
    # (2) the majority in each city
    for city, name in enumerate(CITIES):
        here = [(key, s) for key, s in built if key[0] == city]
        if not here:
            continue
        count: dict[str, int] = {}
        for _, s in here:
            count[owner(s)] = count.get(owner(s), 0) + 1
        most = max(count.values())
        leaders = [c for c in colours if count.get(c) == most]
        owned = ", ".join(f"{c} {count[c]}" for c in colours if c in count)
        cells = [list(k) for k, _ in here]
        if len(leaders) == 1:
            points[leaders[0]] += MAJORITY
            events.append(Score(phase, "city majority", MAJORITY, (seat_of[leaders[0]],),
                                _strengths(count, seat_of),
                                f"{name}: buildings owned {owned}; {leaders[0]} has the "
                                f"majority", "M6", cells, city))
        else:
            events.append(Score(phase, "city majority", MAJORITY, (),
                                _strengths(count, seat_of),
                                f"{name}: buildings owned {owned}; "
                                f"{' and '.join(leaders)} tie for most: nobody scores", "M10",
                                cells, city))
    # (3) every building
    for colour in colours:
        mine = [list(k) for k, s in built if owner(s) == colour]
        if not mine:
            continue
        points[colour] += BUILDING * len(mine)
        events.append(Score(phase, "building", BUILDING * len(mine), (seat_of[colour],),
                            ((seat_of[colour], len(mine)),),
                            f"{colour} owns {len(mine)} building{'s' * (len(mine) != 1)}, "
                            f"{BUILDING} point each", "M6", mine))
    return events, points
