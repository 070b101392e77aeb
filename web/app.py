"""The application factory (the Flask tutorial's shape): ``create_app(config)``.

Configuration (defaults in brackets): ``DATABASE`` [games.db] the SQLite file,
``MAX_CONTENT_LENGTH`` [5 MB] the largest request, and so the largest log, accepted (413 above),
``CACHE_SIZE`` [64] games whose replays are kept in memory, and ``CACHE_BYTES`` [40 MB] their
estimated bytes in all (``web.games.weigh``), ``VARIATION_BYTES`` [16 MB] the same of the
variations kept (32 at most) and ``EXPLORED_BYTES`` [8 MB] of the explored positions kept (16 at
most): with them a server process stays under 150 MB, ``PAGE_SIZE`` [50] games per
library page, ``RATE_LIMIT`` ["60/60"] uploads and verifications a client may make per window
of seconds (``None``: no limit; see ``web.limits``), ``UPLOAD_BATCH_FILES`` [50] and
``UPLOAD_BATCH_BYTES`` [20 MB] the files, and bytes in all, of one post of several files to the
upload page (see ``web.uploads``: each file is held to ``MAX_CONTENT_LENGTH`` on its own).

Computer analysis (``web.computer``, ``web.computer_jobs``): ``ANALYSIS_AGENT``
[mcts:200:dets=2] the agent's spec, ``ANALYSIS_WORKERS`` [1] analyses running at once in the
whole library, each in a worker process (0: computer analysis off), ``ANALYSIS_QUEUE`` [16]
analyses queued or running at most (more: 429), ``ANALYSIS_PER_CLIENT`` [2] of them one client's,
``COMPUTER_RATE_LIMIT`` ["20/3600"] analyses a client may ask for per window.

``ALLOWED_HOSTS`` [none] the names the app answers to besides localhost and IP addresses (its
``Host`` header; others get 421, see ``web.guard``).

Every response says what it cost in its ``Server-Timing`` header (``cpu;dur=`` the CPU
milliseconds of the thread that served it), which the drill (``tools/drill.py``) reads.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask, Response, abort, g, request

from replay.agents.analysis import DEFAULT_AGENT
from replay.core.json_input import MAX_BYTES

from . import analysis, api, computer, computer_jobs, db, errors, stats, uploads, views
from .games import Cache
from .guard import check_host, check_origin

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
       "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app, ``config`` overriding the defaults (see the module docstring); its database
    migrated and its pages, API and error handlers registered."""
    app = Flask(__name__)
    app.config.from_mapping(
        DATABASE="games.db",
        MAX_CONTENT_LENGTH=MAX_BYTES,
        MAX_FORM_MEMORY_SIZE=MAX_BYTES,  # a log pasted into the upload form
        CACHE_SIZE=64,
        CACHE_BYTES=40 * 2**20,
        VARIATION_BYTES=16 * 2**20,
        EXPLORED_BYTES=8 * 2**20,
        PAGE_SIZE=50,
        RATE_LIMIT="60/60",
        ANALYSIS_RATE_LIMIT="600/60",
        COMPUTER_RATE_LIMIT="20/3600",
        ANALYSIS_AGENT=DEFAULT_AGENT,
        ANALYSIS_WORKERS=1,
        ANALYSIS_QUEUE=16,
        ANALYSIS_PER_CLIENT=2,
        UPLOAD_BATCH_FILES=uploads.BATCH_FILES,
        UPLOAD_BATCH_BYTES=uploads.BATCH_BYTES,
    )
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    db.init_app(app)
    computer_jobs.resume(app.config["DATABASE"], app.extensions,
                         int(app.config["ANALYSIS_WORKERS"] or 0))
    budget = app.config["CACHE_BYTES"]
    app.extensions["replay_cache"] = Cache(int(app.config["CACHE_SIZE"]),
                                           None if budget is None else int(budget))
    app.register_blueprint(views.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(analysis.bp)
    app.register_blueprint(computer.bp)
    app.register_blueprint(stats.bp)
    errors.register(app)
    app.before_request(_start)
    app.before_request(check_host)  # a Host not ours (DNS rebinding): 421 (web.guard)
    app.before_request(check_origin)  # cross-site posts: 415 / 403 (web.guard)
    app.after_request(_headers)
    app.wsgi_app = _BufferUnsized(app.wsgi_app, int(app.config["MAX_CONTENT_LENGTH"]),  # type: ignore[method-assign]
                                  int(app.config["UPLOAD_BATCH_BYTES"]))
    return app


TOO_LARGE = "replay.body_too_large"


class _BufferUnsized:
    """A body sent without a length (chunked) is read here up to the limit, so that it is
    refused (413) like any other body over the limit, never cut short and stored: Werkzeug
    would stop reading at the limit and say nothing. The upload page's posts may hold several
    logs: ``batch`` bytes."""

    def __init__(self, app: Any, limit: int, batch: int = 0) -> None:
        self.app = app
        self.limit = limit
        self.batch = max(limit, batch)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if not environ.get("CONTENT_LENGTH") and environ.get("wsgi.input_terminated"):
            stream = environ["wsgi.input"]
            chunks: list[bytes] = []
            size = 0
            limit = self.batch if environ.get("PATH_INFO") == uploads.UPLOAD_PATH else self.limit
            while size <= limit:
                chunk = stream.read(min(65536, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            body = b"".join(chunks)
            if size > limit:
                environ[TOO_LARGE] = True
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("wsgi.input_terminated")
        result: Iterable[bytes] = self.app(environ, start_response)
        return result


def _start() -> None:
    g.cpu_start = time.thread_time()
    if request.environ.get(TOO_LARGE):
        abort(413)


def _headers(response: Response) -> Response:
    if "cpu_start" in g:
        cpu_ms = (time.thread_time() - g.cpu_start) * 1000
        response.headers["Server-Timing"] = f"cpu;dur={cpu_ms:.1f}"
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response
