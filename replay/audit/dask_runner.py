"""The same audit on a Dask distributed cluster (``--dask ADDRESS``, or ``--dask local`` for
a ``LocalCluster`` of worker processes on this machine).

The batches, their order and the rows are those of the local pool (``runner.run`` drives
both); only where a batch runs differs. Paths are sent when the workers share the file
system (``local``, or ``--shared-fs``), else the bytes of each log. Dask retries a batch
whose worker died (``distributed.scheduler.allowed-failures``); a batch that kills its
workers every time ends as ``KilledWorker``, and ``run`` then tries its items one by one: only
the guilty one becomes an internal error.

Dask is an optional extra: ``pip install .[dask]``.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Generator, Iterable
from typing import Any

from ..core.json_input import MAX_BYTES
from .runner import Crashed, Worker, pool_context, quietly
from .work import Row, Task, verify_batch


class DaskBackend:
    """Batches as Dask futures on a cluster's workers."""

    isolate = False  # a dying worker takes only its own task with it

    def __init__(self, address: str, jobs: int, worker: Worker = verify_batch,
                 max_bytes: int = MAX_BYTES) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise SystemExit("--dask needs Dask: pip install 'carcassonne-replay[dask]' "
                             "(or .[dask] in a checkout)") from None
        self.worker = worker
        self.max_bytes = max_bytes
        self.cluster: Any = None
        self.config: Any = None
        if address == "local":
            self.config = local_config()
            self.cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=jobs, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR)
            self.client: Any = Client(self.cluster)  # type: ignore[no-untyped-call]
        else:
            self.client = Client(address)  # type: ignore[no-untyped-call]
        threads = sum(self.client.nthreads().values()) or jobs
        self.slots = 2 * threads

    def submit(self, batch: list[Task]) -> Any:
        return self.client.submit(quietly, self.worker, batch, self.max_bytes, pure=False)

    def wait_any(self, futures: list[Any]) -> list[Any]:
        from dask.distributed import wait

        return list(wait(futures,  # type: ignore[no-untyped-call]
                         return_when="FIRST_COMPLETED").done)

    def result(self, future: Any) -> list[Row]:
        try:
            rows: list[Row] = future.result()
        except Exception as exc:  # KilledWorker: the batch's workers died every time
            raise Crashed(f"{type(exc).__name__}: {exc}") from None
        finally:
            future.release()
        return rows

    def reset(self) -> None:
        pass

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        if self.config is not None:
            self.config.__exit__(None, None, None)
            self.config = None


def local_config() -> Any:
    """Dask's settings for a ``LocalCluster`` (undone by ``close``): its worker processes
    started as the local pool's are (``runner.pool_context``: forked by a fork server), not
    spawned. A spawned worker imports Dask and the verifier from nothing, each on its own;
    forked, they start from a process that imported them once: measured on 2 cores, a
    cluster of 2 workers started in 0.56 s instead of 0.81 and closed in 0.02 s instead of
    0.29 (medians; under load 1.2-1.7 s instead of 2.9, docs/scaling.md)."""
    import dask

    method = pool_context().get_start_method()
    return dask.config.set({"distributed.worker.multiprocessing-method": method})


def in_order_on(address: str, jobs: int, work: Callable[..., Any],
                tasks: Iterable[tuple[Any, ...]]) -> Generator[Any, None, None]:
    """``runner.in_order`` on the Dask cluster at ``address``: ``work(*task)`` of every task
    as a future, two a worker's thread ahead of the reader, the results in the tasks' order."""
    backend = DaskBackend(address, jobs)
    try:
        ahead: deque[Any] = deque()
        for task in tasks:
            ahead.append(backend.client.submit(work, *task, pure=False))
            if len(ahead) >= backend.slots:
                yield backend.result(ahead.popleft())
        while ahead:
            yield backend.result(ahead.popleft())
    finally:
        for future in ahead:
            future.cancel()
        backend.close()
