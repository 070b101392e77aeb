"""Value classes without ``dataclasses``: equality, hash, repr, immutability and pickling by
fields, given to a class whose ``__init__`` is written by hand.

The engine's small records (players, options, tile types, moves, reports) were dataclasses.
Making one costs about 1 ms at import (``dataclasses`` compiles each generated method with
``exec``), and importing ``dataclasses`` itself pulls in ``inspect``, ``ast`` and ``dis``:
together about 35 ms of a one-file ``python -m replay verify``, a third of it. A class made a
value by ``value_type`` behaves as the dataclass it was:

- ``==`` compares the ``compare`` fields of two objects of the same class, as a tuple;
- ``hash`` is the hash of that tuple (``hashable``), else the objects are unhashable;
- ``repr`` shows the ``show`` fields as ``Name(field=value, ...)``;
- ``frozen``: a field can be set while it has no value (which is what ``__init__`` does) and
  never again; deleting one raises too (``FrozenError``). Compiled with mypyc, ``__init__``
  stores the fields directly (about 50 ns a field); interpreted, it goes through the check;
- it pickles, copies and ``replace``s as a call of the class with its fields in order.

A class states its fields once, as annotated attributes in its body: ``value_type`` reads them
(``class_fields``; a base's first). A class compiled with mypyc writes its ``__init__`` out
(mypyc needs the attributes it sets, and a generated one would stay interpreted: see
docs/benchmarks.md); an interpreted class takes ``@value``, which makes its ``__slots__`` and
``__init__`` from the same annotations, without ``exec``.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")
C = TypeVar("C", bound=type)


class FrozenError(AttributeError):
    """A field of an immutable value was assigned or deleted."""


def _set_once(self: Any, name: str, value: Any) -> None:
    if hasattr(self, name):
        raise FrozenError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _never_delete(self: Any, name: str) -> None:
    raise FrozenError(f"cannot delete field {name!r}")


_FROZEN: set[type] = set()


def immutable(cls: type) -> bool:
    """Whether the objects of ``cls`` never change: a value class made ``frozen`` (or a
    subclass of one), or a frozen dataclass."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return True
    return any(c in _FROZEN for c in cls.__mro__)


def value_fields(obj: Any) -> tuple[str, ...] | None:
    """The fields of a value object, in the order its ``__init__`` takes them (None when it
    takes only some)."""
    fields: tuple[str, ...] | None = type(obj).__value_fields__
    return fields


def replace(obj: T, **changes: Any) -> T:
    """A copy of the value ``obj`` with ``changes`` (as ``dataclasses.replace``)."""
    fields = value_fields(obj)
    if fields is None:
        raise TypeError(f"a {type(obj).__name__} is not made from its fields")
    unknown = set(changes) - set(fields)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    new: T = type(obj)(*[changes[f] if f in changes else getattr(obj, f) for f in fields])
    return new


def class_fields(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` in the order they are declared, its bases' first: the attributes
    annotated in each class body (``ClassVar`` left out). A class compiled by mypyc keeps no
    annotations but lists its attributes (``__mypyc_attrs__``, in the same order, the
    bases' after its own): ``tests/test_values.py`` holds the two readings equal."""
    names: list[str] = []
    for c in reversed(cls.__mro__):
        own = c.__dict__
        declared: Any = own.get("__mypyc_attrs__")
        if declared is None:
            declared = [name for name, kind in own.get("__annotations__", {}).items()
                        if not str(kind).startswith(("ClassVar", "typing.ClassVar"))]
        names += [n for n in declared if not n.startswith("__") and n not in names]
    return tuple(names)


def value_type(cls: type, fields: str | None = None, *, compare: str | None = None,
               show: str | None = None, frozen: bool = True, hashable: bool | None = None,
               by_init: bool = True) -> None:
    """Make ``cls`` a value class (see the module). ``fields``: its fields, separated by
    spaces, in the order its ``__init__`` takes them, when they are not its declared
    attributes (``class_fields``, the default); ``compare`` and ``show``: the ones equality
    (and the hash) and ``repr`` use (default: all); ``hashable`` defaults to ``frozen``.
    ``by_init=False``: ``__init__`` takes only some fields, so the objects pickle as slotted
    objects do and ``replace`` refuses them."""
    names = class_fields(cls) if fields is None else tuple(fields.split())
    compared = names if compare is None else tuple(compare.split())
    shown = names if show is None else tuple(show.split())
    key = attrgetter(*compared) if len(compared) > 1 else _one_tuple(compared)
    get_all = attrgetter(*names) if len(names) > 1 else _one_tuple(names)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in shown)
        return f"{type(self).__qualname__}({inner})"

    def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), get_all(self))

    # setattr, not assignment: mypy refuses a method assigned to a class
    setattr(cls, "__value_fields__", names if by_init else None)  # noqa: B010
    setattr(cls, "__eq__", __eq__)  # noqa: B010
    setattr(cls, "__hash__", __hash__ if (frozen if hashable is None else hashable) else None)  # noqa: B010
    setattr(cls, "__repr__", __repr__)  # noqa: B010
    if by_init:
        setattr(cls, "__reduce__", __reduce__)  # noqa: B010
    if frozen:
        setattr(cls, "__setattr__", _set_once)  # noqa: B010
        setattr(cls, "__delattr__", _never_delete)  # noqa: B010
        _FROZEN.add(cls)


def _one_tuple(names: tuple[str, ...]) -> Any:
    """``attrgetter`` of one name, giving a 1-tuple as ``attrgetter`` of several gives a tuple
    (so that the hash is a dataclass's: the hash of the tuple of the fields)."""
    if not names:
        return lambda obj: ()
    get = attrgetter(names[0])
    return lambda obj: (get(obj),)


@dataclass_transform(frozen_default=True)
def value(cls: C) -> C:
    """An interpreted class made an immutable value from its annotated fields alone: a class
    with their ``__slots__``, an ``__init__`` taking them in order (positional or by name; a
    value given in the class body is the field's default), then ``value_type``. A compiled
    class writes its ``__init__`` and calls ``value_type`` instead (see the module)."""
    names = class_fields(cls)
    body = {k: v for k, v in cls.__dict__.items()
            if k not in names and k not in ("__dict__", "__weakref__")}
    defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
    body["__slots__"] = tuple(n for n in names if n not in _slots_of(cls.__bases__))
    body["__init__"] = _init(names, defaults)
    made: C = type(cls)(cls.__name__, cls.__bases__, body)
    value_type(made, " ".join(names))
    return made


def _slots_of(bases: tuple[type, ...]) -> set[str]:
    return {n for b in bases for c in b.__mro__ for n in getattr(c, "__slots__", ())}


def _init(names: tuple[str, ...], defaults: dict[str, Any]) -> Any:
    """An ``__init__`` that sets ``names`` from its arguments (see ``value``)."""
    count = len(names)
    set_field = object.__setattr__  # past the immutability of ``_set_once``

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > count:
            raise TypeError(f"{type(self).__name__}() takes {count} arguments "
                            f"({len(args)} given)")
        for name, arg in zip(names, args, strict=False):
            set_field(self, name, arg)
        for name in names[len(args):]:
            if name in kwargs:
                set_field(self, name, kwargs.pop(name))
            elif name in defaults:
                set_field(self, name, defaults[name])
            else:
                raise TypeError(f"{type(self).__name__}() needs its field {name!r}")
        if kwargs:
            raise TypeError(f"{type(self).__name__}() has no field {next(iter(kwargs))!r} "
                            "(or it was given twice)")

    return __init__
