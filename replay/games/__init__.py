"""The game families this service plays: ``FAMILIES`` names each, by the log's ``"game"``, as
a reference ``"module:attribute"`` to its ``Family`` instance (``replay.core.plugins``),
imported when ``replay.core.family`` is first asked for it.

A new family is a package here (``replay.games.<name>``) holding its ``Family`` instance, and a
line in ``FAMILIES``. The core, the CLI and the web app find it through the registry; a
one-file ``verify`` imports only its family.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# the log's "game" -> its family, in the order families() lists them
FAMILIES: dict[str, str] = {
    "base": "replay.games.carcassonne:CARCASSONNE",
    "hunters-gatherers": "replay.games.hunters_gatherers:HUNTERS_GATHERERS",
    "manhattan": "replay.games.manhattan:MANHATTAN",
}

__all__ = ["FAMILIES", "carcassonne", "hunters_gatherers", "manhattan"]


def __getattr__(name: str) -> ModuleType:
    """A family package as an attribute (``replay.games.manhattan``), imported on first use."""
    if any(ref.startswith(f"{__name__}.{name}:") for ref in FAMILIES.values()):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
