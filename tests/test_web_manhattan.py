"""The web app with a game that lays no tiles: Manhattan logs uploaded, every position opened
(page, JSON, SVG), the move list told by the family (``Family.describe_move``), the round
scoring explained, broken logs shown as failures (never a 500) and names escaped."""

from __future__ import annotations

import copy
import html
import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from replay.core.events import Score
from replay.core.record import parse
from replay.core.view import view_of
from replay.games.manhattan import Build, Choose, Discard, ManhattanState
from replay.games.manhattan.words import describe_move
from replay.generate import dumps, generate_log
from web.games import summarise

XSS = "<script>alert(1)</script>"
GAME = "manhattan"


@pytest.fixture(scope="module")
def log3() -> dict[str, Any]:
    return generate_log(GAME, 3, 5)


def stored(client: FlaskClient, log: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/api/games", data=dumps(log), content_type="application/json")
    assert r.status_code in (200, 201), r.get_json()
    body: dict[str, Any] = r.get_json()
    return body


def text_of(page: str) -> str:
    """A page's text with its tags dropped and its entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def move_entry(page: str, n: int) -> str:
    """The text of entry ``n`` of the move list of a viewer page."""
    found = re.search(rf'<a href="[^"]+" data-move="{n}" class="move[^"]*"[^>]*>(.*?)</a>', page,
                      re.S)
    assert found, n
    return text_of(found.group(1))


def hand_before(log: dict[str, Any], index: int) -> tuple[int, list[int]]:
    """The seat to play move ``index`` of ``log`` and the cards it holds then."""
    record = parse(log)
    state = record.new_state()
    for move in record.moves[:index]:
        state.apply(move)
    assert isinstance(state, ManhattanState) and state.current_player is not None
    return state.current_player, list(state.hands[state.current_player])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_manhattan_game_uploads_and_opens(client: FlaskClient, players: int) -> None:
    log = generate_log(GAME, players, players)
    body = stored(client, log)
    assert body["new"] is True and body["verdict"]["valid"] and body["finished"]
    last = len(log["moves"])
    assert body["last_move"] == body["open_at"] == last
    page = client.get(f"/games/{body['id']}/moves/{last}")
    assert page.status_code == 200
    text = text_of(page.get_data(as_text=True))
    assert "Manhattan replay" in text and "Carcassonne" not in text
    assert f"Round {4 if players == 4 else 6} of {4 if players == 4 else 6}" in text
    assert "game over" in text and "Tiles left" not in text and "next tile" not in text
    final = client.get(f"/api/games/{body['id']}/moves/{last}").get_json()
    assert final["scores"] == log["claims"]["final_scores"]
    assert final["finished"] is True and final["tiles_left"] is None
    assert final["status"]["phase"] == "over" and final["status"]["round"] == final[
        "status"]["rounds"]
    for name, score in log["claims"]["final_scores"].items():
        assert f"{name} {score}" in text  # the result line
    library = text_of(client.get("/games").get_data(as_text=True))
    assert "Manhattan" in library and "valid" in library


def test_every_position_of_a_game(client: FlaskClient, log3: dict[str, Any]) -> None:
    """Page, JSON and SVG of every position: 200 and what the position is; the move list
    and the JSON tell each move as the family does."""
    game_id = stored(client, log3)["id"]
    record = parse(log3)
    summary = summarise(record, record.playback)
    names = [p["name"] for p in log3["players"]]
    family = record.family
    last = len(log3["moves"])
    assert summary.last == last
    for n in range(last + 1):
        r = client.get(f"/games/{game_id}/moves/{n}")
        assert r.status_code == 200, n
        page = r.get_data(as_text=True)
        assert f"move <b>{n}</b> / {last}" in page and 'class="manhattan-board"' in page
        state = client.get(f"/api/games/{game_id}/moves/{n}").get_json()
        assert state["move"] == n and state["failure"] is None
        assert state["scores"] == dict(zip(names, record.playback.scores[n - 1] if n else
                                           [0] * len(names), strict=True))
        assert {"round", "rounds", "phase", "pile"} <= set(state["status"])
        svg = client.get(f"/games/{game_id}/moves/{n}.svg")
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        if n == 0:
            assert state["played"] is None
            assert "The game is set up: nobody has moved yet." in page
            assert "start tile" not in page
            continue
        told = view_of(family).describe_move(record.moves[n - 1],
                                             record.playback.events[n - 1],
                                             record.playback.state)
        m = summary.moves[n - 1]
        assert (m.text, m.codes) == (told.text, told.codes)
        assert state["played"]["text"] == told.text and state["played"]["codes"] == told.codes
        assert state["played"]["player"] == names[m.player]
        assert move_entry(page, n).startswith(f"{n}{names[m.player]} · {told.text}")
        assert f'title="{html.escape(told.codes)}"' in page
    assert state["scores"] == log3["claims"]["final_scores"]


def test_the_move_list_tells_chooses_and_builds(log3: dict[str, Any]) -> None:
    record = parse(log3)
    summary = summarise(record, record.playback)
    moves = summary.moves
    assert [m.player for m in moves[:3]] == [0, 1, 2]  # the seats choose in turn (M4)
    assert re.fullmatch(r"chooses blue [1-4](,[1-4]){3} for round 1", moves[0].text)
    assert moves[0].codes.startswith("choose blue ")
    builds = [m for m, move in zip(moves, record.moves, strict=True) if isinstance(move, Build)]
    assert builds
    pattern = re.compile(r"(blue|black|red) [1-4]-storey piece on the [a-z-]+ lot of "
                         r"[\w ãé]+ \(card [0-8]\)(, now \d+ storeys(, taking it from \w+)?)?"
                         r"( · the draw pile is reshuffled)?( · the round is scored)?")
    for m in builds:
        assert pattern.fullmatch(m.text), m.text
        assert re.fullmatch(r"card [0-8] → [\w ãé]+ (NW|N|NE|W|C|E|SW|S|SE), \w+ [1-4]"
                            r"(; draw [0-8])?", m.codes), m.codes
    scored = [m for m in moves if sum(m.points)]
    assert len(scored) == 6 and all(m.text.endswith("the round is scored") for m in scored)
    assert any("taking it from" in m.text for m in builds)


def test_words_of_each_kind_of_move(log3: dict[str, Any]) -> None:
    """The texts of the brief, including a discard and illegal moves (no events)."""
    record = parse(log3)
    state = record.new_state()
    assert isinstance(state, ManhattanState)
    discard = describe_move(Discard(4, 7), [], state)
    assert (discard.text, discard.codes) == ("discards card 4 (no legal build)",
                                            "discard 4; draw 7")
    assert describe_move(Discard(4), None, state).text == "discards card 4"
    choose = describe_move(Choose((("blue", 1), ("blue", 1), ("blue", 2))), None, state)
    assert (choose.text, choose.codes) == ("chooses blue 1,1,2", "choose blue 1,1,2")
    # an illegal build: the lot read from the side of the player to move (seat 0, south)
    build = describe_move(Build(0, "Sydney", 2), None, state)
    assert build.text == "blue 2-storey piece on the north-west lot of Sydney (card 0)"
    assert build.codes == "card 0 → Sydney NW, blue 2"
    odd = describe_move(Build(12, "Atlantis", 9, "pink", 3), None, state)
    assert odd.text == "pink 9-storey piece on a lot of Atlantis (card 12)"
    assert odd.codes == "card 12 → Atlantis, pink 9; draw 3"


def test_a_round_end_lists_its_scoring(client: FlaskClient, log3: dict[str, Any]) -> None:
    game_id = stored(client, log3)["id"]
    record = parse(log3)
    players = record.config.players
    rounds = [k + 1 for k, events in enumerate(record.playback.events)
              if any(isinstance(e, Score) for e in events)]
    assert len(rounds) == 6
    for n in rounds:
        events = record.playback.events[n - 1]
        page = client.get(f"/games/{game_id}/moves/{n}").get_data(as_text=True)
        lines = [text_of(x) for x in re.findall(
            r'<li class="ev ev-score[^"]*" data-ev="\d+"[^>]*>(.*?)</li>', page, re.S)]
        scores = [e for e in events if isinstance(e, Score) and e.points]
        assert len(lines) == len(scores) >= 3
        assert any("the tallest building" in x or "share the greatest height" in x
                   for x in lines)
        assert any("buildings owned" in x for x in lines)
        assert any(re.search(r"owns \d+ buildings?, 1 point each", x) for x in lines)
        for line, e in zip(lines, scores, strict=True):
            assert line.endswith(e.explain(players)), (line, e.explain(players))
            assert line.count("nobody scores") <= 1, line
            if not e.winners:
                assert line.endswith("nobody scores (M10)"), line
            else:
                assert line.startswith(f"+{e.points}"), line  # the chip
        # every explained score has its group on the board, linked by data-ev
        for i, e in enumerate(events):
            if isinstance(e, Score) and e.points:
                assert f'<g class="hl hl-{e.phase}" data-ev="{i}"' in page
                assert re.search(rf'<g class="popup[^"]*" data-ev="{i}"', page)
        api = client.get(f"/api/games/{game_id}/moves/{n}").get_json()
        assert [x for x in api["explanations"] if "building" in x or "owned" in x]


def test_ties_read_once() -> None:
    """M10: a tie says once that nobody scores."""
    for seed in range(1, 8):
        record = parse(generate_log(GAME, 4, seed))
        ties = [e for events in record.playback.events for e in events
                if isinstance(e, Score) and not e.winners]
        if ties:
            text = ties[0].explain(record.config.players)
            assert text.count("nobody scores") == 1 and text.endswith("(M10)")
            return
    pytest.fail("no tie in seven games")


def broken(log: dict[str, Any], index: int) -> tuple[dict[str, Any], int]:
    """``log`` with move ``index`` (a build) playing a card its player does not hold: M3."""
    bad = copy.deepcopy(log)
    bad.pop("claims", None)
    move = bad["moves"][index]
    assert "card" in move, move
    _, hand = hand_before(log, index)
    move["card"] = next(c for c in range(9) if c not in hand)
    return bad, move["card"]


def test_a_broken_log_shows_its_failure(client: FlaskClient, log3: dict[str, Any]) -> None:
    index = next(i for i, m in enumerate(log3["moves"]) if i > 10 and "card" in m)
    bad, card = broken(log3, index)
    seat, _ = hand_before(log3, index)
    name = log3["players"][seat]["name"]
    body = stored(client, bad)
    assert body["verdict"] == {"valid": False, "verdict": "invalid", "finished": False,
                               "rule": "M3", "move": index + 1, "entry": f"/moves/{index}",
                               "player": name, "message": body["verdict"]["message"],
                               "report_version": 2}
    assert f"holds no card {card}" in body["verdict"]["message"]
    assert body["open_at"] == body["last_move"] == index + 1
    r = client.get(f"/games/{body['id']}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/moves/{index + 1}")
    page = client.get(f"/games/{body['id']}/moves/{index + 1}")
    assert page.status_code == 200
    text = text_of(page.get_data(as_text=True))
    assert f"Move {index + 1} ({name}) is illegal." in text and "Rule M3" in text
    assert f"Stopped at move {index + 1}" in text
    assert "The illegal move was not played" in text and "tile" not in text.lower()
    entry = move_entry(page.get_data(as_text=True), index + 1)
    assert f"(card {card})" in entry and entry.endswith("illegal")
    state = client.get(f"/api/games/{body['id']}/moves/{index + 1}").get_json()
    assert state["failure"]["rule"] == "M3" and state["failure"]["move"] == index + 1
    assert state["played"]["illegal"] is True and f"(card {card})" in state["played"]["text"]
    svg = client.get(f"/games/{body['id']}/moves/{index + 1}.svg").get_data(as_text=True)
    assert 'class="failed"' in svg and "M3" in svg
    assert client.get(f"/games/{body['id']}/moves/{index + 2}").status_code == 404
    # through the upload form too: stored, then shown at the failing move
    r = client.post("/upload", data={"log": json.dumps(bad) + " "})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/moves/{index + 1}")
    assert client.get(r.headers["Location"]).status_code == 200


@pytest.mark.parametrize("change", ["choose-too-many", "five-players", "colour", "discard"])
def test_other_broken_logs_are_never_a_500(client: FlaskClient, log3: dict[str, Any],
                                           change: str) -> None:
    bad = copy.deepcopy(log3)
    bad.pop("claims", None)
    rule = {"choose-too-many": "M4", "five-players": "M1", "colour": "M1", "discard": "M5"}
    if change == "choose-too-many":
        bad["moves"][0]["choose"]["blue"].append(1)
    elif change == "five-players":
        bad["players"] += [{"name": "Dan", "colour": "green"}, {"name": "Eve", "colour": "grey"}]
    elif change == "colour":
        bad["players"][0]["colour"] = "yellow"  # the first-player marker's (M1)
    else:
        index = next(i for i, m in enumerate(bad["moves"]) if "card" in m)
        bad["moves"][index] = {"discard": bad["moves"][index]["card"]}
    r = client.post("/api/games", data=json.dumps(bad), content_type="application/json")
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["verdict"]["valid"] is False and body["verdict"]["rule"] == rule[change]
    for n in range(body["open_at"] + 1):
        page = client.get(f"/games/{body['id']}/moves/{n}")
        assert page.status_code == 200
        assert client.get(f"/api/games/{body['id']}/moves/{n}").status_code == 200
        assert rule[change] in page.get_data(as_text=True)
    assert client.get("/games").status_code == 200


def test_player_names_are_escaped(client: FlaskClient, log3: dict[str, Any]) -> None:
    index = next(i for i, m in enumerate(log3["moves"]) if i > 10 and "card" in m)
    bad, _ = broken(log3, index)
    bad["players"][1]["name"] = XSS
    game_id = stored(client, bad)["id"]
    pages = [client.get("/games").get_data(as_text=True),
             client.get(f"/games/{game_id}/moves/3").get_data(as_text=True),
             client.get(f"/games/{game_id}/moves/{index + 1}").get_data(as_text=True),
             client.get(f"/games/{game_id}/moves/{index + 1}.svg").get_data(as_text=True),
             client.get(f"/games/{game_id}/moves/5.svg").get_data(as_text=True)]
    for page in pages:  # (the board's panel shortens long names: "&lt;script&gt;alert(1)…")
        assert XSS not in page
        assert "&lt;script&gt;alert(1)" in page
    api = client.get(f"/api/games/{game_id}/moves/2").get_json()
    assert api["played"]["player"] == XSS  # JSON carries the text as it is


def test_the_json_status_of_a_tile_game(client: FlaskClient) -> None:
    """The generic ``status`` is the family's: a tile game's has its tiles."""
    log = generate_log("base", 2, 1)
    game_id = stored(client, log)["id"]
    state = client.get(f"/api/games/{game_id}/moves/5").get_json()
    assert state["status"]["tiles_left"] == state["tiles_left"]
    assert state["status"]["next_tile"] == state["next_tile"]
    assert state["played"]["text"] and state["played"]["codes"].startswith(
        log["moves"][4]["tile"] + " ")
    page = client.get(f"/games/{game_id}/moves/0").get_data(as_text=True)
    assert "The start tile is on the table." in page and "Carcassonne replay" in page


def test_a_family_without_words_tells_its_moves_as_the_log_does(log3: dict[str, Any]) -> None:
    """``Family.describe_move`` by default: the move as the log records it."""
    from replay.core.family import Family

    record = parse(log3)
    told = Family.describe_move(record.family, record.moves[0], None, record.new_state())
    assert json.loads(told.text) == log3["moves"][0] and told.codes == told.text
