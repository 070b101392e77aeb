"""Fairness: a per-client limit on the heavy requests (uploads and verifications).

``RATE_LIMIT`` is ``"N/S"``: a client (its IP address) may make N heavy requests in each
window of S seconds; the next one gets 429 with ``Retry-After`` (the seconds to the next
window). ``None`` turns the limit off. The counts live in the SQLite file (table
``rate_counts``, one row per client and window), so every server process shares them; one
``INSERT ... ON CONFLICT ... RETURNING`` statement counts and reads at once.
"""

from __future__ import annotations

import math
import sqlite3
import time
from typing import Any

from flask import current_app, request
from werkzeug.exceptions import TooManyRequests

from replay.library.store import storage_fault

from .db import get_db, write

SETTINGS = {"": "RATE_LIMIT", "analysis": "ANALYSIS_RATE_LIMIT",
            "computer": "COMPUTER_RATE_LIMIT"}  # a kind of heavy request -> its setting


REFUSALS = {  # what a client over its limit is told, by kind (the default: errors.MESSAGES)
    "analysis": "Too many positions explored or moves tried from your address: try again "
                "in a minute.",
    "computer": "Too many computer analyses asked for from your address: try again later "
                "(Retry-After says when).",
}


def parse_rate(text: str) -> tuple[int, int]:
    """``"60/60"`` -> (60 requests, 60 seconds); ``ValueError`` saying what is wrong."""
    try:
        count, seconds = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"{text!r} is not N/S (requests per seconds, e.g. 60/60)") from None
    if not (1 <= count <= 1_000_000 and 1 <= seconds <= 86_400):
        raise ValueError(f"{text!r}: N from 1 to 1000000 and S from 1 to 86400")
    return count, seconds


def retry_after(kind: str = "") -> int | None:
    """Count a heavy request of this client; the seconds it must wait when it is over its
    limit, else None. ``kind`` "analysis" counts in a budget of its own
    (``ANALYSIS_RATE_LIMIT``: exploring a game takes a request a move), "computer" too
    (``COMPUTER_RATE_LIMIT``: the computer analyses it asks for)."""
    return take(1, kind)[1]


def take(count: int, kind: str = "") -> tuple[int, int | None]:
    """Count ``count`` heavy requests of this client at once (the files of one upload, each
    counting as a request of its own): how many of them, the first ones, fit in its budget,
    and the seconds to wait for the rest (None when all fit). Those that do not fit are
    counted too, as a refused request always is."""
    setting: Any = current_app.config.get(SETTINGS.get(kind, "ANALYSIS_RATE_LIMIT"))
    if not setting or count <= 0:
        return count, None
    limit, seconds = parse_rate(str(setting))
    now = time.time()
    window = int(now // seconds)
    client = (request.remote_addr or "unknown") + (f" {kind}" if kind else "")
    try:
        db = get_db()  # may itself fail: SQLite cannot open a library on a failing disk
        with write(db):
            n = db.conn.execute(
                "insert into rate_counts (client, window, n) values (?, ?, ?) "
                "on conflict (client, window) do update set n = n + excluded.n returning n",
                [client, window, count]).fetchone()[0]
            if n == count:  # a new window: forget the old ones of everybody
                db.conn.execute("delete from rate_counts where window < ?", [window - 1])
    except (sqlite3.OperationalError, OSError) as exc:
        if storage_fault(exc) is None:
            raise
        return count, None  # a disk that takes no write counts nothing: verifying still works
    fit = max(0, min(count, limit - (n - count)))
    if fit == count:
        return count, None
    return fit, max(1, math.ceil((window + 1) * seconds - now))


def check_rate(kind: str = "") -> None:
    """Count a heavy request (of ``kind``, see ``retry_after``); 429 (with ``Retry-After``)
    when the client is over its limit."""
    wait = retry_after(kind)
    if wait is not None:
        raise TooManyRequests(REFUSALS.get(kind), retry_after=wait)
