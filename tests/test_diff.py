"""``python -m replay diff`` (issue 28): a corpus under two rule sets reports exactly the games
whose verified scores differ when the option is changed by hand; against an earlier engine's
audit report it finds the first move a deliberately changed rule touches; its formats; a
game made illegal under one side; bad arguments; the same report on 1 or 2 workers."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from replay.audit import audit
from replay.cli import main
from replay.core.events import Score
from replay.core.record import parse
from replay.core.verify import verify
from replay.generate import dumps, generate_log
from replay.lab.diff import DiffSpec
from replay.lab.diff_report import row_line, side_words, t975
from replay.lab.diff_run import diff

from .support import ROOT

GAMES = 24  # base games, 2-4 players
A, B = {"small_city": 2}, {"small_city": 4}
TIMINGS = ("seconds", "games_per_second")
HOSTILE = "<b>x&y.json"


def _log(k: int) -> dict[str, Any]:
    return generate_log("base", 2 + k % 3, 100 + k)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("diff")
    logs = {f"base-{k:02}.json": _log(k) for k in range(GAMES)}
    d = root / "games"
    d.mkdir()
    for name, log in logs.items():
        (d / name).write_text(dumps(log), encoding="utf-8")
    return {"root": root, "dir": d, "logs": logs}


def run_diff(sources: list[str], **kw: Any) -> tuple[list[dict[str, Any]], dict[str, Any], int]:
    """The JSON Lines report of an in-process diff: its rows, its summary, its exit code."""
    out = io.StringIO()
    kw.setdefault("spec", DiffSpec(A, B))
    summary = diff(sources, out, fmt="json", progress=False, **kw)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "summary" in lines[-1] and all("summary" not in x for x in lines[:-1])
    return lines[:-1], lines[-1]["summary"], summary.exit


@pytest.fixture(scope="module")
def two_workers(corpus: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any], int]:
    return run_diff([str(corpus["dir"])], jobs=2)


def _by_hand(log: dict[str, Any], value: int) -> dict[str, int]:
    """The verified final scores of ``log`` with its header's small_city set to ``value``."""
    edited = {k: v for k, v in log.items() if k != "claims"}
    edited["options"] = {**log.get("options", {}), "small_city": value}
    report = verify(edited)
    assert report.valid, report.line()
    return report.final_scores


def test_small_city_changes_exactly_the_games_whose_verified_scores_differ(
        corpus: dict[str, Any], two_workers: Any) -> None:
    rows, summary, code = two_workers
    by_name = {Path(r["source"]).name: r for r in rows}
    assert sorted(by_name) == sorted(corpus["logs"])
    expected = set()
    for name, log in corpus["logs"].items():
        a, b = _by_hand(log, 2), _by_hand(log, 4)
        row = by_name[name]
        assert row["status"] == "compared"
        assert (row["final_scores_a"], row["final_scores_b"]) == (a, b), name
        if a != b:
            expected.add(name)
    changed = {n for n, r in by_name.items() if r["changed"]}
    assert changed == expected and 0 < len(expected) < GAMES  # some change, some do not
    for name in changed:
        row = by_name[name]
        there = row["divergence"]
        k = row["first_divergence"]
        assert isinstance(k, int) and 1 <= k <= row["moves"]
        # the first difference is a small city: 2 points under A, 4 under B
        city_a = [e for e in there["a"]["events"] if e["type"] == "score"]
        city_b = [e for e in there["b"]["events"] if e["type"] == "score"]
        assert [(e["feature"], e["points"]) for e in city_b if e not in city_a] == [("city", 4)]
        assert [(e["feature"], e["points"]) for e in city_a if e not in city_b] == [("city", 2)]
    assert summary["games"] == GAMES and summary["changed"] == len(expected)
    assert summary["compared"] == GAMES and code == 1
    seat1 = summary["score_change"]["per_seat"]["1"]
    lo, hi = seat1["ci95"]
    assert seat1["n"] == GAMES and lo <= seat1["mean"] <= hi and seat1["mean"] >= 0
    city = summary["score_change"]["per_kind"]["city"]
    assert city["mean"] > 0 and city["n"] == GAMES
    assert summary["score_change"]["per_kind"]["road"]["mean"] == 0


def test_the_same_report_on_one_worker(corpus: dict[str, Any], two_workers: Any) -> None:
    rows, summary, code = run_diff([str(corpus["dir"])], jobs=1)
    rows2, summary2, code2 = two_workers
    assert rows == rows2 and code == code2
    assert {k: v for k, v in summary.items() if k not in TIMINGS} == \
        {k: v for k, v in summary2.items() if k not in TIMINGS}


def test_the_t_quantile() -> None:
    assert t975(1) == pytest.approx(12.706, abs=1e-3)
    assert t975(30) == pytest.approx(2.0423, abs=1e-4)
    assert t975(40) == pytest.approx(2.0211, abs=1e-4)
    assert t975(120) == pytest.approx(1.9799, abs=1e-4)
    assert t975(10**6) == pytest.approx(1.95997, abs=1e-4)


# ------------------------------------------------------------------ an engine changed

PATCH = '''
import os
if os.environ.get("REPLAY_DIFF_TEST_PATCH") == "road":
    from replay.games.carcassonne import scoring

    _points = scoring.completed_points

    def completed_points(game, feat):
        points, detail, rule = _points(game, feat)
        if feat.type == "road":  # the deliberate change: a completed road scores 1 more
            return points + 1, detail + " + 1 (patched)", rule
        return points, detail, rule

    scoring.completed_points = completed_points
'''


def _first_road(log: dict[str, Any]) -> int | None:
    """The number of the first move where a completed road scores for someone."""
    played = parse(log).playback
    for k, events in enumerate(played.events, 1):
        if any(type(e) is Score and e.feature == "road" and e.phase == "play" and e.winners
               for e in events):
            return k
    return None


def test_baseline_finds_the_first_move_a_changed_rule_touches(corpus: dict[str, Any],
                                                              tmp_path: Path) -> None:
    names = sorted(corpus["logs"])[:6]
    src = tmp_path / "games"
    src.mkdir()
    for name in names:
        (src / name).write_text(dumps(corpus["logs"][name]), encoding="utf-8")
    report = tmp_path / "before.jsonl"
    with report.open("w", encoding="utf-8") as fh:
        audit([str(src)], fh, "json", jobs=1, progress=False)
    patch = tmp_path / "patch"
    patch.mkdir()
    (patch / "sitecustomize.py").write_text(PATCH, encoding="utf-8")
    # the compiled engine off (REPLAY_PURE): the patched function is the one that runs
    env = {**os.environ, "REPLAY_PURE": "1", "REPLAY_DIFF_TEST_PATCH": "road",
           "PYTHONPATH": os.pathsep.join([str(patch), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "replay", "diff", str(src), "--baseline",
                           str(report), "--format", "json", "--jobs", "1"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    rows = {Path(r["source"]).name: r for r in lines[:-1]}
    assert sorted(rows) == names, done.stderr
    touched = 0
    for name in names:
        row, first = rows[name], _first_road(corpus["logs"][name])
        assert row["status"] == "compared"
        assert row["changed"] == (first is not None), name
        assert row["first_divergence"] == first, name
        if first is None:
            continue
        touched += 1
        there = row["divergence"]
        assert there["a"]["hash"] != there["b"]["hash"]
        assert any("(patched)" in e.get("detail", "") for e in there["b"]["events"])
        assert row["refusal_b"]["rule"] == "L2"  # the log's claimed scores are wrong now
    assert touched and done.returncode == 1, done.stderr
    assert lines[-1]["summary"]["changed"] == touched


# ------------------------------------------------------------------ formats, refusals


@pytest.fixture(scope="module")
def small(corpus: dict[str, Any]) -> Path:
    """Three base games (one with a name to escape), a game of another family, junk."""
    d: Path = corpus["root"] / "small"
    d.mkdir()
    logs = corpus["logs"]
    changed = [n for n in sorted(logs) if _by_hand(logs[n], 2) != _by_hand(logs[n], 4)]
    same = [n for n in sorted(logs) if n not in changed]
    (d / HOSTILE).write_text(dumps(logs[changed[0]]), encoding="utf-8")
    (d / "b.json").write_text(dumps(logs[changed[1]]), encoding="utf-8")
    (d / "c.json").write_text(dumps(logs[same[0]]), encoding="utf-8")
    (d / "hg.json").write_text(dumps(generate_log("hunters-gatherers", 2, 3)), encoding="utf-8")
    (d / "junk.json").write_text("{not json", encoding="utf-8")
    return d


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "html"])
def test_formats_show_the_changed_games(small: Path, fmt: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"diff.{fmt}"
    code, _, err = _cli(["diff", str(small), "--a", "small_city=2", "--b", "small_city=4",
                         "--format", fmt, "--out", str(out), "--jobs", "1",
                         "--viewer", "http://127.0.0.1:5000"], capsys)
    assert code == 2  # two games changed, but one is unreadable and one not comparable
    assert "games: 5; compared 3, changed 2" in err
    text = out.read_text(encoding="utf-8")
    hostile, b = str(small / HOSTILE), str(small / "b.json")
    if fmt == "text":
        lines = text.splitlines()
        assert any(x.startswith(f"{hostile}: changed at move ") and "score city 4" in x
                   for x in lines)
        assert any(x.startswith(f"{b}: changed at move ") for x in lines)
        assert not any("c.json" in x for x in lines)
        assert any("hg.json: not comparable: small_city is not an option of" in x
                   for x in lines)
        assert any("junk.json: unreadable" in x for x in lines)
    elif fmt == "json":
        rows = [json.loads(x) for x in text.splitlines()]
        changed = {r["source"] for r in rows[:-1] if r["changed"]}
        assert changed == {hostile, b} and rows[-1]["summary"]["changed"] == 2
    elif fmt == "csv":
        table = list(csv.DictReader(io.StringIO(text)))
        assert {r["source"] for r in table if r["changed"] == "True"} == {hostile, b}
        assert {r["status"] for r in table} == {"compared", "not comparable", "unreadable"}
    else:
        assert text.startswith("<!doctype html>") and "<svg" in text
        assert "&lt;b&gt;x&amp;y.json" in text and "<b>x&y" not in text
        assert 'href="http://127.0.0.1:5000/games/' in text and "/moves/" in text
        assert 'data-key="changed"><b>2</b>' in text


def test_a_game_made_illegal_under_one_side(corpus: dict[str, Any], tmp_path: Path) -> None:
    # played as Hunters & Gatherers (its header fits once the base game's options and tile set
    # are left out), the seeded pile draws another tile than the log's first move names
    log = {k: v for k, v in corpus["logs"]["base-00.json"].items()
           if k not in ("options", "tileset")}
    (tmp_path / "g.json").write_text(dumps(log), encoding="utf-8")
    rows, summary, code = run_diff([str(tmp_path)], jobs=1,
                                   spec=DiffSpec({}, {"game": "hunters-gatherers"}))
    (row,) = rows
    assert row["changed"] and row["first_divergence"] == 1 and code == 1
    refused = row["refusal_b"]
    assert refused["move"] == 1 and refused["rule"] and refused["message"]
    assert row["divergence"]["b"] == {"refusal": refused}
    assert row["refusal_a"] is None and row["winners_a"] and not row["winners_b"]
    assert summary["became_illegal"] == 1
    assert row["divergence"]["a"]["events"][0]["type"] == "place"


def test_a_side_without_the_other_sides_game_end_says_so() -> None:
    """Issue 35, item 3: a board made larger by an option, the move that fills the smaller
    one ends the game under A only; B's words say what it lacks, never "the same events"."""
    drop = {"type": "drop", "column": 4, "row": 6}
    end = {"type": "end", "scores": [0, 0], "winners": []}
    a = {"events": [drop, end], "scores": {"Ada": 0, "Bo": 0}}
    b = {"events": [drop], "scores": {"Ada": 0, "Bo": 0}}
    assert side_words(a, b) == "game end; scores Ada 0, Bo 0"
    assert side_words(b, a) == "no game end; scores Ada 0, Bo 0"
    row = {"source": "g.json", "status": "compared", "changed": True, "first_divergence": 42,
           "divergence": {"player": "Ada", "a": a, "b": b}, "final_scores_a": a["scores"],
           "final_scores_b": b["scores"], "winners_a": [], "winners_b": []}
    line = row_line(row)
    assert "A: game end" in line and "B: no game end" in line
    assert "the same events" not in line
    same = {"events": [drop], "scores": {"Ada": 1}}
    assert side_words(same, dict(same, scores={"Ada": 2})) == "the same events; scores Ada 1"


@pytest.mark.parametrize(("args", "said"), [
    (["--a", "small_city=3"], "'3' is not a value of small_city (choose from 2, 4)"),
    (["--b", "smal_city=4"], "'smal_city' is not an option of any installed game"),
    (["--b", "game=nope"], "this service plays no game 'nope' (it plays base, "),
    (["--a", "small_city"], "give KEY=VALUE"),
    (["--a", "small_city=2", "--a", "small_city=4"], "small_city is given twice"),
    ([], "nothing to compare"),
    (["--a", "small_city=2", "--baseline", "x.jsonl"], "not both"),
    (["--baseline", "missing.jsonl"], "cannot read the baseline report"),
    (["--baseline", "junk.json"], "line 1: not JSON"),
    (["--jobs", "0", "--b", "small_city=4"], "0 is not from 1 to 1024"),
    (["--baseline", "{misshapen}"], 'line 1: "final_scores" is not an object of whole numbers'),
    (["--baseline", "{empty}"], "no game in it"),
])
def test_bad_arguments_exit_2(args: list[str], said: str, small: Path, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(small)
    (tmp_path / "misshapen.jsonl").write_text('{"file": "a.json", "valid": true, '
                                              '"final_scores": [1]}\n', encoding="utf-8")
    (tmp_path / "empty.jsonl").write_text('{"summary": {}}\n', encoding="utf-8")
    args = [a.format(misshapen=tmp_path / "misshapen.jsonl", empty=tmp_path / "empty.jsonl")
            for a in args]
    try:
        code = main(["diff", ".", *args])
    except SystemExit as exc:  # argparse's own refusals
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code == 2 and said in err and not out and "Traceback" not in err


def test_every_option_has_help_with_its_default() -> None:
    from replay.cli_parser import build_parser

    parser = build_parser("diff")
    choices: Any = next(a for a in parser._actions if a.dest == "command").choices
    sub = choices["diff"]
    assert sub.epilog and "examples:" in sub.epilog and "python -m replay diff" in sub.epilog
    for action in sub._actions:
        if action.dest == "help":
            continue
        assert action.help, action.dest
        if action.option_strings:
            assert "default" in action.help, action.dest


# ------------------------------------------------------------------ leaving cleanly (item 5)


def test_a_diff_leaves_no_thread_of_its_pool_behind(corpus: dict[str, Any]) -> None:
    """The worker pool is shut down and waited for before ``diff`` returns: a pool thread
    still running at the interpreter's exit raced ``concurrent.futures``' exit hook ("Exception
    ignored in threading._shutdown", issue 35, item 5)."""
    before = set(threading.enumerate())
    run_diff([str(corpus["dir"])], jobs=2)
    left = [t.name for t in threading.enumerate() if t not in before and t.is_alive()]
    assert left == []


RUNS = 4  # each about a second: the race showed once in some tens of runs; the test above
# holds its cause on every run


def test_diff_exits_with_a_clean_stderr_again_and_again(small: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(RUNS):
        done = subprocess.run(
            [sys.executable, "-m", "replay", "diff", str(small / "b.json"),
             str(small / "c.json"), "--a", "small_city=2", "--b", "small_city=4", "--jobs",
             "2", "--format", "json", "--out", os.devnull],
            capture_output=True, text=True, timeout=120, check=False, env=env)
        assert done.returncode == 1, done.stderr
        noise = [line for line in done.stderr.splitlines()
                 if "compiled engine is stale" not in line and not line.startswith(
                     ("A: ", "games: ", "score change", "points by kind")) and
                 "games/s" not in line]
        assert noise == [], done.stderr
