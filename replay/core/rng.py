"""The engine's only source of randomness (rule G2).

Language-independent and documented in ``docs/determinism.md``:

* key = SHA-256(UTF-8 of ``"carcassonne-replay/v1|" + purpose + "|" + seed``)
* block i (i = 0, 1, 2, ...) = SHA-256(key || i as 8-byte big-endian), read as four 64-bit
  big-endian words; words are consumed in order.
* ``below(n)``: draw words until one is < 2^64 - (2^64 mod n); return it mod n (no bias).
* ``shuffle``: Fisher-Yates from the last index down: for i = n-1 .. 1, j = below(i+1), swap i, j.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence
from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

T = TypeVar("T")

_TWO64 = 1 << 64


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class SeededStream:
    """A counter-based stream of 64-bit words derived from (seed, purpose)."""

    __slots__ = ("_key", "_block", "_words")

    def __init__(self, seed: str, purpose: str) -> None:
        self._key = hashlib.sha256(f"carcassonne-replay/v1|{purpose}|{seed}".encode()).digest()
        self._block = 0
        self._words: list[int] = []

    def word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(self._key + struct.pack(">Q", self._block)).digest()
            self._block += 1
            self._words = list(reversed(struct.unpack(">4Q", digest)))
        return self._words.pop()

    def copy(self) -> SeededStream:
        return _restored(self._key, self._block, list(self._words))

    def __reduce__(self) -> tuple[Any, tuple[bytes, int, list[int]]]:
        # explicit, so that a compiled class (replay/native.py) pickles as the pure one does
        return (_restored, (self._key, self._block, list(self._words)))

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _TWO64 - (_TWO64 % n)
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        # ``below(i + 1)`` for each i, written out (the same words, the same result): a
        # shuffle is most of the cost of setting up a game
        words = self._words
        key, pack, sha256 = self._key, struct.pack, hashlib.sha256
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - (_TWO64 % n)
            while True:
                if not words:
                    digest = sha256(key + pack(">Q", self._block)).digest()
                    self._block += 1
                    words = list(reversed(struct.unpack(">4Q", digest)))
                w = words.pop()
                if w < limit:
                    break
            j = w % n
            items[i], items[j] = items[j], items[i]
        self._words = words


def _restored(key: bytes, block: int, words: list[int]) -> SeededStream:
    """A stream at the given point (``copy`` and pickling)."""
    stream = SeededStream("", "")
    stream._key, stream._block, stream._words = key, block, words
    return stream


def seed_text(seed: int | str) -> str:
    """Seeds may be JSON integers or strings; both are used through their text."""
    return str(seed)
