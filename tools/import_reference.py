"""Convert the tile tables of ``docs/reference/tiles-base-ic-hs.md`` into tile-set files.

The reference transcribes JCloisterZone's tile XML into a 12-half-side model; this script maps
that model onto ``schema/tileset-v1.schema.json`` and writes ``replay/data/tilesets/*.json``.
Run it again only when the reference changes: ``python tools/import_reference.py`` (the copy
in ``docs/reference``; or give a folder holding ``reference/tiles-base-ic-hs.md``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "replay" / "data" / "tilesets"

SETS: dict[str, dict[str, str]] = {
    "base_c1": {
        "id": "base-1e",
        "name": "Carcassonne base game, 1st edition (72 tiles)",
        "prefix": "",
    },
    "inns_cathedrals": {
        "id": "inns-cathedrals",
        "name": "Inns & Cathedrals (18 tiles)",
        "prefix": "IC/",
    },
    "hills_sheep": {
        "id": "hills-sheep",
        "name": "Hills & Sheep (18 tiles)",
        "prefix": "",
    },
}


def convert_tile(raw: dict[str, Any], prefix: str) -> dict[str, Any]:
    segments: list[dict[str, Any]] = []
    for city in raw["cities"]:
        seg: dict[str, Any] = {"id": city["id"], "type": "city"}
        if city.get("pennants"):
            seg["pennants"] = city["pennants"]
        if city.get("cathedral"):
            seg["cathedral"] = True
        if city.get("also_open_on_side"):
            seg["extra_sides"] = [city["also_open_on_side"]]
        segments.append(seg)
    for road in raw["roads"]:
        seg = {"id": road["id"], "type": "road"}
        if road.get("inn"):
            seg["inn"] = True
        segments.append(seg)
    for field in raw["fields"]:
        seg = {"id": field["id"], "type": "field", "touches": list(field["touches_cities"])}
        if field.get("inner_only"):
            seg["name"] = "inner-field"
        segments.append(seg)
    if raw["monastery"]:
        segments.append({"id": "m", "type": "cloister", "name": "cloister"})
    tile: dict[str, Any] = {
        "id": prefix + raw["id"],
        "count": raw["count"],
        "edges": raw["edges_NESW"],
        "positions": [None if p == "SPLIT" else p for p in raw["positions"]],
        "segments": segments,
    }
    if raw.get("start_tile"):
        tile["start"] = True
    if raw.get("hill"):
        tile["hill"] = True
    if raw.get("vineyard"):
        tile["vineyard"] = True
    tile["source"] = "JCloisterZone " + raw["jcz_id"]
    return tile


def dump_tileset(data: dict[str, Any]) -> str:
    """JSON with one tile per line: readable in a diff, compact on disk."""
    head = {k: v for k, v in data.items() if k != "tiles"}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "tiles": [']
    tiles = [json.dumps(t, ensure_ascii=False) for t in data["tiles"]]
    lines.append(",\n".join(tiles))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def build_tilesets(text: str) -> dict[str, dict[str, Any]]:
    """The tile sets of the reference's text, by file name (``base-1e.json``, ...)."""
    sets: dict[str, dict[str, Any]] = {}
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        data = json.loads(block)
        meta = SETS[data["set"]]
        out: dict[str, Any] = {
            "format": "carcassonne-replay/tileset",
            "version": 1,
            "id": meta["id"],
            "name": meta["name"],
            "game": "base",
            "reconstruction": False,
            "provenance": "Converted by tools/import_reference.py from shared/reference/"
            "tiles-base-ic-hs.md (JCloisterZone tile XML, checked against tile images).",
            "tiles": [convert_tile(t, meta["prefix"]) for t in data["tiles"]],
        }
        sets[f"{meta['id']}.json"] = out
    return sets


def main(shared: str) -> None:
    text = (Path(shared) / "reference" / "tiles-base-ic-hs.md").read_text(encoding="utf-8")
    for name, out in build_tilesets(text).items():
        path = OUT / name
        path.write_text(dump_tileset(out), encoding="utf-8")
        tiles = sum(t["count"] for t in out["tiles"])
        print(f"wrote {path} ({tiles} tiles)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(OUT.parent.parent.parent / "docs"))
