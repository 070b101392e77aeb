"""The service as it runs: real server processes (``python -m replay serve``) on 127.0.0.1,
real HTTP, concurrent clients; and the command line as a shell runs it (pipes, exit codes).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from replay.generate import dumps, generate_log

ROOT = Path(__file__).resolve().parent.parent


def banner(proc: subprocess.Popen[str]) -> tuple[str, re.Match[str] | None]:
    """What a starting ``serve`` wrote up to the line naming its address (a warning may come
    first: a compiled engine gone stale), and that line's match; None when it ends first."""
    assert proc.stderr is not None
    said = ""
    for line in proc.stderr:
        said += line
        found = re.search(r"http://([\d.]+):(\d+)/", line)
        if found or len(said) > 100_000:
            return said, found
    return said, None


class Server:
    """A ``serve`` process; stopped with SIGTERM."""

    def __init__(self, db: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "replay", "serve", "--port", "0", "--db", str(db), *args],
            cwd=ROOT, stderr=subprocess.PIPE, text=True)
        self.banner, found = banner(self.proc)
        if found is None:
            self.proc.kill()  # before reading the rest: a server left running never ends it
            raise AssertionError(f"the server did not start: {self.banner}"
                                 f"{self.proc.communicate()[1]}")
        self.host, self.port = found.group(1), int(found.group(2))
        # read what the server says as it says it: a full pipe would stop the server
        self.output: list[str] = []
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.output.append(line)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def stop(self) -> str:
        """Stop the server; everything it wrote to stderr."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=10)
        return self.banner + "".join(self.output)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # a hundred requests at once from one address: the share of one client (at most 32
    # connections a process, tests/test_serve_connections.py) is not what these tests hold
    srv = Server(tmp_path_factory.mktemp("service") / "games.db", "--rate-limit", "off",
                 "--client-connections", "0")
    yield srv
    log = srv.stop()
    assert "Traceback" not in log, log


@pytest.fixture(scope="module")
def logs() -> list[bytes]:
    """100 distinct games: one game, its first player called another name in each (another
    meta would be the same game, stored once: tests/test_identity.py)."""
    text = dumps(generate_log("base", 2, 7))
    assert '"Ada"' in text
    return [text.replace('"Ada"', f'"Ada {i}"').encode() for i in range(100)]


def all_at_once(n: int, fn: Any) -> list[Any]:
    """Call ``fn(i)`` for i < n from n threads released together."""
    barrier = threading.Barrier(n)

    def run(i: int) -> Any:
        barrier.wait()
        return fn(i)

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(run, range(n)))


def test_the_server_is_waitress_not_the_development_server(server: Server) -> None:
    status, headers, _ = server.request("GET", "/api/games")
    assert status == 200
    assert headers["Server"] == "carcassonne-replay"
    assert "processes of 4 threads" in server.banner
    assert "development server" not in server.banner.lower()


def test_100_simultaneous_uploads_are_stored_once_each(server: Server,
                                                       logs: list[bytes]) -> None:
    """D1: with a deferred transaction, 45 of these answered 500 "database is locked"."""
    results = all_at_once(100, lambda i: server.request("POST", "/api/games", logs[i], {
        "Content-Type": "application/json"}))
    assert Counter(status for status, _, _ in results) == {201: 100}
    ids = {json.loads(body)["id"] for _, _, body in results}
    assert len(ids) == 100
    status, _, body = server.request("GET", "/api/games?limit=200")
    stored = {g["id"] for g in json.loads(body)["games"]}
    assert ids <= stored


def test_one_log_uploaded_50_times_at_once_gets_one_id(server: Server) -> None:
    log = dumps(generate_log("hunters-gatherers", 3, 11)).encode()
    results = all_at_once(50, lambda i: server.request("POST", "/api/games", log))
    statuses = Counter(status for status, _, _ in results)
    assert statuses == {201: 1, 200: 49}
    assert len({json.loads(body)["id"] for _, _, body in results}) == 1


def test_two_servers_started_together_on_a_new_file_share_it(tmp_path: Path,
                                                             logs: list[bytes]) -> None:
    """D9: one of two servers started at once on a new file died in the migrations."""
    db = tmp_path / "shared.db"
    servers: list[Server] = all_at_once(2, lambda i: Server(db, "--rate-limit", "off",
                                                            "--processes", "1",
                                                            "--client-connections", "0"))
    try:
        results = all_at_once(60, lambda i: servers[i % 2].request("POST", "/api/games",
                                                                   logs[i]))
        assert Counter(status for status, _, _ in results) == {201: 60}
        for srv in servers:
            _, _, body = srv.request("GET", "/api/games?limit=1")
            assert json.loads(body)["total"] == 60
    finally:
        outputs = [srv.stop() for srv in servers]
    assert not any("Traceback" in out for out in outputs), outputs


def chunked_post(server: Server, path: str, body: bytes) -> tuple[int, bytes]:
    """POST ``body`` with ``Transfer-Encoding: chunked`` (no Content-Length)."""
    with socket.create_connection((server.host, server.port), timeout=60) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {server.host}\r\n"
                     "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                     "Connection: close\r\n\r\n".encode())
        for start in range(0, len(body), 65536):
            chunk = body[start:start + 65536]
            sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        sock.sendall(b"0\r\n\r\n")
        data = b""
        while part := sock.recv(65536):
            data += part
    head, _, payload = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), payload


def test_a_chunked_body_over_the_limit_is_refused(server: Server) -> None:
    """D6: chunked bodies were cut at 5 MiB and stored (201)."""
    body = b"{" + b" " * (5 * 1024 * 1024 + 10) + b"}"
    status, payload = chunked_post(server, "/api/games", body)
    assert status == 413
    assert json.loads(payload)["error"]["limit"] == 5 * 1024 * 1024


def test_a_chunked_body_under_the_limit_is_read_whole(server: Server) -> None:
    log = dumps(generate_log("base", 3, 12, ("hills-sheep",)))
    padded = log[:-2] + " " * 200_000 + log[-2:]  # many chunks
    status, payload = chunked_post(server, "/api/games", padded.encode())
    assert status == 201
    assert json.loads(payload)["verdict"]["valid"] is True


def test_a_cheap_page_answers_while_heavy_requests_run(server: Server) -> None:
    """Fairness: 8 heavy verifications at once do not keep a cheap page waiting for all of
    them (no timing here: tools/drill.py measures how fast)."""
    heavy = dumps(generate_log("base", 5, 3, ("inns-cathedrals", "hills-sheep"))).encode()
    with ThreadPoolExecutor(9) as pool:
        pending = [pool.submit(server.request, "POST", "/api/verify", heavy) for _ in range(8)]
        cheap = pool.submit(server.request, "GET", "/api/games?limit=1")
        assert cheap.result()[0] == 200
        assert all(f.result()[0] == 200 for f in pending)


def run_cli(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "replay", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, **kw)


def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path) -> None:
    """``verify --json ... | head -1`` ended with a BrokenPipeError traceback."""
    files = []
    for seed in range(3):
        path = tmp_path / f"g{seed}.json"
        path.write_text(dumps(generate_log("base", 2, seed)))
        files.append(str(path))
    proc = subprocess.Popen([sys.executable, "-m", "replay", "verify", "--json",
                             *files * 200], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # what head does after its line
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=60)
    assert json.loads(first)["valid"] is True
    assert code == 141, err
    assert err == ""


def test_an_internal_error_is_not_a_verdict(tmp_path: Path) -> None:
    """A bug of ours: exit 3 and one line naming the file, never exit 1 (illegal game)."""
    path = tmp_path / "g.json"
    path.write_text(dumps(generate_log("base", 2, 1)))
    code = ("import sys, replay.core.verify as v, replay.cli as c\n"
            "def broken(*a, **k): raise KeyError('boom')\n"
            "c.verify = broken\n"
            "sys.exit(c.main(['verify', sys.argv[1]]))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    assert proc.stderr.count("\n") == 1 and str(path) in proc.stderr
    assert "internal error" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("mutate", "path"), [
    (lambda d: d["players"][0].__setitem__("name", "\ud800"), "/players/0/name"),  # D4
    (lambda d: d["moves"][4].__setitem__("rotation", 0.0), "/moves/4/rotation"),  # D5
    (lambda d: d.__setitem__("seed", 1.0), "/seed"),  # D8
    (lambda d: d["moves"][2].__setitem__("x", 1.0), "/moves/2/x"),  # D8
])
def test_odd_strings_and_numbers_are_refused_with_their_path(tmp_path: Path, mutate: Any,
                                                             path: str) -> None:
    log = generate_log("base", 2, 4)
    mutate(log)
    file = tmp_path / "odd.json"
    file.write_text(json.dumps(log))
    proc = run_cli("verify", str(file), env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 2, proc.stderr
    assert f"unreadable: {path}:" in proc.stdout
    assert proc.stderr == ""
