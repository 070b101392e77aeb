"""Carcassonne's generator: the random move of its policy, a move as a log object, and the
loop that plays a whole game with both. Compiled with the engine (``replay/native.py``), so a
generated game makes no interpreted call per move."""

from __future__ import annotations

from typing import Any

from ...core.errors import LogFormatError
from ...tiles.moves import encode_tile_move
from ...tiles.policy import random_placement
from .rules import ExpansionRules
from .state import CarcassonneState, Move


def random_move(state: CarcassonneState, pick: Any) -> Move:
    """The policy's move for the current tile (``tiles.policy.random_placement``), with each
    expansion's choices (``ExpansionRules.random_choices``); not played."""
    tile = state.current
    if tile is None:
        raise LogFormatError("the generator plays seeded games only")
    move: Move = random_placement(state, tile, pick, Move)
    for r in state.rules:
        move = r.random_choices(state, tile, move, pick)
    return move


def encode(move: Any, field_rules: tuple[ExpansionRules, ...]) -> dict[str, Any]:
    """A move as a log records it: the tile fields, then those of the expansions that have
    move fields (``field_rules``)."""
    out = encode_tile_move(move)
    if move.extras:
        for r in field_rules:
            out.update(r.encode(move))
    return out


def play_game(state: CarcassonneState, pick: Any,
              field_rules: tuple[ExpansionRules, ...]) -> list[dict[str, Any]]:
    """Play ``state`` to its end by ``random_move``; the moves as log objects."""
    moves: list[dict[str, Any]] = []
    while not state.finished:
        move = random_move(state, pick)
        state.play(move)  # one step: no events are kept
        moves.append(encode(move, field_rules))
    return moves
