"""Copies of a tile-laying game's state (``TileState.copy``), made field by field.

Search copies a position once per determinization and then plays on it, so a copy must cost
about what a move does, not the pickling of the whole state it used to be (80 times a move).
A copy copies what changes in place and shares what never does:

- shared: the configuration, the tile set and its tile types, the figure kinds, the seeded
  pile (read by position, never changed), the placements and figures (records never changed
  once made: see ``Placement`` and ``Figure``);
- copied one level deep: the dicts and lists of immutable values (cells, keys, counts, moves);
- copied two levels deep: the containers of containers (``frontier_keys``,
  ``near_cloisters``, ``supply``) and the feature graph, whose features are copied one by one
  (``FeatureGraph.copy``, ``Feature.copy``: their containers copied, an empty one being the
  shared empty one of a new feature).

A family adds its own attributes by overriding ``TileState._copy_into`` (calling ``super``
first); an interpreted subclass outside the engine (a plugin's) has its attributes copied by
``tiles/snapshot.py``. Compiled with the engine (``replay/native.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .state import TileState

S = TypeVar("S", bound="TileState")

# a state class -> whether it is the engine's (its ``_copy_into`` copies every attribute)
_OWN: dict[type, bool] = {}


def copied(state: S) -> S:
    """``state.copy()``: a new object of its class, made without ``__init__``, given a copy of
    each attribute by ``_copy_into``; a class from outside the engine (a plugin's subclass)
    has the attributes it added copied too (``snapshot.copy_extras``)."""
    cls = type(state)
    new = cls.__new__(cls)
    state._copy_into(new)
    own = _OWN.get(cls)
    if own is None:
        own = _OWN[cls] = cls.__module__.startswith("replay.")
    if not own:
        from .snapshot import copy_extras  # (interpreted: deep copies)

        copy_extras(state, new)
    return new


def copy_tile_state(state: TileState, new: TileState) -> None:
    """Give ``new`` (made without ``__init__``) a copy of every attribute ``TileState`` and
    its bases hold (see the module)."""
    # ``Board``'s
    new.tileset = state.tileset
    new.tiles_by_id = state.tiles_by_id
    new.graph = state.graph.copy()
    new.board = dict(state.board)
    new.placements = list(state.placements)
    new.frontier = dict(state.frontier)
    new.frontier_keys = {key: dict(cells) for key, cells in state.frontier_keys.items()}
    new.cloisters = dict(state.cloisters)
    new.near_cloisters = {cell: list(near) for cell, near in state.near_cloisters.items()}
    new.cloister_around = dict(state.cloister_around)
    new._last_prospective = None  # a cache of the last question (``_prospective``)
    # ``Figures``'
    new.figure_kinds = state.figure_kinds
    new.supply = [dict(kinds) for kinds in state.supply]
    new.turn = state.turn
    new.sink = state.sink.copy()
    # ``TileState``'s and ``GameState``'s
    new.config = state.config
    new.scores = list(state.scores)
    new.moves_played = state.moves_played
    new.finished = state.finished
    new.hash = state.hash
    new.setup_events = list(state.setup_events)
    new.discarded = list(state.discarded)
    new.steps = list(state.steps)
    new.origin = state.origin  # (never changed: a rewind copies it)
    new.start_tile = state.start_tile
    new.pile = state.pile
    new.remaining = dict(state.remaining)
    new.pile_pos = state.pile_pos
    new.current = state.current
