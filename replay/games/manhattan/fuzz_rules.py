"""Manhattan's rules restated for fuzzing, independently of the engine (M1-M10): the reading of
a card (M2), who may build where (M5), a round's scores (M6, M10), ownership, and what a game
is set up with (``Setup``: players, seed or a table deal, seats, material). The checker that
uses them is ``fuzz_checker``, the machine ``fuzz``.

This module needs ``hypothesis`` (imported only for fuzzing).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from ...core.family import GameConfig, Player
from ...core.values import replace
from . import MANHATTAN, Build, Choose, Discard, ManhattanState
from .material import Material

Move = Choose | Build | Discard
Stack = list[tuple[str, int]]

CITIES = ("Manhattan", "Frankfurt", "Sydney", "Hong Kong", "São Paulo", "Cairo")  # M1
COLOURS = ("blue", "black", "red", "green")  # M1, in the order the log gives them by default
HEIGHTS = (1, 2, 3, 4)
SIDES = ("south", "west", "north", "east")  # clockwise (G3)
ROUNDS = {2: 6, 3: 6, 4: 4}  # M7
PER_ROUND = {2: 4, 3: 4, 4: 6}  # pieces per colour and round (M4, M7)
TALLEST, MAJORITY, BUILDING = 3, 2, 1  # M6
NAMES = ("Ada", "Ben", "Cleo", "Dan")

# M2: a player reads a card with its top edge towards the far side of the board and its left
# edge towards their left hand: (far edge, left edge) per side.
FAR_LEFT = {"south": ("north", "west"), "north": ("south", "east"),
            "west": ("east", "north"), "east": ("west", "south")}


def lot_from(card: int, side: str) -> int:
    """M2: the lot (row by row from the north-west) that ``card`` marks for ``side``."""
    down, right = divmod(card, 3)  # from the card's top edge, from its left edge
    far, left = FAR_LEFT[side]
    where: dict[str, int] = {}
    for edge, distance in ((far, down), (left, right)):
        if edge in ("north", "south"):
            where["row"] = distance if edge == "north" else 2 - distance
        else:
            where["col"] = distance if edge == "west" else 2 - distance
    return where["row"] * 3 + where["col"]


def storeys_by_colour(stack: Stack) -> Counter[str]:
    out: Counter[str] = Counter()
    for colour, s in stack:
        out[colour] += s
    return out


def may_build(stack: Stack | None, colour: str, storeys: int) -> bool:
    """M5: an empty lot, the colour's own building, or a take-over leaving the colour at least
    as many storeys as the owner."""
    if not stack or stack[-1][0] == colour:
        return True
    by = storeys_by_colour(stack)
    return by[colour] + storeys >= by[stack[-1][0]]


def round_scores(board: dict[tuple[int, int], Stack], colours: Sequence[str]
                 ) -> list[tuple[str, int | None, int, str | None]]:
    """M6 with M10, recomputed: (what, city or None, points, the winning colour or None on a
    tie) in scoring order: the tallest building, each city in board order, each colour."""
    built = {key: stack for key, stack in board.items() if stack}
    if not built:
        return []
    out: list[tuple[str, int | None, int, str | None]] = []
    heights = {key: sum(s for _, s in stack) for key, stack in built.items()}
    top = max(heights.values())
    tallest = [key for key, h in heights.items() if h == top]
    out.append(("tallest building", None, TALLEST,
                built[tallest[0]][-1][0] if len(tallest) == 1 else None))
    for city in range(len(CITIES)):
        owners = Counter(stack[-1][0] for (c, _), stack in built.items() if c == city)
        if not owners:
            continue
        most = max(owners.values())
        leaders = [colour for colour, k in owners.items() if k == most]
        out.append(("city majority", city, MAJORITY, leaders[0] if len(leaders) == 1 else None))
    for colour in colours:
        owned = sum(1 for stack in built.values() if stack[-1][0] == colour)
        if owned:
            out.append(("building", None, BUILDING * owned, colour))
    return out


def ownership_problems(board: dict[tuple[int, int], Stack]) -> list[str]:
    """M5: every building is its top piece's colour's, with at least as many storeys in it as
    any other colour (what every legal take-over keeps true)."""
    out = []
    for key, stack in sorted(board.items()):
        if not stack:
            out.append(f"an empty building at {key}")
            continue
        by = storeys_by_colour(stack)
        owner = stack[-1][0]
        if by[owner] != max(by.values()):
            out.append(f"M5: {key} is {owner}'s with {by[owner]} storeys, fewer than "
                       f"{dict(by)}")
    return out


def fingerprint(state: ManhattanState) -> tuple[Any, ...]:
    """Everything a move could change; an illegal move must leave all of it as it was."""
    return (
        state.hash, state.hash_from_scratch(), tuple(state.scores),
        tuple(sorted(state.colour_scores.items())),
        tuple(sorted((k, tuple(v)) for k, v in state.board.items())),
        tuple(sorted((c, tuple(sorted(v.items()))) for c, v in state.supply.items())),
        tuple(sorted((c, tuple(sorted(v.items()))) for c, v in state.chosen.items())),
        tuple(tuple(h) for h in state.hands), tuple(state.pile), tuple(state.played),
        state.reshuffles, state.phase, state.round, state.first, state.turn,
        state.moves_played, state.finished, state.current_player,
    )


def move_key(move: Move) -> tuple[Any, ...]:
    """A total order on the moves of one position: choices, builds, discards."""
    if isinstance(move, Choose):
        return (0, move.pieces)
    if isinstance(move, Build):
        return (1, move.card, move.city, move.storeys, move.colour or "", move.draw or -1)
    return (2, move.card, move.draw or -1)


def changed(move: Build | Discard, **fields: Any) -> Any:
    """``move`` with some fields changed (an illegal move the machine tries)."""
    return replace(move, **fields)


def new_game(config: GameConfig) -> ManhattanState:
    state = MANHATTAN.new_state(config)
    assert isinstance(state, ManhattanState)
    return state


# ---------------------------------------------------------------------------- configurations


@dataclasses.dataclass(frozen=True)
class Setup:
    """What a game is played with: players, seed (None: a table game), seats, material."""

    players: int
    seed: str | None
    sides: tuple[str, ...] | None = None
    second_colours: tuple[str, ...] | None = None
    material: Material | None = None
    deal_order: tuple[int, ...] | None = None  # table games: the shuffled deck

    def config(self) -> GameConfig:
        material = self.material or Material()
        raw: list[dict[str, Any]] = [{"name": NAMES[i]} for i in range(self.players)]
        for i, p in enumerate(raw):
            if self.sides is not None:
                p["side"] = self.sides[i]
            if self.second_colours is not None:
                p["second_colour"] = self.second_colours[i]
        header: dict[str, Any] = {"players": raw}
        if self.seed is None:
            assert self.deal_order is not None
            size = material.hand_size
            header["deal"] = [list(self.deal_order[s * size:(s + 1) * size])
                              for s in range(self.players)]
        players = tuple(Player(NAMES[i], COLOURS[i]) for i in range(self.players))
        return MANHATTAN.configure(header, players, self.seed, self.material)

    def label(self) -> str:
        kind = "seeded" if self.seed is not None else "table"
        return f"{self.players} players, {kind}"


def deck_of(material: Material) -> list[int]:
    return [lot for lot, k in enumerate(material.cards_per_lot) for _ in range(k)]


@st.composite
def materials(draw: st.DrawFn, players: int) -> Material | None:
    """The default material mostly; else other cards per lot, hand sizes and pieces (M1). A
    hand of one or two cards makes a discard (no legal build) reachable."""
    if draw(st.integers(0, 3), label="material") != 0:
        return None
    hand = draw(st.integers(1, 5), label="hand size")
    cards = draw(st.lists(st.integers(0, 6), min_size=9, max_size=9), label="cards per lot")
    short = max(0, players * hand + 1 - sum(cards))  # a deal and a pile (M1, M3), spread
    for lot in range(9):  # over the lots within the schema's 20 cards a lot
        more = min(short, 20 - cards[lot])
        cards[lot] += more
        short -= more
    pieces = draw(st.lists(st.integers(0, 14), min_size=4, max_size=4), label="pieces")
    need = ROUNDS[players] * PER_ROUND[players]
    pieces[0] += max(0, need - sum(pieces))  # enough pieces for every round (M1, M7)
    return Material(tuple(cards), dict(zip(HEIGHTS, pieces, strict=True)), hand)

