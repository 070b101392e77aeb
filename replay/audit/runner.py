"""Running an audit's batches on worker processes, with every row coming back exactly once
and in the order of the walk (so that reports are the same however the work was spread).

``run`` drives a ``Backend``: the local process pool here (``concurrent.futures``, workers
reused and warmed once by ``work.warm``), or a Dask cluster (``dask_runner``). Items are sent
in batches of ``batch`` (paths when the workers share the file system, else bytes); rows are
kept by index and released in order; at most ``window`` items are in flight or waiting, so
memory stays flat however many games are read.

Ctrl-C is the main process's alone: the workers ignore it, and the pool is never interrupted
half-way through starting a worker (``LocalPool.submit``), so that the main process shuts it
down and leaves without a worker's traceback.

A worker that dies (killed, out of memory, a crash in C) breaks the batches it was running
(on the local pool: every batch in flight). Their items are tried again one by one, each
alone; an item whose worker dies twice while it runs alone is reported as an internal error.
No item is lost, none is counted twice.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core import plugins
from ..core.family import families
from ..core.json_input import MAX_BYTES
from .sources import Item
from .work import Row, Task, failed_row, verify_batch, warm

Worker = Callable[[list[Task], int], list[Row]]

CRASH_MESSAGE = ("the worker verifying it died every time (killed, out of memory, or a "
                 "crash): not verified")


class Crashed(Exception):
    """A batch's worker died before it answered."""


class Backend(Protocol):
    """Where batches run: a local pool or a cluster."""

    slots: int  # batches worth keeping in flight
    isolate: bool  # a death breaks every batch in flight: retry suspects one at a time

    def submit(self, batch: list[Task]) -> Any: ...

    def wait_any(self, futures: list[Any]) -> list[Any]: ...

    def result(self, future: Any) -> list[Row]: ...

    def reset(self) -> None: ...

    def close(self) -> None: ...


def pool_context() -> Any:
    """Worker processes started by a fork server (no threads of ours copied into them)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def start_worker() -> None:
    """A worker's initializer: Ctrl-C is the main process's to handle (the worker finishes
    its batch and is shut down), a plugin that cannot be loaded too (``plugins.quiet``: the
    main process said it, once), then ``work.warm``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    plugins.quiet()
    warm()


def quietly(worker: Worker, batch: list[Task], max_bytes: int) -> list[Row]:
    """``worker(batch, max_bytes)`` in a process that leaves plugins' failures to the main
    process (a Dask worker, which runs no initializer of ours)."""
    plugins.quiet()
    return worker(batch, max_bytes)


def check_plugins() -> None:
    """Load every game family in the main process before any worker starts: one that cannot
    be loaded is said here, once a run, and never by the workers (``plugins.quiet``)."""
    families()


def in_order(work: Callable[..., Any], tasks: Iterable[tuple[Any, ...]], jobs: int,
             initializer: Callable[[], None] = start_worker,
             dask: str | None = None) -> Generator[Any, None, None]:
    """``work(*task)`` of every task, in the tasks' order, computed by ``jobs`` worker
    processes (1: in this one), or on the Dask cluster at ``dask`` (``local``: a
    LocalCluster of ``jobs`` workers), with at most two tasks a worker ahead of the reader:
    the results do not depend on ``jobs`` nor on where they run. Closing the iterator
    cancels the tasks not started (those under way end first). For work that cannot crash a
    worker (the agents' games); ``run_local`` isolates the tasks that can."""
    if dask is not None:
        from .dask_runner import in_order_on

        yield from in_order_on(dask, jobs, work, tasks)
        return
    if jobs <= 1:
        for task in tasks:
            yield work(*task)
        return
    pool = ProcessPoolExecutor(jobs, mp_context=pool_context(), initializer=initializer)
    try:
        ahead: deque[Future[Any]] = deque()
        for task in tasks:
            with Deferred():  # it may start a worker: not cut half-way by Ctrl-C
                ahead.append(pool.submit(work, *task))
            if len(ahead) >= 2 * jobs:
                yield ahead.popleft().result()
        while ahead:
            yield ahead.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class Deferred:
    """Ctrl-C held back while the block runs (on POSIX), then raised as it ends: starting a
    worker process is not cut half-way (the worker would be left behind, and fail alone)."""

    def __enter__(self) -> None:
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def __exit__(self, *exc: object) -> None:
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class LocalPool:
    """A process pool of ``jobs`` workers (``concurrent.futures``), warmed once per worker."""

    isolate = True

    def __init__(self, jobs: int, worker: Worker = verify_batch,
                 max_bytes: int = MAX_BYTES) -> None:
        self.jobs = jobs
        self.slots = 2 * jobs
        self.worker = worker
        self.max_bytes = max_bytes
        self.pool = self._new()

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.jobs, mp_context=pool_context(),
                                   initializer=start_worker)

    def submit(self, batch: list[Task]) -> Future[list[Row]]:
        with Deferred():  # it may start a worker (and the fork server)
            return self.pool.submit(self.worker, batch, self.max_bytes)

    def wait_any(self, futures: list[Any]) -> list[Any]:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        if any(f.exception() is not None for f in done):  # broken: the rest fail with it
            done, _ = wait(futures)
        return list(done)

    def result(self, future: Any) -> list[Row]:
        try:
            rows: list[Row] = future.result()
        except Exception as exc:  # BrokenProcessPool, or a batch that would not pickle
            raise Crashed(str(exc)) from None
        return rows

    def reset(self) -> None:
        self.close()
        self.pool = self._new()

    def close(self) -> None:
        """Cancel what has not started and wait for the pool's thread and workers to end.
        Not waiting (``wait=False``) left the pool's thread running into the interpreter's
        exit, where ``concurrent.futures`` wakes it through a pipe that thread may be closing
        at that very moment: "Exception ignored in threading._shutdown ... Bad file
        descriptor", once in some tens of runs. The wait costs only the batches running
        (after Ctrl-C; at the end of a run there are none), which the exit waited for too."""
        self.pool.shutdown(wait=True, cancel_futures=True)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests that kill one)."""
        return list(getattr(self.pool, "_processes", {}) or {})


@dataclass
class _Flight:
    batch: list[Task]
    alone: bool


@dataclass
class Stats:
    """What happened on the way (not part of the report)."""

    crashes: int = 0
    retried: int = 0
    lost: list[str] = field(default_factory=list)


def tasks(items: Iterable[Item]) -> Iterator[Task]:
    """Number the walk's items: the tasks the workers are sent."""
    for i, item in enumerate(items):
        yield (i, item.name, item.path, item.data, item.error)


def run(backend: Backend, work: Iterable[Task], done: Mapping[int, Row] | None = None,
        batch: int = 16, batch_bytes: int = 4 << 20, window: int | None = None,
        progress: Callable[[int], None] | None = None,
        stats: Stats | None = None) -> Iterator[Row]:
    """Every task's row, in index order. ``done``: rows from a checkpoint (by index, with the
    same name), given back as they are instead of being verified again."""
    done = done or {}
    stats = stats if stats is not None else Stats()
    window = window or backend.slots * batch * 4
    source = iter(work)
    rows: dict[int, Row] = {}
    next_index = 0
    taken = 0  # tasks read from the source
    exhausted = False
    suspects: deque[Task] = deque()
    strikes: dict[int, int] = {}  # index -> deaths of a worker running it alone
    flights: dict[Any, _Flight] = {}
    tick = progress or (lambda n: None)

    def take() -> list[Task]:
        nonlocal taken, exhausted
        out: list[Task] = []
        size = 0
        while len(out) < batch and size < batch_bytes:
            task = next(source, None)
            if task is None:
                exhausted = True
                break
            taken += 1
            old = done.get(task[0])
            if old is not None and old.get("name") == task[1]:
                rows[task[0]] = old
                tick(1)
                continue
            out.append(task)
            size += len(task[3] or b"")
        return out

    def crashed(flight: _Flight) -> None:
        stats.crashes += 1
        t = flight.batch[0]
        if len(flight.batch) == 1 and flight.alone:
            strikes[t[0]] = strikes.get(t[0], 0) + 1
            # Dask retried it already (allowed-failures); here: the second death alone
            if strikes[t[0]] >= 2 or not backend.isolate:
                stats.lost.append(t[1])
                rows[t[0]] = failed_row(t[0], t[1], "internal", CRASH_MESSAGE)
                tick(1)
                return
        stats.retried += len(flight.batch)
        suspects.extend(flight.batch)

    try:
        while True:
            if suspects:
                if backend.isolate:
                    if not flights:
                        t = suspects.popleft()
                        flights[backend.submit([t])] = _Flight([t], True)
                else:
                    while suspects and len(flights) < backend.slots:
                        t = suspects.popleft()
                        flights[backend.submit([t])] = _Flight([t], True)
            else:
                while (not exhausted and len(flights) < backend.slots
                       and taken - next_index < window):
                    b = take()
                    if b:
                        flights[backend.submit(b)] = _Flight(b, False)
            while next_index in rows:
                yield rows.pop(next_index)
                next_index += 1
            if not flights:
                if exhausted and not suspects:
                    break
                continue
            broken = False
            for future in backend.wait_any(list(flights)):
                flight = flights.pop(future)
                try:
                    result = backend.result(future)
                except Crashed:
                    broken = True
                    crashed(flight)
                    continue
                for row in result:
                    rows[row["index"]] = row
                tick(len(result))
            if broken and backend.isolate:
                backend.reset()
        assert not rows, "rows left over"
    finally:
        backend.close()
