"""Audit throughput: 10,000 generated logs (every family, mixed expansions and player
counts) audited with 1 and 2 workers on the local pool and on a Dask LocalCluster; throughput,
speed-up, peak RSS per worker, and peak RSS for a smaller corpus (memory flat in the number of
games).

    .venv/bin/python benchmarks/bench_audit.py [--games 10000] [--jobs 1,2] [--no-dask]
    .venv/bin/python benchmarks/bench_audit.py --sizes 500,1000,2000,5000 [--rounds 3]

Targets: >= 1.8x with 2 workers on the local pool; Dask within 25 % of the local pool; the
workers' peak RSS the same for a fifth of the games. The corpus (a JSON Lines file) is
generated once, on every core, and kept in the temporary directory.

``--sizes`` measures instead, for each corpus size (the first games of the same corpus), the
audit at its defaults with ``--jobs`` workers (the last of them) on the local pool and on
``--dask local``, interleaved ``--rounds`` times: the medians of the games a second and
their ratio, whole runs (start-up and close included), so that the size from which Dask's
fixed cost stops mattering on one machine can be read off.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay.audit import audit  # noqa: E402
from replay.core.family import families  # noqa: E402
from replay.generate import dumps, generate_log  # noqa: E402


def _one(k: int) -> bytes:
    fams = families()
    fam = fams[k % len(fams)]
    mixes = fam.mixes()
    mix = mixes[(k // len(fams)) % len(mixes)]
    players = 2 + k % 3
    try:
        log = generate_log(fam.name, players, k, mix)
    except Exception:
        log = generate_log(fam.name, 2, k, mix)
    return dumps(log).replace("\n", "").encode() + b"\n"


def corpus(games: int, name: str = "bench-audit",
           make: Callable[[int], bytes] = _one) -> Path:
    """``games`` logs made by ``make`` (game k -> its line), one a line, made once on every
    core and kept in the temporary directory as ``<name>-<games>.jsonl``."""
    path = Path(tempfile.gettempdir()) / f"{name}-{games}.jsonl"
    if not path.exists():
        t = time.perf_counter()
        tmp = path.with_suffix(".part")
        with tmp.open("wb") as fh, ProcessPoolExecutor() as pool:
            for line in pool.map(make, range(games), chunksize=64):
                fh.write(line)
        tmp.rename(path)
        print(f"generated {games} logs in {time.perf_counter() - t:.0f} s: {path}",
              file=sys.stderr)
    return path


class Sampler:
    """Peak RSS of every process below this one (the workers), sampled 10 times a second."""

    def __init__(self) -> None:
        self.peak: dict[int, int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        me = psutil.Process()
        while not self.stop.is_set():
            for child in me.children(recursive=True):
                try:
                    rss = child.memory_info().rss
                except psutil.Error:
                    continue
                self.peak[child.pid] = max(self.peak.get(child.pid, 0), rss)
            self.stop.wait(0.1)

    def __enter__(self) -> Sampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        self.thread.join()

    def worker_peak_mb(self) -> float:
        """The largest peak among the processes below this one: a worker's (the fork server,
        the resource tracker and Dask's nannies are smaller)."""
        return max(self.peak.values(), default=0) / 2**20


def measure(src: Path, jobs: int, dask: str | None) -> tuple[float, float, int]:
    with Sampler() as sampler:
        summary = audit([str(src)], io.StringIO(), "json", jobs=jobs, dask=dask,
                        progress=False)
    return summary.rate, sampler.worker_peak_mb(), summary.games


def sizes(counts: list[int], jobs: int, rounds: int) -> None:
    """Dask against the local pool per corpus size (see the module): medians, ratios."""
    whole = corpus(max(counts))
    print(f"{jobs} workers, {os.cpu_count()} cores, {rounds} interleaved rounds, medians")
    with tempfile.TemporaryDirectory() as tmp:
        for n in counts:
            src = Path(tmp) / f"first-{n}.jsonl"
            with whole.open("rb") as fh, src.open("wb") as out:
                out.writelines(line for _, line in zip(range(n), fh, strict=False))
            rates: dict[str, list[float]] = {"local": [], "dask": []}
            for k in range(rounds):
                for where in ("local", "dask") if k % 2 == 0 else ("dask", "local"):
                    rate, _, games = measure(src, jobs, "local" if where == "dask" else None)
                    rates[where].append(rate)
            local, dask = (statistics.median(rates[w]) for w in ("local", "dask"))
            print(f"{games:6} games: local {local:6.1f} games/s ({games / local:5.1f} s), "
                  f"dask {dask:6.1f} games/s ({games / dask:5.1f} s): {dask / local:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--sizes", help="corpus sizes, e.g. 500,1000,5000: Dask against the "
                        "local pool at each (see the module)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --sizes (default 3)")
    args = parser.parse_args()
    if args.sizes:
        sizes([int(n) for n in args.sizes.split(",")], int(args.jobs.split(",")[-1]),
              args.rounds)
        return 0
    src = corpus(args.games)
    small = corpus(args.games // 5)
    jobs = [int(j) for j in args.jobs.split(",")]
    print(f"{args.games} games, {os.cpu_count()} cores")
    rates: dict[tuple[str, int], float] = {}
    for where in ["local"] + ([] if args.no_dask else ["dask"]):
        for j in jobs:
            rate, peak, n = measure(src, j, "local" if where == "dask" else None)
            rates[where, j] = rate
            speed = rate / rates[where, jobs[0]] * jobs[0]
            print(f"{where:5} {j} worker{'s' * (j > 1)}: {rate:7.1f} games/s "
                  f"({rate / j:6.1f} per worker), speed-up {speed:4.2f}x, "
                  f"peak RSS per worker {peak:5.0f} MB ({n} games)")
    j = jobs[-1]
    _, small_peak, n = measure(small, j, None)
    _, big_peak, m = measure(src, j, None)
    print(f"memory: peak RSS per worker {small_peak:.0f} MB for {n} games, {big_peak:.0f} MB "
          f"for {m} games")
    ok = True
    if (("local", 1) in rates and ("local", 2) in rates):
        s = rates["local", 2] / rates["local", 1]
        print(f"target speed-up >= 1.8x with 2 workers: {s:.2f}x "
              f"{'ok' if s >= 1.8 else 'MISSED'}")
        ok &= s >= 1.8
    for j in jobs:
        if ("dask", j) in rates:
            r = rates["dask", j] / rates["local", j]
            print(f"target Dask within 25 % of the local pool ({j} workers): {r:.2f} "
                  f"{'ok' if r >= 0.75 else 'MISSED'}")
            ok &= r >= 0.75
    flat = big_peak <= small_peak * 1.25 + 10
    print(f"target memory flat: {'ok' if flat else 'MISSED'}")
    return 0 if ok and flat else 1


if __name__ == "__main__":
    sys.exit(main())
