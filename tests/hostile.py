"""Hostile input for the drill: Hypothesis strategies for bad JSON and for mutated logs.

Two families of input, both as the bytes a client would send:

* ``hostile_documents``: arbitrary JSON values (odd strings: lone surrogates, markup, control
  characters, very long ones; odd numbers: floats, huge integers) and raw text that is hardly
  JSON at all (random bytes, truncated or deeply nested documents, duplicate keys, NaN);
* ``mutated_logs``: a real log of every family and expansion mix (a random legal game cut to
  its first moves; Manhattan also with two players and as a table game without a seed), with
  one to three mutations at a random JSON path (a value replaced by a hostile one, a key
  removed or added, a number nudged or written as a float, a move duplicated, a Manhattan
  field given a near-miss value: ``manhattan_field``) and sometimes a mutation of the text
  itself;
* ``mutated_foreign``: the JCloisterZone saves and Board Game Arena logs of the fixtures, with
  the same mutations (replay messages duplicated, dropped, swapped).

Each strategy labels what it drew with ``event()`` so that the statistics show which kinds of
input the run reached. ``tests/test_hostile.py`` runs them in CI; ``tools/drill.py`` runs many
more against a real server.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from replay.core.family import families
from replay.generate import generate_log

NASTY_STRINGS = [
    "\ud800", "a\udfffb", "\udbff\udc00", "\x00", "\x1b[31m", "\u202etxet", "\ufeff",
    "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "]]><!--", "&amp;&lt;",
    "'; drop table games; --", "%s%n%x", "../../etc/passwd", "𝕏🂡", "é" * 70,
    "", " ", "NaN", "1e999", "wolf", "inns-cathedrals", "hills-sheep", "base",
]

NASTY_NUMBERS = [
    0.0, 1.0, -0.0, 0.5, 90.0, 1e23, -1e308, 2**53, 2**63, -(2**63) - 1, 10**30, -1, 1001,
    -1001, 100001, 9007199254740992, True, False,
]


@cache
def scalars() -> st.SearchStrategy[Any]:
    """JSON scalars, the nasty ones often."""
    return st.one_of(
        st.none(), st.booleans(), st.sampled_from(NASTY_NUMBERS),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(NASTY_STRINGS), st.text(max_size=20),
        st.builds(lambda: "x" * 5000))  # built, so that statistics do not print it


@cache
def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Arbitrary (small) JSON values built of ``scalars`` (built once: a strategy is validated
    on its first draw, and that costs more than drawing)."""
    keys = st.one_of(st.sampled_from(["moves", "x", "tile", "figure", "at", "players", "name",
                                      "seed", "__proto__", "\ud800"]), st.text(max_size=8))
    return st.recursive(scalars(), lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
        max_leaves=max_leaves)


def to_bytes(value: Any) -> bytes:
    """A JSON value as UTF-8 bytes (lone surrogates written as escapes, as JSON allows)."""
    return json.dumps(value).encode("ascii")


RAW_TEXTS = [
    b"", b"{", b"[" * 100_000, b"{\"a\":" * 50_000, b"nul", b"NaN", b"[NaN]", b"[Infinity]",
    b"\xff\xfe{}", b"\xef\xbb\xbf{}", b"{\"format\": 1, \"format\": 2}", b"1" * 5000,
    b"[1e999]", b"{\"moves\": [" + b"{}," * 100_000 + b"{}]}", b"\"\\ud800\"",
    b"{\"players\": [{\"name\": \"\\udc00\"}]}", b"[\"" + b"\\u0000" * 1000 + b"\"]",
]


@st.composite
def hostile_documents(draw: st.DrawFn) -> bytes:
    """Bytes that are not a log: arbitrary JSON, raw junk, or a known nasty text."""
    kind = draw(st.sampled_from(["json", "object", "bytes", "raw"]))
    event(f"hostile document: {kind}")
    if kind == "json":
        return to_bytes(draw(json_values()))
    if kind == "object":  # a log-shaped object with arbitrary values
        fields = ["format", "version", "game", "expansions", "options", "players", "seed",
                  "moves", "claims", "meta", "end", "tileset"]
        chosen = draw(st.lists(st.sampled_from(fields), max_size=len(fields), unique=True))
        return to_bytes({k: draw(json_values(6)) for k in chosen})
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    return draw(st.sampled_from(RAW_TEXTS))


@cache
def base_logs() -> list[tuple[str, dict[str, Any]]]:
    """A random legal game of every family and expansion mix (label, log); Manhattan also with
    two players (two colours each, M7) and as a table game (no seed: the deal and every draw
    are in the log, M3)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for fam in families():
        for mix in fam.mixes():
            label = "+".join((fam.name, *mix))
            out.append((label, generate_log(fam.name, 2 + len(out) % 3, 40 + len(out), mix)))
    out.append(("manhattan, 2 players", generate_log("manhattan", 2, 46)))
    table = generate_log("manhattan", 3, 47)
    del table["seed"]
    out.append(("manhattan, table", table))
    return out


def _paths(value: Any, parts: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [parts]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*parts, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*parts, i))
    return out


def _get(value: Any, parts: tuple[Any, ...]) -> Any:
    for p in parts:
        value = value[p]
    return value


@cache
def foreign_files() -> list[tuple[str, Any]]:
    """Every foreign saved game of the fixtures (label, decoded JSON)."""
    root = Path(__file__).resolve().parent.parent / "fixtures" / "import"
    return [(str(p.relative_to(root)), json.loads(p.read_text(encoding="utf-8")))
            for p in sorted(root.rglob("*")) if p.suffix in (".jcz", ".json")
            and p.name != "expected.json"]


@st.composite
def mutated_foreign(draw: st.DrawFn) -> bytes:
    """A JCloisterZone save or a Board Game Arena log with one to three mutations."""
    label, original = draw(st.sampled_from(foreign_files()))
    value = json.loads(json.dumps(original))
    event(f"mutated foreign file: {label.split('/')[0]}")
    for _ in range(draw(st.integers(1, 3))):
        _mutate(draw, value)
    return to_bytes(value)


MUTATIONS = ["replace", "delete", "add key", "nudge", "float", "wrap", "duplicate move",
             "drop move", "swap moves", "manhattan field"]

# Manhattan's fields (docs/log-format.md), with values near the legal ones: most pass the
# schema and reach the engine
_CARDS = [-1, 0, 4, 8, 9, 1000, 1001, 2**63, 1.0, "4", None, True]
_COLOURS = ["blue", "black", "red", "green", "yellow", "grey", "Blue", "", None, 1]
_CITIES = ["Manhattan", "Frankfurt", "Sydney", "Hong Kong", "São Paulo", "Cairo", "Paris",
           "manhattan", "Sao Paulo", "", "\ud800", 4, None]
MANHATTAN_MOVE_FIELDS = ["card", "city", "storeys", "colour", "draw", "discard", "choose"]
MANHATTAN_HEADER_FIELDS = ["deal", "material", "side", "second_colour", "seed"]


@cache
def manhattan_values(field: str) -> st.SearchStrategy[Any]:
    """Near-miss values of one Manhattan field (or an arbitrary JSON value)."""
    heights = st.lists(st.one_of(st.integers(-1, 6), st.sampled_from([1.0, "2", None])),
                       max_size=8)
    near: dict[str, st.SearchStrategy[Any]] = {
        "card": st.sampled_from(_CARDS), "draw": st.sampled_from(_CARDS),
        "discard": st.sampled_from(_CARDS),
        "city": st.sampled_from(_CITIES), "colour": st.sampled_from(_COLOURS),
        "second_colour": st.sampled_from(_COLOURS),
        "storeys": st.one_of(st.integers(-1, 6), st.sampled_from([1.0, "2", None, 2**63])),
        "choose": st.dictionaries(st.sampled_from(_COLOURS[:7]), heights, max_size=3),
        "side": st.sampled_from(["south", "west", "north", "east", "up", "", None]),
        "deal": st.lists(st.lists(st.integers(-1, 10), max_size=6), max_size=7),
        "material": st.fixed_dictionaries({}, optional={
            "cards_per_lot": st.lists(st.integers(-1, 21), min_size=8, max_size=10),
            "pieces": st.lists(st.integers(-1, 49), min_size=3, max_size=5),
            "hand_size": st.integers(-1, 9)}),
        "seed": st.sampled_from([None, 0, "", "x" * 129, 2**53]),
    }
    return st.one_of(near[field], near[field], json_values(4))  # near values twice as often


@st.composite
def mutated_logs(draw: st.DrawFn) -> bytes:
    """A real log (cut to its first moves) with one to three mutations."""
    label, original = draw(st.sampled_from(base_logs()))
    log = json.loads(json.dumps(original))
    log["moves"] = log["moves"][:draw(st.integers(0, 24))]
    log.pop("claims", None)
    event(f"mutated log of {label}")
    for _ in range(draw(st.integers(1, 3))):
        _mutate(draw, log)
    data = to_bytes(log)
    if draw(st.integers(0, 9)) == 0:
        text_kind = draw(st.sampled_from(["truncate", "duplicate key", "byte"]))
        event(f"text mutation: {text_kind}")
        if text_kind == "truncate":
            data = data[:draw(st.integers(0, max(0, len(data) - 1)))]
        elif text_kind == "duplicate key":
            data = data.replace(b'"players":', b'"seed": 1, "players":', 1).replace(
                b'"seed": 1, "players":', b'"seed": 1, "seed": 2, "players":', 1)
        else:
            at = draw(st.integers(0, max(0, len(data) - 1)))
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
    return data


def _mutate(draw: st.DrawFn, log: dict[str, Any]) -> None:
    kind = draw(st.sampled_from(MUTATIONS))
    lists = [v for v in (log.get("moves"), log.get("replay")) if isinstance(v, list)]
    moves = lists[0] if lists else []
    if kind in ("duplicate move", "drop move", "swap moves"):
        if not moves:
            return
        i = draw(st.integers(0, len(moves) - 1))
        j = draw(st.integers(0, len(moves) - 1))
        if kind == "duplicate move":
            moves.insert(j, json.loads(json.dumps(moves[i])))
        elif kind == "drop move":
            del moves[i]
        else:
            moves[i], moves[j] = moves[j], moves[i]
        event(f"mutation: {kind}")
        return
    if kind == "manhattan field":
        _manhattan_field(draw, log, moves)
        return
    path = draw(st.sampled_from(_paths(log)))
    if not path:
        return
    parent = _get(log, path[:-1])
    key = path[-1]
    old = parent[key]
    event(f"mutation: {kind}")
    if kind == "replace":
        parent[key] = draw(json_values(6))
    elif kind == "delete":
        del parent[key]
    elif kind == "add key":
        target = old if isinstance(old, dict) else parent if isinstance(parent, dict) else None
        if target is not None:
            target[draw(st.sampled_from(["x", "bonus", "flock", "tokens", "hidden", "discard",
                                         "figure", "scores", "extra", "\ud800", "choose",
                                         "card", "city", "storeys", "colour", "draw", "deal",
                                         "side", "second_colour", "material"]))] = draw(
                json_values(4))
    elif kind == "nudge" and type(old) is int:
        parent[key] = old + draw(st.sampled_from([-1, 1, 90, -1000, 10**6]))
    elif kind == "float" and type(old) is int:
        parent[key] = float(old)
    elif kind == "wrap":
        parent[key] = [old]


def _manhattan_field(draw: st.DrawFn, log: dict[str, Any], moves: list[Any]) -> None:
    """Set, add or remove one Manhattan field (``MANHATTAN_MOVE_FIELDS`` on a move,
    ``MANHATTAN_HEADER_FIELDS`` in the header or on a player) with a near-miss value."""
    where = draw(st.sampled_from(["move", "header"])) if moves else "header"
    fields = MANHATTAN_MOVE_FIELDS if where == "move" else MANHATTAN_HEADER_FIELDS
    field = draw(st.sampled_from(fields))
    target: Any = log
    if where == "move":
        target = moves[draw(st.integers(0, len(moves) - 1))]
    elif field in ("side", "second_colour"):
        players = log.get("players")
        if not (isinstance(players, list) and players):
            return
        target = players[draw(st.integers(0, len(players) - 1))]
    if not isinstance(target, dict):
        return
    event(f"mutation: manhattan field {field} ({log.get('game')})")
    if field in target and draw(st.integers(0, 4)) == 0:
        del target[field]
    else:
        target[field] = draw(manhattan_values(field))
