"""A fast check of a log header that accepts only what its JSON Schema accepts.

Validating a header with ``jsonschema`` costs more than replaying a short game, so
``record.schema_check`` asks this module first: ``surely_valid(data, family)`` is True
only for a header the family's log schema would accept (``schemas.family_schema``): the
envelope here, the family's own fields through ``Family.header_surely_valid``. Anything
else, however harmless, goes to the schema, which stays the reference and names the error
with its JSON path.
``tests/test_header_check.py`` checks on generated and mutated headers that every header
accepted here is valid under the schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .json_input import plain_int, scores_object, text

if TYPE_CHECKING:
    from .family import Family

FORMAT = "carcassonne-replay/log"
ENVELOPE = frozenset({"format", "version", "game", "players", "seed", "end", "moves", "claims",
                      "meta"})
PLAYER_FIELDS = frozenset({"name", "colour"})
COLOURS = frozenset({"red", "blue", "green", "yellow", "black", "grey"})  # the schema's enum
ENDS = frozenset({"pile-empty", "after-last-move"})
MAX_SEED = 9007199254740991


def surely_valid(data: Mapping[str, Any], family: Family) -> bool:
    """The header of ``data`` (all but ``moves``) is valid under the log schema of
    ``family``; False means "not sure" (the schema decides)."""
    if not (ENVELOPE | family.header_fields).issuperset(data):
        return False
    if data.get("format") != FORMAT or not plain_int(data.get("version"), 1, 1):
        return False
    if type(data.get("game")) is not str:
        return False
    if not _players(data.get("players"), PLAYER_FIELDS | family.player_fields):
        return False
    if "seed" in data:
        seed = data["seed"]
        if not (plain_int(seed, 0, MAX_SEED) or text(seed, 1, 128)):
            return False
    if "end" in data and not (type(data["end"]) is str and data["end"] in ENDS):
        return False
    if "claims" in data and not _claims(data["claims"]):
        return False
    if "meta" in data and not _meta(data["meta"]):
        return False
    return family.header_surely_valid(data)


def _players(players: Any, fields: frozenset[str]) -> bool:
    if type(players) is not list or not 2 <= len(players) <= 6:
        return False
    for p in players:
        if type(p) is not dict or not fields.issuperset(p) or not text(p.get("name"), 1, 64):
            return False
        if "colour" in p and not (type(p["colour"]) is str and p["colour"] in COLOURS):
            return False
    return True


def _claims(claims: Any) -> bool:
    if type(claims) is not dict or not {"final_scores", "winners"}.issuperset(claims):
        return False
    if "final_scores" in claims and not scores_object(claims["final_scores"]):
        return False
    if "winners" in claims:
        winners = claims["winners"]
        if type(winners) is not list or len(winners) > 6:
            return False
        if not all(text(w, 0, 64) for w in winners):
            return False
    return True


def _meta(meta: Any) -> bool:
    if type(meta) is not dict or len(meta) > 32:
        return False
    for v in meta.values():
        kind = type(v)
        if kind is str:
            if len(v) > 1000:
                return False
        elif kind not in (int, float, bool) and v is not None:
            return False
    return True
