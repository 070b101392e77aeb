"""The audit's start on Dask (issue 35, item 16): a ``LocalCluster``'s workers are forked by
the fork server, as the local pool's are, instead of spawned (their start and close cost most
of Dask's fixed cost on one machine), and the corpus is counted for the progress bar while the
workers start, not before."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from replay.audit import command
from replay.audit.work import Row


def test_a_local_clusters_workers_are_forked_by_the_fork_server() -> None:
    pytest.importorskip("dask.distributed")
    import dask

    from replay.audit.dask_runner import DaskBackend
    from replay.audit.runner import pool_context

    key = "distributed.worker.multiprocessing-method"
    before = dask.config.get(key)
    method = pool_context().get_start_method()
    backend = DaskBackend("local", 1)
    try:
        assert dask.config.get(key) == method
        parents = backend.client.run(os.getppid)
        assert len(parents) == 1
        if method == "forkserver":  # a spawned worker's parent is this process (its nanny)
            assert os.getpid() not in parents.values()
        assert backend.client.submit(sum, [1, 2]).result() == 3
    finally:
        backend.close()
    assert dask.config.get(key) == before  # the setting was the cluster's alone


def test_the_corpus_is_counted_while_the_workers_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count (a walk of the corpus, for the bar's total) runs while ``rows`` starts the
    workers: it waits here until they are being started, which a count made before them
    never sees."""
    started = threading.Event()
    seen: dict[str, Any] = {}

    def count(sources: Any, limits: Any) -> int:
        seen["overlap"] = started.wait(5)
        return 7

    def rows(sources: Any, **kw: Any) -> Iterator[Row]:
        started.set()  # a Dask cluster starts here
        return iter([])

    totals: list[int | None] = []
    monkeypatch.setattr(command, "count", count)
    monkeypatch.setattr(command, "rows", rows)
    monkeypatch.setattr(command.Progress, "total", lambda self, n: totals.append(n),
                        raising=False)
    with command.working(["corpus"], show=True) as stream:
        assert list(stream) == []
    assert seen == {"overlap": True}
    assert totals == [7]  # the bar gets its total before the first row


def test_a_bar_without_a_terminal_counts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def count(sources: Any, limits: Any) -> int:
        raise AssertionError("counted without a bar")

    monkeypatch.setattr(command, "count", count)
    monkeypatch.setattr(command, "rows", lambda sources, **kw: iter([]))
    with command.working(["corpus"], show=False) as stream:
        assert list(stream) == []
