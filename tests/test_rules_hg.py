"""Hunters & Gatherers (HG1-HG13), rule by rule.

The rulebook examples (HG12) are hand-written logs in ``fixtures/hunters-gatherers/`` whose
per-move and final score claims the verifier checks (L2).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from replay.cli import main
from replay.core.errors import IllegalMove
from replay.core.family import GameState, family
from replay.core.playback import play_through
from replay.core.record import parse
from replay.core.values import replace
from replay.core.verify import verify
from replay.games.hunters_gatherers import HuntersGatherersState, Move
from replay.games.hunters_gatherers.scoring import completed_points, meadow_value, score_meadow
from replay.generate import config_for, dumps, generate_log, play_random
from replay.tiles.events import Place
from replay.tiles.features import Feature, Figure
from replay.tiles.scoring import majority
from replay.tiles.sets import DATA_DIR, builtin_tileset

from .support import FIXTURES, fixture_log, load, run, score_events

HG = FIXTURES / "hunters-gatherers"


def fixture(name: str) -> dict[str, Any]:
    return fixture_log("hunters-gatherers", name)


def hg(state: GameState) -> HuntersGatherersState:
    """``state`` as the Hunters & Gatherers state it is."""
    assert isinstance(state, HuntersGatherersState)
    return state


def new_game(players: int, seed: int) -> HuntersGatherersState:
    """The position before the first move of a seeded Hunters & Gatherers game."""
    config = config_for("hunters-gatherers", players, seed)
    return hg(family("hunters-gatherers").new_state(config))


@pytest.mark.parametrize("path", sorted(HG.glob("*.json")), ids=lambda p: p.stem)
def test_HG12_rulebook_examples_verify_with_their_claims(path: Path) -> None:
    report = verify(path)
    assert report.valid, report.line()


def _scores(name: str) -> list[dict[str, Any]]:
    r = run(fixture(name))
    assert r.error is None
    return score_events(r)


def test_HG1_material() -> None:
    ts = builtin_tileset("hunters-gatherers")
    land = [t for t in ts.tiles if not t.bonus]
    assert sum(t.count for t in land) == 79 and sum(t.count for t in ts.tiles if t.bonus) == 12
    assert [t.id for t in ts.tiles if t.start] == ["HG-56"] and ts.reconstruction
    game = new_game(5, 1)
    assert game.supply == [{"follower": 5, "hut": 2}] * 5  # every seat's start supply
    assert len(game.pile) == 78 and len(game.bonus_stack) == 12
    assert all(not t.bonus for t in game.pile)


def test_HG1_bonus_stack_is_seeded() -> None:
    a = new_game(2, 7).bonus_stack
    b = new_game(2, 7).bonus_stack
    c = new_game(2, 8).bonus_stack
    assert [t.id for t in a] == [t.id for t in b] != [t.id for t in c]


def test_HG2_sides_match_forest_meadow_river() -> None:
    log = {"format": "carcassonne-replay/log", "version": 1, "game": "hunters-gatherers",
           "players": [{"name": "A"}, {"name": "B"}],
           # the start tile's west side is a river: a forest side cannot meet it
           "moves": [{"tile": "HG-63", "x": -1, "y": 0, "rotation": 0}]}
    err = run(log).error
    assert err is not None and err.rule == "G4" and "(forest) meets river" in err.message


def test_HG3_figures_and_blocking() -> None:
    for name, rule in (("hg3-hut-on-forest.json", "HG3"),
                       ("hg3-second-hut-in-network.json", "HG3")):
        report = verify(FIXTURES / "invalid" / name)
        assert report.failure is not None and report.failure.rule == rule
    # fishers and huts do not block each other
    game = new_game(2, 3)
    start_lake = game.figure_options(game.tiles_by_id["HG-46"], -1, 0, 0)
    kinds = {(o.kind, o.location) for o in start_lake}
    assert ("follower", "E") in kinds and ("hut", "E") in kinds


def test_HG4_river_scores_tiles_and_end_lake_fish() -> None:
    (ev,) = _scores("hg12-river-6")
    assert (ev["feature"], ev["points"], ev["rule"]) == ("river", 6, "HG4")
    (ev,) = _scores("hg12-river-3")
    assert (ev["points"], ev["winners"]) == (3, [0])  # Rouge scores though Bleu closed it


def test_HG5_forest_scores_two_per_tile_and_mushrooms() -> None:
    (ev,) = _scores("hg12-forest-4")
    assert (ev["feature"], ev["points"], ev["rule"]) == ("forest", 4, "HG5")
    forest = [e for e in _scores("hg12-forest-10-gold") if e["feature"] == "forest"]
    assert forest[0]["points"] == 10
    tie = [e for e in _scores("hg12-forest-tie-10") if e["feature"] == "forest"]
    assert tie[0]["winners"] == [0, 1] and tie[0]["points"] == 10
    (major,) = [e for e in _scores("hg12-forest-majority-12") if e["feature"] == "forest"]
    assert (major["points"], major["winners"], major["strengths"]) == (12, [0], {"0": 2, "1": 1})
    feat = Feature("forest", 0, 0, 0)
    feat.tiles = {0, 1, 2}
    feat.add_counts({"mushrooms": 1})
    assert completed_points(new_game(2, 1), feat)[0] == 8


def test_HG6_return_at_end_of_turn_by_default() -> None:
    report = verify(FIXTURES / "invalid" / "hg6-recovered-follower-on-bonus.json")
    assert report.failure is not None and report.failure.rule == "HG6"
    log = load(FIXTURES / "invalid" / "hg6-recovered-follower-on-bonus.json")
    log["options"] = {"return_timing": "immediate"}  # seed 000: back at once
    log.pop("claims", None)
    r = run(log)
    assert r.error is None and r.state.moves_played == len(log["moves"])


def test_HG6_returns_happen_after_the_bonus_tile() -> None:
    r = run(fixture("hg12-forest-10-gold"))
    last = [e.type for e in r.events[3]]
    assert last.index("return") > max(i for i, t in enumerate(last) if t == "place")


def test_HG7_gold_gives_one_bonus_tile_without_chain() -> None:
    seen = Counter[str]()
    for seed in range(30):
        log = generate_log("hunters-gatherers", 2, seed)
        r = run(log)
        for i, ev in enumerate(r.events):
            bonus = [e for e in ev if isinstance(e, Place) and e.bonus]
            assert len(bonus) <= 1  # one per turn, never a chain
            if bonus:
                seen["bonus"] += 1
                assert "bonus" in log["moves"][i]
    assert seen["bonus"] > 10
    for name in ("hg7-bonus-without-gold.json", "hg7-bonus-missing.json",
                 "hg7-bonus-tile-as-land-tile.json"):
        report = verify(FIXTURES / "invalid" / name)
        assert report.failure is not None and report.failure.rule == "HG7", name


def _before_the_gold_forest() -> tuple[HuntersGatherersState, Move]:
    """The forest-10 example just before the move that completes it (and earns a bonus)."""
    record = parse(fixture("hg12-forest-10-gold"))
    game = hg(record.new_state())
    for mv in record.moves[:3]:
        game.apply(mv)
    land = record.moves[3]
    assert isinstance(land, Move)
    return game, land


def test_HG7_bonus_is_a_separate_atomic_step() -> None:
    game, land = _before_the_gold_forest()
    game.step(replace(land, bonus=None))
    assert game.bonus_due and game.moves_played == 3
    before = game.hash
    with pytest.raises(Exception) as exc:
        game.step(Move(9, 9, 0, "HG-85"))
    assert getattr(exc.value, "rule", None) == "G4" and game.hash == before
    assert land.bonus is not None
    game.step(land.bonus)
    assert not game.bonus_due and game.moves_played == 4


def test_HG8_river_networks_join_through_lakes() -> None:
    seen = 0
    for seed in range(20):
        state, _ = play_random(config_for("hunters-gatherers", 2, seed))
        game = hg(state)
        for net in game.net_features():
            lakes = [n for n in _nodes(game, net) if game.graph.of(n).type == "lake"]
            assert net.counts.get("fish", 0) == sum(
                game.graph.of(n).counts.get("fish", 0) for n in lakes)
            rivers = {game.graph.find(n) for n in _nodes(game, net)
                      if game.graph.of(n).type == "river"}
            if len(rivers) > 1:
                seen += 1  # several rivers joined by a lake into one network
    assert seen > 0


def _nodes(game: HuntersGatherersState, net: Feature) -> list[int]:
    return [n for n in range(len(game.net.parent)) if game.net.find(n) == game.net.find(net.first)]


def test_HG9_followers_on_unfinished_forests_go_home_huts_and_hunters_stay() -> None:
    state, _ = play_random(config_for("hunters-gatherers", 3, 4))
    game = hg(state)
    assert game.finished
    for fig in game.figures_on_board():
        feat = (game.net.of(fig.node) if fig.kind == "hut" else game.graph.of(fig.node))
        assert fig.kind == "hut" or feat.type == "meadow"


def test_HG10_huts_score_the_fish_of_their_network() -> None:
    r = run(generate_log("hunters-gatherers", 3, 5))
    huts = [e for e in score_events(r) if e["feature"] == "network"]
    assert huts and all(e["rule"] == "HG10" for e in huts)
    for e in huts:
        assert e["detail"].startswith(f"river network: {e['points']} fish")


@pytest.mark.parametrize("animals,hunters,points,winners", [
    ({"deer": 1}, {0: 1}, 2, [0]),                                        # meadow 1: Vert 2
    ({"deer": 1, "mammoth": 1, "tiger": 1}, {0: 1, 1: 1}, 2, [0, 1]),     # meadow 2: tie
    ({"deer": 2, "mammoth": 2, "aurochs": 1, "tiger": 1}, {0: 2, 1: 1}, 8, [0]),  # meadow 3
    ({"deer": 1, "tiger": 2}, {0: 1}, 0, [0]),                            # meadow 4: nothing
])
def test_HG11_HG12_the_four_rulebook_meadows(animals: dict[str, int], hunters: dict[int, int],
                                             points: int, winners: list[int]) -> None:
    feat = Feature("meadow", 0, 0, 0)
    feat.add_counts(animals)
    assert meadow_value(feat)[0] == points
    figs = [Figure(p, "follower", 0, (0, 0), "N", 1, False)
            for p, n in hunters.items() for _ in range(n)]
    game = new_game(2, 1)
    assert majority(game, figs)[0] == winners


def test_HG11_fire_drives_tigers_away_and_sacred_place_wins_alone() -> None:
    feat = Feature("meadow", 0, 0, 0)
    feat.add_counts({"deer": 2, "tiger": 2, "fire": 1})
    assert meadow_value(feat)[0] == 4
    game = new_game(2, 1)
    feat.figures = [Figure(0, "follower", 0, (0, 0), "N", 1, False),
                    Figure(0, "follower", 0, (0, 0), "N", 1, False),
                    Figure(1, "follower", 0, (0, 0), "N", 1, False)]
    feat.add_flags(["sacred:1"])
    score_meadow(game, feat)
    assert game.scores == [0, 4] and game.sink.take()[0].to_json()["winners"] == [1]
    # the sacred flag is set by a hunter placed on the sacred tile's meadow (fixture)
    r = run(fixture("hg12-forest-tie-10"))
    assert any(f.startswith("sacred:") for feat in hg(r.state).features() for f in feat.flags)


def test_HG13_corrected_tile_set_file_is_used_and_recorded(tmp_path: Path) -> None:
    data = json.loads((Path(DATA_DIR) / "hunters-gatherers.json").read_text())
    data["id"] = "hg-corrected"
    data["tiles"][0]["segments"][-1]["fish"] = 3  # a corrected lake
    path = tmp_path / "corrected.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "games"
    assert main(["generate", "--game", "hunters-gatherers", "--tileset", str(path),
                 "--seed", "2", "--count", "2", "--out", str(out)]) == 0
    files = sorted(map(str, out.glob("*.json")))
    recorded = json.loads(Path(files[0]).read_text())["tileset"]
    assert recorded["id"] == "hg-corrected"
    assert main(["verify", "--tileset", str(path), *files]) == 0
    assert main(["verify", *files]) == 2  # the built-in set is not the one the log names


def test_hg_games_round_trip_for_many_seeds_and_players() -> None:
    for seed in range(15):
        for players in (2, 3, 5):
            log = generate_log("hunters-gatherers", players, seed)
            report = verify(json.loads(dumps(log)))
            assert report.valid and report.finished, report.line()
    opts = {"return_timing": "immediate"}
    log = generate_log("hunters-gatherers", 4, 3, options=opts)
    assert log["options"] == {"return_timing": "immediate"} and verify(log).valid
    r = play_through(parse(log))
    assert r.state.finished


def test_HG7_illegal_bonus_in_play_leaves_the_state_untouched() -> None:
    game, land = _before_the_gold_forest()
    before = (game.hash, list(game.scores), game.moves_played, len(game.board))
    for bad in (replace(land, bonus=None), replace(land, bonus=Move(9, 9, 0, "HG-85"))):
        with pytest.raises(IllegalMove):
            game.apply(bad)
        assert (game.hash, list(game.scores), game.moves_played, len(game.board)) == before
    game.apply(land)
    assert game.scores == [10, 0]
