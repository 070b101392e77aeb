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
import zipfile
from pathlib import Path

import pytest

from replay.audit import audit, walk
from replay.cli import main as cli_main
from replay.lab.diff import COMPARED
from replay.lab.diff_report import TextWriter as DiffText

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



# --------------------------------------------------------------------------- item 3

HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[31mRed"  # a title set, the screen cleared, a colour


def _no_controls(text: str, escaped: str = "\\x1b") -> None:
    assert "\x1b" not in text and "\x07" not in text, text
    assert escaped in text


def test_verify_prints_names_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{HOSTILE}.json"
    path.write_bytes(_log(HOSTILE))
    assert cli_main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    _no_controls(out)
    assert "\\x1b]0;owned\\x07\\x1b[2J\\x1b[31mRed 3" in out  # the player, in the scores
    bad = json.loads(_log(HOSTILE))
    bad["claims"]["final_scores"][HOSTILE] = 4
    path.write_text(json.dumps(bad))
    assert cli_main(["verify", "-v", str(path), str(path)]) == 1
    _no_controls(capsys.readouterr().out)


def test_audit_and_diff_print_names_escaped(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / f"{HOSTILE}.json").write_bytes(_log(HOSTILE))
    with zipfile.ZipFile(d / "a.zip", "w") as z:
        z.writestr(f"{HOSTILE}.json", _log(HOSTILE))
    out = io.StringIO()
    summary = audit([str(d), str(d / "missing\x07.json")], out, "text", jobs=1,
                    progress=False, verbose=True)
    assert summary.games == 3
    _no_controls(out.getvalue())
    assert out.getvalue().count("\\x1b[31mRed 3") == 2
    _no_controls("\n".join(summary.lines()), "missing\\x07.json")
    row = {"source": "x.json", "status": COMPARED, "changed": False,
           "final_scores_b": {HOSTILE: 3}}
    text = io.StringIO()
    DiffText(text, verbose=True).row(row)
    _no_controls(text.getvalue())
