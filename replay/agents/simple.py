"""The two agents that do not search: ``random`` (the family's generator policy: what
``python -m replay generate`` plays) and ``greedy`` (the move with the best immediate change
of the value of the scores if the game ended now)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Agent, position_value

if TYPE_CHECKING:
    from ..core.family import GameState
    from ..core.rng import SeededStream


class RandomAgent(Agent):
    """``random``: a legal move by the family's generator policy (``Family.play_random``),
    which is uniform among the legal moves or close to it (see each family's policy)."""

    spec = "random"

    def choose(self, state: GameState, rng: SeededStream) -> Any:
        return state.family.play_random(state.copy(), rng)


class GreedyAgent(Agent):
    """``greedy``: every legal move played on a copy, the one whose position is worth most
    to the mover (``base.value`` of its scores if the game ended now: the outcome, then the
    margin) chosen; equal values are broken by ``rng``. One ply, no look at the hidden part:
    what the move itself scores and builds."""

    spec = "greedy"

    def choose(self, state: GameState, rng: SeededStream) -> Any:
        return ranked(state, rng)[0][1]


def ranked(state: GameState, rng: SeededStream) -> list[tuple[float, Any]]:
    """The legal moves of ``state`` with the mover's value after each (``GreedyAgent``), best
    first, ties in an order drawn from ``rng``."""
    return ranked_among(state, list(state.legal_moves()), rng)


def ranked_among(state: GameState, moves: list[Any],
                 rng: SeededStream) -> list[tuple[float, Any]]:
    """``ranked`` of some legal moves of ``state``."""
    seat = state.current_player
    assert seat is not None, "a finished game has no move to choose"
    moves = list(moves)
    rng.shuffle(moves)  # ties: the seed's order (a stable sort keeps it)
    out = []
    for move in moves:
        after = state.copy()
        after.play(move)
        out.append((position_value(after)[seat], move))
    out.sort(key=lambda vm: -vm[0])
    return out
