"""A game is stored once, whatever the spelling of its file (issue 31, item 1): its identity is
its content (``replay.library.identity``); uploads, the upload form and ``ingest`` answer with
the id it has; the migration merges the games stored twice before; the library is filtered by
game and expansion."""

from __future__ import annotations

import copy
import io
import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay.core.verify import verify
from replay.generate import dumps, generate_log
from replay.library import identity, spellings
from replay.library import store as library
from web.games import check

from .support import FIXTURES

pytestmark = pytest.mark.app_config(RATE_LIMIT=None)

JSON = "application/json"


@pytest.fixture(scope="module")
def log() -> dict[str, Any]:
    return generate_log("base", 2, 31)


def spellings_of(log: dict[str, Any]) -> dict[str, str]:
    """One game written four ways: as ``generate`` writes it, re-indented with its keys in
    another order, with another ``meta``, and as a line of a ``.jsonl``."""
    other = copy.deepcopy(log)
    other["meta"] = {"event": "club night", "date": "2026-11-20"}
    return {"file": dumps(log), "indented": json.dumps(log, indent=4, sort_keys=True),
            "meta": json.dumps(other, indent=1), "line": json.dumps(log, separators=(",", ":"))}


def post(client: FlaskClient, body: str | bytes, name: str = "") -> Any:
    return client.post("/api/games" + (f"?name={name}" if name else ""), data=body,
                       content_type=JSON)


# --------------------------------------------------------------------------- the key

def test_the_key_ignores_spelling_and_meta_but_not_the_game(log: dict[str, Any]) -> None:
    keys = {identity.content_key(verify(text)) for text in spellings_of(log).values()}
    assert len(keys) == 1
    bare = copy.deepcopy(log)  # what the reader fills in: colours, default options, tile set
    for p in bare["players"]:
        del p["colour"]
    bare.pop("options", None)
    bare.pop("tileset", None)
    bare.pop("meta", None)
    assert identity.content_key(verify(dumps(bare))) in keys
    moved = copy.deepcopy(log)
    moved["moves"][-1]["rotation"] = (moved["moves"][-1]["rotation"] + 90) % 360
    claimed = copy.deepcopy(log)  # a claim is part of what the log says (the verdict)
    claimed["claims"]["final_scores"][log["players"][0]["name"]] += 1
    other_seed = generate_log("base", 2, 32)
    for different in (moved, claimed, other_seed):
        assert identity.content_key(verify(dumps(different))) not in keys


def test_a_header_that_breaks_a_rule_is_known_by_its_json_without_meta(
        log: dict[str, Any]) -> None:
    crowded = copy.deepcopy(log)
    crowded["players"] = [{"name": f"P{i}"} for i in range(6)]
    crowded["expansions"] = []  # six seats: more than the base game takes (B1)
    report = verify(dumps(crowded))
    assert report.readable and report.record is None
    again = copy.deepcopy(crowded)
    again["meta"] = {"note": "the same file, another note"}
    assert identity.content_key(report) == identity.content_key(
        verify(json.dumps(again, indent=2)))
    stored = identity.stored_identity(json.dumps(again))
    assert stored == (identity.content_key(report), again["meta"])


# --------------------------------------------------------------------------- one id

def test_four_spellings_of_a_game_get_one_id(app: Flask, log: dict[str, Any],
                                             tmp_path: Path) -> None:
    from replay.audit.ingest import ingest

    client = app.test_client()
    texts = spellings_of(log)
    first = post(client, texts["file"], "game.json")
    assert first.status_code == 201
    game_id = first.get_json()["id"]
    for how in ("indented", "meta"):
        again = post(client, texts[how], f"{how}.json")
        assert again.status_code == 200, how
        assert again.get_json()["id"] == game_id and again.get_json()["new"] is False
    form = client.post("/upload", data={"file": (io.BytesIO(texts["indented"].encode()),
                                                 "copy.json")},
                       content_type="multipart/form-data")
    assert form.status_code == 303 and f"/games/{game_id}/" in form.headers["Location"]
    corpus = tmp_path / "logs.jsonl"
    other = generate_log("base", 3, 5)
    corpus.write_text(texts["line"] + "\n" + dumps(other).replace("\n", "") + "\n")
    result = ingest([str(corpus)], app.config["DATABASE"], jobs=1)
    assert sum(result.stored.values()) == 1 and result.duplicates == 1
    games = client.get("/api/games").get_json()
    assert games["total"] == 2 and game_id in {g["id"] for g in games["games"]}
    body = client.get(f"/api/games/{game_id}").get_json()
    sources = body["sources"]
    assert {s["name"] for s in sources} == {"game.json", "indented.json", "meta.json",
                                           "copy.json", f"{corpus}#1"}
    assert {"event": "club night", "date": "2026-11-20"} in [s["meta"] for s in sources]
    # another spelling's id leads to the game (an audit report links games by their bytes)
    spelling = next(s["sha256"] for s in sources if s["name"] == "meta.json")
    moved = client.get(f"/games/{spelling[:16]}/moves/3?x=1")
    assert moved.status_code == 308
    assert moved.headers["Location"].endswith(f"/games/{game_id}/moves/3?x=1")


def test_a_foreign_file_is_the_game_its_importer_makes(app: Flask) -> None:
    client = app.test_client()
    path = FIXTURES / "import" / "bga" / "finished-2p.json"
    imported = client.post("/api/games", data=path.read_bytes())
    assert imported.status_code == 201
    converted = verify(path).log
    converted.pop("meta", None)
    again = post(client, json.dumps(converted, indent=2))
    assert again.status_code == 200 and again.get_json()["id"] == imported.get_json()["id"]


def test_a_new_spelling_on_a_disk_that_takes_no_write_is_still_the_stored_game(
        app: Flask, log: dict[str, Any]) -> None:
    client = app.test_client()
    texts = spellings_of(log)
    game_id = post(client, texts["file"]).get_json()["id"]
    with app.app_context():
        db = library.connect(app.config["DATABASE"])
        db.conn.execute("PRAGMA query_only = 1")
        row, new = library_save(db, texts["meta"])
        db.close()
    assert row.id == game_id and new is False


def library_save(db: Any, text: str) -> tuple[library.GameRow, bool]:
    from replay.library.rows import save

    checked = check(text.encode(), 10**7)
    return save(db, checked.row, "read-only.json", {"k": "v"})


# --------------------------------------------------------------------------- the migration

def old_library(path: str, texts: list[str]) -> list[str]:
    """A library as the versions before content keys made it: each text stored by the sha256
    of its bytes, a second apart; their ids."""
    db = library.connect(path)
    library.migrations.apply(db, stop_before="identify_games")
    ids = []
    for i, text in enumerate(texts):
        row = check(text.encode(), 10**7).row
        row = replace(row, created=f"2026-01-01T00:00:{i:02d}+00:00")
        stored = row.as_row()
        del stored["content_key"]
        db.table("games").insert(stored)
        db.table("game_players").insert_all([
            {"game_id": row.id, "seat": s, "name": p["name"], "colour": p["colour"],
             "score": row.scores[s]} for s, p in enumerate(row.players)])
        ids.append(row.id)
    db.conn.commit()
    db.close()
    return ids


def test_the_migration_merges_the_games_stored_twice(
        make_app: Any, log: dict[str, Any], tmp_path: Path) -> None:
    texts = spellings_of(log)
    other = dumps(generate_log("base", 3, 5))
    path = str(tmp_path / "old.db")
    ids = old_library(path, [texts["meta"], texts["file"], other, texts["indented"]])
    notes = library.migrate(path)
    assert notes[0] == ("4 stored games now known by content: 2 stored twice merged into the "
                        "oldest of each (their ids lead to it)")
    assert notes[1:] == [notes[-1]] and "rows written for the 2 stored games" in notes[-1]
    assert library.migrate(path) == []  # once
    client = make_app(DATABASE=path, RATE_LIMIT=None).test_client()
    games = client.get("/api/games").get_json()
    assert sorted(g["id"] for g in games["games"]) == sorted([ids[0], ids[2]])
    kept = client.get(f"/api/games/{ids[0]}").get_json()
    assert [s["sha256"][:16] for s in kept["sources"]] == [ids[0], ids[1], ids[3]]
    assert kept["sources"][0]["meta"] == {"event": "club night", "date": "2026-11-20"}
    assert kept["sources"][1]["meta"] == log["meta"]
    for merged in (ids[1], ids[3]):
        moved = client.get(f"/api/games/{merged}")
        assert moved.status_code == 308
        assert moved.headers["Location"].endswith(f"/api/games/{ids[0]}")
        assert client.get(f"/games/{merged}", follow_redirects=True).status_code == 200
    db = library.connect(path)
    seats = db.execute("select count(*) from game_players").fetchone()[0]
    assert seats == 2 + 3  # the merged games' seats went with them
    db.close()
    again = post(client, texts["line"])
    assert again.status_code == 200 and again.get_json()["id"] == ids[0]


def test_the_migration_is_one_transaction(log: dict[str, Any], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    texts = spellings_of(log)
    path = str(tmp_path / "old.db")
    old_library(path, [texts["file"], texts["meta"], texts["indented"]])
    calls = []

    def failing(text: str) -> tuple[str, dict[str, Any] | None]:
        calls.append(text)
        if len(calls) == 3:
            raise sqlite3.OperationalError("database or disk is full")
        return identity.stored_identity(text)

    monkeypatch.setattr(spellings, "stored_identity", failing)
    with pytest.raises(sqlite3.OperationalError):
        library.migrate(path)
    db = library.connect(path)
    assert db.execute("select count(*) from games").fetchone()[0] == 3
    assert "content_key" not in db.table("games").columns_dict
    assert "game_sources" not in db.table_names()
    assert library.migrations.pending(db)[0].name == "identify_games"
    db.close()


# --------------------------------------------------------------------------- the filters

def test_the_library_is_filtered_by_game_and_expansion(client: FlaskClient) -> None:
    logs = {"base": generate_log("base", 2, 1),
            "ic": generate_log("base", 2, 2, expansions=["inns-cathedrals"]),
            "ic-hs": generate_log("base", 2, 3, expansions=["inns-cathedrals", "hills-sheep"]),
            "hg": generate_log("hunters-gatherers", 2, 4)}
    ids = {name: post(client, dumps(value)).get_json()["id"] for name, value in logs.items()}

    def found(query: str) -> set[str]:
        body = client.get(f"/api/games?{query}").get_json()
        assert body["total"] == len(body["games"])
        return {name for name, i in ids.items() if i in {g["id"] for g in body["games"]}}

    assert found("game=base") == {"base", "ic", "ic-hs"}
    assert found("game=hunters-gatherers") == {"hg"}
    assert found("expansion=inns-cathedrals") == {"ic", "ic-hs"}
    assert found("game=base&expansion=hills-sheep") == {"ic-hs"}
    assert found("game=hunters-gatherers&expansion=hills-sheep") == set()
    assert found("game=chess") == set() and found("expansion=%25") == set()
    page = client.get("/games?game=base&expansion=inns-cathedrals").get_data(as_text=True)
    assert '<option value="base" selected>' in page
    assert '<option value="inns-cathedrals" selected>' in page
    assert "2 games of Carcassonne with Inns" in page
    assert ids["ic"] in page and ids["ic-hs"] in page and ids["base"] not in page
    assert "game=base" in page.split('class="sortby"')[1].split("</nav>")[0]  # sorting keeps it
    hg = client.get("/games?game=hunters-gatherers").get_data(as_text=True)
    assert 'value="inns-cathedrals"' not in hg  # only the chosen game's expansions
