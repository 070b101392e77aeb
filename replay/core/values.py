"""Immutable values that are cheap to build: moves, which a replay makes one per move of a log.

A frozen dataclass sets each field through ``object.__setattr__`` in its ``__init__``: about
3 µs for a tile move, compiled or not (``replay/native.py``). ``write_once(cls)`` gives a
slotted dataclass with a hand-written ``__init__`` the same immutability instead: a field can
be set while it has no value (which is what ``__init__`` does) and never again; deleting one
raises too. Compiled, ``__init__`` stores the fields directly (about 50 ns); interpreted, it
goes through the check below.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields
from typing import Any


def _set_once(self: Any, name: str, value: Any) -> None:
    if hasattr(self, name):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _never_delete(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


_WRITE_ONCE: set[type] = set()


def immutable(cls: type) -> bool:
    """Whether the objects of ``cls`` never change: a frozen dataclass, or a class made
    ``write_once`` (or a subclass of one)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return True
    return any(c in _WRITE_ONCE for c in cls.__mro__)


def _by_fields(self: Any) -> tuple[Any, tuple[Any, ...]]:
    return (type(self), tuple(getattr(self, f.name) for f in fields(self)))


def write_once(cls: type) -> None:
    """Make the instances of ``cls`` (a slotted dataclass, ``unsafe_hash=True``, whose own
    ``__init__`` takes the fields in order) immutable once built, as ``frozen=True`` would
    (see the module); its subclasses inherit it. They pickle as a call of the class with
    their fields."""
    setattr(cls, "__setattr__", _set_once)  # noqa: B010 (mypy refuses a method assigned)
    setattr(cls, "__delattr__", _never_delete)  # noqa: B010
    setattr(cls, "__reduce__", _by_fields)  # noqa: B010
    _WRITE_ONCE.add(cls)
