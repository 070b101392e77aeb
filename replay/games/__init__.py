"""The game families this service plays; importing this package registers them all.

A new family is a package here (``replay.games.<name>``) that calls
``replay.core.family.register`` on import, and a line below. The core, the CLI and the web app
find it through the registry.
"""

from . import carcassonne, hunters_gatherers, manhattan

__all__ = ["carcassonne", "hunters_gatherers", "manhattan"]
