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
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

T = TypeVar("T")

_TWO32: Final = 1 << 32
_TWO64: Final = 1 << 64
_MASK32: Final = _TWO32 - 1
# below this bound, ``below`` works on the 32-bit halves of a word: every number it computes
# then fits in 62 bits (an unboxed int once compiled, see replay/native.py), and the answer
# is the same as from the 64-bit word
_SMALL: Final = 1 << 30


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class SeededStream:
    """A counter-based stream of 64-bit words derived from (seed, purpose)."""

    __slots__ = ("_key", "_block", "_halves")

    def __init__(self, seed: str, purpose: str) -> None:
        self._key = hashlib.sha256(f"carcassonne-replay/v1|{purpose}|{seed}".encode()).digest()
        self._block = 0
        # the words of the current block not used yet, as 32-bit halves in reverse order
        # (``pop`` gives a word's high half, then its low half)
        self._halves: list[int] = []

    def _refill(self) -> list[int]:
        """The next block's four words as eight 32-bit halves, last first."""
        digest = hashlib.sha256(self._key + struct.pack(">Q", self._block)).digest()
        self._block += 1
        halves = list(struct.unpack(">8I", digest))
        halves.reverse()
        self._halves = halves
        return halves

    def word(self) -> int:
        halves = self._halves or self._refill()
        hi = halves.pop()
        return hi << 32 | halves.pop()

    def copy(self) -> SeededStream:
        return _restored(self._key, self._block, list(self._halves))

    def __reduce__(self) -> tuple[Any, tuple[bytes, int, list[int]]]:
        # explicit, so that a compiled class (replay/native.py) pickles as the pure one does
        return (_restored, (self._key, self._block, list(self._halves)))

    def below(self, n: int) -> int:
        if not 0 < n <= _TWO64:
            raise ValueError("below() needs a bound from 1 to 2^64 (it draws 64-bit words)")
        if n >= _SMALL:
            limit = _TWO64 - (_TWO64 % n)
            while True:
                w = self.word()
                if w < limit:
                    return w % n
        # with w = hi * 2^32 + lo: w < 2^64 - (2^64 mod n) unless hi is all ones and lo is
        # above 2^32 - 1 - (2^64 mod n); and w mod n = ((hi mod n) * (2^32 mod n) + lo) mod n
        r32 = _TWO32 % n
        r64 = r32 * r32 % n
        halves = self._halves
        while True:
            if not halves:
                halves = self._refill()
            hi = halves.pop()
            lo = halves.pop()
            if hi != _MASK32 or lo <= _MASK32 - r64:
                return (hi % n * r32 + lo) % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        # a list (every caller's) is swapped in place by index, which compiles to direct
        # list operations; any other sequence is shuffled as a list and written back
        work: list[T] = items if type(items) is list else list(items)
        for i in range(len(work) - 1, 0, -1):
            j = self.below(i + 1)
            work[i], work[j] = work[j], work[i]
        if work is not items:
            items[:] = work


def _restored(key: bytes, block: int, halves: list[int]) -> SeededStream:
    """A stream at the given point (``copy`` and pickling)."""
    stream = SeededStream("", "")
    stream._key, stream._block, stream._halves = key, block, halves
    return stream


def seed_text(seed: int | str) -> str:
    """Seeds may be JSON integers or strings; both are used through their text."""
    return str(seed)
