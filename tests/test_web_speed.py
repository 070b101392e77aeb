"""The viewer's costs kept down (issue 35, item 15): what every page of a game shows alike (its
chart) is drawn once per game, a game kept in memory is served without opening the library,
and an explored position's choices are kept (a bounded number of positions), so that its next
views skip listing every legal move."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay.generate import generate_log
from web import db as store
from web import variations, viewer
from web.games import Entry

pytestmark = pytest.mark.app_config(ANALYSIS_RATE_LIMIT=None)


@pytest.fixture(scope="module")
def log() -> dict[str, Any]:
    return generate_log("base", 3, 7)


def _store(client: FlaskClient, log: dict[str, Any]) -> str:
    response = client.post("/api/games", data=json.dumps(log))
    assert response.status_code in (200, 201)
    game_id: str = response.get_json()["id"]
    return game_id


def _chart(html: str) -> str:
    found = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" class="chart".*?</svg>', html)
    assert found is not None
    return found.group(0)


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """Count the calls of ``owner.name`` (its arguments, the first left out), which still
    does its work."""
    calls: list[Any] = []
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1:])
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_the_chart_is_drawn_once_a_game(app: Flask, client: FlaskClient,
                                        log: dict[str, Any],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    gid = _store(client, log)
    last = len(log["moves"])
    drawn = _counting(monkeypatch, viewer, "_chart_parts")
    pages = {n: client.get(f"/games/{gid}/moves/{n}").get_data(as_text=True)
             for n in (0, 9, last, 9)}
    assert len(drawn) == 1
    explored = client.get(f"/games/{gid}/moves/9?explore=1").get_data(as_text=True)
    assert len(drawn) == 2  # its links keep exploring: a chart of its own
    with app.app_context():
        row = store.find(store.get_db(), gid)
    assert row is not None
    base = f"/games/{gid}/moves/"
    cursors = []
    for n, html in pages.items():
        # the kept chart with this page's cursor is the chart drawn afresh for this page
        assert _chart(html) == viewer.chart(Entry(row), n, base)
        cursor = re.search(r'<line class="cursor" x1="([\d.]+)"', html)
        assert cursor is not None
        cursors.append(float(cursor.group(1)))
    assert cursors == sorted(cursors) and len(set(cursors)) == 3
    assert f'href="{base}8?explore=1"' in _chart(explored)
    plain = client.get(f"/games/{gid}/moves/8").get_data(as_text=True)
    assert f'href="{base}8"' in _chart(plain) and "explore=1" not in _chart(plain)


def test_an_explored_position_is_listed_once(client: FlaskClient, log: dict[str, Any],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    gid = _store(client, log)
    listed = _counting(monkeypatch, variations, "choices")
    url = f"/games/{gid}/moves/9?explore=1"
    first = client.get(url)
    again = client.get(url)
    assert first.status_code == again.status_code == 200
    assert first.data == again.data  # the same page, the listing kept
    assert len(listed) == 1
    assert 'class="spot legal"' in first.get_data(as_text=True)
    # the API's choices of that position are the kept listing
    api = client.get(f"/api/games/{gid}/moves/9/choices").get_json()["choices"]
    assert len(listed) == 1
    tokens = re.findall(r'name="play" value="([^"]+)"', first.get_data(as_text=True))
    assert sorted(tokens) == sorted(o["token"] for o in api["options"])
    # another position, a pick and a variation at the same position are listed apart
    client.get(f"/games/{gid}/moves/10?explore=1")
    client.get(f"/games/{gid}/moves/9?explore=1&pick=A")
    variation = client.get(f"/games/{gid}/variation/9/{tokens[0]}/moves/10")
    assert variation.status_code == 200
    assert len(listed) == 4
    assert variation.data != client.get(f"/games/{gid}/moves/10?explore=1").data
    assert len(listed) == 4


def test_the_explored_positions_kept_are_bounded(client: FlaskClient, log: dict[str, Any],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    gid = _store(client, log)
    listed = _counting(monkeypatch, variations, "choices")
    for n in range(variations.EXPLORED + 1):
        assert client.get(f"/games/{gid}/moves/{n}?explore=1").status_code == 200
    assert len(listed) == variations.EXPLORED + 1
    client.get(f"/games/{gid}/moves/{variations.EXPLORED}?explore=1")  # the last: kept
    assert len(listed) == variations.EXPLORED + 1
    client.get(f"/games/{gid}/moves/0?explore=1")  # the first went, the least recently used
    assert len(listed) == variations.EXPLORED + 2


def test_a_game_viewed_lately_opens_no_connection(client: FlaskClient, log: dict[str, Any],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept game's pages are served without opening the library (about 0.5 ms a page),
    and so still while the library cannot be opened at all."""
    gid = _store(client, log)
    url = f"/games/{gid}/moves/9"
    page = client.get(url)
    assert page.status_code == 200
    opened = _counting(monkeypatch, store, "connect_for_reading")
    again = client.get(url)
    assert again.status_code == 200 and again.data == page.data
    assert opened == []

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "connect_for_reading", broken)
    assert client.get(f"/games/{gid}/moves/10").status_code == 200
    # a game not kept still needs the library: it says it is unavailable
    assert client.get(f"/games/{'0' * 16}/moves/1").status_code == 503
