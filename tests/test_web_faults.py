"""Faults and hostile requests the web app must answer well (issue 29): a library whose disk
takes no write (503 with Retry-After, reads and verification go on), cross-site posts (415 /
403), bodies over the limit (the app's own 413)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlite_utils import Database

from replay.generate import dumps, generate_log
from replay.library import store
from web import db as web_db

LOG = dumps(generate_log("base", 2, 3)).encode()
OTHER = dumps(generate_log("base", 2, 4)).encode()
JSON = {"Content-Type": "application/json"}


def failing_disk(why: str) -> Callable[[str], Database]:
    """A ``connect`` whose connections read but cannot write: SQLite's own read-only answer
    (``query_only``) or its "database or disk is full" (no page may be added)."""
    def connect(path: str) -> Database:
        db = store.connect(path)
        if why == "read-only":
            db.conn.execute("PRAGMA query_only = 1")
        else:
            pages = db.conn.execute("PRAGMA page_count").fetchone()[0]
            db.conn.execute(f"PRAGMA max_page_count = {pages}")
        return db
    return connect


@pytest.mark.parametrize("why", ["read-only", "disk full"])
def test_a_disk_that_takes_no_write_answers_503_and_still_reads(
        app: Flask, monkeypatch: pytest.MonkeyPatch, why: str) -> None:
    client = app.test_client()
    stored = client.post("/api/games", data=LOG, headers=JSON).get_json()["id"]
    monkeypatch.setattr(web_db, "connect", failing_disk(why))
    refused = client.post("/api/games", data=OTHER, headers=JSON)
    assert refused.status_code == 503, refused.get_data(as_text=True)
    assert refused.headers["Retry-After"] == "60"
    error: dict[str, Any] = refused.get_json()["error"]
    assert error["storage"] == why and "cannot store games right now" in error["message"]
    page = client.post("/upload", data={"log": OTHER.decode()})
    assert page.status_code == 503 and "cannot store games" in page.get_data(as_text=True)
    assert client.get(f"/api/games/{stored}").status_code == 200
    assert client.get("/api/games").get_json()["total"] == 1
    assert client.post("/api/verify", data=OTHER, headers=JSON).get_json()["valid"]
    monkeypatch.undo()  # space is back: storing works again
    assert client.post("/api/games", data=OTHER, headers=JSON).status_code == 201


def test_storage_faults_are_told_from_bugs() -> None:
    assert store.storage_fault(sqlite3.OperationalError("database or disk is full")) == \
        "disk full"
    assert store.storage_fault(OSError(30, "Read-only file system")) == "read-only"
    assert store.storage_fault(sqlite3.OperationalError("no such table: x")) is None
    assert store.storage_fault(ValueError("x")) is None
