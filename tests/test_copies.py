"""Copies of a state (issue 37: search copies a position per determinization, then plays on
it): a copy is the position it was made from, and a copy and its original, each played on by
other moves, never affect each other; every family, every expansion mix, seeded and table
games. The tile families copy field by field (``replay/tiles/copies.py``), Manhattan its own
way (``ManhattanState._copy_from``)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from replay.core.family import GameState, families, family
from replay.core.record import GameRecord, parse
from replay.core.rng import SeededStream
from replay.core.sink import DROP
from replay.core.values import immutable
from replay.core.verify import verify
from replay.games.carcassonne.state import CarcassonneState
from replay.games.hunters_gatherers.state import HuntersGatherersState
from replay.tiles.features import SHARED_EMPTY, Feature, FeatureGraph
from replay.tiles.snapshot import pickled_copy
from replay.tiles.state import TileState
from replay.tiles.tileset import TileSet, TileType

from .test_properties import game_specs, generated, scaled

NAMES = [f.name for f in families()]
MOVES_COMPARED = 3000  # legal moves compared at most (``legal_moves``)
# a state's attributes left out of ``canonical``: shared parts that never change, caches and
# the sink of the move being played
NOT_COMPARED = frozenset({"config", "tileset", "tiles_by_id", "figure_kinds", "material",
                          "sink", "_last_prospective", "_memo", "_family"})
# what a copy shares with its original because it never changes (checked by ``shared``)
SHARED_BY_DESIGN = frozenset({"config", "options", "material", "_family", "tiles_by_id",
                              "figure_kinds", "pile", "bonus_stack", "seat_of", "_cid",
                              "_seat_cid", "_lots", "_memo", "origin"})


def attributes(obj: Any) -> list[str]:
    """The attribute names of ``obj``: its ``__dict__``'s, its slots and, compiled by mypyc,
    its native attributes."""
    names = set(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        names.update(cls.__dict__.get("__slots__", ()))
        names.update(cls.__dict__.get("__mypyc_attrs__", ()))
    return sorted(n for n in names if not n.startswith("__"))


def canonical(obj: Any) -> Any:
    """``obj`` as nested tuples, for equality: containers by content (sets and dicts in
    sorted order), objects by their attributes, a union-find graph by the root of each node
    (its path compression depends on the questions asked), tile types by id."""
    if obj is None or isinstance(obj, (bool, int, float, str, bytes)):
        return obj
    if isinstance(obj, TileType):
        return ("tile", obj.id)
    if isinstance(obj, (list, tuple)):
        return tuple(canonical(x) for x in obj)
    if isinstance(obj, (set, frozenset)):
        return ("set", tuple(sorted((canonical(x) for x in obj), key=repr)))
    if isinstance(obj, dict):
        return ("dict", tuple(sorted(((canonical(k), canonical(v)) for k, v in obj.items()),
                                     key=repr)))
    if isinstance(obj, SeededStream):  # (a spent block's bytes are left or not: the same)
        return ("stream", obj._key, obj._block, tuple(obj._halves()))
    if isinstance(obj, FeatureGraph):
        return ("graph", tuple(obj.find(i) for i in range(len(obj.parent))),
                canonical(obj.feature))
    if immutable(type(obj)):
        return obj
    return (type(obj).__name__, tuple((name, canonical(getattr(obj, name, "<unset>")))
                                      for name in attributes(obj) if name not in NOT_COMPARED))


def shared(a: Any, b: Any) -> list[str]:
    """The changeable parts ``a`` and ``b`` hold in common (by identity), as paths from ``a``,
    but those shared by design: the named attributes, the empty containers of new features,
    records never changed once made (placements, figures), immutable values."""
    mine: dict[int, str] = {}
    theirs: set[int] = set()
    _mutables(a, "", mine)
    _mutables(b, "", theirs)
    return sorted(path for key, path in mine.items() if key in theirs)


def _mutables(obj: Any, path: str, out: dict[int, str] | set[int]) -> None:
    if (obj is None or isinstance(obj, (bool, int, float, str, bytes, TileType, TileSet))
            or immutable(type(obj)) or obj is DROP or any(obj is e for e in SHARED_EMPTY)
            or type(obj).__name__ in ("Placement", "Figure")):
        return
    names = [] if isinstance(obj, (list, tuple, set, frozenset, dict)) else attributes(obj)
    if not isinstance(obj, tuple) and (names or not hasattr(obj, "__module__")):
        # (a tuple never changes; nor does an object without attributes: the rules)
        if isinstance(out, dict):
            out.setdefault(id(obj), path)
        else:
            out.add(id(obj))
    if isinstance(obj, (list, tuple, set, frozenset)):
        for k, x in enumerate(obj):
            _mutables(x, f"{path}[{k}]", out)
    elif isinstance(obj, dict):
        for k, x in obj.items():
            _mutables(x, f"{path}[{k!r}]", out)
    for name in names:
        if name not in SHARED_BY_DESIGN:
            _mutables(getattr(obj, name, None), f"{path}.{name}", out)


def replayed(record: GameRecord, moves: list[Any]) -> GameState:
    """A fresh state after ``moves`` from the start of ``record``'s game."""
    state: GameState = record.new_state()
    for move in moves:
        state.apply(move)
    return state


def legal_moves(state: GameState) -> list[Any]:
    """The legal moves, or the first ``MOVES_COMPARED`` of a table game's tens of thousands
    (Hunters & Gatherers: every tile left, each with every bonus tile it may earn)."""
    return list(itertools.islice(state.legal_moves(), MOVES_COMPARED))


def some_legal_moves(state: GameState, data: st.DataObject) -> list[Any]:
    """Legal moves to choose from: all of them, or in a table game of tiles those of one
    tile drawn among those left (listing all of them would take a third of a second)."""
    if not isinstance(state, TileState) or state.config.seed is not None or state.finished:
        return list(state.legal_moves())
    tiles = sorted(t for t, n in state.remaining.items() if n > 0)
    tile = state.tiles_by_id[data.draw(st.sampled_from(tiles), label="tile")]
    return list(state.legal_moves_of(tile)) if state._may_draw(tile) else []


def assert_same_position(state: GameState, fresh: GameState) -> None:
    """Everything of a position: its hash, scores, legal moves, the scores if it ended now,
    and every attribute (``canonical``)."""
    assert state.state_hash == fresh.state_hash
    assert state.scores == fresh.scores and state.moves_played == fresh.moves_played
    assert legal_moves(state) == legal_moves(fresh)
    assert state.scores_if_ended() == fresh.scores_if_ended()
    assert canonical(state) == canonical(fresh)


def _record(spec: Any, table: bool) -> GameRecord:
    """The generated game of ``spec``, without its seed when ``table`` and such a log is
    valid (Manhattan, the tile families but for the expansions that draw from a seed)."""
    log, _ = generated(spec)
    if table:
        del log["seed"]
        if verify(log).valid:
            event("table game")
        else:
            log, _ = generated(spec)
    return parse(log)


@pytest.mark.parametrize("name", NAMES)
@scaled(25)
@given(data=st.data())
def test_a_copy_and_its_original_never_affect_each_other(name: str, data: st.DataObject) -> None:
    """A copy made at a random position is that position; then the original and its copies
    (a copy of a copy too) are each played on by other random legal moves (``apply`` or the
    verifier's ``play``), and each ends as a fresh replay of its own moves does."""
    fam = family(name)
    spec = data.draw(game_specs(tuple((name, mix) for mix in fam.mixes())), label="game")
    record = _record(spec, data.draw(st.booleans(), label="table"))
    k = data.draw(st.integers(0, len(record.moves)), label="position")
    origin = replayed(record, list(record.moves[:k]))
    twin = origin.copy()
    assert twin is not origin and type(twin) is type(origin)
    assert_same_position(twin, origin)
    lines: list[tuple[GameState, list[Any]]] = [(origin, list(record.moves[:k])),
                                                (twin, list(record.moves[:k]))]
    for _ in range(data.draw(st.integers(1, 6), label="rounds")):
        if data.draw(st.booleans(), label="copy again"):
            state, moves = lines[data.draw(st.integers(0, len(lines) - 1), label="which")]
            lines.append((state.copy(), list(moves)))
        taken: set[int] = set()
        for state, moves in lines:
            legal = some_legal_moves(state, data)
            if not legal:
                continue
            other = [i for i in range(len(legal)) if i not in taken] or list(range(len(legal)))
            i = data.draw(st.sampled_from(other), label="move")
            taken.add(i)
            if data.draw(st.booleans(), label="play"):
                state.play(legal[i])
            else:
                state.apply(legal[i])
            moves.append(legal[i])
    event(f"{len(lines)} states")
    for state, moves in lines:
        assert_same_position(state, replayed(record, moves))


def _mid_game(name: str, mix: tuple[str, ...], players: int = 2) -> GameState:
    log, _ = generated(((name, mix), players, 35, ()))
    record = parse(log)
    return replayed(record, list(record.moves[:len(record.moves) // 2]))


@pytest.mark.parametrize(("name", "mix"), [(f.name, mix) for f in families()
                                           for mix in f.mixes()], ids=repr)
def test_a_copy_shares_nothing_that_changes(name: str, mix: tuple[str, ...]) -> None:
    """A copy holds every attribute of its original and no container or record that moves
    change in place (only the parts that never change: tile types, placements, figures, the
    seeded pile, the shared empty containers of new features)."""
    state = _mid_game(name, mix)
    twin = state.copy()
    assert attributes(twin) == attributes(state)
    assert shared(state, twin) == []


def test_shared_finds_a_shared_list() -> None:
    """``shared`` is the check above: it names a list two states hold."""
    state = _mid_game("base", ())
    assert isinstance(state, TileState)
    twin = state.copy()
    twin.discarded = state.discarded
    assert shared(state, twin) == [".discarded"]


def test_the_copy_matches_the_pickled_copy() -> None:
    """The field-by-field copy and the pickled one it replaces are the same position."""
    for name in ("base", "hunters-gatherers"):
        fam = family(name)
        for mix in fam.mixes():
            state = _mid_game(name, mix, 4)
            assert isinstance(state, TileState)
            assert canonical(state.copy()) == canonical(pickled_copy(state)) == canonical(state)


class PluginState(CarcassonneState):
    """A plugin's state class with attributes of its own (interpreted, even when the engine
    is compiled): marks of its own, and a feature it watches."""

    def _on_setup(self) -> None:
        super()._on_setup()
        self.marks: list[int] = []
        self.watched: Feature | None = None


def test_a_plugin_subclass_has_its_own_attributes_copied() -> None:
    """Attributes a subclass outside the engine adds are copied too (``copy_extras``): a list
    of its own, and a feature of the copy's graph in the place of the original's."""
    fam = family("base")
    log, _ = generated((("base", ()), 2, 35, ()))
    record = parse(log)
    normal = record.new_state()
    state = PluginState(record.config, normal.rules, normal.absent, fam, normal.farm_points)
    for move in record.moves[:20]:
        state.apply(move)
    state.marks.append(1)
    state.watched = state.features()[3]
    twin = state.copy()
    assert canonical(twin) == canonical(state)
    twin.marks.append(2)
    assert state.marks == [1] and twin.marks == [1, 2]
    assert twin.watched is twin.features()[3] and twin.watched is not state.watched
    twin.apply(record.moves[20])
    assert state.moves_played == 20 and twin.moves_played == 21


def test_a_copy_within_a_turn_keeps_the_figures_going_home() -> None:
    """Copied between the two steps of a turn with a bonus tile (HG7), while a figure waits
    to go home at the end of the turn (HG6): the copy's waiting figure is on the copy's
    feature, and each finishes the turn alone."""
    log, _ = generated((("hunters-gatherers", ()), 2, 3, ()))
    record = parse(log)
    assert log["options"]["return_timing"] == "end-of-turn"
    state = replayed(record, list(record.moves[:11]))
    move = record.moves[11]
    assert isinstance(state, HuntersGatherersState) and move.bonus is not None
    state.step(move.with_bonus(None))
    assert state.bonus_due and state.pending_returns
    twin = state.copy()
    before = canonical(state)
    assert canonical(twin) == before
    (feat, fig), = twin.pending_returns
    assert feat is twin.graph.of(fig.node) and feat is not state.pending_returns[0][0]
    twin.step(move.bonus)
    assert canonical(state) == before and state.pending_returns
    state.step(move.bonus)
    assert not twin.pending_returns and canonical(twin) == canonical(state)
    assert canonical(state) == canonical(replayed(record, list(record.moves[:12])))
