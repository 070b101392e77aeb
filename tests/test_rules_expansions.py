"""Inns & Cathedrals (IC1-IC4) and Hills & Sheep (HS1-HS10), rule by rule.

Most scenarios are hand-written logs in ``fixtures/expansions/`` whose per-move score claims
the verifier checks (L2); the tests below add what a claim cannot show (events, supplies).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from replay.core.errors import IllegalMove
from replay.core.family import GameConfig, Player, family
from replay.core.record import parse
from replay.core.verify import verify
from replay.games.carcassonne import CarcassonneState, Move, hills_sheep
from replay.generate import config_for, generate_log
from replay.tiles.features import Figure
from replay.tiles.scoring import majority
from replay.tiles.sets import builtin_tileset, parse_tileset

from .support import FIXTURES, fixture_log, load, run, score_events
from .support import carcassonne_of as _state
from .support import new_carcassonne as _new

EXP = FIXTURES / "expansions"


def fixture(name: str) -> dict[str, Any]:
    return fixture_log("expansions", name)


def _sheep(state: CarcassonneState) -> hills_sheep.SheepBag:
    """The Hills & Sheep part of a game: the bag (HS1) and the tiles under hills (HS7)."""
    part = state.part("hills-sheep")
    assert isinstance(part, hills_sheep.SheepBag)
    return part


def _supply(expansions: tuple[str, ...]) -> dict[str, int]:
    """What each player starts with (B1, IC1, HS1)."""
    return _new(config_for("base", 2, 1, expansions)).supply_of(0)


@pytest.mark.parametrize("path", sorted(EXP.glob("*.json")), ids=lambda p: p.stem)
def test_expansion_fixtures_verify_with_their_claims(path: Any) -> None:
    report = verify(path)
    assert report.valid, report.line()
    assert load(path)["meta"]["rules"]


def _events(name: str, kind: str) -> list[dict[str, Any]]:
    r = run(fixture(name))
    assert r.error is None
    return [e.to_json() for ev in r.events for e in ev if e.type == kind]


# ---------------------------------------------------------------- Inns & Cathedrals


def test_IC1_material_sixth_player_and_large_follower() -> None:
    ic = builtin_tileset("inns-cathedrals")
    assert sum(t.count for t in ic.tiles) == 18
    assert sum(1 for t in ic.tiles for s in t.segments if s.attr("inn")) == 6
    assert sum(t.count for t in ic.tiles if any(s.attr("cathedral") for s in t.segments)) == 2
    assert _supply(("inns-cathedrals",)) == {"follower": 7, "large-follower": 1}
    log = generate_log("base", 6, 3, ("inns-cathedrals",))
    assert verify(log).valid


def test_IC1_large_follower_counts_two() -> None:
    (ev,) = [e for e in _events("ic1-large-follower-majority", "score")]
    assert ev["winners"] == [0] and ev["strengths"] == {"0": 2, "1": 1}


def test_IC1_large_follower_returns_and_stays_as_farmer() -> None:
    r = run(fixture("ic1-large-follower-majority"))
    assert r.state.supply_of(0) == {"follower": 7, "large-follower": 1}
    figs = [Figure(0, "large-follower", 1, (0, 0), "N", 2, False),
            Figure(1, "follower", 2, (0, 0), "N", 1, False),
            Figure(1, "follower", 3, (0, 0), "N", 1, False)]
    game = _new(_config(("inns-cathedrals",)))
    assert majority(game, figs) == ([0, 1], {0: 2, 1: 2})  # B8 farms use strength too


def test_IC2_inn_road_complete_double_and_incomplete_zero() -> None:
    (ev,) = _events("ic2-inn-road-complete", "score")
    assert (ev["points"], ev["rule"]) == (8, "IC2")
    (final,) = _events("ic2-inn-road-incomplete", "score")
    assert (final["points"], final["rule"], final["phase"]) == (0, "IC2", "final")


def test_IC3_cathedral_complete_triple_and_incomplete_zero() -> None:
    (ev,) = _events("ic3-cathedral-complete", "score")
    assert (ev["points"], ev["rule"]) == (15, "IC3")
    (final,) = _events("ic3-cathedral-incomplete", "score")
    assert (final["points"], final["rule"]) == (0, "IC3")


def test_IC4_inn_belongs_to_one_arm_and_crossroad_stubs_are_not_roads() -> None:
    (ev,) = _events("ic4-inn-on-one-arm", "score")
    assert (ev["points"], ev["rule"]) == (3, "B3")
    crossing = builtin_tileset("inns-cathedrals").by_id()["IC/I"]
    rot = crossing.rotations[0]
    kinds = {loc: crossing.segments[i].type for loc, i in rot.locations.items()}
    assert kinds["N"] == "city" and kinds["S"] == "city"  # no road stub to place a thief on
    assert sum(1 for s in crossing.segments if s.type == "road") == 2
    assert rot.pos[1] != rot.pos[7]  # the two cities are separate


# ---------------------------------------------------------------- Hills & Sheep


def test_HS1_material_bag_and_shepherds() -> None:
    hs = builtin_tileset("hills-sheep")
    assert sum(t.count for t in hs.tiles) == 18
    assert sum(t.count for t in hs.tiles if t.hill) == 8
    assert sum(t.count for t in hs.tiles if t.vineyard) == 8
    bag = Counter(hills_sheep.BAG)
    assert bag == {0: 2, 1: 4, 2: 5, 3: 5, 4: 2} and sum(hills_sheep.BAG) == 37
    assert _supply(("hills-sheep",))["shepherd"] == 1


def test_HS2_shepherd_draws_and_blocks_only_shepherds() -> None:
    (draw,) = _events("hs2-shepherd-draws", "sheep")
    assert draw["sheep"] == 3 and draw["rule"] == "HS2"
    r = run(fixture("hs2-shepherd-draws"))
    bag = _sheep(_state(r)).bag
    assert bag.count(3) == 4 and len(bag) == 17
    # a farmer may join the shepherd's field; a second shepherd may not
    base = fixture("hs2-shepherd-draws")
    farmer = {**base, "moves": base["moves"] + [
        {"tile": "U", "x": -1, "y": 0, "rotation": 0, "figure": {"at": "S"}}]}
    assert run(farmer).error is None
    second = {**base, "moves": base["moves"] + [
        {"tile": "U", "x": -1, "y": 0, "rotation": 0,
         "figure": {"kind": "shepherd", "at": "S"}, "tokens": [1]}]}
    err = run(second).error
    assert err is not None and err.rule == "HS2" and "already holds a shepherd" in err.message


def test_HS2_wolf_on_placement_sends_the_shepherd_home() -> None:
    base = fixture("hs2-shepherd-draws")
    base["moves"][0]["tokens"] = ["wolf"]
    r = run(base)
    assert r.error is None and r.state.supply_of(0)["shepherd"] == 1
    assert [e.type for e in r.events[0]] == ["place", "figure", "sheep", "wolf", "return"]
    assert _sheep(_state(r)).bag.count(0) == 2


def test_HS3_herd_scores_and_returns_everything() -> None:
    r = run(fixture("hs3-herd"))
    (ev,) = score_events(r)
    assert (ev["feature"], ev["points"], ev["rule"]) == ("flock", 3, "HS3")
    assert sorted(_sheep(_state(r)).bag) == sorted(hills_sheep.BAG)
    assert r.state.supply_of(0)["shepherd"] == 1


def test_HS3_expand_with_a_wolf_loses_the_flock() -> None:
    r = run(fixture("hs3-expand-wolf"))
    wolf = [e.to_json() for ev in r.events for e in ev if e.type == "wolf"]
    assert wolf and wolf[0]["tokens"] == ["3 sheep"]
    assert sorted(_sheep(_state(r)).bag) == sorted(hills_sheep.BAG) and r.state.scores == [0, 0]


def test_HS3_choice_is_required_and_only_where_allowed() -> None:
    base = fixture("hs3-herd")
    missing = {**base, "moves": base["moves"][:2] + [{k: v for k, v in base["moves"][2].items()
                                                       if k not in ("flock", "scores")}]}
    err = run(missing).error
    assert err is not None and err.rule == "HS3" and err.move == 2 and "must choose" in err.message
    not_allowed = {**base, "moves": base["moves"][:1] + [
        {**base["moves"][1], "flock": [{"at": "S", "action": "herd"}]}]}
    err = run(not_allowed).error
    assert err is not None and err.rule == "HS3" and err.player == "Ben"


def test_HS3_choice_leaves_state_untouched_when_illegal() -> None:
    r = run({**fixture("hs3-herd"), "moves": fixture("hs3-herd")["moves"][:2]})
    g = _state(r)
    before = (g.hash, list(_sheep(g).bag), list(g.scores))
    with pytest.raises(IllegalMove):
        g.apply(Move(0, 1, 0, "B"))
    assert (g.hash, list(_sheep(g).bag), list(g.scores)) == before


def test_HS4_shared_flock_scores_for_every_shepherd() -> None:
    (ev,) = _events("hs4-shared-flock", "score")
    assert ev["winners"] == [0, 1] and ev["points"] == 5 and "shared" in ev["detail"]


def test_HS5_closed_field_is_herded_at_once() -> None:
    (ev,) = _events("hs5-closed-field", "score")
    assert (ev["rule"], ev["points"], ev["winners"]) == ("HS5", 2, [0])
    evs = _events("hs5-closed-field-expand-first", "score")
    assert [(e["rule"], e["points"]) for e in evs] == [("HS5", 5)]


def test_HS5_inner_field_draws_then_herds() -> None:
    (ev,) = _events("hs5-inner-field", "score")
    assert (ev["rule"], ev["points"]) == ("HS5", 4)
    wolf = fixture("hs5-inner-field")
    wolf["moves"][0]["tokens"] = ["wolf"]
    wolf["moves"][0]["scores"] = {"Ada": 0, "Ben": 0}
    assert verify(wolf).valid


def test_HS6_shepherds_score_nothing_at_the_end() -> None:
    r = run(fixture("hs6-no-score-at-end"))
    assert r.state.finished and r.state.scores == [0, 0]
    assert not [e for e in score_events(r) if e["feature"] == "flock"]


def test_HS7_hill_hides_the_next_tile_of_the_pile() -> None:
    log = generate_log("base", 3, 8, ("hills-sheep",))
    parsed = parse(log)
    game = parsed.new_state()
    assert isinstance(game, CarcassonneState)
    hills = 0
    for move in parsed.moves:
        tile = game.current
        assert tile is not None
        following = game.pile[game.pile_pos].id if game.pile_pos < len(game.pile) else None
        events = game.apply(move)
        hidden = [e.to_json()["tile"] for e in events if e.type == "hidden"]
        if tile.hill and following is not None:
            hills += 1
            assert hidden == [following]
        else:
            assert hidden == []
    assert hills >= 5 and game.finished
    total = sum(t.count for t in game.config.material.tiles) - 1
    assert len(game.placements) - 1 + len(game.discarded) + len(_sheep(game).hidden) == total


def test_HS7_table_log_hidden_tile_is_counted() -> None:
    log = fixture("hs8-hill-breaks-tie")
    log["moves"][1]["hidden"] = "C"
    g = _state(run(log))
    assert _sheep(g).hidden == ["C"] and g.remaining["C"] == 0
    log["moves"][2]["tile"] = "C"
    log["moves"][2].pop("scores", None)
    err = run(log).error
    assert err is not None and err.rule == "L1"  # C went under the hill


_HILL_SET: dict[str, Any] = {
    "format": "carcassonne-replay/tileset", "version": 1, "id": "hill-end", "name": "hill end",
    "game": "base",
    "tiles": [
        {"id": "S", "count": 1, "start": True, "edges": "FFFF", "positions": ["f"] * 12,
         "segments": [{"id": "f", "type": "field", "touches": []}]},
        {"id": "H", "count": 1, "hill": True, "edges": "FFFF", "positions": ["f"] * 12,
         "segments": [{"id": "f", "type": "field", "touches": []}]},
    ],
}


def _config(expansions: tuple[str, ...], tileset: Any = None, seed: str | None = "1",
            options: dict[str, Any] | None = None) -> GameConfig:
    ts = tileset or builtin_tileset("base-1e")
    return GameConfig("base", expansions, (Player("Ada", "red"), Player("Ben", "blue")),
                      family("base").option_values(options or {}, expansions), seed, ts)


def test_HS7_last_tile_is_a_hill_hides_nothing() -> None:
    """Seed 004, note 5: the last tile may be a hill; nothing goes under it."""
    game = _new(_config(("hills-sheep",), parse_tileset(_HILL_SET)))
    assert game.current is not None and game.current.id == "H"
    events = game.apply(Move(1, 0, 0, "H"))
    assert game.finished and _sheep(game).hidden == []
    assert not [e for e in events if e.type == "hidden"]


def test_HS8_hill_breaks_a_tie_and_several_on_hills_share() -> None:
    (ev,) = _events("hs8-hill-breaks-tie", "score")
    assert ev["winners"] == [1] and ev["strengths"] == {"0": 1, "1": 1}
    (ev,) = _events("hs8-both-on-hills-share", "score")
    assert ev["winners"] == [0, 1]


def test_HS8_option_count_and_farm_majorities() -> None:
    figs = [Figure(0, "follower", 1, (0, 0), "N", 1, True),
            Figure(0, "follower", 2, (0, 0), "N", 1, True),
            Figure(1, "follower", 3, (0, 0), "N", 1, True),
            Figure(1, "follower", 4, (0, 0), "N", 1, False)]
    presence = _new(_config(("hills-sheep",)))
    count = _new(_config(("hills-sheep",), options={"hill_tiebreak": "count"}))
    assert majority(presence, figs)[0] == [0, 1]  # note 6: both have a hill follower
    assert majority(count, figs)[0] == [0]  # note 7 / option: more followers on hills
    # farmers (B8) break ties the same way
    farmers = [Figure(0, "follower", 1, (0, 0), "S", 1, False),
               Figure(1, "follower", 2, (0, 0), "S", 1, True)]
    assert majority(presence, farmers)[0] == [1]


def test_HS9_vineyards_only_for_cloisters_completed_in_play() -> None:
    (ev,) = _events("hs9-vineyard", "score")
    assert (ev["points"], ev["rule"]) == (12, "HS9")
    log = fixture("hs9-vineyard")
    log["moves"] = log["moves"][:-1]
    log["moves"][-1].pop("scores", None)
    log["end"] = "after-last-move"
    r = run(log)
    (final,) = [e for e in score_events(r) if e["feature"] == "cloister"]
    assert (final["points"], final["rule"]) == (8, "B7")  # 1 + 7 neighbours, no vineyard bonus


def test_HS10_multi_edge_city_joins_both_cities() -> None:
    (ev,) = _events("hs10-multi-edge-city", "score")
    assert ev["feature"] == "city" and len(ev["cells"]) == 4 and ev["points"] == 8


def test_HS10_asymmetric_tiles_geometry() -> None:
    by_id = builtin_tileset("hills-sheep").by_id()
    tip = by_id["HS/C!.v"].rotations[0]
    assert "S" not in tip.locations and tip.locations["SL"] != tip.locations["SR"]
    multi = by_id["HS/CC!.v"]
    assert [s.extra_sides for s in multi.segments if s.type == "city"] == [(), (0,)]


def test_expansion_games_round_trip_for_many_seeds_and_players() -> None:
    both = ("inns-cathedrals", "hills-sheep")
    seen: Counter[str] = Counter()
    for seed in range(12):
        for players in (2, 4, 6):
            for exp in (("inns-cathedrals",), ("hills-sheep",), both):
                if players == 6 and "inns-cathedrals" not in exp:
                    continue
                log = generate_log("base", players, seed, exp)
                report = verify(log)
                assert report.valid and report.finished, report.line()
                for ev in run(log).events:
                    for e in ev:
                        seen[e.type] += 1
    assert seen["sheep"] and seen["wolf"] and seen["hidden"]
