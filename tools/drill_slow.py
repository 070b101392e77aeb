"""The drill's slow-reader phase (``tools/drill.py --slow-readers``; issue 35, item A).

A real ``serve`` at its defaults (2 processes, ``--timeout 30``, 32 connections and 8 MB of
unread answers per client and process) on 127.0.0.1. Four attacking addresses (127.0.0.10 to
.13) open 100 connections each, every one asking for the largest answer a client can get (the
download of a 5 MB log) and never reading it (a 4 kB receive buffer, so that the answers stay
with the server). Meanwhile a normal client (127.0.0.2) asks for the library list and a page
every quarter of a second. Printed: how many readers the server held and how many it refused
(429), how the normal client fared (answers, statuses, median and worst latency), when the
readers were dropped (the server's connections to them, read in ``/proc/net/tcp``), the most
the workers held in temporary files (unsent answers), and the server's tracebacks.

The promise: the normal client is answered every time, within 2 s; every reader is dropped
within the timeout and 5 s; no traceback.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from drill_faults import Serve, crashes  # noqa: E402  (tools/, beside this file)

from replay.generate import dumps, generate_log  # noqa: E402

ATTACKERS = [f"127.0.0.{10 + i}" for i in range(4)]
PER_ATTACKER = 100
NORMAL = "127.0.0.2"
TIMEOUT = 30  # serve's default --timeout


def hex_ip(address: str) -> str:
    """An IPv4 address as ``/proc/net/tcp`` writes it (little-endian hex)."""
    return "".join(f"{int(part):02X}" for part in reversed(address.split(".")))


def held(port: int, peers: list[str]) -> int:
    """The server's established connections on ``port`` to any of ``peers``."""
    wanted = {hex_ip(p) for p in peers}
    count = 0
    with open("/proc/net/tcp") as table:
        for line in list(table)[1:]:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if (state == "01" and local.endswith(f":{port:04X}")
                    and remote.split(":")[0] in wanted):
                count += 1
    return count


def temp_bytes(pids: set[int]) -> int:
    """Bytes of the deleted files (waitress's temporary buffers) the processes ``pids`` hold."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}").endswith("(deleted)"):
                        total += os.stat(f"/proc/{pid}/fd/{fd}").st_size
    return total


def reader(host: str, port: int, source: str, path: str) -> socket.socket | None:
    """A connection from ``source`` asking for ``path`` that never reads; None when it could
    not even be made."""
    sock = socket.socket()
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((source, 0))
        sock.settimeout(5)
        sock.connect((host, port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    except OSError:
        sock.close()
        return None
    return sock


def first_line(sock: socket.socket) -> bytes:
    """The start (1 kB) of what the server sent ``sock`` so far, without reading it."""
    try:
        return sock.recv(1024, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return b""
    except OSError:
        return b"reset"


def normal_client(server: Serve, paths: list[str], until: threading.Event,
                  seen: list[tuple[int, float]]) -> None:
    """GET each of ``paths`` in turn from the normal address every 0.25 s until ``until``;
    (status, seconds) of each (status 0: no answer)."""
    turn = 0
    while not until.is_set():
        started = time.monotonic()
        conn = http.client.HTTPConnection(server.host, server.port, timeout=30,
                                          source_address=(NORMAL, 0))
        try:
            conn.request("GET", paths[turn % len(paths)])
            answer = conn.getresponse()
            answer.read()
            status = answer.status
        except (OSError, http.client.HTTPException):
            status = 0
        finally:
            conn.close()
        seen.append((status, time.monotonic() - started))
        turn += 1
        until.wait(0.25)


def slow_readers(work: Path) -> bool:
    """The phase (see the module); whether it kept its promise."""
    server = Serve(work / "slow.db")
    print(f"\n== slow readers: {len(ATTACKERS)} addresses x {PER_ATTACKER} connections asking "
          f"for a 5 MB download and never reading\nserver: {server.banner.strip()}")
    socks: list[socket.socket] = []
    seen: list[tuple[int, float]] = []
    stop = threading.Event()
    try:
        text = dumps(generate_log("base", 2, 5))
        log = (text[:-2] + " " * (5 * 1024 * 1024 - 64 - len(text)) + text[-2:]).encode()
        status, _, body = server.request("POST", "/api/games", log,
                                         {"Content-Type": "application/json"})
        assert status == 201, (status, body[:200])
        page = f"/games/{json.loads(body)['id']}/log.json"
        workers = server.workers(2)
        watcher = threading.Thread(target=normal_client, args=(
            server, ["/api/games?limit=1", "/games"], stop, seen))
        watcher.start()
        started = time.monotonic()
        unmade = 0
        for source in ATTACKERS:
            for _ in range(PER_ATTACKER):
                sock = reader(server.host, server.port, source, page)
                if sock is None:
                    unmade += 1
                else:
                    socks.append(sock)
        sent = time.monotonic() - started
        time.sleep(1)
        starts = [first_line(s) for s in socks]
        refused = sum(s.startswith(b"HTTP/1.1 429") for s in starts)
        over_share = sum(s.startswith(b"HTTP/1.1 429") and b"open connections" in s
                         for s in starts)
        answered = sum(s.startswith(b"HTTP/1.1 200") for s in starts)
        most_held, most_temp, dropped_at = 0, 0, None
        while time.monotonic() - started < TIMEOUT + 20:
            now_held = held(server.port, ATTACKERS)
            most_held = max(most_held, now_held)
            most_temp = max(most_temp, temp_bytes(workers))
            if now_held == 0:
                dropped_at = time.monotonic() - started
                break
            time.sleep(0.5)
        during = list(seen)
        stop.set()
        watcher.join()
    finally:
        stop.set()
        for sock in socks:
            sock.close()
        log_text = server.halt()
    times = [t for _, t in during] or [0.0]
    statuses: dict[int, int] = {}
    for status, _ in during:
        statuses[status] = statuses.get(status, 0) + 1
    when = (f"never (within {TIMEOUT + 20} s)" if dropped_at is None
            else f"all after {dropped_at:.1f} s")
    print(f"readers: {len(socks)} connected in {sent:.1f} s ({unmade} could not connect); "
          f"after 1 s: {answered} being answered, {refused} refused (429: {over_share} past "
          f"the connections of their address, {refused - over_share} past its unsent bytes), "
          f"{len(socks) - answered - refused} waiting unread; the most held at once "
          f"{most_held}; unsent answers in temporary files at most {most_temp / 2**20:.0f} MB")
    print(f"readers dropped: {when} (timeout {TIMEOUT} s)")
    print(f"normal client during the attack: {len(during)} requests, statuses {statuses} "
          f"(0: no answer); latency median {statistics.median(times) * 1000:.0f} ms, worst "
          f"{max(times) * 1000:.0f} ms; {crashes(log_text)}")
    return (dropped_at is not None and dropped_at <= TIMEOUT + 5 and set(statuses) == {200}
            and max(times) < 2 and "Traceback" not in log_text)
