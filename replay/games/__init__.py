"""The game families this service plays: ``PACKAGES`` names the package of each, imported
(and so registered) when ``replay.core.family`` is first asked for it.

A new family is a package here (``replay.games.<name>``) that calls
``replay.core.family.register`` on import, and a line in ``PACKAGES``. The core, the CLI and
the web app find it through the registry; a one-file ``verify`` imports only its family.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# the log's "game" -> the package that registers that family, in the order families() lists
PACKAGES: dict[str, str] = {
    "base": "replay.games.carcassonne",
    "hunters-gatherers": "replay.games.hunters_gatherers",
    "manhattan": "replay.games.manhattan",
}

__all__ = ["PACKAGES", "carcassonne", "hunters_gatherers", "manhattan"]


def __getattr__(name: str) -> ModuleType:
    """A family package as an attribute (``replay.games.manhattan``), imported on first use."""
    if f"{__name__}.{name}" in PACKAGES.values():
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
