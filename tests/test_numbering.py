"""One numbering everywhere (issue 31, item 2): the JSON outputs name a move by its number,
counted from 1, with its log entry as a JSON pointer, and say so (``report_version`` 2).

One game whose 9th move (the log entry ``/moves/8``) is illegal is named move 9 by
``verify --json``, ``POST /api/verify``, ``POST /api/games``, ``GET /api/games/<id>``,
``GET /api/games/<id>/moves/<n>``, the audit's JSON Lines and the diff; a version-1 report
(0-based) is still read by ``diff --baseline`` and ``audit --resume``."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from replay.audit import audit, resume
from replay.cli import main
from replay.core.verify import REPORT_VERSION, move_index, upgrade, verify
from replay.generate import dumps, generate_log
from replay.lab.diff import DiffSpec
from replay.lab.diff_run import diff

INDEX = 8  # the illegal move's index in the log's ``moves``: move 9
NUMBER, ENTRY = INDEX + 1, f"/moves/{INDEX}"


@pytest.fixture(scope="module")
def good_log() -> dict[str, Any]:
    return generate_log("base", 2, 1)


@pytest.fixture(scope="module")
def bad_log(good_log: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(good_log)
    bad["moves"][INDEX]["x"] += 40  # far from every tile: the 9th move is illegal
    return bad


@pytest.fixture
def bad_file(tmp_path: Path, bad_log: dict[str, Any]) -> Path:
    src = tmp_path / "games"
    src.mkdir()
    path = src / "bad.json"
    path.write_text(dumps(bad_log), encoding="utf-8")
    return path


def names_move_9(error: dict[str, Any]) -> None:
    assert error["move"] == NUMBER and error["entry"] == ENTRY, error


def test_verify_json_names_move_9(bad_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--json", str(bad_file)]) == 1
    out = capsys.readouterr().out
    report = json.loads(out)
    assert report["report_version"] == REPORT_VERSION == 2
    names_move_9(report["error"])
    assert report["moves_played"] == INDEX
    main(["verify", str(bad_file)])
    line = capsys.readouterr().out
    assert f"INVALID at move {NUMBER} (" in line and f"log entry {ENTRY})" in line


def test_api_names_move_9(client: FlaskClient, bad_log: dict[str, Any]) -> None:
    body = dumps(bad_log)
    checked = client.post("/api/verify", data=body).get_json()
    assert checked["report_version"] == 2 and checked["valid"] is False
    names_move_9(checked["error"])
    stored = client.post("/api/games", data=body, content_type="application/json").get_json()
    assert stored["report"]["report_version"] == 2
    names_move_9(stored["report"]["error"])
    names_move_9(stored["verdict"])
    assert stored["verdict"]["report_version"] == 2
    assert stored["open_at"] == NUMBER and stored["viewer_url"].endswith(f"/moves/{NUMBER}")
    game = client.get(f"/api/games/{stored['id']}").get_json()
    names_move_9(game["verdict"])
    assert game["verdict"]["report_version"] == 2
    listed = client.get("/api/games").get_json()["games"][0]["verdict"]
    names_move_9(listed)
    position = client.get(f"/api/games/{stored['id']}/moves/{NUMBER}").get_json()
    assert position["move"] == NUMBER  # position 9: the board before the refused move 9
    names_move_9(position["failure"])
    names_move_9(position["verdict"])
    assert position["failure"]["text"].startswith(f"Move {NUMBER} ")
    assert position["played"]["number"] == NUMBER and position["played"]["illegal"]
    earlier = client.get(f"/api/games/{stored['id']}/moves/{INDEX}").get_json()
    assert earlier["failure"] is None and earlier["verdict"]["move"] == NUMBER


def test_audit_json_names_move_9(bad_file: Path) -> None:
    out = io.StringIO()
    audit([str(bad_file.parent)], out, "json", jobs=1, progress=False)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert lines[0]["report_version"] == 2
    names_move_9(lines[0]["error"])
    assert "summary" in lines[1]
    csv_out = io.StringIO()
    audit([str(bad_file.parent)], csv_out, "csv", jobs=1, progress=False)
    header, row = csv_out.getvalue().splitlines()[:2]
    assert row.split(",")[header.split(",").index("move")] == str(NUMBER)


def old_report(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` as version 1 wrote it: the move's 0-based index, no entry, no version."""
    error = {k: v for k, v in report["error"].items() if k != "entry"}
    error["move"] -= 1
    return {**{k: v for k, v in report.items() if k != "report_version"}, "error": error}


def test_version_1_reports_are_read_as_version_2(bad_log: dict[str, Any],
                                                  good_log: dict[str, Any]) -> None:
    now = verify(bad_log, name="g.json").as_json()
    old = old_report(now)
    assert move_index(old) == INDEX == move_index(now)
    assert upgrade(old) == now and upgrade(now) is now
    wrong = copy.deepcopy(good_log)
    names = [p["name"] for p in wrong["players"]]
    wrong["moves"][2]["scores"] = {names[0]: 99, names[1]: 0}  # a wrong claim after move 3
    claimed = verify(wrong, name="g.json").as_json()
    assert claimed["error"]["rule"] == "L2"
    assert claimed["error"]["move"] == 3 and claimed["error"]["entry"] == "/moves/2"
    assert [(c["move"], c["entry"]) for c in claimed["claims"]] == [(3, "/moves/2")]
    v1 = old_report(claimed)
    v1["claims"] = [{**{k: v for k, v in c.items() if k != "entry"}, "move": c["move"] - 1}
                    for c in claimed["claims"]]
    assert upgrade(v1) == claimed
    assert upgrade({"summary": {"games": 1}}) == {"summary": {"games": 1}}


def test_diff_and_resume_read_a_version_1_report(tmp_path: Path, bad_file: Path) -> None:
    now = verify(bad_file, name=str(bad_file)).as_json()
    baseline = tmp_path / "before.jsonl"
    baseline.write_text(json.dumps(old_report(now)) + "\n", encoding="utf-8")
    out = io.StringIO()
    summary = diff([str(bad_file)], out, DiffSpec(baseline=True), "json",
                   baseline=str(baseline), jobs=1, progress=False)
    row = json.loads(out.getvalue().splitlines()[0])
    assert summary.changed == 0 and row["changed"] is False, row
    refusal = row["refusal_a"]
    assert refusal == row["refusal_b"] and refusal["move"] == NUMBER
    assert refusal["entry"] == ENTRY
    # an audit's checkpoint written by version 1: its report is read as version 2
    sources = [str(bad_file)]
    ckpt = tmp_path / "ckpt.jsonl"
    line = {"index": 0, "name": str(bad_file), "move": INDEX, "report": old_report(now)}
    ckpt.write_text(json.dumps(resume.header(sources)) + "\n" + json.dumps(line) + "\n",
                    encoding="utf-8")
    assert resume.load(ckpt, sources)[0]["report"] == now
