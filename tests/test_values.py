"""``core.values``: the engine's records behave as the dataclasses they replaced (equality and
hash by fields, repr, immutability, ``replace``, pickling), compiled or interpreted."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from replay.core.family import GameConfig, Player
from replay.core.values import FrozenError, immutable, replace, value_fields
from replay.core.verify import Report
from replay.games.carcassonne import Move
from replay.games.carcassonne.sheep_moves import FlockChoice, SheepFields, sheep_of, with_sheep
from replay.games.hunters_gatherers import Move as HGMove
from replay.games.manhattan import Build, Discard
from replay.tiles.board import Placement
from replay.tiles.moves import FigureChoice, TileMove
from replay.tiles.sets import builtin_tileset

MOVES: list[Any] = [
    TileMove(1, -2, 90, "A", FigureChoice("follower", "N")),
    Move(0, 1, 180, None, None, False, (SheepFields((FlockChoice("N", "herd"),), (3,), "B"),)),
    SheepFields((FlockChoice("N", "herd"),), (3,), "B"),
    HGMove(2, 0, 0, "HG-1", None, False, TileMove(tile="HG-80", discard=True)),
    Build(4, "Cairo", 2, "red", 7),
    Discard(3),
    Player("Ann", "red"),
]


@pytest.mark.parametrize("value", MOVES, ids=lambda v: type(v).__name__)
def test_a_value_equals_its_copies_and_hashes_as_its_fields(value: Any) -> None:
    fields = value_fields(value)
    assert fields is not None
    again = type(value)(*[getattr(value, f) for f in fields])
    assert again == value and hash(again) == hash(value) and again is not value
    assert hash(value) == hash(tuple(getattr(value, f) for f in fields))  # as a dataclass's
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value
    assert repr(value).startswith(f"{type(value).__qualname__}({fields[0]}=")


@pytest.mark.parametrize("value", MOVES, ids=lambda v: type(v).__name__)
def test_a_value_is_immutable(value: Any) -> None:
    name = value_fields(value)[0]  # type: ignore[index]
    before = getattr(value, name)
    with pytest.raises(FrozenError, match=name):
        setattr(value, name, before)
    with pytest.raises(AttributeError):
        delattr(value, name)
    assert getattr(value, name) == before and immutable(type(value))


def test_replace_changes_only_what_it_is_given() -> None:
    move = Move(0, 1, 90, "A", None, False, (SheepFields((), (2,)),))
    moved = replace(move, x=5, extras=())
    assert (moved.x, moved.y, moved.rotation, moved.tile, moved.extras) == (5, 1, 90, "A", ())
    assert type(moved) is Move and move.x == 0 and sheep_of(move).tokens == (2,)
    assert with_sheep(move, (), ()) == replace(move, extras=())  # no field: no record
    with pytest.raises(TypeError, match="no field 'z'"):
        replace(move, z=1)
    with pytest.raises(TypeError, match="not made from its fields"):
        replace(Report("a"), valid=True)


def test_values_of_another_class_or_other_fields_differ() -> None:
    assert TileMove(1, 2) != Move(1, 2)  # same fields, another class (as a dataclass)
    assert TileMove(1, 2) != TileMove(1, 3)
    assert FigureChoice("follower", "N") != ("follower", "N")


def test_fields_left_out_of_equality_do_not_count() -> None:
    tiles = builtin_tileset("base-1e").tiles
    u = tiles[0]
    renamed = replace(u, words="something else")  # ``words`` is neither compared nor shown
    assert renamed == u and "words" not in repr(u)
    assert replace(u, count=u.count + 1) != u


def test_mutable_records_compare_but_do_not_hash() -> None:
    tile = builtin_tileset("base-1e").tiles[0]
    a, b = Placement(0, tile, 1, (0, 0), 0, None), Placement(0, tile, 1, (0, 0), 0, None)
    assert a == b and not immutable(Placement)
    a.rot = 2
    assert a != b
    with pytest.raises(TypeError):
        hash(a)
    report = Report("x.json", readable=False)
    assert report == Report("x.json", readable=False) != Report("x.json")
    assert pickle.loads(pickle.dumps(report)) == report


def test_a_record_holding_a_dict_compares_but_cannot_hash() -> None:
    config = GameConfig("base", (), (Player("A", "red"),), {"k": 1}, "s")
    assert config == GameConfig("base", (), (Player("A", "red"),), {"k": 1}, "s")
    with pytest.raises(TypeError):
        hash(config)


# every module with value classes whose fields ``value_type`` reads from the class
_MODULES = ("replay.tiles.moves", "replay.tiles.board", "replay.tiles.features",
            "replay.tiles.figures", "replay.games.carcassonne.state",
            "replay.games.carcassonne.sheep_moves", "replay.games.hunters_gatherers.state",
            "replay.games.manhattan.moves", "replay.games.manhattan.material",
            "replay.core.playback", "replay.core.family", "replay.core.verify")
_FIELDS = """import importlib, json, sys
out = {}
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    for k, v in sorted(vars(module).items()):
        if isinstance(v, type) and v.__module__ == name and "__value_fields__" in vars(v):
            out[f"{name}.{k}"] = v.__value_fields__
print(json.dumps(out))
"""


def test_the_fields_read_from_a_class_are_the_same_compiled_and_interpreted() -> None:
    """mypyc keeps no annotations: ``class_fields`` reads a compiled class's attributes
    (``__mypyc_attrs__``) instead, which must give the same fields in the same order."""
    import json
    import os
    import subprocess
    import sys

    found = []
    for pure in ("1", ""):
        env = {**os.environ, "REPLAY_PURE": pure, "REPLAY_STALE_SAID": "1"}
        done = subprocess.run([sys.executable, "-c", _FIELDS, *_MODULES], env=env,
                              capture_output=True, text=True, check=True)
        found.append(json.loads(done.stdout))
    assert found[0] == found[1]
    assert found[0]["replay.games.carcassonne.state.Move"] == [
        "x", "y", "rotation", "tile", "figure", "discard", "extras"]
    assert found[0]["replay.core.playback.Step"] == ["index", "move", "events", "state"]


def test_value_makes_slots_and_init_from_the_annotations() -> None:
    from typing import ClassVar

    from replay.core.values import value

    @value
    class Point:
        """A point."""

        ORIGIN: ClassVar[int] = 0
        x: int
        y: int = 0

        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

    p = Point(3, -4)
    assert (p.x, p.y, p.norm(), Point(3).y, Point.ORIGIN, Point.__doc__) == (3, -4, 7, 0, 0,
                                                                             "A point.")
    assert p == Point(y=-4, x=3) and hash(p) == hash((3, -4)) and repr(p) == "Point(x=3, y=-4)"
    assert Point.__slots__ == ("x", "y") and not hasattr(p, "__dict__")
    with pytest.raises(FrozenError):
        p.x = 1  # type: ignore[misc]
    with pytest.raises(TypeError, match="takes 2 arguments"):
        Point(1, 2, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="needs its field 'x'"):
        Point(y=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="no field 'z'"):
        Point(1, z=2)  # type: ignore[call-arg]
