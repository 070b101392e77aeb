"""The statistics pages (issue 38 item 4): a player's (``/players/<name>``) and a corpus's
(``/stats``) agree with the same figures recomputed here from the logs themselves (each
replayed with ``play_through``, its events read as JSON; not from the tables), on generated
games of every family, their seats given to names of a pool that includes markup, unicode and
slashes, so that each name sits in every seat; and the links from the library and the viewer
lead to them. ``CARCASSONNE_FUZZ=heavy`` (``./run fuzz``'s setting): 500 games per family
instead of 30."""

from __future__ import annotations

import json
import math
import os
from collections import Counter, defaultdict
from collections.abc import Iterator
from html import escape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay.agents.stats import wilson
from replay.core.family import families
from replay.core.playback import play_through
from replay.core.record import read_game
from replay.generate import generate_log
from replay.library import statistics
from web.app import create_app
from web.db import get_db
from web.stats import player_url

HEAVY = os.environ.get("CARCASSONNE_FUZZ") == "heavy"
PER_FAMILY = 500 if HEAVY else 20
POOL = ["Ada", "Ben", "<b>Cleo</b>", "Dan/Dee", "Émile 名", "..", "a%2Fb?c#d", "Zoë & co"]


def renamed(log: dict[str, Any], k: int) -> dict[str, Any]:
    """``log`` with its seats given to names of ``POOL`` (a rotation by ``k``)."""
    old = [p["name"] for p in log["players"]]
    new = [POOL[(3 * k + i) % len(POOL)] for i in range(len(old))]
    to = dict(zip(old, new, strict=True))
    for p in log["players"]:
        p["name"] = to[p["name"]]
    claims = log.get("claims", {})
    if "final_scores" in claims:
        claims["final_scores"] = {to[n]: s for n, s in claims["final_scores"].items()}
    if "winners" in claims:
        claims["winners"] = [to[n] for n in claims["winners"]]
    return log


def corpus_logs(per_family: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Generated games of every family, 2 to 4 players, its expansions one at a time; and
    per family a game cut short (not finished: counted apart)."""
    for family in families():
        mixes: list[tuple[str, ...]] = [(), *((x,) for x in family.expansions)]
        for k in range(per_family):
            log = generate_log(family.name, 2 + k % 3, k, mixes[k % len(mixes)])
            yield family.name, renamed(log, k)
        cut = generate_log(family.name, 3, "cut")
        cut["moves"] = cut["moves"][:len(cut["moves"]) // 2]
        cut.pop("claims", None)
        yield family.name, renamed(cut, 1)


def replayed(log: dict[str, Any]) -> dict[str, Any]:
    """What a game says, from its replay: names, final scores, winners, moves, whether it
    finished without an illegal move, points by (seat, kind), figures by (seat, kind,
    feature)."""
    record = read_game(json.dumps(log).encode())
    pb = play_through(record)
    points: Counter[tuple[int, str]] = Counter()
    figures: Counter[tuple[int, str, str]] = Counter()
    for events in pb.events:
        for e in events:
            data = e.to_json()
            if data["type"] == "score":
                for w in data["winners"]:
                    points[(w, data["feature"])] += data["points"]
            elif data["type"] == "figure":
                figures[(data["player"], data["kind"], data["feature"])] += 1
    return {"names": [p.name for p in record.players], "scores": list(pb.state.scores),
            "winners": list(pb.state.winners()) if pb.state.finished else [],
            "counted": pb.state.finished and pb.error is None, "moves": len(pb.events),
            "points": points, "figures": figures}


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Flask, list[tuple[str, Any]]]:
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("stats") / "games.db"),
                      "RATE_LIMIT": None})
    client = app.test_client()
    games = []
    for family, log in corpus_logs(PER_FAMILY):
        r = client.post("/api/games", data=json.dumps(log), content_type="application/json",
                        headers={"Origin": "http://localhost"})
        assert r.status_code == 201, r.get_data(as_text=True)
        games.append((family, {**replayed(log), "id": r.get_json()["id"]}))
    return app, games


def expected_player(games: list[tuple[str, Any]], name: str) -> dict[str, Any]:
    out: dict[str, Any] = {"games": 0, "finished": 0, "wins": 0, "scores": [],
                           "kinds": Counter(), "figures": Counter(), "ranks": defaultdict(list)}
    for _, g in games:
        if name not in g["names"]:
            continue
        seat = g["names"].index(name)
        out["games"] += 1
        if not g["counted"]:
            continue
        out["finished"] += 1
        out["wins"] += seat in g["winners"]
        score = g["scores"][seat]
        out["scores"].append(score)
        out["ranks"][seat].append(1 + sum(s > score for s in g["scores"]))
        for (s, kind), p in g["points"].items():
            if s == seat and p:
                out["kinds"][kind] += p
        for (s, figure, feature), n in g["figures"].items():
            if s == seat:
                out["figures"][(figure, feature)] += n
    return out


@pytest.mark.parametrize("name", POOL)
def test_a_players_statistics_agree_with_their_logs(library: tuple[Flask, Any],
                                                   name: str) -> None:
    app, games = library
    want = expected_player(games, name)
    assert want["finished"] >= 10, "the pool gives every name games"
    with app.test_request_context():
        got = statistics.of_player(get_db(), name)
        url = player_url(name)
    assert got is not None
    assert (got.games, got.finished, got.counted) == (want["games"], want["finished"],
                                                     want["finished"])
    assert got.wins == want["wins"]
    assert got.score == pytest.approx(sum(want["scores"]) / len(want["scores"]))
    assert dict(got.kinds) == {k: p for k, p in want["kinds"].items()}
    assert {(f, p): n for f, p, n in got.figures} == dict(want["figures"])
    assert {s.seat: s.games for s in got.seats} == {k: len(r) for k, r in want["ranks"].items()}
    assert {s.seat: s.rank for s in got.seats} == pytest.approx(
        {seat: sum(r) / len(r) for seat, r in want["ranks"].items()})
    assert len({s.seat for s in got.seats}) >= 2, "the rotation puts each name in two seats"
    page = app.test_client().get(url)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f"<dt>Wins</dt><dd>{want['wins']} " in html
    for kind, points in want["kinds"].items():
        assert f"<td>{kind}</td><td class=\"num\">{points}</td>" in html
    data = app.test_client().get("/api" + url).get_json()  # its JSON twin
    assert (data["name"], data["games"], data["wins"]) == (name, want["games"], want["wins"])
    assert {k["kind"]: k["points"] for k in data["kinds"]} == dict(want["kinds"])
    assert {(f["figure"], f["feature"]): f["count"] for f in data["figures"]} == \
        dict(want["figures"])
    assert all(g["url"].startswith("/games/") for g in data["recent"])
    assert "<b>Cleo</b>" not in html  # names are escaped, theirs and their opponents'
    assert f"</span> <bdi>{escape(name)}</bdi></h1>" in html


def first_seat(rows: list[dict[str, Any]]) -> tuple[float, int]:
    wins = math.fsum(1 / len(g["winners"]) for g in rows if 0 in g["winners"])
    return wins, len(rows)


@pytest.mark.parametrize("game", [None, *(f.name for f in families())])
def test_a_corpus_statistics_agree_with_its_logs(library: tuple[Flask, Any],
                                                game: str | None) -> None:
    app, games = library
    chosen = [g for family, g in games if game in (None, family)]
    counted = [g for g in chosen if g["counted"]]
    with app.app_context():
        got = statistics.of_corpus(get_db(), game=game)
    assert (got.games, got.finished, got.counted) == (len(chosen), len(counted), len(counted))
    by_count: dict[int | None, list[dict[str, Any]]] = defaultdict(list)
    for g in counted:
        by_count[len(g["names"])].append(g)
        by_count[None].append(g)
    assert [s.players for s in got.first_seat] == [2, 3, 4, None]
    for s in got.first_seat:
        wins, n = first_seat(by_count[s.players])
        assert (s.games, s.wins) == (n, pytest.approx(wins))
        assert (s.low, s.high) == pytest.approx(wilson(wins, n))
        assert s.fair == pytest.approx(sum(1 / len(g["names"]) for g in by_count[s.players])
                                       / n)
    spreads = [max(g["scores"]) - min(g["scores"]) for g in counted]
    assert got.spread is not None and got.spread.mean == pytest.approx(
        sum(spreads) / len(spreads))
    assert got.spread.low < got.spread.mean < got.spread.high
    assert got.lengths == sorted(g["moves"] for g in counted)
    data = app.test_client().get("/api/stats", query_string={"game": game or ""}).get_json()
    assert [(s["players"], s["games"]) for s in data["first_seat"]] == [
        (s.players, s.games) for s in got.first_seat]
    assert data["spread"]["mean"] == pytest.approx(sum(spreads) / len(spreads))
    assert sum(b["games"] for b in data["lengths"]) == len(counted)
    page = app.test_client().get("/stats", query_string={"game": game or ""})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f"counted: the {len(counted)} finished" in html
    assert f"<b>{sum(spreads) / len(spreads):.1f}</b> points" in html
    assert html.count('class="bar"') == len(statistics.histogram(got.lengths))


def test_the_library_and_the_viewer_link_to_the_pages(library: tuple[Flask, Any]) -> None:
    app, _ = library
    client = app.test_client()
    with app.test_request_context():
        urls = {name: player_url(name) for name in POOL}
    html = client.get("/games", query_string={"game": "manhattan", "size": 200}).get_data(
        as_text=True)
    assert 'href="/stats?game=manhattan"' in html  # the filter's statistics
    for name, url in urls.items():  # every name links to its page, which is theirs
        assert f'href="{url.replace("&", "&amp;")}"' in html, name
        page = client.get(url)
        assert page.status_code == 200, (name, url)
        assert "&lt;b&gt;" in page.get_data(as_text=True) or "<b>" not in name
    from replay.library.store import connect

    db = connect(app.config["DATABASE"])
    row = next(db.query("select id, players from games where game = 'manhattan' limit 1"))
    db.close()
    viewer = client.get(f"/games/{row['id']}/moves/0").get_data(as_text=True)
    for p in json.loads(row["players"]):
        assert f'<a class="plink" href="{urls[p["name"]].replace("&", "&amp;")}">' in viewer


def test_a_player_without_games_gets_a_page_saying_so(client: FlaskClient) -> None:
    for name in ["Nobody", "<script>alert(1)</script>", "a/b", "..", "x" * 65, "é" * 64]:
        with client.application.test_request_context():
            url = player_url(name)
        r = client.get(url)
        assert r.status_code == 404, name
        html = r.get_data(as_text=True)
        assert "<script>alert" not in html
        assert "No stored game has a player named" in html or "this long" in html
    r = client.get("/api/players/Nobody")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == 404
    r = client.get("/stats?game=<x>&expansion=%00&verdict=nope&player=" + "%" * 300)
    assert r.status_code == 200
    assert "No finished valid game matches" in r.get_data(as_text=True)


@pytest.mark.parametrize("values", [[71, 71, 71], [0], [5, 100], list(range(70, 113)),
                                    [3, 9, 9, 27, 81, 243]])
def test_the_histogram_counts_each_value_once_in_its_bin(values: list[int]) -> None:
    bins = statistics.histogram(values)
    assert 5 <= len(bins) <= 12
    assert sum(n for _, _, n in bins) == len(values)
    assert all(sum(lo <= v <= hi for lo, hi, _ in bins) == 1 for v in values)
    assert [n for lo, hi, n in bins] == [sum(lo <= v <= hi for v in values)
                                         for lo, hi, _ in bins]
    assert len({hi - lo for lo, hi, _ in bins}) == 1  # of one width


def _plan(app: Flask, sql: str, params: dict[str, Any]) -> list[str]:
    from replay.library.store import connect

    db = connect(app.config["DATABASE"])
    try:
        return [row[3] for row in db.execute("explain query plan " + sql, params)]
    finally:
        db.close()


@pytest.mark.parametrize("capped", [False, True])
def test_a_players_queries_read_through_indexes(library: tuple[Flask, Any],
                                                capped: bool) -> None:
    app, _ = library
    for name, sql in statistics.player_queries(capped).items():
        plan = _plan(app, sql, statistics.player_params("Ada"))
        assert not [s for s in plan if s.startswith("SCAN") and s not in ("SCAN mine",)], \
            (name, plan)  # never a whole table: each read starts from an index
        assert any("USING INDEX" in s or "USING COVERING INDEX" in s for s in plan), name


@pytest.mark.parametrize("game", [None, "manhattan"])
def test_a_corpus_queries_read_through_indexes(library: tuple[Flask, Any],
                                               game: str | None) -> None:
    app, _ = library
    from replay.library.store import filter_clause

    where, params = filter_clause(game=game)
    params["cap"] = statistics.CAP
    for sql in (statistics.CORPUS_GAMES.format(where=where),):
        plan = _plan(app, sql, params)
        assert not [s for s in plan if s.startswith("SCAN") and s != "SCAN c"], plan
        assert any("USING INDEX" in s or "USING COVERING INDEX" in s for s in plan), plan


def test_a_players_page_counts_their_newest_games_past_the_cap(
        library: tuple[Flask, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    app, games = library
    monkeypatch.setattr(statistics, "PLAYER_CAP", 7)
    monkeypatch.setattr(statistics, "CAP", 9)
    from replay.library.store import connect

    db = connect(app.config["DATABASE"])
    order = [r["id"] for r in db.query("select id from games order by created desc, id desc")]
    db.close()
    by_id = {g["id"]: g for _, g in games}
    newest = [by_id[i] for i in order if by_id[i]["counted"] and "Ada" in by_id[i]["names"]][:7]
    with app.test_request_context():
        got = statistics.of_player(get_db(), "Ada")
        corpus = statistics.of_corpus(get_db())
    assert got is not None and got.capped and got.counted == 7
    assert got.wins == sum(g["names"].index("Ada") in g["winners"] for g in newest)
    assert got.score == pytest.approx(
        sum(g["scores"][g["names"].index("Ada")] for g in newest) / 7)
    assert dict(got.kinds) == dict(sum((Counter({k: p for (s, k), p in g["points"].items()
                                                 if s == g["names"].index("Ada") and p})
                                        for g in newest), Counter()))
    assert corpus.capped and corpus.counted == 9
    assert corpus.lengths == sorted([by_id[i]["moves"] for i in order
                                     if by_id[i]["counted"]][:9])
    html = app.test_client().get("/players/Ada").get_data(as_text=True)
    assert f"(the newest 7 of {got.finished})" in html
