"""The state hash of a Manhattan game (L4, docs/determinism.md): the tables that make its
incremental upkeep cheap, and the hash computed from scratch that the tests compare it with."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...core import hashing
from .material import HEIGHTS

if TYPE_CHECKING:
    from .state import ManhattanState

_item = hashing.item


PIECE: dict[tuple[int, int, int, str, int], int] = {}
TURN: dict[tuple[str, int, int, int], int] = {}
SUPPLY: dict[tuple[str, int, int], int] = {}


def remember(table: dict[Any, int], key: Any, name: str) -> int:
    """The hash item ``name|key...``, kept in ``table`` (a lookup costs less than a call)."""
    value = table[key] = _item(name, *key)
    return value


@lru_cache(maxsize=64)
def start_hash(colours: tuple[str, ...], pieces: tuple[tuple[int, int], ...]) -> int:
    """The supply and score items of a game before its first move."""
    h = 0
    for colour in colours:
        h ^= _item("m-score", colour, 0)
        for height, count in pieces:
            h ^= _item("m-supply", colour, height, count)
    return h


def from_scratch(state: ManhattanState) -> int:
    """Every item of the state hash, XORed anew."""
    h = hashing.item("m-turn", state.phase, state.round, state.first, state.turn)
    for (city, lot), stack in state.board.items():
        for level, (colour, s) in enumerate(stack):
            h ^= _item("m-piece", city, lot, level, colour, s)
    for colour in state.colours:
        h ^= _item("m-score", colour, state.colour_scores[colour])
        for height in HEIGHTS:
            h ^= _item("m-supply", colour, height, state.supply[colour][height])
    h ^= _item("m-reshuffles", state.deck.reshuffles)
    for seat, hand in enumerate(state.hands):
        for k, card in enumerate(hand):
            h ^= _item("m-hand", seat, card, hand[:k].count(card))
    for i, card in enumerate(state.played):
        h ^= _item("m-played", i, card)
    return h
