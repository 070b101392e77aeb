"""A saved variation says which game it came from (issue 36 item 3): "Variation of <game> from
move N", linked to that game at position N, on its page and in the library, and
``variation_of`` in the API's game JSON; the claim of a log's ``meta`` is checked against the
stored game (``replay.library.provenance``), told by id alone when that game is not stored,
and its link never lands on the original's end while results are hidden."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay.generate import dumps, generate_log
from replay.library.provenance import claim_of
from web.views import SPOILER_COOKIE

HOSTILE = '<b>"Ada"</b> & <script>x</script>'


class Origins(HTMLParser):
    """The text and the links of every ``class="origin"`` element of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[str]]] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += 1
            if tag == "a":
                self.found[-1][1].append(dict(attrs).get("href") or "")
        elif "origin" in (dict(attrs).get("class") or "").split():
            self.depth = 1
            self.found.append(("", []))

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            text, links = self.found[-1]
            self.found[-1] = (text + data, links)


def origins(html: str) -> list[tuple[str, list[str]]]:
    parser = Origins()
    parser.feed(html)
    return [(" ".join(text.split()), links) for text, links in parser.found]


@pytest.fixture(scope="module")
def log() -> dict[str, Any]:
    """A game of two, the first player named in markup."""
    value = generate_log("base", 2, 1)
    old = value["players"][0]["name"]
    value["players"][0]["name"] = HOSTILE
    claims = value["claims"]
    claims["final_scores"] = {HOSTILE if k == old else k: v
                              for k, v in claims["final_scores"].items()}
    claims["winners"] = [HOSTILE if w == old else w for w in claims["winners"]]
    return value


def _store(client: FlaskClient, log: dict[str, Any]) -> str:
    r = client.post("/api/games", data=dumps(log), content_type="application/json")
    assert r.status_code in (200, 201), r.get_json()
    game_id: str = r.get_json()["id"]
    return game_id


def _first_move(client: FlaskClient, gid: str, n: int) -> Any:
    got = client.get(f"/api/games/{gid}/moves/{n}/choices").get_json()["choices"]
    return got["options"][0]["move"]


def _save_by_form(client: FlaskClient, gid: str, n: int) -> str:
    page = client.get(f"/games/{gid}/moves/{n}?explore=1").get_data(as_text=True)
    token = re.findall(r'name="play" value="([^"]+)"', page)[0]
    saved = client.post(f"/games/{gid}/variations", data={"from": str(n), "line": token})
    assert saved.status_code == 303
    return saved.headers["Location"].split("/games/")[1].split("/")[0]


def _save_by_api(client: FlaskClient, gid: str, n: int) -> str:
    saved = client.post(f"/api/games/{gid}/variations",
                        json={"from": n, "line": [_first_move(client, gid, n)]})
    assert saved.status_code == 201, saved.get_json()
    new: str = saved.get_json()["id"]
    return new


def _created(client: FlaskClient, gid: str) -> str:
    created: str = client.get(f"/api/games/{gid}").get_json()["created"]
    return created[:16].replace("T", " ")


@pytest.mark.parametrize("save", [_save_by_form, _save_by_api])
def test_a_saved_variation_names_its_game_on_its_page_in_the_library_and_the_api(
        client: FlaskClient, log: dict[str, Any],
        save: Callable[[FlaskClient, str, int], str]) -> None:
    gid = _store(client, log)
    new = save(client, gid, 9)
    said = f"Variation of {HOSTILE} · Ben, Carcassonne, {_created(client, gid)} from move 9"
    page = client.get(f"/games/{new}/moves/10")
    html = page.get_data(as_text=True)
    assert origins(html) == [(said, [f"/games/{gid}/moves/9"])]
    assert "<script>x" not in html and "&lt;script&gt;x" in html
    # the original itself is no variation
    assert origins(client.get(f"/games/{gid}/moves/9").get_data(as_text=True)) == []
    library = client.get("/games").get_data(as_text=True)
    assert origins(library) == [("v" + said[1:], [f"/games/{gid}/moves/9"])]
    assert "<script>x" not in library
    # the link opens the original at the branch
    assert client.get(f"/games/{gid}/moves/9").status_code == 200
    game = client.get(f"/api/games/{new}").get_json()
    assert game["variation_of"] == {"id": gid, "from": 9,
                                    "url": f"http://localhost/games/{gid}/moves/9"}
    assert "variation_of" not in client.get(f"/api/games/{gid}").get_json()
    listed = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert listed[new]["variation_of"] == game["variation_of"]
    assert "variation_of" not in listed[gid]


def test_a_variation_of_a_game_not_stored_here_says_its_id_without_a_link(
        client: FlaskClient, make_app: Callable[..., Flask], tmp_path: Path,
        log: dict[str, Any]) -> None:
    gid = _store(client, log)
    new = _save_by_api(client, gid, 4)
    moved_log = json.loads(client.get(f"/games/{new}/log.json").get_data())
    moved_log["meta"].update({f"note{i}": "x" * 900 for i in range(6)})  # too large to note
    text = dumps(moved_log).encode()
    other = make_app(DATABASE=str(tmp_path / "other.db")).test_client()
    moved = other.post("/api/games", data=text, content_type="application/json")
    assert moved.status_code == 201, moved.get_json()
    new = moved.get_json()["id"]
    assert moved.get_json()["sources"][0]["meta"] is None  # noted by its size alone
    said = f"Variation of game {gid[:8]} (not in this library) from move 4"
    assert origins(other.get(f"/games/{new}/moves/5").get_data(as_text=True)) == [(said, [])]
    assert origins(other.get("/games").get_data(as_text=True)) == [("v" + said[1:], [])]
    assert other.get(f"/api/games/{new}").get_json()["variation_of"] == {"id": gid, "from": 4}


def test_a_claim_the_stored_game_belies_is_not_told(client: FlaskClient,
                                                    log: dict[str, Any]) -> None:
    gid = _store(client, log)
    forged = generate_log("base", 2, 2)  # another game: its header and moves differ
    forged["meta"] = {"variation_of": gid, "from": 3}
    fid = _store(client, forged)
    itself = dict(log, meta={"variation_of": gid, "from": 3})  # the game itself
    assert _store(client, itself) == gid
    prefix = dict(log, moves=log["moves"][:20], meta={"variation_of": gid, "from": 30})
    del prefix["claims"]  # its own first 20 moves, but claimed from a move it never reached
    pid = _store(client, prefix)
    for game in (gid, fid, pid):
        assert origins(client.get(f"/games/{game}/moves/1").get_data(as_text=True)) == []
        assert "variation_of" not in client.get(f"/api/games/{game}").get_json()
    assert origins(client.get("/games").get_data(as_text=True)) == []


def test_while_results_are_hidden_the_link_never_opens_the_originals_end(
        client: FlaskClient, log: dict[str, Any]) -> None:
    unfinished = dict(log, moves=log["moves"][:12])
    del unfinished["claims"]
    gid = _store(client, unfinished)
    at_end, middle = _save_by_api(client, gid, 12), _save_by_api(client, gid, 5)
    client.set_cookie(SPOILER_COOKIE, "1")
    links = {o[0]: o[1] for o in origins(client.get("/games").get_data(as_text=True))}
    assert sorted(links.values()) == [[f"/games/{gid}"], [f"/games/{gid}/moves/5"]]
    assert origins(client.get(f"/games/{at_end}/moves/0").get_data(as_text=True))[0][1] == \
        [f"/games/{gid}"]
    assert client.get(f"/games/{gid}").headers["Location"] == f"/games/{gid}/moves/0"
    assert origins(client.get(f"/games/{middle}/moves/0").get_data(as_text=True))[0][1] == \
        [f"/games/{gid}/moves/5"]
    client.set_cookie(SPOILER_COOKIE, "0")
    assert origins(client.get(f"/games/{at_end}/moves/0").get_data(as_text=True))[0][1] == \
        [f"/games/{gid}/moves/12"]
    assert "Cookie" in client.get("/games").headers["Vary"]


@pytest.mark.parametrize("meta", [
    None, [], {}, {"variation_of": "abc", "from": 1}, {"variation_of": "A" * 16, "from": 1},
    {"variation_of": "a" * 16, "from": True}, {"variation_of": "a" * 16, "from": -1},
    {"variation_of": "a" * 16, "from": 1.0}, {"variation_of": "a" * 16, "from": 10**6},
    {"variation_of": ["a" * 16], "from": 1}, {"variation_of": "a" * 17, "from": 1},
])
def test_a_claim_in_any_other_shape_is_none(meta: Any) -> None:
    assert claim_of(meta) is None
    assert claim_of({"variation_of": "a" * 16, "from": 0}) == ("a" * 16, 0)
    assert claim_of(json.loads(json.dumps({"variation_of": "b" * 64, "from": 7}))) == \
        ("b" * 64, 7)
