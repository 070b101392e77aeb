"""The analysis board: the choices of a position against ``legal_moves()``, variations played
through the pages and the API, saving one as a game, and hostile input to the new endpoints."""

from __future__ import annotations

import base64
import json
import re
from html import unescape
from typing import Any
from urllib.parse import urljoin

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from replay.core.errors import IllegalMove, LogFormatError
from replay.core.explore import (
    MAX_LINE,
    choices,
    explorer_of,
    line_path,
    read_line,
    token,
    variation_log,
)
from replay.core.record import parse
from replay.generate import generate_log

from .hostile import mutated_logs

GAMES = {"base": ("base", 3, 7, ()),
         "base-ic-hs": ("base", 3, 5, ("inns-cathedrals", "hills-sheep")),
         "hunters-gatherers": ("hunters-gatherers", 2, 3, ()),
         "manhattan": ("manhattan", 3, 3, ())}


def _log(name: str) -> dict[str, Any]:
    game, players, seed, expansions = GAMES[name]
    return generate_log(game, players, seed, expansions)


@pytest.fixture(scope="module")
def logs() -> dict[str, dict[str, Any]]:
    return {name: _log(name) for name in GAMES}


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("n", [0, 9, 30])
def test_choices_are_the_legal_moves(logs: dict[str, dict[str, Any]], name: str,
                                     n: int) -> None:
    record = parse(logs[name])
    state = record.playback.position(n).state
    before = state.state_hash
    found = choices(state, explorer_of(record.family), record.moves[n])
    legal = [record.family.encode_move(m) for m in state.legal_moves()]
    assert [o.move for o in found.options] == legal
    assert state.state_hash == before  # exploring changes nothing
    for o in found.options:  # each option's token plays its move
        assert read_line(o.token) == [o.move]
    for r in found.refusals:  # a refused spot has no legal move, and its words are the check's
        assert r.spot not in {o.spot for o in found.options}
        assert r.rule and r.message
    if name != "manhattan" or state.status().get("phase") == "build":
        assert {o.spot for o in found.options} - {""}, "the moves have spots on the board"


def test_a_refusal_is_the_verifiers_words(logs: dict[str, dict[str, Any]]) -> None:
    record = parse(logs["base"])
    state = record.playback.position(9).state
    found = choices(state, explorer_of(record.family), record.moves[9])
    assert found.refusals
    r = found.refusals[0]
    x, y = (int(v) for v in r.spot.split(","))
    with pytest.raises(IllegalMove) as caught:
        state.check(record.family.decode_move({"x": x, "y": y, "rotation": 0}, ""))
    assert (caught.value.rule, caught.value.message) == (r.rule, r.message)


def test_a_table_log_follows_its_draws_or_asks_for_a_pick(
        logs: dict[str, dict[str, Any]]) -> None:
    log = {k: v for k, v in logs["base"].items() if k != "seed"}  # every move names its tile
    record = parse(log)
    state = record.playback.position(4).state
    explorer = explorer_of(record.family)
    found = choices(state, explorer, record.moves[4])
    assert found.draw == record.moves[4].tile and found.options
    assert {o.move["tile"] for o in found.options} == {record.moves[4].tile}
    # the log's tile is gone (played at move 4 in the variation): the user picks
    other = choices(state, explorer, record.moves[2])
    if other.picks:
        assert not other.options and "cannot follow" in other.note
        picked = choices(state, explorer, record.moves[2], pick=other.picks[0][0])
        assert picked.options and picked.draw == other.picks[0][0]


def test_lines_and_paths() -> None:
    moves = [{"x": 1, "y": 0, "rotation": 90}, {"tile": "é", "x": -1, "y": 2, "rotation": 0}]
    text = ".".join(token(m) for m in moves)
    assert read_line(text) == moves
    assert line_path("/moves/12/figure/at", 10) == "/line/2/figure/at"
    assert line_path("/players/0", 10) == "/players/0"
    log = {"format": "f", "moves": [1, 2, 3], "claims": {}, "end": "x", "meta": {}}
    assert variation_log(log, 2, [9]) == {"format": "f", "moves": [1, 2, 9]}
    for bad, path in [("!!", "/line/0"), (".", "/line/0"), ("e30.", "/line/1"),
                      (base64.urlsafe_b64encode(b"[1]").decode().rstrip("="), "/line/0"),
                      ("e30" + ".e30" * MAX_LINE, "/line")]:
        with pytest.raises(LogFormatError) as caught:
            read_line(bad)
        assert caught.value.path == path


# --------------------------------------------------------------------------- the web


def _store(client: Any, log: dict[str, Any]) -> str:
    response = client.post("/api/games", data=json.dumps(log))
    assert response.status_code in (200, 201)
    game_id: str = response.get_json()["id"]
    return game_id


def _form_action(html: str, url: str) -> str:
    """The try form's action (the page's URL it submits to), resolved as a browser does."""
    found = re.search(r'<form method="get" action="([^"]*)" id="try-form"', html)
    assert found is not None
    return urljoin(url, unescape(found.group(1)))


def test_a_variation_played_by_the_forms(client: Any, logs: dict[str, dict[str, Any]]) -> None:
    gid = _store(client, logs["base"])
    url = f"/games/{gid}/moves/9?explore=1"
    page = client.get(url)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    spots = set(re.findall(r'<g class="spot legal" data-spot="([^"]+)"', html))
    record = parse(logs["base"])
    state = record.playback.position(9).state
    assert spots == {f"{m.x},{m.y}" for m in state.legal_moves()}
    play = re.findall(r'name="play" value="([^"]+)"', html)
    moved = client.get(f"{_form_action(html, url)}?play={play[-1]}")
    assert moved.status_code == 303
    where = moved.headers["Location"]
    assert where == f"/games/{gid}/variation/9/{play[-1]}/moves/10"
    page2 = client.get(where)
    html2 = page2.get_data(as_text=True)
    assert page2.status_code == 200 and 'class="branch"' in html2
    assert html2.count('class="move var') == 1
    # a second move from the variation's page, by its form (a link relative to the page)
    play2 = re.search(r'name="play" value="([^"]+)"', html2)
    assert play2 is not None
    moved2 = client.get(f"{_form_action(html2, where)}?play={play2.group(1)}")
    line = f"{play[-1]}.{play2.group(1)}"
    assert moved2.headers["Location"] == f"/games/{gid}/variation/9/{line}/moves/11"
    # the script goes to the same page directly: the form's head, the token and its tail
    head = re.search(r'data-head="([^"]+)" data-tail="([^"]+)"', html2)
    assert head is not None and head.group(1) + play2.group(1) + head.group(2) == \
        moved2.headers["Location"]
    page3 = client.get(moved2.headers["Location"])
    assert page3.status_code == 200 and page3.get_data(as_text=True).count('move var') == 2
    # the links of before (the line in the query) lead there
    old = client.get(f"/games/{gid}/moves/11?from=9&line={line}")
    assert old.status_code == 308 and old.headers["Location"] == moved2.headers["Location"]
    # saved as a new game: 11 moves, the meta names where it came from
    saved = client.post(f"/games/{gid}/variations", data={"from": "9", "line": line})
    assert saved.status_code == 303
    new_id = saved.headers["Location"].split("/games/")[1].split("/")[0]
    game = client.get(f"/api/games/{new_id}").get_json()
    assert game["moves"] == 11 and game["verdict"]["valid"]
    log = json.loads(client.get(f"/games/{new_id}/log.json").get_data())
    assert log["meta"] == {"variation_of": gid, "from": 9}


@pytest.mark.parametrize("name", list(GAMES))
def test_the_api_plays_a_line(client: Any, logs: dict[str, dict[str, Any]], name: str) -> None:
    gid = _store(client, logs[name])
    got = client.get(f"/api/games/{gid}/moves/6/choices").get_json()["choices"]
    first = got["options"][0]["move"]
    body = client.post(f"/api/games/{gid}/variation", json={"from": 6, "line": [first]})
    assert body.status_code == 200
    out = body.get_json()
    assert out["last"] == 7 and len(out["moves"]) == 1
    assert out["position"]["move"] == 7
    record = parse(logs[name])
    state = record.playback.position(6).state
    state.apply(record.family.decode_move(first, ""))
    assert out["position"]["scores"] == {p.name: s for p, s in
                                         zip(record.config.players, state.scores, strict=True)}
    assert out["choices"]["options"] or out["choices"]["picks"] or state.finished
    saved = client.post(f"/api/games/{gid}/variations", json={"from": 6, "line": [first]})
    assert saved.status_code == 201 and saved.get_json()["verdict"] == "valid"


def test_an_illegal_move_in_a_line_is_told_by_its_rule(client: Any,
                                                       logs: dict[str, dict[str, Any]]) -> None:
    gid = _store(client, logs["base"])
    out = client.post(f"/api/games/{gid}/variation",
                      json={"from": 5, "line": [{"x": 40, "y": 40, "rotation": 0}]})
    assert out.status_code == 422
    error = out.get_json()["error"]
    assert error["rule"] == "G4" and error["path"] == "/line/0" and error["move"] == 6
    page = client.get(f"/games/{gid}/variation/5/{token({'x': 40, 'y': 40, 'rotation': 0})}"
                      "/moves/6")
    assert page.status_code == 200 and "G4" in page.get_data(as_text=True)


HOSTILE: list[tuple[str, Any]] = [
    ("not json", b"{"),
    ("a list", b"[]"),
    ("no from", {"line": []}),
    ("from text", {"from": "3", "line": []}),
    ("from negative", {"from": -1, "line": []}),
    ("from huge", {"from": 10**12, "line": []}),
    ("line not a list", {"from": 0, "line": "x"}),
    ("a move not an object", {"from": 0, "line": [1]}),
    ("a move of another game", {"from": 0, "line": [{"card": 1, "city": "Cairo"}]}),
    ("a long line", {"from": 0, "line": [{"x": 1}] * (MAX_LINE + 1)}),
    ("bad at", {"from": 0, "line": [], "at": 5}),
    ("bad pick", {"from": 0, "line": [], "pick": ["x"]}),
    ("unknown field", {"from": 0, "line": [], "<b>": 1}),
]


@pytest.mark.parametrize("what,body", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_bodies_get_400(client: Any, logs: dict[str, dict[str, Any]], what: str,
                                body: Any) -> None:
    gid = _store(client, logs["base"])
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    for url in (f"/api/games/{gid}/variation", f"/api/games/{gid}/variations"):
        response = client.post(url, data=data)
        assert response.status_code == 400, (what, url, response.get_data())
        error = response.get_json()["error"]
        assert error["message"]
        assert error["path"].startswith("/") or "line 1 column" in error["message"]


@pytest.mark.parametrize("query", [
    "from=x&line=", "from=1&line=!!", "from=1&line=e30", "from=99999&line=",
    "from=1&line=" + "e30." * 300 + "e30", "from=1&line=&play=!!", "from=1&line=&play=e30",
])
def test_hostile_links_get_400(client: Any, logs: dict[str, dict[str, Any]], query: str) -> None:
    gid = _store(client, logs["base"])
    response = client.get(f"/games/{gid}/moves/2?{query}")
    if response.status_code in (303, 308):  # a move is played on the page it leads to
        response = client.get(response.headers["Location"])
    assert response.status_code == 400, query
    assert b"variation" in response.get_data()


def test_positions_beyond_a_variation_are_404(client: Any,
                                               logs: dict[str, dict[str, Any]]) -> None:
    gid = _store(client, logs["base"])
    assert client.get(f"/games/{gid}/moves/9?from=3&line=").status_code == 404
    assert client.get(f"/api/games/{gid}/moves/999/choices").status_code == 404
    assert client.get("/api/games/ffffffffffffffff/moves/1/choices").status_code == 404


@pytest.mark.app_config(ANALYSIS_RATE_LIMIT="3/60")
def test_the_analysis_budget(client: Any, logs: dict[str, dict[str, Any]]) -> None:
    gid = _store(client, logs["base"])
    codes = [client.get(f"/api/games/{gid}/moves/1/choices").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert client.get(f"/games/{gid}/moves/1").status_code == 200  # viewing is not counted


# --------------------------------------------------------------------------- the drill

DRILL = settings(derandomize=True, database=None, deadline=None, max_examples=120,
                 phases=(Phase.explicit, Phase.generate),
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.app_config(ANALYSIS_RATE_LIMIT=None, RATE_LIMIT=None)
@DRILL
@given(data=mutated_logs(), base=st.integers(-2, 40), at=st.one_of(st.none(), st.integers(-1, 60)))
def test_hostile_lines_never_crash(client: Any, logs: dict[str, dict[str, Any]], data: bytes,
                                   base: int, at: int | None) -> None:
    """Mutated logs' moves played as variations of a stored game of each family: a verdict
    (200, or 422 with the rule of the illegal move) or a refusal with its path (400)."""
    try:
        moves = json.loads(data).get("moves")
    except (ValueError, AttributeError):
        moves = None
    if not isinstance(moves, list):
        moves = [data.decode("utf-8", "replace")]
    for name in ("base", "manhattan"):
        gid = _store(client, logs[name])
        body: dict[str, Any] = {"from": base, "line": moves[:12]}
        if at is not None:
            body["at"] = at
        response = client.post(f"/api/games/{gid}/variation", json=body)
        event(f"{name}: {response.status_code}")
        assert response.status_code in (200, 400, 422), response.get_data()[:300]
        error = response.get_json().get("error")
        if response.status_code == 422:
            assert error["rule"] and error["path"].startswith("/line/")
        elif response.status_code == 400:
            assert error["message"] and isinstance(error["path"], str)
        else:
            url = response.get_json()["url"]
            page = client.get(url[url.index("/games/"):])
            assert page.status_code == 200


@pytest.mark.parametrize("name,n,words", [
    ("hunters-gatherers", 15, "then the bonus tile "),  # HG7: a gold forest earns a bonus tile
    ("base-ic-hs", 24, "the flock in the field"),  # HS3: expand or herd the flock
])
def test_a_moves_other_parts_in_words_HG7_HS3(logs: dict[str, dict[str, Any]], name: str,
                                              n: int, words: str) -> None:
    record = parse(logs[name])
    state = record.playback.position(n).state
    found = choices(state, explorer_of(record.family), record.moves[n])
    told = [o.steps[2] for o in found.options if len(o.steps) > 2]
    assert told and all(t.startswith(words) for t in told), told[:3]
    assert not any("{" in t for t in told)  # words, not the log's JSON


def test_a_move_of_no_spot_is_told_once(client: Any, logs: dict[str, dict[str, Any]]) -> None:
    """A move of one step and no spot (Manhattan's choice of pieces for the round) was told
    twice in its menu: its step in bold, then its words again on its button ("take blue
    1,1,1,1 ... for this round" beside "chooses blue 1,1,1,1 and ..."): the button says
    "play it"."""
    game_id = _store(client, logs["manhattan"])
    page = client.get(f"/games/{game_id}/moves/0?explore=1").get_data(as_text=True)
    found = choices(parse(logs["manhattan"]).playback.position(0).state,
                    explorer_of(parse(logs["manhattan"]).family))
    first = found.options[0]
    assert first.spot == "" and len(first.steps) == 1
    buttons = re.findall(r'<button name="play" value="([^"]+)"[^>]*>([^<]*)</button>', page)
    assert len(buttons) == len(found.options)
    assert {text for _, text in buttons} == {"play it"}
    assert page.count(f"<b>{first.steps[0]}</b>") == 1
