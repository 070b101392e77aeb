"""The web app (web/): every page, every API route and every error path, with Flask's test
client and a temporary SQLite file."""

from __future__ import annotations

import copy
import hashlib
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay import svg
from replay.core.events import GameEnd, Score
from replay.core.family import family
from replay.core.playback import CHECKPOINT, play_through
from replay.core.record import parse
from replay.core.verify import verify
from replay.games.carcassonne import CarcassonneState
from replay.games.hunters_gatherers.events import BonusTile
from replay.generate import dumps, generate_log
from replay.tiles.events import Discard, FigureReturned
from web import db as store
from web.app import create_app
from web.games import GAME_ID, summarise

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "invalid"
XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def log2() -> dict[str, Any]:
    return generate_log("base", 2, 1)


@pytest.fixture(scope="module")
def text2(log2: dict[str, Any]) -> str:
    return dumps(log2)


def illegal(log: dict[str, Any], index: int = 5) -> dict[str, Any]:
    """Move ``index`` put on the start tile's cell: G4."""
    bad = copy.deepcopy(log)
    bad["moves"][index].update({"x": 0, "y": 0})
    bad.pop("claims", None)
    return bad


def post_game(client: FlaskClient, body: str | bytes) -> Any:
    return client.post("/api/games", data=body, content_type="application/json")


def stored_id(client: FlaskClient, body: str | bytes) -> str:
    r = post_game(client, body)
    assert r.status_code in (200, 201), r.get_json()
    game_id: str = r.get_json()["id"]
    return game_id


# --------------------------------------------------------------------------- factory, storage

def test_factory_defaults() -> None:
    app = create_app({"DATABASE": ":memory:"})
    assert app.config["MAX_CONTENT_LENGTH"] == 5 * 1024 * 1024
    assert {"pages", "api"} <= set(app.blueprints)


def test_migrations_are_applied_once(tmp_path: Path) -> None:
    path = str(tmp_path / "m.db")
    create_app({"DATABASE": path})
    create_app({"DATABASE": path})  # a second start applies nothing twice
    db = store.connect(path)
    applied = [m.name for m in store.migrations.applied(db)]
    assert applied == ["create_games", "create_game_players", "create_rate_counts",
                       "add_source_format", "identify_games", "create_analyses",
                       "create_game_tables"]
    assert {"games", "game_players"} <= set(db.table_names())
    assert not store.migrations.pending(db)
    db.close()


def test_default_database_file_is_games_db_here(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = create_app()
    assert app.config["DATABASE"] == "games.db"
    assert (tmp_path / "games.db").exists()


# --------------------------------------------------------------------------- API: store

def test_post_game_returns_201_with_id_and_url(client: FlaskClient, text2: str) -> None:
    r = post_game(client, text2)
    assert r.status_code == 201
    body = r.get_json()
    sha = hashlib.sha256(text2.encode()).hexdigest()
    assert body["id"] == sha[:16] and body["sha256"] == sha
    assert body["url"] == f"http://localhost/games/{body['id']}"
    assert r.headers["Location"] == body["url"]
    assert body["new"] is True
    assert body["verdict"]["valid"] is True and body["verdict"]["finished"] is True
    assert body["report"]["valid"] is True
    assert body["viewer_url"].endswith(f"/games/{body['id']}/moves/{body['last_move']}")


def test_identical_logs_get_the_same_id(client: FlaskClient, text2: str) -> None:
    first = post_game(client, text2).get_json()
    again = post_game(client, text2)
    assert again.status_code == 200
    assert again.get_json()["id"] == first["id"] and again.get_json()["new"] is False
    assert client.get("/api/games").get_json()["total"] == 1
    other = post_game(client, text2 + "\n")  # another file of the same game: its id
    assert other.status_code == 200 and other.get_json()["id"] == first["id"]


def test_illegal_but_well_formed_game_is_stored_with_its_verdict(
        client: FlaskClient, log2: dict[str, Any]) -> None:
    """G4, reported with its move number (counted from 1) and log entry (L3), and stored."""
    r = post_game(client, json.dumps(illegal(log2)))
    assert r.status_code == 201
    verdict = r.get_json()["verdict"]
    assert verdict == {"valid": False, "verdict": "invalid", "finished": False, "rule": "G4",
                       "move": 6, "entry": "/moves/5", "player": "Ben",
                       "message": verdict["message"], "report_version": 2}
    assert "already holds" in verdict["message"]
    assert r.get_json()["open_at"] == 6


def test_header_that_breaks_a_rule_is_stored_invalid(client: FlaskClient) -> None:
    """B1: six players without Inns & Cathedrals."""
    body = (FIXTURES / "six-players-without-ic.json").read_bytes()
    r = post_game(client, body)
    assert r.status_code == 201
    game = r.get_json()
    assert game["verdict"]["rule"] == "B1" and game["verdict"]["move"] is None
    page = client.get(f"/games/{game['id']}/moves/0")
    assert page.status_code == 200 and b"The header is illegal: B1" in page.data
    assert client.get(f"/games/{game['id']}/moves/1").status_code == 404
    assert client.get(f"/games/{game['id']}/moves/0.svg").status_code == 404
    state = client.get(f"/api/games/{game['id']}/moves/0").get_json()
    assert state["failure"]["rule"] == "B1"


@pytest.mark.parametrize("body,path", [
    (b"{", ""),
    (b"\xff\xfe", ""),
    (b"", ""),
    (b"[]", ""),
])
def test_post_malformed_input_is_400_with_path(client: FlaskClient, body: bytes,
                                                path: str) -> None:
    r = post_game(client, body)
    assert r.status_code == 400
    error = r.get_json()["error"]
    assert error["path"] == path and error["message"] and error["rule"] == "L1"
    assert client.get("/api/games").get_json()["total"] == 0


def test_post_schema_error_gives_its_json_path(client: FlaskClient,
                                               log2: dict[str, Any]) -> None:
    bad = copy.deepcopy(log2)
    bad["moves"][3]["x"] = 5000
    r = post_game(client, json.dumps(bad))
    assert r.status_code == 400
    assert r.get_json()["error"]["path"] == "/moves/3/x"
    for name in ("bad-rotation.json", "duplicate-names.json", "huge-coordinate.json"):
        expected = json.loads((FIXTURES / "expected.json").read_text())[name]
        r = post_game(client, (FIXTURES / name).read_bytes())
        assert r.status_code == 400
        assert r.get_json()["error"]["path"] == expected["path"]


@pytest.mark.app_config(MAX_CONTENT_LENGTH=2000)
def test_post_above_the_size_limit_is_413(client: FlaskClient, text2: str) -> None:
    r = post_game(client, text2)
    assert r.status_code == 413
    assert r.is_json and r.get_json()["error"]["limit"] == 2000
    r = client.post("/api/verify", data=text2)
    assert r.status_code == 413
    r = client.post("/upload", data={"log": text2})
    assert r.status_code == 413 and b"too large" in r.data


def test_default_size_limit_is_5_mb(client: FlaskClient) -> None:
    r = post_game(client, b" " * (5 * 1024 * 1024 + 1))
    assert r.status_code == 413


# --------------------------------------------------------------------------- API: read

def test_get_game_and_list(client: FlaskClient, text2: str, log2: dict[str, Any]) -> None:
    game_id = stored_id(client, text2)
    stored_id(client, json.dumps(illegal(log2)))
    g = client.get(f"/api/games/{game_id}").get_json()
    assert g["id"] == game_id and [p["name"] for p in g["players"]] == ["Ada", "Ben"]
    assert [p["score"] for p in g["players"]] == list(log2["claims"]["final_scores"].values())
    listing = client.get("/api/games").get_json()
    assert listing["total"] == 2
    assert client.get("/api/games?verdict=valid").get_json()["total"] == 1
    assert client.get("/api/games?verdict=invalid").get_json()["total"] == 1
    assert client.get("/api/games?player=ad").get_json()["total"] == 2
    assert client.get("/api/games?player=Zoe").get_json()["total"] == 0
    assert client.get("/api/games/0123456789abcdef").status_code == 404
    assert client.get("/api/games/not-an-id").get_json()["error"]["code"] == 404


def test_get_position(client: FlaskClient, text2: str, log2: dict[str, Any]) -> None:
    game_id = stored_id(client, text2)
    r = client.get(f"/api/games/{game_id}/moves/10")
    assert r.status_code == 200
    state = r.get_json()
    assert state["move"] == 10 and state["last"] == len(log2["moves"])
    assert state["scores"] == {p["name"]: p["score"] for p in state["players"]}
    assert state["events"][0]["type"] == "place"
    assert set(state["events"][0]) == {"type", "player", "tile", "x", "y", "rotation"}
    assert state["explanations"][0].startswith("Ben (blue) placed a ")  # move 10: seat 2
    assert state["svg_url"].endswith(f"/games/{game_id}/moves/10.svg")
    assert isinstance(state["tiles_left"], int) and state["next_tile"]
    final = client.get(f"/api/games/{game_id}/moves/{state['last']}").get_json()
    assert final["finished"] is True
    assert final["scores"] == log2["claims"]["final_scores"]
    keys = {"score": {"type", "phase", "feature", "feature_id", "points", "winners",
                      "strengths", "detail", "rule", "tie", "cells"},
            "end": {"type", "scores", "winners"}}
    assert {e["type"] for e in final["events"]} >= {"score", "end"}
    for e in final["events"]:  # the event objects of the API keep their fields
        assert set(e) == keys.get(e["type"], set(e))
        if e["type"] == "score":
            assert all(isinstance(k, str) for k in e["strengths"]) and isinstance(e["tie"], bool)
    assert final["events"][-1] == {"type": "end", "scores": list(final["scores"].values()),
                                   "winners": final["events"][-1]["winners"]}
    assert client.get(f"/api/games/{game_id}/moves/{state['last'] + 1}").status_code == 404
    assert client.get(f"/api/games/{game_id}/moves/-1").status_code == 404


def test_get_position_of_the_failing_move(client: FlaskClient, log2: dict[str, Any]) -> None:
    game_id = stored_id(client, json.dumps(illegal(log2)))
    state = client.get(f"/api/games/{game_id}/moves/6").get_json()
    assert state["failure"]["rule"] == "G4" and state["failure"]["move"] == 6
    assert state["failure"]["entry"] == "/moves/5"
    assert state["last"] == 6
    assert client.get(f"/api/games/{game_id}/moves/7").status_code == 404


def test_verify_returns_the_report_and_stores_nothing(client: FlaskClient, text2: str,
                                                      log2: dict[str, Any]) -> None:
    r = client.post("/api/verify?name=game.json", data=text2)
    assert r.status_code == 200
    assert r.get_json() == verify(json.loads(text2), name="game.json").as_json()
    bad = client.post("/api/verify", data=json.dumps(illegal(log2))).get_json()
    assert bad["valid"] is False and bad["error"]["rule"] == "G4"
    broken = client.post("/api/verify", data=b"{").get_json()
    assert broken["valid"] is False and broken["error"]["path"] == ""
    assert client.get("/api/games").get_json()["total"] == 0


def test_api_errors_are_json(client: FlaskClient) -> None:
    r = client.put("/api/games", data=b"{}")
    assert r.status_code == 405 and r.is_json and "POST" in r.headers["Allow"]
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == 404


# --------------------------------------------------------------------------- pages

def test_index_redirects_to_the_library(client: FlaskClient) -> None:
    r = client.get("/")
    assert r.status_code == 302 and r.headers["Location"].endswith("/games")


def test_library_lists_and_filters(client: FlaskClient, text2: str,
                                   log2: dict[str, Any]) -> None:
    empty = client.get("/games")
    assert empty.status_code == 200 and b"No games yet" in empty.data
    stored_id(client, text2)
    other = copy.deepcopy(illegal(log2))
    other["players"][0]["name"] = "Zoe"
    stored_id(client, json.dumps(other))
    page = client.get("/games").get_data(as_text=True)
    assert "2 games" in page and "Zoe" in page and "Ada" in page
    assert "invalid · G4 · move 6" in page and "valid" in page
    assert "Carcassonne" in page
    final = "".join(f"{s}" for s in log2["claims"]["final_scores"].values())
    assert final[:1] in page
    valid = client.get("/games?verdict=valid").get_data(as_text=True)
    assert "1 game" in valid and "Zoe" not in valid
    invalid = client.get("/games?verdict=invalid").get_data(as_text=True)
    assert "Zoe" in invalid and "G4" in invalid
    assert "Zoe" in client.get("/games?player=zo").get_data(as_text=True)
    nobody = client.get("/games?player=%25").get_data(as_text=True)
    assert "No games match" in nobody
    assert client.get("/games?verdict=bogus&page=-3&size=0").status_code == 200


@pytest.mark.app_config(PAGE_SIZE=2)
def test_library_pages(client: FlaskClient, log2: dict[str, Any]) -> None:
    for seed in range(3):
        stored_id(client, dumps(generate_log("base", 2, 100 + seed)))
    first = client.get("/games").get_data(as_text=True)
    assert "page 1 / 2" in first and "older" in first
    assert "page 2 / 2" in client.get("/games?page=2").get_data(as_text=True)


def test_upload_form(client: FlaskClient) -> None:
    r = client.get("/upload")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert 'name="file"' in page and 'name="log"' in page and "/api/verify" in page
    assert "upload.js" in page


def test_upload_pasted_log_redirects_to_the_viewer(client: FlaskClient, text2: str,
                                                   log2: dict[str, Any]) -> None:
    r = client.post("/upload", data={"log": text2})
    assert r.status_code == 303
    game_id = hashlib.sha256(text2.encode()).hexdigest()[:16]
    assert r.headers["Location"].endswith(f"/games/{game_id}/moves/{len(log2['moves'])}")


def test_upload_file(client: FlaskClient, text2: str) -> None:
    data = {"file": (io.BytesIO(text2.encode()), "game.json"), "log": ""}
    r = client.post("/upload", data=data, content_type="multipart/form-data")
    assert r.status_code == 303 and "/games/" in r.headers["Location"]


def test_upload_illegal_game_opens_at_its_failing_move(client: FlaskClient,
                                                       log2: dict[str, Any]) -> None:
    r = client.post("/upload", data={"log": json.dumps(illegal(log2))})
    assert r.status_code == 303 and r.headers["Location"].endswith("/moves/6")
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Move 6 (Ben) is illegal" in page and "G4" in page
    assert 'class="ghost"' in page  # the attempted tile, in red, on the board


@pytest.mark.parametrize("form,message", [
    ({"log": ""}, "choose a file or paste a log"),
    ({"log": "{"}, "The log is not readable: invalid JSON"),
    ({"log": '{"format": "carcassonne-replay/log"}'}, "The log is not readable: a log needs "),
    ({"log": '{"format": "carcassonne-replay/log", "version": 2, "game": "base", "players": '
             '[{"name": "A"}, {"name": "B"}], "moves": []}'},
     "The log is not readable at /version: must be 1, not 2"),
])
def test_upload_errors_are_shown_on_the_form(client: FlaskClient, form: dict[str, str],
                                             message: str) -> None:
    r = client.post("/upload", data=form)
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert message in page
    assert "<textarea" in page


def test_upload_keeps_the_pasted_text_escaped(client: FlaskClient) -> None:
    text = '{"x": "</textarea><script>alert(1)</script>"}'
    page = client.post("/upload", data={"log": text}).get_data(as_text=True)
    assert "<script>alert(1)" not in page
    assert "&lt;/textarea&gt;&lt;script&gt;" in page


def test_game_redirects_to_its_default_position(client: FlaskClient, text2: str,
                                                log2: dict[str, Any]) -> None:
    game_id = stored_id(client, text2)
    r = client.get(f"/games/{game_id}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/moves/{len(log2['moves'])}")
    assert client.get("/games/0123456789abcdef").status_code == 404
    assert client.get("/games/zzz").status_code == 404


def test_viewer_page(client: FlaskClient, text2: str, log2: dict[str, Any]) -> None:
    game_id = stored_id(client, text2)
    r = client.get(f"/games/{game_id}/moves/12")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert 'id="board"' in page and "<svg" in page and 'class="carcassonne-board"' in page
    current = re.findall(r'<a href="[^"]+" data-move="(\d+)" class="move[^"]*current', page)
    assert current == ["12"]
    assert 'data-move="13"' in page and 'data-move="11"' in page
    assert "move <b>12</b> / " + str(len(log2["moves"])) in page
    assert 'class="chart"' in page and 'class="cursor"' in page
    assert "Tiles left" in page and "viewer.js" in page
    for seat in log2["players"]:
        assert seat["name"] in page
    assert client.get(f"/games/{game_id}/moves/{len(log2['moves']) + 1}").status_code == 404


def test_viewer_explains_the_scoring_of_a_move(client: FlaskClient) -> None:
    log = generate_log("base", 4, 3)
    game_id = stored_id(client, dumps(log))
    r = play_through(parse(log))
    n = next(i + 1 for i, ev in enumerate(r.events)
             if any(isinstance(e, Score) and e.phase == "play" for e in ev))
    page = client.get(f"/games/{game_id}/moves/{n}").get_data(as_text=True)
    event = next(e for e in r.events[n - 1] if isinstance(e, Score))
    assert event.detail in page.replace("&amp;", "&")
    assert "scores " + str(event.points) in page or "score " + str(event.points) in page


def test_viewer_does_not_replay_every_position_from_the_start(
        make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch) -> None:
    """A game is replayed once (its playback keeps a copy of the state every CHECKPOINT moves),
    and walked once more for its scores if it ended at each position (``replay.core.outlook``);
    a position starts from the nearest copy, so only positions before the first copy start
    from a new state."""
    log = generate_log("base", 4, 7)
    game_id = stored_id(make_app().test_client(), dumps(log))
    client = make_app().test_client()  # the same database, a fresh cache: nothing replayed
    made: list[int] = []
    new_state = CarcassonneState.__init__

    def counting(self: CarcassonneState, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        new_state(self, *args, **kwargs)

    monkeypatch.setattr(CarcassonneState, "__init__", counting)
    assert family("base").new_state(parse(log).config) is not None and len(made) == 1
    made.clear()
    last = len(log["moves"])
    positions = [last * k // 10 for k in range(1, 11)]
    assert len(set(positions)) == 10 and positions[-1] == last
    for n in positions:
        r = client.get(f"/games/{game_id}/moves/{n}")
        assert r.status_code == 200 and f"move <b>{n}</b>" in r.get_data(as_text=True)
    early = sum(1 for n in positions if n < CHECKPOINT)
    assert early == 2
    assert len(made) <= 2 + early  # the replay and the if-ended walk, positions 7 and 14


def test_svg_route_draws_the_same_picture_as_the_cli(client: FlaskClient, text2: str) -> None:
    game_id = stored_id(client, text2)
    r = client.get(f"/games/{game_id}/moves/20.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert r.get_data(as_text=True) == svg.render(parse(json.loads(text2)), 20)
    assert client.get(f"/games/{game_id}/moves/999.svg").status_code == 404
    assert client.get("/games/0123456789abcdef/moves/1.svg").status_code == 404


def test_log_download(client: FlaskClient, text2: str) -> None:
    game_id = stored_id(client, text2)
    r = client.get(f"/games/{game_id}/log.json")
    assert r.status_code == 200 and r.get_data(as_text=True) == text2
    assert "attachment" in r.headers["Content-Disposition"]
    assert client.get("/games/0123456789abcdef/log.json").status_code == 404


def test_html_errors_are_pages(client: FlaskClient) -> None:
    r = client.get("/games/0123456789abcdef/moves/3")
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert b"404" in r.data and b"Traceback" not in r.data
    r = client.delete("/upload")
    assert r.status_code == 405 and r.mimetype == "text/html"


def test_unexpected_errors_show_no_stack_trace(app: Flask) -> None:
    def boom() -> str:
        raise RuntimeError("secret internals")

    app.add_url_rule("/boom", "boom", boom)
    app.add_url_rule("/api/boom", "api_boom", boom)
    client = app.test_client()
    for path in ("/boom", "/api/boom"):
        r = client.get(path)
        assert r.status_code == 500
        assert b"secret internals" not in r.data and b"Traceback" not in r.data
        assert b"RuntimeError" not in r.data
    assert client.get("/api/boom").get_json()["error"]["code"] == 500


def test_security_headers(client: FlaskClient) -> None:
    r = client.get("/games")
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Content-Type-Options"] == "nosniff"


# --------------------------------------------------------------------------- user strings

def test_player_names_are_escaped_everywhere(client: FlaskClient, log2: dict[str, Any]) -> None:
    log = illegal(log2)
    log["players"][1]["name"] = XSS
    game_id = stored_id(client, json.dumps(log))
    pages = [client.get("/games").get_data(as_text=True),
             client.get(f"/games/{game_id}/moves/3").get_data(as_text=True),
             client.get(f"/games/{game_id}/moves/6").get_data(as_text=True),
             client.get(f"/games/{game_id}/moves/6.svg").get_data(as_text=True)]
    for page in pages:
        assert XSS not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    api = client.get(f"/api/games/{game_id}").get_json()
    assert api["players"][1]["name"] == XSS  # JSON carries the text as it is


def test_game_ids_are_hex() -> None:
    assert GAME_ID.fullmatch("0123456789abcdef")
    assert not GAME_ID.fullmatch("../etc/passwd")


# --------------------------------------------------------------------------- explanations

def test_tie_explained_as_both_score() -> None:
    """G8: tied players all receive the full points."""
    players = parse(generate_log("base", 2, 1)).config.players
    event = Score(phase="play", feature="city", points=10, winners=(0, 1),
                  strengths=((0, 1), (1, 1)), detail="city: 4 tiles × 2 + 1 pennant × 2 = 10",
                  rule="B4", cells=[])
    assert event.tie
    assert event.explain(players) == ("city: 4 tiles × 2 + 1 pennant × 2 = 10; Ada (red) and "
                                      "Ben (blue) tie 1–1, both score 10 (B4)")
    event = event._replace(winners=(1,), strengths=((0, 1), (1, 2)))
    assert not event.tie
    assert event.majority(players) == ("Ben (blue) wins 2–1 and scores 10; Ada (red) scores "
                                       "nothing")
    event = event._replace(winners=(0,), strengths=((0, 1),))
    assert event.majority(players) == "Ada (red) scores 10"


def test_every_event_type_is_explained() -> None:
    players = parse(generate_log("base", 2, 1)).config.players
    assert Discard(player=0, tile="X", rule="G5", words="a crossroads of four roads").explain(
        players).startswith("the tile drawn (a crossroads of four roads) fits nowhere")
    assert GameEnd(scores=(3, 3), winners=(0, 1)).explain(
        players) == "game over: Ada 3, Ben 3; Ada (red) and Ben (blue) win"
    assert FigureReturned(player=1, kind="follower", x=0, y=1, location="N",
                          feature_id=3).explain(players).startswith("Ben (blue)'s follower")
    assert BonusTile(player=0, tile="HG-80", rule="HG7", feature_id=5, words="a lake").explain(
        players) == "Ada (red) completed a forest with gold and draws a bonus tile: a lake (HG7)"


@pytest.mark.parametrize("args", [("base", 4, 3, ()),
                                  ("base", 3, 5, ("inns-cathedrals", "hills-sheep")),
                                  ("hunters-gatherers", 3, 2, ())])
def test_score_chart_is_the_sum_of_score_events(args: tuple[Any, ...]) -> None:
    """G12: the scores after each move are the sum of the score events so far."""
    parsed = parse(generate_log(*args))
    summary = summarise(parsed, parsed.playback)
    for n in range(0, summary.last + 1, 7):
        assert list(summary.scores[n]) == play_through(parsed, upto=n).state.scores
    assert list(summary.scores[-1]) == play_through(parsed).state.scores


def test_upload_form_takes_a_large_pasted_log(client: FlaskClient, text2: str) -> None:
    """Pasted logs above Werkzeug's default 500 kB form-field limit, up to the 5 MB limit."""
    r = client.post("/upload", data={"log": text2 + " " * 700_000})
    assert r.status_code == 303


@pytest.mark.parametrize("args", [("base", 3, 5, ("inns-cathedrals", "hills-sheep")),
                                  ("hunters-gatherers", 3, 2, ())])
def test_viewer_for_every_game_family(client: FlaskClient, args: tuple[Any, ...]) -> None:
    log = generate_log(*args)
    game_id = stored_id(client, dumps(log))
    last = len(log["moves"])
    for n in (0, last // 2, last):
        page = client.get(f"/games/{game_id}/moves/{n}")
        assert page.status_code == 200
        assert client.get(f"/games/{game_id}/moves/{n}.svg").status_code == 200
    supply = client.get(f"/api/games/{game_id}/moves/0").get_json()["players"][0]["supply"]
    if args[0] == "hunters-gatherers":
        assert supply == {"follower": 5, "hut": 2}  # HG1
    else:
        assert supply == {"follower": 7, "large-follower": 1, "shepherd": 1}  # B1, IC1, HS1
