"""Audits of whole corpora: ``python -m replay audit`` (verify every game of files,
directories, archives and JSON Lines files on every core, or on a Dask cluster; one report)
and ``python -m replay ingest`` (store a corpus in the web library).

``sources`` walks the input into items, ``work`` verifies them into rows, ``runner`` spreads
the batches over a local process pool (``dask_runner``: a Dask cluster), ``resume`` keeps a
checkpoint, ``report`` makes the summary and says what the report shows (its formats are
written by ``replay.reports``), ``ingest`` stores, ``command`` puts it together for the
command line.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Item", "Limits", "Summary", "audit", "walk"]
_HOME = {"audit": "command", "Summary": "report", "Item": "sources", "Limits": "sources",
         "walk": "sources"}


def __getattr__(name: str) -> Any:
    """The package's names, imported on first use (the command line imports ``parsers``
    only, and starts faster)."""
    if name in _HOME:
        return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
