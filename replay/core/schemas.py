"""Access to the versioned JSON Schemas in ``schema/``."""

from __future__ import annotations

import json
import os
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

# text, not a pathlib.Path: pathlib costs a few milliseconds of a start that needs no schema
SCHEMA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))), "schema")
FILES = {"log": "log-v1.schema.json", "tileset": "tileset-v1.schema.json"}


@cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``name`` (``log`` or ``tileset``), read once."""
    data: dict[str, Any] = _read_json(os.path.join(SCHEMA_DIR, FILES[name]))
    return data


def _read_json(path: str) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.loads(f.read())


@cache
def validator(name: str) -> Draft202012Validator:
    """A Draft 2020-12 validator of the JSON Schema ``name``, built once; ``move`` is the
    log schema's definition of one move (to validate moves one at a time), and so
    is every other name of its ``$defs`` (a family's ``move_schema``)."""
    from jsonschema import Draft202012Validator  # on first use: it is slow to import

    if name != "log" and name in schema("log")["$defs"]:
        log = schema("log")
        return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": log["$defs"]})
    return Draft202012Validator(schema(name))
