"""``core.digests`` gives hashlib's digests from CPython's own hash modules, and the state
hash's tables (``core.hashing``) give the items those digests make."""

from __future__ import annotations

import hashlib

from hypothesis import event, given, settings
from hypothesis import strategies as st

from replay.core import digests, hashing


@settings(derandomize=True, database=None, deadline=None)  # the same on every run
@given(st.binary(max_size=300))
def test_sha256_is_hashlibs(data: bytes) -> None:
    assert digests.sha256(data).digest() == hashlib.sha256(data).digest()
    assert digests.sha256_hex(data) == hashlib.sha256(data).hexdigest()


@settings(derandomize=True, database=None, deadline=None)
@given(st.binary(max_size=300), st.integers(1, 64))
def test_blake2b_is_hashlibs(data: bytes, size: int) -> None:
    assert (digests.blake2b(data, digest_size=size).digest()
            == hashlib.blake2b(data, digest_size=size).digest())


def test_no_openssl_at_start() -> None:
    """The builtin modules are taken where CPython has them (this interpreter does)."""
    assert digests.sha256.__module__ in ("_sha256", "_sha2")
    assert digests.blake2b.__module__ == "_blake2"


@settings(derandomize=True, database=None, deadline=None)
@given(st.sampled_from(["s", "x"]), st.integers(-3, 300), st.integers(-3, 1 << 70))
def test_seat_item_is_the_item_of_its_parts(name: str, seat: int, n: int) -> None:
    """A seat's item from its table (``seat_item``) is ``item(name, seat, n)``, in the table's
    range and beyond it (a negative or huge count, a seat past 255), the first time and after."""
    in_table = 0 <= seat < 256 and n >= 0
    event("in the table" if in_table else "beyond the table")
    for _ in range(2):
        assert hashing.seat_item(name, seat, n) == hashing.item(name, seat, n)
    assert hashing.seat_item(name, seat, n) != hashing.seat_item(name, seat, n + 1)
