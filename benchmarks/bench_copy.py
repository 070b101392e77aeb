"""What a copy of a position costs beside a move (issue 37: search copies a position per
determinization, then plays on it).

Usage: ``.venv/bin/python benchmarks/bench_copy.py [--rounds R] [--instructions]``.

For each configuration, at move 35 of a generated game (seed 35): ``copy()`` and ``apply()``
(the move the log plays there, with its events, on a fresh copy each time) and ``play()``
(the same without events, as the verifier and a search's playouts play), in µs, each the
median of R rounds that each go through every configuration and every operation
(interleaved: a slow spell of the shared machine falls on all alike), beside the copy by
pickling that ``TileState.copy`` was before (``tiles/snapshot.pickled_copy``; Manhattan copied
field by field already). Target: ``copy()`` within 5 times an ``apply()``. Exit 1 when missed.

``--instructions`` adds instructions per operation (valgrind's callgrind, as
``benchmarks/instructions.py`` counts them: a child doing the operation N times less one doing
it none, so the figure is the operation alone): the same on a busy machine as on an idle one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.core.record import parse  # noqa: E402
from replay.generate import generate_log  # noqa: E402

CONFIGS: list[tuple[str, str, int, tuple[str, ...]]] = [
    # label, game, players, expansions
    ("base 2p", "base", 2, ()),
    ("base+I&C+H&S 6p", "base", 6, ("inns-cathedrals", "hills-sheep")),
    ("hunters-gatherers 2p", "hunters-gatherers", 2, ()),
    ("manhattan 4p", "manhattan", 4, ()),
]
AT = 35  # the position: moves played
SEED = 35
TARGET = 5.0  # copy() at most this many apply()s (issue 37)
ROUNDS = 7
BATCH = 200  # operations timed together (a copy lasts some µs: the clock's own cost is small)
OPERATIONS = ("copy", "pickled", "apply", "play")


def position(game: str, players: int, expansions: tuple[str, ...]) -> tuple[Any, Any]:
    """The state after ``AT`` moves of the generated game, and the move played next."""
    record = parse(generate_log(game, players, SEED, expansions))
    state = record.new_state()
    for move in record.moves[:AT]:
        state.apply(move)
    return state, record.moves[AT]


def old_copy(state: Any) -> Callable[[], Any] | None:
    """The copy ``state.copy()`` made before issue 37 (None: the same as now)."""
    from replay.tiles.state import TileState

    if not isinstance(state, TileState):
        return None
    from replay.tiles.snapshot import pickled_copy

    return lambda: pickled_copy(state)


def timed(state: Any, move: Any, what: str) -> float | None:
    """µs per operation ``what`` on ``state``, over ``BATCH`` of them."""
    if what in ("apply", "play"):
        states = [state.copy() for _ in range(BATCH)]  # a fresh position each (not timed)
        act = [s.apply if what == "apply" else s.play for s in states]
        start = time.perf_counter()
        for f in act:
            f(move)
        return (time.perf_counter() - start) / BATCH * 1e6
    copy = state.copy if what == "copy" else old_copy(state)
    if copy is None:
        return None
    start = time.perf_counter()
    for _ in range(BATCH):
        copy()
    return (time.perf_counter() - start) / BATCH * 1e6


def run(rounds: int = ROUNDS) -> list[dict[str, Any]]:
    """Per configuration the median µs of each operation and the ratios to ``apply``."""
    prepared = [(label, *position(game, players, expansions))
                for label, game, players, expansions in CONFIGS]
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for label, state, move in prepared:
            for what in OPERATIONS:
                us = timed(state, move, what)
                if us is not None:
                    times.setdefault((label, what), []).append(us)
    rows = []
    for label, _, _ in prepared:
        row: dict[str, Any] = {"config": label, "rounds": rounds}
        for what in OPERATIONS:
            found = times.get((label, what))
            row[f"{what}_us"] = None if found is None else round(statistics.median(found), 2)
        apply_us = row["apply_us"]
        row["copy_per_apply"] = round(row["copy_us"] / apply_us, 2)
        row["pickled_per_apply"] = (None if row["pickled_us"] is None
                                    else round(row["pickled_us"] / apply_us, 2))
        row["ok"] = row["copy_per_apply"] <= TARGET
        rows.append(row)
    return rows


# the child run under callgrind: the position, then ``n`` times the operation
CHILD = """
import sys
sys.path.insert(0, {bench_dir!r})
import bench_copy as b
import replay.tiles.snapshot  # (for every mode alike: the pickled copy's imports)
from replay import native
label, what, n, compiled = {args!r}
assert native.active() == compiled, "the engine is not the parent's: " + native.engine()
game, players, expansions = next(c[1:] for c in b.CONFIGS if c[0] == label)
state, move = b.position(game, players, tuple(expansions))
copy = b.old_copy(state) if what == "pickled" else state.copy
states = [state.copy() for _ in range(n)] if what in ("apply", "play") else []
if what in ("copy", "pickled"):
    for _ in range(n):
        copy()
for s in states:
    s.apply(move) if what == "apply" else s.play(move)
"""


def instructions(label: str, what: str, n: int) -> int:
    """Instructions callgrind counts for the child doing ``what`` ``n`` times."""
    from replay import native

    code = CHILD.format(bench_dir=str(ROOT / "benchmarks"),
                        args=(label, what, n, native.active()))
    from instructions import callgrind  # benchmarks/instructions.py, beside this script

    return callgrind(code, ROOT, f"{label} {what}")


def counted(rows: list[dict[str, Any]], n: int = 50) -> None:
    """Add to ``rows`` the instructions per operation (see the module)."""
    for row in rows:
        label = row["config"]
        base = instructions(label, "none", n)
        # the fresh positions ``apply`` and ``play`` act on are copies made before: their
        # cost is the copy's, subtracted
        copies = instructions(label, "copy", n) - base
        for what in OPERATIONS:
            if what == "pickled" and row["pickled_us"] is None:
                row["pickled_instr"] = None
                continue
            total = instructions(label, what, n) - base
            if what in ("apply", "play"):
                total -= copies
            row[f"{what}_instr"] = round(total / n)
        row["copy_per_apply_instr"] = round(row["copy_instr"] / row["apply_instr"], 2)
        if row["pickled_instr"] is not None:
            row["pickled_per_apply_instr"] = round(row["pickled_instr"] / row["apply_instr"], 2)


def engine() -> str:
    from replay import native

    return native.engine()


def table(rows: list[dict[str, Any]]) -> str:
    """The figures as text, one line per configuration (and one of instructions, if counted)."""
    def num(x: float | None, width: int) -> str:
        return f"{'-' if x is None else f'{x:,.1f}':>{width}}"

    lines = [f"copy() and apply() at move {AT}, µs (median of {rows[0]['rounds']} rounds); "
             f"target copy <= {TARGET:g} x apply",
             f"{'config':<22}{'copy':>9}{'apply':>9}{'play':>9}{'copy/apply':>12}"
             f"{'before: pickled':>17}{'/apply':>8}  ok"]
    for r in rows:
        lines.append(f"{r['config']:<22}{num(r['copy_us'], 9)}{num(r['apply_us'], 9)}"
                     f"{num(r['play_us'], 9)}{num(r['copy_per_apply'], 12)}"
                     f"{num(r['pickled_us'], 17)}{num(r['pickled_per_apply'], 8)}"
                     f"  {'yes' if r['ok'] else 'NO'}")
    if "copy_instr" in rows[0]:
        lines.append("instructions per operation (callgrind)")
        for r in rows:
            lines.append(f"{r['config']:<22}{r['copy_instr']:>9,}{r['apply_instr']:>9,}"
                         f"{r['play_instr']:>9,}{num(r['copy_per_apply_instr'], 12)}"
                         f"{num(r['pickled_instr'], 17)}"
                         f"{num(r.get('pickled_per_apply_instr'), 8)}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help=f"rounds over every configuration (default: {ROUNDS})")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions per operation with valgrind")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run(args.rounds)
    if args.instructions:
        counted(rows)
    if args.json:
        print(json.dumps({"engine": engine(), "configs": rows}, indent=1))
    else:
        print(f"engine: {engine()}")
        print(table(rows))
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
