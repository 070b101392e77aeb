"""The fast header check (``replay.core.header_check``) accepts only headers the JSON Schema
accepts: on real headers of every family, on every header value replaced by awkward values,
and on random mutations (hypothesis). The schema stays the reference: whatever the fast check
is not sure of goes to it, so a header it refuses is never wrongly accepted."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from replay.core import header_check
from replay.core.errors import LogFormatError
from replay.core.family import Family, families, family
from replay.core.json_input import check_bounds
from replay.core.schemas import validator
from tests.hostile import base_logs, json_values

AWKWARD: list[Any] = [None, True, 0, 1, -1, 2, 7, 21, 49, 101, 2**53, 1.5, "", "x", "x" * 65,
                      "x" * 129, "south", "blue", "yellow", "hills-sheep", "per-field", "0" * 64,
                      [], [1], [0] * 9, [1, 2, 3, 4], ["red"], {}, {"id": "x", "sha256": "0"},
                      {"x": 1}, [[0, 1, 2, 3]] * 2, [[9, 9]]]
HEADER_KEYS = ["deal", "material", "side", "second_colour", "tileset", "expansions", "options",
               "end", "claims", "meta", "seed", "extra"]


def header_paths(value: Any, parts: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a log's header (not into its moves)."""
    out = [parts] if parts else []
    if isinstance(value, dict):
        for k, v in value.items():
            if parts or k != "moves":
                out += header_paths(v, (*parts, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += header_paths(v, (*parts, i))
    return out


def verdicts(log: dict[str, Any]) -> tuple[bool, bool] | None:
    """(fast check sure, schema valid) for a log's header; None when the structural limits
    or an unknown game end the check before either runs."""
    try:
        check_bounds({k: v for k, v in log.items() if k != "moves"})
    except LogFormatError:
        return None
    game = log.get("game")
    if type(game) is not str or game not in {f.name for f in families()}:
        return None
    fast = header_check.surely_valid(log, family(game))
    return fast, validator("log").is_valid({**log, "moves": []})


def test_real_headers_take_the_fast_path() -> None:
    for label, log in base_logs():
        assert verdicts(log) == (True, True), label


def test_every_header_value_replaced() -> None:
    """Each value of each header replaced by each awkward value: never accepted wrongly; both
    outcomes are reached (valid and sure; invalid). On these the check is also never unsure
    of a valid header, so the schema runs only to name an error."""
    seen: Counter[tuple[bool, bool]] = Counter()
    for label, original in base_logs():
        for path in header_paths(original):
            for value in AWKWARD:
                log = copy.deepcopy(original)
                target = log
                for p in path[:-1]:
                    target = target[p]
                target[path[-1]] = copy.deepcopy(value)
                got = verdicts(log)
                if got is None:
                    continue
                assert got != (True, False), (label, path, value)
                seen[got] += 1
        for key in HEADER_KEYS:
            for value in AWKWARD:
                log = copy.deepcopy(original)
                (log["players"][0] if key in ("side", "second_colour") else log)[key] = value
                got = verdicts(log)
                if got is not None:
                    assert got != (True, False), (label, key, value)
                    seen[got] += 1
    assert seen[(True, True)] > 500 and seen[(False, False)] > 5000, seen
    assert seen[(False, True)] == 0, seen


def _families_with_fast_headers() -> list[Family]:
    return [f for f in families() if type(f).header_surely_valid is not Family.header_surely_valid]


def test_every_family_has_a_fast_header_check() -> None:
    assert {f.name for f in _families_with_fast_headers()} == {f.name for f in families()}


@st.composite
def mutated_headers(draw: st.DrawFn) -> dict[str, Any]:
    label, original = draw(st.sampled_from(base_logs()))
    log: dict[str, Any] = json.loads(json.dumps(original))
    log["moves"] = []
    for _ in range(draw(st.integers(1, 3))):
        paths = header_paths(log)
        kind = draw(st.sampled_from(["replace", "delete", "add"]))
        if kind == "add" or not paths:
            holder = draw(st.sampled_from([log, *(p for p in log.get("players", [])
                                                  if isinstance(p, dict))]))
            holder[draw(st.sampled_from(HEADER_KEYS))] = draw(json_values(6))
            continue
        path = draw(st.sampled_from(paths))
        target = log
        for p in path[:-1]:
            target = target[p]
        if kind == "delete":
            del target[path[-1]]
        else:
            target[path[-1]] = draw(st.one_of(st.sampled_from(AWKWARD), json_values(6)))
    event(f"mutated header of {label.split('+')[0]}")
    return log


@settings(max_examples=400, deadline=None, derandomize=True)
@given(mutated_headers())
def test_mutated_headers(log: dict[str, Any]) -> None:
    got = verdicts(log)
    event("refused before the checks" if got is None else
          f"fast check {'sure' if got[0] else 'unsure'}, schema "
          f"{'valid' if got[1] else 'invalid'}")
    assert got != (True, False)
