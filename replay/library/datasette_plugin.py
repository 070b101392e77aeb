"""A Datasette plugin (entry point group ``datasette``, ``pyproject.toml``): plain
``datasette games.db``, in the environment where the project is installed, opens a library with
the project's metadata (``replay.library.datasette``: descriptions, facets, canned queries),
as ``python -m replay data`` does.

It describes only the databases that are libraries (files with the tables ``games`` and
``results``); any other database Datasette opens is left as it is. Metadata given with
``--metadata`` still wins (Datasette merges its own last).
"""

from __future__ import annotations

import copy
import sqlite3
from functools import cache
from typing import Any

from datasette import hookimpl

from .datasette import metadata

LIBRARY_TABLES = ("games", "results")


@cache
def _is_library(path: str) -> bool:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            found = {row[0] for row in conn.execute(
                "select name from sqlite_master where type = 'table'")}
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return all(t in found for t in LIBRARY_TABLES)


@cache
def _described(name: str) -> dict[str, Any]:
    described: dict[str, Any] = metadata(name)["databases"][name]
    return described


def get_metadata(datasette: Any, key: str | None, database: str | None,
                 table: str | None) -> dict[str, Any]:
    """The project's metadata of every library Datasette has open (a copy: Datasette merges
    into what it is given)."""
    libraries = {name: _described(name) for name, db in datasette.databases.items()
                 if db.path and _is_library(db.path)}
    return {"databases": copy.deepcopy(libraries)} if libraries else {}


hookimpl(get_metadata)  # marks it as this plugin's hook (as a decorator it would lose its types)
