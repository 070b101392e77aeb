"""The library's SQLite file as the web app uses it: migrated at start-up, one connection per
request (opened on first use, closed when the request ends), as in the Flask tutorial.

The storage itself (tables, migrations, rows, search) is the library's:
``replay.library.store``, which ``ingest`` uses too.
"""

from __future__ import annotations

from flask import Flask, current_app, g
from sqlite_utils import Database

from replay.library.store import (
    BUSY_TIMEOUT,
    SORTS,
    VERDICTS,
    GameRow,
    connect,
    connect_for_reading,
    find,
    insert,
    migrate,
    migrations,
    search,
    write,
)

__all__ = ["BUSY_TIMEOUT", "SORTS", "VERDICTS", "GameRow", "close_db", "connect", "find",
           "get_db", "init_app", "insert", "migrate", "migrations", "search", "write"]


def init_app(app: Flask) -> None:
    """Apply pending migrations once (their notes, such as how many games stored twice were
    merged, go to the app's log), then give each request its own connection."""
    for note in migrate(app.config["DATABASE"]):
        app.logger.info("library %s: %s", app.config["DATABASE"], note)
    app.teardown_appcontext(close_db)


def get_db() -> Database:
    """This request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect_for_reading(current_app.config["DATABASE"], connect)
    db: Database = g.db
    return db


def close_db(exc: BaseException | None = None) -> None:
    """Close this request's connection, if it has one (at the end of the request)."""
    db = g.pop("db", None)
    if db is not None:
        db.close()
