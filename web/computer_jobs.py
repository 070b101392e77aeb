"""The computer analyses the web app runs: a queue in the library's SQLite file, and a bounded
pool of worker processes that work through it in the background.

A visitor asks for the analysis of a stored game (``ask``); the request only writes a row of
the ``analyses`` table (status ``queued``) and wakes this process's dispatchers, so no
request thread ever searches. A dispatcher (a thread, ``ANALYSIS_WORKERS`` of them in each
server process, started on demand and ended when nothing is queued) claims the oldest queued
row, at most ``ANALYSIS_WORKERS`` rows running at once in the whole library, whatever the
number of server processes (the count and the claim are one write transaction), and runs it
in a child process (``run``: started by a fork server, as ``audit``'s workers, at a lower
priority, ``NICE``),
so that the search never holds a server process's interpreter and the viewer's pages go first
on a busy machine. The child writes its progress after each position; a cancel (``cancel``)
turns the row to ``cancelled``, which the child sees at its next write and stops. The result
is kept in the row with the agent's spec and the engine that made it.

Bounds (``app`` settings): ``ANALYSIS_QUEUE`` rows queued or running in all (a full queue is
answered 429), ``ANALYSIS_PER_CLIENT`` of them for one client (its IP address), and
``COMPUTER_RATE_LIMIT`` analyses a client may ask for per window (``web.limits``). A row whose
worker stopped writing for ``STALE`` seconds (its server process killed) is failed, so it never
blocks the queue.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from replay.audit.runner import pool_context
from replay.library.store import connect, write

STATUSES = ("queued", "running", "done", "failed", "cancelled")
WAITING = ("queued", "running")
NICE = 10  # the worker's priority below the server's (os.nice)
STALE = 60.0  # seconds without a word from a running worker before its row is failed
BEAT = 5.0  # seconds between a dispatcher's signs of life for the child it waits on
POLL = 0.5  # seconds between a dispatcher's looks at the queue while rows wait


@dataclass(frozen=True)
class Job:
    """A row of ``analyses`` as the pages and the API read it."""

    game_id: str
    agent: str
    status: str
    done: int
    total: int
    created: float
    started: float | None
    finished: float | None
    engine: str | None
    message: str | None
    result: dict[str, Any] | None

    @classmethod
    def from_row(cls, row: dict[str, Any], with_result: bool = True) -> Job:
        raw = row.get("result") if with_result else None
        return cls(row["game_id"], row["agent"], row["status"], row["done"] or 0,
                   row["total"] or 0, row["created"], row["started"], row["finished"],
                   row["engine"], row["message"], json.loads(raw) if raw else None)

    @property
    def waiting(self) -> bool:
        """Whether it is still to finish (queued or running)."""
        return self.status in WAITING

    def to_json(self) -> dict[str, Any]:
        """The job as the API gives it: status, progress, settings, and the result when done."""
        out: dict[str, Any] = {
            "game": self.game_id, "agent": self.agent, "status": self.status,
            "done": self.done, "total": self.total, "engine": self.engine,
            "message": self.message}
        if self.result is not None:
            out["positions"] = self.result.get("positions", [])
            out["illegal"] = self.result.get("illegal")
            out["summary"] = self.result.get("summary", [])
        return out


class Refused(Exception):
    """An analysis that cannot be queued now: the queue or the client's share is full."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


def find(db: Database, game_id: str, agent: str, with_result: bool = True) -> Job | None:
    """The analysis of ``game_id`` by ``agent``, or None."""
    rows = list(db.query("select * from analyses where game_id = ? and agent = ?",
                         [game_id, agent]))
    return Job.from_row(rows[0], with_result) if rows else None


def ask(db: Database, game_id: str, agent: str, client: str, queue: int,
        per_client: int) -> tuple[Job, bool]:
    """Queue the analysis of ``game_id`` by ``agent`` for ``client``: (its row, whether it
    was queued now). An analysis queued, running or done is given as it is; a failed or
    cancelled one is queued again. ``Refused`` when ``queue`` rows wait in all or
    ``per_client`` of them are the client's."""
    with write(db):
        found = find(db, game_id, agent)
        if found is not None and found.status in ("queued", "running", "done"):
            return found, False
        waiting = db.conn.execute(
            "select count(*), sum(client = ?) from analyses where status in (?, ?)",
            [client, *WAITING]).fetchone()
        if waiting[0] >= queue:
            raise Refused(f"The computer is busy: {waiting[0]} analyses are waiting, the most "
                          "it keeps. Ask again in a minute.", 60)
        if (waiting[1] or 0) >= per_client:
            raise Refused(f"You already have {waiting[1]} analyses waiting, the most one "
                          "visitor may have: ask again when one is done.", 30)
        db.conn.execute(
            "insert or replace into analyses (game_id, agent, status, done, total, client, "
            "created) values (?, ?, 'queued', 0, 0, ?, ?)",
            [game_id, agent, client, time.time()])
    job = find(db, game_id, agent)
    assert job is not None
    return job, True


def cancel(db: Database, game_id: str, agent: str) -> Job | None:
    """Stop the analysis of ``game_id`` by ``agent`` if it waits (its worker stops at its next
    position); the row as it is then, or None when there is none."""
    with write(db):
        db.conn.execute(
            "update analyses set status = 'cancelled', finished = ?, message = ? "
            "where game_id = ? and agent = ? and status in (?, ?)",
            [time.time(), "cancelled by a visitor", game_id, agent, *WAITING])
    return find(db, game_id, agent)


def claim(db: Database, workers: int) -> tuple[str, str] | None:
    """Fail the running rows whose worker fell silent (``STALE``), then, when fewer than
    ``workers`` rows run, mark the oldest queued one running: its (game, agent), or None."""
    now = time.time()
    with write(db):
        db.conn.execute(
            "update analyses set status = 'failed', finished = ?, message = ? "
            "where status = 'running' and heartbeat < ?",
            [now, "the worker stopped before it finished (the server restarted?): ask again",
             now - STALE])
        running = db.conn.execute(
            "select count(*) from analyses where status = 'running'").fetchone()[0]
        if running >= workers:
            return None
        row = db.conn.execute(
            "select game_id, agent from analyses where status = 'queued' "
            "order by created limit 1").fetchone()
        if row is None:
            return None
        db.conn.execute(
            "update analyses set status = 'running', started = ?, heartbeat = ? "
            "where game_id = ? and agent = ?", [now, now, row[0], row[1]])
    return row[0], row[1]


def resume(path: str, extensions: dict[str, Any], workers: int) -> None:
    """At a server process's start: when rows wait in the library at ``path`` (queued by a
    process that stopped), start this process's dispatchers (its ``Pool``, kept in the app's
    ``extensions``) so that they are worked through."""
    if workers < 1:
        return
    try:
        db = connect(path)
        try:
            waiting = waiting_rows(db)
        finally:
            db.close()
    except sqlite3.Error:  # a library that cannot be read: the pages say so, not the start
        return
    if waiting:
        pool = extensions.setdefault("computer_pool", Pool(path, workers))
        pool.wake()


def waiting_rows(db: Database) -> int:
    """How many rows are queued or running."""
    return int(db.conn.execute("select count(*) from analyses where status in (?, ?)",
                               list(WAITING)).fetchone()[0])


# -- the worker process ------------------------------------------------------------------

class Stopped(Exception):
    """The row is no longer this worker's to write (cancelled, or failed as stale)."""


def run(path: str, game_id: str, agent: str, nice: int = NICE) -> None:
    """A worker process's whole life: analyse the game of the row and write the result, or
    why it failed, unless the row was cancelled meanwhile (``nice``: its priority below the
    server's; 0 to run it in a process that must keep its own). Never raises."""
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    parent = os.getppid()
    db = connect(path)
    try:
        _analyse(db, game_id, agent, parent)
    except Stopped:
        pass
    except Exception as exc:  # a bug of ours: said in the row, the server goes on
        from replay.core.verify import internal_message

        _finish(db, game_id, agent, "failed", internal_message(exc), None)
    finally:
        db.close()


def _analyse(db: Database, game_id: str, agent: str, parent: int) -> None:
    from replay.agents.analysis import analyse_record, players_summary, searching_agent
    from replay.cli_help import version
    from replay.core.errors import IllegalMove, LogFormatError
    from replay.core.record import read_game
    from replay.library.store import find as find_game

    row = find_game(db, game_id)
    if row is None:
        _finish(db, game_id, agent, "failed", "the game is no longer in the library", None)
        return
    try:
        record = read_game(row.log.encode())
    except (LogFormatError, IllegalMove) as exc:
        _finish(db, game_id, agent, "failed", f"this game cannot be replayed: {exc}", None)
        return

    def progress(done: int, total: int) -> None:
        if os.getppid() != parent:  # the server that started us is gone
            raise Stopped
        with write(db):
            changed = db.conn.execute(
                "update analyses set done = ?, total = ?, heartbeat = ? where game_id = ? "
                "and agent = ? and status = 'running'",
                [done, total, time.time(), game_id, agent]).rowcount
        if not changed:
            raise Stopped

    progress(0, len(record.moves))
    found = analyse_record(record, searching_agent(agent), progress)
    names = [p.name for p in record.players]
    result = {**found, "summary": players_summary(names, found["positions"])}
    _finish(db, game_id, agent, "done", None, result, f"carcassonne-replay {version()}")


def _finish(db: Database, game_id: str, agent: str, status: str, message: str | None,
            result: dict[str, Any] | None, engine: str | None = None) -> None:
    with write(db):
        db.conn.execute(
            "update analyses set status = ?, message = ?, result = ?, engine = ?, "
            "finished = ?, heartbeat = ? where game_id = ? and agent = ? and status = 'running'",
            [status, message, None if result is None else json.dumps(result, ensure_ascii=False),
             engine, time.time(), time.time(), game_id, agent])


# -- the dispatchers of a server process ---------------------------------------------------

class Pool:
    """This process's dispatchers of the library at ``path``: at most ``workers`` threads,
    each running one worker process at a time (see the module)."""

    def __init__(self, path: str, workers: int) -> None:
        self.path = path
        self.workers = workers
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._context = pool_context()

    def wake(self) -> None:
        """Start the dispatchers that are not running (they end when nothing waits)."""
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            while len(self._threads) < self.workers:
                t = threading.Thread(target=self._dispatch, name="computer-analysis",
                                     daemon=True)
                t.start()
                self._threads.append(t)

    def busy(self) -> bool:
        """Whether a dispatcher of this process is alive."""
        with self._lock:
            return any(t.is_alive() for t in self._threads)

    def _dispatch(self) -> None:
        db = connect(self.path)
        try:
            while True:
                job = claim(db, self.workers)
                if job is None:
                    if not waiting_rows(db):
                        return
                    time.sleep(POLL)
                    continue
                self._work(db, *job)
        except Exception:  # the disk failed, say: the rows left go stale, the next wake retries
            return
        finally:
            db.close()

    def _work(self, db: Database, game_id: str, agent: str) -> None:
        child = self._context.Process(target=run, args=(self.path, game_id, agent),
                                      name=f"analysis {game_id}", daemon=True)
        child.start()
        with write(db):
            db.conn.execute("update analyses set worker = ? where game_id = ? and agent = ?",
                            [child.pid, game_id, agent])
        while True:
            child.join(BEAT)
            if not child.is_alive():
                break
            with write(db):  # a sign of life while the child searches a long position
                db.conn.execute(
                    "update analyses set heartbeat = ? where game_id = ? and agent = ? "
                    "and status = 'running'", [time.time(), game_id, agent])
            job = find(db, game_id, agent, with_result=False)
            if job is None or job.status != "running":  # cancelled: it stops at its next write
                child.join(BEAT)
                if child.is_alive():
                    child.terminate()
                    child.join()
                break
        _finish(db, game_id, agent, "failed",  # (only if the child left it running: a crash)
                f"the analysis stopped unexpectedly (exit code {child.exitcode})", None)
