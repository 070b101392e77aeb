"""The spellings of a stored game: every file that arrived for it, and the merge of the games
stored twice before the library knew a game by its content (``replay.library.identity``).

A game is stored once (``games``, found by its ``content_key``); each distinct file that
arrived for it, by its bytes' ``sha256``, with the name it came under (an upload's file name,
the API's ``?name=``, ingest's ``file.jsonl#3``; "" when none was given), its ``meta`` block
and when it arrived, is a row of ``game_sources``. A spelling's id (the start of its sha256, as
a game's id is that of its first spelling) leads to its game (``resolve``): the URL of a game
merged into another, or of a file the library already had in another spelling, redirects to
the game kept.

What one game keeps is bounded, however often it is sent again with a new ``meta``: at most
``MAX_SOURCES`` spellings are noted (the first that arrived; a later one is still stored as
the same game and answered with its id, only its own id does not lead to it), and a spelling's
``meta`` is kept when its JSON is at most ``MAX_META`` bytes (a larger one is noted by its size:
the game's log keeps its first file's ``meta`` whole). ``sources`` lists as much, no more.
"""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from .identity import canonical_json, stored_identity

SOURCES = "game_sources"
MAX_SOURCES = 32  # spellings noted per game
MAX_META = 4096  # bytes of a spelling's meta (its canonical JSON) kept


def create_sources(db: Database) -> None:
    """The ``content_key`` column of ``games`` and the ``game_sources`` table."""
    db.table("games").add_column("content_key", str)
    sources = db.table(SOURCES)
    sources.create({"sha256": str, "name": str, "game_id": str, "meta": str, "created": str},
                   pk=("sha256", "name"), not_null=["game_id", "created"])
    sources.create_index(["game_id"])


def add_source(db: Database, game_id: str, sha256: str, name: str,
               meta: dict[str, Any] | None, created: str) -> None:
    """Note a spelling of game ``game_id`` (nothing when it is noted already, or when the game
    has ``MAX_SOURCES`` spellings noted); a ``meta`` over ``MAX_META`` bytes is noted by its
    size alone."""
    noted = db.execute(f"select count(*) from {SOURCES} where game_id = ?", [game_id])
    if noted.fetchone()[0] >= MAX_SOURCES:
        return
    text = None if meta is None else canonical_json(meta)
    if text is not None and len(text.encode("utf-8")) > MAX_META:
        text = str(len(text.encode("utf-8")))  # a number: a meta is an object, never one
    db.execute(f"insert or ignore into {SOURCES} (sha256, name, game_id, meta, created) "
               "values (?, ?, ?, ?, ?)", [sha256, name, game_id, text, created])


def has_source(db: Database, sha256: str, name: str) -> bool:
    """Whether the spelling ``sha256`` is noted under ``name`` already."""
    return bool(list(db.query(f"select 1 from {SOURCES} where sha256 = ? and name = ?",
                              [sha256, name])))


def sources(db: Database, game_id: str) -> list[dict[str, Any]]:
    """The spellings of a game, oldest first (the first ``MAX_SOURCES``): ``sha256``,
    ``name`` (None when none was given), ``meta`` (None when the file had none) and
    ``created``; ``meta_omitted``, the size in bytes of a ``meta`` over ``MAX_META`` (then
    ``meta`` is None)."""
    rows = db.query(f"select sha256, name, meta, created from {SOURCES} where game_id = ? "
                    "order by created, rowid limit ?", [game_id, MAX_SOURCES])
    return [_source(r) for r in rows]


def _source(row: dict[str, Any]) -> dict[str, Any]:
    out = {"sha256": row["sha256"], "name": row["name"] or None, "meta": None,
           "created": row["created"]}
    text = row["meta"]
    if text is not None:
        size = len(text.encode("utf-8"))
        if text.isdigit() or size > MAX_META:  # the size noted, or a meta noted before the bound
            out["meta_omitted"] = int(text) if text.isdigit() else size
        else:
            out["meta"] = json.loads(text)
    return out


def resolve(db: Database, game_id: str) -> str | None:
    """The id of the game a spelling's id (16 or 64 hex digits of its sha256) leads to: the
    game it was merged into, or whose content it has; None when no spelling has that id."""
    rows = list(db.query(f"select game_id from {SOURCES} where sha256 >= ? and sha256 < ? "
                         "order by created limit 1", [game_id, game_id + "g"]))
    return str(rows[0]["game_id"]) if rows else None


def merge_stored(db: Database) -> tuple[int, int]:
    """Compute every stored game's content key, note its spelling, and merge the games stored
    more than once into the oldest of each (its id kept; the others' ids then lead to it,
    their spellings noted with it). The caller holds the transaction. Returns how many games
    were stored and how many of them were merged away."""
    found = []  # id, sha256, created, content key, meta: first, then the writes
    for row in db.query("select id, sha256, created, log from games order by created, rowid"):
        key, meta = stored_identity(row["log"])
        found.append((row["id"], row["sha256"], row["created"], key, meta))
    kept: dict[str, str] = {}
    merged = 0
    for game_id, sha, created, key, meta in found:
        into = kept.setdefault(key, game_id)
        add_source(db, into, sha, "", meta, created)
        if into == game_id:
            db.execute("update games set content_key = ? where id = ?", [key, game_id])
        else:
            db.execute("delete from game_players where game_id = ?", [game_id])
            db.execute("delete from games where id = ?", [game_id])
            merged += 1
    games = db.table("games")
    games.create_index(["content_key"], unique=True)
    games.create_index(["game", "created"])
    return len(found), merged
