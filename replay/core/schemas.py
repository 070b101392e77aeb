"""Access to the versioned JSON Schemas in ``schema/``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMA_DIR = Path(__file__).resolve().parent.parent.parent / "schema"
FILES = {"log": "log-v1.schema.json", "tileset": "tileset-v1.schema.json"}


@cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``name`` (``log`` or ``tileset``), read once."""
    data: dict[str, Any] = json.loads((SCHEMA_DIR / FILES[name]).read_text(encoding="utf-8"))
    return data


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
