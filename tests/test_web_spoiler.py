"""Spoiler-free viewing on the server's side (issue 36 item 4): the "hide results" switch is
mirrored by ``web/static/spoiler.js`` in the cookie ``cr-spoiler``; with it, a game opens at its
start, and the chart of a position before the last tells nothing of the moves to come (its
points axis runs to the scores reached so far). The page's own hiding is the browser's:
``tests/browser/test_spoiler_moves.py``."""

from __future__ import annotations

import io
import re
from html import unescape
from typing import Any
from urllib.parse import urljoin

import pytest
from flask.testing import FlaskClient

from replay.generate import dumps, generate_log
from web.views import SPOILER_COOKIE


@pytest.fixture(scope="module")
def log2() -> dict[str, Any]:
    return generate_log("base", 2, 1)


def _store(client: FlaskClient, log: dict[str, Any]) -> str:
    r = client.post("/api/games", data=dumps(log), content_type="application/json")
    assert r.status_code == 201, r.get_json()
    game_id: str = r.get_json()["id"]
    return game_id


def _hide(client: FlaskClient, on: bool = True) -> None:
    client.set_cookie(SPOILER_COOKIE, "1" if on else "0")


def test_a_game_opens_at_its_last_move_or_at_its_start_while_results_are_hidden(
        client: FlaskClient, log2: dict[str, Any]) -> None:
    gid = _store(client, log2)
    last = len(log2["moves"])
    r = client.get(f"/games/{gid}")
    assert r.headers["Location"] == f"/games/{gid}/moves/{last}"
    assert "Cookie" in r.headers["Vary"]
    _hide(client, False)  # the switch turned off again
    assert client.get(f"/games/{gid}").headers["Location"].endswith(f"/moves/{last}")
    _hide(client)
    r = client.get(f"/games/{gid}")
    assert r.status_code == 302 and r.headers["Location"] == f"/games/{gid}/moves/0"
    assert "Cookie" in r.headers["Vary"]


def test_an_upload_opens_at_the_start_while_results_are_hidden(
        client: FlaskClient, log2: dict[str, Any]) -> None:
    _hide(client)
    r = client.post("/upload", data={"log": dumps(log2)})
    assert r.status_code == 303 and r.headers["Location"].endswith("/moves/0")
    # several files: each verdict links to the game, which opens where the visitor wants
    other = generate_log("base", 2, 2)
    files = [(io.BytesIO(dumps(x).encode()), f"{i}.json") for i, x in enumerate((log2, other))]
    page = client.post("/upload", data={"file": files}, content_type="multipart/form-data")
    links = re.findall(r'<a class="fname" href="([^"]+)"', page.get_data(as_text=True))
    assert len(links) == 2 and all(re.fullmatch(r"/games/[\w-]+", x) for x in links), links
    assert client.get(links[1]).headers["Location"].endswith("/moves/0")


AXIS = re.compile(r'<text x="[\d.]+" y="[\d.]+" class="axis" text-anchor="end">(\d+)</text>')


def _chart(html: str) -> str:
    found = re.search(r'<svg [^>]*class="chart[^"]*".*?</svg>', html, re.S)
    assert found is not None
    return found.group(0)


def _scores(client: FlaskClient, gid: str, n: int) -> list[int]:
    body = client.get(f"/api/games/{gid}/moves/{n}").get_json()
    return [p["score"] for p in body["players"]] + [p["if_ended_now"] for p in body["players"]]


def test_the_chart_tells_nothing_of_the_moves_to_come_while_results_are_hidden(
        client: FlaskClient, log2: dict[str, Any]) -> None:
    gid = _store(client, log2)
    last = len(log2["moves"])
    page = client.get(f"/games/{gid}/moves/3")
    assert "Cookie" in page.headers["Vary"]  # the page is drawn for the cookie
    full = _chart(page.get_data(as_text=True))
    assert 'class="chart"' in full
    full_top = max(int(v) for v in AXIS.findall(full))
    _hide(client)
    for n in (0, 3, last // 2, last - 1):
        safe = _chart(client.get(f"/games/{gid}/moves/{n}").get_data(as_text=True))
        assert 'class="chart safe"' in safe
        reached = max([1, *(s for k in range(n + 1) for s in _scores(client, gid, k))])
        ticks = sorted(int(v) for v in AXIS.findall(safe))
        # the axis runs to the first round value over the scores so far, not the game's
        assert ticks[-1] >= reached and (len(ticks) < 2 or ticks[-2] < reached), (n, ticks)
        lines = re.findall(r'<polyline points="([^"]+)"', safe)
        assert lines and all(len(p.split()) == n + 1 for p in lines)  # none past the cursor
        tips = re.findall(r"<title>move (\d+): ([^<]*)</title>", safe)
        assert len(tips) == last + 1
        assert all((t == "not reached yet") == (int(k) > n) for k, t in tips)
    early = _chart(client.get(f"/games/{gid}/moves/3").get_data(as_text=True))
    assert max(int(v) for v in AXIS.findall(early)) < full_top  # the game's final maximum
    # at the last move, the whole chart: it is the one of a visitor who does not hide
    end = _chart(client.get(f"/games/{gid}/moves/{last}").get_data(as_text=True))
    _hide(client, False)
    assert end == _chart(client.get(f"/games/{gid}/moves/{last}").get_data(as_text=True))
    assert 'class="chart"' in end


def test_an_illegal_move_to_come_is_not_marked_on_the_chart(client: FlaskClient,
                                                            log2: dict[str, Any]) -> None:
    bad = {**log2, "moves": [dict(m) for m in log2["moves"]]}
    bad["moves"][8].update({"x": 0, "y": 0})  # on the start tile's cell
    bad.pop("claims", None)
    gid = _store(client, bad)
    _hide(client)
    assert 'class="fail"' not in _chart(client.get(f"/games/{gid}/moves/4").get_data(
        as_text=True))
    assert 'class="fail"' in _chart(client.get(f"/games/{gid}/moves/9").get_data(
        as_text=True))


def test_a_variations_last_move_is_not_the_games_end(client: FlaskClient,
                                                      log2: dict[str, Any]) -> None:
    """The page's "data-end" (where spoiler.js shows the result) is the game's last move only:
    a variation's end, however far, is no end of the game."""
    gid = _store(client, log2)
    url = f"/games/{gid}/moves/4?explore=1"
    html = client.get(url).get_data(as_text=True)
    play = re.findall(r'name="play" value="([^"]+)"', html)
    form = re.search(r'<form method="get" action="([^"]*)" id="try-form"', html)
    assert play and form is not None
    where = client.get(f"{urljoin(url, unescape(form.group(1)))}?play={play[0]}")
    page = client.get(where.headers["Location"]).get_data(as_text=True)
    head = re.search(r'<div class="viewer" id="viewer"[^>]*>', page)
    assert head is not None and 'data-move="5" data-last="5"' in head.group(0)
    assert "data-end" not in head.group(0) and "data-variation" in head.group(0)
    last = len(log2["moves"])
    end = client.get(f"/games/{gid}/moves/{last}").get_data(as_text=True)
    assert re.search(r'<div class="viewer" id="viewer"[^>]* data-end>', end)
