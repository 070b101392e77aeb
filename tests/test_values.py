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
from replay.games.carcassonne.hills_sheep import FlockChoice
from replay.games.hunters_gatherers import Move as HGMove
from replay.games.manhattan import Build, Discard
from replay.tiles.board import Placement
from replay.tiles.moves import FigureChoice, TileMove
from replay.tiles.sets import builtin_tileset

MOVES: list[Any] = [
    TileMove(1, -2, 90, "A", FigureChoice("follower", "N")),
    Move(0, 1, 180, None, None, False, (FlockChoice("N", "herd"),), (3,), "B"),
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
    move = Move(0, 1, 90, "A", None, False, (), (2,))
    moved = replace(move, x=5, tokens=())
    assert (moved.x, moved.y, moved.rotation, moved.tile, moved.tokens) == (5, 1, 90, "A", ())
    assert type(moved) is Move and move.x == 0
    assert move.with_sheep((), ()) == replace(move, tokens=())
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
