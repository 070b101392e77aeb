"""Shared empty containers that refuse to change: what a new ``Feature`` starts with.

A move makes three or four features, and most never get a figure, a flag, a border, a symbol
or a token: they share these empties until their first addition through ``Feature``'s
``add_`` methods, which give them their own containers. Code that changes a feature's
containers in place (``feat.flags.add(...)``) would change every feature that shares one, so
these refuse it (``TypeError``) when called from interpreted code; the compiled engine never
does it. This module stays interpreted (mypyc does not compile subclasses of ``list``).
"""

from __future__ import annotations

from typing import Any, NoReturn


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError("a new feature's empty containers are shared: change them through the "
                    "feature's add_ methods (add_figure, add_flags, add_touches, add_counts, "
                    "add_token), or assign a container of its own")


class EmptyList(list[Any]):
    """An empty list that stays empty (see the module)."""

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


class EmptySet(set[Any]):
    """An empty set that stays empty (see the module)."""

    add = update = discard = remove = pop = clear = _refuse
    difference_update = intersection_update = symmetric_difference_update = _refuse
    __ior__ = __iand__ = __isub__ = __ixor__ = _refuse


class EmptyDict(dict[Any, Any]):
    """An empty dict that stays empty (see the module)."""

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = setdefault = pop = popitem = clear = _refuse
