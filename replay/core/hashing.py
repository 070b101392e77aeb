"""Zobrist-style state hash (L4).

The state hash is the XOR of one 64-bit value per state item (a tile on a cell, a figure on a
segment, a player's score, whose turn it is, how far the pile has gone, ...). Each item's value is
the first 8 bytes of BLAKE2b over the item's text, so the hash is the same on every machine and
under every ``PYTHONHASHSEED``, and moving from one state to the next costs a few XORs.
"""

from __future__ import annotations

from .digests import blake2b

_cache: dict[tuple[object, ...], int] = {}


def item(*parts: object) -> int:
    """The 64-bit value of one state item, named by its parts (the same on every machine)."""
    key = parts
    value = _cache.get(key)
    if value is None:
        value = text_item("|".join(str(p) for p in parts))
        if len(_cache) < 1_000_000:
            _cache[key] = value
    return value


def text_item(text: str) -> int:
    """``item`` of parts whose texts joined by "|" are ``text`` (not cached: for callers that
    keep their own table)."""
    return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "big")


class Items(dict[int, int]):
    """i -> ``item(name, i)``, worked out once: for items numbered by a counter that changes
    on every move (the turn, the moves played, ...)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def __missing__(self, i: int) -> int:
        value = self[i] = item(self.name, i)
        return value


_SEATS: dict[str, dict[int, int]] = {}


def seat_item(name: str, seat: int, n: int) -> int:
    """``item(name, seat, n)`` from a table by one int, for a count of a seat that changes on
    every move (its score); a plain function, which compiled code calls directly."""
    if not (0 <= seat < 256 and n >= 0):
        return item(name, seat, n)
    table = _SEATS.get(name)
    if table is None:
        table = _SEATS[name] = {}
    key = (n << 8) | seat
    value = table.get(key)
    if value is None:
        value = table[key] = item(name, seat, n)
    return value


def hexdigest(value: int) -> str:
    """A state hash as 16 hex digits."""
    return value.to_bytes(8, "big").hex()  # as f"{value:016x}", in half the time
