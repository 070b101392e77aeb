"""``python -m replay audit`` and ``ingest``: the walk, the workers, the progress bar, the
checkpoint and the report, put together."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import IO, Any, cast

from ..core.json_input import MAX_BYTES
from ..core.verify import EXIT_INTERNAL, EXIT_UNREADABLE
from ..reports import writer
from . import resume
from .report import AUDIT, Summary
from .runner import Backend, LocalPool, Stats, Worker, check_plugins, run, tasks
from .sources import DEFAULT_LIMITS, Limits, count, walk
from .work import Row, Task, verify_batch

# games per task, by backend: a Dask task costs some milliseconds of the client, scheduler and
# worker (measured on a LocalCluster: 16 a task ran at 0.55x the local pool on 2 workers, 256
# at 0.8x), a local pool's a few tens of microseconds; docs/scaling.md
LOCAL_BATCH = 16
DASK_BATCH = 256
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C
CHECKPOINT = "audit.ckpt"  # the checkpoint an interrupted audit without --resume suggests


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during an audit: the games done (``games``: reported, and in the checkpoint if
    there is one), ``fresh`` of them verified by this run (the rest from the checkpoint)."""

    def __init__(self, games: int, fresh: int) -> None:
        super().__init__(games, fresh)
        self.games = games
        self.fresh = fresh


def default_batch(dask: str | None) -> int:
    """Games per task when ``--batch`` is not given: 16 on the local pool, 256 on Dask."""
    return LOCAL_BATCH if dask is None else DASK_BATCH


def backend(jobs: int, dask: str | None = None, worker: Worker = verify_batch,
            max_bytes: int = MAX_BYTES) -> Backend:
    """The local pool, or a Dask cluster (``local`` or a scheduler's address)."""
    if dask is None:
        return LocalPool(jobs, worker, max_bytes)
    from .dask_runner import DaskBackend

    return DaskBackend(dask, jobs, worker, max_bytes)


def shipped(work: Iterable[Task], max_bytes: int) -> Iterator[Task]:
    """Tasks with each file's bytes instead of its path (for workers that do not share this
    file system); a file too large or unreadable says so here."""
    for index, name, path, data, error in work:
        if path is not None and data is None and error is None:
            try:
                size = os.stat(path).st_size
                if size > max_bytes:
                    error = f"the log is {size} bytes; the limit is {max_bytes} bytes"
                else:
                    with open(path, "rb") as fh:
                        data = fh.read(max_bytes + 1)
            except OSError as exc:
                error = f"cannot read file {name!r}: {exc.strerror or exc}"
            path = None
        yield (index, name, path, data, error)


class Progress:
    """A tqdm bar on stderr with rate and ETA when it is a terminal; nothing otherwise."""

    def __init__(self, total: int | None, enabled: bool, unit: str = "game") -> None:
        self.bar: Any = None
        if enabled:
            from tqdm import tqdm

            tqdm.monitor_interval = 0  # no thread of its own
            self.bar = tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True,
                            smoothing=0.1)

    def __call__(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def note(self, text: str) -> None:
        """Words after the bar, shown at its next redraw (an arena's running score)."""
        if self.bar is not None:
            self.bar.set_postfix_str(text, refresh=False)

    def total(self, n: int | None) -> None:
        """The bar's total, once it is known (``counting``)."""
        if self.bar is not None and n is not None:
            self.bar.total = n
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def rows(sources: Sequence[str], jobs: int | None = None, dask: str | None = None,
         shared_fs: bool | None = None, limits: Limits = DEFAULT_LIMITS,
         done: dict[int, Row] | None = None, progress: Callable[[int], None] | None = None,
         worker: Worker = verify_batch, batch: int | None = None,
         stats: Stats | None = None, extra: Callable[[str], Any] | None = None) -> Iterator[Row]:
    """The rows of the work on ``sources``, in the order of the walk: each batch of tasks run
    by ``worker`` (the audit's ``verify_batch``; a diff's, an ingest's) on the local pool or
    Dask, ``batch`` games a task (by default ``default_batch``). ``extra(name)``: one more
    field each task carries after the audit's five (a diff's baseline report of the game)."""
    check_plugins()
    jobs = jobs or os.cpu_count() or 1
    work: Iterable[Task] = tasks(walk(sources, limits))
    if dask is not None and dask != "local" and not shared_fs:
        work = shipped(work, limits.max_bytes)
    if extra is not None:  # the runner passes the tasks along whole
        work = cast(Iterable[Task], ((*t, extra(t[1])) for t in work))
    return run(backend(jobs, dask, worker, limits.max_bytes), work, done,
               batch=batch or default_batch(dask),
               progress=progress, stats=stats)


@contextmanager
def working(sources: Sequence[str], show: bool | None = None, limits: Limits = DEFAULT_LIMITS,
            **kw: Any) -> Iterator[Iterator[Row]]:
    """The start that ``audit``, ``diff`` and ``ingest`` share: the plugins checked (a family
    that cannot be loaded said once, on a line of its own), a progress bar on stderr
    (``show``; by default when stderr is a terminal), and ``rows(sources, limits=limits,
    **kw)``; the bar and the workers closed as the block ends, however it ends."""
    check_plugins()
    show = sys.stderr.isatty() if show is None else show
    with ExitStack() as stack:
        bar = Progress(None, show)
        stack.callback(bar.close)
        # the corpus counted for the bar while the workers start (a Dask cluster takes most
        # of a second): the walk and the start overlap
        total = counting(sources, limits) if show else None
        stream = rows(sources, limits=limits, progress=bar, **kw)
        stack.callback(getattr(stream, "close", lambda: None))
        if total is not None:
            bar.total(total())
        yield stream


def counting(sources: Sequence[str], limits: Limits) -> Callable[[], int | None]:
    """``count(sources, limits)`` in a thread of its own, started now; calling the result
    waits for it (None when it could not count)."""
    found: list[int | None] = []

    def run() -> None:
        try:
            found.append(count(sources, limits))
        except Exception:  # a bar without its total: the audit says what it cannot read
            found.append(None)

    thread = threading.Thread(target=run, name="count", daemon=True)
    thread.start()

    def result() -> int | None:
        thread.join()
        return found[0] if found else None

    return result


def audit(sources: Sequence[str], out: IO[str], fmt: str = "text", jobs: int | None = None,
          fail_fast: bool = False, checkpoint: str | None = None, viewer: str | None = None,
          dask: str | None = None, shared_fs: bool | None = None, verbose: bool = False,
          progress: bool | None = None, limits: Limits = DEFAULT_LIMITS,
          worker: Worker = verify_batch, batch: int | None = None,
          stats: Stats | None = None, ingest: str | None = None) -> Summary:
    """Audit ``sources``, writing the report in ``fmt`` to ``out``; the summary (its ``exit``
    is the worst verdict). ``ingest``: also store the games it verifies in the web library
    at that path, as ``ingest`` does (``Summary.library`` says what it stored). Raises
    ``resume.CheckpointError`` for a checkpoint of another audit, ``ingest.LibraryError``
    for a library that cannot be opened; Ctrl-C raises ``Interrupted`` (a
    KeyboardInterrupt) with the games done, and leaves the checkpoint whole."""
    summary = Summary(sources=tuple(sources), checkpoint=checkpoint)
    report = writer(AUDIT, fmt, out, viewer, verbose, "Audit")
    start = time.perf_counter()
    try:
        done = resume.load(checkpoint, sources) if checkpoint else {}
        with ExitStack() as stack:
            ckpt = resume.Checkpoint(checkpoint, sources) if checkpoint else None
            if ckpt is not None:
                stack.callback(ckpt.close)
            store = _library(stack, ingest)
            if store is not None and worker is verify_batch:
                from .ingest import audit_batch

                worker = audit_batch  # one verification for the report and the library
            stream = stack.enter_context(working(
                sources, progress, limits, jobs=jobs, dask=dask, shared_fs=shared_fs,
                done=done, worker=worker, batch=batch, stats=stats))
            for row in stream:
                stored: Row = {k: row.pop(k) for k in ("store", "meta", "tables")
                               if k in row}  # for the library, not the report or checkpoint
                if done.get(row["index"]) is row:  # given back from the checkpoint
                    summary.resumed += 1
                else:
                    if ckpt is not None:
                        ckpt.add(row)
                    if store is not None:
                        store.add({**row, **stored})
                summary.add(row)
                report.row(row)
                if fail_fast and row["exit"] != 0:
                    break
        if store is not None and ingest is not None:
            summary.library = store.said(ingest)
    except KeyboardInterrupt:
        raise Interrupted(summary.games, summary.games - summary.resumed) from None
    summary.seconds = time.perf_counter() - start
    report.close(summary)
    return summary


def _library(stack: ExitStack, path: str | None) -> Any:
    """The library ``audit --ingest`` stores in (None without), closed with ``stack``."""
    if path is None:
        return None
    from .ingest import Library

    store = Library(path)
    stack.callback(store.close)
    return store


def cmd_audit(args: argparse.Namespace) -> int:
    """``audit``: verify a corpus; the exit code is the worst verdict."""
    out: IO[str] = (open(args.out, "w", encoding="utf-8", newline="")  # noqa: SIM115
                    if args.out else sys.stdout)
    from .ingest import LibraryError

    try:
        summary = audit(args.sources, out, args.format, args.jobs, args.fail_fast,
                        args.resume, args.viewer, args.dask, args.shared_fs, args.verbose,
                        limits=Limits(max_bytes=args.max_bytes), batch=args.batch,
                        ingest=args.ingest)
    except (resume.CheckpointError, LibraryError) as exc:
        print(f"audit: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except Interrupted as stop:
        print(interrupted(args, stop), file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if args.out:
            out.close()
    if args.format != "text" or args.out:
        print("\n".join(summary.lines()), file=sys.stderr)
    if args.viewer and args.format == "html" and not args.ingest:
        print(f"audit: the report links games to the viewer at {args.viewer}, which shows "
              "only the games in its library: store them with --ingest DB (the file the "
              "viewer serves) or 'python -m replay ingest'", file=sys.stderr)
    return min(summary.exit, EXIT_INTERNAL)


def interrupted(args: argparse.Namespace, stop: Interrupted) -> str:
    """What Ctrl-C during ``audit`` says: the games done, where they are kept (``--resume``)
    or how to keep them next time, with the command that does it."""
    from ..cli_help import plural
    from ..core.printable import printable

    done = f"audit: interrupted after {plural(stop.games, 'game')}"
    if args.resume:
        lines = [f"{done} ({stop.fresh} verified by this run), kept in {args.resume}; run the "
                 "same command again to go on where it stopped:", again(args, args.resume)]
    else:
        lines = [f"{done}; without --resume the work done is not kept. Run again with "
                 "--resume to keep it the next time it stops:", again(args, CHECKPOINT)]
    return f"{printable(lines[0])}\n  {printable(lines[1])}"


# the options of ``audit`` an interrupted one is started again with, and their defaults
# (``parsers.add_parsers``); --resume is added
AGAIN = (("--jobs", "jobs", None), ("--format", "format", "text"), ("--out", "out", None),
         ("--fail-fast", "fail_fast", False), ("--viewer", "viewer", None),
         ("--ingest", "ingest", None), ("--dask", "dask", None),
         ("--shared-fs", "shared_fs", False),
         ("--batch", "batch", None), ("--max-bytes", "max_bytes", MAX_BYTES),
         ("--verbose", "verbose", False))


def again(args: argparse.Namespace, checkpoint: str, command: str = "audit",
          options: tuple[tuple[str, str, Any], ...] = AGAIN) -> str:
    """The command line of the same audit (or ``command``, whose ``options`` are as
    ``AGAIN``: flag, attribute, default) with ``--resume checkpoint``, quoted for a shell."""
    import shlex

    words = ["python", "-m", "replay", command, *args.sources]
    for flag, dest, default in options:
        value = getattr(args, dest, default)
        if value != default:
            words += [flag] if value is True else [flag, str(value)]
    return shlex.join([*words, "--resume", checkpoint])


def cmd_ingest(args: argparse.Namespace) -> int:
    """``ingest``: store a corpus in the web library."""
    from .ingest import LibraryError, ingest

    try:
        result = ingest(args.sources, args.db, args.jobs,
                        limits=Limits(max_bytes=args.max_bytes), batch_rows=args.batch)
    except LibraryError as exc:
        print(f"ingest: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    print("\n".join(result.lines()), file=sys.stderr)
    return result.exit
