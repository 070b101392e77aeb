"""Checkpoints: an audit's finished rows, one JSON object a line, so that an interrupted
audit continues where it stopped (``--resume FILE``) and gives the same report.

The first line says what the checkpoint is of (the sources, in order); each further line is
a row, written in the order of the walk and flushed at least once a second (a flush a row cost
the audit some 30 microseconds a game) and when the audit stops, Ctrl-C included. A last line
cut short by the interruption is ignored (its game is verified again; so are the rows of the
last second when the process was killed outright). Resuming with other sources is
refused: the rows' indices would not mean the same games. A row's report written before
``report_version`` 2 (moves by their 0-based index) is read as the current version.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from ..core.verify import upgrade
from .work import Row

VERSION = 1
FLUSH_SECONDS = 1.0  # rows are flushed to the file at least this often


class CheckpointError(Exception):
    """A checkpoint that belongs to another audit or is not one."""


def header(sources: Sequence[str]) -> dict[str, Any]:
    return {"audit_checkpoint": VERSION, "sources": [os.path.abspath(s) for s in sources]}


def load(path: str | Path, sources: Sequence[str]) -> dict[int, Row]:
    """The rows finished already (by index); empty when the file does not exist yet."""
    p = Path(path)
    if not p.exists():
        return {}
    rows: dict[int, Row] = {}
    with p.open("rb") as fh:
        first = fh.readline()
        if not first.strip():
            return {}
        try:
            head = json.loads(first)
        except ValueError:
            raise CheckpointError(f"{path} is not an audit checkpoint") from None
        if not isinstance(head, dict) or head.get("audit_checkpoint") != VERSION:
            raise CheckpointError(f"{path} is not an audit checkpoint")
        if head.get("sources") != header(sources)["sources"]:
            raise CheckpointError(f"{path} is the checkpoint of an audit of other sources: "
                                  f"{', '.join(head.get('sources') or [])}")
        for line in fh:
            if not line.endswith(b"\n"):
                break  # cut short by the interruption
            try:
                row = json.loads(line)
            except ValueError:
                break
            if isinstance(row, dict) and isinstance(row.get("index"), int):
                if isinstance(row.get("report"), dict):  # written by an earlier version
                    row["report"] = upgrade(row["report"])
                rows[row["index"]] = row
    return rows


class Checkpoint:
    """Appends rows to ``path`` (writing the header to a new file); a truncated last line is
    cut off first so that what follows it is whole."""

    def __init__(self, path: str | Path, sources: Sequence[str]) -> None:
        p = Path(path)
        if p.exists():
            _cut_partial_line(p)
        fresh = not p.exists() or p.stat().st_size == 0
        self.fh: IO[str] = p.open("a", encoding="utf-8")
        self.flushed = time.monotonic()
        if fresh:
            self.fh.write(json.dumps(header(sources), ensure_ascii=False) + "\n")
            self.fh.flush()

    def add(self, row: Row) -> None:
        self.fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        now = time.monotonic()
        if now - self.flushed >= FLUSH_SECONDS:
            self.fh.flush()
            self.flushed = now

    def close(self) -> None:
        self.fh.close()


def _cut_partial_line(p: Path) -> None:
    with p.open("rb+") as fh:
        size = fh.seek(0, os.SEEK_END)
        pos = size
        while pos > 0:
            step = min(4096, pos)
            fh.seek(pos - step)
            block = fh.read(step)
            nl = block.rfind(b"\n")
            if nl >= 0:
                end = pos - step + nl + 1
                if end != size:
                    fh.truncate(end)
                return
            pos -= step
        fh.truncate(0)
