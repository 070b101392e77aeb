"""Build the Hunters & Gatherers tile set from ``docs/reference/tiles-hg.md`` (HG1, HG13).

No first-edition (2002) tile inventory is available. The reference transcribes the complete
second-edition (2020) data of the EPFL "ChaCuN" project in an explicit 12-position edge model
(its §4, §5.1 land tiles, §6 menhir tiles), and its §8 "Reconstruction" says how the project turns
that into a first-edition set. This script applies §8 and writes
``replay/data/tilesets/hunters-gatherers.json`` in the format of ``schema/tileset-v1.schema.json``:

* land tiles = 2020 ids 0-78 (start tile = id 56, given the volcano); every menhir forest gets one
  gold nugget, every aurochs becomes a mammoth, fish drawn in rivers are dropped;
* bonus tiles = 2020 ids 79-90: wild fire -> fire, shaman -> sacred place, mushroom forests ->
  mushroom clearings, aurochs kept, the menhir of 81 and the river fish of 88 dropped;
  91-94 (second-edition powers) are not used.

The reference's positions N1 N2 N3 E1 .. W3 run clockwise from the north-west corner, exactly like
our NL N NR EL .. WR, so the position list is copied as is (segment ids are lower-cased).

Run again only when the reference changes: ``python tools/import_hg.py`` (the copy in
``docs/reference``; or give a folder holding ``reference/tiles-hg.md``, or the file itself).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from import_reference import OUT, dump_tileset

REFERENCE = Path("reference") / "tiles-hg.md"
DOCS = Path(__file__).resolve().parent.parent / "docs"  # holds reference/tiles-hg.md
SIDES = "NESW"

LAND_IDS = range(0, 79)
START_ID = 56
BONUS_IDS = range(79, 91)
# Second-edition segment powers kept on the bonus tiles, as first-edition flags (§8).
BONUS_POWERS = {
    "wild_fire": ("fire", "wild fire -> fire"),
    "shaman": ("sacred", "shaman -> sacred place"),
}
ANIMALS = ("deer", "mammoth", "aurochs", "tiger")

PROVENANCE = (
    "RECONSTRUCTION, not a transcription: no tile-by-tile inventory of the first edition "
    "(Hans im Glueck 2002) could be obtained. Built by tools/import_hg.py from "
    "shared/reference/tiles-hg.md: the layouts (edges, positions, segments, lakes, springs) are "
    "those of the second edition (2020) as given in the Tiles.java file of the EPFL CS-108 "
    "'ChaCuN' project (reference S11, ids kept in tile ids and 'source'), with the substitutions "
    "of the reference's section 8. Land tiles = 2020 ids 0-78 (start tile 56, with the volcano): "
    "every menhir forest carries one gold nugget, every aurochs became a mammoth (the start "
    "tile's animal included), fish drawn in rivers were dropped, deer, tigers, mammoths, lakes "
    "and lake fish unchanged. Bonus tiles = 2020 ids 79-90: wild fire (85) -> fire, shaman (88) "
    "-> sacred place (its river fish dropped), the mushroom forests (79, 87) -> mushroom "
    "clearings, 81 lost its menhir (bonus tiles carry no gold), aurochs kept; 2020 tiles 91-94 "
    "(raft, logboat, pit trap, hunting trap) are not used. Whether the 2002 edge topology equals "
    "the 2020 one is unverified. Owners of the first edition can pass a corrected file of the "
    "same shape with --tileset."
)


class ReferenceError(ValueError):
    """The reference data does not have the shape this script expects."""


def read_reference_tiles(text: str) -> dict[int, dict[str, Any]]:
    """Every tile of the JSON blocks of the reference (§5.1 and §6), by 2020 id."""
    tiles: dict[int, dict[str, Any]] = {}
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        for raw in json.loads(block):
            tid = raw["id"]
            if tid in tiles:
                raise ReferenceError(f"2020 id {tid} appears twice")
            tiles[tid] = raw
    missing = [i for i in [*LAND_IDS, *BONUS_IDS] if i not in tiles]
    if missing:
        raise ReferenceError(f"2020 ids missing from the reference: {missing}")
    return tiles


def _check_geometry(raw: dict[str, Any]) -> None:
    """The reference tile is consistent with the edge model of its §4."""
    tid, edges, pos, seg = raw["id"], raw["edges"], raw["pos"], raw["seg"]
    if len(edges) != 4 or len(pos) != 12:
        raise ReferenceError(f"2020 id {tid}: bad edges/pos length")
    for p in pos:
        if p not in seg:
            raise ReferenceError(f"2020 id {tid}: position names unknown segment {p!r}")
    for s, letter in enumerate(edges):
        side = pos[3 * s: 3 * s + 3]
        types = [seg[p]["t"] for p in side]
        expected = {"F": ["forest"] * 3, "M": ["meadow"] * 3, "R": ["meadow", "river", "meadow"]}
        if letter not in expected or types != expected[letter]:
            raise ReferenceError(f"2020 id {tid}: side {SIDES[s]} {letter!r} holds {types}")
        if letter in "FM" and len(set(side)) != 1:
            raise ReferenceError(f"2020 id {tid}: side {SIDES[s]} is split")
    for sid, s in seg.items():
        if s["t"] != "river":
            continue
        sides = "".join(SIDES[k] for k in range(4) if pos[3 * k + 1] == sid)
        if sides != s["sides"]:
            raise ReferenceError(f"2020 id {tid}: river {sid} sides {s['sides']} vs {sides}")
        ends = s["ends"]
        if (ends == "through") != (len(sides) == 2):
            raise ReferenceError(f"2020 id {tid}: river {sid} ends {ends} on sides {sides}")


def _animals(raw_seg: dict[str, Any], land: bool, notes: list[str]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for animal, n in raw_seg.get("animals", {}).items():
        if animal not in ANIMALS:
            raise ReferenceError(f"unknown animal {animal!r}")
        if land and animal == "aurochs":
            counts["mammoth"] += n
            notes.append("aurochs -> mammoth")
        else:
            counts[animal] += n
    return {a: counts[a] for a in ANIMALS if counts[a]}


def convert_segment(
    sid: str, raw_seg: dict[str, Any], lake_names: dict[str, str], land: bool, notes: list[str]
) -> dict[str, Any]:
    kind = raw_seg["t"]
    known = {"t"}
    out: dict[str, Any] = {"id": sid.lower(), "type": kind}
    if kind == "forest":
        known |= {"menhir", "mushrooms"}
        if raw_seg.get("menhir"):
            if land:
                out["gold"] = 1
                notes.append("menhir -> gold")
            else:
                notes.append("menhir dropped")
        if raw_seg.get("mushrooms"):
            out["mushrooms"] = 1
            notes.append("mushrooms -> mushroom clearing")
    elif kind == "meadow":
        known |= {"animals", "power"}
        out.update(_animals(raw_seg, land, notes))
        power = raw_seg.get("power")
        if power is not None:
            if land or power not in BONUS_POWERS:
                raise ReferenceError(f"unexpected meadow power {power!r}")
            flag, note = BONUS_POWERS[power]
            out[flag] = True
            notes.append(note)
    elif kind == "river":
        known |= {"sides", "ends", "fish"}
        ends = raw_seg["ends"]
        if ends == "spring":
            out["spring"] = True
        elif ends.startswith("lake:"):
            out["touches"] = [ends[len("lake:"):].lower()]
        elif ends != "through":
            raise ReferenceError(f"unknown river end {ends!r}")
        if raw_seg.get("fish"):
            notes.append(f"{raw_seg['fish']} river fish dropped")
    elif kind == "lake":
        known |= {"fish"}
        out = {"id": sid.lower(), "type": kind, "name": lake_names[sid]}
        if raw_seg.get("fish"):
            out["fish"] = raw_seg["fish"]
    else:
        raise ReferenceError(f"unknown segment type {kind!r}")
    unknown = set(raw_seg) - known
    if unknown:
        raise ReferenceError(f"segment {sid}: unexpected keys {sorted(unknown)}")
    return out


def convert_tile(raw: dict[str, Any]) -> dict[str, Any]:
    _check_geometry(raw)
    tid = raw["id"]
    land = tid in LAND_IDS
    expected_kind = "start" if tid == START_ID else "normal" if land else "menhir"
    if raw["kind"] != expected_kind:
        raise ReferenceError(f"2020 id {tid}: kind {raw['kind']!r}, expected {expected_kind!r}")
    lakes = [sid for sid, s in raw["seg"].items() if s["t"] == "lake"]
    lake_names = {sid: "lake" if k == 0 else f"lake-{k + 1}" for k, sid in enumerate(lakes)}
    notes: list[str] = []
    # Segments in the reference's order, but the lakes (named, touching no side) last.
    order = [sid for sid in raw["seg"] if sid not in lake_names] + lakes
    segments = [convert_segment(sid, raw["seg"][sid], lake_names, land, notes) for sid in order]
    tile: dict[str, Any] = {
        "id": f"HG-{tid}",
        "count": 1,
        "edges": raw["edges"],
        "positions": [p.lower() for p in raw["pos"]],
        "segments": segments,
    }
    if tid == START_ID:
        tile["start"] = True
        tile["volcano"] = True
        notes.insert(0, "start tile, volcano")
    if not land:
        tile["bonus"] = True
    source = f"ChaCuN 2020 id {tid}, reconstruction §8"
    if notes:
        source += ": " + ", ".join(dict.fromkeys(notes))
    tile["source"] = source
    return tile


def build_tileset(text: str) -> dict[str, Any]:
    ref = read_reference_tiles(text)
    return {
        "format": "carcassonne-replay/tileset",
        "version": 1,
        "id": "hunters-gatherers",
        "name": "Hunters & Gatherers (reconstruction of the 1st edition: 79 land + 12 bonus tiles)",
        "game": "hunters-gatherers",
        "reconstruction": True,
        "provenance": PROVENANCE,
        "tiles": [convert_tile(ref[i]) for i in [*LAND_IDS, *BONUS_IDS]],
    }


def totals(tiles: list[dict[str, Any]]) -> dict[str, int]:
    """Symbol totals of some tiles, for the §8 check printed by ``main``."""
    t: Counter[str] = Counter(tiles=len(tiles))
    for tile in tiles:
        for s in tile["segments"]:
            for key in (*ANIMALS, "gold", "mushrooms"):
                t[key] += s.get(key, 0)
            t["fire"] += bool(s.get("fire"))
            t["sacred"] += bool(s.get("sacred"))
            if s["type"] == "lake":
                t["lakes"] += 1
                t["lake fish"] += s.get("fish", 0)
            if s["type"] == "river":
                t["river fish"] += s.get("fish", 0)
            if s["type"] == "forest" and s.get("gold"):
                t["forests with gold"] += 1
    return dict(t)


def reference_path(arg: str) -> Path:
    path = Path(arg)
    return path if path.is_file() else path / REFERENCE


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("shared", nargs="?", default=str(DOCS),
                        help="a folder holding reference/tiles-hg.md (default: docs/), or the "
                             "file itself")
    parser.add_argument("--out", type=Path, default=OUT / "hunters-gatherers.json")
    args = parser.parse_args(argv)
    text = reference_path(args.shared).read_text(encoding="utf-8")
    data = build_tileset(text)
    args.out.write_text(dump_tileset(data), encoding="utf-8")
    print(f"wrote {args.out} ({len(data['tiles'])} tiles)")
    land = [t for t in data["tiles"] if not t.get("bonus")]
    bonus = [t for t in data["tiles"] if t.get("bonus")]
    for label, group in (("land", land), ("bonus", bonus)):
        print(f"  {label}: " + ", ".join(f"{k} {v}" for k, v in totals(group).items()))


if __name__ == "__main__":
    main(sys.argv[1:])
