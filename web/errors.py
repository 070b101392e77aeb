"""Error responses: JSON under /api, an HTML page elsewhere, never a traceback."""

from __future__ import annotations

from flask import Flask, current_app, g, jsonify, render_template, request
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, MethodNotAllowed, TooManyRequests

from replay.library.store import storage_fault

from .uploads import UPLOAD_PATH, batch_bytes

MESSAGES = {
    404: "There is nothing here: no such game, or no such move in it.",
    405: "This address does not take that method.",
    429: "Too many uploads or verifications from your address: try again later.",
    500: "Something went wrong on our side (a bug of this service, not a verdict on any "
         "game). The error was logged.",
}

STORAGE_RETRY = 60  # seconds a client is asked to wait when the library's disk refuses writes


def storage_unavailable(why: str) -> ResponseReturnValue:
    """503 with ``Retry-After``: the library cannot store games now (``why``: "read-only" or
    "disk full": reading and verifying still work), or cannot be opened at all
    ("unavailable": verifying still works)."""
    if why == "unavailable":
        message = ("The library cannot store games right now: SQLite cannot write to its "
                   "disk (full, read-only or failing). Stored games can still be read and "
                   "logs verified; try storing again later.")
    else:
        message = (f"The library cannot store games right now: its disk is "
                   f"{'full' if why == 'disk full' else why}. Stored games can still be read "
                   "and logs verified; try storing again later.")
    response = respond(503, "Service Unavailable", message, storage=why)
    response.headers["Retry-After"] = str(STORAGE_RETRY)  # type: ignore[union-attr]
    return response


def wants_json() -> bool:
    """Whether an error is answered in JSON: under /api, or when the client prefers JSON."""
    return request.path.startswith("/api/") or (
        request.accept_mimetypes.best == "application/json")


def respond(code: int, title: str, message: str, **extra: object) -> ResponseReturnValue:
    """An error response: JSON (with ``extra`` fields) or the HTML error page."""
    if wants_json():
        response = jsonify(error={"code": code, "title": title, "message": message, **extra})
    elif request_ctx.url_adapter is None:
        # the request's Host could not make a URL (4,000 characters, a bad IDNA label): the
        # page's links cannot be written, so the answer is plain text
        response = current_app.response_class(f"{code} {title}: {message}\n", code,
                                              mimetype="text/plain")
    else:
        response = current_app.response_class(
            render_template("error.html", code=code, title=title, message=message), code)
    response.status_code = code
    return response


def register(app: Flask) -> None:
    """Answer HTTP errors (413 with the size limit) and unhandled exceptions (logged, 500)
    through ``respond``."""
    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> ResponseReturnValue:
        code = exc.code or 500
        title = exc.name
        if code == 413:
            limit = current_app.config["MAX_CONTENT_LENGTH"]
            message = (f"The log is too large: the limit is {limit} bytes "
                       f"({limit / 1024 / 1024:g} MB).")
            if request.path == UPLOAD_PATH and request.method == "POST":
                limit = batch_bytes()
                one = current_app.config["MAX_CONTENT_LENGTH"]
                message = (f"This upload is too large: a log, pasted or in a file, takes at most "
                           f"{one} bytes ({one / 1024 / 1024:g} MB), and one upload of several "
                           f"files at most {limit} bytes ({limit / 1024 / 1024:g} MB) in all. "
                           f"Send fewer files at once.")
            return respond(code, title, message, limit=limit)
        told = exc.description if exc.description != type(exc).description else None
        response = respond(code, title, told if code == 429 and told else
                           MESSAGES.get(code) or str(exc.description or title))
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            response.headers["Allow"] = ", ".join(exc.valid_methods)  # type: ignore[union-attr]
        if isinstance(exc, TooManyRequests) and exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)  # type: ignore[union-attr]
        return response

    @app.errorhandler(Exception)
    def internal_error(exc: Exception) -> ResponseReturnValue:
        why = storage_fault(exc)
        if why is not None and getattr(g.get("db"), "degraded", False):
            why = "unavailable"  # the library was opened immutable: the disk took no WAL
        if why is not None:  # the disk, not a bug: logged in one line, no traceback
            current_app.logger.warning("cannot store on %s %s: %s (%s)", request.method,
                                       request.path, why, exc)
            return storage_unavailable(why)
        current_app.logger.exception("unhandled error on %s %s", request.method, request.path)
        return respond(500, "Internal Server Error", MESSAGES[500])
