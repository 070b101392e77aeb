"""Games played by agents: ``play_game`` (one seeded game, its log) and ``arena_game`` (one
game of an arena, its result for the first agent and the finished state).

A game's seed deals its material (the pile, the deck) as ``generate`` does; each seat's agent
has a stream of its own from the same seed (purpose ``"agent:<seat>"``), so the same seed and
specs give the same game on any machine. Agents are given the true state and must not read its
hidden part (``Agent.choose``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.family import GameState
from ..core.record import log_json
from ..core.rng import SeededStream
from ..generate import config_for
from .base import Agent


def play_game(game: str, agents: Sequence[Agent], seed: int | str,
              expansions: Sequence[str] = (), options: dict[str, Any] | None = None,
              progress: Callable[[int], None] | None = None) -> tuple[GameState, dict[str, Any]]:
    """Play a seeded game with ``agents[k]`` at seat k: the finished state and its log
    (claims and winners included, the agents' specs by seat in its ``meta``). ``progress``
    is told the moves played so far after each."""
    config = config_for(game, len(agents), seed, expansions, options)
    from ..core.family import family as family_of

    family = family_of(config.game)
    state = family.new_state(config)
    streams = [SeededStream(str(seed), f"agent:{k}") for k in range(len(agents))]
    moves: list[dict[str, Any]] = []
    while not state.finished:
        seat = state.current_player
        assert seat is not None
        move = agents[seat].choose(state, streams[seat])
        state.play(move)
        moves.append(family.encode_move(move))
        if progress is not None:
            progress(len(moves))
    names = [p.name for p in config.players]
    log = log_json(family, config, moves, claims={
        "final_scores": dict(zip(names, state.scores, strict=True)),
        "winners": [names[p] for p in state.winners()],
    }, meta={"generator": "carcassonne-replay play",  # a log's meta holds flat values:
             "agents": ",".join(a.spec for a in agents)})  # the specs by seat, as given
    log["seed"] = seed
    return state, log


def arena_game(game: str, a: Agent, b: Agent, index: int, seed: int | str, players: int = 2,
               expansions: Sequence[str] = (),
               options: dict[str, Any] | None = None) -> tuple[float, int, GameState]:
    """Game ``index`` of an arena between ``a`` and ``b``: ``a`` at seat ``index % players``
    (seats alternate), ``b`` at the others; the seed ``<seed>-<index>``. Returns ``a``'s
    result (1 a win, 0.5 a best score shared, 0 a loss), its seat and the finished state."""
    seat = index % players
    seated = [a if k == seat else b for k in range(players)]
    state, _ = play_game(game, seated, f"{seed}-{index}", expansions, options)
    winners = state.winners()
    result = (1.0 if winners == [seat] else 0.5 if seat in winners else 0.0)
    return result, seat, state
