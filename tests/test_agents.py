"""The agents (issue 37 items 1, 2, 5): legal moves in every family, the same moves from the
same seed and spec (any hash seed, parallel or not), hidden information kept hidden (two
states the mover cannot tell apart give the same choice), greedy's one-ply best, mcts against
random, and on the Connect Four example an immediate win taken and an immediate loss blocked.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from replay.agents import AgentSpecError, agent, agents, value
from replay.agents.base import lead_value
from replay.agents.games import arena_game, play_game
from replay.agents.mcts import MctsAgent
from replay.agents.simple import ranked
from replay.core.family import MARGIN_SPREAD
from replay.core.record import parse
from replay.core.rng import SeededStream
from replay.core.verify import verify
from replay.generate import generate_log
from replay.tiles.figures import SPREAD

from .test_hidden import permuted
from .test_plugins import installed, site  # noqa: F401 (fixtures: the examples installed)

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = [("base", ("inns-cathedrals", "hills-sheep")), ("hunters-gatherers", ()),
            ("manhattan", ())]


def _position(game: str, expansions: tuple[str, ...], n: int, seed: int = 3) -> Any:
    record = parse(generate_log(game, 2, seed, expansions))
    return record.playback.position(min(n, len(record.moves) - 1)).state


@pytest.mark.parametrize(("game", "expansions"), FAMILIES)
def test_a_game_between_agents_is_a_valid_log(game: str, expansions: tuple[str, ...]) -> None:
    state, log = play_game(game, agents("mcts:4:dets=2,greedy"), 5, expansions)
    report = verify(json.dumps(log).encode())
    assert report.valid and report.finished, report.failure
    assert log["meta"]["agents"] == "mcts:4:dets=2,greedy"
    assert list(log["claims"]["final_scores"].values()) == state.scores


def test_the_same_seed_and_spec_give_the_same_moves_under_any_hash_seed() -> None:
    code = ("import json, sys; from replay.agents import agents; "
            "from replay.agents.games import play_game; "
            "print(json.dumps(play_game('manhattan', agents('mcts:6:dets=2,mcts:4'), 9)"
            "[1]['moves']))")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           cwd=ROOT, env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
                           check=True).stdout for seed in ("1", "2")]
    assert runs[0] == runs[1] and json.loads(runs[0])


def test_determinizations_in_processes_choose_as_in_one() -> None:
    state = _position("base", (), 20)
    one = MctsAgent("mcts:30:dets=3").search(state, SeededStream("s", "t"))
    two = MctsAgent("mcts:30:dets=3:jobs=2").search(state, SeededStream("s", "t"))
    assert [(s.visits, s.value) for s in one] == [(s.visits, s.value) for s in two]


@pytest.mark.parametrize(("game", "expansions"), FAMILIES)
def test_what_the_mover_cannot_see_does_not_change_its_choice(
        game: str, expansions: tuple[str, ...]) -> None:
    """Issue 37 item 2: two states equal in everything the mover has seen, different in the
    hidden part, give the same choice for the same agent seed."""
    for n in (6, 20, 40):
        state = _position(game, expansions, n)
        other = permuted(state)
        assert other.state_hash != state.state_hash or game != "base"
        for spec in ("mcts:12:dets=2", "greedy"):
            a = agent(spec).choose(state, SeededStream("seed", "agent"))
            b = agent(spec).choose(other, SeededStream("seed", "agent"))
            assert state.family.encode_move(a) == other.family.encode_move(b), (spec, n)


def test_greedy_plays_the_best_one_ply_value() -> None:
    state = _position("base", (), 30)
    seat = state.current_player
    best = max(v for v, _ in ranked(state, SeededStream("x", "y")))
    move = agent("greedy").choose(state, SeededStream("x", "y"))
    after = state.copy()
    after.play(move)
    assert value(after.scores_if_ended())[seat] == best


def test_mcts_beats_random() -> None:
    """A handful of short games, seats alternated: mcts with a small budget wins them all
    (the long arena, 200 games, is the opt-in heavy run: docs/agents.md)."""
    results = [arena_game("base", agent("mcts:20:dets=1"), agent("random"), k, 1)[0]
               for k in range(4)]
    assert results == [1.0] * 4


def test_specs() -> None:
    assert agent("mcts").spec == "mcts"
    assert agent("mcts:800:dets=4").spec == "mcts:800:dets=4"
    assert agent("mcts:dets=4:sims=800").spec == "mcts:800:dets=4"
    assert agent("mcts:500:dets=3").spec == "mcts"  # the defaults
    assert [a.spec for a in agents("random, greedy,mcts:9")] == ["random", "greedy", "mcts:9"]
    for bad, words in (("foo", "not an agent"), ("mcts:x", "sims"), ("mcts:0", "sims"),
                       ("mcts:dets=0", "dets"), ("mcts:c=nan", "c="), ("mcts:zap=1", "zap"),
                       ("greedy:3", "at most 0"), ("mcts:1:2:3:4:5:6:7:8:9", "at most"),
                       (",", "commas"), ("", "commas")):
        with pytest.raises(AgentSpecError, match=words):
            agents(bad)


def _connect_four(columns: list[int]) -> Any:
    log = {"format": "carcassonne-replay/log", "version": 1, "game": "connect-four",
           "players": [{"name": "Ada"}, {"name": "Ben"}],
           "moves": [{"column": c} for c in columns]}
    return parse(log).playback.position().state


@pytest.mark.usefixtures("installed")
def test_mcts_takes_a_win_and_blocks_a_loss_at_connect_four() -> None:
    win = _connect_four([1, 1, 2, 2, 3, 3])  # Ada: row 1, columns 1-3; column 4 wins
    block = _connect_four([7, 1, 7, 2, 6, 3])  # Ben threatens column 4: Ada must block
    for seed in ("a", "b", "c"):
        assert agent("mcts:200:dets=1").choose(win, SeededStream(seed, "t")).column == 4
        assert agent("mcts:300:dets=1").choose(block, SeededStream(seed, "t")).column == 4


def test_a_lead_is_worth_more_the_less_it_may_still_move() -> None:
    assert lead_value([30, 30], 5.0) == [0.5, 0.5]
    ahead, behind = lead_value([40, 30], 10.0)
    assert ahead == pytest.approx(1 / (1 + math.exp(-1))) and ahead + behind == pytest.approx(1)
    assert lead_value([40, 30], 2.0)[0] > ahead > lead_value([40, 30], 50.0)[0] > 0.5
    assert lead_value([40, 30, 35], 10.0)[2] < 0.5  # against the best other seat


def test_the_spread_of_a_lead_shrinks_as_the_pile_runs_out() -> None:
    spreads = [_position("base", (), n).margin_spread() for n in (2, 30, 60, 71)]
    assert spreads == sorted(spreads, reverse=True) and len(set(spreads)) == 4
    assert spreads[0] == pytest.approx(SPREAD * math.sqrt(72 - 2), abs=SPREAD)
    assert _position("manhattan", (), 10).margin_spread() == MARGIN_SPREAD  # the default

