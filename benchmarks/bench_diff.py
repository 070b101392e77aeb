"""What ``diff`` costs against ``audit`` on the same corpus and the same workers: generated
games of the families that have the option ``small_city`` (every expansion mix, 2 to 4
players), audited, then compared under ``--a small_city=2 --b small_city=4``; the two runs
interleaved; the medians of the wall-clock times and of the CPU times (the workers' and this
process's: on a machine shared with other work the CPU time is the steadier measure), and
their ratios.

    .venv/bin/python benchmarks/bench_diff.py [--games 1000] [--jobs 2] [--rounds 3]

Target (issue 28): a diff costs no more than two verifications a game, so at most 2x the
audit. The corpus (a JSON Lines file) is generated once, on every core, and kept in the
temporary directory.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_audit import corpus  # noqa: E402  (the script's own directory is on sys.path)

from replay import native  # noqa: E402
from replay.audit import audit  # noqa: E402
from replay.core.family import families  # noqa: E402
from replay.generate import dumps, generate_log  # noqa: E402
from replay.lab.diff import DiffSpec  # noqa: E402
from replay.lab.diff_run import diff  # noqa: E402

OPTION = "small_city"
SPEC = DiffSpec({OPTION: 2}, {OPTION: 4})


def _one(k: int) -> bytes:
    fams = [f for f in families() if any(o.key == OPTION for o in f.options)]
    fam = fams[k % len(fams)]
    mixes = fam.mixes()
    log = generate_log(fam.name, 2 + k % 3, k, mixes[(k // len(fams)) % len(mixes)])
    return dumps(log).replace("\n", "").encode() + b"\n"


class CpuSampler:
    """The CPU time (user + system) that the processes below this one spend while it runs,
    sampled 20 times a second (a worker's last 50 ms may be missed), plus this process's."""

    def __init__(self) -> None:
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        for child in psutil.Process().children(recursive=True):
            try:
                t = child.cpu_times()
            except psutil.Error:
                continue
            self.first.setdefault(child.pid, t.user + t.system)
            self.last[child.pid] = t.user + t.system

    def _run(self) -> None:
        while not self.stop.is_set():
            self._sample()
            self.stop.wait(0.05)

    def __enter__(self) -> CpuSampler:
        self._sample()  # what the processes alive already (the fork server) had spent
        self.start = time.process_time()
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        self.thread.join()
        self.own = time.process_time() - self.start

    def seconds(self) -> float:
        return self.own + sum(self.last[p] - self.first[p] for p in self.last)


def timed(what: str, src: Path, jobs: int) -> tuple[float, float, int]:
    """Wall-clock and CPU seconds of one run (the pool started and warmed included, as a user
    waits for it), and the games."""
    t = time.perf_counter()
    with CpuSampler() as cpu:
        if what == "audit":
            games = audit([str(src)], io.StringIO(), "json", jobs=jobs, progress=False).games
        else:
            games = diff([str(src)], io.StringIO(), SPEC, "json", jobs=jobs,
                         progress=False).games
    return time.perf_counter() - t, cpu.seconds(), games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    src = corpus(args.games, "bench-diff", _one)
    print(f"{args.games} games, {args.jobs} workers, {os.cpu_count()} cores; engine: "
          f"{native.engine()}")
    wall: dict[str, list[float]] = {"audit": [], "diff": []}
    cpu: dict[str, list[float]] = {"audit": [], "diff": []}
    for r in range(args.rounds):
        for what in (("audit", "diff") if r % 2 == 0 else ("diff", "audit")):
            seconds, used, games = timed(what, src, args.jobs)
            wall[what].append(seconds)
            cpu[what].append(used)
            print(f"round {r + 1} {what:5}: {seconds:6.2f} s ({games / seconds:6.1f} games/s), "
                  f"CPU {used:6.2f} s")
    ratios = {}
    for name, times in (("wall clock", wall), ("CPU", cpu)):
        a, d = (statistics.median(times[w]) for w in ("audit", "diff"))
        ratios[name] = d / a
        print(f"median {name}: audit {a:.2f} s, diff {d:.2f} s: diff / audit = {d / a:.2f}x")
    ok = ratios["CPU"] <= 2.0
    print(f"target: diff / audit <= 2.0 in CPU time (two verifications a game): "
          f"{'ok' if ok else 'MISSED'}")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
