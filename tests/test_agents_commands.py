"""``python -m replay play`` and ``arena`` (issue 37 items 3 and 5), the statistics behind
the arena's report (``replay.agents.stats``) and the agent specs (``replay.agents.agent``).

Fast: ``random`` and ``greedy`` (a game of 71 moves in a fraction of a second), ``mcts`` with
5 simulations and one determinization at most, a few games each."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from replay.agents import AgentSpecError, agent, agents
from replay.agents.mcts import PARAMS
from replay.agents.stats import (
    SPRT_BOUNDS,
    _closest,
    elo,
    expected,
    sprt_llr,
    sprt_verdict,
    wilson,
)
from replay.cli import main
from replay.core.verify import verify

from .support import ROOT


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``python -m replay ARGS`` (argparse's refusals too)."""
    try:
        code = main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- play


def test_play_writes_a_log_that_verify_passes(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    code, out, err = _cli(["play", "--agents", "greedy,random", "--seed", "3",
                           "--out", str(path)], capsys)
    assert code == 0, err
    assert out == ""
    report = verify(str(path))
    assert report.exit_code == 0, report.line()
    log = json.loads(path.read_text(encoding="utf-8"))
    assert log["meta"]["agents"] == "greedy,random"
    assert log["seed"] == 3
    assert len(log["players"]) == 2
    # the line on stderr says the result the log claims
    winner = log["claims"]["winners"][0]
    assert f"{winner} won" in err and "(greedy)" in err and "(random)" in err


def test_one_spec_plays_every_seat_and_mcts_plays_a_valid_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(["play", "--agents", "mcts:5:dets=1", "--players", "3",
                           "--seed", "1"], capsys)
    assert code == 0, err
    log = json.loads(out)
    assert log["meta"]["agents"] == "mcts:5:dets=1,mcts:5:dets=1,mcts:5:dets=1"
    path = tmp_path / "g.json"
    path.write_text(out, encoding="utf-8")
    assert verify(str(path)).exit_code == 0


def test_play_takes_rule_options_and_expansions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(["play", "--agents", "greedy", "--seed", "2", "--small-city", "4",
                           "--expansions", "inns-cathedrals"], capsys)
    assert code == 0, err
    log = json.loads(out)
    assert log["options"]["small_city"] == 4
    assert log["expansions"] == ["inns-cathedrals"]


def test_generate_checks_the_options_as_play_does(capsys: pytest.CaptureFixture[str]) -> None:
    """``cli.game_options`` is shared: generate refuses what play refuses, in its own name."""
    for command in (["generate"], ["play", "--agents", "random"]):
        code, out, err = _cli([*command, "--game", "manhattan", "--small-city", "4"], capsys)
        assert code == 2 and out == ""
        assert err == f"{command[0]}: --small-city is not an option of Manhattan\n"
        code, _, err = _cli([*command, "--players", "6"], capsys)
        assert code == 2 and "a 6th player needs" in err, err


def _play_in_a_process(hash_seed: str) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-m", "replay", "play", "--agents",
                           "mcts:5:dets=1,greedy", "--seed", "11"], capture_output=True,
                          cwd=ROOT, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_same_seed_and_specs_give_the_same_bytes_under_any_hash_seed(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, here, err = _cli(["play", "--agents", "mcts:5:dets=1,greedy", "--seed", "11"], capsys)
    assert code == 0, err
    assert _play_in_a_process("0") == here.encode("utf-8")
    assert _play_in_a_process("4242") == here.encode("utf-8")
    code, other, _ = _cli(["play", "--agents", "mcts:5:dets=1,greedy", "--seed", "12"], capsys)
    assert other != here  # the seed matters: the test could fail


# --------------------------------------------------------------------------- arena


def _arena(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    code, out, err = _cli(["arena", "--a", "greedy", "--b", "random", "--format", "json",
                           *args], capsys)
    assert code == 0, err
    assert out.count("\n") == 1  # one object
    report: dict[str, object] = json.loads(out)
    return report


def test_arena_counts_add_up_and_do_not_depend_on_jobs(
        capsys: pytest.CaptureFixture[str]) -> None:
    one = _arena(capsys, "--games", "6", "--seed", "5", "--jobs", "1")
    two = _arena(capsys, "--games", "6", "--seed", "5", "--jobs", "2")
    assert one == two
    assert one["games"] == one["games_asked"] == 6
    assert one["wins"] + one["ties"] + one["losses"] == 6  # type: ignore[operator]
    seats = one["seats"]
    assert isinstance(seats, list)
    assert [s["seat"] for s in seats] == [1, 2]
    assert [s["games"] for s in seats] == [3, 3]  # the seats alternate
    assert one["mean_length"] == 71.0  # a 2-player base game: 71 tiles after the start
    assert one["sprt"] is None


def test_an_arena_of_three_seats_says_what_an_even_score_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    report = _arena(capsys, "--games", "3", "--players", "3", "--jobs", "1")
    seats = report["seats"]
    assert isinstance(seats, list) and [s["games"] for s in seats] == [1, 1, 1]
    assert report["even_score"] == pytest.approx(1 / 3, abs=1e-6)
    code, text, _ = _cli(["arena", "--a", "greedy", "--b", "random", "--games", "1",
                          "--players", "3", "--jobs", "1"], capsys)
    assert "as strong as the others scores 33.3 %" in text


def test_arena_numbers_are_the_statistics_of_its_counts(
        capsys: pytest.CaptureFixture[str]) -> None:
    # random against random: some wins and some losses, so every number is finite
    code, out, err = _cli(["arena", "--a", "random", "--b", "random", "--games", "8",
                           "--seed", "1", "--jobs", "1", "--format", "json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    w, t, n = report["wins"], report["ties"], report["games"]
    assert 0 < w + t / 2 < n, report  # else pick another seed: the check needs both kinds
    low, high = wilson(w + t / 2, n)
    assert report["score"] == pytest.approx((w + t / 2) / n, abs=1e-6)
    assert report["score_interval"] == pytest.approx([low, high], abs=1e-6)
    assert report["elo"] == pytest.approx(elo((w + t / 2) / n), abs=0.05)
    assert report["elo_interval"] == pytest.approx([elo(low), elo(high)], abs=0.05)
    for seat in report["seats"]:
        points = seat["score"] * seat["games"]
        assert seat["interval"] == pytest.approx(list(wilson(points, seat["games"])), abs=1e-5)
    # the text says the same figures
    code, text, _ = _cli(["arena", "--a", "random", "--b", "random", "--games", "8",
                          "--seed", "1", "--jobs", "1"], capsys)
    assert f"{n} games: a won {w}, tied {t}, lost {report['losses']}" in text
    assert f"{100 * low:.1f} % to {100 * high:.1f} %" in text
    assert f"Elo a-b: {elo((w + t / 2) / n):+.0f}" in text


def test_sprt_stops_early_at_its_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    """greedy wins nearly every base game against random: H1 (200 Elo better than 0) after
    a few games of 200, at the same game with --jobs 2 (games under way past the verdict are
    not counted) and with --jobs 1."""
    report = _arena(capsys, "--games", "200", "--sprt", "0,200", "--jobs", "2")
    sprt = report["sprt"]
    assert isinstance(sprt, dict)
    assert sprt["verdict"] == "H1"
    n, w, t, loss = (report[k] for k in ("games", "wins", "ties", "losses"))
    assert isinstance(n, int) and isinstance(w, int) and isinstance(t, int)
    assert isinstance(loss, int) and 5 <= n <= 20
    assert sprt["llr"] == pytest.approx(sprt_llr(w, t, loss, 0, 200), abs=1e-6)
    assert sprt["llr"] >= SPRT_BOUNDS[1]
    # the game before did not decide yet: it stopped at the first verdict
    before = (w - 1, t, loss) if w else (w, t - 1, loss)
    assert sprt_verdict(sprt_llr(*before, 0, 200)) is None
    code, text, _ = _cli(["arena", "--a", "greedy", "--b", "random", "--games", "200",
                          "--sprt", "0,200", "--jobs", "1"], capsys)
    assert code == 0
    assert f"{n} games: a won {w}, tied {t}, lost {loss}" in text
    assert f"SPRT Elo 0 against 200: H1 accepted after {n} games" in text


@pytest.mark.parametrize(("args", "named"), [
    (["play", "--agents", "mcts:x"], "'mcts:x': sims='x'"),
    (["play", "--agents", "mcts:sims=0"], "sims='0'"),
    (["play", "--agents", "foo"], "'foo' is not an agent"),
    (["play", "--agents", ""], "give agents separated by commas"),
    (["play", "--agents", "greedy,,random"], "give agents separated by commas"),
    (["play", "--agents", "greedy,random,greedy", "--players", "2"], "3 agents for 2 players"),
    (["play", "--agents", "greedy", "--players", "9"], "--players: 9 is not from 2 to 6"),
    (["play", "--agents", "greedy", "--game", "nope"], "no game 'nope'"),
    (["play", "--agents", "greedy", "--return-timing", "immediate"], "--return-timing is not "
     "an option"),
    (["play", "--agents", "greedy", "--out", "/nonexistent-dir/g.json"], "cannot write"),
    (["arena", "--a", "mcts:x", "--b", "random"], "'mcts:x'"),
    (["arena", "--a", "greedy", "--b", "mcts:sims=0"], "sims='0'"),
    (["arena", "--a", "foo", "--b", "random"], "'foo' is not an agent"),
    (["arena", "--a", "greedy", "--b", "random", "--games", "0"], "--games: 0 is not from 1"),
    (["arena", "--a", "greedy", "--b", "random", "--games", "10000000"], "--games: 10000000"),
    (["arena", "--a", "greedy", "--b", "random", "--players", "9"], "--players: 9"),
    (["arena", "--a", "greedy", "--b", "random", "--sprt", "5"], "--sprt: '5': give two Elo"),
    (["arena", "--a", "greedy", "--b", "random", "--sprt", "a,b"], "'a' is not a number"),
    (["arena", "--a", "greedy", "--b", "random", "--sprt", "50,0"], "ELO0 must be below"),
    (["arena", "--a", "greedy", "--b", "random", "--sprt", "nan,1"], "'nan': give an Elo"),
    (["arena", "--a", "greedy"], "required: --b"),
])
def test_hostile_arguments_exit_2_naming_the_problem(
        args: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(args, capsys)
    assert code == 2, (args, err)
    assert named in err, err
    assert "Traceback" not in err and out == ""


# --------------------------------------------------------------------------- stats


def test_wilson_intervals_of_known_rates() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0  # exactly: Elo +-inf
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(7.5, 10)  # a tie counts half
    assert low < 0.75 < high


def test_elo_of_a_score_and_back() -> None:
    assert elo(0.75) == pytest.approx(190.8485, abs=1e-3)
    assert elo(0.5) == 0.0
    assert elo(0.25) == pytest.approx(-190.8485, abs=1e-3)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    for d in (-400.0, -35.5, 0.0, 100.0, 800.0):
        assert elo(expected(d)) == pytest.approx(d, abs=1e-9)


def test_sprt_bounds_and_verdicts() -> None:
    low, high = SPRT_BOUNDS
    assert low == pytest.approx(-2.944439, abs=1e-6) and high == pytest.approx(2.944439, abs=1e-6)
    assert sprt_verdict(3.0) == "H1" and sprt_verdict(-3.0) == "H0"
    assert sprt_verdict(2.9) is None and sprt_verdict(-2.9) is None
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0


def test_sprt_of_a_clean_sweep_decides() -> None:
    """Every game won: each win is worth ln(s1/s0) (no tie or loss seen), so H1 of 100 Elo
    against 0 after 12 wins; every game lost: H0. (The normal approximation had no variance
    here and never decided.)"""
    per_win = math.log(expected(100) / expected(0))
    assert sprt_llr(1, 0, 0, 0, 100) == pytest.approx(per_win, rel=0.01)
    assert sprt_verdict(sprt_llr(11, 0, 0, 0, 100)) is None
    assert sprt_verdict(sprt_llr(12, 0, 0, 0, 100)) == "H1"
    assert sprt_verdict(sprt_llr(0, 0, 12, 0, 100)) == "H0"


def test_sprt_is_symmetric_and_near_its_normal_approximation_on_many_games() -> None:
    for w, t, loss in ((600, 100, 300), (300, 400, 300), (50, 10, 40)):
        llr = sprt_llr(w, t, loss, 0, 50)
        # a's losses are b's wins: b's H1 (Elo 0 over a) is a's H0, b's H0 a's H1
        assert sprt_llr(loss, t, w, -50, 0) == pytest.approx(-llr, abs=1e-6)
        n = w + t + loss
        score = (w + t / 2) / n
        var = (w + t / 4) / n - score * score
        s0, s1 = expected(0), expected(50)
        normal = (s1 - s0) * (2 * score - s0 - s1) / (2 * var / n)
        assert llr == pytest.approx(normal, rel=0.1)
    assert sprt_llr(600, 100, 300, 0, 50) > SPRT_BOUNDS[1]
    assert sprt_llr(300, 400, 300, 0, 50) < SPRT_BOUNDS[0]


def test_the_most_likely_distribution_has_the_score_asked() -> None:
    pdf = [(0.0, 0.2), (0.5, 0.3), (1.0, 0.5)]
    for score in (0.1, 0.4, 0.65, 0.99):
        q = _closest(pdf, score)
        assert sum(q) == pytest.approx(1.0, abs=1e-9)
        assert sum(a * p for (a, _), p in zip(pdf, q, strict=True)) == pytest.approx(score,
                                                                                    abs=1e-9)
        assert all(p > 0 for p in q)


# --------------------------------------------------------------------------- specs


def test_agent_specs_defaults_and_round_trip() -> None:
    mcts = agent("mcts")
    assert mcts.spec == "mcts"
    assert vars(mcts) == {**{name: default for name, _, default, _ in PARAMS}, "spec": "mcts"}
    assert (mcts.sims, mcts.dets) == (500, 3)  # type: ignore[attr-defined]  # meeple_cat's
    assert agent("mcts:800:dets=4").spec == "mcts:800:dets=4"
    assert agent(agent("mcts:800:dets=4").spec).spec == "mcts:800:dets=4"
    assert agent("mcts:sims=800:dets=4").spec == "mcts:800:dets=4"  # one agent, one spec
    assert agent("mcts:500:dets=3").spec == "mcts"  # the defaults are left out
    assert agent("mcts:100:c=1.5").spec == "mcts:100:c=1.5"
    assert agent(" greedy ").spec == "greedy" and agent("random").spec == "random"
    assert [a.spec for a in agents("mcts:800, greedy,random")] == ["mcts:800", "greedy",
                                                                    "random"]


@pytest.mark.parametrize(("spec", "named"), [
    ("foo", "'foo' is not an agent"),
    ("", "is not an agent"),
    ("greedy:3", "greedy takes at most 0 positional parameters"),
    ("mcts:x", "sims='x'"),
    ("mcts:sims=0", "a whole number from 1"),
    ("mcts:dets=65", "dets='65'"),
    ("mcts:c=nan", "c='nan'"),
    ("mcts:speed=3", "mcts has no parameter 'speed'"),
    (":".join(["mcts", *"1" * (len(PARAMS) + 1)]),
     f"at most {len(PARAMS)} positional parameters"),
])
def test_bad_agent_specs_say_what_is_wrong(spec: str, named: str) -> None:
    with pytest.raises(AgentSpecError, match=None) as caught:
        agent(spec)
    assert named in str(caught.value), str(caught.value)


def test_bad_agent_lists_say_what_is_wrong() -> None:
    with pytest.raises(AgentSpecError, match="separated by commas"):
        agents("greedy,,random")
    with pytest.raises(AgentSpecError, match="at most 6 agents"):
        agents(",".join(["random"] * 7))
