"""SVG boards (replay.svg): a pure function of a replay state, drawn from the tile data."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from replay import svg
from replay.cli import main
from replay.core.colours import seat_marks
from replay.core.events import Score
from replay.core.family import GameConfig, GameState, family
from replay.core.playback import CHECKPOINT, play_through
from replay.core.record import parse
from replay.core.values import replace
from replay.games import carcassonne, hunters_gatherers
from replay.generate import config_for, dumps, generate_log
from replay.tiles.art import rotate_point, tile_art
from replay.tiles.events import Place
from replay.tiles.moves import FigureChoice
from replay.tiles.sets import DATA_DIR, builtin_tileset
from replay.tiles.state import TileState
from replay.tiles.tileset import TileType

NS = "{http://www.w3.org/2000/svg}"


def xml(text: str) -> ET.Element:
    return ET.fromstring(text)


def view_box(text: str) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in xml(text).attrib["viewBox"].split())
    return x, y, w, h


def tiles(state: GameState) -> TileState:
    """``state`` as the tile-laying state every family here plays."""
    assert isinstance(state, TileState)
    return state


@pytest.fixture(scope="module")
def base4() -> dict[str, Any]:
    return generate_log("base", 4, 3)


def first_scoring_move(log: dict[str, Any]) -> int:
    r = play_through(parse(log))
    for i, events in enumerate(r.events):
        if any(isinstance(e, Score) and e.phase == "play" for e in events):
            return i + 1
    raise AssertionError("no move scored during play")


def broken(log: dict[str, Any], index: int) -> dict[str, Any]:
    """The log with move ``index`` put on the start tile's cell (G4)."""
    bad = copy.deepcopy(log)
    bad["moves"][index].update({"x": 0, "y": 0})
    bad.pop("claims", None)
    return bad


# --------------------------------------------------------------------------- the picture

def test_board_is_well_formed_and_fits_every_tile(base4: dict[str, Any]) -> None:
    parsed = parse(base4)
    picture = svg.render(parsed)
    root = xml(picture)
    assert root.tag == f"{NS}svg"
    x, y, w, h = view_box(picture)
    game = tiles(play_through(parsed).state)
    for cx, cy in game.board:
        assert x <= cx * 100 and cx * 100 + 100 <= x + w
        assert y <= cy * 100 and cy * 100 + 100 <= y + h
    assert len(root.findall(f".//{NS}use[@class='tile']")) == len(game.board)


def test_view_fits_the_board_whatever_its_extent(base4: dict[str, Any]) -> None:
    parsed = parse(base4)
    small = view_box(svg.render(parsed, 0))
    large = view_box(svg.render(parsed))
    assert small[2] == small[3] == 350  # the start tile, shown in a 3 x 3 frame
    assert large[2] > small[2] and large[3] > small[3]
    assert 'width="' not in svg.render(parsed, 0).split(">", 1)[0]  # scales to its container
    sized = svg.render(parsed, 0, size=400)
    assert 'width="400" height="400"' in sized


def test_render_is_a_pure_function_of_the_position(base4: dict[str, Any]) -> None:
    a = svg.render(parse(base4), 30)
    b = svg.render(parse(base4), 30)
    assert a == b
    assert svg.render(parse(base4), 31) != a


@pytest.mark.parametrize("game,expansions", [
    ("base", ()),
    ("base", ("inns-cathedrals", "hills-sheep")),
    ("hunters-gatherers", ()),
])
def test_board_of_a_kept_position_equals_the_board_of_the_same_moves_played_by_hand(
        game: str, expansions: tuple[str, ...]) -> None:
    """The picture is a pure function of the state: position ``n`` of the kept playback (a
    checkpoint copy plus the moves after it, or the last state's copy) and a fresh state with
    the first ``n`` moves applied by hand draw the same bytes, with the same events too."""
    record = parse(generate_log(game, 3, 11, expansions))
    last = record.playback.last
    assert last > 2 * CHECKPOINT + 3
    for n in sorted({0, 1, CHECKPOINT - 1, CHECKPOINT, CHECKPOINT + 5, 2 * CHECKPOINT + 3,
                     last - 1, last}):
        pos = record.playback.position(n)
        by_hand = record.new_state()
        events = list(by_hand.setup_events)
        for move in record.moves[:n]:
            events = by_hand.apply(move)
        assert pos.state.state_hash == by_hand.state_hash, n
        picture = svg.board(pos.state)
        assert picture == svg.board(by_hand), n
        assert picture == svg.board(pos.state), n  # drawing leaves the state alone
        assert svg.board(pos.state, events=pos.events) == svg.board(by_hand, events=events), n


def test_render_does_not_replay_the_log_from_its_start_each_time(
        base4: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """``render`` reads the playback kept on the record (``record.playback``, built once): a
    position is a copy of the last state, or of the checkpoint kept every ``CHECKPOINT`` moves
    with the moves after it applied; only a position before the first checkpoint (a
    checkpoint miss) starts again from a new state."""
    record = parse(base4)
    fam = type(record.family)
    state_class = carcassonne.CarcassonneState
    new_state, apply = fam.new_state, state_class.apply
    calls = {"new_state": 0, "apply": 0}

    def counting_new_state(self: Any, config: GameConfig) -> Any:
        calls["new_state"] += 1
        return new_state(self, config)

    def counting_apply(self: Any, move: Any) -> Any:
        calls["apply"] += 1
        return apply(self, move)

    monkeypatch.setattr(fam, "new_state", counting_new_state)
    monkeypatch.setattr(state_class, "apply", counting_apply)
    moves = len(record.moves)
    assert moves > 3 * CHECKPOINT
    ns = [3, CHECKPOINT + 4, 2 * CHECKPOINT + 7, moves - 1, moves]
    pictures = [svg.render(record, n) for n in ns]
    misses = sum(1 for n in ns if n < CHECKPOINT)
    assert calls["new_state"] <= 1 + misses == 2  # the playback, and position 3
    assert calls["apply"] <= moves + sum(n % CHECKPOINT for n in ns)  # never from move 0 again
    assert len(set(pictures)) == len(pictures)


def test_last_tile_outlined(base4: dict[str, Any]) -> None:
    parsed = parse(base4)
    picture = svg.render(parsed, 12)
    place = next(e for e in play_through(parsed, upto=12).events[-1] if isinstance(e, Place))
    rect = xml(picture).find(f".//{NS}rect[@class='last']")
    assert rect is not None
    assert float(rect.attrib["x"]) == place.x * 100 + 2.5
    assert float(rect.attrib["y"]) == place.y * 100 + 2.5
    assert 'class="last"' not in svg.render(parsed, 0)


def test_features_scored_on_this_move_are_emphasized(base4: dict[str, Any]) -> None:
    parsed = parse(base4)
    n = first_scoring_move(base4)
    picture = svg.render(parsed, n)
    root = xml(picture)
    scored = root.find(f".//{NS}g[@class='scored']")
    assert scored is not None and len(scored) > 0
    popups = [t.text for t in root.findall(f".//{NS}g[@class='popup']/{NS}text")]
    scores = [e for e in play_through(parsed, upto=n).events[-1] if isinstance(e, Score)]
    marks = seat_marks(p["name"] for p in base4["players"])
    # each "+N" bears its scorer's mark, as the scorer's figures do (issue 35 item 14)
    assert popups and all(re.fullmatch(r"\S \+\d+", p or "") for p in popups)
    assert {f"{marks[w]} +{e.points}" for e in scores for w in e.winners} <= set(popups)
    assert 'class="scored"' not in svg.render(parsed, n - 1) or n - 1 == 0


def test_figures_in_player_colours_and_farmers_lying(base4: dict[str, Any]) -> None:
    parsed = parse(base4)
    picture = svg.render(parsed, 40)
    game = tiles(play_through(parsed, upto=40).state)
    figures = xml(picture).findall(f".//{NS}g[@class='figures']/{NS}use")
    assert len(figures) == len(game.figures_on_board())
    colours = {svg.player_colour(p.colour) for p in game.players}
    assert {f.attrib["fill"] for f in figures} <= colours
    lying = [f for f in figures if "lying" in f.attrib["class"]]
    farmers = [f for f in game.figures_on_board()
               if game.graph.of(f.node).type == "field"]
    assert len(lying) == len(farmers) > 0


def test_cities_roads_fields_cloisters_are_drawn_from_the_tile_data() -> None:
    tiles = builtin_tileset("base-1e").by_id()
    d = tile_art(tiles["D"]).terrain  # start tile: city north, road west-east (B1)
    assert 'class="field"' in d and 'class="city"' in d and 'class="wall"' in d
    assert 'class="road"' in d
    a = tile_art(tiles["A"])  # cloister with a road
    assert ("cloister", (50.0, 50.0)) in a.icons
    x = tile_art(tiles["X"]).terrain  # four roads meet at a crossing
    assert 'class="crossing"' in x
    c = tile_art(tiles["C"])  # all city, one pennant
    assert [name for name, _ in c.icons] == ["pennants"]
    assert 'class="wall"' not in c.terrain


def test_the_art_depends_on_the_data_not_on_tile_ids() -> None:
    tiles = builtin_tileset("base-1e").by_id()
    u = tiles["U"]
    renamed = replace(u, id="ZZ")
    assert tile_art(renamed).terrain == tile_art(u).terrain


@pytest.mark.parametrize("set_id", ["base-1e", "inns-cathedrals", "hills-sheep",
                                    "hunters-gatherers"])
def test_every_tile_draws_its_symbols_and_gives_each_segment_an_anchor(set_id: str) -> None:
    """Inns, cathedrals, pennants (IC1-IC3), hills and vineyards (HS7, HS9), forests, rivers,
    lakes with fish, gold, animals, fire, mushrooms, sacred place (HG2-HG11)."""
    expected_flags = {"hill", "vineyard", "volcano"}
    raw = json.loads((Path(DATA_DIR) / f"{set_id}.json").read_text(encoding="utf-8"))
    flags_of = {t["id"]: {f for f in expected_flags if t.get(f)} for t in raw["tiles"]}
    for t in builtin_tileset(set_id).tiles:
        assert set(t.flags) == flags_of[t.id], t.id  # the file's flags, every one
        art = tile_art(t)
        names = [name for name, _ in art.icons]
        for seg in t.segments:
            for key in ("pennants", "cathedral", "inn", "fish", "gold", "mushrooms", "deer",
                        "mammoth", "aurochs", "tiger", "fire", "sacred"):
                if seg.attr(key):
                    assert key in names, (t.id, key)
        for flag in expected_flags:
            assert (flag in names) == (flag in flags_of[t.id]), (t.id, flag)
        assert len(art.anchors) == len(t.segments)
        for ax, ay in art.anchors:
            assert 0 < ax < 100 and 0 < ay < 100, t.id
        for name, (ix, iy) in art.icons:
            assert 0 <= ix <= 100 and 0 <= iy <= 100, (t.id, name)
        for seg in t.segments:
            if seg.type in ("forest", "river", "lake"):
                assert f'class="{seg.type}"' in art.terrain, (t.id, seg.type)
            if seg.attr("spring"):
                assert 'class="spring"' in art.terrain, t.id


def test_separate_fields_of_a_tile_have_separate_anchors() -> None:
    tiles = builtin_tileset("base-1e").by_id()
    for t in tiles.values():
        art = tile_art(t)
        fields = [art.anchors[s.index] for s in t.segments if s.type == "field"]
        assert len(set(fields)) == len(fields), t.id
    # tile D: the field between city and road lies north of the road, the other south
    d = tiles["D"]
    art = tile_art(d)
    f1, f2 = (art.anchors[s.index] for s in d.segments if s.type == "field")
    assert f1[1] < 50 < f2[1]


def test_rotation_turns_anchors_clockwise() -> None:
    assert rotate_point((50, 0), 1) == (100, 50)  # north -> east (G1: clockwise)
    assert rotate_point((0, 0), 2) == (100, 100)


def _flock_required(game: TileState, tile: TileType, x: int, y: int, rot: int) -> bool:
    """HS3: whether the placement needs a flock choice (only Carcassonne has flocks)."""
    return (isinstance(game, carcassonne.CarcassonneState)
            and bool(game.flock_required(tile, x, y, rot)))


def _move(game: TileState, x: int, y: int, rot: int, tile: str,
          figure: FigureChoice | None) -> Any:
    """A move of the family ``game`` plays."""
    if isinstance(game, carcassonne.CarcassonneState):
        return carcassonne.Move(x, y, rot, tile, figure)
    return hunters_gatherers.Move(x, y, rot, tile, figure)


def _play_until(config_args: tuple[Any, ...], kind: str, limit: int = 120) -> TileState:
    """Play a seeded game, taking the first legal move that places a figure of ``kind``."""
    config = config_for(*config_args)
    game = tiles(family(config.game).new_state(config))
    for _ in range(limit):
        tile = game.current
        assert tile is not None
        options = game.legal_placements(tile)
        for x, y, rot in options:
            figs = [f for f in game.figure_options(tile, x, y, rot) if f.kind == kind]
            if figs and not _flock_required(game, tile, x, y, rot):
                game.apply(_move(game, x, y, rot, tile.id, figs[0]))
                return game
        x, y, rot = next((o for o in options if not _flock_required(game, tile, *o)),
                         options[0])
        game.apply(_move(game, x, y, rot, tile.id, None))
    raise AssertionError(f"no {kind} could be placed")


@pytest.mark.parametrize("args,kind", [
    (("base", 2, 5, ("inns-cathedrals",)), "large-follower"),
    (("base", 2, 5, ("hills-sheep",)), "shepherd"),
    (("hunters-gatherers", 2, 5), "hut"),
])
def test_large_followers_shepherds_and_huts(args: tuple[Any, ...], kind: str) -> None:
    """IC1 large followers, HS2 shepherds, HG3 huts: each drawn in its owner's colour."""
    game = _play_until(args, kind)
    picture = svg.board(game)
    figure = xml(picture).find(f".//{NS}g[@class='figures']/*[@class='figure {kind}']")
    assert figure is not None
    owner = next(f.player for f in game.figures_on_board() if f.kind == kind)
    fill = figure.attrib.get("fill") or figure.find(f"{NS}use").attrib["fill"]  # type: ignore[union-attr]
    assert fill == svg.player_colour(game.players[owner].colour)


def _undefined_refs(picture: str) -> set[str]:
    """The ``href``s of a picture that name no element of it."""
    root = xml(picture)
    ids = {e.attrib["id"] for e in root.iter() if "id" in e.attrib}
    return {e.attrib["href"] for e in root.iter() if "href" in e.attrib} - {f"#{i}" for i in ids}


def test_a_family_figure_is_defined_in_the_pictures_of_its_games_only() -> None:
    """Issue 36 item 1: Hunters & Gatherers' hut is drawn as the family tells the tile layer
    (``kinds.FIGURES``); its shape is defined in every picture of its games, a hut on the board
    or not yet, and in no Carcassonne picture; every figure drawn names a defined shape."""
    from replay.games.hunters_gatherers.features import FIGURES

    hut_def = f".//{NS}defs/{NS}path[@id='cr-hut']"
    first = svg.render(parse(generate_log("hunters-gatherers", 2, 5)), 0)
    with_hut = svg.board(_play_until(("hunters-gatherers", 2, 5), "hut"))
    for picture in (first, with_hut):
        hut = xml(picture).find(hut_def)
        assert hut is not None and hut.attrib["d"] == FIGURES["hut"].d
        assert hut.attrib["fill-rule"] == "evenodd"
        assert not _undefined_refs(picture)
    assert xml(with_hut).find(f".//{NS}use[@href='#cr-hut']") is not None
    for args in (("base", 2, 5), ("base", 3, 1, ("inns-cathedrals", "hills-sheep"))):
        picture = svg.render(parse(generate_log(*args)))
        assert xml(picture).find(hut_def) is None and "hut" not in picture
        assert not _undefined_refs(picture)


def test_hunters_gatherers_board_shows_forests_rivers_and_lakes() -> None:
    parsed = parse(generate_log("hunters-gatherers", 3, 2))
    picture = svg.render(parsed)
    for cls in ("forest", "river", "lake", "meadow"):
        assert f'class="{cls}"' in picture
    for icon in ("fish", "gold", "deer", "volcano"):
        assert f'id="cr-i-{icon}"' in picture


# --------------------------------------------------------------------------- user strings

def test_player_names_are_escaped_in_the_svg(base4: dict[str, Any]) -> None:
    log = copy.deepcopy(base4)
    log["players"][0]["name"] = "<script>alert(1)</script>"
    log.pop("claims")
    picture = svg.render(parse(log), 20)
    assert "<script>" not in picture
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in picture
    xml(picture)
    bad = broken(log, 4)
    failing = svg.render(parse(bad))
    assert "<script>" not in failing and "&lt;script&gt;" in failing
    xml(failing)


# --------------------------------------------------------------------------- failing moves

def test_failing_move_shows_the_rule_and_reason_on_the_board(base4: dict[str, Any]) -> None:
    """L3: the board stops before the illegal move (here G4) and says why."""
    bad = broken(base4, 6)
    parsed = parse(bad)
    assert parsed.playback.last == 7
    pos = svg.position(parsed)
    assert pos.n == 7 and pos.failure is not None and pos.failure.rule == "G4"
    assert len(tiles(pos.state).placements) == 7  # the start tile and the 6 legal moves
    picture = svg.render(parsed)
    assert picture == svg.render(parsed, 7)
    root = xml(picture)
    assert root.find(f".//{NS}g[@class='ghost']") is not None
    banner = "".join(root.find(f".//{NS}g[@class='banner']").itertext())  # type: ignore[union-attr]
    assert "Move 7" in banner and "G4" in banner and "already holds" in banner
    with pytest.raises(IndexError):
        svg.position(parsed, 8)
    with pytest.raises(IndexError):
        svg.position(parsed, -1)


def test_wrong_claim_is_written_on_the_board(base4: dict[str, Any]) -> None:
    """L2: a claimed score that differs from the replay is shown at its move."""
    log = copy.deepcopy(base4)
    log["moves"][9]["scores"] = {"Ada": 999}
    picture = svg.render(parse(log), 10)
    assert "L2: Ada is claimed to have 999 points after move 10" in picture
    assert "is claimed" not in svg.render(parse(log), 9)
    log = copy.deepcopy(base4)
    log["claims"]["final_scores"]["Ben"] += 1
    assert "L2: Ben is claimed" in svg.render(parse(log))


# --------------------------------------------------------------------------- CLI

def test_cli_render_writes_the_same_picture(base4: dict[str, Any], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(base4), encoding="utf-8")
    out = tmp_path / "out.svg"
    assert main(["render", str(path), "--move", "25", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == svg.render(parse(base4), 25)
    assert main(["render", str(path)]) == 0
    assert capsys.readouterr().out == svg.render(parse(base4))
    assert main(["render", str(path), "--move", "500"]) == 2
    assert "not in this game" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert main(["render", str(tmp_path / "bad.json")]) == 2


def test_svg_ids_are_unique_and_prefixed(base4: dict[str, Any]) -> None:
    picture = svg.render(parse(base4), prefix="x-")
    ids = re.findall(r' id="([^"]+)"', picture)
    assert ids and len(ids) == len(set(ids))
    assert all(i.startswith("x-") for i in ids)
    refs = set(re.findall(r'href="#([^"]+)"', picture))
    assert refs <= set(ids)
