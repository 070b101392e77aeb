"""docs/api.md runs as written: its examples are executed with doctest."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import replay

ROOT = Path(__file__).resolve().parent.parent


def test_docs_api_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                              verbose=False, report=True)
    assert result.attempted >= 30
    assert result.failed == 0, f"{result.failed} example(s) of docs/api.md failed (see above)"


def test_every_public_name_is_documented() -> None:
    """``replay.__all__`` lists the public API; every function and class in it has a
    docstring."""
    missing = [name for name in replay.__all__
               if not (getattr(replay, name).__doc__ or "").strip()]
    assert not missing, missing
    for name in ("read_game", "verify", "steps", "families", "family", "svg"):
        assert name in replay.__all__
