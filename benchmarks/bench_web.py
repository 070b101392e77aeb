"""Server time of the viewer, one core.

Usage: ``python benchmarks/bench_web.py [--requests N] [--seed S] [--json]``.

Stores a random 4-player base game, then times ``GET /games/<id>/moves/<last>`` (the viewer
page at the last move: a replay to that move, the SVG board, the move list and the chart) with
Flask's test client, in process, so the figure is the time spent in the app (no network). The
first view of a game parses it and plays it through once for the move list and the chart; the
target (median <= 50 ms) is for the views after that. The board as SVG and the JSON state of
the same position are timed too, for comparison.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from replay.generate import dumps, generate_log
from web.app import create_app

TARGET_MS = 50.0


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def run(requests: int, seed: int) -> list[dict[str, Any]]:
    log = generate_log("base", 4, seed)
    last = len(log["moves"])
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        database = str(Path(tmp) / "bench.db")
        stored = create_app({"DATABASE": database}).test_client().post(
            "/api/games", data=dumps(log), content_type="application/json")
        game_id = stored.get_json()["id"]
        # a fresh app: its cache is empty, as after a restart
        client = create_app({"DATABASE": database}).test_client()
        for label, url in (
            ("viewer page, last move", f"/games/{game_id}/moves/{last}"),
            ("board SVG, last move", f"/games/{game_id}/moves/{last}.svg"),
            ("JSON state, last move", f"/api/games/{game_id}/moves/{last}"),
            ("viewer page, move 36", f"/games/{game_id}/moves/36"),
        ):
            start = time.perf_counter()
            response = client.get(url)
            first = _ms(start)
            if response.status_code != 200:
                raise SystemExit(f"{url}: HTTP {response.status_code}")
            times = []
            for _ in range(requests):
                start = time.perf_counter()
                response = client.get(url)
                times.append(_ms(start))
                if response.status_code != 200:
                    raise SystemExit(f"{url}: HTTP {response.status_code}")
            times.sort()
            median = statistics.median(times)
            rows.append({
                "what": label, "url": url, "requests": requests, "bytes": len(response.data),
                "first_ms": round(first, 2), "median_ms": round(median, 2),
                "p90_ms": round(times[int(0.9 * (len(times) - 1))], 2),
                "max_ms": round(times[-1], 2), "target_ms": TARGET_MS,
                "ok": median <= TARGET_MS,
            })
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run(args.requests, args.seed)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'what':<26}{'first ms':>10}{'median ms':>11}{'p90 ms':>9}{'max ms':>9}"
              f"{'KB':>7}  target")
        for r in rows:
            print(f"{r['what']:<26}{r['first_ms']:>10}{r['median_ms']:>11}{r['p90_ms']:>9}"
                  f"{r['max_ms']:>9}{r['bytes'] / 1024:>7.0f}  <= {r['target_ms']:g} ms "
                  f"{'yes' if r['ok'] else 'NO'}")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
