"""``python -m replay export SRC... --out FILE``: a corpus as data, outside the web app.

The corpus is walked and verified as ``audit`` does it (``command.working``: archives, JSON
Lines, imports, the workers or a Dask cluster, the progress bar), each game once for its
verdict and its rows (``ingest.audit_batch``), and stored as ``ingest`` stores one
(``ingest.Library``: deduplicated, the games as data written with each game) in a library
file made beside ``--out``. That file is the SQLite export; the CSV and Parquet exports are
its five tables as files (``replay.library.dump``).

``--out`` is written whole or not at all: the work goes into a hidden directory beside it,
moved into place at the end; an interrupted or failed export leaves an existing ``--out``
as it was. An existing ``--out`` is refused unless ``--force`` is given, and even then a
directory is replaced only when it holds nothing but an export's files (``--out ~`` with
``--force`` never empties a home directory).

``--resume FILE``: the audit's checkpoint, each row with the game's library row and its
rows as data, so that an export started again rebuilds the same output from the games done
and goes on with the rest.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..core.json_input import MAX_BYTES
from ..core.printable import printable
from ..core.verify import EXIT_INTERNAL, EXIT_UNREADABLE
from ..library import dump
from . import resume
from .command import EXIT_INTERRUPTED, Interrupted, working
from .ingest import Ingested, Library, LibraryError, audit_batch
from .report import AUDIT, MAX_TABLE, Summary
from .runner import Deferred
from .sources import DEFAULT_LIMITS, Limits

FORMATS = ("sqlite", "csv", "parquet")
SUFFIXES = {".db": "sqlite", ".sqlite": "sqlite", ".sqlite3": "sqlite", ".csv": "csv",
            ".parquet": "parquet"}
LIBRARY_ONLY = ("store", "meta", "tables")  # a row's fields for the library, not the report


class ExportError(Exception):
    """An export that cannot be made as asked (``--out``, ``--format``, a checkpoint): exit 2."""


@dataclass
class Exported:
    """What an export did: the audit's summary of the games, what the library stored, and the
    rows of each table written to ``out``."""

    out: str
    fmt: str
    summary: Summary
    stored: Ingested = field(default_factory=Ingested)
    rows: dict[str, int] = field(default_factory=dict)

    @property
    def exit(self) -> int:
        """The audit's exit code: the worst verdict (3 at most)."""
        return min(self.summary.exit, EXIT_INTERNAL)

    def lines(self) -> list[str]:
        """The summary for people: the audit's, then what was written where."""
        s = self.stored
        games = sum(s.stored.values())
        tables = ", ".join(f"{table} {n}" for table, n in self.rows.items())
        line = (f"exported {games} game{'s' * (games != 1)} to {self.out} ({self.fmt}): "
                f"{tables}")
        if s.duplicates:
            line += f"; {s.duplicates} duplicate{'s' * (s.duplicates != 1)} exported once"
        return [*self.summary.lines(), printable(line)]


def out_format(out: str, fmt: str | None) -> str:
    """The format of the export: ``fmt``, else ``out``'s suffix (``SUFFIXES``)."""
    if fmt is not None:
        return fmt
    found = SUFFIXES.get(Path(out).suffix.lower())
    if found is None:
        raise ExportError(f"cannot tell the format of {out!r} from its suffix: give --format "
                          f"{{{','.join(FORMATS)}}} (or end it in "
                          f"{', '.join(SUFFIXES)})")
    return found


def check_out(out: str, fmt: str, force: bool) -> None:
    """Refuse an ``--out`` that cannot or must not be written (``ExportError``, saying why)."""
    path = Path(out)
    parent = path.parent
    if not parent.is_dir():
        raise ExportError(f"cannot write {out}: {parent} is not a directory"
                          if parent.exists() else
                          f"cannot write {out}: the directory {parent} does not exist")
    if not path.exists() and not path.is_symlink():
        return
    if fmt == "sqlite":
        if path.is_dir():
            raise ExportError(f"{out} is a directory: a SQLite export is one file")
        if not force:
            raise ExportError(f"{out} exists: give --force to replace it")
        return
    if not path.is_dir():
        raise ExportError(f"{out} exists and is not a directory: a {fmt} export is a "
                          "directory of files")
    there = sorted(p.name for p in path.iterdir())
    if not there:
        return
    ours = set(dump.names("csv") + dump.names("parquet"))
    strangers = [name for name in there if name not in ours]
    if strangers:
        raise ExportError(f"{out} holds files an export did not write ({', '.join(strangers[:3])}"
                          f"{', ...' if len(strangers) > 3 else ''}): give an empty or new "
                          "directory")
    if not force:
        raise ExportError(f"{out} holds an export already: give --force to replace it")


def export(sources: Sequence[str], out: str, fmt: str | None = None, *,
           jobs: int | None = None, checkpoint: str | None = None, force: bool = False,
           dask: str | None = None, shared_fs: bool | None = None,
           progress: bool | None = None, limits: Limits = DEFAULT_LIMITS,
           batch: int | None = None, report: IO[str] | None = None) -> Exported:
    """Export the games of ``sources`` to ``out`` in ``fmt`` (by default from its suffix);
    ``report``: where the audit's lines of the games that are not valid go (none by
    default). Raises ``ExportError`` (bad ``out``, ``fmt``, a checkpoint of something else,
    pyarrow missing for Parquet) before any work, and ``Interrupted`` after Ctrl-C (the
    checkpoint kept, ``out`` untouched)."""
    fmt = out_format(out, fmt)
    check_out(out, fmt, force)
    if fmt == "parquet" and (missing := dump.pyarrow_missing()) is not None:
        raise ExportError(missing)
    try:
        done = resume.load(checkpoint, sources) if checkpoint else {}
    except resume.CheckpointError as exc:
        raise ExportError(str(exc)) from None
    if any("store" not in r and r["verdict"] not in ("unreadable", "internal")
           for r in done.values()):
        raise ExportError(f"{checkpoint} is the checkpoint of an audit, not of an export: "
                          "give another file")
    try:
        staging = Path(tempfile.mkdtemp(prefix=".export-", dir=Path(out).parent))
    except OSError as exc:
        raise ExportError(f"cannot write {out}: {exc.strerror or exc}") from None
    try:
        result = _export(sources, staging / "library.db", fmt, done, checkpoint, out,
                         report, jobs=jobs, dask=dask, shared_fs=shared_fs,
                         progress=progress, limits=limits, batch=batch)
        try:
            _finish(staging, result, out, fmt, force)
        except KeyboardInterrupt:
            s = result.summary
            raise Interrupted(s.games, s.games - s.resumed) from None
        except OSError as exc:
            raise ExportError(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return result


def _export(sources: Sequence[str], db_path: Path, fmt: str, done: dict[int, Any],
            checkpoint: str | None, out: str, report: IO[str] | None,
            **work: Any) -> Exported:
    """The walk: every row into the staging library (those of the checkpoint too: the
    output is made again whole) and the report."""
    summary = Summary(sources=tuple(sources), checkpoint=checkpoint)
    listed: list[str] = []  # said after the bar is gone (a line under it would tear it)
    start = time.perf_counter()
    try:
        library = Library(str(db_path))
    except LibraryError as exc:
        raise ExportError(str(exc)) from None
    try:
        with ExitStack() as stack:
            stack.callback(library.close)
            ckpt = resume.Checkpoint(checkpoint, sources) if checkpoint else None
            if ckpt is not None:
                stack.callback(ckpt.close)
            show = work.pop("progress")
            stream = stack.enter_context(working(sources, show, done=done,
                                                 worker=audit_batch, **work))
            for row in stream:
                row.pop("report", None)  # verify --json's: no format of export shows it
                if done.get(row["index"]) is row:
                    summary.resumed += 1
                elif ckpt is not None:
                    ckpt.add(row)
                library.add(row)
                public = {k: v for k, v in row.items() if k not in LIBRARY_ONLY}
                summary.add(public)
                if AUDIT.listed(public) and len(listed) < MAX_TABLE:
                    listed.append(printable(AUDIT.line(public)))
    except KeyboardInterrupt:
        raise Interrupted(summary.games, summary.games - summary.resumed) from None
    summary.seconds = time.perf_counter() - start
    if report is not None and listed:
        more = summary.games - summary.verdicts["valid"] - summary.verdicts["unfinished"] \
            - len(listed)
        report.write("\n".join(listed) + (f"\n... and {more} more" if more else "") + "\n")
    return Exported(out, fmt, summary, library.result)


def _finish(staging: Path, result: Exported, out: str, fmt: str, force: bool) -> None:
    """The staging library made into ``out``: one self-contained file (no WAL beside it),
    or the five files moved into the directory ``out`` (``out`` checked again: something
    may have come there meanwhile; Ctrl-C held back while the old is replaced)."""
    db_path = staging / "library.db"
    conn = sqlite3.connect(str(db_path))
    try:
        conn.execute("pragma journal_mode=delete")
        if fmt == "sqlite":
            result.rows = {t: conn.execute(f"select count(*) from [{t}]").fetchone()[0]
                           for t in dump.FILES}
    finally:
        conn.close()
    if fmt == "sqlite":
        check_out(out, fmt, force)
        with Deferred():
            os.replace(db_path, out)
        return
    files = staging / "files"
    files.mkdir()
    result.rows = dump.dump(db_path, files, fmt)
    check_out(out, fmt, force)
    target = Path(out)
    with Deferred():
        target.mkdir(exist_ok=True)
        for name in dump.names("csv") + dump.names("parquet"):  # checked: only an export's
            (target / name).unlink(missing_ok=True)
        for name in dump.names(fmt):
            os.replace(files / name, target / name)


def cmd_export(args: argparse.Namespace) -> int:
    """``export``: the games not valid and the summary on stderr; the exit code the worst
    verdict, as ``audit``'s."""
    try:
        result = export(args.sources, args.out, args.format, jobs=args.jobs,
                        checkpoint=args.resume, force=args.force, dask=args.dask,
                        shared_fs=args.shared_fs, limits=Limits(max_bytes=args.max_bytes),
                        batch=args.batch, report=sys.stderr)
    except ExportError as exc:
        print(printable(f"export: {exc}"), file=sys.stderr)
        return EXIT_UNREADABLE
    except Interrupted as stop:
        command = again(args, args.resume or CHECKPOINT)
        kept = (f"kept in {args.resume}; run the same command again to go on where it "
                "stopped" if args.resume else "not kept (no --resume); to keep them the "
                "next time it stops")
        print(printable(f"export: interrupted after {stop.games} games, {kept}; "
                        f"{args.out} is untouched:"), file=sys.stderr)
        print(printable(f"  {command}"), file=sys.stderr)
        return EXIT_INTERRUPTED
    print("\n".join(result.lines()), file=sys.stderr)
    return result.exit


CHECKPOINT = "export.ckpt"  # the checkpoint an interrupted export without --resume suggests
# the options an interrupted export is started again with, and their defaults
AGAIN = (("--out", "out", None), ("--format", "format", None), ("--force", "force", False),
         ("--jobs", "jobs", None), ("--dask", "dask", None), ("--shared-fs", "shared_fs", False),
         ("--batch", "batch", None), ("--max-bytes", "max_bytes", MAX_BYTES))


def again(args: argparse.Namespace, checkpoint: str) -> str:
    """The command line of the same export with ``--resume checkpoint``, quoted for a
    shell (``command.again``)."""
    from .command import again as command_again

    return command_again(args, checkpoint, "export", AGAIN)
