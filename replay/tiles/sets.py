"""Tile sets: the built-in ones, a user's file, several played together.

A set is checked against its schema (``schema/tileset-v1``) unless it is one of ours, then its
tile types are built (``tiles/tileset.py``); its digest, which a log records, is the SHA-256
of its canonical JSON.
"""

from __future__ import annotations

import json
import os
import sys
from functools import cache
from typing import TYPE_CHECKING, Any

from ..core.digests import sha256_hex
from ..core.errors import TileSetError
from .tileset import TileSet, TileType, build_tiles, reordered

if TYPE_CHECKING:
    from pathlib import Path

# from the package, not from this file's place, as ``tiles/tileset.py`` is compiled into
# build/native (``replay/native.py``); text, as pathlib costs a few milliseconds of a start
DATA_DIR = os.path.join(os.path.dirname(sys.modules["replay"].__file__ or "."), "data",
                        "tilesets")


def parse_tileset(data: Any, label: str = "tile set", trusted: bool = False) -> TileSet:
    """Check a decoded tile-set document against its schema and build the tile types
    (``trusted``: a built-in set, which ``tests/test_tileset_hg.py`` checks against the schema
    once, is not checked at each start)."""
    if not trusted:
        from ..core.schema_words import schema_message
        from ..core.schemas import validator  # here: jsonschema costs a start that needs none

        errors = sorted(validator("tileset").iter_errors(data),
                        key=lambda e: list(e.absolute_path))
        if errors:
            err = errors[0]
            path = "/" + "/".join(str(p) for p in err.absolute_path)
            raise TileSetError(f"{label}: {path}: {schema_message(err, 'a tile set')}")
    from ..core.family import family

    # imported, the family has told the tile layer its features (``kinds``): its tiles' symbols,
    # attributes and flags are read by them
    family(data["game"])
    tiles = build_tiles(data, label)
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return TileSet(
        id=data["id"], name=data["name"], game=data["game"],
        reconstruction=bool(data.get("reconstruction")), tiles=tiles,
        digest=sha256_hex(canonical.encode()),
    )


def load_tileset_file(path: str | Path, trusted: bool = False) -> TileSet:
    """A tile-set file (schema ``tileset-v1``), checked; ``TileSetError`` says what is wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise TileSetError(f"{path}: cannot read tile set: {exc}") from None
    return parse_tileset(data, str(path), trusted)


@cache
def builtin_tileset(set_id: str) -> TileSet:
    """One of the tile sets shipped in ``replay/data/tilesets`` (loaded once)."""
    path = os.path.join(DATA_DIR, f"{set_id}.json")
    if not os.path.isfile(path):
        raise TileSetError(f"no built-in tile set {set_id!r}")
    return load_tileset_file(path, trusted=True)


def combine(sets: list[TileSet]) -> TileSet:
    """Several sets played together (a game and its expansions) as one set."""
    if len(sets) == 1:
        return sets[0]
    tiles: list[TileType] = []
    seen: set[str] = set()
    for ts in sets:
        for t in ts.tiles:
            if t.id in seen:
                raise TileSetError(f"tile id {t.id!r} appears in two combined sets")
            seen.add(t.id)
            tiles.append(reordered(t, len(tiles)))
    return TileSet(
        id="+".join(ts.id for ts in sets), name=" + ".join(ts.name for ts in sets),
        game=sets[0].game, reconstruction=any(ts.reconstruction for ts in sets),
        tiles=tuple(tiles), digest=sha256_hex("+".join(ts.digest for ts in sets).encode()),
    )
