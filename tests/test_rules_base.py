"""Rule-by-rule tests of the common rules (G) and the base game (B). Names carry the rule ids."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from replay.core.errors import IllegalMove
from replay.core.family import GameConfig, Player, family
from replay.core.verify import verify
from replay.games.carcassonne import Move
from replay.generate import config_for, play_random
from replay.tiles.moves import FigureChoice
from replay.tiles.sets import builtin_tileset, parse_tileset
from replay.tiles.state import build_pile
from replay.tiles.tileset import SIDE_DELTA

from .support import carcassonne_of as _state
from .support import mv, run, score_events, scores_of, table_log
from .support import new_carcassonne as _new

AB = ["Ada", "Ben"]
DEFAULTS = family("base").option_values({}, ())  # every option of the base game at its default


def _error(log: dict[str, Any]) -> IllegalMove:
    r = run(log)
    assert r.error is not None, "expected an illegal move"
    return r.error


# ---------------------------------------------------------------- G1 board


def test_G1_start_tile_at_origin_in_canonical_orientation() -> None:
    game = _new(config_for("base", 2, 1))
    start = game.board[(0, 0)]
    assert start.tile.id == "D" and start.rot == 0 and start.player is None
    assert start.tile.rotations[0].edges == "CRFR"  # city north, road west-east


def test_G1_y_grows_south_and_rotation_is_clockwise() -> None:
    d = builtin_tileset("base-1e").by_id()["D"]
    assert [r.edges for r in d.rotations] == ["CRFR", "RCRF", "FRCR", "RFRC"]
    assert SIDE_DELTA[0] == (0, -1)  # north neighbour has y - 1
    # a city cap placed north of the start tile, turned to face south, closes the start's city
    r = run(table_log(AB, [mv("E", 0, -1, 180, at="S")]))
    assert r.error is None and r.state.scores == [2, 0]


# ---------------------------------------------------------------- G2 deck


def test_G2_pile_holds_the_set_minus_the_start_tile() -> None:
    ts = builtin_tileset("base-1e")
    pile = build_pile(ts, "7")
    assert len(pile) == 71
    want = Counter({t.id: t.count for t in ts.tiles})
    want["D"] -= 1
    assert Counter(t.id for t in pile) == want


def test_G2_same_seed_same_pile_and_int_seed_equals_its_text() -> None:
    ts = builtin_tileset("base-1e")
    a = [t.id for t in build_pile(ts, "123")]
    assert a == [t.id for t in build_pile(ts, "123")]
    assert a != [t.id for t in build_pile(ts, "124")]
    assert _state(run({**_seeded_header(123), "moves": []})).current == \
        _state(run({**_seeded_header("123"), "moves": []})).current


@pytest.mark.parametrize("seed,first", [
    ("0", "C D N R L B E U E U"),
    ("1", "V S H E E U S B L F"),
    ("42", "N W V C V L M E J L"),
    ("tournament-2026-r1", "U D N V U T E W R A"),
])
def test_G2_documented_test_vectors(seed: str, first: str) -> None:
    """docs/determinism.md lists these; any other implementation must reproduce them."""
    pile = build_pile(builtin_tileset("base-1e"), seed)
    assert " ".join(t.id for t in pile[:10]) == first


def _seeded_header(seed: int | str) -> dict[str, Any]:
    return {"format": "carcassonne-replay/log", "version": 1, "game": "base",
            "players": [{"name": "Ada"}, {"name": "Ben"}], "seed": seed}


# ---------------------------------------------------------------- G3 turn order


def test_G3_players_alternate_in_header_order() -> None:
    game, _ = play_random(config_for("base", 3, 5))
    assert game.moves_played >= 60
    r = run(_generated(3, 5))
    placers = [ev[0].to_json()["player"] for ev in r.events]
    assert placers[:6] == [0, 1, 2, 0, 1, 2]
    assert all(p == i % 3 for i, p in enumerate(placers))


def _generated(players: int, seed: int) -> dict[str, Any]:
    from replay.generate import generate_log
    return generate_log("base", players, seed)


# ---------------------------------------------------------------- G4 placement


def test_G4_occupied_cell_is_illegal() -> None:
    err = _error(table_log(AB, [mv("U", 0, 0)]))
    assert err.rule == "G4" and err.move == 0 and "already holds" in err.message


def test_G4_detached_or_diagonal_cell_is_illegal() -> None:
    assert _error(table_log(AB, [mv("U", 5, 5)])).rule == "G4"
    err = _error(table_log(AB, [mv("U", 1, 0), mv("B", 2, 1)]))
    assert err.rule == "G4" and err.move == 1 and "shares no side" in err.message


def test_G4_sides_must_match() -> None:
    # U turned 90 has a road on its north side; the start tile's south side is field
    err = _error(table_log(AB, [mv("U", 0, 1, 90)]))
    assert err.rule == "G4" and "road" in err.message and "field" in err.message


def test_G4_legal_placements_equal_a_brute_force_search() -> None:
    game, _ = play_random(config_for("base", 2, 11))
    # replay half the game, then compare the engine's list with a naive scan
    log = _generated(2, 11)
    r = run({**log, "moves": log["moves"][:30]})
    g = _state(r)
    assert g.current is not None
    xs = [c[0] for c in g.board]
    ys = [c[1] for c in g.board]
    naive = []
    for x, y in itertools.product(range(min(xs) - 1, max(xs) + 2),
                                  range(min(ys) - 1, max(ys) + 2)):
        if (x, y) in g.board:
            continue
        for q in range(4):
            edges = g.current.rotations[q].edges
            touching, ok = 0, True
            for s, (dx, dy) in enumerate(SIDE_DELTA):
                nb = g.board.get((x + dx, y + dy))
                if nb is None:
                    continue
                touching += 1
                ok = ok and nb.tile.rotations[nb.rot].edges[(s + 2) % 4] == edges[s]
            if touching and ok:
                naive.append((x, y, 90 * q))
    assert g.legal_placements() == sorted(naive) and naive


def test_G4_illegal_move_leaves_state_untouched() -> None:
    log = _generated(2, 3)
    r = run({**log, "moves": log["moves"][:10]})
    g = _state(r)
    before = (g.hash, list(g.scores), [dict(s) for s in g.supply], len(g.board))
    with pytest.raises(IllegalMove):
        g.apply(Move(500, 500, 0))
    with pytest.raises(IllegalMove):
        x, y, rot = g.legal_placements()[0]
        g.apply(Move(x, y, rot, figure=FigureChoice("follower", "nowhere")))
    assert (g.hash, list(g.scores), [dict(s) for s in g.supply], len(g.board)) == before


# ---------------------------------------------------------------- G5 discard

_TINY: dict[str, Any] = {
    "format": "carcassonne-replay/tileset", "version": 1, "id": "tiny", "name": "tiny",
    "game": "base",
    "tiles": [
        {"id": "S", "count": 1, "start": True, "edges": "RRRR",
         "positions": ["f1", "r1", "f2", "f2", "r2", "f3", "f3", "r3", "f4", "f4", "r4", "f1"],
         "segments": [{"id": "r1", "type": "road"}, {"id": "r2", "type": "road"},
                      {"id": "r3", "type": "road"}, {"id": "r4", "type": "road"},
                      {"id": "f1", "type": "field"}, {"id": "f2", "type": "field"},
                      {"id": "f3", "type": "field"}, {"id": "f4", "type": "field"}]},
        {"id": "C", "count": 2, "edges": "CCCC", "positions": ["c"] * 12,
         "segments": [{"id": "c", "type": "city"}]},
        {"id": "X", "count": 1, "edges": "RRRR",
         "positions": ["f1", "r1", "f2", "f2", "r2", "f3", "f3", "r3", "f4", "f4", "r4", "f1"],
         "segments": [{"id": "r1", "type": "road"}, {"id": "r2", "type": "road"},
                      {"id": "r3", "type": "road"}, {"id": "r4", "type": "road"},
                      {"id": "f1", "type": "field"}, {"id": "f2", "type": "field"},
                      {"id": "f3", "type": "field"}, {"id": "f4", "type": "field"}]},
    ],
}


def _tiny_config(seed: str | None) -> GameConfig:
    return GameConfig("base", (), (Player("Ada", "red"), Player("Ben", "blue")), DEFAULTS,
                      seed, parse_tileset(_TINY, "tiny"))


def test_G5_seeded_game_discards_unplaceable_tiles_by_itself() -> None:
    game = _new(_tiny_config("1"))
    # only X can ever be placed: both cities are discarded, before or after it
    discards = [e.to_json() for e in game.setup_events if e.type == "discard"]
    assert game.current is not None and game.current.id == "X"
    events = game.apply(Move(1, 0, 0))
    discards += [e.to_json() for e in events if e.type == "discard"]
    assert sorted(e["tile"] for e in discards) == ["C", "C"]
    assert all(e["rule"] == "G5" for e in discards)
    assert game.finished and sorted(game.discarded) == ["C", "C"]


def test_G5_table_log_discard_is_checked() -> None:
    game = _new(_tiny_config(None))
    game.apply(Move(tile="C", discard=True))
    assert game.turn == 0  # the same player draws again
    with pytest.raises(IllegalMove) as exc:
        game.apply(Move(tile="X", discard=True))
    assert exc.value.rule == "G5" and "can be placed" in exc.value.message


def test_G5_seeded_logs_never_discard() -> None:
    log = {**_seeded_header(1), "moves": [{"tile": "C", "discard": True}]}
    assert _error(log).rule == "G5"


# ---------------------------------------------------------------- G6 figures


def test_G6_no_follower_on_an_occupied_feature() -> None:
    # Ada's knight in the city north of the start; Ben extends that city and tries a knight
    err = _error(table_log(AB, [mv("R", 0, -1, 180, at="S"), mv("E", -1, -1, 90, at="E")]))
    assert err.rule == "G6" and err.move == 1 and err.player == "Ben"
    assert "already holds" in err.message


def test_G6_farmer_allowed_where_only_a_knight_stands() -> None:
    """Seed 003: "Bleu ne peut placer qu'un paysan, il y a déjà un chevalier dans la ville"."""
    r = run(table_log(AB, [mv("R", 0, -1, 180, at="S"), mv("E", -1, -1, 90, at="W")]))
    assert r.error is None
    fig = [e.to_json() for e in r.events[1] if e.type == "figure"][0]
    assert fig["role"] == "farmer" and fig["player"] == 1


def test_G6_occupation_seen_through_the_new_tile() -> None:
    """A new tile whose two cities join one occupied feature blocks both."""
    game = _new(GameConfig("base", (), (Player("A", "red"), Player("B", "blue")), DEFAULTS,
                           None, builtin_tileset("base-1e")))
    game.apply(Move(0, -1, 180, "R", FigureChoice("follower", "S")))
    game.apply(Move(1, 0, 0, "D", FigureChoice("follower", "N")))
    # N turned 270 joins Ada's city (west) and Ben's city (south): no knight may go there
    options = game.figure_options(game.tiles_by_id["N"], 1, -1, 270)
    assert all(o.location not in ("S", "W", "SL", "WR") for o in options)
    assert {o.location for o in options} == {"NL"}  # only its field remains


def test_G6_no_figure_when_the_supply_is_empty() -> None:
    """B1/G6: seven followers; the eighth placement is refused while none came back."""
    game = _new(config_for("base", 2, 4))
    while game.supply[game.turn]["follower"] > 0 or game.turn != 0:
        assert game.current is not None and not game.finished
        x, y, rot = game.legal_placements()[0]
        figs = game.figure_options(game.current, x, y, rot)
        fields = [f for f in figs if f.kind == "follower"]
        game.apply(Move(x, y, rot, figure=fields[0] if fields and game.turn == 0 else None))
    assert game.supply[0]["follower"] == 0
    on_board = [f for f in game.figures_on_board() if f.player == 0]
    assert len(on_board) == 7
    tile = game.current
    assert tile is not None
    for x, y, rot in game.legal_placements():
        for seg in range(len(tile.segments)):
            loc = next((n for n, i in tile.rotations[rot // 90].locations.items() if i == seg))
            with pytest.raises(IllegalMove) as exc:
                game.apply(Move(x, y, rot, figure=FigureChoice("follower", loc)))
            assert exc.value.rule == "G6" and "no follower left" in exc.value.message
        break


# ---------------------------------------------------------------- G7/G8 shared features, ties


def test_G7_G8_tied_knights_both_score_in_full() -> None:
    r = run(table_log(AB, [mv("R", 0, -1, 180, at="S"), mv("D", 1, 0, 0, at="N"),
                           mv("N", 1, -1, 270), mv("E", -1, -1, 90)]))
    assert r.error is None
    (ev,) = score_events(r)
    assert ev["points"] == 10 and ev["winners"] == [0, 1] and ev["tie"]
    assert r.state.scores == [10, 10]


def test_G8_majority_takes_all() -> None:
    """Seed 003 final example: Vert 2 knights against Noir 1, Vert alone scores 7."""
    from .support import FIXTURES, load
    r = run(load(FIXTURES / "rulebook" / "b9-final-scoring.json"))
    city7 = [e for e in score_events(r) if e["points"] == 7][0]
    assert city7["winners"] == [2] and city7["strengths"] == {"2": 2, "4": 1}
    assert r.state.scores[4] == 0


# ---------------------------------------------------------------- G9 return


def test_G9_figure_placed_scores_and_returns_in_one_turn() -> None:
    r = run(table_log(AB, [mv("E", 0, -1, 180, at="S")]))
    kinds = [e.type for e in r.events[0]]
    assert kinds == ["place", "figure", "score", "return"]
    assert r.state.supply_of(0)["follower"] == 7


# ---------------------------------------------------------------- G10 several completions


def test_G10_one_tile_completes_several_features_in_fixed_order() -> None:
    """Roads, then cities, then cloisters: checked on every multiple completion of 40 games."""
    seen = 0
    for seed in range(40):
        r = run(_generated(2, seed))
        for ev in r.events:
            scored = [e.to_json() for e in ev if e.type == "score"]
            play = [e for e in scored if e["phase"] == "play"]
            if len(play) > 1:
                seen += 1
                order = [("road", "city", "cloister").index(e["feature"]) for e in play]
                assert order == sorted(order)
    assert seen > 0


# ---------------------------------------------------------------- G11 end, G12 scores


def test_G11_game_ends_when_the_pile_is_empty_and_lists_every_winner() -> None:
    log = _generated(2, 21)
    r = run(log)
    g = _state(r)
    assert g.finished and len(log["moves"]) + len(g.discarded) == 71
    assert r.events[-1][-1].type == "end"
    extra = {**log, "moves": log["moves"] + [log["moves"][0]]}
    err = _error(extra)
    assert err.rule == "G11" and err.move == len(log["moves"])
    g.scores[:] = [50, 50]
    assert g.winners() == [0, 1]


def test_G12_scores_never_decrease() -> None:
    for seed in range(10):
        r = run(_generated(4, seed))
        running = [0, 0, 0, 0]
        for ev in r.events:
            for e in (x.to_json() for x in ev):
                if e["type"] == "score":
                    assert e["points"] >= 0
                    for p in e["winners"]:
                        running[p] += e["points"]
        assert running == r.state.scores


# ---------------------------------------------------------------- B rules


def test_B1_material_72_tiles_7_followers_and_at_most_5_players() -> None:
    ts = builtin_tileset("base-1e")
    assert sum(t.count for t in ts.tiles) == 72
    assert [t.id for t in ts.tiles if t.start] == ["D"]
    assert sum(s.attr("pennants") * t.count for t in ts.tiles for s in t.segments) == 10
    assert _new(config_for("base", 5, 1)).supply == [{"follower": 7}] * 5
    report = verify(table_log(["a", "b", "c", "d", "e", "f"], []))
    assert report.exit_code == 1 and report.failure is not None
    assert report.failure.rule == "B1" and "IC1" in report.failure.message


def test_B2_roles_follow_the_segment() -> None:
    r = run(table_log(["a", "b", "c", "d"], [
        mv("U", 1, 0, 0, at="E"), mv("E", 0, -1, 180, at="S"),
        mv("B", 0, 1, 0, at="cloister"), mv("U", -1, 0, 0, at="N")]))
    roles = [e.to_json()["role"] for ev in r.events for e in ev if e.type == "figure"]
    assert roles == ["thief", "knight", "monk", "farmer"]


def test_B3_road_complete_between_two_crossings() -> None:
    r = run(table_log(AB, [mv("L", 1, 0, 0, at="W"), mv("W", -1, 0, 0)]))
    (ev,) = score_events(r)
    assert (ev["feature"], ev["points"], ev["rule"]) == ("road", 3, "B3")


def test_B3_road_loop_is_complete() -> None:
    r = run(table_log(AB, [mv("V", 0, 1, 270, at="E"), mv("V", 1, 1, 0), mv("V", 1, 2, 90),
                           mv("V", 0, 2, 180)]))
    (ev,) = score_events(r)
    assert (ev["feature"], ev["points"], ev["winners"]) == ("road", 4, [0])
    assert ev["cells"] == [[0, 1], [0, 2], [1, 1], [1, 2]]


def test_B3_completed_roads_score_one_per_tile_in_random_games() -> None:
    found = 0
    for seed in range(30):
        r = run(_generated(2, seed))
        for ev in r.events:
            for e in (x.to_json() for x in ev):
                if e["type"] == "score" and e["feature"] == "road" and e["phase"] == "play":
                    assert e["points"] == len(e["cells"])
                    found += 1
    assert found > 0


def test_B4_city_tiles_and_pennants() -> None:
    assert scores_of(table_log(AB, [mv("M", 0, -1, 180, at="S"),
                                    mv("E", 1, -1, 270)])) == {"Ada": 8, "Ben": 0}


def test_B4a_small_city_two_points_by_default_four_as_option() -> None:
    log = table_log(AB, [mv("E", 0, -1, 180, at="S")])
    assert scores_of(log)["Ada"] == 2
    assert scores_of({**log, "options": {"small_city": 4}})["Ada"] == 4


def test_B5_cloister_complete_scores_nine() -> None:
    r = run(table_log(AB, [
        mv("U", 1, 0), mv("U", -1, 0), mv("B", 0, 1, 0, at="cloister"), mv("B", 1, 1),
        mv("B", -1, 1), mv("B", -1, 2), mv("A", 0, 2), mv("A", 1, 2)]))
    assert r.error is None
    (ev,) = score_events(r)
    assert (ev["feature"], ev["points"], ev["winners"]) == ("cloister", 9, [0])
    assert r.state.supply_of(0)["follower"] == 7


def test_B6_farmers_stay_and_fields_do_not_score_during_play() -> None:
    r = run(table_log(AB, [mv("U", -1, 0, 0, at="N"), mv("N", 0, -1, 180),
                           mv("E", 1, -1, 270)]))
    assert r.error is None and not score_events(r)
    assert r.state.supply_of(0)["follower"] == 6


def test_B7_final_scoring_of_incomplete_features() -> None:
    """Seed 003: road 3, cloister 5, city 2, city 7, Noir nothing."""
    from .support import FIXTURES, load
    r = run(load(FIXTURES / "rulebook" / "b9-final-scoring.json"))
    final = sorted((e["feature"], e["points"]) for e in score_events(r) if e["phase"] == "final")
    assert final == [("city", 2), ("city", 7), ("cloister", 5), ("road", 3)]
    assert r.state.scores == [3, 2, 7, 5, 0]


def test_B8_farm_per_city_counts_farmers_of_all_touching_fields() -> None:
    base = [mv("N", 0, -1, 180), mv("E", 1, -1, 270, at="N"), mv("U", -1, 0, 0, at="N"),
            mv("E", 0, -2, 0, at="S")]
    log = table_log(AB, base, end="after-last-move")
    assert scores_of(log) == {"Ada": 0, "Ben": 4}
    per_field = {**log, "options": {"farm_scoring": "per-field"}}
    assert scores_of(per_field) == {"Ada": 3, "Ben": 6}


def test_B8_farm_tie_both_score_four() -> None:
    # Ada's farmer in the start field strip, Ben's in the cap's field: both touch the city
    log = table_log(AB, [mv("U", -1, 0, 0, at="N"), mv("E", 0, -1, 180, at="N")],
                    end="after-last-move")
    r = run(log)
    farm = [e for e in score_events(r) if e["feature"] == "farm"]
    assert len(farm) == 1 and farm[0]["winners"] == [0, 1] and farm[0]["points"] == 4
    assert r.state.scores == [4, 4]


def test_B8_incomplete_city_gives_farmers_nothing() -> None:
    log = table_log(AB, [mv("U", -1, 0, 0, at="N")], end="after-last-move")
    assert scores_of(log) == {"Ada": 0, "Ben": 0}


@pytest.mark.parametrize("name,expected", [
    ("b9-tied-knights", {"Rouge": 10, "Bleu": 10}),
    ("b9-final-scoring", {"Rouge": 3, "Bleu": 2, "Vert": 7, "Jaune": 5, "Noir": 0}),
    ("b9-farm-majority", {"Rouge": 0, "Bleu": 4}),
    ("b4a-small-city", {"Rouge": 2, "Bleu": 0}),
    ("b4-city-pennant", {"Rouge": 8, "Bleu": 0}),
])
def test_B9_rulebook_examples_of_seed_003(name: str, expected: dict[str, int]) -> None:
    """The captions of seed 003, replayed from hand-written logs in fixtures/rulebook/."""
    from .support import FIXTURES, load
    log = load(FIXTURES / "rulebook" / f"{name}.json")
    assert log["meta"]["source"] == "seed 003"
    assert scores_of(log) == expected


def test_new_features_share_empties_that_refuse_change_and_copies_keep_them_apart() -> None:
    """A new feature shares empty containers until its first addition (tiles/empty.py): a
    change in place is refused, the add_ methods give it its own, and a state's copy keeps
    its features apart from the original's."""
    from replay.core.rng import SeededStream
    from replay.tiles.features import Feature, Figure

    a, b = Feature("field", 0, 0, 0), Feature("field", 5, 1, 0)
    assert a.flags is b.flags and a.figures is b.figures  # shared while empty
    for change in (lambda: a.flags.add("x"), lambda: a.figures.append(None),
                   lambda: a.counts.update({"x": 1}), lambda: a.touches.extend([1]),
                   lambda: a.tokens.append((1, 1))):
        with pytest.raises(TypeError, match="add_"):
            change()
    a.add_flags(["inn"])
    a.add_counts({"fish": 2})
    a.add_counts({"fish": 1, "gold": 1})
    a.add_touches([3])
    a.add_token((1, 4))
    fig = Figure(0, "follower", 0, (0, 0), "N", 1, False)
    a.add_figure(fig)
    assert (a.flags, a.counts, a.touches, a.tokens, a.figures) == (
        {"inn"}, {"fish": 3, "gold": 1}, [3], [(1, 4)], [fig])
    assert (b.flags, b.counts, b.touches, b.tokens, b.figures) == (set(), {}, [], [], [])
    b.absorb(a)
    assert b.counts == {"fish": 3, "gold": 1} and b.counts is not a.counts
    # a copy of a game in progress: a figure added to a feature of the copy stays there
    state = _new(config_for("base", 2, 7))
    pick = SeededStream("7", "features-test")
    for _ in range(12):
        family("base").play_random(state, pick)
    copy = state.copy()
    fresh = [f for f in copy.features() if not f.figures]
    assert fresh, "some feature has no figure"
    fresh[0].add_figure(fig)
    assert all(fig not in f.figures for f in state.features())
