"""The engine's only source of randomness (rule G2).

Language-independent and documented in ``docs/determinism.md``:

* key = SHA-256(UTF-8 of ``"carcassonne-replay/v1|" + purpose + "|" + seed``)
* block i (i = 0, 1, 2, ...) = SHA-256(key || i as 8-byte big-endian), read as four 64-bit
  big-endian words; words are consumed in order.
* ``below(n)``: draw words until one is < 2^64 - (2^64 mod n); return it mod n (no bias).
* ``shuffle``: Fisher-Yates from the last index down: for i = n-1 .. 1, j = below(i+1), swap i, j.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

from . import digests

T = TypeVar("T")


# CPython's own SHA-256 (``core.digests``): the same digests as ``hashlib.sha256``, without
# OpenSSL's set-up per call (0.6 µs a block against 0.95 µs here); a stream hashes a block
# per four words
_sha256: Final = digests.sha256
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

    __slots__ = ("_key", "_block", "_digest", "_pos")

    def __init__(self, seed: str, purpose: str) -> None:
        self._key = _sha256(f"carcassonne-replay/v1|{purpose}|{seed}".encode()).digest()
        self._block = 0
        # the current block and the offset of its first word not used yet (32: none left);
        # words are read from its bytes, which compiles to plain byte loads
        self._digest = b""
        self._pos = 32

    def _refill(self) -> bytes:
        """The next block (32 bytes: four big-endian words), from its first word."""
        digest: bytes = _sha256(self._key + self._block.to_bytes(8, "big")).digest()
        self._block += 1
        self._digest = digest
        self._pos = 0
        return digest

    def _half(self, digest: bytes, p: int) -> int:
        """The big-endian 32-bit number at ``digest[p:p + 4]``."""
        return digest[p] << 24 | digest[p + 1] << 16 | digest[p + 2] << 8 | digest[p + 3]

    def word(self) -> int:
        digest = self._digest if self._pos < 32 else self._refill()
        p = self._pos
        self._pos = p + 8
        return self._half(digest, p) << 32 | self._half(digest, p + 4)

    def copy(self) -> SeededStream:
        stream = SeededStream("", "")
        stream._key, stream._block = self._key, self._block
        stream._digest, stream._pos = self._digest, self._pos
        return stream

    def _halves(self) -> list[int]:
        """The words of the current block not used yet, as 32-bit halves, last first (the
        stream's form when copied or pickled)."""
        return [self._half(self._digest, p) for p in range(28, self._pos - 1, -4)]

    def __reduce__(self) -> tuple[Any, tuple[bytes, int, list[int]]]:
        # explicit, so that a compiled class (replay/native.py) pickles as the pure one does
        return (_restored, (self._key, self._block, self._halves()))

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
        digest, p = self._digest, self._pos
        while True:
            if p >= 32:
                digest, p = self._refill(), 0
            hi = digest[p] << 24 | digest[p + 1] << 16 | digest[p + 2] << 8 | digest[p + 3]
            lo = digest[p + 4] << 24 | digest[p + 5] << 16 | digest[p + 6] << 8 | digest[p + 7]
            p += 8
            if hi != _MASK32 or lo <= _MASK32 - r64:
                self._pos = p
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
    """A stream at the given point (``copy`` and pickling): ``halves`` are the 32-bit halves
    of the current block (block ``block - 1``) not used yet, last first."""
    stream = SeededStream("", "")
    stream._key, stream._block = key, block
    if halves:
        stream._digest = _sha256(key + (block - 1).to_bytes(8, "big")).digest()
        stream._pos = 32 - 4 * len(halves)
    return stream


def seed_text(seed: int | str) -> str:
    """Seeds may be JSON integers or strings; both are used through their text."""
    return str(seed)


def drawn_seed(rng: SeededStream) -> str:
    """A seed text drawn from ``rng``: the seed of the randomness a redrawn state still has
    to come (``GameState.redraw_hidden``), so that none of it comes from the log's seed."""
    return f"redrawn-{rng.below(_TWO64):016x}"
