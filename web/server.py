"""The production server: waitress, in one or more processes sharing one listening socket.

Why waitress: it reads every request whole (headers and body, chunked or not) on its own event
loop before a thread of the application sees it, so a slow or silent client holds a socket,
never one of the few application threads; it enforces a body limit for every framing, closes
connections idle for ``channel_timeout`` seconds and caps open connections (``web.connections``
bounds what waitress left open: clients that never read, one client's share, the close after a
body cut short). Gunicorn's threads read the request themselves, and its documentation asks
for a buffering proxy in front for that reason; we want ``./run`` safe on its own. Waitress is
pure Python with no dependencies.

Waitress serves from one process, and the engine's work is CPU-bound Python (one core per
process), so ``serve`` forks ``processes`` children that accept on one socket (the kernel hands
each connection to one of them); the parent applies the database migrations first, restarts a
child that dies, and stops them all on SIGINT or SIGTERM. A child ends when its parent dies,
even by SIGKILL (``PR_SET_PDEATHSIG`` on Linux, else a thread watching the parent's pid), so
that no orphan keeps the port. A start-up failure (the port in use, the library unreadable or
its disk full) is a message naming its cause and the port or file, and exit status 2.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import logging
import os
import signal
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_PROCESSES = min(2, os.cpu_count() or 1)  # this machine has 2 cores


@dataclass(frozen=True)
class Settings:
    """How the server runs (the defaults suit a 2-core machine)."""

    host: str = "127.0.0.1"
    port: int = 5000
    processes: int = DEFAULT_PROCESSES
    threads: int = 4  # requests handled at once per process; more wait, already read
    connection_limit: int = 200  # open connections per process
    channel_timeout: int = 30  # seconds a connection may make no progress (slow clients)
    # one client's share of a process (web.connections): connections (0: no cap), and bytes of
    # unsent answers past which its further requests wait or are answered 429 (0: no bound)
    client_connections: int = 32
    client_queued: int = 8 * 1024 * 1024
    # after the answer to a body cut at max_body, what the client still sends is read and
    # dropped (so that it reads the answer) for at most this long and this much
    linger_seconds: float = 30.0
    linger_bytes: int = 128 * 1024 * 1024
    # a body over the app's limit is read (and dropped) up to this many bytes, so that the
    # client reads the app's 413; past it the connection is closed after the answer
    max_body: int = 32 * 1024 * 1024


def run_child(sock: socket.socket, config: Mapping[str, Any], settings: Settings) -> None:
    """Serve the app on ``sock`` in this process until it is stopped."""
    from replay.core.json_input import MAX_BYTES

    from .app import create_app
    from .bodies import install
    from .connections import make_server

    # requests waiting for a thread are the design (threads cap the work at once), not news:
    # waitress would log a warning for each one
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    app = create_app(config)
    bodies = install(int(app.config.get("MAX_CONTENT_LENGTH") or MAX_BYTES), settings.max_body,
                     int(app.config.get("UPLOAD_BATCH_BYTES") or 0))
    make_server(app, sock, settings, threads=settings.threads,
                connection_limit=settings.connection_limit,
                channel_timeout=settings.channel_timeout, ident="carcassonne-replay",
                expose_tracebacks=False, **bodies).run()


def open_library(path: str) -> str | None:
    """Migrate the library at ``path`` (saying what the migrations did: how many games stored
    twice were merged); None when it is ready, else what is wrong with it (a message naming the
    file and the cause)."""
    from replay.library.store import migrate, storage_fault

    try:
        for note in migrate(path):
            print(f"serve: library {os.path.abspath(path)}: {note}", flush=True)
    except (sqlite3.Error, OSError) as exc:
        why = storage_fault(exc)
        cause = f"its disk is {'full' if why == 'disk full' else why}" if why else str(exc)
        return f"serve: cannot open the library {os.path.abspath(path)}: {cause}"
    return None


def listen(host: str, port: int) -> socket.socket | str:
    """The listening socket, or what is wrong (a message naming the port)."""
    try:
        return socket.create_server((host, port), backlog=1024)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return (f"serve: port {port} is in use (another server listens on {host}:{port}); "
                    "stop it or choose another port with --port")
        return f"serve: cannot listen on {host}:{port}: {exc.strerror or exc}"


def serve(config: Mapping[str, Any], settings: Settings) -> int:
    """Listen on ``settings.host:port`` and serve until SIGINT/SIGTERM; 0 on a clean stop, 2
    when it cannot start (the message says why)."""
    problem = open_library(str(config.get("DATABASE", "games.db")))
    sock = listen(settings.host, settings.port) if problem is None else problem
    if isinstance(sock, str):
        print(sock, file=sys.stderr, flush=True)
        return 2
    host, port = sock.getsockname()[:2]
    print(f"serving http://{host}:{port}/ with {settings.processes} process"
          f"{'es' * (settings.processes != 1)} of {settings.threads} threads "
          f"(games in {os.path.abspath(str(config.get('DATABASE', 'games.db')))})",
          file=sys.stderr, flush=True)
    if settings.processes <= 1:
        with contextlib.suppress(KeyboardInterrupt):
            run_child(sock, config, settings)
        return 0
    return _supervise(sock, config, settings)


def _supervise(sock: socket.socket, config: Mapping[str, Any], settings: Settings) -> int:
    children: set[int] = set()
    stopping = False
    parent = os.getpid()

    def start() -> None:
        pid = os.fork()
        if pid == 0:  # the child: default signals, serve, never return into the parent's code
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            end_with_parent(parent)
            code = 0
            try:
                run_child(sock, config, settings)
            except BaseException:  # noqa: BLE001 - a child must end here whatever happens
                code = 1
            os._exit(code)
        children.add(pid)

    def stop(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    for _ in range(settings.processes):
        start()
    restarts: list[float] = []
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        children.discard(pid)
        if stopping:
            continue
        now = time.monotonic()
        restarts = [t for t in restarts if now - t < 60] + [now]
        if len(restarts) > 10:
            print("server: the worker processes keep dying; stopping", file=sys.stderr)
            stop(signal.SIGTERM, None)
            continue
        print(f"server: worker {pid} ended ({status}); starting another", file=sys.stderr)
        start()
    sock.close()
    return 0


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def end_with_parent(parent: int) -> None:
    """Make this (forked) process end when ``parent`` dies, however it dies: the kernel sends
    SIGTERM (``prctl(PR_SET_PDEATHSIG)``) on Linux; elsewhere a thread polls the parent's pid
    every second."""
    armed = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os.kill(os.getpid(), signal.SIGTERM)

        threading.Thread(target=watch, name="parent-watch", daemon=True).start()
