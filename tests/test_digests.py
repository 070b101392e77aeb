"""``core.digests`` gives hashlib's digests from CPython's own hash modules."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from replay.core import digests


@given(st.binary(max_size=300))
def test_sha256_is_hashlibs(data: bytes) -> None:
    assert digests.sha256(data).digest() == hashlib.sha256(data).digest()
    assert digests.sha256_hex(data) == hashlib.sha256(data).hexdigest()


@given(st.binary(max_size=300), st.integers(1, 64))
def test_blake2b_is_hashlibs(data: bytes, size: int) -> None:
    assert (digests.blake2b(data, digest_size=size).digest()
            == hashlib.blake2b(data, digest_size=size).digest())


def test_no_openssl_at_start() -> None:
    """The builtin modules are taken where CPython has them (this interpreter does)."""
    assert digests.sha256.__module__ in ("_sha256", "_sha2")
    assert digests.blake2b.__module__ == "_blake2"
