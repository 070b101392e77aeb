"""The web app's computer analysis (issue 37 item 4): asked for, run in the background by a
bounded pool of worker processes, followed, cancelled, kept with the engine's settings, and
drawn in the viewer (the win-chance graph, the best move as a ghost, spoiler-free)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay.generate import generate_log
from replay.library.store import connect
from web import computer, computer_jobs

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "invalid"
FAST = "mcts:4:dets=1"  # a whole game in a second or two, pure Python
SLOW = "mcts:50000:dets=2"  # never done in a test: for the queue, the bounds and cancel

pytestmark = pytest.mark.app_config(ANALYSIS_AGENT=FAST, RATE_LIMIT=None)


def _store(client: FlaskClient, seed: int = 3, game: str = "base",
           players: int = 2) -> str:
    log = generate_log(game, players, seed)
    r = client.post("/api/games", data=json.dumps(log), content_type="application/json")
    assert r.status_code == 201, r.get_data(as_text=True)
    game_id: str = r.get_json()["id"]
    return game_id


def _wait(client: FlaskClient, game_id: str, until: Callable[[dict[str, Any]], bool],
          seconds: float = 120.0) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while True:
        job: dict[str, Any] = client.get(f"/api/games/{game_id}/analysis").get_json()
        if until(job) or time.monotonic() > end:
            return job
        time.sleep(0.2)


def _idle(app: Flask) -> None:
    """Wait until this app's dispatchers have ended (nothing left running in the background
    when a test ends)."""
    pool = app.extensions.get("computer_pool")
    end = time.monotonic() + 60
    while pool is not None and pool.busy() and time.monotonic() < end:
        time.sleep(0.1)
    assert pool is None or not pool.busy()


@pytest.fixture
def quiet(app: Flask) -> Iterator[Flask]:
    """``app``, every analysis it queued cancelled and its workers ended after the test."""
    yield app
    db = connect(app.config["DATABASE"])
    try:
        db.conn.execute("update analyses set status = 'cancelled' where status in "
                        "('queued', 'running')")
        db.conn.commit()
    finally:
        db.close()
    _idle(app)


def test_an_analysis_runs_in_the_background_and_is_kept(client: FlaskClient,
                                                        quiet: Flask) -> None:
    game_id = _store(client)
    assert client.get(f"/api/games/{game_id}/analysis").status_code == 404
    r = client.post(f"/api/games/{game_id}/analysis", json={})
    assert r.status_code == 202 and r.get_json()["status"] in ("queued", "running")
    assert r.headers["Location"].endswith(f"/api/games/{game_id}/analysis")
    job = _wait(client, game_id, lambda j: j["status"] == "done")
    assert job["status"] == "done", job
    moves = len(generate_log("base", 2, 3)["moves"])
    assert job["done"] == job["total"] == moves
    assert len(job["positions"]) == moves
    assert job["agent"] == FAST and job["engine"].startswith("carcassonne-replay ")
    assert {s["player"] for s in job["summary"]} == {"Ada", "Ben"}
    db = connect(quiet.config["DATABASE"])
    try:  # kept in the library, with who ran it: a process other than the server's
        row = next(db.query("select worker, status, client from analyses"))
    finally:
        db.close()
    assert row["status"] == "done" and row["client"] == "127.0.0.1"
    assert row["worker"] not in (None, os.getpid())
    again = client.post(f"/api/games/{game_id}/analysis", json={})
    assert again.status_code == 200 and again.get_json()["status"] == "done"


def test_the_viewer_draws_the_analysis(client: FlaskClient, quiet: Flask) -> None:
    game_id = _store(client)
    page = client.get(f"/games/{game_id}/moves/5").get_data(as_text=True)
    assert 'name="action" value="ask"' in page and "best-move" not in page
    r = client.post(f"/games/{game_id}/analysis", data={"action": "ask", "n": "5"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/games/{game_id}/moves/5")
    assert _wait(client, game_id, lambda j: j["status"] == "done")["status"] == "done"
    job = client.get(f"/api/games/{game_id}/analysis").get_json()
    page = client.get(f"/games/{game_id}/moves/5").get_data(as_text=True)
    section = page[page.index('id="computer"'):]
    section = section[:section.index("</section>")]
    assert 'data-status="done"' in section and "win-chart" in section
    last = len(job["positions"])
    # a link to every position, a line per player, a dot per marked move
    assert sorted(int(k) for k in re.findall(r'<a href="[^"]*/moves/(\d+)" data-move', section)) \
        == list(range(last + 1))
    assert section.count("<polyline") == 2
    marked = [p for p in job["positions"] if p["mark"]]
    assert section.count('class="win-mark"') == len(marked)
    here = job["positions"][5]
    assert f"Best move here</b> ({here['player']}" in section
    # the best move is drawn on the board as a ghost by the family's view
    board = page[page.index('id="board"') - 40:page.index('id="board-pane"') + 2000]
    assert 'class="board best-move"' in board and 'class="preview"' in page
    played = job["positions"][4]
    assert f"Move 5 ({played['player']})" in section


def test_results_hidden_hide_what_is_to_come(client: FlaskClient, quiet: Flask) -> None:
    game_id = _store(client)
    client.post(f"/api/games/{game_id}/analysis", json={})
    job = _wait(client, game_id, lambda j: j["status"] == "done")
    client.set_cookie("cr-spoiler", "1")
    page = client.get(f"/games/{game_id}/moves/10").get_data(as_text=True)
    section = page[page.index('id="computer"'):]
    section = section[:section.index("</section>")]
    assert 'class="computer safe"' in section
    points = re.findall(r'<polyline points="([^"]*)"', section)
    assert [len(p.split()) for p in points] == [11, 11]  # the positions up to this one
    shown = section.count('class="win-mark"')
    assert shown == sum(1 for p in job["positions"] if p["move"] <= 10 and p["mark"])
    assert shown < sum(1 for p in job["positions"] if p["mark"])  # later marks hidden
    assert "computer-summary" not in section and "not reached yet" in section
    end = client.get(f"/games/{game_id}/moves/{len(job['positions'])}").get_data(as_text=True)
    assert "computer-summary" in end  # at the end everything shows


def test_cancel_stops_the_worker(make_app: Callable[..., Flask]) -> None:
    app = make_app(ANALYSIS_AGENT=SLOW, RATE_LIMIT=None)
    client = app.test_client()
    game_id = _store(client)
    client.post(f"/api/games/{game_id}/analysis", json={})
    running = _wait(client, game_id, lambda j: j["status"] == "running" and j["total"] > 0)
    assert running["status"] == "running"
    r = client.delete(f"/api/games/{game_id}/analysis")
    assert r.status_code == 200 and r.get_json()["status"] == "cancelled"
    _idle(app)  # the worker saw it and stopped; its dispatcher ended
    job = client.get(f"/api/games/{game_id}/analysis").get_json()
    assert job["status"] == "cancelled" and "positions" not in job
    # asked again, it is queued again
    assert client.post(f"/api/games/{game_id}/analysis", json={}).status_code == 202
    client.delete(f"/api/games/{game_id}/analysis")
    _idle(app)


def test_twenty_clients_get_a_bounded_queue(make_app: Callable[..., Flask]) -> None:
    """20 clients ask at once: ``ANALYSIS_QUEUE`` are queued, the rest told 429 with when to
    come back; one runs at a time (``ANALYSIS_WORKERS``), in a process of its own; the
    viewer's pages answer all along."""
    app = make_app(ANALYSIS_AGENT=SLOW, RATE_LIMIT=None, ANALYSIS_QUEUE=12)
    client = app.test_client()
    games = [_store(client, seed) for seed in range(20)]
    codes = []
    for k, game_id in enumerate(games):
        r = client.post(f"/api/games/{game_id}/analysis", json={},
                        environ_base={"REMOTE_ADDR": f"10.0.0.{k}"})
        codes.append(r.status_code)
        if r.status_code == 429:
            assert int(r.headers["Retry-After"]) > 0
            assert "busy" in r.get_json()["error"]["message"]
    assert codes.count(202) == 12 and codes.count(429) == 8
    _wait(client, games[0], lambda j: j["status"] == "running" and j["total"] > 0)
    db = connect(app.config["DATABASE"])
    try:
        for _ in range(5):
            assert client.get(f"/games/{games[-1]}/moves/3").status_code == 200
            row = db.conn.execute("select count(*), max(worker) from analyses "
                                  "where status = 'running'").fetchone()
            assert row[0] == 1  # one worker in all
    finally:
        db.close()
    for game_id in games:
        client.delete(f"/api/games/{game_id}/analysis")
    _idle(app)


def test_one_clients_share_and_budget(make_app: Callable[..., Flask]) -> None:
    app = make_app(ANALYSIS_AGENT=SLOW, RATE_LIMIT=None, ANALYSIS_PER_CLIENT=2,
                   COMPUTER_RATE_LIMIT="3/3600")
    client = app.test_client()
    games = [_store(client, seed) for seed in range(4)]
    assert client.post(f"/api/games/{games[0]}/analysis", json={}).status_code == 202
    assert client.post(f"/api/games/{games[1]}/analysis", json={}).status_code == 202
    r = client.post(f"/api/games/{games[2]}/analysis", json={})
    assert r.status_code == 429 and "already have 2" in r.get_json()["error"]["message"]
    client.delete(f"/api/games/{games[0]}/analysis")
    r = client.post(f"/api/games/{games[3]}/analysis", json={})
    assert r.status_code == 429 and r.headers["Retry-After"]  # the hour's budget: 3 asks
    for game_id in games:
        client.delete(f"/api/games/{game_id}/analysis")
    _idle(app)


@pytest.mark.parametrize(("method", "path", "body", "code"), [
    ("post", "/api/games/0000000000000000/analysis", {}, 404),
    ("get", "/api/games/0000000000000000/analysis", None, 404),
    ("delete", "/api/games/0000000000000000/analysis", None, 404),
    ("post", "/api/games/not-hex/analysis", {}, 404),
    ("post", "/games/0000000000000000/analysis", {"action": "ask"}, 404),
])
def test_unknown_games(client: FlaskClient, method: str, path: str, body: Any,
                       code: int) -> None:
    kwargs: dict[str, Any] = {}
    if body is not None:
        kwargs = {"json": body} if path.startswith("/api/") else {"data": body}
    r = getattr(client, method)(path, **kwargs)
    assert r.status_code == code


def test_hostile_asks(client: FlaskClient) -> None:
    game_id = _store(client)
    r = client.post(f"/games/{game_id}/analysis", data={"action": "<script>", "n": "5"})
    assert r.status_code == 400 and b"<script>" not in r.data
    assert client.delete(f"/api/games/{game_id}/analysis").status_code == 404
    r = client.post(f"/api/games/{game_id}/analysis", data="x", content_type="text/plain")
    assert r.status_code == 415
    foreign = client.post(f"/api/games/{game_id}/analysis", json={},
                          headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    for n in ("-1", "99999999999", "ten", ""):
        r = client.post(f"/games/{game_id}/analysis", data={"action": "cancel", "n": n})
        assert r.status_code == 303


def test_an_unreplayable_game_is_not_queued(client: FlaskClient, quiet: Flask) -> None:
    body = (FIXTURES / "six-players-without-ic.json").read_bytes()  # B1: an illegal header
    r = client.post("/api/games", data=body, content_type="application/json")
    game_id = r.get_json()["id"]
    assert "Analyse this game" not in client.get(f"/games/{game_id}/moves/0").get_data(True)
    r = client.post(f"/api/games/{game_id}/analysis", json={})
    assert r.status_code == 422 and "cannot be replayed" in r.get_json()["error"]["message"]


def test_a_silent_worker_is_failed_and_frees_the_queue(tmp_path: Any,
                                                       make_app: Callable[..., Flask]) -> None:
    make_app()  # the library migrated
    db = connect(str(tmp_path / "games.db"))
    try:
        now = time.time()
        db.conn.execute("insert into analyses (game_id, agent, status, client, created, "
                        "heartbeat) values ('a', 'x', 'running', 'c', ?, ?)",
                        [now - 500, now - computer_jobs.STALE - 1])
        db.conn.execute("insert into analyses (game_id, agent, status, client, created) "
                        "values ('b', 'x', 'queued', 'c', ?)", [now])
        db.conn.commit()
        assert computer_jobs.claim(db, 1) == ("b", "x")
        row = next(db.query("select status, message from analyses where game_id = 'a'"))
        assert row["status"] == "failed" and "stopped" in row["message"]
        assert computer_jobs.claim(db, 1) is None  # b runs: one worker in all
    finally:
        db.close()


def test_a_failing_analysis_says_why(client: FlaskClient, quiet: Flask) -> None:
    game_id = _store(client)
    db = connect(quiet.config["DATABASE"])
    try:  # the stored log damaged behind the app's back
        db.conn.execute("update games set log = '{' where id = ?", [game_id])
        db.conn.commit()
    finally:
        db.close()
    _, queued = computer_jobs.ask(connect(quiet.config["DATABASE"]), game_id, FAST, "c",
                                    16, 2)
    assert queued
    computer_jobs.run(quiet.config["DATABASE"], game_id, FAST, nice=0)  # here, not lowered
    kept = computer_jobs.find(connect(quiet.config["DATABASE"]), game_id, FAST)
    assert kept is not None and kept.status == "queued"  # never claimed: run writes nothing
    computer_jobs.claim(connect(quiet.config["DATABASE"]), 1)
    computer_jobs.run(quiet.config["DATABASE"], game_id, FAST, nice=0)
    failed = computer_jobs.find(connect(quiet.config["DATABASE"]), game_id, FAST)
    assert failed is not None and failed.status == "failed"
    assert "cannot be replayed" in (failed.message or "")


def test_ranking_the_board_moves(client: FlaskClient, app: Flask) -> None:
    game_id = _store(client)
    page = client.get(f"/games/{game_id}/moves/6?explore=1").get_data(as_text=True)
    assert "Rank the moves (computer)" in page
    page = client.get(f"/games/{game_id}/moves/6?explore=1&rank=1").get_data(as_text=True)
    ranked = page[page.index('class="ranked"'):page.index("</ol>", page.index('class="ranked"'))]
    tokens = re.findall(r'name="play" value="([^"]+)"', ranked)
    assert 1 <= len(tokens) <= computer.RANK_SHOWN and len(set(tokens)) == len(tokens)
    menu = page[page.index('id="try-form"'):]
    assert all(menu.count(f'value="{t}"') >= 2 for t in tokens)  # each one of the board's moves
    # kept: the same order again, even while the ranking is busy elsewhere
    with computer._ranking:
        again = client.get(f"/games/{game_id}/moves/6?explore=1&rank=1")
        assert again.status_code == 200 and again.get_data(as_text=True).count(tokens[0]) >= 2
        busy = client.get(f"/games/{game_id}/moves/7?explore=1&rank=1")
        assert busy.status_code == 429 and busy.headers["Retry-After"] == "1"


def test_no_request_thread_searches(client: FlaskClient, quiet: Flask,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis runs in a worker process: this process's search is never called."""
    from replay.agents import mcts

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a search in the server's process")

    monkeypatch.setattr(mcts.MctsAgent, "search", refuse)
    game_id = _store(client)
    client.post(f"/api/games/{game_id}/analysis", json={})
    assert _wait(client, game_id, lambda j: j["status"] == "done")["status"] == "done"


@pytest.mark.app_config(ANALYSIS_WORKERS=0)
def test_a_server_without_workers_offers_none(client: FlaskClient) -> None:
    game_id = _store(client)
    assert "Analyse this game" not in client.get(f"/games/{game_id}/moves/3").get_data(True)
    r = client.post(f"/api/games/{game_id}/analysis", json={})
    assert r.status_code == 403 and "turned off" in r.get_json()["error"]["message"]
