"""``serve`` as an operator meets it on a bad day (issue 29): its parent process killed
(SIGKILL) takes its workers with it, a start-up failure names its cause and the port or
file (exit 2), never "a bug"; a body over the limit gets the app's 413, read by a client that
sends it all before reading."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.test_service import banner
from web.server import Settings, serve

ROOT = Path(__file__).resolve().parent.parent


def children(pid: int) -> set[int]:
    """The pids of ``pid``'s living children (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_workers_end_when_the_parent_is_killed(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "replay", "serve", "--host", "127.0.0.1", "--port", "0",
         "--processes", "2", "--db", str(tmp_path / "games.db")],
        cwd=ROOT, stderr=subprocess.PIPE, text=True)
    workers: set[int] = set()
    try:
        assert banner(proc)[1] is not None
        deadline = time.monotonic() + 20
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = children(proc.pid)
            time.sleep(0.05)
        assert len(workers) == 2
        proc.send_signal(signal.SIGKILL)
        proc.wait(5)
        deadline = time.monotonic() + 5
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers), "orphan workers live on"
    finally:
        for pid in [proc.pid, *workers]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(5)


def test_a_port_in_use_is_a_clear_start_up_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        code = serve({"DATABASE": str(tmp_path / "games.db")},
                     Settings(host="127.0.0.1", port=port, processes=1))
    err = capsys.readouterr().err
    assert code == 2 and f"port {port} is in use" in err and "bug" not in err


def test_an_unreadable_library_is_a_clear_start_up_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "games.db"
    broken.write_bytes(b"not a database at all" * 100)
    code = serve({"DATABASE": str(broken)}, Settings(host="127.0.0.1", port=0, processes=1))
    err = capsys.readouterr().err
    assert code == 2 and str(broken) in err and "not a database" in err
    assert serve({"DATABASE": str(tmp_path)}, Settings(port=0, processes=1)) == 2  # a directory
    assert str(tmp_path) in capsys.readouterr().err


def test_a_body_over_the_limit_gets_the_apps_413(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "replay", "serve", "--host", "127.0.0.1", "--port", "0",
         "--processes", "1", "--db", str(tmp_path / "games.db")],
        cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        found = banner(proc)[1]
        assert found
        base = f"http://127.0.0.1:{found.group(2)}"
        big = b" " * (8 * 1024 * 1024)
        # urllib sends the whole body before it reads the answer
        request = urllib.request.Request(f"{base}/api/games", data=big, method="POST",
                                         headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 413
        assert json.loads(refused.value.read())["error"]["limit"] == 5 * 1024 * 1024
        form = urllib.request.Request(f"{base}/upload", data=b"log=" + big, method="POST",
                                      headers={"Origin": base})
        with pytest.raises(urllib.error.HTTPError) as page:
            urllib.request.urlopen(form, timeout=30)
        assert page.value.code == 413 and b"<html" in page.value.read().lower()
        conn = http.client.HTTPConnection("127.0.0.1", int(found.group(2)), timeout=30)
        try:  # chunked: no length said
            conn.request("POST", "/api/verify", body=iter([big[:4_000_000]] * 2),
                         headers={"Content-Type": "application/json"}, encode_chunked=True)
            answer = conn.getresponse()
            assert answer.status == 413 and json.loads(answer.read())["error"]["code"] == 413
        finally:
            conn.close()
    finally:
        proc.kill()
        proc.wait(5)
