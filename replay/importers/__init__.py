"""Importers of foreign saved games (JCloisterZone saves, Board Game Arena logs): see ``base``.

``convert(value)`` turns a decoded foreign file into an ``Imported`` (log v1 + problems), or
returns None when ``value`` is no foreign format we know (a log v1 is not foreign).
"""

from __future__ import annotations

from typing import Any

from .base import (
    SHAPE_ERRORS,
    Imported,
    Importer,
    ImportRefused,
    Problem,
    importers,
    shape_error,
    sniff,
)

__all__ = ["Importer", "Imported", "ImportRefused", "Problem", "convert", "importers", "sniff"]

_LOADED = False


def load_all() -> None:
    """Import the modules that register the importers (once)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        if info.name != "base":
            importlib.import_module(f"{__name__}.{info.name}")


def convert(value: Any) -> Imported | None:
    """``value`` converted by the importer of its format; None when it is not foreign.

    Raises ``ImportRefused`` for a file the importer cannot carry, a damaged one included."""
    importer = sniff(value)
    if importer is None:
        return None
    try:
        return importer.read(value)
    except SHAPE_ERRORS as exc:
        raise ImportRefused(importer.label, [Problem("malformed", shape_error(exc),
                                                     fatal=True)]) from None
