"""Datasette on the library (issue 38 item 3): the metadata the project writes
(``replay.library.datasette``) and its canned queries, run by Datasette itself against a
library of generated games, each answer checked against figures computed independently from
the logs (each replayed with ``play_through``; wins from the logs' own claims), never from the
tables the queries read.

The default run stores ``GAMES_PER_FAMILY`` games of every family (some illegal, some cut
short); ``CARCASSONNE_FUZZ=heavy`` (``./run fuzz``, as the property tests opt in) stores 500 of
each."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from replay.cli import main
from replay.core.config import MoveColumn
from replay.core.events import Score
from replay.core.family import REGISTRY
from replay.core.playback import play_through
from replay.core.record import read_game
from replay.core.verify import verify
from replay.generate import dumps, generate_log
from replay.library import data_command, store
from replay.library.datasette import QUERIES, TABLES, metadata, move_columns
from replay.library.rows import game_row, store_row

from .support import ROOT

HEAVY = os.environ.get("CARCASSONNE_FUZZ") == "heavy"
GAMES_PER_FAMILY = 500 if HEAVY else 24
FAMILIES = ("base", "hunters-gatherers", "manhattan")
NAMES = ("Ada", "Ben", "Cleo", "Dag", "Eve", "Finn", "Gus")


def _log(family: str, k: int) -> dict[str, Any]:
    """The ``k``-th game of ``family``: its seats named from ``NAMES`` (so that a player
    sits in different seats), every eighth with an illegal move, every eighth cut short."""
    fam = REGISTRY.get(family)
    assert fam is not None
    top = min(fam.max_players, 5)
    players = fam.min_players + k % (top - fam.min_players + 1)
    expansions = ("inns-cathedrals",) if family == "base" and k % 3 == 1 else ()
    log = generate_log(family, players, k, expansions)
    names = random.Random(f"{family}-{k}").sample(NAMES, players)
    old = [p["name"] for p in log["players"]]
    rename = dict(zip(old, names, strict=True))
    for p, name in zip(log["players"], names, strict=True):
        p["name"] = name
    claims = log["claims"]
    claims["final_scores"] = {rename[n]: s for n, s in claims["final_scores"].items()}
    claims["winners"] = [rename[n] for n in claims["winners"]]
    if k % 8 == 3:  # two moves swapped: illegal from the first of them
        moves = log["moves"]
        i = 10 + k % 5
        moves[i], moves[i + 1] = moves[i + 1], moves[i]
    elif k % 8 == 5:  # cut short: legal, unfinished, no claims
        log["moves"] = log["moves"][:25]
        del log["claims"]
    return log


def _library(path: Path) -> list[dict[str, Any]]:
    """A library at ``path`` holding the generated games, stored as the web app stores them
    (``rows.game_row`` of ``verify``'s report, ``rows.store_row``); the logs."""
    logs = [_log(family, k) for family in FAMILIES for k in range(GAMES_PER_FAMILY)]
    store.migrate(str(path))
    db = store.connect(str(path))
    try:
        with store.write(db):
            for log in logs:
                store_row(db, game_row(verify(dumps(log).encode())))
    finally:
        db.close()
    return logs


def _figures(logs: list[dict[str, Any]]) -> dict[str, Any]:
    """What the canned queries must answer, from the logs alone."""
    first: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    points: Counter[tuple[str, str, str]] = Counter()
    played: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    lengths: dict[tuple[str, tuple[str, ...], int], list[int]] = defaultdict(list)
    rules: Counter[tuple[str, str]] = Counter()
    seats: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for log in logs:
        pb = play_through(read_game(dumps(log).encode()))
        game, names = log["game"], [p["name"] for p in log["players"]]
        seats.update(names)
        if pb.error is not None:
            rules[(pb.error.rule, game)] += 1
            continue
        if not pb.state.finished:
            continue
        first[(game, len(names))][0] += 1
        first[(game, len(names))][1] += names[0] in log["claims"]["winners"]
        wins.update(log["claims"]["winners"])
        for name, score in zip(names, pb.state.scores, strict=True):
            played[(name, game)][0] += 1
            played[(name, game)][1] += score
        for events in pb.events:
            for e in events:
                if isinstance(e, Score):
                    for w in e.winners:
                        points[(names[w], game, e.feature)] += e.points
        lengths[(game, tuple(log.get("expansions", ())), len(names))].append(len(pb.events))
    return {"first": first, "points": points, "played": played, "lengths": lengths,
            "rules": rules, "seats": seats, "wins": wins}


async def _answers(path: Path, paths: list[str]) -> list[Any]:
    from datasette.app import Datasette

    ds = Datasette([str(path)], metadata=metadata(path.stem))
    await ds.invoke_startup()
    out = []
    for url in paths:
        r = await ds.client.get(url)
        assert r.status_code == 200, (url, r.text[:500])
        out.append(r.json())
    return out


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    path = tmp_path_factory.mktemp("datasette") / "games.db"
    logs = _library(path)
    return path, _figures(logs)


def _query(path: Path, name: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = asyncio.run(
        _answers(path, [f"/{path.stem}/{name}.json?_shape=array"]))[0]
    return rows


def test_first_seat_win_rate(library: tuple[Path, dict[str, Any]]) -> None:
    path, want = library
    rows = _query(path, "first_seat_win_rate")
    got = {(r["game"], r["players"]): r for r in rows}
    assert set(got) == set(want["first"])
    for key, (games, wins) in want["first"].items():
        row = got[key]
        assert (row["games"], row["first_seat_wins"]) == (games, wins), key
        assert row["first_seat_win_rate"] == pytest.approx(wins / games, abs=5e-4)
        assert row["even_share"] == pytest.approx(1 / key[1], abs=5e-4)
    # not a constant: the first seat wins some games and loses others, at rates that differ
    assert any(0 < r["first_seat_win_rate"] < 1 for r in rows)
    assert len({r["first_seat_win_rate"] for r in rows}) >= 3
    assert {r["game"] for r in rows} == set(FAMILIES)


def test_points_by_kind_per_player(library: tuple[Path, dict[str, Any]]) -> None:
    path, want = library
    rows = _query(path, "points_by_kind")
    got = {(r["player"], r["game"], r["kind"]): r for r in rows}
    scoring = {k: v for k, v in want["points"].items() if v}
    assert {k: r["points"] for k, r in got.items() if r["points"]} == scoring
    for (player, game, _kind), row in got.items():
        games, total = want["played"][(player, game)]
        assert row["games"] == games
        assert row["per_game"] == pytest.approx(row["points"] / games, abs=5e-3)
        assert row["share"] == pytest.approx(row["points"] / total, abs=5e-4)
    # different players, kinds and totals: the query tells them apart
    assert len({r["kind"] for r in rows}) >= 5
    assert len({r["player"] for r in rows}) == len(NAMES)
    city = {r["points"] for r in rows if r["kind"] == "city"}
    assert len(city) >= 3


def test_average_game_length(library: tuple[Path, dict[str, Any]]) -> None:
    path, want = library
    rows = _query(path, "game_length")
    got = {(r["game"], tuple(json.loads(r["expansions"])), r["players"]): r for r in rows}
    assert set(got) == set(want["lengths"])
    for key, lengths in want["lengths"].items():
        row = got[key]
        assert row["games"] == len(lengths), key
        assert row["average_moves"] == pytest.approx(sum(lengths) / len(lengths), abs=5e-3)
        assert (row["fewest_moves"], row["most_moves"]) == (min(lengths), max(lengths))
    assert len({r["average_moves"] for r in rows}) >= 3  # families and expansions differ


def test_most_common_illegal_rules(library: tuple[Path, dict[str, Any]]) -> None:
    path, want = library
    rows = _query(path, "illegal_rules")
    assert {(r["rule"], r["game"]): r["games"] for r in rows} == dict(want["rules"])
    assert all(r["illegal_moves"] == r["games"] and r["header_or_claim"] == 0 for r in rows)
    counts = [r["games"] for r in rows]
    assert counts == sorted(counts, reverse=True)  # the most common first
    assert len({r["rule"] for r in rows}) >= 2
    ids = [r["example"] for r in rows]
    answers = asyncio.run(_answers(path, [f"/{path.stem}/games/{i}.json?_shape=array"
                                          for i in ids]))
    for row, found in zip(rows, answers, strict=True):
        assert found[0]["verdict"] == "invalid" and found[0]["rule"] == row["rule"]


def test_the_pages_show_the_project_s_metadata(library: tuple[Path, dict[str, Any]]) -> None:
    path, _ = library
    db = path.stem
    index, moves, games, facets = asyncio.run(_answers(path, [
        f"/{db}.json", "/-/metadata.json", f"/{db}/games.json?_size=0",
        f"/{db}/results.json?_size=0&_facet=player"]))
    assert {q["name"] for q in index["queries"]} == set(QUERIES)
    assert all(q["title"] for q in index["queries"])
    hidden = {t["name"] for t in index["tables"] if t["hidden"]}
    assert {"rate_counts", "_sqlite_migrations"} <= hidden
    described = moves["databases"][db]["tables"]["moves"]["columns"]
    assert "points" in described["points"] and "tile" in described and "card" in described
    shown = {f["name"] for f in games["facet_results"].values()}
    assert {"game", "expansions", "verdict"} <= shown
    assert len(facets["facet_results"]["player"]["results"]) == len(NAMES)


def test_a_family_describes_its_own_move_columns() -> None:
    """A plugin family's columns are described from its declaration; one name declared by
    two families with different meanings says both."""
    plugin = SimpleNamespace(label="Dice Towers", move_columns=(
        MoveColumn("die", ("die",), "integer", "the die rolled (1-6)"),
        MoveColumn("tile", ("t",), "text", "the tower piece taken")))
    tiles = REGISTRY.get("base")
    described = move_columns([tiles, plugin])  # type: ignore[list-item]
    assert described["die"] == "the die rolled (1-6) (Dice Towers)"
    assert "the tower piece taken (Dice Towers)" in described["tile"]
    assert "(Carcassonne)" in described["tile"]
    meta = metadata("lib", [plugin])  # type: ignore[list-item]
    columns = meta["databases"]["lib"]["tables"]["moves"]["columns"]
    assert columns["die"] == "the die rolled (1-6) (Dice Towers)"
    assert "card" not in columns  # Manhattan's, not installed here
    assert TABLES["moves"]["columns"].keys() <= columns.keys()
    assert "die" not in TABLES["moves"]["columns"]  # the shared description is left alone


# --------------------------------------------------------------------------- python -m replay data


def test_data_writes_the_metadata_for_datasette(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "meta.json"
    assert main(["data", "--db", str(tmp_path / "club.db"), "--metadata-out", str(out)]) == 0
    meta = json.loads(out.read_text(encoding="utf-8"))
    assert set(meta["databases"]["club"]["queries"]) == set(QUERIES)
    assert f"--metadata {out}" in capsys.readouterr().out
    assert main(["data", "--metadata-out", str(tmp_path / "no" / "dir.json")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_data_refuses_what_is_not_a_library(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "--db", str(tmp_path / "missing.db")]) == 2
    err = capsys.readouterr().err
    assert "no library at" in err and "missing.db" in err and "Traceback" not in err
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all, but long enough to be read as one" * 40)
    assert main(["data", "--db", str(junk)]) == 2
    err = capsys.readouterr().err
    assert "cannot open" in err and "junk.db as a library" in err and "Traceback" not in err


def test_data_says_when_datasette_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "datasette" else real(name, *a))
    assert main(["data", "--db", str(tmp_path / "games.db")]) == 2
    err = capsys.readouterr().err
    assert "Datasette is not installed" in err and "pip install" in err


def test_data_migrates_an_old_library_and_serves_it_with_the_metadata(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A library stored before the tables gets them first; Datasette is given the metadata
    file, then it is removed."""
    path = tmp_path / "old.db"
    db = store.connect(str(path))
    try:
        with store.write(db):
            store.migrations.apply(db, stop_before="create_game_tables")
            db.table("games").insert(game_row(verify(dumps(_log("base", 0)).encode())).as_row())
    finally:
        db.close()
    seen: dict[str, Any] = {}

    def served(db_path: Path, meta_path: Path, host: str, port: int) -> int:
        seen.update(db=db_path, meta=json.loads(meta_path.read_text(encoding="utf-8")),
                    file=meta_path, host=host, port=port)
        return 0

    monkeypatch.setattr(data_command, "serve", served)
    assert main(["data", "--db", str(path)]) == 0
    assert "rows written for the 1 stored game" in capsys.readouterr().err
    assert (seen["db"], seen["host"], seen["port"]) == (path, "127.0.0.1", 8001)
    assert set(seen["meta"]["databases"]["old"]["queries"]) == set(QUERIES)
    assert not seen["file"].exists()
    assert _query(path, "game_length")[0]["games"] == 1


def test_data_serves_datasette_on_this_machine(library: tuple[Path, dict[str, Any]]) -> None:
    """The real thing: ``python -m replay data`` answers a canned query over HTTP on
    127.0.0.1, then stops with its process group."""
    path, want = library
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "replay", "data", "--db", str(path),
                             "--port", str(port)], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/{path.stem}/illegal_rules.json?_shape=array"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    rows = json.loads(r.read())
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "Datasette did not answer within 60 s"
                time.sleep(0.2)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    assert {(r["rule"], r["game"]): r["games"] for r in rows} == dict(want["rules"])


def test_a_player_s_games(library: tuple[Path, dict[str, Any]]) -> None:
    path, want = library
    (rows,) = asyncio.run(_answers(path, [f"/{path.stem}/player_games.json?_shape=array&"
                                          f"player={NAMES[0]}"]))
    assert len(rows) == want["seats"][NAMES[0]]
    assert sum(r["winner"] for r in rows) == want["wins"][NAMES[0]]
    assert len({r["seat"] for r in rows}) >= 3 and {r["verdict"] for r in rows} == {
        "valid", "invalid"}


@pytest.fixture
def plugin() -> Any:
    """The project's Datasette plugin, registered as its entry point registers it once the
    project is installed (``pyproject.toml``)."""
    from datasette.plugins import pm

    from replay.library import datasette_plugin

    name = "carcassonne_replay"
    registered = pm.get_plugin(name) is datasette_plugin
    if not registered:
        pm.register(datasette_plugin, name)
    yield datasette_plugin
    if not registered:
        pm.unregister(datasette_plugin, name)


def test_plain_datasette_opens_a_library_with_the_metadata(
        tmp_path: Path, plugin: Any, library: tuple[Path, dict[str, Any]]) -> None:
    """``datasette games.db other.db``: the library gets the project's metadata and canned
    queries, another database nothing of them."""
    import sqlite3
    import tomllib

    from datasette.app import Datasette

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert declared["project"]["entry-points"]["datasette"] == {
        "carcassonne_replay": plugin.__name__}
    path, want = library
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("create table games (id text)")

    async def fetch() -> list[Any]:
        ds = Datasette([str(path), str(other)])
        await ds.invoke_startup()
        urls = [f"/{path.stem}.json", "/other.json",
                f"/{path.stem}/illegal_rules.json?_shape=array"]
        pages = [f"/{path.stem}/moves", "/other/games"]
        return ([(await ds.client.get(u)).json() for u in urls]
                + [(await ds.client.get(u)).text for u in pages])

    lib, plain, rules, moves, games = asyncio.run(fetch())
    assert {q["name"] for q in lib["queries"]} == set(QUERIES)
    assert plain["queries"] == []
    tile = "the tile drawn and placed"
    assert tile in moves and TABLES["moves"]["description"] in moves
    assert TABLES["games"]["description"] not in games
    assert {(r["rule"], r["game"]): r["games"] for r in rules} == dict(want["rules"])
