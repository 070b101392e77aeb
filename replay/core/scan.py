"""Walks over decoded JSON that run on every log read, kept apart so that they can be
compiled (``replay/native.py``) while ``json_input`` keeps its documented pure-Python API."""

from __future__ import annotations

from typing import Any


def scores_object(v: Any) -> bool:
    """A ``scores`` object of the schema: at most 6 names, points from 0 to 100,000
    (``json_input.scores_object``)."""
    if type(v) is not dict or len(v) > 6:
        return False
    return all(type(p) is int and 0 <= p <= 100000 for p in v.values())


def members(value: Any) -> int:
    """How many members the objects of a decoded value hold, all told; -1 if it holds a
    float anywhere (see ``_fast_decode``)."""
    count = 0
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            count += len(node)
            for v in node.values():
                if type(v) is dict or type(v) is list:
                    stack.append(v)
                elif type(v) is float:
                    return -1
        elif type(node) is list:
            for v in node:
                if type(v) is dict or type(v) is list:
                    stack.append(v)
                elif type(v) is float:
                    return -1
        elif type(node) is float:
            return -1
    return count


def within_bounds(value: Any, depth: int, max_depth: int, max_items: int,
                  max_string: int) -> bool:
    """Whether a decoded value at ``depth`` is surely within the limits of
    ``json_input.check_bounds``: no container at ``max_depth`` or deeper, none of more than
    ``max_items`` members, no key or string over ``max_string`` characters, no float. Stricter
    than ``check_bounds`` (which allows more moves, and floats under ``/meta``): a value it
    refuses goes through the exact check, which says where it fails."""
    stack: list[tuple[Any, int]] = [(value, depth)]
    while stack:
        node, d = stack.pop()
        if type(node) is dict:
            if d >= max_depth or len(node) > max_items:
                return False
            for k, v in node.items():
                if len(k) > max_string:
                    return False
                if type(v) is dict or type(v) is list:
                    stack.append((v, d + 1))
                elif type(v) is float or type(v) is str and len(v) > max_string:
                    return False
        elif type(node) is list:
            if d >= max_depth or len(node) > max_items:
                return False
            for v in node:
                if type(v) is dict or type(v) is list:
                    stack.append((v, d + 1))
                elif type(v) is float or type(v) is str and len(v) > max_string:
                    return False
        elif type(node) is float or type(node) is str and len(node) > max_string:
            return False
    return True
