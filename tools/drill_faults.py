"""The drill's opt-in phases (``tools/drill.py --soak S --clients N --kills --storage
--archives --slow-readers``): what an unlucky operator meets, on a real ``serve`` bound to
127.0.0.1.

- **soak**: N clients for S seconds of mixed reads and writes (uploads of new logs,
  verifications, lists, games, viewer pages, moves, and the analysis board: explored pages,
  choices, variations played through the API and their pages); requests by status, 5xx (must
  be 0), the 99th percentile of the answers (under 1 s), each worker's peak memory (under
  200 MB), and every acknowledged upload found in the library afterwards;
- **kills**: a worker killed (SIGKILL) while clients upload: replaced, no acknowledged upload
  lost; then the parent killed (SIGKILL): its workers end, the port is free;
- **storage**: the library on a real 4 MB disk (a tmpfs in a private mount namespace, so root or
  user namespaces are needed): filled, then remounted read-only; uploads answer 503 with
  ``Retry-After`` while reads and ``POST /api/verify`` go on, and store again after;
- **archives**: ``audit`` of whole, cut and corrupt archives (tar, gzip, bzip2, xz, zip), a zip
  bomb, entry names with terminal escapes and a directory of FIFOs and link loops: broken
  archives exit 2, nothing hangs, no raw control character reaches the terminal;
- **slow_readers** (``tools/drill_slow.py``): 400 connections from 4 addresses asking for a
  5 MB download and never reading, while a normal client is timed: it is served, the readers
  are refused past their share or dropped at the timeout;
- **computer**: 20 clients ask for computer analyses at once while the viewer's pages are
  timed: 16 queued, 4 told 429, one analysis running in a worker process of low priority,
  the pages' median within 1.5x (and 5 ms) of the idle one.

Every process started here is stopped by its pid; every phase is bounded in time.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import json
import lzma
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.generate import dumps, generate_log  # noqa: E402
from tests.test_serve_faults import alive, children  # noqa: E402
from tests.test_service import Server, banner  # noqa: E402

JSON = {"Content-Type": "application/json"}


class Serve(Server):
    """``python -m replay serve`` on 127.0.0.1, maybe behind a ``prefix`` command that execs it
    (so that ``proc.pid`` is the server's own pid)."""

    def __init__(self, db: Path, *args: str, prefix: Sequence[str] = ()) -> None:  # noqa: D107
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "replay", "serve", "--host", "127.0.0.1", "--port",
             "0", "--db", str(db), "--rate-limit", "off",
             "--analysis-rate-limit", "off", *args],
            cwd=ROOT, stderr=subprocess.PIPE, text=True)
        line, found = banner(self.proc)
        if not found:
            self.proc.kill()
            raise SystemExit(f"the server did not start: {line}{self.proc.communicate()[1]}")
        self.host, self.port = found.group(1), int(found.group(2))
        self.banner = line
        self.output: list[str] = []
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def workers(self, n: int, timeout: float = 20) -> set[int]:
        """The server's worker pids, once there are ``n`` (or after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        found = children(self.proc.pid)
        while len(found) != n and time.monotonic() < deadline:
            time.sleep(0.05)
            found = children(self.proc.pid)
        return found

    def halt(self) -> str:
        """Stop the server (SIGTERM, then SIGKILL) and any worker left, each by its pid."""
        left = children(self.proc.pid) if self.proc.poll() is None else set()
        log = self.stop()
        for pid in left:
            if alive_any(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        return log


def alive_any(pid: int) -> bool:
    """Whether any thread of ``pid`` still runs (a main thread gone leaves a zombie leader
    while the others may still hold the process's sockets)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    return any(alive(int(t)) for t in tasks)


def crashes(log: str) -> str:
    """How many tracebacks the server wrote, and their distinct last lines."""
    ends: Counter[str] = Counter()
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            end = next((x for x in lines[i + 1:] if x and not x.startswith(" ")), "?")
            ends[end[:140]] += 1
    return f"tracebacks: {sum(ends.values())}" + "".join(
        f"\n  {n} x {end}" for end, n in ends.most_common())


def port_free(port: int) -> bool:
    """Whether a new server could listen on ``port`` of 127.0.0.1."""
    try:
        socket.create_server(("127.0.0.1", port)).close()
    except OSError:
        return False
    return True


def new_logs(tag: str) -> Callable[[], bytes]:
    """A maker of distinct small logs: a few games, their first player called another name in
    each (another meta would be the same game, stored once)."""
    games = [dumps(generate_log("base", players, seed))
             for players, seed in ((2, 3), (3, 5), (2, 8))]
    count = iter(range(10**9))
    lock = threading.Lock()

    def make() -> bytes:
        with lock:
            i = next(count)
        return games[i % len(games)].replace('"Ada"', f'"Ada {tag} {i}"').encode()
    return make


@dataclass
class Tally:
    """Answers counted across threads."""

    statuses: Counter[int] = field(default_factory=Counter)
    acked: set[str] = field(default_factory=set)
    times: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, server: Server, method: str, path: str,
             body: bytes | None = None) -> tuple[int, bytes]:
        """One request, counted (status 0: no answer)."""
        started = time.perf_counter()
        try:
            status, _, answer = server.request(method, path, body, JSON if body else None)
        except OSError:
            status, answer = 0, b""
        took = time.perf_counter() - started
        with self.lock:
            self.statuses[status] += 1
            self.times.append(took)
            if method == "POST" and path == "/api/games" and status in (200, 201):
                self.acked.add(json.loads(answer)["id"])
        return status, answer

    def fivexx(self) -> int:
        """How many answers were 5xx."""
        return sum(n for s, n in self.statuses.items() if s >= 500)

    def found(self, server: Server) -> int:
        """How many acknowledged uploads the library holds now."""
        return sum(server.request("GET", f"/api/games/{i}")[0] == 200 for i in self.acked)


def mixed_client(server: Server, tally: Tally, seed: int, until: float,
                 make: Callable[[], bytes], ids: list[str]) -> None:
    """Mixed reads and writes until ``until`` (monotonic): uploads, verifications, lists,
    games, viewer pages, and the analysis board (explored pages, choices, variations played
    through the API and their pages)."""
    rng = random.Random(seed)
    verify = make()
    while time.monotonic() < until:
        r = rng.random()
        some = rng.choice(ids) if ids else ""
        n = rng.randrange(1, 20)
        if r < 0.15:
            status, answer = tally.call(server, "POST", "/api/games", make())
            if status == 201:
                ids.append(json.loads(answer)["id"])
        elif r < 0.25:
            tally.call(server, "POST", "/api/verify", verify)
        elif r < 0.4:
            tally.call(server, "GET", f"/api/games?limit=20&offset={rng.randrange(50)}")
        elif r < 0.5:
            tally.call(server, "GET", f"/api/games/{some}")
        elif r < 0.6:
            tally.call(server, "GET", f"/games/{some}/moves/{n}")
        elif r < 0.7:
            tally.call(server, "GET", f"/api/games/{some}/moves/{n}")
        elif r < 0.8:
            tally.call(server, "GET", f"/games/{some}/moves/{n}?explore=1")
        else:
            variation(server, tally, rng, some, n)


def variation(server: Server, tally: Tally, rng: random.Random, game: str, n: int) -> None:
    """The analysis board as a player uses it: the choices of position ``n``, a line of one
    to three of them played through the API, then the page of the position reached."""
    status, answer = tally.call(server, "GET", f"/api/games/{game}/moves/{n}/choices")
    if status != 200:
        return
    found = json.loads(answer)["choices"]
    options = found["options"] if found else []
    if not options:
        return
    line = [rng.choice(options)["move"]]
    body = json.dumps({"from": n, "line": line}).encode()
    status, answer = tally.call(server, "POST", f"/api/games/{game}/variation", body)
    if status != 200:
        return
    played = json.loads(answer)
    more = (played.get("choices") or {}).get("options") or []
    if more and rng.random() < 0.7:
        line.append(rng.choice(more)["move"])
        body = json.dumps({"from": n, "line": line}).encode()
        status, answer = tally.call(server, "POST", f"/api/games/{game}/variation", body)
        if status != 200:
            return
        played = json.loads(answer)
    url = str(played["url"])
    tally.call(server, "GET", url[url.index("/games/"):])


def upload_client(server: Server, tally: Tally, until: float,
                  make: Callable[[], bytes]) -> None:
    """Uploads of new logs until ``until`` (monotonic)."""
    while time.monotonic() < until:
        tally.call(server, "POST", "/api/games", make())


def soak(work: Path, seconds: int, clients: int) -> bool:
    """N clients, T seconds of mixed traffic; 0 5xx and every acknowledged upload found."""
    # N clients of one address: past 32 connections a process, the share of one client
    # would refuse them (the slow-readers phase drills that share, not the soak)
    server = Serve(work / "soak.db", *(("--client-connections", "0") if clients > 32 else ()))
    print(f"\n== soak: {clients} clients, {seconds} s, mixed reads and writes\n"
          f"server: {server.banner.strip()}")
    try:
        tally = Tally()
        make = new_logs("soak")
        ids: list[str] = []
        for _ in range(5):
            status, answer = tally.call(server, "POST", "/api/games", make())
            if status == 201:
                ids.append(json.loads(answer)["id"])
        until = time.monotonic() + seconds
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(lambda c: mixed_client(server, tally, c, until, make, ids),
                          range(clients)))
        found = tally.found(server)
        total = sum(tally.statuses.values())
        memory = {pid: worker_memory(pid) for pid in sorted(children(server.proc.pid))}
    finally:
        log = server.halt()
    times = sorted(tally.times)
    p99 = times[len(times) * 99 // 100]
    heaviest = max((hwm for _, hwm in memory.values()), default=0.0)
    print(f"requests: {total} ({total / seconds:.0f}/s); statuses "
          f"{dict(sorted(tally.statuses.items()))} (0: no answer); 5xx: {tally.fivexx()}; "
          f"latency median {statistics.median(times) * 1000:.0f} ms, 99th percentile "
          f"{p99 * 1000:.0f} ms (promise: under {SOAK_P99 * 1000:.0f})\nworkers' memory "
          f"(MB, now/peak): " + ", ".join(f"{rss:.0f}/{hwm:.0f}" for rss, hwm in memory.values())
          + f" (promise: peak under {SOAK_MB} MB)\nacknowledged uploads: "
          f"{len(tally.acked)}, found afterwards: {found}; {crashes(log)}")
    return (tally.fivexx() == 0 and tally.statuses[0] == 0 and found == len(tally.acked)
            and "Traceback" not in log and p99 < SOAK_P99 and heaviest < SOAK_MB)


SOAK_P99 = 1.0  # seconds: the 99th percentile of the soak's answers
SOAK_MB = 200  # the peak resident memory of each worker process


def worker_memory(pid: int) -> tuple[float, float]:
    """The resident memory of ``pid`` now and at its peak (VmRSS, VmHWM), in MB."""
    fields = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(rest.split()[0]) / 1024
    return fields.get("VmRSS", 0.0), fields.get("VmHWM", 0.0)


def kills(work: Path) -> bool:
    """A worker killed under load is replaced, nothing acknowledged lost; the parent killed
    takes its workers with it and frees the port."""
    server = Serve(work / "kills.db", "--processes", "2")
    print(f"\n== kills: a worker, then the parent (SIGKILL)\nserver: {server.banner.strip()}")
    tally = Tally()
    make = new_logs("kills")
    left: set[int] = set()
    try:
        before = server.workers(2)
        until = time.monotonic() + 6
        with ThreadPoolExecutor(4) as pool:
            done = [pool.submit(upload_client, server, tally, until, make) for _ in range(4)]
            time.sleep(2)
            victim = min(before)
            os.kill(victim, signal.SIGKILL)
            killed_at = time.monotonic()
            after = server.workers(2, timeout=10)
            while (victim in after or len(after) < 2) and time.monotonic() < killed_at + 10:
                time.sleep(0.05)
                after = children(server.proc.pid)
            replaced = time.monotonic() - killed_at
            for d in done:
                d.result()
        found = tally.found(server)
        print(f"worker {victim} killed under 4 clients' uploads: workers {sorted(before)} -> "
              f"{sorted(after)}, replaced in {replaced:.2f} s; statuses "
              f"{dict(sorted(tally.statuses.items()))} (0: no answer, the killed worker's "
              f"requests); 5xx: {tally.fivexx()}; acknowledged uploads {len(tally.acked)}, "
              f"found afterwards {found}")
        worker_ok = (victim not in after and len(after) == 2 and tally.fivexx() == 0
                     and found == len(tally.acked))
        left = set(after)
        port = server.port
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(5)
        killed_at = time.monotonic()
        while any(alive_any(p) for p in left) and time.monotonic() < killed_at + 10:
            time.sleep(0.05)
        gone = time.monotonic() - killed_at
        while not port_free(port) and time.monotonic() < killed_at + 10:
            time.sleep(0.05)
        free = port_free(port)
        orphans = [p for p in left if alive_any(p)]
        print(f"parent {server.proc.pid} killed: workers {sorted(left)} "
              f"{'gone' if not orphans else f'ORPHANS {orphans}'} in {gone:.2f} s; port "
              f"{port} {'free' if free else 'STILL IN USE'} after "
              f"{time.monotonic() - killed_at:.2f} s")
        return worker_ok and not orphans and free
    finally:
        print(crashes(server.halt()))
        for pid in left:
            if alive_any(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def fill(path: Path) -> int:
    """Write ``path`` until the disk is full; the bytes written."""
    written = 0
    chunk = b"\0" * 65536
    with contextlib.suppress(OSError), path.open("wb", buffering=0) as out:
        while True:
            written += out.write(chunk)
    return written


def storage_round(server: Server, tally: Tally, make: Callable[[], bytes],
                  stored: str) -> str:
    """Uploads while the disk takes no write, and reads: a line of figures."""
    refused = Counter[str]()
    uploads = Counter[int]()
    for _ in range(10):
        status, headers, answer = server.request("POST", "/api/games", make(), JSON)
        tally.statuses[status] += 1
        uploads[status] += 1
        if status == 503:
            why = json.loads(answer)["error"].get("storage")
            refused[f"{headers.get('Retry-After')}/{why}"] += 1
        elif status in (200, 201):
            tally.acked.add(json.loads(answer)["id"])
    reads = [tally.call(server, "GET", "/api/games?limit=5")[0],
             tally.call(server, "GET", f"/api/games/{stored}")[0],
             tally.call(server, "GET", f"/games/{stored}")[0],
             tally.call(server, "POST", "/api/verify", make())[0]]
    return (f"10 uploads: {dict(sorted(uploads.items()))}, 503 by Retry-After/storage "
            f"{dict(refused)}; list, game, viewer page, verify: {reads}")


def storage(work: Path) -> bool:
    """A real disk, full and then read-only: 503 with Retry-After, reads go on, stores after."""
    print("\n== storage: the library on a 4 MB tmpfs, filled, then remounted read-only")
    if os.geteuid() != 0 or not (shutil.which("unshare") and shutil.which("nsenter")):
        print("skipped: needs root (a private mount namespace), unshare and nsenter")
        return True
    disk = work / "disk"
    disk.mkdir()
    mount = 'mount -t tmpfs -o size=4m drill "$0" && exec "$@"'
    server = Serve(disk / "games.db", prefix=["unshare", "--mount", "--propagation", "private",
                                              "sh", "-c", mount, str(disk)])
    print(f"server: {server.banner.strip()}")
    inside = Path(f"/proc/{server.proc.pid}/root") / str(disk).lstrip("/")
    tally = Tally()
    make = new_logs("storage")
    ns = ["nsenter", "-t", str(server.proc.pid), "-m", "sh", "-c"]
    try:
        stored = json.loads(tally.call(server, "POST", "/api/games", make())[1])["id"]
        filler = inside / "filler"
        print(f"disk full ({fill(filler) // 1024} KB of filler): "
              f"{storage_round(server, tally, make, stored)}")
        filler.unlink()
        again = tally.call(server, "POST", "/api/games", make())[0]
        subprocess.run([*ns, f'mount --bind "{disk}" "{disk}" && '
                        f'mount -o remount,bind,ro "{disk}"'], check=True)
        print(f"space back: upload {again}; read-only: "
              f"{storage_round(server, tally, make, stored)}")
        subprocess.run([*ns, f'umount "{disk}"'], check=True)
        after = tally.call(server, "POST", "/api/games", make())[0]
        found = tally.found(server)
    finally:
        log = server.halt()
    print(f"writable again: upload {after}; statuses {dict(sorted(tally.statuses.items()))}; "
          f"500s: {tally.statuses[500]}; acknowledged uploads {len(tally.acked)}, found "
          f"{found}; {crashes(log)}")
    return (again == after == 201 and tally.statuses[500] == 0 and tally.statuses[503] > 0
            and found == len(tally.acked) and "Traceback" not in log)


ARCHIVE_GAMES = 12


def archives_cases(work: Path) -> dict[str, tuple[Path, int]]:
    """Hostile archives and directories, each with the exit ``audit`` must give."""
    log = dumps(generate_log("base", 2, 3)).encode()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as t:
        for i in range(ARCHIVE_GAMES):
            info = tarfile.TarInfo(f"g{i:02}.json")
            info.size = len(log)
            t.addfile(info, io.BytesIO(log))
    raw = buf.getvalue()
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(ARCHIVE_GAMES):
            z.writestr(f"g{i:02}.json", log)
    packed = {"tar": raw, "tar.gz": gzip.compress(raw, mtime=0), "tar.bz2": bz2.compress(raw),
              "tar.xz": lzma.compress(raw), "zip": zbuf.getvalue()}
    files: dict[str, tuple[bytes, int]] = {}
    for ext, data in packed.items():
        files[f"whole.{ext}"] = (data, 0)
        files[f"cut.{ext}"] = (data[: len(data) * 2 // 3], 2)
        if ext != "tar":
            files[f"tail.{ext}"] = (data[:-4], 2)
    flipped = bytearray(packed["tar.gz"])
    flipped[len(flipped) // 2] ^= 0xFF
    files["corrupt.tar.gz"] = (bytes(flipped), 2)
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb.json", b" " * (256 * 1024 * 1024))
    files["bomb.zip"] = (bomb.getvalue(), 2)
    names = io.BytesIO()
    with zipfile.ZipFile(names, "w") as z:
        z.writestr("\x1b[2J\x1b[31mred\x07.json", log)
        z.writestr("\x1b]0;title\x07.json", b"{")
    files["escapes.zip"] = (names.getvalue(), 2)
    cases: dict[str, tuple[Path, int]] = {}
    for name, (data, code) in files.items():
        (work / name).write_bytes(data)
        cases[name] = (work / name, code)
    special = work / "special"
    special.mkdir()
    (special / "ok.json").write_bytes(log)
    os.mkfifo(special / "fifo.json")
    os.symlink("self.json", special / "self.json")
    os.symlink("..", special / "up")
    os.symlink("/dev/zero", special / "zero.jsonl")
    cases["directory: FIFO, links, device"] = (special, 2)
    return cases


def archives(work: Path) -> bool:
    """``audit`` of each hostile archive in a fresh process (killed after 60 s)."""
    print("\n== archives: audit of whole, cut, corrupt, bomb, escaped names, special files")
    place = work / "archives"
    place.mkdir()
    cases = archives_cases(place)
    print(f"{'case':<32}{'exit':>5}{'want':>5}{'s':>6}  what audit says")
    good = 0
    for label, (path, want) in cases.items():
        started = time.perf_counter()
        try:
            proc = subprocess.run([sys.executable, "-m", "replay", "audit", "--jobs", "1",
                                   str(path)], cwd=ROOT, capture_output=True, timeout=60,
                                  check=False)
            code, out = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:  # run() kills the child by its pid
            code, out = -1, b"HUNG (killed after 60 s)"
        took = time.perf_counter() - started
        raw = any(c in out for c in (b"\x1b", b"\x07"))
        text = out.decode(errors="replace")
        said = next((line.split(": ", 1)[-1] for line in text.splitlines() if re.search(
            "broken archive|INCOMPLETE|bomb|unreadable|HUNG", line)), text.splitlines()[-1]
                    if text.strip() else "")
        good += code == want and not raw
        print(f"{label:<32}{code:>5}{want:>5}{took:>6.1f}  {'RAW ESCAPES ' if raw else ''}"
              f"{said[:90]}")
    print(f"archives as expected: {good} of {len(cases)}")
    return good == len(cases)


def computer(work: Path) -> bool:
    """20 clients ask for computer analyses at once while the viewer's pages are timed: the
    queue takes its bound (16) and refuses the rest with 429, one analysis runs (a worker
    process of low priority), and the pages answer as fast as before (median within 1.5x
    and 5 ms of the idle median); 0 5xx, no traceback."""
    from replay.generate import dumps, generate_log

    server = Serve(work / "computer.db", "--analysis-per-client", "20", "--analysis-queue",
                   "16", "--computer-rate-limit", "off")
    print(f"\n== computer: 20 clients ask for analyses while the viewer is timed\n"
          f"server: {server.banner.strip()}")
    tally = Tally()
    try:
        ids = []
        for seed in range(20):
            status, answer = tally.call(server, "POST", "/api/games",
                                        dumps(generate_log("base", 2, seed)).encode())
            ids.append(json.loads(answer)["id"])

        def pages(count: int = 200) -> list[float]:
            times = []
            for k in range(count):
                started = time.perf_counter()
                status, _ = tally.call(server, "GET", f"/games/{ids[k % 4]}/moves/{k % 70}")
                times.append(time.perf_counter() - started)
            return times

        pages(20)  # the replays in the caches of both processes
        idle = pages()
        with ThreadPoolExecutor(20) as pool:
            asked = list(pool.map(lambda g: tally.call(server, "POST",
                                                        f"/api/games/{g}/analysis", b"{}")[0],
                                  ids))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            _, answer = tally.call(server, "GET", f"/api/games/{ids[0]}/analysis")
            if json.loads(answer).get("done", 0) >= 2:  # the worker is searching
                break
            time.sleep(0.2)
        busy = pages()
        _, answer = tally.call(server, "GET", f"/api/games/{ids[0]}/analysis")
        progress = json.loads(answer)
        for g in ids:
            tally.call(server, "DELETE", f"/api/games/{g}/analysis")
    finally:
        log = server.halt()
    quiet, loaded = statistics.median(idle), statistics.median(busy)
    print(f"asked: {dict(sorted(Counter(asked).items()))} (promise: 16 queued, 4 told 429); "
          f"the first analysis {progress.get('status')} at {progress.get('done')} of "
          f"{progress.get('total')} positions\nviewer pages: median {quiet * 1000:.1f} ms "
          f"idle, {loaded * 1000:.1f} ms (90th percentile {sorted(busy)[180] * 1000:.1f} ms) "
          f"while the analyses run (promise: within 1.5x and 5 ms); 5xx: {tally.fivexx()}; "
          f"{crashes(log)}")
    return (asked.count(202) == 16 and asked.count(429) == 4 and tally.fivexx() == 0
            and tally.statuses[0] == 0 and "Traceback" not in log
            and loaded <= 1.5 * quiet + 0.005)


PHASES = ("soak", "kills", "storage", "archives", "slow_readers", "computer")


def run(work: Path, chosen: Sequence[str], seconds: int, clients: int) -> bool:
    """Run the chosen phases in order; whether each kept its promise."""
    results = {}
    for phase in PHASES:
        if phase in chosen:
            started = time.perf_counter()
            if phase == "soak":
                results[phase] = soak(work, seconds, clients)
            elif phase == "slow_readers":
                from drill_slow import slow_readers  # it imports this module

                results[phase] = slow_readers(work)
            else:
                results[phase] = {"kills": kills, "storage": storage, "archives": archives,
                                  "computer": computer}[phase](work)
            print(f"({phase}: {time.perf_counter() - started:.0f} s, "
                  f"{'kept' if results[phase] else 'BROKEN'})")
    return all(results.values())
