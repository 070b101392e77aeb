"""The application factory (the Flask tutorial's shape): ``create_app(config)``.

Configuration (defaults in brackets): ``DATABASE`` [games.db] the SQLite file,
``MAX_CONTENT_LENGTH`` [5 MB] the largest request, and so the largest log, accepted (413 above),
``CACHE_SIZE`` [64] games whose replays are kept in memory, ``PAGE_SIZE`` [50] games per
library page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response

from replay.core.record import MAX_BYTES

from . import api, db, errors, views
from .games import Cache

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
        PAGE_SIZE=50,
    )
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    db.init_app(app)
    app.extensions["replay_cache"] = Cache(int(app.config["CACHE_SIZE"]))
    app.register_blueprint(views.bp)
    app.register_blueprint(api.bp)
    errors.register(app)
    app.after_request(_headers)
    return app


def _headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response
