"""Manhattan engine core (issue 14): every rule M1-M10 by name, the rulebook example (M9),
random games of 2, 3 and 4 players with invariants, and illegal moves refused atomically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st_

from replay.core.errors import IllegalMove
from replay.core.events import GameEnd, Score, explanations, person
from replay.core.family import GameConfig, Player
from replay.core.record import parse
from replay.core.rng import SeededStream
from replay.games.manhattan import MANHATTAN, Build, Choose, Discard, ManhattanState
from replay.games.manhattan.events import CardDiscarded, Reshuffle
from replay.games.manhattan.material import (
    CITIES,
    COLOURS,
    DEFAULT_MATERIAL,
    lot_name,
    lot_seen_from,
)
from replay.games.manhattan.scoring import points_only, score_round
from replay.generate import generate_log

NAMES = ("Ada", "Bo", "Cy", "Di")


def new(n: int = 4, seed: str = "0", **options: Any) -> ManhattanState:
    players = tuple(Player(NAMES[i], COLOURS[i]) for i in range(n))
    return MANHATTAN.new_state(GameConfig("manhattan", (), players, options, seed))


def snapshot(st: ManhattanState) -> Any:
    return (st.state_hash, st.hands, st.pile, st.played, st.board, st.supply, st.chosen,
            st.scores, st.colour_scores, st.phase, st.turn, st.round, st.moves_played)


def choose_ones(st: ManhattanState) -> None:
    """Every player takes the first legal choice: 1-storey pieces while they last (M4)."""
    while st.phase == "choose":
        seat = st.current_player
        assert seat is not None
        st.apply(next(iter(st.legal_moves())))


def refused(st: ManhattanState, move: Any, rule: str) -> IllegalMove:
    before = repr(snapshot(st))
    with pytest.raises(IllegalMove) as info:
        st.apply(move)
    assert info.value.rule == rule, info.value
    assert repr(snapshot(st)) == before
    assert not st.is_legal(move)
    return info.value


def test_M1_material() -> None:
    m = DEFAULT_MATERIAL
    assert len(CITIES) == 6 and len(COLOURS) == 4
    assert m.cards == 45 and m.cards_per_lot == (5,) * 9
    assert m.pieces_per_colour == 24 and set(m.pieces) == {1, 2, 3, 4}
    st = new(4)
    assert all(sum(st.supply[c].values()) == 24 for c in st.colours)
    assert len(st.pile) + sum(len(h) for h in st.hands) == 45
    assert lot_name(0) == "the north-west lot" and lot_name(4) == "the centre lot"


def test_M2_a_card_is_read_from_the_seat_side() -> None:
    assert [lot_seen_from(0, s) for s in ("south", "west", "north", "east")] == [0, 2, 8, 6]
    assert [lot_seen_from(1, s) for s in ("south", "west", "north", "east")] == [1, 5, 7, 3]
    for side in ("south", "west", "north", "east"):
        assert sorted(lot_seen_from(c, side) for c in range(9)) == list(range(9))
        assert lot_seen_from(4, side) == 4
    st = new(4)
    choose_ones(st)
    card = st.hands[0][0]
    st.apply(Build(card, "Cairo", 1))
    assert st.board[(5, card)] == [("blue", 1)]  # south reads the card as printed
    card = st.hands[1][0]
    st.apply(Build(card, "Cairo", 1))
    assert st.board[(5, lot_seen_from(card, "west"))][-1][0] == "black"


def test_M2_sides_from_options() -> None:
    st = new(2, sides=["west", "east"])
    assert st.sides == ("west", "east")
    with pytest.raises(IllegalMove) as info:
        new(2, sides=["west", "west"])
    assert info.value.rule == "M2"
    with pytest.raises(IllegalMove, match="'up' is not a side of the board") as info:
        new(2, sides=["west", "up"])  # a config made by hand: a log's header is checked first
    assert info.value.rule == "M2"


def test_M1_a_colour_manhattan_has_not_is_refused_at_set_up() -> None:
    players = (Player("Ada", "blue"), Player("Bo", "yellow"), Player("Cy", "red"))
    with pytest.raises(IllegalMove, match="yellow is not a colour of Manhattan") as info:
        MANHATTAN.new_state(GameConfig("manhattan", (), players, {}, "0"))
    assert info.value.rule == "M1"


def test_M3_deck_test_vectors_and_reshuffle() -> None:
    """docs/determinism.md's vectors."""
    for seed, first in (("0", "7 8 6 6 3 7 2 0 7 8 5 3 8 3 7 1"),
                        ("1", "0 1 2 6 8 4 8 0 7 1 7 4 7 1 4 6"),
                        ("42", "0 3 2 5 3 7 3 1 7 1 6 5 2 2 4 7")):
        st = new(4, seed)
        dealt = [c for hand in st.hands for c in hand]
        assert dealt == [int(c) for c in first.split()]
    played = list(range(9))
    SeededStream("0", "manhattan-deck/1").shuffle(played)
    assert played == [7, 8, 6, 1, 2, 0, 4, 5, 3]
    assert new(4, "0").hands[0] == [7, 8, 6, 6]
    assert new(4, "1").hands[0] == [0, 1, 2, 6]
    assert new(4, "0").hands == new(4, "0").hands
    st = new(4, "5")
    reshuffles = play_out(st, "M3")
    assert reshuffles >= 2  # 96 cards played from a pile of 29 + reshuffles
    assert all(len(h) == 4 for h in st.hands)


def test_M4_round_choice_then_building() -> None:
    st = new(3)
    assert st.phase == "choose" and st.current_player == 0
    refused(st, Build(st.hands[0][0], "Sydney", 1), "M4")
    refused(st, Choose((("blue", 1),) * 5), "M4")  # too many (3 players take 4)
    refused(st, Choose((("blue", 1),) * 3), "M4")  # too few
    refused(st, Choose((("blue", 4),) * 4), "M4")  # only 2 four-storey pieces
    st.apply(Choose((("blue", 1), ("blue", 1), ("blue", 2), ("blue", 4))))
    assert st.supply["blue"] == {1: 10, 2: 5, 3: 4, 4: 1}
    assert st.chosen["blue"] == {1: 2, 2: 1, 3: 0, 4: 1}
    choose_ones(st)
    assert st.phase == "build" and st.current_player == 0
    refused(st, Build(st.hands[0][0], "Sydney", 3), "M4")  # no 3-storey piece chosen
    refused(st, Choose((("blue", 1),) * 4), "M4")


def test_M5_takeover_needs_as_many_storeys() -> None:
    st = new(4)
    st.board[(1, 4)] = [("black", 2), ("blue", 1)]  # blue owns it with 1 of 3 storeys
    choose_ones(st)
    st.hands[0] = [4, 4, 4, 4]
    st.chosen["blue"] = {1: 1, 2: 1, 3: 0, 4: 0}
    st.apply(Build(4, "Frankfurt", 1))  # own building: no limit
    assert st.board[(1, 4)][-1] == ("blue", 1)
    st.hands[1] = [4, 4, 4, 4]  # west: card 4 is still the centre lot
    st.chosen["black"] = {1: 6, 2: 0, 3: 0, 4: 0}
    # black has 2, blue 2: a 1-storey piece gives black 3 >= 2: take-over allowed
    st.apply(Build(4, "Frankfurt", 1))
    assert st.board[(1, 4)][-1] == ("black", 1)
    st.hands[2] = [4, 4, 4, 4]
    st.chosen["red"] = {1: 6, 2: 0, 3: 0, 4: 0}
    err = refused(st, Build(4, "Frankfurt", 1), "M5")  # red 1 < black 3
    assert "the centre lot of Frankfurt" in err.message and "fewer than 3" in err.message
    st.apply(Build(4, "Sydney", 1))  # an empty lot is always fine


def test_M5_discard_only_when_no_build_is_legal() -> None:
    """docs/rules.md's decision on M5: with every lot its cards mark held by taller
    buildings of others in all six cities, the player discards a card, draws and plays
    again; the discard is an event."""
    st = new(4)
    choose_ones(st)  # blue (south) holds 1-storey pieces only
    hand = sorted(set(st.hands[0]))
    for card in hand:
        for city in range(6):
            st.board[(city, card)] = [("black", 2)]  # south reads cards as printed
    assert not list(st.builds(0)) and list(st.legal_moves()) == [Discard(c) for c in hand]
    refused(st, Build(hand[0], "Cairo", 1), "M5")
    events = st.apply(Discard(hand[0]))
    assert isinstance(events[0], CardDiscarded) and events[0].card == hand[0]
    assert st.current_player == 0 and st.turn == 0 and len(st.hands[0]) == 4
    assert st.played[-1] == hand[0]


def test_M6_scoring_after_every_round() -> None:
    st = new(4)
    for _ in range(16 + 4):  # choices and the first builds
        st.apply(next(iter(st.legal_moves())))
    assert st.round == 1 and st.scores == [0, 0, 0, 0]
    events: list[Any] = []
    while st.round == 1:
        events += st.apply(next(iter(st.legal_moves())))
    scores = [e for e in events if isinstance(e, Score)]
    assert scores and {e.rule for e in scores} <= {"M6", "M10"}
    assert sum(e.points * len(e.winners) for e in scores) == sum(st.scores) > 0
    buildings = [e for e in scores if e.feature == "building"]
    assert sum(e.points for e in buildings) == len(st.board)
    assert st.first == 1 and st.phase == "choose"  # the marker passes left


def test_M7_two_players_play_two_colours() -> None:
    st = new(2)
    assert st.colours_of == (("blue", "red"), ("black", "green"))
    assert st.rounds == 6
    refused(st, Choose((("blue", 1),) * 4), "M4")  # red pieces missing
    refused(st, Choose((("black", 1),) * 4 + (("red", 1),) * 4), "M2")
    st.apply(Choose((("blue", 1),) * 4 + (("red", 2),) * 4))
    choose_ones(st)
    card = st.hands[0][0]
    refused(st, Build(card, "Cairo", 1), "M7")  # which colour?
    refused(st, Build(card, "Cairo", 1, "black"), "M2")
    refused(st, Build(card, "Cairo", 1, "red"), "M4")  # red took 2-storey pieces
    st.apply(Build(card, "Cairo", 2, "red"))
    assert st.current_player == 1
    st.board = {(0, 0): [("blue", 1)], (0, 1): [("red", 1)], (0, 2): [("red", 1)]}
    events = st._score("play")
    assert st.colour_scores["red"] == 2 + 2 and st.colour_scores["blue"] == 1
    assert st.scores[0] == 5  # the seat sums its colours
    assert any(e.feature == "tallest building" and e.rule == "M10" for e in events)


def test_M8_end_and_winners() -> None:
    st = new(3, "8")
    play_out(st, "M8")
    assert st.finished and st.current_player is None and st.round == 6
    assert st.winners() == [p for p, s in enumerate(st.scores) if s == max(st.scores)]
    assert list(st.legal_moves()) == []
    refused(st, Choose(()), "M8")
    assert st.end_now() == []


def test_M8_end_now_scores_a_started_round() -> None:
    st = new(4)
    for _ in range(18):
        st.apply(next(iter(st.legal_moves())))
    events = st.end_now()
    assert isinstance(events[-1], GameEnd) and st.finished
    assert any(isinstance(e, Score) and e.phase == "final" for e in events)


M9_FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "manhattan" / \
    "m9-round-scoring.json"


def m9_fixture() -> dict[str, Any]:
    """The rulebook example (M9) rebuilt from its caption: blue's tallest building in
    Frankfurt, black's majorities in Frankfurt and Sydney, a single building each for red in
    Hong Kong and green in São Paulo, ties in Manhattan and Cairo
    (``fixtures/manhattan/m9-round-scoring.json``, with the caption's totals)."""
    data: dict[str, Any] = json.loads(M9_FIXTURE.read_text(encoding="utf-8"))
    return data


def m9_board() -> dict[tuple[int, int], list[tuple[str, int]]]:
    """The M9 position as a board: (city index, lot) -> pieces from the ground up."""
    return {(CITIES.index(b["city"]), b["lot"]): [(c, s) for c, s in b["pieces"]]
            for b in m9_fixture()["buildings"]}


def test_M9_rulebook_example() -> None:
    colours = ("blue", "black", "red", "green")
    events, points = score_round(m9_board(), colours, {c: i for i, c in enumerate(colours)},
                                 "play")
    assert points == m9_fixture()["expected_points"] == {"blue": 8, "black": 9, "red": 6,
                                                          "green": 4}
    tallest = events[0]
    assert tallest.feature == "tallest building" and tallest.winners == (0,)
    assert "Frankfurt" in tallest.detail
    majority = {CITIES[e.feature_id]: e.winners for e in events if e.feature == "city majority"
                if e.feature_id is not None}
    assert majority == {"Manhattan": (), "Frankfurt": (1,), "Sydney": (1,),
                        "Hong Kong": (2,), "São Paulo": (3,), "Cairo": ()}


def test_M10_tie_score_rules_give_nobody_the_points() -> None:
    colours = ("blue", "black")
    seat_of = {"blue": 0, "black": 1}
    board = {(0, 0): [("blue", 2)], (0, 1): [("black", 2)]}
    events, points = score_round(board, colours, seat_of, "play")
    ties = [e for e in events if e.rule == "M10"]
    assert [e.feature for e in ties] == ["tallest building", "city majority"]
    assert all(e.winners == () for e in ties)
    assert points == {"blue": 1, "black": 1}  # only the buildings score
    assert "nobody scores" in ties[0].detail


pieces_ = st_.tuples(st_.sampled_from(COLOURS), st_.integers(1, 4))
boards = st_.dictionaries(st_.tuples(st_.integers(0, 5), st_.integers(0, 8)),
                          st_.lists(pieces_, min_size=0, max_size=4), max_size=30)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(board=boards, players=st_.integers(2, 4))
def test_M6_M10_the_verifier_scores_as_the_explained_scoring(board: Any, players: int) -> None:
    """``points_only`` (the replay's) against ``score_round``'s events and points, on any
    board: small boards of few colours reach tied tallest buildings and tied majorities."""
    colours = COLOURS[:players] if players > 2 else COLOURS
    board = {k: [p for p in v if p[0] in colours] for k, v in board.items()}
    seat_of = {c: i % players for i, c in enumerate(colours)}
    events, points = score_round(board, colours, seat_of, "play")
    assert points_only(board, colours) == points
    assert score_round(board, colours, seat_of, "play", explain=False)[1] == points
    assert sum(e.points * len(e.winners) for e in events) == sum(points.values())
    for e in events:
        if e.rule == "M10":
            event(f"tie: {e.feature}")
    if not any(board.values()):
        event("an empty board")


def play_out(st: ManhattanState, label: str, pick_seed: str = "p") -> int:
    """Play ``st`` to the end by random legal moves, checking the invariants after each;
    return the number of reshuffles seen."""
    pick = SeededStream(pick_seed + label, "test")
    reshuffles = 0
    last = list(st.scores)
    while not st.finished:
        moves = list(st.legal_moves())
        assert moves
        move = moves[pick.below(len(moves))]
        events = st.apply(move)
        reshuffles += sum(isinstance(e, Reshuffle) for e in events)
        check_invariants(st, last)
        last = list(st.scores)
    return reshuffles


def check_invariants(st: ManhattanState, last: list[int]) -> None:
    for colour in st.colours:
        on_board = sum(1 for stack in st.board.values() for c, _ in stack if c == colour)
        assert sum(st.supply[colour].values()) + sum(st.chosen[colour].values()) \
            + on_board == 24
    assert len(st.pile) + sum(len(h) for h in st.hands) + len(st.played) == 45
    for stack in st.board.values():
        owner = stack[-1][0]  # the owner is the top piece's colour
        storeys: dict[str, int] = {}
        for c, s in stack:
            storeys[c] = storeys.get(c, 0) + s
        assert storeys[owner] == max(storeys.values())  # M5 keeps the owner strongest
    assert all(a >= b for a, b in zip(st.scores, last, strict=True))
    assert st.scores == [sum(st.colour_scores[c] for c in cs) for cs in st.colours_of]
    assert st.hash == st.hash_from_scratch()  # the incremental hash follows the state (L4)


@pytest.mark.parametrize("players,seed", [(2, "a"), (3, "b"), (4, "c"), (4, "d")])
def test_random_games_M4_M5_M7_M8(players: int, seed: str) -> None:
    st = new(players, seed)
    copy = st.copy()
    play_out(st, seed)
    assert st.finished and st.round == st.rounds
    assert all(not any(st.supply[c].values()) for c in st.colours)
    assert copy.moves_played == 0 and not copy.board  # the copy was left alone
    again = new(players, seed)
    play_out(again, seed)
    assert again.state_hash == st.state_hash and again.scores == st.scores


def test_illegal_moves_are_refused_atomically() -> None:
    st = new(4)
    choose_ones(st)
    hand = st.hands[0]
    missing = next(c for c in range(9) if c not in hand)
    err = refused(st, Build(missing, "Cairo", 1), "M3")
    assert f"no card {missing}" in err.message
    refused(st, Build(9, "Cairo", 1), "M1")  # no such lot
    refused(st, Build(hand[0], "Paris", 1), "M1")  # no such city
    refused(st, Build(hand[0], "Cairo", 2), "M4")  # piece not chosen
    refused(st, Build(hand[0], "Cairo", 1, "red"), "M2")  # another player's colour
    refused(st, Discard(hand[0]), "M5")  # may build, so may not discard
    refused(st, "build!", "M4")
    st.board[(5, hand[0])] = [("red", 3)]
    refused(st, Build(hand[0], "Cairo", 1), "M5")  # take-over with fewer storeys
    assert st.is_legal(Build(hand[0], "Manhattan", 1))


def test_hash_follows_the_state() -> None:
    a, b = new(4, "h"), new(4, "h")
    assert a.state_hash == b.state_hash
    move = next(iter(a.legal_moves()))
    a.apply(move)
    assert a.state_hash != b.state_hash
    b.apply(move)
    assert a.state_hash == b.state_hash
    c = a.copy()
    c.apply(next(iter(c.legal_moves())))
    assert c.state_hash != a.state_hash


def test_manhattan_is_registered() -> None:
    from replay.core.family import families, family
    assert family("manhattan") is MANHATTAN and MANHATTAN in families()


def test_L4_hash_tables_give_the_items_inside_and_beyond_their_range() -> None:
    """``hashes``' flat tables and their fallbacks beyond range (a building of 40 pieces, a
    supply of 70, a score of 600, ...) give each item as ``hashing.item`` does, signed."""
    from replay.core.hashing import item
    from replay.games.manhattan import hashes

    def same(value: int, *parts: object) -> None:
        assert hashes.unsigned(value) == item(*parts), parts

    for level in (0, 31, 32, 40):
        for _ in range(2):  # the table filled, then read
            same(hashes.piece(2, 4, level, 1, "black", 3), "m-piece", 2, 4, level, "black", 3)
    for count in (0, 63, 64, 70):
        same(hashes.supply(3, "green", 2, count), "m-supply", "green", 2, count)
    for points in (0, 511, 512, 600):
        same(hashes.score(0, "blue", points), "m-score", "blue", points)
    for phase, rnd, first, turn in (("build", 3, 2, 17), ("over", 6, 1, 24),
                                    ("build", 9, 1, 0), ("choose", 1, 0, 40)):
        same(hashes.turn(phase, rnd, first, turn), "m-turn", phase, rnd, first, turn)
    for seat, card, copy in ((3, 8, 31), (3, 8, 32), (5, 2, 0)):
        same(hashes.hand(seat, card, copy), "m-hand", seat, card, copy)
    for index in (0, 255, 256, 300):
        same(hashes.played(index, 7), "m-played", index, 7)
    for k in (0, 63, 64):
        same(hashes.reshuffles(k), "m-reshuffles", k)
    assert hashes.signed((1 << 64) - 1) == -1 and hashes.unsigned(-1) == (1 << 64) - 1


def test_M7_a_seat_of_two_colours_is_named_by_both() -> None:
    """In a two-player game each seat plays two colours: its words name both ("Ben (black
    and green)"), in the viewer's explanations as in the API's."""
    record = parse(generate_log("manhattan", 2, 1))
    assert [p.also for p in record.players] == [("red",), ("green",)]
    assert person(record.players, 1) == "Ben (black and green)"
    state = record.new_state()
    chose = state.apply(record.moves[0])
    assert explanations(chose, state.players)[0][1].startswith("Ada (blue and red) takes ")
    three = parse(generate_log("manhattan", 3, 1))
    assert person(three.players, 1) == "Ben (black)"  # one colour a seat: named once


def test_M10_ties_are_listed_in_plain_english() -> None:
    """Two colours tie "blue and black"; three "blue, black and green" (never "a and b and
    c")."""
    colours = ("blue", "black", "green")
    seat_of = {"blue": 0, "black": 1, "green": 1}
    board = {(0, 0): [("blue", 1)], (0, 1): [("black", 1)], (0, 2): [("green", 1)],
             (1, 0): [("blue", 2)], (1, 1): [("black", 2)]}
    events, _ = score_round(board, colours, seat_of, "play")
    majority = {e.feature_id: e.detail for e in events if e.feature == "city majority"}
    assert majority[0].endswith("blue, black and green tie for most: nobody scores")
    assert majority[1].endswith("blue and black tie for most: nobody scores")
    assert " and ".join(colours) not in " ".join(majority.values())
