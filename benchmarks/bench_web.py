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

``--variations REV`` times a variation move (issue 36: a line replayed from the game's
checkpoint at its branch) on that 6-player game, a move tried at its middle and near its end:
the line read, replayed and summarised, and the first view of its page, this checkout against
``REV`` in separate processes (pure Python both), rounds interleaved; it fails unless the
line's replay is at least 3x faster. Example: ``bench_web.py --variations f8b52e2``.

``--uploads REV`` times storing a game (``POST /api/games``, every family in turn, issue 38:
the rows as data written with it) against ``REV``, as ``--variations`` does; it fails when
this checkout is more than 20 % slower. Example: ``bench_web.py --uploads c42e214``.

``--compare REV`` is the load comparison instead: the viewer page of that 4-player game (its
last move, or ``--move N``) served by the real server (``python -m replay serve``: waitress, 2
processes) of this checkout and of ``REV`` (a commit, checked out into a temporary ``git
worktree`` and removed after; or the path of a checkout), side by side on two ports. Each
round sends ``--requests`` requests from ``--clients`` clients (threads, keep-alive
connections) to one server, then to the other, the first one alternating, so that whatever
else loads the machine falls on both alike; it prints per side the medians of the requests a
second, of the servers' CPU time a request (their processes' own, from ``/proc``: the steadier
figure on a shared machine) and of the app's own time (its ``Server-Timing``), and the ratios
new/old. Both sides run the pure-Python engine (``REPLAY_PURE=1``): the compiled build in
``build/native`` serves only the checkout it was built from, so pure against pure is the fair
comparison. Example: ``bench_web.py --compare bcfc641 --clients 8 --rounds 8``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
            ("variation page, 6p", f"/games/{game_id}/variation/{n}/{token}/moves/{n + 1}"),
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


# --------------------------------------------------------------------------- --compare

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """The checkout of ``rev``: a directory as it is, else a commit checked out into a
    temporary git worktree (removed after)."""
    if Path(rev).is_dir():
        yield Path(rev).resolve()
        return
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                       check=True, capture_output=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tree)], check=False, capture_output=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(tree: Path, work: Path, name: str) -> Iterator[tuple[int, int]]:
    """``python -m replay serve`` of ``tree`` (pure Python, its own library in ``work``):
    (port, pid), stopped after by its pid."""
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(tree), REPLAY_PURE="1")
    with open(work / f"{name}.log", "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "replay", "serve", "--port", str(port),
                                 "--db", str(work / f"{name}.db")], cwd=tree, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    raise SystemExit(f"{name}: the server stopped: "
                                     f"{(work / f'{name}.log').read_text()[-2000:]}") from None
                time.sleep(0.1)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) of ``pid`` and its descendants (Linux; 0 elsewhere)."""
    pids, total = [pid], 0.0
    while pids:
        p = pids.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            pids += [int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total


def burst(port: int, path: str, requests: int, clients: int) -> tuple[float, list[float]]:
    """``requests`` GETs of ``path`` from ``clients`` threads on keep-alive connections: the
    requests a second and the app times its answers gave (``Server-Timing``, ms)."""
    left = [requests]
    lock = threading.Lock()
    app_ms: list[float] = []
    failures: list[str] = []

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            while True:
                with lock:
                    if left[0] <= 0:
                        return
                    left[0] -= 1
                conn.request("GET", path)
                answer = conn.getresponse()
                answer.read()
                if answer.status != 200:
                    failures.append(f"HTTP {answer.status}")
                timing = answer.getheader("Server-Timing") or ""
                if timing.startswith("cpu;dur="):
                    app_ms.append(float(timing[len("cpu;dur="):]))
        except (OSError, http.client.HTTPException) as exc:
            failures.append(repr(exc))
        finally:
            conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    if failures:
        raise SystemExit(f"port {port}, {path}: {len(failures)} failed: {failures[0]}")
    return requests / elapsed, app_ms


def _store(port: int, data: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("POST", "/api/games", body=data.encode("utf-8"),
                 headers={"Content-Type": "application/json"})
    answer = conn.getresponse()
    body = json.loads(answer.read())
    if answer.status not in (200, 201):
        raise SystemExit(f"port {port}: storing the game answered {answer.status}: {body}")
    return str(body["id"])


def compare(rev: str, rounds: int, requests: int, clients: int, seed: int,
            move: int | None) -> dict[str, Any]:
    """The load comparison of ``--compare`` (see the module): medians per side, ratios."""
    log = generate_log("base", 4, seed)
    n = len(log["moves"]) if move is None else move
    sides: dict[str, dict[str, list[float]]] = {
        "old": {"rps": [], "cpu_ms": [], "app_ms": []},
        "new": {"rps": [], "cpu_ms": [], "app_ms": []}}
    with checkout(rev) as old_tree, tempfile.TemporaryDirectory() as tmp, \
            server(old_tree, Path(tmp), "old") as old, server(ROOT, Path(tmp), "new") as new:
        paths = {}
        for label, (port, _) in (("old", old), ("new", new)):
            paths[label] = f"/games/{_store(port, dumps(log))}/moves/{n}"
            burst(port, paths[label], 4 * clients, clients)  # each process's first view
        for k in range(rounds):
            order = [("old", old), ("new", new)]
            for label, (port, pid) in order if k % 2 == 0 else order[::-1]:
                cpu = _cpu_seconds(pid)
                rps, app_ms = burst(port, paths[label], requests, clients)
                cpu_ms = (_cpu_seconds(pid) - cpu) * 1000 / requests
                sides[label]["rps"].append(rps)
                sides[label]["cpu_ms"].append(cpu_ms)
                sides[label]["app_ms"].append(statistics.median(app_ms) if app_ms else 0.0)
                print(f"round {k + 1}/{rounds} {label}: {rps:.0f} requests/s, "
                      f"{cpu_ms:.2f} ms CPU a request", file=sys.stderr)
    out: dict[str, Any] = {"rev": rev, "page": f"viewer page, 4 players, move {n}",
                           "rounds": rounds, "requests": requests, "clients": clients}
    for what in ("rps", "cpu_ms", "app_ms"):
        old_m = statistics.median(sides["old"][what])
        new_m = statistics.median(sides["new"][what])
        out[what] = {"old": round(old_m, 2), "new": round(new_m, 2),
                     "new/old": round(new_m / old_m, 3) if old_m else None,
                     "old_all": [round(x, 1) for x in sides["old"][what]],
                     "new_all": [round(x, 1) for x in sides["new"][what]]}
    return out


def _print_compare(out: dict[str, Any]) -> None:
    print(f"{out['page']}: this checkout against {out['rev']}, pure Python both, "
          f"{out['rounds']} interleaved rounds of {out['requests']} requests from "
          f"{out['clients']} clients; medians")
    names = {"rps": "requests a second", "cpu_ms": "server CPU ms a request",
             "app_ms": "app ms a request (Server-Timing)"}
    print(f"{'':<34}{'old':>9}{'new':>9}{'new/old':>9}")
    for what, name in names.items():
        row = out[what]
        print(f"{name:<34}{row['old']:>9}{row['new']:>9}{row['new/old']:>9}")


# --------------------------------------------------------------------------- --variations

VARIATION_SPEEDUP = 3.0  # a variation move at least this many times faster than ``REV``'s


def variation_child(runs: int, seed: int) -> dict[str, list[float]]:
    """One side of ``--variations`` (run with the checkout it times first on ``PYTHONPATH``):
    a variation move on the 6-player game with both expansions, a move tried at its middle
    and near its end: the line read, replayed and summarised (``web.variations.read`` and the
    entry's summary: what a click costs beyond drawing a page) and the whole first view of the
    page it opens; ``runs`` of each, the kept variations and positions forgotten before
    each, in milliseconds; and the page exploring the position the move is tried at (its
    choices listed anew: what the analysis board's ghosts add to it)."""
    from web import db as store
    from web import variations
    from web.games import cache

    game, players, expansions = BIG
    log = generate_log(game, players, seed, expansions)
    out: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.db"), "ANALYSIS_RATE_LIMIT": None})
        client = app.test_client()
        game_id = client.post("/api/games", data=dumps(log),
                              content_type="application/json").get_json()["id"]
        client.get(f"/games/{game_id}/moves/1")  # the game replayed and summarised once
        moves = len(log["moves"])
        for where, n in (("middle", moves // 2), ("end", moves - 2)):
            options = client.get(f"/api/games/{game_id}/moves/{n}/choices").get_json()[
                "choices"]["options"]
            engine, page = out.setdefault(f"read, {where}", []), out.setdefault(
                f"page, {where}", [])
            explored = out.setdefault(f"explore, {where}", [])
            for k in range(runs):
                token = options[k % len(options)]["token"]
                for kept in ("replay_variations", "replay_explored"):
                    app.extensions.pop(kept, None)
                with app.test_request_context():
                    entry = cache().get(store.get_db(), game_id)
                    assert entry is not None
                    start = time.perf_counter()
                    variations.read(entry, n, token).entry.summary  # noqa: B018 (computed)
                    engine.append(_ms(start))
                for url, times in ((f"/games/{game_id}/variation/{n}/{token}/moves/{n + 1}",
                                    page), (f"/games/{game_id}/moves/{n}?explore=1", explored)):
                    for kept in ("replay_variations", "replay_explored"):
                        app.extensions.pop(kept, None)  # a first view
                    start = time.perf_counter()
                    answer = client.get(url)
                    times.append(_ms(start))
                    if answer.status_code != 200:
                        raise SystemExit(f"{url}: HTTP {answer.status_code}")
    return out


def upload_child(runs: int, seed: int) -> dict[str, list[float]]:
    """One side of ``--uploads`` (as ``variation_child``): ``runs`` generated games of every
    family (a 2-player and a 4-player base game with both expansions, Hunters & Gatherers,
    Manhattan, in turn), each posted to ``/api/games`` of a new library, in milliseconds a
    post: what storing costs (the check, the row, and since issue 38 the rows as data)."""
    logs = [dumps(generate_log(UPLOADED[k % len(UPLOADED)][0], UPLOADED[k % len(UPLOADED)][1],
                               k, UPLOADED[k % len(UPLOADED)][2]))
            for k in range(seed, seed + runs)]
    out: dict[str, list[float]] = {"upload": []}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.db"), "RATE_LIMIT": None})
        client = app.test_client()
        for data in logs:
            start = time.perf_counter()
            answer = client.post("/api/games", data=data, content_type="application/json")
            out["upload"].append(_ms(start))
            if answer.status_code != 201:
                raise SystemExit(f"upload: HTTP {answer.status_code}")
    return out


UPLOADED = (("base", 2, ()), ("base", 4, ("inns-cathedrals", "hills-sheep")),
            ("hunters-gatherers", 3, ()), ("manhattan", 3, ()))  # game, players, expansions


def compare_variations(rev: str, rounds: int, runs: int, seed: int,
                       child: str = "--variation-child") -> dict[str, Any]:
    """``--variations`` (or ``--uploads``, ``child`` "--upload-child"): ``variation_child``
    of this checkout and of ``rev``, each in its own process (pure Python both, as
    ``--compare``), the rounds interleaved, the first side alternating; per row the medians
    of all runs and the speed-up old/new."""
    times: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    with checkout(rev) as old_tree:
        for k in range(rounds):
            order = [("old", old_tree), ("new", ROOT)]
            for label, tree in order if k % 2 == 0 else order[::-1]:
                env = dict(os.environ, PYTHONPATH=str(tree), REPLAY_PURE="1")
                done = subprocess.run([sys.executable, str(Path(__file__).resolve()),
                                       child, "--requests", str(runs),
                                       "--seed", str(seed + k * runs)], env=env, cwd=tree,
                                      capture_output=True, text=True, check=False)
                if done.returncode:
                    raise SystemExit(f"{label} ({tree}): {done.stderr[-2000:]}")
                for row, values in json.loads(done.stdout).items():
                    times[label].setdefault(row, []).extend(values)
                print(f"round {k + 1}/{rounds} {label} done", file=sys.stderr)
    rows = {}
    for row in times["new"]:
        old_m, new_m = (statistics.median(times[side][row]) for side in ("old", "new"))
        rows[row] = {"old_ms": round(old_m, 2), "new_ms": round(new_m, 2),
                     "speedup": round(old_m / new_m, 2) if new_m else None}
    return {"rev": rev, "rounds": rounds, "runs": runs, "rows": rows}


UPLOAD_SLOWER = 20.0  # per cent: the upload's cost with the rows as data (issue 38)


def _print_variations(out: dict[str, Any]) -> bool:
    print(f"a variation move, 6 players, both expansions: this checkout against "
          f"{out['rev']}, pure Python both, {out['rounds']} interleaved rounds of "
          f"{out['runs']} moves; medians")
    print(f"{'':<16}{'old ms':>9}{'new ms':>9}{'old/new':>9}")
    for row, r in out["rows"].items():
        print(f"{row:<16}{r['old_ms']:>9}{r['new_ms']:>9}{r['speedup']:>8}x")
    ok = all(r["speedup"] >= VARIATION_SPEEDUP for row, r in out["rows"].items()
             if row.startswith("read"))
    print(f"the line's replay at least {VARIATION_SPEEDUP:g}x faster: {'yes' if ok else 'NO'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=None,
                        help="requests a row (default 50), a round of --compare (default 300)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--compare", metavar="REV", help="the load comparison with REV (a "
                        "commit or a checkout's path) instead of the rows")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of --compare (default 6)")
    parser.add_argument("--clients", type=int, default=8,
                        help="clients of --compare (default 8)")
    parser.add_argument("--move", type=int, default=None,
                        help="the position --compare views (default: the last)")
    parser.add_argument("--variations", metavar="REV", help="a variation move on the 6-player "
                        "game, this checkout against REV (a commit or a checkout's path)")
    parser.add_argument("--variation-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--uploads", metavar="REV", help="the upload rate (POST /api/games, "
                        "every family), this checkout against REV")
    parser.add_argument("--upload-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.variation_child:
        print(json.dumps(variation_child(args.requests or 10, args.seed)))
        return 0
    if args.upload_child:
        print(json.dumps(upload_child(args.requests or 12, args.seed)))
        return 0
    if args.uploads:
        found = compare_variations(args.uploads, args.rounds, args.requests or 12, args.seed,
                                   "--upload-child")
        row = found["rows"]["upload"]
        ok = row["new_ms"] <= row["old_ms"] * (1 + UPLOAD_SLOWER / 100)
        print(f"an upload (POST /api/games, every family in turn): this checkout against "
              f"{found['rev']}, pure Python both, {found['rounds']} interleaved rounds of "
              f"{found['runs']} games; medians: {row['old_ms']} ms before, {row['new_ms']} ms "
              f"now: {100 * (row['new_ms'] / row['old_ms'] - 1):+.1f} % (at most "
              f"+{UPLOAD_SLOWER:.0f} %: {'yes' if ok else 'NO'})")
        return 0 if ok else 1
    if args.variations:
        found = compare_variations(args.variations, args.rounds, args.requests or 10,
                                   args.seed)
        if args.json:
            print(json.dumps(found, indent=1))
            return 0
        return 0 if _print_variations(found) else 1
    if args.compare:
        out = compare(args.compare, args.rounds, args.requests or 300, args.clients, args.seed,
                      args.move)
        if args.json:
            print(json.dumps(out, indent=1))
        else:
            _print_compare(out)
        return 0
    requests = args.requests or 50
    rows = (run(requests, args.seed) + curve(max(5, requests // 5), args.seed)
            + analysis(max(5, requests // 5), args.seed))
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
