"""The log schema put together (issue 28, item 1): the envelope of ``replay.core.schemas`` and
each family's part (``Family.log_schema``).

The published ``schema/log-v1.schema.json`` is generated from the built-in families and must
equal the committed file; every schema is a valid Draft 2020-12 schema; the fields the fast
header check knows (``Family.header_fields``, ``player_fields``) are those of the family's
part; a family's own schema and the whole schema agree on every log (fixtures and mutated
logs); errors name the JSON path as before; a family without a schema of its own gets the
default part; a definition two families name differently is kept apart.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

from replay.core import schemas
from replay.core.errors import LogFormatError
from replay.core.family import Family, families, family
from replay.core.record import parse
from replay.games.carcassonne import Carcassonne
from replay.generate import generate_log
from tests.hostile import base_logs, mutated_logs

ROOT = Path(__file__).resolve().parent.parent
LOGS = sorted(p for folder in ("rulebook", "expansions", "hunters-gatherers", "invalid",
                               "manhattan")
              for p in (ROOT / "fixtures" / folder).rglob("*.json"))


def _built_in() -> list[Family]:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import log_schema
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return log_schema.built_in()


def test_the_published_schema_is_the_built_in_families() -> None:
    """``tools/log_schema.py`` wrote the committed file from the families (run it after a
    family's part changes)."""
    committed = (ROOT / "schema" / "log-v1.schema.json").read_text(encoding="utf-8")
    assert committed == schemas.schema_text(schemas.log_schema(_built_in()))
    done = subprocess.run([sys.executable, "tools/log_schema.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(schemas.log_schema(families()))
    Draft202012Validator.check_schema(json.loads(
        (ROOT / "schema" / "log-v1.schema.json").read_text(encoding="utf-8")))
    for fam in families():
        Draft202012Validator.check_schema(schemas.family_schema(fam))
        Draft202012Validator.check_schema(schemas.move_validator(fam).schema)
    Draft202012Validator.check_schema(schemas.envelope_validator().schema)


def test_the_fast_check_knows_the_fields_of_each_part() -> None:
    for fam in families():
        part = schemas.part(fam)
        assert fam.header_fields == {k for k, v in part["header"].items() if v is not False}
        assert fam.player_fields == {k for k, v in part["players"].items() if v is not False}


def _verdicts(log: Any) -> tuple[bool, bool] | None:
    """(valid under the whole schema, valid under its family's), None for a log of no
    family."""
    if type(log) is not dict or type(log.get("game")) is not str:
        return None
    try:
        fam = family(log["game"])
    except LogFormatError:
        return None
    return schemas.validator("log").is_valid(log), schemas.header_validator(fam).is_valid(log)


def test_the_whole_schema_and_each_family_s_agree_on_the_fixtures() -> None:
    seen = []
    for path in LOGS:
        try:
            log = json.loads(path.read_bytes())
        except ValueError:
            continue
        got = _verdicts(log)
        if got is not None:
            assert got[0] == got[1], path
            seen.append(got[0])
    for label, log in base_logs():
        assert _verdicts(log) == (True, True), label
    assert True in seen and False in seen


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(mutated_logs())
def test_the_whole_schema_and_each_family_s_agree_on_mutated_logs(data: bytes) -> None:
    try:
        log = json.loads(data)
    except ValueError:
        return
    got = _verdicts(log)
    if got is not None:
        assert got[0] == got[1]


def _error(log: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(LogFormatError) as info:
        parse(log)
    return info.value.path, info.value.message


@pytest.mark.parametrize(("game", "where", "field"), [
    ("base", (), "material"), ("hunters-gatherers", (), "deal"), ("manhattan", (), "tileset"),
    ("base", ("players", 0), "side"), ("hunters-gatherers", ("players", 1), "second_colour"),
    ("manhattan", (), "extra"), ("base", ("players", 0), "extra"),
])
def test_another_family_s_field_is_refused(game: str, where: tuple[Any, ...],
                                          field: str) -> None:
    log = generate_log(game, 2, 1)
    holder = log
    for step in where:
        holder = holder[step]
    holder[field] = "north"
    path, message = _error(log)
    holder_path = "".join(f"/{step}" for step in where)
    # a field of another family is refused where it is; an unknown one, in what holds it
    assert path == (holder_path if field == "extra" else f"{holder_path}/{field}"), path
    assert f"'{field}' is not a field of " in message and "None" not in message, message
    assert not schemas.validator("log").is_valid(log)


def test_an_unknown_move_field_is_refused_where_it_is() -> None:
    log = generate_log("base", 2, 1)
    log["moves"][3]["extra"] = 1
    assert _error(log)[0] == "/moves/3"


class _Plain(Carcassonne):
    """A family with the default part (``Family.log_schema``)."""

    name = "plain"
    label = "Plain"

    def log_schema(self) -> dict[str, Any]:
        return Family.log_schema(self)


def test_a_family_without_a_schema_of_its_own_takes_the_default() -> None:
    """By default: ``expansions`` a list of distinct names, ``options`` an object, any other
    header field any value, a move any object; the family checks the rest."""
    fam = _Plain()
    part = schemas.part(fam)
    assert set(part["header"]) == {"expansions", "options", "tileset"}
    assert part["header"]["tileset"] is True and part["move"] == {"type": "object"}
    Draft202012Validator.check_schema(schemas.family_schema(fam))
    log = {**generate_log("base", 2, 3), "game": "plain"}
    assert schemas.header_validator(fam).is_valid(log)
    assert not schemas.move_validator(fam).is_valid([1])
    assert not schemas.header_validator(fam).is_valid({**log, "expansions": ["x", "x"]})


class _Other(Carcassonne):
    """A family whose part names a definition as the built-in ones do, with another
    content."""

    name = "other"
    label = "Other"

    def log_schema(self) -> dict[str, Any]:
        return {"move": {"$ref": "#/$defs/move"},
                "$defs": {"move": {"type": "object", "required": ["go"]}}}


def test_a_definition_two_families_name_alike_is_kept_apart() -> None:
    whole = schemas.log_schema([*families(), _Other()])
    Draft202012Validator.check_schema(whole)
    assert whole["$defs"]["other:move"] == {"type": "object", "required": ["go"]}
    assert "x" in whole["$defs"]["move"]["properties"]
    check = Draft202012Validator(whole)
    other = {"format": "carcassonne-replay/log", "version": 1, "game": "other",
             "players": [{"name": "A"}, {"name": "B"}], "moves": [{"go": 1}]}
    assert check.is_valid(other)
    assert not check.is_valid({**other, "moves": [{"x": 0, "y": 1, "rotation": 0}]})
    assert check.is_valid(generate_log("base", 2, 1))


def test_a_part_that_redefines_the_envelope_is_refused() -> None:
    class Clash(_Plain):
        name = "clash"

        def log_schema(self) -> dict[str, Any]:
            return {"header": {"seed": True}}

    with pytest.raises(ValueError, match="redefines seed"):
        schemas.part(Clash())


def test_the_schema_of_no_family_checks_the_envelope_alone() -> None:
    log = copy.deepcopy(generate_log("manhattan", 2, 1))
    log["game"] = "chess"
    path, message = _error(log)
    assert (path, message.split(" (")[0]) == ("/game", "this service plays no game 'chess'")
    log["format"] = "x"
    assert _error(log)[0] == "/format"


def test_the_tile_part_takes_its_expansions_and_options_from_the_families() -> None:
    """Issue 36 item 1: the tile families' shared header names each expansion and option as
    ``Family.expansions`` and ``options`` say (values, rule and help), not a copy of them."""
    header = family("base").log_schema()["header"]
    tile_families = [family("base"), family("hunters-gatherers")]
    assert header["expansions"]["items"]["enum"] == [
        name for fam in tile_families for name in fam.expansions]
    assert header["options"]["properties"] == {
        o.key: {"enum": list(o.choices), "description": f"{o.rule}: {o.help}"}
        for fam in tile_families for o in fam.options}
    assert family("hunters-gatherers").log_schema()["header"] is header
