"""Export throughput: ``python -m replay export`` of N generated logs (every family, mixed
expansions and player counts: bench_audit's corpus, made once and kept in the temporary
directory) to SQLite and to CSV; rows written a second (the five tables: games, moves, events,
results, result_points) and games a second, the whole command as a user runs it (the walk,
the verification, the library, the files).

    .venv/bin/python benchmarks/bench_export.py [--games 10000] [--jobs 1] [--formats sqlite,csv]
    .venv/bin/python benchmarks/bench_export.py --games 200        # a quick run

``--audit`` also times ``audit`` of the same corpus with the same workers: what the export
costs beyond the verification it needs anyway.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_audit import corpus  # noqa: E402

from replay.audit import audit  # noqa: E402
from replay.audit.export import export  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="games (default: 10000)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default: 1)")
    ap.add_argument("--formats", default="sqlite,csv",
                    help="comma-separated formats (default: sqlite,csv)")
    ap.add_argument("--audit", action="store_true",
                    help="also time audit of the same corpus (default: off)")
    args = ap.parse_args()
    src = corpus(args.games)
    print(f"{args.games} games ({src}), {args.jobs} worker{'s' * (args.jobs != 1)}")
    print(f"{'format':8} {'games/s':>9} {'rows/s':>10} {'rows':>10} {'seconds':>8}")
    for fmt in args.formats.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / ("games.db" if fmt == "sqlite" else fmt)
            start = time.perf_counter()
            result = export([str(src)], str(out), fmt, jobs=args.jobs, progress=False)
            seconds = time.perf_counter() - start
        rows = sum(result.rows.values())
        print(f"{fmt:8} {result.summary.games / seconds:9.1f} {rows / seconds:10.0f} "
              f"{rows:10d} {seconds:8.1f}")
    if args.audit:
        start = time.perf_counter()
        summary = audit([str(src)], io.StringIO(), "json", jobs=args.jobs, progress=False)
        seconds = time.perf_counter() - start
        print(f"{'(audit)':8} {summary.games / seconds:9.1f} {'':>10} {'':>10} {seconds:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
