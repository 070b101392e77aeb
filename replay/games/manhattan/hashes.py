"""The state hash of a Manhattan game (L4, docs/determinism.md): the tables that make its
incremental upkeep cheap, and the hash computed from scratch that the tests compare it with.

Every item is ``hashing.item`` of its parts, as for the tile games. The running hash is kept
as a *signed* 64-bit number (``i64``: the same bits, read as two's complement), so that once
compiled (``replay/native.py``) an XOR is one machine instruction instead of a new Python
int; ``unsigned`` gives the state hash proper. Each kind of item sits in a flat table by an
index worked out from its parts (a list lookup instead of hashing a tuple key), filled the
first time an item is needed; parts beyond a table's range (absurd material in a hand-made
header) are hashed each time instead.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from ...core import hashing
from .material import COLOURS, HEIGHTS, LOTS

if TYPE_CHECKING:
    from .state import ManhattanState

_item = hashing.item
_MASK64: Final = (1 << 64) - 1
_COLOURS: Final = len(COLOURS)
_LEVELS: Final = 32  # pieces in one building
_COUNT: Final = 64  # pieces of one colour and height in a supply
_TURNS: Final = 32  # choices or builds in a round
_ROUNDS: Final = 8
_SEATS: Final = 4
_COPIES: Final = 32  # copies of one card in a hand
_PLAYED: Final = 256  # cards played between two reshuffles
_SCORE: Final = 512
PHASES: Final = ("choose", "build", "over")

_PIECE: Final[list[i64]] = [0] * (6 * LOTS * _LEVELS * _COLOURS * 5)
_SUPPLY: Final[list[i64]] = [0] * (_COLOURS * 5 * _COUNT)
_SCORES: Final[list[i64]] = [0] * (_COLOURS * _SCORE)
_TURN: Final[list[i64]] = [0] * (len(PHASES) * _ROUNDS * _SEATS * _TURNS)
_HAND: Final[list[i64]] = [0] * (_SEATS * LOTS * _COPIES)
_PLAYED_AT: Final[list[i64]] = [0] * (_PLAYED * LOTS)
_RESHUFFLES: Final[list[i64]] = [0] * 64


def signed(value: int) -> i64:
    """A 64-bit item as a signed number (the same bits)."""
    return value - (1 << 64) if value >> 63 else value


def unsigned(h: i64) -> int:
    """The state hash (0 to 2^64 - 1) of a running signed hash."""
    return int(h) & _MASK64


def _kept(table: list[i64], i: int, *parts: object) -> i64:
    value = signed(_item(*parts))
    table[i] = value
    return value


def piece(city: int, lot: int, level: int, cid: int, colour: str, storeys: int) -> i64:
    """The item of ``colour``'s piece of ``storeys`` at ``level`` (0: the ground) of the
    building on ``lot`` of ``city``; ``cid`` is the colour's place in ``COLOURS``."""
    if level >= _LEVELS or not 0 <= storeys <= 4:
        return signed(_item("m-piece", city, lot, level, colour, storeys))
    i = (((city * LOTS + lot) * _LEVELS + level) * _COLOURS + cid) * 5 + storeys
    value = _PIECE[i]
    return value if value else _kept(_PIECE, i, "m-piece", city, lot, level, colour, storeys)


def supply(cid: int, colour: str, storeys: int, count: int) -> i64:
    """The item of ``count`` pieces of ``storeys`` left in ``colour``'s supply."""
    if not (0 <= count < _COUNT and 0 <= storeys <= 4):
        return signed(_item("m-supply", colour, storeys, count))
    i = (cid * 5 + storeys) * _COUNT + count
    value = _SUPPLY[i]
    return value if value else _kept(_SUPPLY, i, "m-supply", colour, storeys, count)


def score(cid: int, colour: str, points: int) -> i64:
    """The item of ``colour``'s score."""
    if not 0 <= points < _SCORE:
        return signed(_item("m-score", colour, points))
    i = cid * _SCORE + points
    value = _SCORES[i]
    return value if value else _kept(_SCORES, i, "m-score", colour, points)


def turn(phase: str, round_: int, first: int, turn_: int) -> i64:
    """The item of whose turn it is: phase, round, first player, choices or builds made."""
    p = 0 if phase == "choose" else 1 if phase == "build" else 2 if phase == "over" else -1
    if p < 0 or not (0 <= round_ < _ROUNDS and 0 <= first < _SEATS and 0 <= turn_ < _TURNS):
        return signed(_item("m-turn", phase, round_, first, turn_))
    i = ((p * _ROUNDS + round_) * _SEATS + first) * _TURNS + turn_
    value = _TURN[i]
    return value if value else _kept(_TURN, i, "m-turn", phase, round_, first, turn_)


def hand(seat: int, card: int, copy: int) -> i64:
    """The item of the ``copy``-th card ``card`` (0: the first) in ``seat``'s hand."""
    if not (0 <= seat < _SEATS and 0 <= card < LOTS and 0 <= copy < _COPIES):
        return signed(_item("m-hand", seat, card, copy))
    i = (seat * LOTS + card) * _COPIES + copy
    value = _HAND[i]
    return value if value else _kept(_HAND, i, "m-hand", seat, card, copy)


def played(index: int, card: int) -> i64:
    """The item of ``card`` as the ``index``-th card played since the last reshuffle."""
    if not (0 <= index < _PLAYED and 0 <= card < LOTS):
        return signed(_item("m-played", index, card))
    i = index * LOTS + card
    value = _PLAYED_AT[i]
    return value if value else _kept(_PLAYED_AT, i, "m-played", index, card)


def reshuffles(k: int) -> i64:
    """The item of ``k`` reshuffles so far."""
    if not 0 <= k < 64:
        return signed(_item("m-reshuffles", k))
    value = _RESHUFFLES[k]
    return value if value else _kept(_RESHUFFLES, k, "m-reshuffles", k)


@lru_cache(maxsize=64)
def start_hash(colours: tuple[str, ...], pieces: tuple[tuple[int, int], ...]) -> i64:
    """The supply and score items of a game before its first move."""
    h: i64 = 0
    for colour in colours:
        h ^= signed(_item("m-score", colour, 0))
        for height, count in pieces:
            h ^= signed(_item("m-supply", colour, height, count))
    return h


def from_scratch(state: ManhattanState) -> int:
    """Every item of the state hash, XORed anew (unsigned)."""
    h = hashing.item("m-turn", state.phase, state.round, state.first, state.turn)
    for (city, lot), stack in state.board.items():
        for level, (colour, s) in enumerate(stack):
            h ^= _item("m-piece", city, lot, level, colour, s)
    for colour in state.colours:
        h ^= _item("m-score", colour, state.colour_scores[colour])
        for height in HEIGHTS:
            h ^= _item("m-supply", colour, height, state.supply[colour][height])
    h ^= _item("m-reshuffles", state.deck.reshuffles)
    for seat, cards in enumerate(state.hands):
        for k, card in enumerate(cards):
            h ^= _item("m-hand", seat, card, cards[:k].count(card))
    for i, card in enumerate(state.played):
        h ^= _item("m-played", i, card)
    return h
