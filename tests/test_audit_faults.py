"""``audit`` and ``verify`` on what an unlucky operator or an attacker hands them (issue 29):
special files and link loops in a directory (item 2), control characters in names (item 3),
cut and corrupt archives (item 9).

Cheap and bounded: a few small logs, and the one command line that could hang runs in a
subprocess with a timeout."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import socket
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from replay.audit import audit, walk
from replay.audit.report import write_html
from replay.audit.sources import Item
from replay.cli import main as cli_main
from replay.lab.diff import COMPARED
from replay.lab.diff_report import DIFF
from replay.reports import writer

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
    assert cli_main(["import", str(path)]) == 2  # a log v1: not a foreign format
    _no_controls(capsys.readouterr().err)
    assert cli_main(["render", str(tmp_path / f"{HOSTILE}-missing.json")]) == 2
    _no_controls(capsys.readouterr().err)


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
    writer(DIFF, "text", text, verbose=True).row(row)
    _no_controls(text.getvalue())


# --------------------------------------------------------------------------- item 9

GAMES = 12


def _tar_bytes() -> tuple[bytes, list[int]]:
    """An uncompressed tar of GAMES logs, and the offset of each member's header."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as t:
        for i in range(GAMES):
            data = _log(f"P{i}")
            info = tarfile.TarInfo(f"g{i:02}.json")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    raw = buf.getvalue()
    with tarfile.open(fileobj=io.BytesIO(raw)) as t:
        offsets = [m.offset for m in t.getmembers()]
    return raw, offsets


def _zip_bytes() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(GAMES):
            z.writestr(f"g{i:02}.json", _log(f"P{i}"))
    return buf.getvalue()


def _broken(items: list[Item], name: str) -> tuple[int, str]:
    """The games read whole from the archive ``name``, and why it is broken."""
    mine = [i for i in items if i.name.startswith(f"{name}!")]
    assert mine and mine[-1].name == f"{name}!", [(i.name, i.error) for i in mine]
    why = mine[-1].error or ""
    assert why.startswith("broken archive: "), why
    return sum(1 for i in mine if i.error is None), why


def test_cut_and_corrupt_archives_are_broken_with_the_games_before(tmp_path: Path) -> None:
    raw, offsets = _tar_bytes()
    packed = {"tar": raw, "tar.gz": gzip.compress(raw, mtime=0), "tar.bz2": bz2.compress(raw),
              "tar.xz": lzma.compress(raw), "zip": _zip_bytes()}
    cuts: dict[str, bytes] = {}
    for ext, data in packed.items():
        (tmp_path / f"whole.{ext}").write_bytes(data)
        cuts[f"cut.{ext}"] = data[: len(data) * 2 // 3]  # in the middle
        if ext != "tar":  # the end of the compressed stream (or the zip's directory) cut
            cuts[f"tail.{ext}"] = data[:-4]
    cuts["header.tar"] = raw[: offsets[9]]  # cut right before a header: no end-of-archive block
    flipped = bytearray(packed["tar.gz"])
    flipped[len(flipped) // 2] ^= 0xFF
    cuts["corrupt.tar.gz"] = bytes(flipped)
    for name, data in cuts.items():
        (tmp_path / name).write_bytes(data)

    wholes = sorted(str(p) for p in tmp_path.glob("whole.*"))
    items = list(walk(wholes))
    assert len(items) == GAMES * len(wholes) and all(i.error is None for i in items)
    for name in cuts:
        path = str(tmp_path / name)
        read, why = _broken(list(walk([path])), path)
        assert read < GAMES or name.startswith(("tail.", "corrupt.")), (name, read)
        assert f"; {read} entr" in why or read == 0 or "unreadable" in why, (name, why)
        if name.startswith("tail.") or name == "header.tar":
            assert read == (9 if name == "header.tar" else GAMES), (name, read)
    read, why = _broken(list(walk([str(tmp_path / "cut.tar.bz2")])), str(tmp_path / "cut.tar.bz2"))
    assert read == 0 and "0 entries read before the break" in why  # bzip2: a block is all

    out = io.StringIO()
    summary = audit([str(tmp_path / "tail.tar.gz"), str(tmp_path / "cut.zip")], out, "json",
                    jobs=1, progress=False)
    assert summary.exit == 2 and summary.verdicts["valid"] >= GAMES
    assert json.loads(out.getvalue().splitlines()[-1])["summary"][
        "archives_not_read_whole"] == 2
    text = "\n".join(summary.lines())
    assert (f"INCOMPLETE: 2 archives not read to the end ({tmp_path / 'tail.tar.gz'}, "
            f"{tmp_path / 'cut.zip'})") in text
    page = io.StringIO()
    write_html(page, summary)
    assert "Incomplete: 2 archives not read to the end" in page.getvalue()
