"""One verification path: the command line, the web app (upload and API) and the audit give
the same ``verify --json`` report for the same file, whatever the file is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from replay.audit.work import verify_task

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
FILES = [
    FIXTURES / "rulebook" / "b4-city-pennant.json",  # a valid log
    FIXTURES / "invalid" / "edge-mismatch.json",  # an illegal move
    FIXTURES / "invalid" / "wrong-winner-claim.json",  # a wrong claim (L2)
    FIXTURES / "invalid" / "duplicate-names.json",  # a schema error (L1, with a path)
    FIXTURES / "import" / "jcz" / "base-54-end-turn.jcz",  # a JCloisterZone save
    FIXTURES / "import" / "bga" / "finished-2p.json",  # a Board Game Arena log
]


def cli_report(path: Path) -> str:
    """What ``verify --json`` prints for ``path`` (named as given)."""
    out = subprocess.run([sys.executable, "-m", "replay", "verify", "--json", str(path)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode in (0, 1, 2), out.stderr
    return out.stdout.strip()


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_cli_web_and_audit_give_the_same_report(path: Path, app: Flask) -> None:
    printed = cli_report(path)
    report = json.loads(printed)
    assert report["file"] == str(path) and "move_hashes" in report
    # the audit's worker: the report it keeps is the same bytes once printed
    row = verify_task((0, str(path), str(path), None, None))
    assert json.dumps(row["report"], ensure_ascii=False) == printed
    # the web API: verify without storing, and an upload (which keeps the report it stored)
    client = app.test_client()
    body = path.read_bytes()
    answer = client.post(f"/api/verify?name={path}", data=body)
    assert answer.status_code == 200
    assert canonical(answer.get_json()) == canonical(report)
    stored = client.post(f"/api/games?name={path}", data=body)
    if report["error"] is not None and report["error"].get("path") is not None:
        assert stored.status_code == 400  # unreadable: nothing stored, the same error
        assert stored.get_json()["error"]["message"] == report["error"]["message"]
    else:
        assert stored.status_code == 201
        assert canonical(stored.get_json()["report"]) == canonical(report)


def test_move_hashes_let_two_reports_be_compared_move_by_move() -> None:
    report = json.loads(cli_report(FILES[0]))
    hashes = report["move_hashes"]
    assert len(hashes) == 16 * report["moves_played"]
    assert hashes[-16:] == report["state_hash"]
