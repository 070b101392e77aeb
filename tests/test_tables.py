"""The games as data (issue 38 item 1): the ``moves``, ``events``, ``results`` and
``result_points`` rows written with each game in its transaction, through every way in (the
upload, the API, ``ingest``), and by a migration for a library stored before them; checked
against what the logs say, recomputed here independently."""

from __future__ import annotations

import json
import os
import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from replay.cli import main
from replay.core.events import Score
from replay.core.playback import play_through
from replay.core.record import read_game
from replay.generate import dumps, generate_log
from replay.library import store, tables
from replay.library.store import connect, migrate

GAMES = [("base", 2, 3, ()), ("base", 4, 5, ("inns-cathedrals", "hills-sheep")),
         ("hunters-gatherers", 3, 2, ()), ("manhattan", 3, 3, ())]
INVALID = Path(__file__).resolve().parent.parent / "fixtures" / "invalid"


def _post(client: Any, log: dict[str, Any] | bytes) -> str:
    body = log if isinstance(log, bytes) else json.dumps(log)
    r = client.post("/api/games", data=body, content_type="application/json")
    assert r.status_code == 201, r.get_data(as_text=True)
    game_id: str = r.get_json()["id"]
    return game_id


def _rows(path: str, sql: str, *args: Any) -> list[dict[str, Any]]:
    db = connect(path)
    try:
        return list(db.query(sql, list(args)))
    finally:
        db.close()


def _expected(log: dict[str, Any]) -> dict[str, Any]:
    """What the tables must say of ``log``, from its replay (the events' points)."""
    record = read_game(json.dumps(log).encode())
    pb = play_through(record)
    names = [p.name for p in record.players]
    by_kind: Counter[tuple[str, str]] = Counter()
    kinds: Counter[str] = Counter()
    for events in pb.events:
        for e in events:
            kinds[e.type] += 1
            if isinstance(e, Score):
                for w in e.winners:
                    by_kind[(names[w], e.feature)] += e.points
    return {"scores": dict(zip(names, pb.state.scores, strict=True)), "by_kind": by_kind,
            "moves": len(pb.events), "kinds": kinds, "finished": pb.state.finished}


@pytest.mark.parametrize("spec", GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_every_family_gets_its_rows(app: Flask, client: Any, spec: tuple[Any, ...]) -> None:
    log = generate_log(*spec)
    game_id = _post(client, log)
    want = _expected(log)
    path = app.config["DATABASE"]
    results = _rows(path, "select * from results where game_id = ? order by seat", game_id)
    assert {r["player"]: r["score"] for r in results} == want["scores"]
    best = max(want["scores"].values())
    assert [r["winner"] for r in results] == [int(s == best) for s in want["scores"].values()]
    assert all(r["rank"] == 1 + sum(t > r["score"] for t in want["scores"].values())
               for r in results)
    points = _rows(path, "select player, kind, points from result_points where game_id = ?",
                   game_id)
    assert Counter({(p["player"], p["kind"]): p["points"] for p in points}) == want["by_kind"]
    for r in results:  # the points by kind add up to the score
        assert sum(json.loads(r["points_by_kind"]).values()) == r["score"]
    moves = _rows(path, "select * from moves where game_id = ? order by number", game_id)
    assert [m["number"] for m in moves] == list(range(1, want["moves"] + 1))
    assert all(m["legal"] == 1 for m in moves)
    # each move's points: the mover's share of the events of that move
    assert sum(m["scored"] for m in moves) == sum(want["scores"].values())
    kinds = _rows(path, "select kind, count(*) n from events where game_id = ? group by kind",
                  game_id)
    assert {k["kind"]: k["n"] for k in kinds} == dict(want["kinds"])
    family_columns = {"base": "tile", "hunters-gatherers": "tile", "manhattan": "card"}
    column = family_columns[spec[0]]
    assert all(m[column] is not None for m in moves if m["number"] > 0) or spec[0] == "manhattan"
    assert any(m[column] is not None for m in moves)


def test_an_illegal_move_and_a_broken_header_are_rows_too(app: Flask, client: Any) -> None:
    log = generate_log("base", 2, 3)
    log["moves"][10], log["moves"][11] = log["moves"][11], log["moves"][10]
    game_id = _post(client, log)
    path = app.config["DATABASE"]
    moves = _rows(path, "select number, legal, rule from moves where game_id = ? "
                        "order by number", game_id)
    assert moves[-1]["legal"] == 0 and moves[-1]["rule"] and moves[-1]["number"] <= 11
    assert all(m["legal"] == 1 for m in moves[:-1])
    assert {r["valid"] for r in _rows(path, "select valid from results where game_id = ?",
                                      game_id)} == {0}
    header = _post(client, (INVALID / "six-players-without-ic.json").read_bytes())
    results = _rows(path, "select * from results where game_id = ?", header)
    assert len(results) == 6 and all(r["score"] is None and r["valid"] == 0 for r in results)
    assert not _rows(path, "select * from moves where game_id = ?", header)


def test_a_game_and_its_rows_are_stored_together_or_not_at_all(
        app: Flask, client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> int:
        raise sqlite3.OperationalError("no such table: boom")

    monkeypatch.setattr(tables, "write", broken)
    r = client.post("/api/games", data=json.dumps(generate_log("base", 2, 3)),
                    content_type="application/json")
    assert r.status_code == 500
    path = app.config["DATABASE"]
    assert not _rows(path, "select id from games")
    assert not _rows(path, "select * from game_players")


def test_the_migration_fills_an_existing_library(tmp_path: Path) -> None:
    """A library stored before the tables: the migration replays every game, writes its
    rows and says how many."""
    path = str(tmp_path / "old.db")
    db = connect(path)
    try:
        with store.write(db):
            store.migrations.apply(db, stop_before="create_game_tables")
        logs = [generate_log(*spec) for spec in GAMES]
        from replay.core.verify import verify
        from replay.library.rows import game_row

        with store.write(db):
            for log in logs:
                row = game_row(verify(json.dumps(log).encode()))
                db.table("games").insert(row.as_row())
    finally:
        db.close()
    notes = migrate(path)
    total = sum(len(_rows(path, f"select 1 from {t}")) for t in tables.TABLES)
    assert any(f"{total} rows written for the {len(logs)} stored games" in n for n in notes)
    for log in logs:
        want = _expected(log)
        got = _rows(path, "select r.player, r.score from results r join games g on "
                          "g.id = r.game_id where g.log = ?", dumps(log))
        assert got == [] or {r["player"]: r["score"] for r in got} == want["scores"]
    assert len(_rows(path, "select distinct game_id from results")) == len(logs)


def test_ingest_writes_the_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for k, spec in enumerate(GAMES):
        (corpus / f"g{k}.json").write_text(dumps(generate_log(*spec)))
    db = str(tmp_path / "lib.db")
    assert main(["ingest", str(corpus), "--db", db, "--jobs", "2"]) == 0
    capsys.readouterr()
    games = _rows(db, "select id, players from games")
    assert len(games) == len(GAMES)
    for g in games:
        seats = len(json.loads(g["players"]))
        assert len(_rows(db, "select 1 from results where game_id = ?", g["id"])) == seats
        assert _rows(db, "select 1 from moves where game_id = ?", g["id"])


def test_a_family_without_columns_still_gets_events_and_results(
        make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch) -> None:
    from replay.games.manhattan import Manhattan

    monkeypatch.setattr(Manhattan, "move_columns", ())
    app = make_app()
    client = app.test_client()
    game_id = _post(client, generate_log("manhattan", 2, 4))
    path = app.config["DATABASE"]
    assert len(_rows(path, "select 1 from results where game_id = ?", game_id)) == 2
    assert _rows(path, "select 1 from events where game_id = ?", game_id)
    moves = _rows(path, "select * from moves where game_id = ?", game_id)
    assert moves and all(m.get("card") is None for m in moves)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_server_killed_mid_upload_leaves_each_game_whole_or_absent(tmp_path: Path) -> None:
    """SIGKILL of the process storing games while a client uploads: every game the library
    holds afterwards has all its rows (a result per seat, a move row per move replayed)."""
    import signal
    import subprocess
    import sys
    import threading
    import time
    import urllib.error
    import urllib.request

    from tests.test_serve_faults import children
    from tests.test_service import banner

    path = tmp_path / "games.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "replay", "serve", "--host", "127.0.0.1", "--port", "0",
         "--processes", "1", "--rate-limit", "off", "--db", str(path)],
        cwd=Path(__file__).resolve().parent.parent, stderr=subprocess.PIPE, text=True)
    logs = [dumps(generate_log("base", 4, k, ("inns-cathedrals", "hills-sheep"))).encode()
            for k in range(24)]
    stored: list[int] = []
    try:
        found = banner(proc)[1]
        assert found is not None
        url = f"http://{found.group(1)}:{found.group(2)}/api/games"

        def upload() -> None:
            for data in logs:
                request = urllib.request.Request(url, data=data, headers={
                    "Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=30) as answer:
                        stored.append(answer.status)
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    stored.append(0)  # cut by the kill

        client = threading.Thread(target=upload)
        client.start()
        deadline = time.monotonic() + 60
        while len(stored) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        for pid in children(proc.pid):  # the worker storing games, mid-stream
            os.kill(pid, signal.SIGKILL)
        client.join(120)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    assert 0 in stored or len(stored) == len(logs)
    games = _rows(str(path), "select id, players, moves_played, error_move from games")
    assert games
    for g in games:
        seats = len(json.loads(g["players"]))
        assert len(_rows(str(path), "select 1 from results where game_id = ?", g["id"])) == seats
        moves = _rows(str(path), "select number from moves where game_id = ?", g["id"])
        assert len(moves) == g["moves_played"] + (g["error_move"] is not None)
