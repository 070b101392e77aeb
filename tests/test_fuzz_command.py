"""``python -m replay fuzz`` (issue 28): every built-in family passes with a few games and its
statistics name the states reached; the same seed plays the same run; bad arguments exit 2
with one line; a family installed from another distribution with a deliberately broken rule
(``tests/broken_family.py``, registered through the entry point group
``carcassonne_replay.families`` of a scratch ``dist-info``) fails with exit 1, the invariant
named and the small failing game written as a log that ``verify`` reads.

The runs are in-process (``replay.cli.main``) but for the broken family, which must be found
by a fresh interpreter, and each plays two or three games: cheap."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from replay.cli import main
from replay.core.errors import LogFormatError
from replay.core.family import family

ROOT = Path(__file__).resolve().parent.parent


def fuzz(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    """``python -m replay fuzz WORDS``, in-process: the exit code, stdout and stderr."""
    code = main(["fuzz", *words])
    out, err = capsys.readouterr()
    return code, out, err


def shares(out: str) -> dict[str, float]:
    """The statistics table of a run: the share of games (%) that reached each state."""
    table = out.split("states reached", 1)[1].splitlines()[1:]
    return {line[10:]: float(line[:8].strip().rstrip("%")) for line in table if line.strip()}


@pytest.mark.parametrize(("game", "words", "setup"), [
    ("base", ["--expansions", "inns-cathedrals", "--players", "3", "--option", "small_city=4"],
     "base+inns-cathedrals, 3 players"),
    ("hunters-gatherers", ["--players", "2"], "hunters-gatherers, 2 players"),
    ("manhattan", ["--players", "4"], "4 players, "),
])
def test_fuzz_passes_on_each_built_in_family(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path, game: str, words: list[str],
                                             setup: str) -> None:
    """Two games of each family, pinned, every invariant checked (its own too), the games
    verified again in another process: exit 0, nothing written, the statistics printed."""
    out_dir = tmp_path / "failures"
    code, out, err = fuzz(capsys, "--game", game, *words, "--examples", "2", "--seed", "5",
                          "--replays", "1", "--out", str(out_dir))
    assert code == 0, out + err
    assert out.startswith(f"fuzz {game}: 2 games, seed 5\n")
    assert "every invariant held" in out
    assert "determinism: 1 game verified again in a process with PYTHONHASHSEED=" in out
    table = shares(out)
    assert table["game finished"] == 100.0
    assert table["move played on a copy too"] == 100.0
    assert sum(share for state, share in table.items() if state.startswith(setup)) == 100.0
    assert not out_dir.exists()


def test_the_same_seed_plays_the_same_run(capsys: pytest.CaptureFixture[str]) -> None:
    """``--seed`` makes a run reproducible: the same games, so the same statistics."""
    words = ["--game", "manhattan", "--examples", "3", "--seed", "11", "--replays", "0"]
    first = fuzz(capsys, *words)
    assert first[0] == 0
    assert fuzz(capsys, *words) == first
    assert "determinism" not in first[1]  # --replays 0


def _registry_message(name: str) -> str:
    with pytest.raises(LogFormatError) as refused:
        family(name)
    return refused.value.message


@pytest.mark.parametrize(("words", "said"), [
    (["--game", "chess"], _registry_message("chess")),
    (["--game", "base", "--expansions", "moat"],
     "--expansions: 'moat' is not an expansion of Carcassonne (choose from inns-cathedrals, "
     "hills-sheep)"),
    (["--game", "manhattan", "--expansions", "hills-sheep"],
     "--expansions: Manhattan has no expansions"),
    (["--game", "base", "--expansions", "hills-sheep,hills-sheep"],
     "--expansions: 'hills-sheep,hills-sheep' names an expansion twice"),
    (["--game", "base", "--option", "small_town=4"],
     "--option small_town: not an option of Carcassonne (its options: small_city, "
     "farm_scoring, hill_tiebreak)"),
    (["--game", "base", "--option", "small_city=3"],
     "--option small_city=3: not a value of small_city (choose from 2, 4)"),
    (["--game", "base", "--option", "small_city"],
     "--option 'small_city': give KEY=VALUE, e.g. small_city=4"),
    (["--game", "manhattan", "--option", "small_city=4"],
     "--option small_city: not an option of Manhattan (its options: none)"),
    (["--game", "base", "--expansions", "none", "--option", "hill_tiebreak=count"],
     "--option hill_tiebreak: an option of Hills & Sheep, which --expansions leaves out"),
    (["--game", "base", "--players", "7"],
     "--players 7: 7 players; Carcassonne takes 2 to 6 (B1)"),
    (["--game", "base", "--expansions", "hills-sheep", "--players", "6"],
     "--players 6: 6 players; Carcassonne takes 2 to 5 (a 6th player needs Inns & Cathedrals, "
     "IC1) (B1)"),
    (["--game", "manhattan", "--players", "1"],
     "--players 1: 1 player; Manhattan takes 2 to 4 (M1)"),
])
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                            words: list[str], said: str) -> None:
    code, out, err = fuzz(capsys, *words)
    assert (code, out, err) == (2, "", f"fuzz: {said}\n")


@pytest.mark.parametrize("words", [
    [], ["--game", "base", "--examples", "many"], ["--game", "base", "--examples", "0"],
    ["--game", "base", "--seed", "-1"],
    ["--game", "base", "--players", "two"],
])
def test_malformed_arguments_exit_2_from_the_parser(capsys: pytest.CaptureFixture[str],
                                                    words: list[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["fuzz", *words])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_help_shows_examples_and_the_parser_imports_no_hypothesis(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["fuzz", "--help"])
    assert "examples:\n  python -m replay fuzz --game" in capsys.readouterr().out
    # building the command line (all of it, or verify's alone) imports no hypothesis
    probe = ("import sys; from replay.cli_parser import build_parser; "
             "build_parser('verify'); build_parser(); print(sorted(m for m in sys.modules "
             "if m.split('.')[0] == 'hypothesis' or m.startswith('replay.lab.fuzz_run')))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def scratch_distribution(where: Path) -> dict[str, str]:
    """The environment of a process that finds ``tests/broken_family.py`` installed as the
    distribution ``broken`` (a ``dist-info`` with its entry point, on ``PYTHONPATH``)."""
    info = where / "broken-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[carcassonne_replay.families]\nbroken = tests.broken_family:BROKEN\n", encoding="utf-8")
    path = [str(where), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(path))


def test_a_broken_family_fails_with_the_invariant_and_a_small_log(tmp_path: Path) -> None:
    """The broken family's ``apply`` keeps a refused move counted: exit 1, the invariant and
    the check named, and the failing game (a move, then the illegal move that changed the
    state) written to --out as a log that ``verify`` reads (it says where the move is
    refused)."""
    env = scratch_distribution(tmp_path / "site")
    out_dir = tmp_path / "failures"
    done = subprocess.run(
        [sys.executable, "-m", "replay", "fuzz", "--game", "broken", "--examples", "5",
         "--seed", "3", "--out", str(out_dir)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "FAILED: an invariant does not hold" in out
    assert "but changed the state; an illegal move must leave it untouched" in out
    assert "  check:     Checker.refuse (replay/lab/checker.py:" in out
    assert "Traceback" not in done.stderr
    (log,) = out_dir.iterdir()
    assert f"  log:       {log}\n" in out
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["game"] == "broken" and len(data["moves"]) == 2
    assert "  moves:     2 (move 2, the last of the log, is an illegal move tried" in out
    verified = subprocess.run([sys.executable, "-m", "replay", "verify", str(log)],
                              cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=60, check=False)
    assert verified.returncode == 1, verified.stdout + verified.stderr
    assert "INVALID at move 2" in verified.stdout
    assert verified.stdout.strip() in out  # the run said what verify says


# ------------------------------------------------------------------ shrinking the options


def test_option_values_shrink_simplest_first() -> None:
    """Hypothesis shrinks a drawn option toward its first value: numbers smallest first,
    other values the default first (issue 35, item 6)."""
    from replay.lab.checker import simplest_first

    assert simplest_first(("3x3", "2x2", "4x4"), "3x3") == ("2x2", "3x3", "4x4")
    assert simplest_first(("9x7", "8x7", "7x6"), "9x7") == ("7x6", "8x7", "9x7")
    assert simplest_first((4, 2), 4) == (2, 4)
    assert simplest_first(("per-field", "per-city"), "per-city") == ("per-city", "per-field")
    assert simplest_first(("off", "2", "4"), "2") == ("2", "off", "4")


def test_a_failing_game_shrinks_to_the_simplest_options(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """A family that lists its larger values first (small_city 4 before 2, the other farm
    scoring before its default) and a check that fails on every set-up: the game Hypothesis
    shrinks to has the smallest number and the default, not the first values listed."""
    from replay.core.family import Option
    from replay.lab import fuzz_run
    from replay.lab.checker import Checker
    from replay.lab.fuzz_command import Plan
    from replay.lab.machines import GameMachine

    fam = family("base")
    small, farms, *rest = fam.options
    monkeypatch.setattr(fam, "options", (
        Option(small.key, (4, 2), 2, small.rule, small.help),
        Option(farms.key, ("per-field", "per-city"), "per-city", farms.rule, farms.help), *rest))

    class ThreeMoves(Checker):
        def check_position(self) -> None:
            assert self.state.moves_played < 3, "a game of three moves"

    class Machine(GameMachine):
        CHECKER = ThreeMoves

    for seed in (0, 1, 2):
        plan = Plan(fam, [((), 20)], None, {}, seed, str(tmp_path), 0)
        failure = fuzz_run.play(plan, Machine, (), 20, fuzz_run.Recorder(20, plan))
        assert failure is not None and failure.config is not None
        assert failure.message.startswith("a game of three moves") and len(failure.moves) == 3
        assert len(failure.config.players) == 2
        assert (failure.config.options["small_city"], failure.config.options["farm_scoring"]) \
            == (2, "per-city"), seed
