"""The analysis board's words (issue 36 item 2): a figure step is named as a player says it
("farmer in the field", "large follower: knight in the city", "hut by the river", "... on the
hill"), in the words the move list gives the same move once played, and agrees with the event
it makes; a spot is named by what it touches ("next to the cloister at (0,0), touching a field
(north) · (0,1)"), a Manhattan lot by its city, its place and what stands on it; the names go
once into ``Choices.labels``, read by the menus, the refusals and the accessible names."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import pytest

from replay.core.explore import Explorer, choices, explorer_of
from replay.core.record import GameRecord, parse
from replay.core.view import View, view_of
from replay.games.manhattan.state import ManhattanState
from replay.generate import generate_log
from replay.tiles.board import SIDE_WORDS, Board
from replay.tiles.events import FigurePlaced
from replay.tiles.state import TileState
from replay.tiles.tileset import SIDE_DELTA
from replay.tiles.words import feature_side, figure_place, told_figure

GAMES = {"base": ("base", 3, 7, ()),
         "base-ic-hs": ("base", 3, 5, ("inns-cathedrals", "hills-sheep")),
         "hunters-gatherers": ("hunters-gatherers", 2, 3, ()),
         "manhattan": ("manhattan", 3, 3, ())}

# the positions looked at, and the figure words each family's menus must hold there (sides
# left out: "<side>" marks a side named because the tile holds two features of the kind)
POSITIONS = {"base": (1, 2), "base-ic-hs": (0, 1, 8), "hunters-gatherers": (0, 1, 4)}
WANTED = {
    "base": {"farmer in the field", "monk in the cloister", "thief on the road",
             "knight in the city"},
    "base-ic-hs": {"large follower: knight in the city", "large follower: farmer in the field",
                   "shepherd in the field", "knight in the city on the hill",
                   "knight in the city <side>", "thief on the road"},
    "hunters-gatherers": {"hunter in the meadow", "gatherer in the forest",
                          "fisher on the river", "hut by the river", "hut by the lake",
                          "hunter in the meadow <side>"},
}


@cache
def _record(name: str) -> GameRecord:
    game, players, seed, expansions = GAMES[name]
    return parse(generate_log(game, players, seed, expansions))


def _side_free(words: str) -> str:
    return re.sub(r" to the [a-z-]+", " <side>", words)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_figure_steps_are_named_as_the_played_move_is(name: str) -> None:
    """Every figure step of the menus at these positions is the words of the figure event the
    move makes once played (the same function tells both), names the event's role and
    feature, names a side exactly when the tile holds two features of that kind, and is the
    figure the move list tells for the played move."""
    record = _record(name)
    family = record.family
    view = view_of(family)
    seen: set[str] = set()
    checked = 0
    for n in POSITIONS[name]:
        state = record.playback.position(n).state
        assert isinstance(state, TileState)
        found = choices(state, explorer_of(family), record.moves[n])
        for o in found.options:
            step = o.steps[1]
            seen.add(_side_free(step))
            if step == "no figure":
                assert "figure" not in o.move
                continue
            move = family.decode_move(o.move, "")
            after = state.copy()
            events = after.apply(move)
            event = next(e for e in events if isinstance(e, FigurePlaced))
            tile = state.tiles_by_id[move.tile] if move.tile else state.current
            assert tile is not None
            assert step == told_figure(event, tile, move.rotation)
            # the event says where in words, and its explanation too
            assert event.place == figure_place(tile, move.rotation, event.location,
                                               event.feature, event.kind)
            assert step.endswith(event.place)
            assert event.explain(state.players).endswith(f" {event.place}")
            role = event.role if event.role != event.kind else event.kind
            assert role is not None and role.replace("-", " ") in step
            assert f"the {event.feature}" in step
            same_kind = sum(s.type == event.feature for s in tile.segments)
            assert (" to the " in step) == (same_kind > 1), (step, tile.id)
            assert step.endswith(" on the hill") == tile.hill
            told = view.describe_move(move, events, state).text
            assert f"· {step}" in told, (told, step)
            checked += 1
    assert checked > 40
    missing = WANTED[name] - seen
    assert not missing, sorted(seen)
    assert not any("follower to the" in s or s.startswith("follower ") for s in seen)


def test_a_side_is_the_whole_sides_a_feature_covers() -> None:
    """Of two features of a kind, one is pointed at by the whole sides it covers ("the field
    to the west" of a straight road running north-south, "to the south and west" outside a
    curve), else by its corner or its road's side."""
    record = _record("base")
    tiles = record.playback.position(0).state.tiles_by_id  # type: ignore[attr-defined]
    straight, curve = tiles["U"], tiles["V"]  # a road east-west; a road curve
    assert straight.edges == "FRFR"
    assert feature_side(straight, 90, "NL") == "to the west"  # turned: the road runs N-S
    assert feature_side(straight, 90, "NR") == "to the east"
    assert feature_side(straight, 0, "NL") == "to the north"
    assert feature_side(straight, 0, "E") == "to the east"  # a road: its side
    outer = {feature_side(curve, 0, loc) for loc in curve.rotations[0].locations
             if curve.segments[curve.rotations[0].locations[loc]].type == "field"}
    assert len(outer) == 2 and any(" and " in side for side in outer), outer
    assert any(side in ("to the north-east", "to the north-west", "to the south-east",
                        "to the south-west") for side in outer), outer
    assert feature_side(curve, 0, "cloister") == ""


def test_the_bonus_tiles_figure_is_named_so_too() -> None:
    """HG7: the bonus tile's figure in a menu is named as the land tile's ("hunter in the
    meadow to the north-east" on a tile of two meadows), never "follower to the ..."."""
    record = _record("hunters-gatherers")
    state = record.playback.position(14).state
    found = choices(state, explorer_of(record.family), record.moves[14])
    bonus = [o.steps[2] for o in found.options if len(o.steps) > 2]
    figures = {_side_free(b.rpartition(" · ")[2]) for b in bonus}
    assert {"hunter in the meadow <side>", "fisher on the river", "gatherer in the forest",
            "no figure"} <= figures, figures
    assert not any(f.startswith("follower") for f in figures)
    played = 0
    for o in found.options:  # once played, the move list tells the bonus figure the same
        if len(o.steps) > 2 and not o.steps[2].endswith("no figure"):
            move = record.family.decode_move(o.move, "")
            events = state.copy().apply(move)
            told = view_of(record.family).describe_move(move, events, state).text
            assert told.endswith(o.steps[2].rpartition(" · ")[2]), (told, o.steps)
            played += 1
    assert played > 3


def _expected_cell_name(state: Board, spot: str) -> str:
    """A cell's name worked out here from the board's tiles (not from the frontier or the
    cloister tables the explorer reads)."""
    x, y = (int(v) for v in spot.split(","))
    touched: dict[str, list[str]] = {}
    for s, (dx, dy) in enumerate(SIDE_DELTA):
        there = state.board.get((x + dx, y + dy))
        if there is not None:
            letter = there.tile.rotations[there.rot].edges[(s + 2) % 4]
            touched.setdefault(state.terrain(letter), []).append(SIDE_WORDS[s])
    cloisters = sorted(
        (x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
        if (p := state.board.get((x + dx, y + dy))) is not None
        and any(seg.type == "cloister" for seg in p.tile.segments))
    parts = []
    if cloisters:
        at = " and ".join(f"({cx},{cy})" for cx, cy in cloisters)
        parts.append(f"next to the cloister{'s' if len(cloisters) > 1 else ''} at {at}")
    said = [f"{'an' if what[0] in 'aeiou' else 'a'} {what} ({', '.join(sides)})"
            for what, sides in touched.items()]
    if said:
        parts.append("touching " + (", ".join(said[:-1]) + " and " + said[-1]
                                    if len(said) > 1 else said[0]))
    return f"{', '.join(parts)} · ({x},{y})"


@pytest.mark.parametrize("name,n", [("base", 9), ("base-ic-hs", 8), ("hunters-gatherers", 5)])
def test_a_cell_is_named_by_what_it_touches(name: str, n: int) -> None:
    """Every spot of a tile board, legal or not, is named by the features its neighbours show
    it and the cloisters around it, then its coordinates; the names are in ``labels``."""
    record = _record(name)
    state = record.playback.position(n).state
    assert isinstance(state, TileState)
    found = choices(state, explorer_of(record.family), record.moves[n])
    spots = found.spots()
    assert set(found.labels) == set(spots)
    for spot in spots:
        assert found.labels[spot] == _expected_cell_name(state, spot), spot


def test_a_spot_beside_a_cloister_says_so() -> None:
    """Base seed 7, move 9: the cloister at (-3,-1) is beside cells that say so."""
    record = _record("base")
    state = record.playback.position(9).state
    found = choices(state, explorer_of(record.family), record.moves[9])
    assert found.labels["-4,-1"] == ("next to the cloister at (-3,-1), touching a field (east) "
                                     "· (-4,-1)")
    assert found.labels["-2,0"] == ("next to the cloisters at (-3,-1) and (-1,-1), touching a "
                                    "road (north, east) · (-2,0)")
    assert found.labels["1,0"] == "touching a road (south, west) · (1,0)"


def test_a_manhattan_lot_is_named_by_city_place_and_building() -> None:
    """A lot is named by its city and place (M1: six cities of 3 × 3 lots) and what stands on
    it: the owner (the colour of the top piece, M5) and the storeys."""
    record = _record("manhattan")
    state = record.playback.position(20).state
    assert isinstance(state, ManhattanState)
    found = choices(state, explorer_of(record.family), record.moves[20])
    assert found.labels["Manhattan/1"] == "the north-centre lot of Manhattan · empty"
    assert found.labels["Cairo/7"] == "the south-centre lot of Cairo · a blue building of 2 storeys"
    built = 0
    for spot, label in found.labels.items():
        city, _, lot = spot.partition("/")
        stack = state.board.get((["Manhattan", "Frankfurt", "Sydney", "Hong Kong", "São Paulo",
                                  "Cairo"].index(city), int(lot)))
        if stack:
            built += 1
            storeys = sum(s for _, s in stack)
            assert label.endswith(f"· a {stack[-1][0]} building of {storeys} storey"
                                  f"{'s' if storeys > 1 else ''}"), label
        else:
            assert label.endswith(" · empty"), label
    assert built > 0


def test_spot_names_tell_legal_from_illegal_with_the_labels() -> None:
    record = _record("base")
    state = record.playback.position(9).state
    found = choices(state, explorer_of(record.family), record.moves[9])
    names = found.spot_names()
    legal = {o.spot for o in found.options}
    assert legal and found.refusals
    for spot, name in names.items():
        label = found.labels[spot]
        if spot in legal:
            assert re.fullmatch(rf"legal: {re.escape(label)}, \d+ moves?", name), name
        else:
            assert name.startswith(f"nothing can be played here: {label}: G"), name
    assert found.to_json()["labels"] == dict(sorted(found.labels.items()))
    json.dumps(found.to_json())


def test_an_explorer_written_before_views_keeps_its_words(monkeypatch: Any) -> None:
    """A plugin's family with no view of its own gets the default ``View``, which asks its
    explorer for the analysis board's words as before views (``place``; ``spot_label`` when
    it has no ``spot_name``)."""
    import replay.core.explore as explore

    record = _record("base")
    state = record.playback.position(9).state
    move = next(iter(state.legal_moves()))

    class Old(Explorer):
        def place(self, state: Any, move: Any) -> tuple[str, str, tuple[str, ...]]:
            return f"{move.x},{move.y}", "", ("the old words",)

        def spot_label(self, spot: str) -> str:
            return f"square {spot}"

    monkeypatch.setattr(explore, "explorer_of", lambda family: Old(family))
    view = View(record.family)
    assert view.spot_name(state, "0,1") == "square 0,1"
    assert view.menu(state, move) == (f"{move.x},{move.y}", "", ("the old words",))
    assert view.draw_label(state, "E") == "E"


def test_the_page_names_menus_and_refusals(client: Any) -> None:
    """The analysis board's page: each spot's menu is headed by its name, the figure buttons
    say "farmer in the field", and the refusals name their spots the same way."""
    log = generate_log(*GAMES["base"][:2], GAMES["base"][2])
    gid = client.post("/api/games", data=json.dumps(log)).get_json()["id"]
    page = client.get(f"/games/{gid}/moves/9?explore=1").get_data(as_text=True)
    assert "<summary>next to the cloister at (-3,-1), touching a field (east) · (-4,-1) " in page
    assert '<b>touching a city (south) · (0,-3)</b> · rule <b class="rule">G4</b>' in page
    assert ">farmer in the field" in page and ">thief on the road to the north" in page
    assert "follower to the" not in page and "cell (" not in page
    assert 'aria-label="legal: next to the cloister at (-3,-1), touching a field' in page


def test_the_flock_is_pointed_at_as_the_figures_are() -> None:
    """HS3: the field a flock choice names is told as a figure's field is: no side on a tile
    of one field, else the whole sides it covers or its corner."""
    record = _record("base-ic-hs")
    state = record.playback.position(24).state
    assert isinstance(state, TileState) and state.current is not None
    tile = state.current
    found = choices(state, explorer_of(record.family), record.moves[24])
    fields = sum(s.type == "field" for s in tile.segments)
    told = 0
    for o in found.options:
        for c in o.move.get("flock", ()):
            side = "" if fields == 1 else f" {feature_side(tile, o.move['rotation'], c['at'])}"
            assert f"the flock in the field{side}: " in o.steps[2], (o.steps, c)
            told += 1
    assert told > 0


@pytest.mark.parametrize("name", ["base", "base-ic-hs", "hunters-gatherers", "manhattan"])
def test_an_options_text_is_its_move_told_by_the_move_list(name: str) -> None:
    """``View.option_text`` (built from the menu's figure words, not told again) is the move
    list's words for the move not played (``describe_move``), at every tenth position."""
    record = _record(name)
    view = view_of(record.family)
    for n in range(0, len(record.moves), 10):
        state = record.playback.position(n).state
        found = choices(state, explorer_of(record.family), record.moves[n])
        moves = {json.dumps(record.family.encode_move(m), sort_keys=True): m
                 for m in state.legal_moves()}
        for o in found.options:
            move = moves[json.dumps(o.move, sort_keys=True)]
            assert o.text == view.describe_move(move, None, state).text, (n, o.steps)
