"""Compare the benchmark of two checkouts side by side: interleaved runs, medians, ratios.

Usage::

    git worktree add /tmp/before <commit>          # the code to compare against
    .venv/bin/python benchmarks/compare.py /tmp/before . --rounds 5 --games 100

Each round runs ``benchmarks/bench.py --json`` of both trees (each in its own process, with its
own ``PYTHONPATH``), the first tree first in even rounds and second in odd ones, so that the
noise of a shared machine (and the speed of whoever runs first) falls on both alike.
Prints per configuration the median games/s of each and the ratio new/old.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any


def run(tree: Path, games: int) -> list[dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, str(tree / "benchmarks" / "bench.py"), "--json",
                          "--games", str(games)], env=env, cwd=tree, capture_output=True,
                         text=True, check=False)
    starts = [i for i in (out.stdout.find("{"), out.stdout.find("[")) if i >= 0]
    if not starts:
        raise SystemExit(f"{tree}: bench.py printed no JSON:\n{out.stdout}\n{out.stderr}")
    data = json.loads(out.stdout[min(starts):])
    # a list of rows (older bench.py), or an object with them under "configs"
    rows: list[dict[str, Any]] = data["configs"] if isinstance(data, dict) else data
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=100)
    args = ap.parse_args()
    samples: dict[tuple[str, str, str], list[float]] = {}
    for k in range(args.rounds):
        pair = [("old", args.old), ("new", args.new)]
        for label, tree in pair if k % 2 == 0 else pair[::-1]:  # no seat is always first
            for row in run(tree.resolve(), args.games):
                for what in ("generate_per_s", "verify_per_s"):
                    samples.setdefault((row["config"], what, label), []).append(row[what])
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    configs = list(dict.fromkeys(c for c, _, _ in samples))
    print(f"{'config':<24}{'gen old':>9}{'gen new':>9}{'ratio':>7}"
          f"{'ver old':>9}{'ver new':>9}{'ratio':>7}")
    for c in configs:
        if (c, "verify_per_s", "old") not in samples or (c, "verify_per_s", "new") not in samples:
            print(f"{c:<24}  (only in one tree)")
            continue
        line = f"{c:<24}"
        for what in ("generate_per_s", "verify_per_s"):
            old = statistics.median(samples[(c, what, "old")])
            new = statistics.median(samples[(c, what, "new")])
            line += f"{old:>9.1f}{new:>9.1f}{new / old:>7.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
