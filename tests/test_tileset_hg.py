"""The Hunters & Gatherers tile set (HG1 material, HG2 terrain, HG13 reconstruction).

The set is the documented reconstruction of ``docs/reference/tiles-hg.md`` §8, made by
``tools/import_hg.py``; the expected totals below are the ones §8 lists.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from replay.core.errors import TileSetError
from replay.tiles.sets import DATA_DIR, builtin_tileset, load_tileset_file
from replay.tiles.tileset import TileSet, TileType

ROOT = Path(__file__).resolve().parent.parent
FILE = Path(DATA_DIR) / "hunters-gatherers.json"
REFERENCE = ROOT / "docs" / "reference" / "tiles-hg.md"

ANIMALS = ("deer", "mammoth", "aurochs", "tiger")


@pytest.fixture(scope="module")
def ts() -> TileSet:
    return builtin_tileset("hunters-gatherers")


def land(ts: TileSet) -> list[TileType]:
    return [t for t in ts.tiles if not t.bonus]


def bonus(ts: TileSet) -> list[TileType]:
    return [t for t in ts.tiles if t.bonus]


TOTAL_KEYS = ("tiles", *ANIMALS, "fire", "sacred", "mushrooms", "lakes", "lake_fish",
              "river_fish", "forests_with_gold", "gold")


def totals(tiles: list[TileType]) -> dict[str, int]:
    out: Counter[str] = Counter(tiles=sum(t.count for t in tiles))
    for t in tiles:
        for s in t.segments:
            for key in (*ANIMALS, "fire", "sacred", "mushrooms"):
                out[key] += s.attr(key) * t.count
            if s.type == "lake":
                out["lakes"] += t.count
                out["lake_fish"] += s.attr("fish") * t.count
            if s.type == "river":
                out["river_fish"] += s.attr("fish") * t.count
            if s.type == "forest" and s.attr("gold"):
                out["forests_with_gold"] += t.count
            out["gold"] += s.attr("gold") * t.count
    return {k: out[k] for k in TOTAL_KEYS}


def sides_of(t: TileType, seg_index: int) -> list[int]:
    return [s for s in range(4) if seg_index in t.rotations[0].side_segs[s]]


def test_hg13_file_loads_through_schema_as_reconstruction(ts: TileSet) -> None:
    """HG13: the shipped set validates and says that it is a reconstruction."""
    same = load_tileset_file(FILE)
    assert same.digest == ts.digest
    assert ts.id == "hunters-gatherers"
    assert ts.game == "hunters-gatherers"
    assert ts.reconstruction is True
    raw = json.loads(FILE.read_text(encoding="utf-8"))
    assert "reconstruction" in raw["name"].lower()
    assert "RECONSTRUCTION" in raw["provenance"]
    assert all("reconstruction §8" in t["source"] for t in raw["tiles"])


def test_hg1_material_79_land_tiles_and_12_bonus_tiles(ts: TileSet) -> None:
    """HG1: 79 land tiles including the start tile, 12 bonus tiles; each 2020 id is one tile."""
    assert [t.id for t in ts.tiles] == [f"HG-{i}" for i in range(91)]
    assert all(t.count == 1 for t in ts.tiles)
    assert sum(t.count for t in land(ts)) == 79
    assert sum(t.count for t in bonus(ts)) == 12
    assert {t.id for t in bonus(ts)} == {f"HG-{i}" for i in range(79, 91)}


def test_hg1_exactly_one_start_tile_with_volcano(ts: TileSet) -> None:
    """HG1: one start tile (volcano); S3/S4: two adjacent forest sides, a river, a meadow with a
    mammoth, a one-fish lake."""
    starts = [t for t in ts.tiles if t.start]
    assert [t.id for t in starts] == ["HG-56"]
    assert [t.id for t in ts.tiles if "volcano" in t.flags] == ["HG-56"]
    start = starts[0]
    assert not start.bonus
    assert start.edges == "MFFR"
    assert sum(s.attr("mammoth") for s in start.segments) == 1
    assert [s.attr("fish") for s in start.segments if s.type == "lake"] == [1]


def test_hg13_land_totals(ts: TileSet) -> None:
    """HG13, reference §8: land-tile totals of the reconstruction."""
    assert totals(land(ts)) == {
        "tiles": 79, "deer": 30, "mammoth": 14, "aurochs": 0, "tiger": 11,
        "fire": 0, "sacred": 0, "mushrooms": 0,
        "lakes": 20, "lake_fish": 27, "river_fish": 0,
        "forests_with_gold": 30, "gold": 30,
    }


def test_hg13_bonus_totals(ts: TileSet) -> None:
    """HG13, reference §8: bonus-tile totals (HG7 bonus stack, HG11 fire and sacred place,
    HG5 mushroom clearings)."""
    assert totals(bonus(ts)) == {
        "tiles": 12, "deer": 3, "mammoth": 4, "aurochs": 3, "tiger": 2,
        "fire": 1, "sacred": 1, "mushrooms": 2,
        "lakes": 7, "lake_fish": 13, "river_fish": 0,
        "forests_with_gold": 0, "gold": 0,
    }
    assert [t.id for t in bonus(ts) if any(s.attr("fire") for s in t.segments)] == ["HG-85"]
    assert [t.id for t in bonus(ts) if any(s.attr("sacred") for s in t.segments)] == ["HG-88"]
    mush = [t.id for t in bonus(ts) if any(s.attr("mushrooms") for s in t.segments)]
    assert mush == ["HG-79", "HG-87"]
    for t in bonus(ts):
        for s in t.segments:
            if s.attr("fire") or s.attr("sacred"):
                assert s.type == "meadow"
            if s.attr("mushrooms"):
                assert s.type == "forest"


def test_hg13_gold_on_every_land_forest_touching_two_sides(ts: TileSet) -> None:
    """HG13/HG7: a gold nugget (former menhir) sits on exactly the land-tile forests touching two
    or more sides (the 2002 reviewer's rule, reference §3)."""
    for t in land(ts):
        for s in t.segments:
            if s.type == "forest":
                assert bool(s.attr("gold")) == (len(sides_of(t, s.index)) >= 2), (t.id, s.id)
                assert s.attr("gold") in (0, 1)
            else:
                assert not s.attr("gold"), (t.id, s.id)


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
def test_hg2_sides_match_their_terrain_letter(ts: TileSet, quarter: int) -> None:
    """HG2: an R side is meadow | river | meadow, an F side one forest, an M side one meadow,
    in every rotation."""
    for t in ts.tiles:
        rot = t.rotations[quarter]
        assert set(rot.edges) <= set("FMR"), t.id
        for s, letter in enumerate(rot.edges):
            segs = [t.segments[rot.pos[3 * s + j]] for j in range(3)]
            types = [seg.type for seg in segs]
            if letter == "R":
                assert types == ["meadow", "river", "meadow"], (t.id, s)
            elif letter == "F":
                assert types == ["forest"] * 3 and len({g.index for g in segs}) == 1, (t.id, s)
            else:
                assert types == ["meadow"] * 3 and len({g.index for g in segs}) == 1, (t.id, s)


def test_hg2_rivers_end_at_sides_springs_or_lakes(ts: TileSet) -> None:
    """HG2/HG4/HG8: a river runs side to side, or from one side to a spring or into lakes on the
    tile; `touches` names lakes only; every lake has a river flowing into it."""
    for t in ts.tiles:
        pos = t.rotations[0].pos
        fed: set[int] = set()
        for s in t.segments:
            if s.type != "river":
                assert not s.touches and not s.attr("spring"), (t.id, s.id)
                continue
            at = [k for k in range(12) if pos[k] == s.index]
            assert at and all(k % 3 == 1 for k in at), (t.id, s.id)  # middles of sides only
            assert not s.attr("fish"), (t.id, s.id)  # §8 rule 3
            assert all(t.segments[i].type == "lake" for i in s.touches), (t.id, s.id)
            fed.update(s.touches)
            if len(at) == 2:  # through: no end on this tile, and its banks are separate
                assert not s.touches and not s.attr("spring"), (t.id, s.id)
                for k in at:
                    assert pos[k - 1] != pos[k + 1], (t.id, s.id, k)
            else:
                assert len(at) == 1, (t.id, s.id)
                assert bool(s.touches) != bool(s.attr("spring")), (t.id, s.id)
        lakes = {s.index for s in t.segments if s.type == "lake"}
        assert fed == lakes, t.id


def test_hg13_lakes_are_named_locations(ts: TileSet) -> None:
    """HG3 (huts on lakes): a lake touches no side and has a location name; two lakes on one tile
    are "lake" and "lake-2" (only HG-83)."""
    for t in ts.tiles:
        pos = set(t.rotations[0].pos)
        names = [s.name for s in t.segments if s.type == "lake"]
        assert names in ([], ["lake"], ["lake", "lake-2"]), t.id
        for s in t.segments:
            assert (s.type == "lake") == (s.name is not None), (t.id, s.id)
            assert (s.index in pos) == (s.type != "lake"), (t.id, s.id)
    assert [t.id for t in ts.tiles if sum(s.type == "lake" for s in t.segments) == 2] == ["HG-83"]


def test_hg13_corrected_tileset_file_can_be_loaded(tmp_path: Path) -> None:
    """HG13: a user may pass a corrected tile-set file of the same shape; a broken one is
    rejected by the schema."""
    raw = json.loads(FILE.read_text(encoding="utf-8"))
    raw["reconstruction"] = False
    raw["tiles"][0]["segments"][0]["deer"] = 1
    good = tmp_path / "hg-corrected.json"
    good.write_text(json.dumps(raw), encoding="utf-8")
    loaded = load_tileset_file(good)
    assert loaded.reconstruction is False
    assert loaded.digest != builtin_tileset("hunters-gatherers").digest
    raw["tiles"][0]["segments"][0]["menhir"] = True
    bad = tmp_path / "hg-broken.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(TileSetError):
        load_tileset_file(bad)


def test_hg13_importer_reproduces_the_committed_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """HG13: tools/import_hg.py, run on the reference (docs/reference/tiles-hg.md, in the
    clone), gives the committed file byte for byte."""
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    import_hg = importlib.import_module("import_hg")
    try:
        text = REFERENCE.read_text(encoding="utf-8")
        dumped = import_hg.dump_tileset(import_hg.build_tileset(text))
    finally:
        sys.modules.pop("import_hg", None)
        sys.modules.pop("import_reference", None)
    assert dumped == FILE.read_text(encoding="utf-8")


def test_every_built_in_tile_set_is_valid_under_the_schema() -> None:
    """The built-in sets skip the schema when a game starts (start-up time): here they pass
    it, and loading each through the full check gives the same set."""
    from replay.core.schemas import validator
    from replay.tiles.sets import load_tileset_file
    files = sorted(Path(DATA_DIR).glob("*.json"))
    assert len(files) >= 4
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert not list(validator("tileset").iter_errors(data)), path.name
        assert load_tileset_file(path) == builtin_tileset(path.stem), path.name


def test_a_tile_set_read_alone_knows_its_family_s_features() -> None:
    """Issue 36 item 1: the tile layer learns Hunters & Gatherers' features from the family;
    a tile set read by itself (``replay.load_tileset``, no game played yet) still tells its
    forests, rivers and symbols, as the family is brought in with its set."""
    import subprocess

    code = ("import replay; ts = replay.load_tileset(" + repr(str(Path(DATA_DIR) /
            "hunters-gatherers.json")) + "); print(ts.tiles[0].words)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent).stdout
    assert out.strip() == "a river into a lake with 2 fish, two forests and two meadows"
