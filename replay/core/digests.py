"""SHA-256 and BLAKE2b from CPython's own modules (``_sha256`` or ``_sha2``, ``_blake2``).

They give the same digests as ``hashlib``, whose import loads OpenSSL (about 4 ms of every
start on this machine) and whose OpenSSL hashes cost a set-up per call; ``hashlib`` is the
fallback on an interpreter without them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def _builtin(names: tuple[str, ...], attr: str) -> Callable[..., Any]:
    for name in names:
        try:
            return getattr(importlib.import_module(name), attr)  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            pass
    import hashlib  # here: see the module's docstring

    return getattr(hashlib, attr)  # type: ignore[no-any-return]


sha256: Callable[..., Any] = _builtin(("_sha256", "_sha2"), "sha256")
blake2b: Callable[..., Any] = _builtin(("_blake2",), "blake2b")


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` as 64 hex digits."""
    return str(sha256(data).hexdigest())
