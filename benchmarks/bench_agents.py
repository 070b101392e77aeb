"""How fast the agents think, one core (issue 37).

Usage: ``python benchmarks/bench_agents.py [--games N] [--json]``.

Two measures, CPU time of this process (the machine is shared: wall clock would count the
neighbours), the engine named first (``engine: compiled`` or pure: a figure of a stale build is
no figure):

- **simulations a second** of ``mcts`` (its defaults, one determinization) in each built-in
  family, at three positions of a 2-player game (its first quarter, half, three quarters);
- **a self-play game**: 2-player base, ``mcts:500:dets=3`` at both seats (meeple_cat's
  budget: 500 simulations per determinization, 3 determinizations a move), ``--games`` games
  (default 1), the CPU seconds of each; target <= 10 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from replay import native
from replay.agents import agent
from replay.agents.games import play_game
from replay.agents.mcts import MctsAgent
from replay.core.record import parse
from replay.core.rng import SeededStream
from replay.generate import generate_log

SELF_PLAY_TARGET_S = 10.0
FAMILIES = (("base", ()), ("base", ("inns-cathedrals", "hills-sheep")),
            ("hunters-gatherers", ()), ("manhattan", ()))
SIMS = 300


def simulations(game: str, expansions: tuple[str, ...]) -> float:
    """Simulations a second of ``mcts:SIMS:dets=1`` at three positions of a 2-player game."""
    record = parse(generate_log(game, 2, 5, expansions))
    moves = len(record.moves)
    searcher = MctsAgent(f"mcts:{SIMS}:dets=1")
    spent = 0.0
    count = 0
    for n in (moves // 4, moves // 2, 3 * moves // 4):
        state = record.playback.position(n).state
        start = time.process_time()
        searcher.search(state, SeededStream("bench", str(n)))
        spent += time.process_time() - start
        count += SIMS
    return count / spent


def self_play(games: int) -> list[float]:
    """The CPU seconds of each 2-player base self-play game at ``mcts:500:dets=3``."""
    out = []
    for k in range(games):
        start = time.process_time()
        play_game("base", [agent("mcts:500:dets=3"), agent("mcts:500:dets=3")], k)
        out.append(time.process_time() - start)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1, help="self-play games (default 1)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    out: dict[str, Any] = {"engine": native.engine(), "simulations_per_s": {}}
    for game, expansions in FAMILIES:
        label = "+".join((game, *expansions))
        out["simulations_per_s"][label] = round(simulations(game, expansions))
    games = self_play(args.games)
    out["self_play_s"] = [round(g, 2) for g in games]
    out["self_play_median_s"] = round(statistics.median(games), 2)
    out["ok"] = out["self_play_median_s"] <= SELF_PLAY_TARGET_S
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"engine: {out['engine']}")
        for label, rate in out["simulations_per_s"].items():
            print(f"mcts simulations a second, {label:<38} {rate:>7}")
        print(f"self-play game, 2-player base, mcts:500:dets=3 both seats: "
              f"{out['self_play_median_s']} s CPU (median of {len(games)}; target <= "
              f"{SELF_PLAY_TARGET_S:g} s: {'yes' if out['ok'] else 'NO'})")
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
