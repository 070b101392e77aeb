"""A tile-laying game's state pickled (``pickled_copy``), and the attributes a plugin's
subclass adds copied (``copy_extras``).

``TileState.copy`` copies field by field (``tiles/copies.py``). ``pickled_copy`` is the copy
it used to be: every attribute pickled but the immutable parts (configuration, tile types,
family, and immutable values such as moves and figure kinds, see ``core.values.immutable``),
which the copy shares. It stays as the reference the tests hold the field-by-field copy to
and the benchmark's former figure (``benchmarks/bench_copy.py``); states also still pickle.

This module stays interpreted when the engine is compiled with mypyc (a compiled subclass of
``pickle.Pickler`` does not work). Every mutable class a state holds is marked
``mypyc_attr(allow_interpreted_subclasses=True, serializable=True)`` where it is compiled:
unpickling makes an object without calling ``__init__`` (serializable), and mypyc's
``__init__`` still runs when interpreted code calls the class only with the other flag.
Immutable values are shared, not copied: no need to copy what never changes.
"""

from __future__ import annotations

import copy
import io
import pickle
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.values import immutable
from .features import SHARED_EMPTY

if TYPE_CHECKING:
    from .state import TileState

S = TypeVar("S", bound="TileState")


def pickled_copy(state: S) -> S:
    """An independent copy of ``state`` that shares its immutable parts, by pickling."""
    buf = io.BytesIO()
    pickler = _SharingPickler(buf, state)
    pickler.dump(state)
    copied: S = _SharingUnpickler(io.BytesIO(buf.getvalue()), pickler.objects).load()
    return copied


class _SharingPickler(pickle.Pickler):
    """Pickles a state but not its immutable parts: they go to ``objects``, the pickle holds
    their index."""

    def __init__(self, buf: io.BytesIO, state: TileState) -> None:
        super().__init__(buf, protocol=pickle.HIGHEST_PROTOCOL)
        self.objects = _objects(state)
        self.shared = {id(obj): k for k, obj in enumerate(self.objects)}

    def persistent_id(self, obj: Any) -> Any:
        found = self.shared.get(id(obj))
        if found is not None or not _frozen(type(obj)):
            return found
        # an immutable value: shared
        self.shared[id(obj)] = k = len(self.objects)
        self.objects.append(obj)
        return k


_FROZEN: dict[type, bool] = {}


def _frozen(cls: type) -> bool:
    """Whether the objects of ``cls`` never change (``core.values.immutable``), cached."""
    found = _FROZEN.get(cls)
    if found is None:
        found = _FROZEN[cls] = immutable(cls)
    return found


class _SharingUnpickler(pickle.Unpickler):
    def __init__(self, buf: io.BytesIO, objects: list[Any]) -> None:
        super().__init__(buf)
        self.objects = objects

    def persistent_load(self, pid: Any) -> Any:
        return self.objects[pid]


def _objects(state: TileState) -> list[Any]:
    # the shared empty containers of new features too: a copy's features must keep them
    # shared (a feature tells its own containers from them by identity)
    return [state.config, state.family, state.tileset, *state.tileset.tiles, *SHARED_EMPTY]


def copy_extras(state: TileState, new: TileState) -> None:
    """Give ``new``, a copy of ``state`` by ``_copy_into``, a deep copy of each attribute
    that ``state`` has and ``new`` lacks: those a class outside the engine adds (a plugin's
    subclass that does not extend ``_copy_into``). The copies share the immutable parts, and
    a feature of the state is the copy's feature in the same place."""
    # (compiled by mypyc, an object of an interpreted subclass gets its ``__dict__`` with its
    # first attribute of its own: ``vars`` of a new one fails)
    have = getattr(new, "__dict__", {})
    extra = {k: v for k, v in getattr(state, "__dict__", {}).items() if k not in have}
    if not extra:
        return
    memo: dict[int, Any] = {id(obj): obj for obj in _objects(state)}
    for graph, twin in zip(state.figure_graphs(), new.figure_graphs(), strict=True):
        for feat, copied in zip(graph.feature, twin.feature, strict=True):
            if feat is not None:
                memo[id(feat)] = copied
    for name, value in extra.items():
        setattr(new, name, copy.deepcopy(value, memo))
