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

from ...core.events import Score, join_words
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
                phase: str, explain: bool = True) -> tuple[list[Score], dict[str, int]]:
    """The events of one round's scoring and the points each colour makes (M6, M10); with
    ``explain`` False only the points (the verifier's fast path: the same sums, no text)."""
    if not explain:
        return [], points_only(board, colours)
    points = dict.fromkeys(colours, 0)
    heights: dict[tuple[int, int], int] = {}
    per_city: list[dict[str, int]] = [{} for _ in CITIES]
    top = tied = 0
    top_owner = ""
    for key, stack in board.items():
        if stack:
            total = height(stack)
            who = stack[-1][0]
            heights[key] = total
            if total > top:
                top, tied, top_owner = total, 1, who
            elif total == top:
                tied += 1
            count = per_city[key[0]]
            count[who] = count.get(who, 0) + 1
    if not top:
        return [], points
    # (1) the tallest building: nobody scores a tie (M10)
    if tied == 1:
        points[top_owner] += TALLEST
    # (2) the majority in each city: nobody scores a tie (M10); (3) every building
    leaders_of: list[list[str]] = []
    for count in per_city:
        leaders: list[str] = []
        if count:
            most = max(count.values())
            leaders = [c for c in colours if count.get(c) == most]
            if len(leaders) == 1:
                points[leaders[0]] += MAJORITY
            for who, n in count.items():
                points[who] += BUILDING * n
        leaders_of.append(leaders)
    built = [(key, board[key], heights[key], board[key][-1][0]) for key in sorted(heights)]
    return _explained(built, [b for b in built if b[2] == top], top, per_city, leaders_of,
                      colours, seat_of, phase), points


def points_only(board: Board, colours: Sequence[str]) -> dict[str, int]:
    """The points of ``score_round`` without its events, counted in flat lists (a replay
    scores every round this way; ``tests/test_manhattan.py`` holds it to ``score_round``)."""
    n = len(colours)
    index = {c: i for i, c in enumerate(colours)}
    owned = [0] * (len(CITIES) * n)  # buildings owned, by city and colour
    top = tied = 0
    top_owner = -1
    for key, stack in board.items():
        if not stack:
            continue
        total = 0
        for piece in stack:
            total += piece[1]
        who = index[stack[-1][0]]
        if total > top:
            top, tied, top_owner = total, 1, who
        elif total == top:
            tied += 1
        owned[key[0] * n + who] += 1
    gained = [0] * n
    if top:
        if tied == 1:  # (1) the tallest building; nobody scores a tie (M10)
            gained[top_owner] += TALLEST
        for base in range(0, len(owned), n):
            most = leaders = 0
            leader = -1
            for i in range(n):
                k = owned[base + i]
                gained[i] += BUILDING * k  # (3) every building
                if k > most:
                    most, leaders, leader = k, 1, i
                elif k and k == most:
                    leaders += 1
            if leaders == 1:  # (2) the city's majority; nobody scores a tie (M10)
                gained[leader] += MAJORITY
    return dict(zip(colours, gained, strict=True))


def _explained(built: list[tuple[tuple[int, int], Stack, int, str]],
               tallest: list[tuple[tuple[int, int], Stack, int, str]], top: int,
               per_city: list[dict[str, int]], leaders_of: list[list[str]],
               colours: Sequence[str], seat_of: Mapping[str, int], phase: str) -> list[Score]:
    """The ``Score`` events of a round's scoring, in the order of M6."""
    events: list[Score] = []
    where = ", ".join(f"{lot_name(lot)} of {CITIES[city]} ({who})"
                      for (city, lot), _, _, who in tallest)
    if len(tallest) == 1:
        colour = tallest[0][3]
        events.append(Score(phase, "tallest building", TALLEST, (seat_of[colour],),
                            ((seat_of[colour], top),),
                            f"the tallest building, {top} storeys: {where}", "M6",
                            [list(tallest[0][0])]))
    else:
        events.append(Score(phase, "tallest building", TALLEST, (),
                            _strengths({b[3]: top for b in tallest}, seat_of),
                            f"{len(tallest)} buildings share the greatest height, {top} "
                            f"storeys ({where}): nobody scores", "M10",
                            sorted(list(b[0]) for b in tallest)))
    for city, name in enumerate(CITIES):
        count = per_city[city]
        if not count:
            continue
        leaders = leaders_of[city]
        owned = ", ".join(f"{c} {count[c]}" for c in colours if c in count)
        cells = [list(b[0]) for b in built if b[0][0] == city]
        if len(leaders) == 1:
            events.append(Score(phase, "city majority", MAJORITY, (seat_of[leaders[0]],),
                                _strengths(count, seat_of),
                                f"{name}: buildings owned {owned}; {leaders[0]} has the "
                                f"majority", "M6", cells, city))
        else:
            events.append(Score(phase, "city majority", MAJORITY, (),
                                _strengths(count, seat_of),
                                f"{name}: buildings owned {owned}; "
                                f"{join_words(leaders)} tie for most: nobody scores", "M10",
                                cells, city))
    for colour in colours:
        mine = [list(b[0]) for b in built if b[3] == colour]
        if mine:
            events.append(Score(phase, "building", BUILDING * len(mine), (seat_of[colour],),
                                ((seat_of[colour], len(mine)),),
                                f"{colour} owns {len(mine)} building{'s' * (len(mine) != 1)}, "
                                f"{BUILDING} point each", "M6", mine))
    return events
