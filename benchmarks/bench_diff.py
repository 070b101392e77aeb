"""What ``diff`` costs against ``audit`` on the same corpus and the same workers: generated
games of the families that have the option ``small_city`` (every expansion mix, 2 to 4
players), audited, then compared under ``--a small_city=2 --b small_city=4``; the two runs
interleaved, medians of the wall-clock times, and their ratio.

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
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def corpus(games: int) -> Path:
    """``games`` generated logs, one a line (made once)."""
    path = Path(tempfile.gettempdir()) / f"bench-diff-{games}.jsonl"
    if not path.exists():
        t = time.perf_counter()
        tmp = path.with_suffix(".part")
        with tmp.open("wb") as fh, ProcessPoolExecutor() as pool:
            for line in pool.map(_one, range(games), chunksize=64):
                fh.write(line)
        tmp.rename(path)
        print(f"generated {games} logs in {time.perf_counter() - t:.0f} s: {path}",
              file=sys.stderr)
    return path


def timed(what: str, src: Path, jobs: int) -> tuple[float, int]:
    """Seconds of one run (the pool started and warmed included, as a user waits for it)."""
    t = time.perf_counter()
    if what == "audit":
        summary = audit([str(src)], io.StringIO(), "json", jobs=jobs, progress=False)
        games = summary.games
    else:
        found = diff([str(src)], io.StringIO(), SPEC, "json", jobs=jobs, progress=False)
        games = found.games
    return time.perf_counter() - t, games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    src = corpus(args.games)
    print(f"{args.games} games, {args.jobs} workers, {os.cpu_count()} cores; engine: "
          f"{native.engine()}")
    times: dict[str, list[float]] = {"audit": [], "diff": []}
    for r in range(args.rounds):
        for what in (("audit", "diff") if r % 2 == 0 else ("diff", "audit")):
            seconds, games = timed(what, src, args.jobs)
            times[what].append(seconds)
            print(f"round {r + 1} {what:5}: {seconds:6.2f} s ({games / seconds:6.1f} games/s)")
    audit_s, diff_s = (statistics.median(times[w]) for w in ("audit", "diff"))
    ratio = diff_s / audit_s
    print(f"median audit {audit_s:.2f} s, diff {diff_s:.2f} s: diff / audit = {ratio:.2f}x")
    print(f"target: diff / audit <= 2.0 (two verifications a game): "
          f"{'ok' if ratio <= 2.0 else 'MISSED'}")
    return 0 if ratio <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
