"""The SVG picture of a Manhattan position (replay.games.manhattan.drawing): a pure function of
the state that shows every lot, every building with its owner and height, the tallest, the
last build, the scores of the move, a failure and notes."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from replay.core.colours import player_colour, seat_marks
from replay.core.events import Event, Score
from replay.core.family import GameConfig, Player
from replay.core.playback import Failure
from replay.core.rng import SeededStream
from replay.games.manhattan import MANHATTAN, Build, Choose, ManhattanState
from replay.games.manhattan import drawing as md
from replay.games.manhattan import panel as mp
from replay.games.manhattan.events import Built
from replay.games.manhattan.material import CITIES, COLOURS, lot_seen_from
from replay.games.manhattan.scoring import height, owner

NS = "{http://www.w3.org/2000/svg}"
NAMES = ("Ada", "Bo", "Cy", "Di")


def new(n: int = 4, seed: str = "0", names: tuple[str, ...] = NAMES) -> ManhattanState:
    players = tuple(Player(names[i], COLOURS[i]) for i in range(n))
    return MANHATTAN.new_state(GameConfig("manhattan", (), players, {}, seed))


def play(st: ManhattanState, moves: int, seed: str = "p") -> list[Event]:
    """``moves`` random legal moves; the events of the last one."""
    pick = SeededStream(seed, "test-drawing")
    events: list[Event] = []
    for _ in range(moves):
        if st.phase == "over":
            break
        legal = list(st.legal_moves())
        events = st.apply(legal[pick.below(len(legal))])
    return events


def until_scored(st: ManhattanState, seed: str = "s") -> list[Event]:
    """Random moves until a move scores a round (M6): its events."""
    pick = SeededStream(seed, "test-drawing")
    while True:
        legal = list(st.legal_moves())
        events = st.apply(legal[pick.below(len(legal))])
        if any(isinstance(e, Score) for e in events):
            return events


def svg(st: ManhattanState, **kw: Any) -> ET.Element:
    return ET.fromstring(md.board(st, **kw))


def of_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def test_an_empty_board_has_six_cities_of_nine_lots_and_the_compass() -> None:
    st = new(4)
    root = svg(st)
    assert root.tag == f"{NS}svg" and root.get("width") == "100%"
    assert len(of_class(root, "city")) == 6
    assert len(of_class(root, "lot")) == 54
    texts = "".join(root.itertext())
    for name in CITIES:
        assert name in texts  # São Paulo kept as UTF-8
    assert of_class(root, "building") == [] and of_class(root, "tallest") == []
    sides = {e.get("class"): "".join(e.itertext()) for e in of_class(root, "side")}
    assert sides["side side-south"].startswith("S") and "Ada" in sides["side side-south"]
    assert "Bo" in sides["side side-west"] and "Di" in sides["side side-east"]
    assert len(of_class(root, "panel")) == 1 and len(of_class(root, "card")) == 16


def test_lots_lie_with_south_at_the_bottom() -> None:
    """Lot 0 is the north-west lot, lot 8 the south-east (row·3 + column)."""
    x0, y0 = md.lot_origin(0, 0)
    x8, y8 = md.lot_origin(0, 8)
    assert x8 - x0 == y8 - y0 == 2 * md.P
    assert md.lot_origin(1, 0)[0] > x8 and md.lot_origin(3, 0)[1] > y8  # 3 across, 2 down


@pytest.mark.parametrize(("n", "moves"), [(2, 30), (3, 60), (4, 90)])
def test_every_building_is_drawn_with_its_owner_and_height(n: int, moves: int) -> None:
    st = new(n, seed=str(n))
    play(st, moves)
    stacks = {k: s for k, s in st.board.items() if s}
    root = svg(st)
    drawn = of_class(root, "building")
    assert len(drawn) == len(stacks) > 0
    for b in drawn:
        stack = stacks[(int(b.get("data-city", "")), int(b.get("data-lot", "")))]
        assert b.get("data-owner") == owner(stack)
        assert b.get("data-height") == str(height(stack))
        pieces = [e for e in b if e.get("class") == "piece"]
        assert pieces[-1].get("fill") == player_colour(owner(stack))  # the top piece
        assert [pieces[i].get("fill") for i in range(len(pieces))] == [
            player_colour(c) for c, _ in stack][-len(pieces):]
        label = [e for e in b if e.get("class") == "height"]
        assert [e.text for e in label] == [str(height(stack))]


def test_black_storeys_have_a_light_outline() -> None:
    st = new(4)
    st.board[(1, 4)] = [("black", 2)]
    piece = next(e for e in of_class(svg(st), "piece"))
    assert piece.get("fill") == player_colour("black")
    stroke = piece.get("stroke", "#000000")
    assert int(stroke[1:3], 16) > 0x99  # light on dark


def test_a_very_tall_building_stays_in_its_lot() -> None:
    st = new(4)
    st.board[(4, 4)] = [("red", 4), ("blue", 4)] * 5  # 40 storeys
    st.board[(4, 0)] = [("green", 1)]
    root = svg(st)
    lx, ly = md.lot_origin(4, 4)
    tall = next(b for b in of_class(root, "building") if b.get("data-lot") == "4")
    assert tall.get("data-height") == "40"
    rects = [e for e in tall if e.tag == f"{NS}rect"]
    assert of_class(tall, "cut")  # drawn cut, the number tells the height
    for r in rects:
        x, y = float(r.get("x", "")), float(r.get("y", ""))
        assert lx < x and x + float(r.get("width", "")) + md.DX < lx + md.P
        assert ly + md.DY + 12 < y and y + float(r.get("height", "")) < ly + md.P
    label = next(e for e in tall if e.get("class") == "height")
    assert float(label.get("y", "")) - 12 > ly


def test_the_last_build_is_outlined_and_a_take_over_flagged() -> None:
    st = new(4)
    events = play(st, 12)
    built = [e for e in events if isinstance(e, Built)]
    assert built, "move 12 of a 4-player game is a build"
    root = svg(st, events=events)
    last = of_class(root, "last")
    x, y = md.lot_origin(CITIES.index(built[0].city), built[0].lot)
    assert len(last) == 1 and last[0].get("stroke") == mp.LAST
    assert (float(last[0].get("x", "")), float(last[0].get("y", ""))) == (x + 1.5, y + 1.5)
    assert of_class(svg(st), "last") == []  # no events, no outline
    st.board[(2, 0)] = [("green", 1), ("black", 2)]
    took = [Built(1, "black", 0, "Sydney", 0, 2, 3, "green")]
    flag = of_class(svg(st, events=took), "takeover")
    assert len(flag) == 1 and "from green" in "".join(flag[0].itertext())
    same = [Built(1, "black", 0, "Sydney", 0, 2, 3, "black")]
    assert of_class(svg(st, events=same), "takeover") == []


def test_the_tallest_building_is_starred_and_a_tie_is_marked_as_such() -> None:
    st = new(4)
    st.board[(0, 0)] = [("blue", 3), ("red", 4)]
    st.board[(1, 1)] = [("green", 4)]
    marks = of_class(svg(st), "tallest")
    assert len(marks) == 1 and "tie" not in (marks[0].get("class") or "")
    assert len([e for e in marks[0] if e.tag == f"{NS}use"]) == 1
    st.board[(5, 8)] = [("black", 4), ("black", 3)]
    marks = of_class(svg(st), "tallest")
    assert len(marks) == 1 and marks[0].get("class") == "tallest tie"
    assert len([e for e in marks[0] if e.tag == f"{NS}use"]) == 2
    assert "nobody scores" in "".join(marks[0].itertext())


def test_a_round_scoring_links_each_score_to_its_cells_and_badge() -> None:
    st = new(4, seed="5")
    events = until_scored(st)
    scores = {i: e for i, e in enumerate(events) if isinstance(e, Score)}
    root = svg(st, events=events)
    layers = {int(g.get("data-ev", "")): g for g in of_class(root, "hl")}
    assert set(layers) == set(scores)
    for i, ev in scores.items():
        assert layers[i].get("class") == f"hl hl-{ev.phase}"
        assert len([e for e in layers[i] if e.tag == f"{NS}rect"]) >= len(ev.cells)
    popups = {int(g.get("data-ev", "")): g for g in of_class(root, "popup")}
    for i, ev in scores.items():
        if ev.feature == "building":  # an outlined chip: the buildings owned, not "+N"
            assert popups[i].get("class") == "popup owned"
            text = [e.text for e in popups[i] if e.tag == f"{NS}text"]
            assert text == [str(len(ev.cells))] and len(ev.cells) == ev.points
        else:  # the scorer's mark with the points, as on their pieces (issue 35 item 14)
            mark = seat_marks(p.name for p in st.config.players)[ev.winners[0]] \
                if ev.winners else ""
            assert "".join(popups[i].itertext()) == (f"{mark} +{ev.points}" if ev.winners
                                                     else "tie")
    winner = next(i for i, ev in scores.items() if ev.winners)
    badge = next(g for g in of_class(root, "popup") if g.get("data-ev") == str(winner))
    assert badge.get("data-seat") == str(scores[winner].winners[0])
    assert "This move scored:" in "".join(of_class(root, "panel")[0].itertext())


def test_a_two_player_score_goes_to_the_scoring_colour() -> None:
    st = new(2, seed="9")
    events = until_scored(st)
    root = svg(st, events=events)
    for i, ev in enumerate(events):
        if isinstance(ev, Score) and ev.feature == "building":
            colour = owner(st.board[(ev.cells[0][0], ev.cells[0][1])])
            hl = next(g for g in of_class(root, "hl") if g.get("data-ev") == str(i))
            assert hl.get("fill") == player_colour(colour)


def test_a_failure_is_drawn_with_its_rule_and_escaped_text() -> None:
    hostile = '<script>&"'
    st = new(3, names=("Ada", hostile, "Cy"))
    play(st, 3)  # the choices: now Ada builds
    assert st.phase == "build" and st.current_player == 0
    card = st.hands[0][0]
    message = 'a <b>bad</b> & "odd" build'
    failure = Failure(3, "Ada", "M5", message, Build(card, "Cairo", 4))
    text = md.board(st, failure=failure, notes=[f"note about {hostile}"])
    assert "<script>" not in text and "<b>" not in text
    assert "&lt;script&gt;&amp;&quot;" in text
    root = ET.fromstring(text)
    banner = of_class(root, "banner")
    assert len(banner) == 1
    words = " ".join(" ".join(banner[0].itertext()).split())
    assert failure.text() in words and "M5" in words and f"note about {hostile}" in words
    fills = [r.get("fill") for r in banner[0] if r.tag == f"{NS}rect"]
    assert fills == [mp.FAIL, mp.NOTE]
    failed = of_class(root, "failed")
    assert len(failed) == 1
    rect = next(e for e in failed[0] if e.tag == f"{NS}rect")
    x, y = md.lot_origin(CITIES.index("Cairo"), st.lot_of(0, card))
    assert (float(rect.get("x", "")), float(rect.get("y", ""))) == (x + 2, y + 2)
    assert rect.get("stroke") == mp.FAIL
    assert hostile in "".join(root.itertext())  # the name, unescaped by the parser


def test_a_failure_without_a_lot_has_only_its_banner() -> None:
    st = new(4)
    for move in (Choose((("blue", 1),)), Build(0, "Atlantis", 1), Build(12, "Cairo", 1)):
        root = svg(st, failure=Failure(0, "Ada", "M4", "no", move))
        assert of_class(root, "failed") == [] and len(of_class(root, "banner")) == 1


def test_the_same_state_gives_the_same_bytes() -> None:
    st = new(4, seed="3")
    events = until_scored(st)
    first = md.board(st, events=events, size=900)
    assert md.board(st, events=events, size=900) == first
    assert md.board(st.copy(), events=list(events), size=900) == first
    assert MANHATTAN.draw(st, events=events, size=900) == first
    assert st.draw(events=events, size=900) == first
    other = new(4, seed="3")
    assert md.board(other) != md.board(st)


def test_the_prefix_starts_every_id_and_the_size_sets_the_width() -> None:
    st = new(4)
    play(st, 20)
    for prefix in ("cr-", "m7-"):
        text = md.board(st, prefix=prefix, size=640)
        root = ET.fromstring(text)
        ids = [e.get("id", "") for e in root.iter() if e.get("id")]
        assert ids and all(i.startswith(prefix) for i in ids)
        assert len(ids) == len(set(ids))
        refs = re.findall(r'href="#([^"]+)"', text)
        assert refs and set(refs) <= set(ids)
        assert root.get("width") == "640"
        w, h = (float(v) for v in (root.get("viewBox") or "").split()[2:])
        assert root.get("height") == str(round(640 * h / w))


def test_the_panel_shows_the_round_the_turn_the_pieces_and_the_hands() -> None:
    st = new(2, seed="4")
    play(st, 2)  # both choose: 4 pieces of each of their colours (M7)
    root = svg(st)
    panel = of_class(root, "panel")[0]
    words = " ".join(panel.itertext())
    assert "Round 1 of 6" in words and "building" in words and "Ada to play" in words
    assert f"draw pile {len(st.pile)}" in words
    assert len(of_class(panel, "in-play")) == 16
    cards = of_class(panel, "card")
    assert len(cards) == sum(len(h) for h in st.hands) == 8
    for seat in range(2):
        for j, card in enumerate(st.hands[seat]):
            lot = lot_seen_from(card, st.sides[seat])
            cells = [r for r in cards[4 * seat + j] if r.tag == f"{NS}rect"][1:]
            assert [c.get("fill") for c in cells].index(mp.INK) == lot


def test_the_last_round_is_tinted_as_the_others_and_the_legend_names_every_mark() -> None:
    """The final scoring (phase "final") asks to be tinted as a round (``data-round``); the
    legend names the start-player marker and the chip of the buildings owned."""
    st = new(4, seed="6")
    events = play(st, 500)
    assert st.phase == "over"
    root = svg(st, events=events)
    layers = of_class(root, "hl")
    assert layers and all(g.get("class") == "hl hl-final" and g.get("data-round") == "last"
                          for g in layers)
    legend = " ".join(" ".join(of_class(root, "legend")[0].itertext()).split())
    for words in ("start player", "buildings owned, 1 point each", "points", "tallest",
                  "just built", "to play"):
        assert words in legend
    assert len(of_class(root, "owned")) == 4 + 1  # a chip per colour, one in the legend
    assert "start player this round" in "".join(of_class(root, "start")[0].itertext())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_panel_text_is_large_and_its_height_fixed(n: int) -> None:
    """Every text of the panel is at least ``SMALL`` units (about 9 px on a 390 px phone) and
    the picture keeps its height from move to move (it does not jump while stepping)."""
    st = new(n, seed=str(n))
    heights = set()
    for _ in range(40):
        events = play(st, 1)
        root = svg(st, events=events)
        heights.add(root.get("viewBox", ""))
        panel = of_class(root, "panel")[0]
        sizes = [float(t.get("font-size", "0")) for t in panel.iter(f"{NS}text")]
        assert sizes and min(sizes) >= mp.SMALL >= 21
    assert len(heights) == 1
    width, height = (float(v) for v in heights.pop().split()[2:])
    assert mp.SMALL * 390 / width >= 9.3 and height / width < 1.5
