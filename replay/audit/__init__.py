"""Audits of whole corpora: ``python -m replay audit`` (verify every game of files,
directories, archives and JSON Lines files on every core, or on a Dask cluster; one report)
and ``python -m replay ingest`` (store a corpus in the web library).

``sources`` walks the input into items, ``work`` verifies them into rows, ``runner`` spreads
the batches over a local process pool (``dask_runner``: a Dask cluster), ``resume`` keeps a
checkpoint, ``report`` and ``html_report`` write the summary and the report, ``ingest``
stores, ``command`` puts it together for the command line.
"""

from __future__ import annotations

from .command import audit
from .report import Summary
from .sources import Item, Limits, walk

__all__ = ["Item", "Limits", "Summary", "audit", "walk"]
