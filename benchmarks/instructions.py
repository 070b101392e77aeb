"""Compare two checkouts by instructions executed (valgrind's callgrind), not by seconds.

Usage::

    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/instructions.py /tmp/before . --games 20

Wall-clock figures on a shared virtual machine swing by 2x between runs; an instruction count
is the same twice for the same program and input whatever else the machine does. For each
configuration of ``bench.py`` and each tree, this runs under callgrind a child that generates
(or verifies) ``--games`` games, and subtracts a child that only imports and warms up, so the
figure is the work alone. Prints instructions per game and the ratio new/old. Needs
``valgrind`` (Debian package ``valgrind``); runs about a minute per configuration.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# The child imports the tree's own bench.py, whose module namespace has generate_log, dumps,
# decode and verify_data in every version of the code since the benchmark was written.
CHILD = """
import json, sys
sys.path.insert(0, {bench_dir!r})
import bench
mode, game, players, expansions, games, texts_file = {args!r}
bench.generate_log(game, players, 1, tuple(expansions))  # warm caches
texts = json.load(open(texts_file)) if mode in ("verify", "load") else []
if mode == "generate":
    for i in range(games):
        bench.generate_log(game, players, 10_000 + i, tuple(expansions))
elif mode == "verify":
    for t in texts:
        assert bench.verify_data(bench.decode(t)).valid
"""


def instructions(tree: Path, mode: str, config: tuple[str, int, tuple[str, ...]], games: int,
                 texts_file: str) -> int:
    """Instructions callgrind counts for the child running ``mode`` in ``tree``."""
    game, players, expansions = config
    code = CHILD.format(bench_dir=str(tree / "benchmarks"),
                        args=(mode, game, players, list(expansions), games, texts_file))
    return callgrind(code, tree, f"{tree} {mode} {config}")


def callgrind(code: str, tree: Path, label: str) -> int:
    """Instructions callgrind counts for ``python -c code`` run in ``tree`` (its sources
    first on the path, a fixed hash seed); ``SystemExit`` naming ``label`` when it fails."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", code], env=env, cwd=tree, capture_output=True,
                         text=True, check=False)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or found is None:
        raise SystemExit(f"{label}: the child failed:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--configs", default="base 2p,base+I&C+H&S 4p,hunters-gatherers 2p",
                    help="comma-separated labels of bench.py's configurations")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench

    wanted = [c.strip() for c in args.configs.split(",")]
    print(f"{'config':<24}{'what':<10}{'old/game':>14}{'new/game':>14}{'new/old':>9}")
    for label, game, players, expansions, _, _ in bench.CONFIGS:
        if label not in wanted:
            continue
        texts = [bench.dumps(bench.generate_log(game, players, 20_000 + i, expansions))
                 for i in range(args.games)]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            json.dump(texts, fh)
        try:
            for mode in ("generate", "verify"):
                per_game = []
                for tree in (args.old.resolve(), args.new.resolve()):
                    setup = "none" if mode == "generate" else "load"
                    base = instructions(tree, setup, (game, players, expansions), 0, fh.name)
                    work = instructions(tree, mode, (game, players, expansions), args.games,
                                        fh.name)
                    per_game.append((work - base) / args.games)
                old, new = per_game
                print(f"{label:<24}{mode:<10}{old:>14,.0f}{new:>14,.0f}{new / old:>9.3f}",
                      flush=True)
        finally:
            os.unlink(fh.name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
