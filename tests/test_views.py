"""A View per family (issue 36 item 1): each family's presentation named by reference and
loaded once, the overlays of ``View.board`` drawn in one pass, and the plain default that keeps
a plugin working."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from replay import svg
from replay.core.explore import choices, explorer_of
from replay.core.family import Family, Player, family
from replay.core.playback import Failure
from replay.core.record import parse
from replay.core.view import View, view_of
from replay.games.carcassonne.view import CarcassonneView
from replay.games.hunters_gatherers.view import HuntersGatherersView
from replay.games.manhattan.view import ManhattanView
from replay.generate import generate_log
from tests.broken_family import BROKEN, Broken

NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name,cls", [("base", CarcassonneView),
                                      ("hunters-gatherers", HuntersGatherersView),
                                      ("manhattan", ManhattanView)])
def test_each_family_names_its_view_and_it_is_made_once(name: str, cls: type[View]) -> None:
    view = view_of(family(name))
    assert type(view) is cls and view.family is family(name)
    assert view_of(family(name)) is view


@pytest.mark.parametrize("game,players,seed,n", [("base", 3, 7, 9),
                                                  ("hunters-gatherers", 4, 3, 9)])
def test_spots_grow_the_view_and_the_table_in_the_same_pass(game: str, players: int,
                                                             seed: int, n: int) -> None:
    record = parse(generate_log(game, players, seed))
    state = record.playback.position(n).state
    found = choices(state, explorer_of(record.family), record.moves[n])
    plain = svg.board(state)
    board = view_of(record.family).board(state, spots=found.spots())
    assert board.startswith(plain[:plain.index("viewBox")])  # the same picture around them
    root = ET.fromstring(board)
    x, y, w, h = (float(v) for v in root.get("viewBox", "").split())
    table = root.find(f"{NS}rect")
    assert table is not None and table.get("class") == "table"
    assert [float(table.get(k, "nan")) for k in ("x", "y", "width", "height")] == [x, y, w, h]
    cells = [tuple(int(v) for v in s.split(",")) for s in found.spots()]
    assert cells
    for cx, cy in cells:  # every spot's cell inside the view, 10 units to spare
        assert x <= cx * 100 - 10 and cx * 100 + 110 <= x + w + 1e-9
        assert y <= cy * 100 - 10 and cy * 100 + 110 <= y + h + 1e-9
    groups = root.findall(f"{NS}g[@class='spots']")
    assert len(groups) == 1 and len(groups[0]) == len(cells)
    assert root[-1] is groups[0]  # drawn last, over everything


class Undrawn(Broken):
    """A plugin's family that draws nothing and names no view."""

    name = "undrawn"
    draw = Family.draw  # type: ignore[assignment]


def test_a_family_that_draws_nothing_gets_a_plain_picture_with_its_text_escaped() -> None:
    state = BROKEN.new_state(BROKEN.configure(
        {"game": "broken"}, (Player("Ada & <Ben>", "red"), Player("Cleo", "blue")), "1"))
    view = View(Undrawn())
    failure = Failure(3, "Cleo", "B2", "the <edges> differ", None)
    picture = view.board(state, failure=failure, notes=("L2: a <claim>",),
                         spots={"0,1": "legal"}, linked=True)
    root = ET.fromstring(picture)  # well-formed: every text escaped
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert texts[:2] == ["▶ Ada & <Ben>: 0", "Cleo: 0"]
    assert any("the <edges> differ" in (t or "") for t in texts)
    assert "L2: a <claim>" in texts
    assert "&lt;Ben&gt;" in picture and "<Ben>" not in picture
    assert re.search(r'class="plain-board"', picture)
    assert view.describe_move(state.legal_moves().__next__(), None, state).text


def test_the_next_piece_is_drawn_and_told_by_the_view() -> None:
    record = parse(generate_log("base", 2, 1))
    state = record.playback.position(5).state
    view = view_of(record.family)
    tile = state.status()["next_tile"]
    assert view.next_piece_words(state) == state.tiles_by_id[tile].words  # type: ignore[attr-defined]
    assert view.next_piece(state).startswith("<svg")
    assert View(record.family).next_piece_words(state) == ""  # the default knows no words
    ended = record.playback.state
    assert ended.finished and view.next_piece(ended) == "" == view.next_piece_words(ended)
