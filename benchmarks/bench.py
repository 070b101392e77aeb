"""Throughput of random-game generation and verification, one core.

Usage: ``./run bench [--games N] [--quick]``. Prints games/s for each configuration and the
targets of the issues (generation >= 100 games/s, verification >= 300 games/s for 2-player base;
expansions and Hunters & Gatherers within 2x of those; Manhattan: generation >= 500 games/s and
verification >= 1,000 logs/s).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from replay.core.json_input import decode
from replay.core.verify import verify_data
from replay.generate import dumps, generate_log

# instructions.py and compare.py use these of every version of this module
__all__ = ["CONFIGS", "decode", "dumps", "generate_log", "run", "verify_data"]

CONFIGS: list[tuple[str, str, int, tuple[str, ...], float, float]] = [
    # label, game, players, expansions, generation target, verification target
    ("base 2p", "base", 2, (), 100, 300),
    ("base 4p", "base", 4, (), 100, 300),
    ("base+I&C+H&S 2p", "base", 2, ("inns-cathedrals", "hills-sheep"), 50, 150),
    ("base+I&C+H&S 4p", "base", 4, ("inns-cathedrals", "hills-sheep"), 50, 150),
    ("hunters-gatherers 2p", "hunters-gatherers", 2, (), 50, 150),
    ("hunters-gatherers 4p", "hunters-gatherers", 4, (), 50, 150),
    ("manhattan 2p", "manhattan", 2, (), 500, 1000),  # issue 14's targets (4 players)
    ("manhattan 3p", "manhattan", 3, (), 500, 1000),
    ("manhattan 4p", "manhattan", 4, (), 500, 1000),
]


def _rate(n: int, fn: Callable[[int], Any]) -> float:
    start = time.perf_counter()
    for i in range(n):
        fn(i)
    return n / (time.perf_counter() - start)


def run(games: int) -> list[dict[str, Any]]:
    rows = []
    for label, game, players, expansions, gen_target, ver_target in CONFIGS:
        def gen(i: int, game: str = game, players: int = players,
                expansions: tuple[str, ...] = expansions) -> Any:
            return generate_log(game, players, 10_000 + i, expansions)
        generate_log(game, players, 1, expansions)  # warm caches (tile fits, hashes)
        gen_rate = _rate(games, gen)
        texts = [dumps(generate_log(game, players, 20_000 + i, expansions)) for i in range(games)]

        def ver(i: int, texts: list[str] = texts, label: str = label) -> None:
            report = verify_data(decode(texts[i]))
            if not report.valid:
                raise SystemExit(f"{label}: generated game {i} does not verify: {report.line()}")
        ver_rate = _rate(games, ver)
        rows.append({"config": label, "games": games,
                     "generate_per_s": round(gen_rate, 1), "generate_target": gen_target,
                     "verify_per_s": round(ver_rate, 1), "verify_target": ver_target,
                     "ok": gen_rate >= gen_target and ver_rate >= ver_target})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run(args.games)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'config':<28}{'generate/s':>12}{'target':>8}{'verify/s':>10}{'target':>8}  ok")
        for r in rows:
            print(f"{r['config']:<28}{r['generate_per_s']:>12}{r['generate_target']:>8}"
                  f"{r['verify_per_s']:>10}{r['verify_target']:>8}  {'yes' if r['ok'] else 'NO'}")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
