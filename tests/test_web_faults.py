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


@pytest.mark.parametrize("text", ["disk I/O error", "unable to open database file"])
def test_a_library_sqlite_cannot_open_answers_503_and_verify_goes_on(
        app: Flask, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """A real full or read-only disk: SQLite cannot make the WAL's files, and even a read
    fails (tools/drill.py --storage). Not a bug: 503 with Retry-After, verification goes on."""
    client = app.test_client()

    def unopenable(path: str) -> Database:
        raise sqlite3.OperationalError(text)

    monkeypatch.setattr(web_db, "connect", unopenable)
    for answer in (client.get("/api/games"), client.post("/api/games", data=LOG, headers=JSON)):
        assert answer.status_code == 503, answer.get_data(as_text=True)
        assert answer.headers["Retry-After"] == "60"
        assert answer.get_json()["error"]["storage"] == "unavailable"
    page = client.get("/games")
    assert page.status_code == 503 and "cannot store games" in page.get_data(as_text=True)
    assert client.post("/api/verify", data=LOG, headers=JSON).get_json()["valid"]


def test_storage_faults_are_told_from_bugs() -> None:
    assert store.storage_fault(sqlite3.OperationalError("database or disk is full")) == \
        "disk full"
    assert store.storage_fault(OSError(30, "Read-only file system")) == "read-only"
    assert store.storage_fault(sqlite3.OperationalError("no such table: x")) is None
    assert store.storage_fault(ValueError("x")) is None


def test_cross_site_posts_are_refused(app: Flask) -> None:
    client = app.test_client()
    plain = client.post("/api/games", data=LOG, content_type="text/plain")
    assert plain.status_code == 415 and plain.is_json
    assert "application/json" in plain.get_json()["error"]["message"]
    form = client.post("/api/games", data={"log": LOG.decode()})  # a form aimed at the API
    assert form.status_code == 415
    elsewhere = {"Origin": "https://evil.example"}
    assert client.post("/api/games", data=LOG, headers=elsewhere).status_code == 403
    assert client.post("/upload", data={"log": LOG.decode()}, headers=elsewhere).status_code \
        == 403
    bare = app.test_client()
    bare.environ_base.pop("HTTP_ORIGIN")
    assert bare.post("/upload", data={"log": LOG.decode()}).status_code == 403  # no check
    assert bare.post("/upload", data={"log": LOG.decode()}, headers={
        "Referer": "http://localhost/upload"}).status_code == 303
    assert bare.post("/api/games", data=OTHER).status_code == 201  # a script: no type or Origin
    assert client.post("/upload", data={"log": OTHER.decode()}).status_code == 303
    assert client.get("/api/games").get_json()["total"] == 2


def test_a_library_that_cannot_make_its_wal_files_is_still_read(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real full disk (tools/drill.py --storage): the first read of a new connection fails
    ("disk I/O error": no -shm file can be made); the library is then opened immutable, so
    stored games are still served, and an upload is refused with 503 "unavailable"."""
    client = app.test_client()
    stored = client.post("/api/games", data=LOG, headers=JSON).get_json()["id"]

    class NoWal:
        """A connection whose first read fails as SQLite's does on such a disk."""

        def __init__(self) -> None:
            def execute(*args: Any) -> Any:
                raise sqlite3.OperationalError("disk I/O error")
            self.conn = type("Conn", (), {"execute": staticmethod(execute)})()

        def close(self) -> None:
            pass

    monkeypatch.setattr(web_db, "connect", lambda path: NoWal())
    assert client.get(f"/api/games/{stored}").status_code == 200
    assert client.get("/api/games").get_json()["total"] == 1
    refused = client.post("/api/games", data=OTHER, headers=JSON)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "60"
    assert refused.get_json()["error"]["storage"] == "unavailable"
    assert client.post("/api/verify", data=OTHER, headers=JSON).get_json()["valid"]
