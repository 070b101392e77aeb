"""Walks over decoded JSON that run on every log read, kept apart so that they can be
compiled (``replay/native.py``) while ``json_input`` keeps its documented pure-Python API."""

from __future__ import annotations

from typing import Any


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
