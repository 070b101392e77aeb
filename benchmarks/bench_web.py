"""Server time of the viewer, one core.

Usage: ``python benchmarks/bench_web.py [--requests N] [--seed S] [--json]``.

Stores a random 4-player base game, then times ``GET /games/<id>/moves/<last>`` (the viewer
page at the last move: a replay to that move, the SVG board, the move list and the chart) with
Flask's test client, in process, so the figure is the time spent in the app (no network). The
first view of a game parses it and plays it through once for the move list and the chart; the
target (median <= 50 ms) is for the views after that. The board as SVG and the JSON state of
the same position are timed too, for comparison.

Then the scores if the game ended at every position (issue 30: the chart's dashed lines,
``replay.core.outlook.if_ended_now``, computed with a game's first view) of a 6-player game
with both expansions, the median of ``--requests`` runs (target: <= 150 ms), beside that
game's viewer page at its last move, first view and after. And the analysis board on that
game at its middle (target: <= 150 ms): the page with the moves the position allows
(``?explore=1``), their JSON (``/choices``) and a variation's page, first view and after.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from replay.core.outlook import if_ended_now
from replay.core.playback import play_through
from replay.core.record import parse
from replay.generate import dumps, generate_log
from web.app import create_app

TARGET_MS = 50.0
ANALYSIS_TARGET_MS = 150.0  # an explored page, a variation's page, of that game, mid-game
CURVE_TARGET_MS = 150.0  # the whole if-ended-now curve of a 6-player game, both expansions
BIG = ("base", 6, ("inns-cathedrals", "hills-sheep"))


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def _row(what: str, url: str, times: list[float], first: float, size: int,
         target: float) -> dict[str, Any]:
    times = sorted(times)
    median = statistics.median(times)
    return {"what": what, "url": url, "requests": len(times), "bytes": size,
            "first_ms": round(first, 2), "median_ms": round(median, 2),
            "p90_ms": round(times[int(0.9 * (len(times) - 1))], 2),
            "max_ms": round(times[-1], 2), "target_ms": target, "ok": median <= target}


def _time(client: Any, label: str, url: str, runs: int, target: float) -> dict[str, Any]:
    """The row of ``url``: its first request, then the median of ``runs`` more."""
    start = time.perf_counter()
    response = client.get(url)
    first = _ms(start)
    times = []
    for _ in range(runs):
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
        start = time.perf_counter()
        response = client.get(url)
        times.append(_ms(start))
    return _row(label, url[:60], times, first, len(response.data), target)


def curve(runs: int, seed: int) -> list[dict[str, Any]]:
    """The if-ended-now curve of a 6-player game with both expansions, every position (the
    median of ``runs``), and the viewer page of that game at its last move."""
    game, players, expansions = BIG
    log = generate_log(game, players, seed, expansions)
    playback = play_through(parse(log))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        if_ended_now(playback)
        times.append(_ms(start))
    rows = [_row("if-ended curve, 6p, all", f"{len(log['moves']) + 1} positions", times,
                 times[0], 0, CURVE_TARGET_MS)]
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.db")})
        client = app.test_client()
        game_id = client.post("/api/games", data=dumps(log),
                              content_type="application/json").get_json()["id"]
        client = create_app({"DATABASE": str(Path(tmp) / "bench.db")}).test_client()
        url = f"/games/{game_id}/moves/{len(log['moves'])}"
        rows.append(_time(client, "viewer page, 6p, last move", url, runs, TARGET_MS))
    return rows


def analysis(runs: int, seed: int) -> list[dict[str, Any]]:
    """The analysis board on the 6-player game with both expansions, at its middle: the page
    with the moves the position allows, their JSON, and a variation's page (its first view
    replays the variation; the next ones are kept)."""
    game, players, expansions = BIG
    log = generate_log(game, players, seed, expansions)
    n = len(log["moves"]) // 2
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        config = {"DATABASE": str(Path(tmp) / "bench.db"), "ANALYSIS_RATE_LIMIT": None}
        client = create_app(config).test_client()
        game_id = client.post("/api/games", data=dumps(log),
                              content_type="application/json").get_json()["id"]
        choices = client.get(f"/api/games/{game_id}/moves/{n}/choices").get_json()["choices"]
        token = choices["options"][0]["token"]
        for label, url in (
            ("explore page, 6p, middle", f"/games/{game_id}/moves/{n}?explore=1"),
            ("choices JSON, 6p, middle", f"/api/games/{game_id}/moves/{n}/choices"),
            ("variation page, 6p", f"/games/{game_id}/moves/{n + 1}?from={n}&line={token}"),
        ):
            rows.append(_time(client, label, url, runs, ANALYSIS_TARGET_MS))
    return rows


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
            rows.append(_time(client, label, url, requests, TARGET_MS))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = (run(args.requests, args.seed) + curve(max(5, args.requests // 5), args.seed)
            + analysis(max(5, args.requests // 5), args.seed))
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
