"""The hostile-input drill, at full size: a real server, thousands of bad inputs, the worst
inputs under the size limit, and a cheap page timed while heavy requests run.

Usage: ``.venv/bin/python tools/drill.py [--inputs 20000] [--threads 8]``

Opt-in phases, alone or together (then the hostile-input fuzz runs only with ``--inputs``):
``--soak SECONDS [--clients N]`` (mixed traffic), ``--kills`` (a worker, then the parent),
``--storage`` (a full, then read-only disk), ``--archives`` (``audit`` of hostile archives),
``--slow-readers`` (clients that never read, ``tools/drill_slow.py``), ``--computer`` (20
clients asking for computer analyses while the viewer is timed); see
``tools/drill_faults.py``. Example: ``tools/drill.py --soak 60 --clients 20 --kills
--storage --archives``.

What it does and prints:

1. starts ``python -m replay serve`` (waitress, 2 processes, rate limit off) on a new SQLite
   file on 127.0.0.1;
2. draws ``--inputs`` inputs from the Hypothesis strategies of ``tests/hostile.py`` (of two
   thirds, half hostile documents, half mutated logs of every family and mix, each sent to
   ``/api/verify`` or ``/api/games``) and of ``tests/hostile_analysis.py`` (a third: the
   analysis board's pages with ``from``/``line``/``play``/``pick``/``explore``, variations'
   pages, choices, ``POST`` of variations to play and to save, aimed at three stored games,
   with padded, respelled, junk and deep tokens, backslashes, CR LF, lone surrogates and
   moves nested 1,000 deep), from ``--threads`` threads, every seventh with the Host, Origin
   or Referer of another site (DNS rebinding, cross-site posts: ``FOREIGN``); counts the
   answers by status (the analysis board's and the foreign ones apart), the 5xx, and the
   worst CPU milliseconds a request cost (the ``Server-Timing`` header);
3. builds the worst inputs under the 5 MB limit (padding, 1,000 bad moves, 8,000 expansions,
   deep nesting, a million tiny objects, escapes, duplicate keys) and sends each over HTTP, and
   runs each through ``python -m replay verify`` in a fresh process, which reports its
   own CPU seconds and peak RSS;
4. times ``GET /api/games?limit=1`` alone, then while 4 clients keep posting the heaviest
   input;
5. reads the peak RSS of the server processes and greps their output for tracebacks.

The promise (docs/operating.md, "What the service promises"): 0 tracebacks, 0 5xx, every request and
every CLI run under 2 s of CPU and 300 MB.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from replay.cli_help import whole_number  # noqa: E402
from replay.generate import dumps, generate_log  # noqa: E402
from tests.hostile import hostile_documents, mutated_logs  # noqa: E402
from tests.hostile_analysis import (  # noqa: E402
    Attack,
    Target,
    analysis_attacks,
    content_type,
    render,
)
from tests.test_service import Server  # noqa: E402

LIMIT = 5 * 1024 * 1024


def draw_inputs(n: int) -> list[bytes]:
    """``n`` inputs from the drill's strategies (random: a new sample each run)."""
    out: list[bytes] = []

    @settings(max_examples=n, database=None, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(hostile_documents(), mutated_logs()))
    def collect(data: bytes) -> None:
        out.append(data)

    collect()
    return out[:n]


def draw_attacks(n: int) -> list[Attack]:
    """``n`` requests to the analysis board (``tests/hostile_analysis.py``), random."""
    out: list[Attack] = []

    @settings(max_examples=n, database=None, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(analysis_attacks())
    def collect(attack: Attack) -> None:
        out.append(attack)

    if n:
        collect()
    return out[:n]


def analysis_targets(server: Server) -> list[Target]:
    """Three stored games to aim the analysis board's attacks at (Carcassonne with both
    expansions, Hunters & Gatherers, Manhattan), each with a legal line of three moves from
    position 5 (read from the choices the server offers)."""
    out = []
    for game, players, seed, mix in (("base", 6, 1, ("inns-cathedrals", "hills-sheep")),
                                     ("hunters-gatherers", 3, 2, ()), ("manhattan", 3, 3, ())):
        _, _, body = server.request("POST", "/api/games", dumps(
            generate_log(game, players, seed, mix)).encode())
        game_id = json.loads(body)["id"]
        moves: list[dict[str, object]] = []
        tokens: list[str] = []
        for k in range(3):
            query = f"?from=5&line={'.'.join(tokens)}" if tokens else ""
            _, _, body = server.request("GET", f"/api/games/{game_id}/moves/{5 + k}/choices"
                                        f"{query}")
            option = json.loads(body)["choices"]["options"][-1]
            moves.append(option["move"])
            tokens.append(option["token"])
        out.append(Target(game_id, 5, tuple(moves), tuple(tokens)))
    return out


def worst_inputs() -> dict[str, bytes]:
    """The costliest inputs we know of, each just under the 5 MB limit."""
    log = generate_log("base", 6, 1, ("inns-cathedrals", "hills-sheep"))
    text = dumps(log)
    bad_move = {"x": "a", "y": [1], "rotation": 45, "tile": 7, "figure": {"at": 1}}
    fast_fail = [{**m, "tile": m.get("tile", "A"), "discard": True} for m in log["moves"]]
    out = {
        "valid game padded with spaces": (text[:-2] + " " * (LIMIT - len(text) - 8)
                                          + text[-2:]).encode(),
        "1,000 bad moves": json.dumps({**log, "moves": [bad_move] * 1000}).encode(),
        "moves off the fast path": json.dumps({**log, "moves": fast_fail * 14}).encode(),
        "8,000 expansions": json.dumps({**log, "expansions": [{"a": i} for i in range(8000)]})
        .encode(),
        "a million tiny objects": b'{"meta": [' + b"{}," * (LIMIT // 3 - 10) + b"{}]}",
        "a million numbers": b'{"moves": [' + b"1.5," * (LIMIT // 4 - 10) + b"1]}",
        "nesting 2.5 million deep": b"[" * (LIMIT // 2),
        "surrogate escapes": b'{"meta": {"a": "' + b"\\ud800" * (LIMIT // 6 - 10) + b'"}}',
        "duplicate keys everywhere": b"{" + b'"a": 1, ' * (LIMIT // 8 - 10) + b'"a": 2}',
        "long strings": json.dumps({**log, "meta": {f"k{i}": "é" * 1000 for i in range(32)},
                                    "players": [{"name": "x" * 10**6}] * 2}).encode(),
    }
    return {k: v[:LIMIT] for k, v in out.items()}


# The CLI in a fresh process that reports its own CPU and peak RSS: VmHWM, which starts anew
# at exec (ru_maxrss would count the pages of this big process, which the child was forked of)
MEASURED = """
import json, resource, sys
from replay.cli import main
code = main(["verify", sys.argv[1]])
ru = resource.getrusage(resource.RUSAGE_SELF)
hwm = next(int(line.split()[1]) for line in open("/proc/self/status")
           if line.startswith("VmHWM:"))
print("RUSAGE " + json.dumps([code, ru.ru_utime + ru.ru_stime, hwm / 1024]), file=sys.stderr)
"""


def cli_cost(data: bytes, work: Path) -> tuple[int, float, float, str]:
    """Exit code, CPU seconds, peak RSS (MB) and stderr of ``verify`` on ``data``."""
    path = work / "input.json"
    path.write_bytes(data)
    proc = subprocess.run([sys.executable, "-c", MEASURED, str(path)], cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          errors="replace", check=False)
    err, _, usage = proc.stderr.rpartition("RUSAGE ")
    if not usage:
        return proc.returncode, 0.0, 0.0, proc.stderr
    code, cpu, rss = json.loads(usage)
    return int(code), float(cpu), float(rss), err


# Host, Origin and Referer headers another site's page or a rebinding name would send (and
# some broken ones): every seventh input carries one set, with whatever it asks (421 for a
# foreign Host, 403 for a foreign Origin on a post, else the answer the input deserves)
FOREIGN: tuple[dict[str, str], ...] = (
    {"Host": "evil.example"},
    {"Host": "evil.example:5000", "Origin": "http://evil.example:5000"},
    {"Host": "127.0.0.1.nip.example", "Origin": "http://127.0.0.1.nip.example"},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Referer": "http://evil.example/page"},
    {"Host": ""},
    {"Host": "[::1"},
    {"Host": "localhost:99999999999999999999"},
    {"Host": "x" * 4000},
    {"Host": "évil.example"},
    {"Host": "localhost.evil.example", "Origin": "http://localhost"},
    {"Origin": "javascript:alert(1)"},
    {"Origin": "http://127.0.0.1:1", "Referer": "%%%"},
)


def foreign_headers(i: int) -> dict[str, str] | None:
    """The hostile Host/Origin/Referer headers of input ``i`` (every seventh), or None."""
    return FOREIGN[(i // 7) % len(FOREIGN)] if i % 7 == 3 else None


def cpu_ms(headers: dict[str, str]) -> float:
    timing = headers.get("Server-Timing", "cpu;dur=0")
    return float(timing.split("dur=")[1])


def peak_rss_mb(pid: int) -> float:
    """The peak RSS of ``pid`` and its children (VmHWM), in MB."""
    best = 0.0
    pids = [pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)],
                                                  capture_output=True, text=True).stdout.split()]
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    best = max(best, int(line.split()[1]) / 1024)
        except OSError:
            pass
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--inputs", type=int, default=None,
                    help="hostile inputs (default 20000; none when a phase below is chosen)")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--soak", type=whole_number(1, 3600, "second"), metavar="SECONDS",
                    help="mixed reads and writes for SECONDS (1-3600)")
    ap.add_argument("--clients", type=whole_number(1, 200, "client"), default=20, metavar="N",
                    help="clients of the soak (1-200; default 20)")
    ap.add_argument("--kills", action="store_true", help="kill a worker, then the parent")
    ap.add_argument("--storage", action="store_true", help="a full, then read-only disk")
    ap.add_argument("--archives", action="store_true", help="audit hostile archives")
    ap.add_argument("--slow-readers", action="store_true",
                    help="400 connections asking for large answers and never reading, while "
                         "a normal client is timed")
    ap.add_argument("--computer", action="store_true",
                    help="20 clients ask for computer analyses while the viewer is timed")
    args = ap.parse_args()
    import drill_faults  # tools/, beside this file

    work = Path(tempfile.mkdtemp(prefix="drill-"))
    chosen = [phase for phase in drill_faults.PHASES if getattr(args, phase)]
    kept = True
    if chosen:
        kept = drill_faults.run(work, chosen, args.soak or 0, args.clients)
        print("\nPHASES: PROMISE KEPT" if kept else "\nPHASES: PROMISE BROKEN")
        if args.inputs is None:
            return 0 if kept else 1
    args.inputs = 20000 if args.inputs is None else args.inputs
    server = Server(work / "games.db", "--rate-limit", "off", "--analysis-rate-limit", "off")
    print(f"server: {server.banner.strip()}")
    try:
        started = time.perf_counter()
        attacks = draw_attacks(args.inputs // 3)
        documents = draw_inputs(args.inputs - len(attacks))
        inputs: list[bytes | Attack] = []
        for i, data in enumerate(documents):  # every third an attack on the analysis board
            inputs.append(data)
            if i % 2 == 1 and i // 2 < len(attacks):
                inputs.append(attacks[i // 2])
        inputs += attacks[len(documents) // 2:]
        print(f"drew {len(inputs)} inputs ({len(attacks)} on the analysis board) in "
              f"{time.perf_counter() - started:.0f} s")
        targets = analysis_targets(server)
        statuses: Counter[int] = Counter()
        analysis: Counter[int] = Counter()
        foreign_statuses: Counter[int] = Counter()
        worst_cpu = 0.0
        lock = threading.Lock()

        failures: list[str] = []
        slowest = (0.0, -1)

        def send(item: tuple[int, bytes | Attack]) -> None:
            nonlocal worst_cpu, slowest
            i, data = item
            started = time.perf_counter()
            try:
                foreign = foreign_headers(i)
                if isinstance(data, Attack):
                    method, url, body = render(data, targets)
                    status, headers, _ = server.request(
                        method, url, body, {**content_type(data), **(foreign or {})} or None)
                else:
                    status, headers, _ = server.request("POST", "/api/games" if i % 2 else
                                                        "/api/verify", data, foreign)
            except OSError as exc:  # no answer (a timeout): keep the input to replay it
                path = work / f"no-answer-{i}.json"
                path.write_bytes(data if isinstance(data, bytes) else repr(data).encode())
                with lock:
                    failures.append(f"input {i}: {type(exc).__name__} ({path})")
                    statuses[0] += 1
                return
            took = time.perf_counter() - started
            with lock:
                statuses[status] += 1
                if isinstance(data, Attack):
                    analysis[status] += 1
                if foreign is not None:
                    foreign_statuses[status] += 1
                worst_cpu = max(worst_cpu, cpu_ms(headers))
                slowest = max(slowest, (took, i))

        started = time.perf_counter()
        with ThreadPoolExecutor(args.threads) as pool:
            list(pool.map(send, enumerate(inputs)))
        took = time.perf_counter() - started
        print(f"HTTP: {len(inputs)} hostile inputs in {took:.0f} s; statuses "
              f"{dict(sorted(statuses.items()))} (0: no answer); 5xx: "
              f"{sum(n for s, n in statuses.items() if s >= 500)}; worst CPU {worst_cpu:.0f} ms;"
              f" slowest answer {slowest[0]:.1f} s (input {slowest[1]}); of them on the "
              f"analysis board: {sum(analysis.values())}, statuses "
              f"{dict(sorted(analysis.items()))}; with another site's Host/Origin/Referer: "
              f"{sum(foreign_statuses.values())}, statuses "
              f"{dict(sorted(foreign_statuses.items()))}")
        for line in failures:
            print(f"  NO ANSWER {line}")

        print(f"\n{'worst input (just under 5 MB)':<34}{'HTTP':>6}{'CPU ms':>9}"
              f"{'CLI exit':>10}{'CLI CPU s':>11}{'CLI RSS MB':>12}")
        worst = worst_inputs()
        cli_worst = (0.0, 0.0)
        tracebacks = 0
        for label, data in worst.items():
            status, headers, _ = server.request("POST", "/api/games", data)
            statuses[status] += 1
            code, cpu, rss, err = cli_cost(data, work)
            tracebacks += "Traceback" in err
            cli_worst = (max(cli_worst[0], cpu), max(cli_worst[1], rss))
            worst_cpu = max(worst_cpu, cpu_ms(headers))
            print(f"{label:<34}{status:>6}{cpu_ms(headers):>9.0f}{code:>10}{cpu:>11.2f}"
                  f"{rss:>12.0f}")

        def cheap_latency(n: int = 30) -> list[float]:
            times = []
            for _ in range(n):
                t = time.perf_counter()
                server.request("GET", "/api/games?limit=1")
                times.append((time.perf_counter() - t) * 1000)
            return times

        idle = cheap_latency()
        heaviest = worst["valid game padded with spaces"]
        stop = threading.Event()

        def hammer() -> None:
            while not stop.is_set():
                server.request("POST", "/api/verify", heaviest)

        hammers = [threading.Thread(target=hammer) for _ in range(4)]
        for h in hammers:
            h.start()
        time.sleep(1)
        busy = cheap_latency()
        stop.set()
        for h in hammers:
            h.join()
        print(f"\ncheap page GET /api/games?limit=1: median {statistics.median(idle):.1f} ms "
              f"idle, {statistics.median(busy):.1f} ms (worst {max(busy):.0f} ms) while 4 "
              "clients post the heaviest log")
        server_rss = peak_rss_mb(server.proc.pid)
    finally:
        log = server.stop()
    tracebacks += log.count("Traceback")
    fivexx = sum(n for s, n in statuses.items() if s >= 500)
    print(f"\ninputs tried: {len(inputs) + len(worst)} over HTTP, {len(worst)} through the CLI;"
          f" tracebacks: {tracebacks}; 5xx: {fivexx}")
    print(f"worst request: {worst_cpu / 1000:.2f} s CPU; server processes' peak RSS "
          f"{server_rss:.0f} MB; worst CLI run: {cli_worst[0]:.2f} s CPU, "
          f"{cli_worst[1]:.0f} MB")
    ok = (tracebacks == 0 and fivexx == 0 and statuses[0] == 0 and worst_cpu < 2000
          and cli_worst[0] < 2 and cli_worst[1] < 300 and server_rss < 300)
    print("PROMISE KEPT" if ok else "PROMISE BROKEN")
    return 0 if ok and kept else 1


if __name__ == "__main__":
    raise SystemExit(main())
