"""The game families built into this service, one package each: ``carcassonne`` (the log's
``"game": "base"``), ``hunters_gatherers`` and ``manhattan``.

They register as any other distribution's family does, through the entry point group
``carcassonne_replay.families`` of this project's ``pyproject.toml`` (``replay.core.family``
reads it); a one-file ``verify`` imports only its log's family.
"""
