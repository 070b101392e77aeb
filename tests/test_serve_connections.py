"""Connections a hostile or clumsy client makes to a real ``serve`` (issue 35): clients that
ask for large answers and never read are dropped at the timeout while others are served, one
address holds a bounded share (connections, unread bytes), a 60 MB body sent whole before
reading gets its 413 (lingering close), and a ``Host`` naming another site (DNS rebinding) is
refused (``web/connections.py``, ``web/guard.py``)."""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from replay.generate import dumps, generate_log
from tests.test_service import ROOT, Server
from web import connections
from web.connections import Channel, Unread, client_of
from web.guard import host_name, served_names

JSON = {"Content-Type": "application/json"}
TIMEOUT = 3  # the test server's --timeout


def padded_log(size: int) -> bytes:
    """A valid log padded with spaces to ``size`` bytes (its download is as large)."""
    text = dumps(generate_log("base", 2, 5))
    return (text[:-2] + " " * (size - len(text)) + text[-2:]).encode()


def never_reading(server: Server, path: str) -> socket.socket:
    """A client that asks for ``path`` and never reads (its receive buffer kept small, so that
    the answer stays with the server)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((server.host, server.port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {server.host}\r\n\r\n".encode())
    return sock


def wait_for_body(sock: socket.socket) -> None:
    """Wait until ``sock`` holds bytes of its answer's body (the server queued the body)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            seen = sock.recv(65536, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            seen = b""
        _, blank, body = seen.partition(b"\r\n\r\n")
        if blank and len(body) >= 100:
            return
        time.sleep(0.02)
    raise AssertionError("the answer's body never came")


def drain(sock: socket.socket) -> bytes:
    """Everything ``sock`` still receives until the server closes it (a reset ends it too)."""
    sock.settimeout(20)
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while part := sock.recv(1 << 20):
            data += part
    sock.close()
    return data


def status_from(server: Server, source: str, path: str = "/api/games?limit=1") -> int | None:
    """The status of ``GET path`` sent from the address ``source``; None when the connection
    was closed or reset without an answer."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=20,
                                      source_address=(source, 0))
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        answer.read()
        return answer.status
    except (ConnectionError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def test_clients_that_never_read_are_dropped_at_the_timeout_and_others_served(
        tmp_path: Path) -> None:
    """A: waitress marked a silent connection to close but closed it only once its socket
    was writable, never for a client that does not read: such clients held the connection
    cap and their answers for ever. Here one address (127.0.0.1) may hold 2 connections and
    1 MB of unread answers; another address (127.0.0.2) is served throughout."""
    server = Server(tmp_path / "games.db", "--processes", "1", "--timeout", str(TIMEOUT),
                    "--client-connections", "2", "--client-queued", "1", "--rate-limit", "off")
    readers: list[socket.socket] = []
    try:
        log = padded_log(5 * 1024 * 1024 - 64)  # more than the kernel's buffers take (4 MB)
        status, _, body = server.request("POST", "/api/games", log, JSON)
        assert status == 201
        page = f"/games/{json.loads(body)['id']}/log.json"
        started = time.monotonic()
        readers.append(never_reading(server, page))
        wait_for_body(readers[0])  # its answer is queued, more than the address's 1 MB
        readers.append(never_reading(server, page))  # so this request is not even read
        with socket.create_connection((server.host, server.port), timeout=20) as third:
            refused = drain(third)
        assert refused.startswith(b"HTTP/1.1 429 ") and b"at most 2 at once" in refused
        assert status_from(server, "127.0.0.2") == 200  # another client, served meanwhile
        assert status_from(server, "127.0.0.1") == 429  # the readers still hold their share
        while (answered := status_from(server, "127.0.0.1")) != 200:
            assert answered == 429
            assert time.monotonic() - started < TIMEOUT + 5, "the readers were never dropped"
            time.sleep(0.1)
        assert time.monotonic() - started >= TIMEOUT
        got = drain(readers[0])  # what the kernel held when the server dropped the rest
        assert got.startswith(b"HTTP/1.1 200 ") and 0 < len(got) < len(log)
        # over the budget, its request waits unread (nothing, then closed) or, when it was
        # read before the first answer filled the budget (a loaded machine), is refused
        second = drain(readers[1])
        assert second == b"" or second.startswith(b"HTTP/1.1 429 "), second[:80]
    finally:
        for sock in readers:
            sock.close()
        out = server.stop()
    assert "Traceback" not in out, out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A ``serve`` of one process that also answers to the name replay.example.org."""
    srv = Server(tmp_path_factory.mktemp("connections") / "games.db", "--processes", "1",
                 "--allowed-host", "replay.example.org")
    yield srv
    out = srv.stop()
    assert "Traceback" not in out, out


def test_a_60_mb_body_sent_before_reading_gets_the_413(server: Server) -> None:
    """17: past the 32 MB the server reads of a body over the limit it closed the socket
    while urllib was still sending, and urllib met "connection reset" instead of the 413."""
    base = f"http://{server.host}:{server.port}"
    for path in ("/api/games", "/api/verify"):
        request = urllib.request.Request(f"{base}{path}", data=b" " * (60 * 1024 * 1024),
                                         method="POST", headers=JSON)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=60)
        assert refused.value.code == 413
        assert json.loads(refused.value.read())["error"]["limit"] == 5 * 1024 * 1024
    assert server.request("GET", "/api/games")[0] == 200  # and the server goes on


@pytest.mark.parametrize(("host", "status"), [
    ("evil.example", 421), ("evil.example:5000", 421), ("replay.example.org.evil", 421),
    ("replay.example.org", 200), ("REPLAY.example.org:8080", 200), ("localhost:5000", 200),
    ("192.168.1.20:5000", 200), ("[::1]:5000", 200),
])
def test_a_host_not_ours_is_refused(server: Server, host: str, status: int) -> None:
    """E: a page of evil.example, its name pointed at 127.0.0.1 (DNS rebinding), sends Host
    and Origin both naming evil.example: the same-origin guard let it store and read."""
    headers = {"Host": host, "Origin": f"http://{host}", **JSON}
    log = dumps(generate_log("base", 2, 6)).encode()
    for method, path, body in (("GET", "/api/games", None), ("POST", "/api/games", log),
                               ("GET", "/games", None)):
        answer, _, text = server.request(method, path, body, headers)
        if status == 421:
            assert answer == 421
            assert b"does not answer to the name" in text and b"--allowed-host" in text
        else:  # stored by the first of these tests, found again by the others
            assert answer in ((200, 201) if method == "POST" else (200,)), text


@pytest.mark.parametrize(("addr", "client"), [
    (("203.0.113.7", 5000), "203.0.113.7"),
    (("2001:db8:1:2:aaaa::1", 5000, 0, 0), "2001:db8:1:2::/64"),  # one subscriber's /64
    (("2001:db8:1:2:bbbb::9", 5000, 0, 0), "2001:db8:1:2::/64"),
    (("::ffff:203.0.113.7", 5000, 0, 0), "203.0.113.7"),
    ("localhost", "localhost"),
])
def test_a_client_is_an_ipv4_address_or_an_ipv6_64(addr: object, client: str) -> None:
    assert client_of(addr) == client


def channel(**state: object) -> Channel:
    """A channel's state alone (no socket), for its rules."""
    made = Channel.__new__(Channel)
    made.requests, made.total_outbufs_len = [], 0
    for key, value in state.items():
        setattr(made, key, value)
    return made


def test_which_connections_are_overdue() -> None:
    """Silent past the timeout with an answer unsent or nothing running: closed, whatever the
    socket waits for; a request waiting for a thread is the server's slowness, not the
    client's; a lingering connection has its own bounds."""
    now = 1000.0
    assert channel(last_activity=now - 31).overdue(now, 30)  # idle
    assert channel(last_activity=now - 31, requests=[1], total_outbufs_len=5).overdue(now, 30)
    assert not channel(last_activity=now - 31, requests=[1]).overdue(now, 30)  # at work
    assert not channel(last_activity=now - 29, total_outbufs_len=5).overdue(now, 30)
    lingering = {"lingering": True, "linger_until": now + 20}
    assert not channel(last_activity=now - 1, **lingering).overdue(now, 30)
    assert channel(last_activity=now - 6, **lingering).overdue(now, 30)  # 5 s of silence
    assert channel(last_activity=now, lingering=True, linger_until=now).overdue(now, 30)


def test_the_names_a_server_answers_to(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "Box.example.org")
    names = served_names("replay.lan", ["a.example"])
    assert names == sorted({"a.example", "box.example.org", "box", "box.local", "replay.lan"})
    assert "0.0.0.0" not in served_names("0.0.0.0") and "::" not in served_names("::")


@pytest.mark.parametrize("name", ["http://replay.example.org", "replay.example.org:5000",
                                  "replay.example.org/x", "", "a..b"])
def test_an_allowed_host_is_a_name_alone(name: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="is not a host name: give a name"):
        host_name(name)
    assert host_name("Replay.Example.org.") == "replay.example.org"


def test_serve_refuses_an_allowed_host_that_is_no_name() -> None:
    proc = subprocess.run([sys.executable, "-m", "replay", "serve", "--allowed-host",
                           "http://replay.example.org:5000"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "is not a host name: give a name alone" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_clients_unsent_bytes_and_the_answer_past_its_budget() -> None:
    """What ``Channel.service`` reads before running a request (the drill's slow readers
    show it at work: a burst of requests is read before any answer is queued)."""
    server = connections.Server.__new__(connections.Server)
    server.active_channels = {
        1: channel(client="203.0.113.7", total_outbufs_len=3 << 20),
        2: channel(client="203.0.113.7", total_outbufs_len=6 << 20),
        3: channel(client="198.51.100.1", total_outbufs_len=9 << 20)}
    assert server.queued("203.0.113.7") == 9 << 20 and server.queued("192.0.2.1") == 0
    status, headers, body = Unread("read them first").to_response("carcassonne-replay")
    assert status == "429 Too Many Requests" and ("Retry-After", "5") in headers
    assert b"read them first" in body


@pytest.mark.parametrize("host", ["x" * 4000, "a..b", "-.example", "é" * 70, "[::1",
                                  "localhost:99999999999999999999"])
def test_a_host_that_makes_no_url_is_refused_in_plain_words(client: FlaskClient,
                                                             host: str) -> None:
    """A Host from which no URL can be built (4,000 characters, an empty or over-long IDNA
    label) left the app without a URL adapter, and the error page's links then raised: a 500
    found by the drill's foreign headers. It gets its 4xx, in plain text when no link can be
    written."""
    for path in ("/games", "/games/0123456789abcdef/moves/3?explore=1", "/api/games"):
        answer = client.get(path, headers={"Host": host})
        assert answer.status_code < 500, (path, answer.status_code)
        assert b"Traceback" not in answer.data
