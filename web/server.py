"""The production server: waitress, in one or more processes sharing one listening socket.

Why waitress: it reads every request whole (headers and body, chunked or not) on its own event
loop before a thread of the application sees it, so a slow or silent client holds a socket,
never one of the few application threads; it enforces a body limit for every framing, closes
connections idle for ``channel_timeout`` seconds and caps open connections. Gunicorn's threads
read the request themselves, and its documentation asks for a buffering proxy in front for
that reason; we want ``./run`` safe on its own. Waitress is pure Python with no dependencies.

Waitress serves from one process, and the engine's work is CPU-bound Python (one core per
process), so ``serve`` forks ``processes`` children that accept on one socket (the kernel hands
each connection to one of them); the parent applies the database migrations first, restarts a
child that dies, and stops them all on SIGINT or SIGTERM.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
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
    channel_timeout: int = 30  # seconds a connection may stay silent (slow clients)
    max_body: int = 6 * 1024 * 1024  # waitress's own cap; the app answers 413 above its limit


def run_child(sock: socket.socket, config: Mapping[str, Any], settings: Settings) -> None:
    """Serve the app on ``sock`` in this process until it is stopped."""
    import waitress

    from .app import create_app

    # requests waiting for a thread are the design (threads cap the work at once), not news:
    # waitress would log a warning for each one
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    app = create_app(config)
    waitress.serve(app, sockets=[sock], threads=settings.threads,
                   connection_limit=settings.connection_limit,
                   channel_timeout=settings.channel_timeout,
                   max_request_body_size=settings.max_body, ident="carcassonne-replay",
                   expose_tracebacks=False, _quiet=True)


def serve(config: Mapping[str, Any], settings: Settings) -> int:
    """Listen on ``settings.host:port`` and serve until SIGINT/SIGTERM; 0 on a clean stop."""
    from .db import migrate

    migrate(str(config.get("DATABASE", "games.db")))
    sock = socket.create_server((settings.host, settings.port), backlog=1024)
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

    def start() -> None:
        pid = os.fork()
        if pid == 0:  # the child: default signals, serve, never return into the parent's code
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
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
