"""Issue 36 item 5, one route one job: every page of a position answers a position it lacks
with the 404 page and its message, asked explicitly (no ``IndexError`` caught in web/: the
shape test is in ``tests/test_code_shape.py``)."""

from __future__ import annotations

import json
from html import unescape
from typing import Any

import pytest

from replay.generate import generate_log
from web.errors import MESSAGES


@pytest.fixture(scope="module")
def log() -> dict[str, Any]:
    return generate_log("base", 3, 7, ())


def _store(client: Any, log: dict[str, Any]) -> str:
    response = client.post("/api/games", data=json.dumps(log))
    assert response.status_code in (200, 201)
    game_id: str = response.get_json()["id"]
    return game_id


def _token(client: Any, gid: str, n: int) -> str:
    """The token of the first move position ``n`` of the game allows."""
    response = client.get(f"/api/games/{gid}/moves/{n}/choices")
    assert response.status_code == 200
    token: str = response.get_json()["choices"]["options"][0]["token"]
    return token


def _page_404(client: Any, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404, url
    assert MESSAGES[404] in unescape(response.get_data(as_text=True)), url


def test_positions_a_game_lacks_are_the_404_page(client: Any, log: dict[str, Any]) -> None:
    gid = _store(client, log)
    last = len(log["moves"])
    assert client.get(f"/games/{gid}/moves/{last}").status_code == 200
    for url in (f"/games/{gid}/moves/{last + 1}", f"/games/{gid}/moves/{last + 1}?explore=1",
                f"/games/{gid}/moves/{last + 1}?explore=1&pick=A",
                f"/games/{gid}/moves/{last + 1}.svg", f"/games/{gid}/moves/99999999"):
        _page_404(client, url)
    response = client.get(f"/api/games/{gid}/moves/{last + 1}")
    assert response.status_code == 404
    assert response.get_json()["error"]["message"] == MESSAGES[404]


def test_positions_a_variation_lacks_are_the_404_page(client: Any,
                                                      log: dict[str, Any]) -> None:
    gid = _store(client, log)
    token = _token(client, gid, 3)
    assert client.get(f"/games/{gid}/variation/3/{token}/moves/4").status_code == 200
    assert client.get(f"/games/{gid}/variation/3/{token}/moves/3").status_code == 200
    _page_404(client, f"/games/{gid}/variation/3/{token}/moves/5")
    _page_404(client, f"/games/{gid}/moves/5?from=3&line={token}")  # a link of before
    assert client.get(f"/games/{gid}/moves/4?from=3&line={token}").status_code == 308


@pytest.mark.parametrize("path", ["moves/-1", "moves/-0", "moves/+1", "moves/1.5",
                                  "moves/-1.svg", "variation/3/{token}/moves/-1",
                                  "variation/-3/{token}/moves/1"])
def test_negative_like_positions_are_the_404_page(client: Any, log: dict[str, Any],
                                                  path: str) -> None:
    gid = _store(client, log)
    _page_404(client, f"/games/{gid}/" + path.format(token=_token(client, gid, 3)))
