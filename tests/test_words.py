"""Words for people (issue 13): explanations, the move list and the command line speak in
words, not codes; one move numbering everywhere; the upload page takes one source at a time."""

from __future__ import annotations

import copy
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from replay import svg
from replay.cli import main
from replay.cli_parser import build_parser
from replay.core.events import Score, explanations
from replay.core.record import parse
from replay.core.verify import verify
from replay.generate import dumps, generate_log
from replay.tiles.sets import builtin_tileset
from replay.tiles.tileset import POSITIONS
from web.games import summarise

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("base", 2, 1, ()), ("base", 4, 3, ()), ("base", 3, 5, ("inns-cathedrals", "hills-sheep")),
         ("base", 6, 2, ("inns-cathedrals",)), ("hunters-gatherers", 3, 2, ()),
         ("hunters-gatherers", 4, 8, ())]
ALL_IDS = {t.id for s in ("base-1e", "inns-cathedrals", "hills-sheep", "hunters-gatherers")
           for t in builtin_tileset(s).tiles}
CODE = re.compile(r"(?<![\w/-])(" + "|".join(re.escape(p) for p in POSITIONS) + r")(?![\w-])")


def _codes_in(text: str) -> list[str]:
    """Tile ids and half-side codes standing as words in ``text``."""
    words = {w.rstrip(".") for w in re.findall(r"[\w/!.-]+", text)}
    return sorted(words & ALL_IDS) + CODE.findall(text)


@pytest.mark.parametrize("args", GAMES)
def test_explanations_carry_no_codes(args: tuple[Any, ...]) -> None:
    """No tile id and no half-side code in what a person reads (the JSON keeps them)."""
    record = parse(generate_log(*args))
    players = record.config.players
    kinds = set()
    for events in record.playback.events:
        for kind, text in explanations(events, players):
            kinds.add(kind)
            assert not _codes_in(text), (text, _codes_in(text))
            assert "_id" not in text and "rule HG" not in text
        for e in events:
            if e.type in ("place", "figure"):
                assert set(e.to_json()) <= {"type", "player", "tile", "x", "y", "rotation",
                                            "bonus", "kind", "location", "role", "feature"}
    assert {"place", "figure", "score", "end"} <= kinds


@pytest.mark.parametrize("args", GAMES)
def test_move_list_in_words_with_codes_for_a_tooltip(args: tuple[Any, ...]) -> None:
    record = parse(generate_log(*args))
    summary = summarise(record, record.playback)
    for m, events in zip(summary.moves, record.playback.events, strict=True):
        assert not _codes_in(m.text), m.text
        tile = next(e.tile for e in events if e.type in ("place", "discard"))
        assert m.codes.startswith(f"{tile} ") or m.codes.startswith(f"discard {tile}")


def test_move_list_tells_the_hg_bonus_tile_and_its_figure() -> None:
    for seed in range(2, 12):
        record = parse(generate_log("hunters-gatherers", 3, seed))
        summary = summarise(record, record.playback)
        bonus = [m for m in summary.moves if "bonus tile" in m.text]
        if bonus:
            assert all("bonus HG-" in m.codes for m in bonus)
            return
    pytest.fail("no bonus tile in ten games")


def test_tiles_described() -> None:
    words = {t.id: t.words for t in builtin_tileset("base-1e").tiles}
    assert words["B"] == "a cloister" and words["A"] == "a cloister with a road"
    assert words["D"] == "a city cap with a straight road"
    assert words["X"] == "a crossroads of four roads"
    hg = {t.id: t.words for t in builtin_tileset("hunters-gatherers").tiles}
    assert all(w and "HG" not in w for w in hg.values())


def test_grammar_and_zero_point_lines() -> None:
    players = parse(generate_log("base", 3, 1)).config.players
    one = Score("play", "road", 3, (0,), ((0, 2), (1, 1)), "road: 3 tiles × 1 = 3", "B3", [])
    assert one.majority(players).endswith("Ben (blue) scores nothing")
    two = one._replace(strengths=((0, 2), (1, 1), (2, 1)))
    assert two.majority(players).endswith("Ben (blue) and Cleo (green) score nothing")
    zero = one._replace(points=0, detail="incomplete road with an inn = 0")
    assert explanations([one, zero], players) == [("score", one.explain(players))]


# --------------------------------------------------------------------------- numbering

def test_one_move_numbering_for_cli_render_and_web(tmp_path: Path) -> None:
    """Move N is the N-th move of the log (index N-1); position N is the board after it."""
    log = generate_log("base", 2, 1)
    bad = copy.deepcopy(log)
    bad["moves"][8]["x"] += 40  # the 9th move is illegal
    report = verify(bad, name="g.json")
    assert report.failure is not None and report.failure.move == 8  # the engine keeps the index
    assert "INVALID at move 9 (" in report.line() and "log entry /moves/8" in report.line()
    record = parse(bad)
    assert svg.position(record, None).n == 9 == svg.position(record, None).failure.index + 1  # type: ignore[union-attr]
    summary = summarise(record, record.playback)
    assert summary.moves[-1].number == 9 and summary.moves[-1].failed
    good = parse(log)
    after = summarise(good, good.playback)
    assert after.moves[8].number == 9
    assert after.moves[8].codes.startswith(log["moves"][8]["tile"] + " ")
    picture = svg.render(good, 9)
    assert picture == svg.render(good, after.moves[8].number)
    claims = copy.deepcopy(log)
    claims["moves"][8]["scores"] = {"Ada": 999}
    assert "after move 9" in verify(claims, name="c.json").line()


# --------------------------------------------------------------------------- command line

@pytest.mark.parametrize("command", ["verify", "generate", "import", "render", "serve"])
def test_every_option_has_help_with_its_default(command: str) -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]  # type: ignore[union-attr]
    assert sub.epilog and "examples:" in sub.epilog and "python -m replay " + command in sub.epilog
    for action in sub._actions:
        if action.dest == "help":
            continue
        assert action.help, (command, action.dest)
        if action.option_strings:
            assert "default" in action.help, (command, action.dest)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and re.search(r"\d+\.\d+", capsys.readouterr().out)


def test_verify_says_a_summary_after_several_files(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(dumps(generate_log("base", 2, 1)), encoding="utf-8")
    bad = tmp_path / "bad.json"
    log = generate_log("base", 2, 1)
    log["moves"][3]["x"] += 40
    bad.write_text(json.dumps(log), encoding="utf-8")
    assert main(["verify", str(good), str(bad), str(tmp_path / "none.json")]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "3 files: 1 valid, 1 invalid, 1 unreadable"
    assert main(["verify", str(good)]) == 0
    assert "files:" not in capsys.readouterr().out
    assert main(["verify", "--json", str(good), str(good)]) == 0
    captured = capsys.readouterr()
    assert all(json.loads(line) for line in captured.out.splitlines())
    assert "2 files: 2 valid, 0 invalid, 0 unreadable" in captured.err


def test_generate_says_games_in_the_plural(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--count", "2", "--out", str(tmp_path)]) == 0
    assert "wrote 2 games" in capsys.readouterr().err
    assert main(["generate", "--count", "1", "--out", str(tmp_path)]) == 0
    assert "wrote 1 game " in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["generate", "--count", "0"])


def test_paths_are_the_callers_and_unreadable_names_the_path_tried(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "g.json").write_text(dumps(generate_log("base", 2, 1)), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "replay", "verify", "sub/g.json", "gone.json"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert "sub/g.json: valid" in run.stdout
    assert f"cannot read file '{tmp_path / 'gone.json'}'" in run.stdout
    assert "unreadable: /:" not in run.stdout


@pytest.mark.skipif(not any((ROOT / ".venv").glob(".installed-*")),
                    reason="./run needs its set-up .venv")
def test_run_script_keeps_the_callers_directory(tmp_path: Path) -> None:
    (tmp_path / "g.json").write_text(dumps(generate_log("base", 2, 1)), encoding="utf-8")
    run = subprocess.run([str(ROOT / "run"), "verify", "g.json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "g.json: valid" in run.stdout, run.stderr


def test_player_count_error_cites_the_familys_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--game", "hunters-gatherers", "--players", "6"]) == 2
    err = capsys.readouterr().err
    assert "HG1" in err and "B1" not in err and "IC1" not in err


# --------------------------------------------------------------------------- upload page

def test_empty_upload_asks_for_a_file_or_a_log(client: FlaskClient) -> None:
    page = client.post("/upload", data={"log": "  "}).get_data(as_text=True)
    assert "choose a file or paste a log" in page and "not readable" not in page


def test_a_chosen_file_wins_over_pasted_text(client: FlaskClient) -> None:
    text = dumps(generate_log("base", 2, 1))
    data = {"file": (io.BytesIO(text.encode()), "game.json"), "log": "{ not this"}
    r = client.post("/upload", data=data, content_type="multipart/form-data")
    assert r.status_code == 303
    page = client.get("/upload").get_data(as_text=True)
    assert "a chosen file wins" in page and 'id="source-note"' in page
    script = (ROOT / "web" / "static" / "upload.js").read_text(encoding="utf-8")
    assert "the file wins" in script and "choose a file or paste a log" in script
