"""Players told apart by more than colour (issue 35, item 14): each seat's mark (the first
letter of its name, or its number) on its figures and buildings, on its "+N" badges, at the
end of its chart line and beside its name in every legend; and the analysis board's spots
named legal or not in words, each refusal with its rule. (Tab order and the accessible names
in a real browser: tests/browser/test_marks_keyboard.py.)"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

import pytest
from flask.testing import FlaskClient

from replay import svg
from replay.core.colours import player_colour, seat_marks, text_on
from replay.core.explore import Explorer, choices, explorer_of
from replay.core.family import GameState
from replay.core.playback import play_through
from replay.core.record import parse
from replay.core.view import View, view_of
from replay.games.manhattan import ManhattanState, scoring
from replay.generate import dumps, generate_log
from replay.tiles.events import FigureReturned
from replay.tiles.state import TileState

NS = "{http://www.w3.org/2000/svg}"


def xml(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def marks_of(root: ET.Element) -> list[tuple[str, str]]:
    """(mark, ink) of every seat mark drawn, in order."""
    return [(t.text or "", t.get("fill", "")) for t in root.iter(f"{NS}text")
            if t.get("class") == "mark"]


@pytest.mark.parametrize("names,marks", [
    (["Ada", "Ben", "Cleo"], ["A", "B", "C"]),
    (["ann", "ben"], ["A", "B"]),
    (["Ann", "Alice", "Bo"], ["1", "2", "3"]),  # two share A: every seat by its number
    (["Ann", "ann"], ["1", "2"]),
    (["<script>", "'x'", "Émile", "ßen"], ["S", "X", "É", "ß"]),
    (["!!", "Bo"], ["1", "2"]),  # no letter: numbers
])
def test_a_seat_is_marked_by_its_initial_or_else_its_number(names: list[str],
                                                            marks: list[str]) -> None:
    assert seat_marks(names) == marks
    assert seat_marks([{"name": n, "colour": "red"} for n in names]) == marks


def test_every_figure_bears_its_seats_mark_legibly() -> None:
    log = generate_log("base", 4, 7, ("inns-cathedrals", "hills-sheep"))
    game = play_through(parse(log), upto=40).state
    assert isinstance(game, TileState)
    root = xml(svg.render(parse(log), 40))
    marks = seat_marks(p.name for p in game.players)
    figures = root.find(f".//{NS}g[@class='figures']")
    assert figures is not None
    drawn = []
    children = list(figures)
    for k, el in enumerate(children):
        if (el.get("class") or "").startswith("figure "):
            fill = el.get("fill") or el.find(f"{NS}use").get("fill")  # type: ignore[union-attr]
            after = children[k + 1]
            assert after.get("class") == "mark", "every figure is followed by its mark"
            size = after.get("font-size") or figures.get("font-size", "0")
            assert float(size) >= 11  # a third of a figure's height
            assert after.get("fill") == text_on(str(fill))
            drawn.append((fill, after.text))
    expected = sorted((player_colour(game.players[f.player].colour), marks[f.player])
                      for f in game.figures_on_board())
    assert sorted(drawn) == expected and len(drawn) > 5


def test_returned_figures_and_badges_bear_the_mark_too() -> None:
    log = generate_log("base", 3, 5)
    record = play_through(parse(log))
    n = next(k + 1 for k, events in enumerate(record.events)
             if any(isinstance(e, FigureReturned) for e in events))
    root = xml(svg.render(parse(log), n))
    returned = root.find(f".//{NS}g[@class='returned']")
    assert returned is not None
    returns = [e for e in record.events[n - 1] if isinstance(e, FigureReturned)]
    marks = seat_marks(p["name"] for p in log["players"])
    assert sorted(m for m, _ in marks_of(returned)) == sorted(marks[e.player] for e in returns)
    popups = [t.text or "" for t in root.iter(f"{NS}text")
              if t.text and re.fullmatch(r"\S \+\d+", t.text)]
    assert popups and {p[0] for p in popups} <= set(marks)


def test_a_game_whose_players_share_an_initial_is_marked_by_numbers() -> None:
    log = generate_log("base", 3, 5)
    for i, p in enumerate(log["players"]):
        p["name"] = f"Sam {i}"
    log.pop("claims", None)
    root = xml(svg.render(parse(log), 30))
    assert {m for m, _ in marks_of(root)} <= {"1", "2", "3"} and marks_of(root)


@pytest.mark.parametrize("players", [2, 4])
def test_manhattan_roofs_swatches_and_mixed_pieces_bear_the_owners_mark(players: int) -> None:
    log = generate_log("manhattan", players, 3)
    record = parse(log)
    state = record.playback.position(40).state
    assert isinstance(state, ManhattanState)
    root = xml(svg.render(record, 40))
    marks = seat_marks(p["name"] for p in log["players"])
    mark_of = {c: marks[s] for c, s in state.seat_of.items()}
    buildings = [g for g in root.iter(f"{NS}g") if g.get("class") == "building"]
    assert buildings
    for g in buildings:
        owner = g.get("data-owner", "")
        drawn = [m for m, _ in marks_of(g)]
        assert drawn and drawn[-1] == mark_of[owner], "the roof bears the owner's mark"
        stack = state.board[(int(g.get("data-city", "")), int(g.get("data-lot", "")))]
        assert set(drawn) <= {mark_of[c] for c, _ in stack}
    panel = next(g for g in root.iter(f"{NS}g") if g.get("class") == "panel")
    assert [m for m, _ in marks_of(panel)] == [mark_of[c] for c in state.colours]
    assert all(float(t.get("font-size", "0")) >= 21 for t in panel.iter(f"{NS}text")
               if t.get("class") == "mark")  # the panel's size for a phone
    assert any(len({c for c, _ in s}) > 1 and scoring.height(s) > 1
               for s in state.board.values() if s) or players == 2


# ------------------------------------------------------------------------------ the web page

def test_the_chart_lines_and_the_legends_bear_the_marks(client: FlaskClient) -> None:
    log = generate_log("base", 3, 5)
    gid = client.post("/api/games", data=dumps(log),
                      content_type="application/json").get_json()["id"]
    page = client.get(f"/games/{gid}/moves/20").get_data(as_text=True)
    marks = seat_marks(p["name"] for p in log["players"])
    chart = page[page.index('<svg xmlns="http://www.w3.org/2000/svg" class="chart"'):]
    chart = chart[:chart.index("</svg>")]
    ends = re.findall(r'<g class="mark" data-seat="(\d)"[^>]*><circle [^>]*/>'
                      r'<text [^>]*>(.)</text></g>', chart)
    assert sorted(ends) == [(str(i), m) for i, m in enumerate(marks)]
    # the chart's columns are no tab stops of their own (the chart is one: its figure)
    columns = re.findall(r"<a [^>]*>", chart)
    assert len(columns) > 20 and all('tabindex="-1"' in a for a in columns)
    assert re.search(r'<figure id="chart" class="chart-wrap" tabindex="0" aria-label="[^"]+"',
                     page)
    for m, p in zip(marks, log["players"], strict=True):  # the legends: the mark and the name
        fill = player_colour(p["colour"])
        dot = (f'<i class="dot mk" style="background:{fill};color:{text_on(fill)}" '
               f'aria-hidden="true">{m}</i>')
        assert page.count(dot + p["name"]) >= 2  # score table, chart legend
        assert re.search(re.escape(dot) + r'<a class="plink" href="[^"]+">'  # the heading:
                         + re.escape(p["name"]) + "</a>", page)  # a link to their page
    assert re.search(r'<span class="pts" style="color:[^"]+">[ABC]\+\d+</span>', page)


class OldExplorer(Explorer):
    """A plugin's explorer written before spots had names."""

    def mark(self, state: GameState, board: str, spots: Mapping[str, str],  # type: ignore[override]
             prefix: str = "cr-") -> str:
        return board + f"<!-- {len(spots)} spots -->"


@pytest.mark.parametrize("game,players,seed,n", [("base", 3, 7, 9),
                                                  ("manhattan", 3, 3, 9)])
def test_legal_and_illegal_spots_have_different_accessible_names(
        game: str, players: int, seed: int, n: int) -> None:
    record = parse(generate_log(game, players, seed))
    state = record.playback.position(n).state
    explorer = explorer_of(record.family)
    found = choices(state, explorer, record.moves[n])
    board = view_of(record.family).board(state, spots=found.spots(),
                                         spot_names=found.spot_names(explorer.spot_label))
    spots = [g for g in xml(board).iter(f"{NS}g")
             if (g.get("class") or "").startswith("spot ")]
    legal = [g for g in spots if g.get("class") == "spot legal"]
    illegal = [g for g in spots if g.get("class") == "spot illegal"]
    assert legal and illegal
    assert all(g.get("aria-label", "").startswith("legal: ") for g in legal)
    counts: dict[str, int] = {}
    for o in found.options:
        counts[o.spot] = counts.get(o.spot, 0) + 1
    for g in legal:
        count = counts[g.get("data-spot", "")]
        assert g.get("aria-label", "").endswith(f", {count} move{'s' * (count != 1)}")
    why = {r.spot: r for r in found.refusals}
    for g in illegal:
        r = why[g.get("data-spot", "")]
        assert g.get("aria-label") == (f"nothing can be played here: "
                                       f"{explorer.spot_label(r.spot)}: {r.rule}: {r.message}")
    for g in spots:  # the tooltip says the same, for a mouse
        assert g.find(f"{NS}title").text == g.get("aria-label")  # type: ignore[union-attr]


class OldFamily:
    """A plugin's family written before views: its explorer marks the spots (``OldExplorer``),
    its default view calls it."""

    explorer = "tests.test_seat_marks:OldExplorer"

    def __init__(self, family: object) -> None:
        self.inner = family

    def draw(self, state: GameState, **kwargs: object) -> str:
        return self.inner.draw(state, **kwargs)  # type: ignore[attr-defined, no-any-return]


def test_a_plugin_s_explorer_written_before_views_still_marks_the_spots() -> None:
    record = parse(generate_log("base", 3, 7))
    state = record.playback.position(9).state
    found = choices(state, explorer_of(record.family), record.moves[9])
    old = View(OldFamily(record.family))  # type: ignore[arg-type]
    board = old.board(state, spots=found.spots())
    assert board.endswith(f"<!-- {len(found.spots())} spots -->")
    assert old.board(state) == svg.board(state)  # no spots: the family's own picture


def test_spot_names_count_each_spots_moves() -> None:
    record = parse(generate_log("base", 2, 1))
    found = choices(record.playback.position(3).state, explorer_of(record.family),
                    record.moves[3])
    names = found.spot_names(lambda s: f"cell ({s})")
    assert set(names) == set(found.spots())
    assert {n.split(":")[0] for n in names.values()} == {"legal", "nothing can be played here"}


def test_chart_marks_of_equal_scores_are_moved_apart_within_the_chart() -> None:
    from web import viewer

    players = [{"name": n, "colour": c} for n, c in zip(
        ["Ada", "Ben", "Cleo", "Dan", "Eve", "Fay"],
        ["red", "blue", "green", "yellow", "black", "grey"], strict=True)]
    bottom = viewer.CHART_H - viewer.BOTTOM
    drawn = viewer._line_marks(players, [bottom] * 6)
    ys = sorted(float(re.search(r"translate\([\d.]+ ([\d.]+)\)", g).group(1))  # type: ignore[union-attr]
                for g in drawn)
    assert len(ys) == 6 and all(b - a >= 14 for a, b in zip(ys, ys[1:], strict=False))
    assert ys[-1] <= bottom + 6 and ys[0] >= 0
