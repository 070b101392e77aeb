"""Ctrl-C during ``audit``: how many games were done, where they are kept or how to keep
them next time (the exact command), exit 130 and no traceback; a resumed audit with nothing
left says so instead of a rate."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest

from replay.audit import command
from replay.audit.report import Summary
from replay.audit.work import Row
from replay.cli import main
from replay.generate import dumps, generate_log

GAMES = 12
STOP_AT = 5  # the row whose report line Ctrl-C interrupts


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("interrupt") / "corpus"
    d.mkdir()
    logs = [dumps(generate_log("base", 2, seed)) for seed in (1, 2, 3)]
    for k in range(GAMES):
        (d / f"g{k:02}.json").write_text(logs[k % 3], encoding="utf-8")
    return d


class Stopping:
    """A report writer that is interrupted (as by Ctrl-C) while it writes row ``STOP_AT``."""

    def __init__(self, out: IO[str], *args: Any) -> None:
        self.rows = 0

    def row(self, row: Row) -> None:
        self.rows += 1
        if self.rows == STOP_AT:
            raise KeyboardInterrupt

    def close(self, summary: Summary) -> None:
        raise AssertionError("an interrupted audit writes no summary")


def _resume_words(err: str) -> list[str]:
    """The command an interrupted audit says to run next, as ``main``'s arguments."""
    line = err.strip().splitlines()[-1].strip()
    words = shlex.split(line)
    assert words[:3] == ["python", "-m", "replay"], line
    return words[3:]


def test_ctrl_c_says_what_was_done_and_how_to_keep_it(
        corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "report.csv"
    with monkeypatch.context() as patch:
        patch.setattr(command, "writer", Stopping)
        code = main(["audit", str(corpus), "--jobs", "1", "--format", "csv", "--out",
                     str(report)])
    err = capsys.readouterr().err
    assert code == 130 and "Traceback" not in err
    assert f"audit: interrupted after {STOP_AT} games; without --resume the work done is " \
           "not kept" in err
    words = _resume_words(err)  # the same audit, with a checkpoint
    assert words == ["audit", str(corpus), "--jobs", "1", "--format", "csv", "--out",
                     str(report), "--resume", command.CHECKPOINT]

    with monkeypatch.context() as patch:  # interrupted again, with the checkpoint this time
        patch.setattr(command, "writer", Stopping)
        assert main(words) == 130
    err = capsys.readouterr().err
    assert f"audit: interrupted after {STOP_AT} games ({STOP_AT} verified by this run), " \
           f"kept in {command.CHECKPOINT}; run the same command again" in err
    assert _resume_words(err) == words
    checkpoint = tmp_path / command.CHECKPOINT
    assert len(checkpoint.read_text(encoding="utf-8").splitlines()) == 1 + STOP_AT

    assert main(words) == 0  # goes on where it stopped
    err = capsys.readouterr().err
    assert f"games: {GAMES}; valid {GAMES}" in err
    assert "games/s" in err and f"; {STOP_AT} games taken from {command.CHECKPOINT}" in err

    assert main(words) == 0  # nothing left
    err = capsys.readouterr().err
    assert f"nothing left to do: all {GAMES} games of {corpus} are already in " \
           f"{command.CHECKPOINT}" in err
    assert "games/s" not in err
    assert len(report.read_text(encoding="utf-8").splitlines()) == 1 + GAMES  # the whole report


def test_a_text_report_of_nothing_left_says_so_too(corpus: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    ck = str(tmp_path / "ck")
    assert main(["audit", str(corpus), "--jobs", "1", "--resume", ck]) == 0
    assert "games/s" in capsys.readouterr().out
    assert main(["audit", str(corpus), "--jobs", "1", "--resume", ck]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == (f"nothing left to do: all {GAMES} games of {corpus} are "
                                    f"already in {ck}")


def test_a_real_ctrl_c(corpus: Path, tmp_path: Path) -> None:
    """SIGINT to a running ``python -m replay audit`` and its workers (as Ctrl-C in a
    terminal sends it to the whole process group): exit 130, no traceback (the main process's
    or a worker's), and as many games in the checkpoint as the message says."""
    big = tmp_path / "big"
    big.mkdir()
    data = (corpus / "g00.json").read_bytes()
    for k in range(400):  # far more than it verifies before the signal
        (big / f"g{k:03}.json").write_bytes(data)
    ck = tmp_path / "ck"
    proc = subprocess.Popen(
        [sys.executable, "-m", "replay", "audit", str(big), "--jobs", "1", "--resume", str(ck),
         "--format", "json", "--out", str(tmp_path / "r.jsonl")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (ck.exists() and ck.read_bytes().endswith(b"\n")):  # the audit has begun
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    found = re.search(r"audit: interrupted after (\d+) games? \((\d+) verified by this run\), "
                      r"kept in (.+); run the same command again", err)
    assert found, err
    assert found[1] == found[2] and found[3] == str(ck)
    assert len(ck.read_text(encoding="utf-8").splitlines()) == 1 + int(found[1])
