"""Hostile requests to the statistics pages (issue 38 item 4): any name in the path or the
query of ``/players`` (markup, quotes, slashes and dot segments, percent signs, NUL, lone
surrogates, right-to-left marks, 0 to 400 characters, a stored name spoilt) and any filters
on ``/stats`` (any text, repeated, over long) get a page: 200, or 404 for a name no game has
(a redirect, 308, for a path werkzeug normalises), never a 5xx, and never the drawn markup
unescaped. ``--hypothesis-show-statistics`` shows how the requests were spread (``event``)."""

from __future__ import annotations

import json
from urllib.parse import quote, urlencode

import pytest
from flask import Flask
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from replay.generate import generate_log
from web.app import create_app

STORED = ["<script>x</script>", "a/b", "..", "Ünï 名", "\u202eevil"]
PIECES = ["<script>", '"', "'", "&", "/", "//", ".", "..", "%", "%2F", "%00", "\x00", "\\",
          "?", "#", " ", "\u202e", "名", "\ud800", "é", "\r\n"]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    made = create_app({"DATABASE": str(tmp_path_factory.mktemp("attacks") / "games.db"),
                       "RATE_LIMIT": None})
    client = made.test_client()
    for k in range(3):
        log = generate_log("base", 3, k)
        names = STORED[k:k + 3]
        old = [p["name"] for p in log["players"]]
        for p, name in zip(log["players"], names, strict=True):
            p["name"] = name
        log["claims"] = {"final_scores": dict(zip(names, (log["claims"]["final_scores"][n]
                                                          for n in old), strict=True)),
                         "winners": [names[old.index(n)] for n in log["claims"]["winners"]]}
        r = client.post("/api/games", data=json.dumps(log), content_type="application/json",
                        headers={"Origin": "http://localhost"})
        assert r.status_code == 201, r.get_data(as_text=True)
    return made


@st.composite
def names(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["stored", "spoilt", "pieces", "text", "long"]))
    event(f"stats name: {kind}")
    if kind == "stored":
        return draw(st.sampled_from(STORED))
    if kind == "spoilt":
        return draw(st.sampled_from(STORED)) + draw(st.sampled_from(PIECES))
    if kind == "pieces":
        return "".join(draw(st.lists(st.sampled_from(PIECES), max_size=8)))
    if kind == "long":
        return draw(st.sampled_from(PIECES + ["x"])) * draw(st.integers(60, 400))
    return draw(st.text(max_size=30))


def _q(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@st.composite
def requests(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["path", "query", "stats"]))
    api = draw(st.sampled_from(["", "", "/api"]))  # the pages and their JSON twins
    event(f"stats request: {'api ' if api else ''}{kind}")
    return api + draw(_request(kind))


@st.composite
def _request(draw: st.DrawFn, kind: str) -> str:
    if kind == "path":
        return "/players/" + draw(st.sampled_from(["", "/"])) + _q(draw(names()))
    if kind == "query":
        return "/players?name=" + _q(draw(names()))
    keys = draw(st.lists(st.sampled_from(["game", "expansion", "verdict", "player", "x"]),
                         max_size=6))
    return "/stats?" + "&".join(f"{k}={_q(draw(names()))}" for k in keys)


@settings(derandomize=True, database=None, deadline=None, max_examples=300,
          phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(url=requests())
def test_the_statistics_pages_take_any_name_and_filter(app: Flask, url: str) -> None:
    r = app.test_client().get(url)
    event(f"stats answer: {r.status_code}")
    assert r.status_code in (200, 308, 404), (url, r.status_code)
    if url.startswith("/api/"):
        assert r.is_json or r.status_code == 308, url  # JSON, an error too
        return
    html = r.get_data(as_text=True)
    assert "<script>" not in html
    main = html[html.find("<main>"):]  # a name turning the text right to left: in its box
    assert main.count("\u202eevil") == main.count("<bdi>\u202eevil")
    if r.status_code == 200 and url.startswith("/players"):
        assert "<h2>Recent games</h2>" in html


def test_the_stored_names_have_their_pages(app: Flask) -> None:
    client = app.test_client()
    with app.test_request_context():
        from web.stats import player_url

        urls = [player_url(n) for n in STORED]
    for name, url in zip(STORED, urls, strict=True):
        r = client.get(url)
        assert r.status_code == 200, (name, url)
        assert "&lt;script&gt;" in r.get_data(as_text=True) or "<" not in name
    assert client.get("/players?" + urlencode({"name": "a/b"})).status_code == 200
    assert client.get("/players/" + _q("Ünï 名")).status_code == 200
