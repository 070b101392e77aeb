"""``python -m replay analyse`` (issue 37 item 3): a planted blunder marked and the better move
named, the same analysis however it runs, the goldens and imported real games analysed, and
hostile inputs refused with exit 2 and a clear message. Small budgets: the search's quality
is not what is tested here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from replay.agents.analysis import THRESHOLDS, mark
from replay.cli import main
from replay.core.playthrough import log_of, read_playthrough
from replay.core.record import parse, read_game
from replay.generate import dumps, generate_log

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "fixtures" / "golden"
JCZ = ROOT / "fixtures" / "import" / "jcz-mit"
TINY = "mcts:3:dets=1"


def analyse(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]],
                                                                        str]:
    """Run the command in this process with --format jsonl: its exit code, its objects (the
    summary last) and its stderr."""
    code = main(["analyse", *args, "--format", "jsonl"])
    out, err = capsys.readouterr()
    return code, [json.loads(x) for x in out.splitlines()], err


def city_points(state: Any, move: Any, seat: int) -> int:
    """The city points ``move`` scores at once for ``seat`` (its Score events)."""
    return sum(e.points for e in state.copy().apply(move)
               if e.type == "score" and e.feature == "city" and seat in e.winners)


def points(state: Any, move: Any) -> int:
    return sum(e.points for e in state.copy().apply(move) if e.type == "score")


def planted(seed: int) -> tuple[dict[str, Any], int]:
    """A base game (2 players) cut after the first move that scores nothing where another
    legal move completes a city of the mover worth 8 points or more, the position still even
    (the scores, and the figures in hand, which the search values too):
    the log up to that move, and its number (1-based)."""
    log = generate_log("base", 2, seed)
    record = parse(log)
    state = record.new_state()
    for n, move in enumerate(record.moves):
        seat = state.current_player
        even = (state.scores[0] == state.scores[1]
                and state.holding_value(0) == state.holding_value(1))  # figures in hand too
        if n > 4 and even and points(state, move) == 0 and any(
                city_points(state, m, seat) >= 8 for m in state.legal_moves()):
            return {**log, "moves": log["moves"][:n + 1]}, n + 1
        state.apply(move)
    raise AssertionError(f"seed {seed}: no such position")


def test_marks_follow_lichess_thresholds() -> None:
    assert [(m, t) for m, t in THRESHOLDS] == [("blunder", 0.3), ("mistake", 0.2),
                                               ("inaccuracy", 0.1)]
    assert [mark(d) for d in (0.0, 0.0999, 0.1, 0.1999, 0.2, 0.2999, 0.3, 1.0, None)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder",
        None]


def test_a_planted_blunder_is_marked_and_the_city_named_as_best(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # seed 6: the first such position where the city decides who is ahead; at seeds 2 and 4
    # the mover stays ahead (or behind) whatever it plays, so its win chance does not drop
    # (as on lichess, a mark is a drop of the win chance) though the move loses value
    log, number = planted(6)
    path = tmp_path / "planted.json"
    path.write_text(dumps(log), encoding="utf-8")
    code, objs, err = analyse(capsys, str(path), "--agent", "mcts:60:dets=2")
    assert code == 0, err
    positions = [o for o in objs if o.get("kind") == "position"]
    assert [p["move"] for p in positions] == list(range(1, number + 1))
    last = positions[-1]
    assert last["mark"] in ("mistake", "blunder"), last
    assert last["drop"] >= 0.2 and last["loss"] > 0 and not last["played"]["best"]
    record = parse(log)
    state = record.playback.position(number - 1).state
    seat = state.current_player
    assert seat is not None
    best = record.family.decode_move(last["best"]["move"], "")
    assert city_points(state, best, seat) >= 8, last["best"]
    assert points(state, record.moves[-1]) == 0
    assert last["best"]["text"] and "(" in last["best"]["text"]  # in words, with its place
    summary = [o for o in objs if o.get("kind") == "player"]
    mover = summary[seat]
    assert mover[{"mistake": "mistakes", "blunder": "blunders"}[last["mark"]]] >= 1


def _no_time(text: str) -> list[str]:
    """A report's lines without its summary (the only one that says how long it took)."""
    return [x for x in text.splitlines() if not x.startswith(('{"summary"', "1 game", "3 games"))]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three short games: two base games and one Manhattan game, cut after 12 moves."""
    folder = tmp_path_factory.mktemp("corpus")
    for k, (game, seed) in enumerate((("base", 3), ("manhattan", 4), ("base", 5))):
        log = generate_log(game, 2, seed)
        log["moves"] = log["moves"][:12]
        log.pop("claims", None)
        (folder / f"g{k}.json").write_text(dumps(log), encoding="utf-8")
    return folder


def test_the_same_analysis_twice_under_any_hash_seed_and_any_jobs(
        corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for jobs in ("1", "1", "2"):
        code = main(["analyse", str(corpus), "--agent", TINY, "--format", "jsonl", "--jobs",
                     jobs])
        assert code == 0
        runs.append(_no_time(capsys.readouterr().out))
    assert runs[0] == runs[1] == runs[2]
    assert len([x for x in runs[0] if '"kind": "position"' in x]) == 36
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for hash_seed in ("1", "987"):
        done = subprocess.run([sys.executable, "-m", "replay", "analyse", str(corpus),
                               "--agent", TINY, "--format", "jsonl"],
                              capture_output=True, text=True, timeout=120, check=False,
                              env={**env, "PYTHONHASHSEED": hash_seed})
        assert done.returncode == 0, done.stderr
        assert _no_time(done.stdout) == runs[0]


def test_text_and_html_reports(corpus: Path, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["analyse", str(corpus / "g0.json"), "--agent", TINY])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith(f"{corpus / 'g0.json'}: Carcassonne, ") and "12 moves" in out[0]
    assert out[1].lstrip().startswith("1. ") and "played" in out[1]
    assert any(" = best" in x or "; best " in x for x in out[1:13])
    assert [x.split(":")[0].strip() for x in out[13:15]] == ["Ada", "Ben"]
    assert "average loss" in out[13] and out[15].startswith("1 game (analysed 1), 12 positions")
    page = tmp_path / "a.html"
    code = main(["analyse", str(corpus / "g0.json"), str(corpus / "g1.json"), "--agent", TINY,
                 "--format", "html", "--out", str(page)])
    assert code == 0
    html = page.read_text(encoding="utf-8")
    assert html.count("<polyline") == 4  # a line per player, per game
    assert 'aria-label="win chance of each player, move by move"' in html
    assert "Manhattan" in html and "average loss" in html


def _positions(objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in objs if o.get("kind") == "position"]


def test_analyse_runs_on_goldens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One golden game of each family, cut after 10 moves (the 6-player one too): every
    position searched, its best move legal there, the win chances summing to 1."""
    names = ("base-2p-seed1", "base-ic-6p-seed5", "hg-3p-seed3", "manhattan-2p-seed1")
    for name in names:
        header, moves = read_playthrough((GOLDEN / f"{name}.txt").read_text(encoding="utf-8"))
        (tmp_path / f"{name}.json").write_text(dumps(log_of(header, moves[:10])),
                                               encoding="utf-8")
    code, objs, err = analyse(capsys, *(str(tmp_path / f"{n}.json") for n in names),
                              "--agent", TINY)
    assert code == 0, err
    games = [o for o in objs if o.get("kind") == "game"]
    assert [g["status"] for g in games] == ["analysed"] * 4
    for name, game in zip(names, games, strict=True):
        record = read_game(tmp_path / f"{name}.json")
        found = [p for p in _positions(objs) if p["game"] == game["game"]]
        assert len(found) == 10 and len(found[0]["win"]) == len(record.players)
        for p in found:
            state = record.playback.position(p["move"] - 1).state
            assert state.is_legal(record.family.decode_move(p["best"]["move"], ""))
            assert sum(p["win"]) == pytest.approx(1, abs=1e-3)
            assert p["played"]["value"] is not None  # the move played is always searched


def test_analyse_runs_on_imported_real_games(capsys: pytest.CaptureFixture[str]) -> None:
    """JCloisterZone saves (table logs: every draw named): each position searched with the
    tile its player drew in hand, so the best move lays that tile."""
    saves = [JCZ / "basic" / "scoring.jcz", JCZ / "hills_and_sheep" / "multi_city_merge.jcz"]
    code, objs, err = analyse(capsys, *map(str, saves), "--agent", TINY)
    assert code == 0, err
    found = _positions(objs)
    assert len(found) >= 10
    for p in found:
        assert p["best"]["move"]["tile"] == p["played"]["move"]["tile"], p


def test_an_illegal_move_is_analysed_up_to(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = generate_log("base", 2, 7)
    log["moves"] = log["moves"][:6]
    log["moves"][4] = {**log["moves"][4], "x": 40, "y": 40}
    log.pop("claims", None)
    path = tmp_path / "bad.json"
    path.write_text(dumps(log), encoding="utf-8")
    code, objs, _ = analyse(capsys, str(path), "--agent", TINY)
    assert code == 1
    assert [p["move"] for p in _positions(objs)] == [1, 2, 3, 4]
    game = objs[0]
    assert game["status"] == "illegal" and game["message"].startswith("move 5 (Ada) is illegal")
    assert "analysed up to it" in game["message"]
    code = main(["analyse", str(path), "--agent", TINY])
    assert code == 1 and "move 5 (Ada) is illegal" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "said"), [
    (["--agent", "nobody"], "is not an agent"),
    (["--agent", "greedy"], "does not search"),
    (["--agent", "mcts:0"], "a whole number from 1"),
    (["--agent", "mcts:ms=100"], "milliseconds"),
    (["--agent", "mcts:100:colour=red"], "no parameter 'colour'"),
    (["--jobs", "0"], "is not from 1"),
    (["--format", "pdf"], "invalid choice"),
    (["--max-bytes", "-3"], "give 1 byte or more"),
])
def test_bad_arguments_exit_2(args: list[str], said: str, corpus: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["analyse", str(corpus / "g0.json"), *args])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_unreadable_logs_exit_2(tmp_path: Path, corpus: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "other.json").write_text('{"format": "something else"}', encoding="utf-8")
    code, objs, err = analyse(capsys, str(tmp_path / "missing.json"),
                              str(tmp_path / "junk.json"), str(tmp_path / "other.json"),
                              str(corpus / "g0.json"), "--agent", TINY)
    assert code == 2 and "Traceback" not in err
    games = [o for o in objs if o.get("kind") == "game"]
    assert [g["status"] for g in games] == ["unreadable"] * 3 + ["analysed"]
    assert games[0]["game"].endswith("missing.json") and "no such file" in games[0]["message"]
    assert "JSON" in games[1]["message"]
    assert objs[-1]["summary"]["games"] == {"analysed": 1, "illegal": 0, "unreadable": 3,
                                            "internal": 0}
    code = main(["analyse", str(corpus / "g0.json"), "--out", str(tmp_path / "no" / "x.txt")])
    assert code == 2 and "cannot write" in capsys.readouterr().err


def test_resume_gives_the_same_report_and_refuses_another_agent(
        corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ckpt = tmp_path / "a.ckpt"
    first = main(["analyse", str(corpus), "--agent", TINY, "--resume", str(ckpt)])
    one = _no_time(capsys.readouterr().out)
    lines = ckpt.read_text(encoding="utf-8").splitlines()
    assert first == 0 and len(lines) == 4  # the header, then a game a line
    ckpt.write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")  # stopped after one game
    again = main(["analyse", str(corpus), "--agent", TINY, "--resume", str(ckpt)])
    assert again == 0 and _no_time(capsys.readouterr().out) == one
    assert len(ckpt.read_text(encoding="utf-8").splitlines()) == 4
    code = main(["analyse", str(corpus), "--agent", "mcts:5", "--resume", str(ckpt)])
    assert code == 2 and "not the checkpoint of an analysis by mcts:5" in \
        capsys.readouterr().err


def test_a_move_written_another_way_is_still_valued(capsys: pytest.CaptureFixture[str]) -> None:
    """A figure at an alias of its segment (``S`` for ``SL``), the sheep tokens a table log's
    move drew (Hills & Sheep, not chosen: ``GameState.decision`` leaves them out): the move
    played is matched to the search's decisions and valued."""
    files = [ROOT / "fixtures" / "rulebook" / "b4-city-pennant.json",
             ROOT / "fixtures" / "expansions" / "hs3-expand-wolf.json"]
    code, objs, err = analyse(capsys, *map(str, files), "--agent", TINY)
    assert code == 0, err
    found = _positions(objs)
    assert len(found) >= 4
    assert all(p["played"]["value"] is not None and p["played"]["visits"] for p in found)
    drew = [p for p in found if "tokens" in p["played"]["move"]]
    assert drew  # (a move that drew sheep tokens among them)


def test_names_are_shown_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A player's name with markup is escaped on the page, and a control character in it is
    written as its escape in the text."""
    log = generate_log("base", 2, 2)
    log["moves"] = log["moves"][:3]
    log.pop("claims", None)
    log["players"][0]["name"] = "<script>alert(1)</script>\x1b[31m"
    path = tmp_path / "named.json"
    path.write_text(dumps(log), encoding="utf-8")
    page = tmp_path / "named.html"
    assert main(["analyse", str(path), "--agent", TINY, "--format", "html", "--out",
                 str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert main(["analyse", str(path), "--agent", TINY]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[31m" in out
