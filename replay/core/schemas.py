"""The JSON Schemas (Draft 2020-12) of logs and tile sets, and their validators.

A log's schema is put together: the **envelope** here (format, version, game, players, seed,
end, moves, claims, meta: the same for every game, ``envelope``) and the **family's part**
(``Family.log_schema``: its header fields, its players' fields, one move and the definitions
they use). ``family_schema(fam)`` is the schema of a log of that family, and
``header_validator``/``move_validator`` validate it (the header; one move), each built on first
use: a log that the fast checks accept never builds one (``record.schema_check``). A log naming
no installed family is checked against the envelope alone (``envelope_validator``), which lets
any other field through: the family that would know them is missing.

``log_schema(families)`` is the whole schema of the given families in one document (the envelope,
the game among their names, each family's part under an ``if``/``then`` on its name):
``schema/log-v1.schema.json`` is that of the built-in families, written and checked by
``tools/log_schema.py``; ``validator("log")`` is that of every installed family.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from .family import COLOURS

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

    from .family import Family

# text, not a pathlib.Path: pathlib costs a few milliseconds of a start that needs no schema
SCHEMA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))), "schema")
FILES = {"log": "log-v1.schema.json", "tileset": "tileset-v1.schema.json"}
DRAFT = "https://json-schema.org/draft/2020-12/schema"
LOG_ID = "https://carcassonne-replay.example/schema/log-v1.schema.json"
REQUIRED = ["format", "version", "game", "players", "moves"]
PART_KEYS = ("header", "players", "move", "$defs")  # of ``Family.log_schema``


@cache
def envelope() -> dict[str, Any]:
    """The envelope of every log: its ``properties`` and the ``$defs`` (``scores``) that
    every family's part may use too. Family fields go after ``game``."""
    scores = {"type": "object", "maxProperties": 6,
              "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100000}}
    return {"properties": {
        "format": {"const": "carcassonne-replay/log"},
        "version": {"const": 1},
        "game": {"type": "string", "description": "The game: the name its family is "
                 "registered under (entry point group carcassonne_replay.families)."},
        "players": {
            "type": "array", "minItems": 2, "maxItems": 6,
            "items": {
                "type": "object",
                "required": ["name"],
                "additionalProperties": False,
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 64},
                    "colour": {"enum": list(COLOURS)},
                },
            },
        },
        "seed": {
            "description": "Seeded mode: the draw pile comes from this seed (G2). Without a "
                           "seed every move names its tile (L1).",
            "oneOf": [
                {"type": "integer", "minimum": 0, "maximum": 9007199254740991},
                {"type": "string", "minLength": 1, "maxLength": 128},
            ],
        },
        "end": {
            "enum": ["pile-empty", "after-last-move"],
            "description": "pile-empty (default): the game ends when the pile is used up "
                           "(G11). after-last-move: the game was stopped and scored after the "
                           "last move (an abandoned table game, a rulebook example).",
        },
        "moves": {"type": "array", "maxItems": 1000},
        "claims": {
            "type": "object",
            "description": "L2: scores the log claims; the verifier reports each that differs.",
            "additionalProperties": False,
            "properties": {
                "final_scores": {"$ref": "#/$defs/scores"},
                "winners": {"type": "array", "maxItems": 6,
                            "items": {"type": "string", "maxLength": 64}},
            },
        },
        "meta": {
            "type": "object",
            "description": "Free information (event, date, source); never read by the "
                           "verifier.",
            "maxProperties": 32,
            "additionalProperties": {"type": ["string", "number", "boolean", "null"],
                                     "maxLength": 1000},
        },
    }, "$defs": {"scores": scores}}


@cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``name``: ``tileset`` (read once from ``schema/``), or ``log``, the
    whole log schema of every installed family (``log_schema``)."""
    if name == "log":
        from .family import families

        return log_schema(families())
    data: dict[str, Any] = _read_json(os.path.join(SCHEMA_DIR, FILES[name]))
    return data


def _read_json(path: str) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.loads(f.read())


@cache
def validator(name: str) -> Draft202012Validator:
    """A Draft 2020-12 validator of the JSON Schema ``name`` (``schema``), built once."""
    return _validator(schema(name))


def _validator(document: Mapping[str, Any]) -> Draft202012Validator:
    from jsonschema import Draft202012Validator  # on first use: it is slow to import

    return Draft202012Validator(_refusing(document))


# ``{"not": {}}`` refuses any value as ``false`` does; jsonschema (4.26) reports a ``false``
# subschema without its path and rule (``validator`` None, no field named), so a field refused
# by ``false`` is validated as this instead: the error then has both (``schema_words``).
REFUSED: dict[str, Any] = {"not": {}}


def _refusing(value: Any) -> Any:
    """``value`` (a schema) with each ``false`` schema of a field or item (under
    ``properties``, ``patternProperties``, ``prefixItems``) written ``REFUSED``."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, sub in value.items():
            if key in ("properties", "patternProperties") and isinstance(sub, Mapping):
                out[key] = {k: REFUSED if v is False else _refusing(v) for k, v in sub.items()}
            elif key == "prefixItems" and isinstance(sub, list):
                out[key] = [REFUSED if v is False else _refusing(v) for v in sub]
            else:
                out[key] = _refusing(sub)
        return out
    if isinstance(value, list):
        return [_refusing(v) for v in value]
    return value


# ------------------------------------------------------------------ a family's logs


def part(fam: Family) -> dict[str, Any]:
    """``fam.log_schema()``, checked for what the envelope needs (``ValueError`` naming the
    family otherwise): the keys of ``PART_KEYS``, no field or definition of the envelope's."""
    found = fam.log_schema()
    env = envelope()
    where = f"the log schema of the family {fam.name!r}"
    if not isinstance(found, Mapping) or not set(found) <= set(PART_KEYS):
        raise ValueError(f"{where} is not an object of {', '.join(PART_KEYS)}")
    out = {"header": dict(found.get("header", {})), "players": dict(found.get("players", {})),
           "move": found.get("move", {"type": "object"}), "$defs": dict(found.get("$defs", {}))}
    for key, taken in (("header", env["properties"]),
                       ("players", env["properties"]["players"]["items"]["properties"]),
                       ("$defs", env["$defs"])):
        clash = sorted(set(out[key]) & set(taken))
        if clash:
            raise ValueError(f"{where} redefines {', '.join(clash)} of the envelope "
                             f"({key})")
    return out


def _with(base: Mapping[str, Any], after: str, more: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``more`` inserted after its key ``after``."""
    out: dict[str, Any] = {}
    for key, value in base.items():
        out[key] = value
        if key == after:
            out.update(more)
    return out


def _players(players: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    items = players["items"]
    return {**players, "items": {**items, "properties": {**items["properties"], **fields}}}


@cache
def family_schema(fam: Family) -> dict[str, Any]:
    """The schema of a log of ``fam``: the envelope with the family's part."""
    p = part(fam)
    props = _with(envelope()["properties"], "game", p["header"])
    props["players"] = _players(props["players"], p["players"])
    props["moves"] = {**props["moves"], "items": p["move"]}
    return {"$schema": DRAFT, "type": "object", "required": REQUIRED,
            "additionalProperties": False, "properties": props,
            "$defs": {**envelope()["$defs"], **p["$defs"]}}


@cache
def header_validator(fam: Family) -> Draft202012Validator:
    """A validator of a log of ``fam`` (its header: give it ``{**log, "moves": []}``)."""
    return _validator(family_schema(fam))


@cache
def move_validator(fam: Family) -> Draft202012Validator:
    """A validator of one move of a log of ``fam``."""
    p = part(fam)
    defs = {**envelope()["$defs"], **p["$defs"]}
    move = p["move"]
    if isinstance(move, Mapping) and "$defs" not in move:
        return _validator({**move, "$defs": defs})
    return _validator({"allOf": [move], "$defs": defs})


@cache
def envelope_validator() -> Draft202012Validator:
    """A validator of the envelope alone, for a log of no installed family: any other field
    of the log or of a player passes (the missing family would know them)."""
    props = dict(envelope()["properties"])
    players = props["players"]
    items = {k: v for k, v in players["items"].items() if k != "additionalProperties"}
    props["players"] = {**players, "items": items}
    return _validator({"$schema": DRAFT, "type": "object", "required": REQUIRED,
                       "properties": props, "$defs": envelope()["$defs"]})


# ------------------------------------------------------------------ the whole schema


def log_schema(families: Iterable[Family]) -> dict[str, Any]:
    """The whole log schema of ``families`` in one document (Draft 2020-12): the envelope with
    ``game`` one of their names, each family's header fields and players' fields allowed at
    the top and held to the family's part by an ``if``/``then`` on ``game`` (families with
    equal parts share one), every field of another family ``false`` there."""
    fams = sorted(families, key=lambda f: f.name)
    defs = dict(envelope()["$defs"])
    groups: list[tuple[list[str], dict[str, Any]]] = []
    for fam in fams:
        p = _merge_defs(part(fam), defs, fam.name)
        same = next((names for names, q in groups if q == p), None)
        if same is not None:
            same.append(fam.name)
        else:
            groups.append(([fam.name], p))
    header = list(dict.fromkeys(k for _, p in groups for k in p["header"]))
    players = list(dict.fromkeys(k for _, p in groups for k in p["players"]))
    props = _with(envelope()["properties"], "game", dict.fromkeys(header, True))
    props["game"] = {**props["game"], "enum": [f.name for f in fams]}
    props["players"] = _players(props["players"], dict.fromkeys(players, True))
    return {
        "$schema": DRAFT,
        "$id": LOG_ID,
        "title": "Game log, version 1: " + ", ".join(f.label for f in fams),
        "description": "A game as a header (format, version, game, players, seed and the "
                       "game's own fields) and the list of its moves. Generated from the "
                       "families (tools/log_schema.py); see docs/log-format.md.",
        "type": "object",
        "required": REQUIRED,
        "additionalProperties": False,
        "properties": props,
        "allOf": [_branch(names, p, header, players) for names, p in groups],
        "$defs": defs,
    }


def _branch(names: list[str], p: Mapping[str, Any], header: list[str],
            players: list[str]) -> dict[str, Any]:
    game = {"const": names[0]} if len(names) == 1 else {"enum": names}
    then: dict[str, Any] = {k: p["header"].get(k, False) for k in header}
    if players:
        then["players"] = {"items": {"properties": {k: p["players"].get(k, False)
                                                    for k in players}}}
    then["moves"] = {"items": p["move"]}
    return {"if": {"required": ["game"], "properties": {"game": game}},
            "then": {"properties": then}}


def _merge_defs(p: dict[str, Any], defs: dict[str, Any], game: str) -> dict[str, Any]:
    """``p`` with its definitions added to ``defs``; one whose name another family's
    definition has already taken is renamed ``game:name`` (and so are the references to it)."""
    renamed = {name: f"{game}:{name}" for name, d in p["$defs"].items()
               if name in defs and defs[name] != d}
    if renamed:
        p = _rename(p, {f"#/$defs/{a}": f"#/$defs/{b}" for a, b in renamed.items()})
        p["$defs"] = {renamed.get(k, k): v for k, v in p["$defs"].items()}
    for name, d in p["$defs"].items():
        defs.setdefault(name, d)
    return p


def _rename(value: Any, refs: Mapping[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: refs.get(v, v) if k == "$ref" and isinstance(v, str) else _rename(v, refs)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, refs) for v in value]
    return value


def schema_text(document: Any, width: int = 100) -> str:
    """``document`` as JSON text the way ``schema/`` keeps it: two spaces a level, and each
    value that fits in ``width`` columns on one line."""
    return _text(document, 0, width) + "\n"


def _text(value: Any, indent: int, width: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if indent + len(flat) <= width or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        inner = [pad + _text(v, indent + 2, width) for v in value]
        return "[\n" + ",\n".join(inner) + "\n" + " " * indent + "]"
    inner = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_text(v, indent + 2, width)}"
             for k, v in value.items()]
    return "{\n" + ",\n".join(inner) + "\n" + " " * indent + "}"
