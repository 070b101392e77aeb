"""Where a stored game came from when it is a variation of another.

The analysis board saves a variation as a game whose log's ``meta`` says so:
``{"variation_of": <the game's id>, "from": b}`` (``web.analysis.save_variation``). That block
is what a file says of itself, and anyone can write one: the library takes it at its word only
as far as it can check it. When the game named is stored here (by its id, or the id of a
spelling that leads to it, ``spellings.resolve``), the claim holds when the variation's log is
that game's header and first ``b`` moves followed by moves of its own (what
``replay.core.explore.variation_log`` makes); a claim that does not hold is dropped (nothing is
said). When the game named is not stored here (a log saved on another server), the claim is
told as it is, by the id alone, with no link to follow.

The claim read is the stored log's own (the first file that brought the game, as the viewer
shows it), not a later spelling's: a game is the same game whatever ``meta`` its later files
carry.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from ..core.json_input import MAX_MOVES
from .spellings import SOURCES, resolve
from .store import LIST_COLUMNS, GameRow

GAME_ID = re.compile(r"[0-9a-f]{16}(?:[0-9a-f]{48})?")
MARK = '"variation_of"'  # a log without this text makes no claim (not parsed to find out)


@dataclass(frozen=True, slots=True)
class VariationOf:
    """A game's claim to be a variation of game ``id`` from position ``base``; ``original``:
    that game's row as the library lists it (no log), None when it is not stored here."""

    id: str
    base: int
    original: GameRow | None

    def as_json(self) -> dict[str, Any]:
        """``{"id": ..., "from": b}``, as the API gives it."""
        return {"id": self.id, "from": self.base}


def claim_of(meta: Any) -> tuple[str, int] | None:
    """The (game id, branch) a log's ``meta`` block claims, or None when it claims none or
    names them in any other shape (an id that is not 16 or 64 hex digits, a branch that is
    not a whole number of moves a log can hold)."""
    if not isinstance(meta, dict):
        return None
    game_id, base = meta.get("variation_of"), meta.get("from")
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        return None
    if type(base) is not int or not 0 <= base <= MAX_MOVES:
        return None
    return game_id, base


def claim_in(log_text: str) -> tuple[str, int] | None:
    """The claim of a stored log's text (``claim_of`` its ``meta``); None for a log that makes
    none or cannot be read."""
    if MARK not in log_text:
        return None
    try:
        value = json.loads(log_text)
    except ValueError:
        return None
    return claim_of(value.get("meta")) if isinstance(value, dict) else None


def variations_of(db: Database, game_ids: Iterable[str]) -> dict[str, VariationOf]:
    """The claims that hold (see the module) of the stored games ``game_ids``, by game id."""
    ids = list(dict.fromkeys(game_ids))
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    # the stored log's meta is its first spelling's (``spellings``): a log is read only when
    # a spelling's meta names a variation, or was too large to be noted (its size instead)
    rows = db.query(f"select id, log from games where id in (select game_id from {SOURCES} "
                    f"where game_id in ({marks}) and (instr(meta, ?) > 0 or meta glob "
                    f"'[0-9]*')) and instr(log, ?) > 0", [*ids, MARK, MARK])
    found = {}
    for row in rows:
        claim = claim_in(row["log"])
        if claim is not None:
            held = check(db, row["id"], *claim)
            if held is not None:
                found[row["id"]] = held
    return found


def check(db: Database, game_id: str, original_id: str, base: int) -> VariationOf | None:
    """The claim of game ``game_id`` to be a variation of ``original_id`` from ``base``, when
    it holds (or cannot be checked: the original is not stored here); None when it does not."""
    original = _listed(db, original_id)
    if original is None:
        kept = resolve(db, original_id)
        original = _listed(db, kept) if kept is not None else None
    if original is None:
        return VariationOf(original_id, base, None)
    if original.id == game_id:
        return None
    mine, theirs = _body(db, game_id), _body(db, original.id)
    if mine is None or theirs is None:
        return None
    moves, their_moves = mine.pop("moves", None), theirs.pop("moves", None)
    if not isinstance(moves, list) or not isinstance(their_moves, list):
        return None
    if mine != theirs or not base <= len(their_moves) or len(moves) <= base \
            or moves[:base] != their_moves[:base]:
        return None
    return VariationOf(original.id, base, original)


def _listed(db: Database, game_id: str) -> GameRow | None:
    rows = list(db.query(f"select {LIST_COLUMNS} from games where id = ?", [game_id]))
    return GameRow.from_row(rows[0]) if rows else None


def _body(db: Database, game_id: str) -> dict[str, Any] | None:
    """A stored log without what a variation does not take of its game (``meta``, the
    claims, the end), decoded; None when it cannot be read."""
    rows = list(db.query("select case when json_valid(log) then json_remove(log, '$.meta', "
                         "'$.claims', '$.end') end as body from games where id = ?", [game_id]))
    if not rows or rows[0]["body"] is None:
        return None
    try:
        value = json.loads(rows[0]["body"])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
