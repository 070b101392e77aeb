"""The analysis board's ghosts as the views draw them (issue 36 item 2): every option of a
position is shown by exactly one ghost (and one target when it puts a figure), at its spot,
turned as it turns the tile; Manhattan's per lot and piece; a view written before ghosts
keeps working (``draw_board`` leaves out what its ``board`` does not take)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from replay.core.explore import Choices, choices, explorer_of
from replay.core.record import parse
from replay.core.view import View, draw_board, view_of
from replay.generate import generate_log

NS = "{http://www.w3.org/2000/svg}"
CASES = [("base", 3, ("inns-cathedrals", "hills-sheep"), 8),
         ("base", 2, (), 30), ("hunters-gatherers", 2, (), 9), ("manhattan", 3, (), 4)]


def _position(game: str, players: int, expansions: tuple[str, ...],
              n: int) -> tuple[Any, Any, Choices]:
    record = parse(generate_log(game, players, 7, expansions))
    state = record.playback.position(n).state
    return record, state, choices(state, explorer_of(record.family), record.moves[n])


def _indexes(g: ET.Element) -> list[int]:
    return [int(k) for k in (g.get("data-options") or "").split()]


@pytest.mark.parametrize(("game", "players", "expansions", "n"), CASES)
def test_every_option_has_one_ghost(game: str, players: int, expansions: tuple[str, ...],
                                    n: int) -> None:
    record, state, found = _position(game, players, expansions, n)
    svg = draw_board(view_of(record.family), state, spots=found.spots(), ghost=found.options)
    root = ET.fromstring(svg)
    ghosts = root.findall(f".//{NS}g[@class='preview']")
    assert ghosts
    shown: list[int] = []
    for g in ghosts:
        spot = g.get("data-spot")
        for k in _indexes(g):  # the ghost's own options: no figure (or a piece, Manhattan)
            option = found.options[k]
            assert option.spot == spot
            assert "figure" not in option.move
            shown.append(k)
        for target in g.findall(f"{NS}g[@class='target']"):
            kinds = set()
            for k in _indexes(target):
                option = found.options[k]
                assert option.spot == spot and "figure" in option.move
                kinds.add(option.move["figure"].get("kind", "follower"))
                shown.append(k)
            assert target.get("aria-label")
            drawn = target.findall(f"{NS}g[@class='preview-figure']")
            assert len(drawn) == len(kinds)  # a figure drawn per kind, named by its options
            assert sorted(k for f in drawn for k in _indexes(f)) == sorted(_indexes(target))
        mine = [found.options[k] for k in _indexes(g)] + [
            found.options[k] for t in g.findall(f"{NS}g[@class='target']") for k in _indexes(t)]
        if game == "manhattan":  # one piece per ghost
            assert {o.facet for o in mine} == {g.get("data-label")}
        else:  # one turn of the tile per ghost
            turns = {o.move["rotation"] for o in mine}
            assert len(turns) == 1
            assert g.get("data-label") == ("not turned" if turns == {0} else
                                           f"turned {turns.pop()}°")
    on_a_spot = [o.index for o in found.options if o.spot]
    assert sorted(shown) == on_a_spot, "each option on a spot is shown once, by one ghost"


def test_the_ghosts_say_how_the_tile_lies() -> None:
    record, state, found = _position("base", 2, (), 30)
    root = ET.fromstring(draw_board(view_of(record.family), state, ghost=found.options))
    for g in root.findall(f".//{NS}g[@class='preview']"):
        options = [found.options[k] for k in _indexes(g)] + [
            found.options[k] for t in g.findall(f"{NS}g[@class='target']") for k in _indexes(t)]
        assert {o.move["rotation"] for o in options} == {
            0 if g.get("data-label") == "not turned"
            else int((g.get("data-label") or "").removeprefix("turned ").rstrip("°"))}
        tile = g.find(f"{NS}use[@class='preview-tile']")
        assert tile is not None and (tile.get("transform") or "rotate(0").startswith(
            f"rotate({options[0].move['rotation']}")


def test_no_ghost_without_options_and_a_plugin_view_without_them() -> None:
    record, state, found = _position("base", 2, (), 30)
    view = view_of(record.family)
    assert "preview" not in draw_board(view, state)
    assert draw_board(view, state, ghost=()) == draw_board(view, state)

    class Old(View):  # a plugin's view written before ghosts
        def board(self, state: Any, *, events: Any = (), failure: Any = None,
                  notes: Any = (), size: Any = None, prefix: str = "cr-", spots: Any = None,
                  spot_names: Any = None, linked: bool = False) -> str:
            return "<svg/>"

    assert draw_board(Old(record.family), state, spots=found.spots(),
                      ghost=found.options) == "<svg/>"
