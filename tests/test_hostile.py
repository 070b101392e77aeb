"""The drill, bounded for CI: hostile input through the command line and the HTTP API.

11,000 inputs in the CI profile (derandomized: the same inputs on every run), ten times more
with ``CARCASSONNE_FUZZ=heavy``: arbitrary JSON and junk bytes (``hostile_documents``),
mutated logs of every family and expansion mix (``mutated_logs``) and mutated foreign files
(``mutated_foreign``: JCloisterZone saves, Board Game Arena logs). The promise checked: no
traceback, the exit codes 0/1/2 of a verdict, HTTP 200/201/400 only, every refusal saying
where (a JSON path), and a stored game whose pages answer.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from replay import cli

from .hostile import hostile_documents, mutated_foreign, mutated_logs

HEAVY = os.environ.get("CARCASSONNE_FUZZ") == "heavy"
SCALE = 10 if HEAVY else 1
DRILL = settings(derandomize=not HEAVY, database=None, deadline=None, print_blob=True,
                 phases=(Phase.explicit, Phase.generate),
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])

# in memory where the machine has it: a file is written per input
WORK = Path(tempfile.mkdtemp(prefix="hostile-", dir="/dev/shm" if os.path.isdir("/dev/shm")
                             else None))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)
# the ``app`` fixture (tests/conftest.py): one database for the drill, in WORK
pytestmark = pytest.mark.app_config(DATABASE=str(WORK / "games.db"), RATE_LIMIT=None)


def verify_cli(data: bytes) -> tuple[int, dict[str, Any]]:
    """``python -m replay verify --json`` on ``data`` (in-process): exit code and report."""
    path = WORK / "log.json"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["verify", "--json", str(path)])
    lines = out.getvalue().split("\n")[:-1]  # not splitlines: a name may hold U+0085
    assert len(lines) == 1, (out.getvalue(), err.getvalue())
    assert "Traceback" not in err.getvalue()
    report: dict[str, Any] = json.loads(lines[0])
    return code, report


def check_cli(data: bytes) -> None:
    code, report = verify_cli(data)
    event(f"exit {code}")
    assert code in (0, 1, 2), report
    if code == 2:
        assert report["error"]["rule"] == "L1" and isinstance(report["error"]["path"], str)
        assert report["error"]["message"]
    elif code == 1:
        assert report["error"]["rule"] and report["error"]["message"]
    else:
        assert report["valid"] is True


# Inputs come in batches of BATCH per example: Hypothesis's own work per example costs more
# than verifying a small input, and the count that matters is of inputs.
BATCH = 5


def batches(inputs: st.SearchStrategy[bytes]) -> st.SearchStrategy[list[bytes]]:
    return st.lists(inputs, min_size=BATCH, max_size=BATCH)


@settings(DRILL, max_examples=2000 * SCALE // BATCH)
@given(batches(hostile_documents()))
def test_cli_survives_hostile_documents(batch: list[bytes]) -> None:
    for data in batch:
        check_cli(data)


@settings(DRILL, max_examples=4000 * SCALE // BATCH)
@given(batches(mutated_logs()))
def test_cli_survives_mutated_logs(batch: list[bytes]) -> None:
    for data in batch:
        check_cli(data)


@settings(DRILL, max_examples=1000 * SCALE // BATCH)
@given(batches(mutated_foreign()))
def test_cli_survives_mutated_foreign_files(batch: list[bytes]) -> None:
    for data in batch:
        check_cli(data)


def check_http(client: FlaskClient, data: bytes, store: bool, look: bool) -> None:
    url = "/api/games" if store else "/api/verify"
    response = client.post(url, data=data, content_type="application/json")
    event(f"POST {url}: {response.status_code}")
    assert response.status_code in (200, 201, 400), response.data[:300]
    body = response.get_json()
    if response.status_code == 400:
        assert isinstance(body["error"]["path"], str) and body["error"]["message"]
        return
    if store and look:
        game = client.get(f"/api/games/{body['id']}")
        assert game.status_code == 200
        page = client.get(f"/games/{body['id']}/moves/{game.get_json()['open_at']}")
        event("stored game viewed")
        assert page.status_code == 200, page.data[:300]


@settings(DRILL, max_examples=1500 * SCALE // BATCH)
@given(batch=batches(hostile_documents()), store=st.booleans())
def test_http_survives_hostile_documents(app: Flask, batch: list[bytes], store: bool) -> None:
    client = app.test_client()
    for data in batch:
        check_http(client, data, store, look=True)


@settings(DRILL, max_examples=2500 * SCALE // BATCH)
@given(batch=batches(mutated_logs()), store=st.booleans(), look=st.integers(0, 3))
def test_http_survives_mutated_logs(app: Flask, batch: list[bytes], store: bool,
                                    look: int) -> None:
    client = app.test_client()
    for k, data in enumerate(batch):
        check_http(client, data, store, look=look == 0 and k == 0)


# ---------------------------------------------------------------------------- found by the drill

def _manhattan_log(count: int = 4, seed: int = 3, **changes: Any) -> dict[str, Any]:
    from replay.generate import generate_log

    log = generate_log("manhattan", count, seed)
    log.update(changes)
    return log


def test_cli_a_manhattan_log_of_five_players_without_colours_is_a_verdict() -> None:
    """ENGINE BUG found by the Manhattan drill (``hostile_documents``-style header): a
    Manhattan log whose five or six players name no colour made ``python -m replay verify``
    exit 3 ("internal error (StopIteration)"): ``replay.core.record.parse`` picks each
    missing colour with ``next(...)`` among the family's colours, and Manhattan has only
    four. The log must be refused with a verdict: M1 (2 to 4 players), as it is when the
    players do name their colours."""
    for n in (5, 6):
        log = _manhattan_log(players=[{"name": f"P{i}"} for i in range(n)])
        del log["deal"], log["claims"]
        code, report = verify_cli(json.dumps(log).encode())
        assert code == 1 and report["error"]["rule"] == "M1", report
        assert f"{n} players" in report["error"]["message"]


def test_http_stores_a_manhattan_log_and_shows_it(app: Flask) -> None:
    """WEB BUG (seen by ``test_http_survives_mutated_logs``, which fails on it): POST
    /api/games answers 500 for every Manhattan log, valid or not, seeded or table:
    ``web.games.summarise`` reads ``move.tile`` of a Manhattan move (``AttributeError:
    'Choose' object has no attribute 'tile'``). A stored Manhattan game must answer like any
    other: 201, then its page."""
    client = app.test_client()
    table = _manhattan_log(3, 47)
    del table["seed"]
    broken = (Path(__file__).resolve().parent.parent / "fixtures" / "invalid"
              / "mh-piece-not-chosen.json").read_bytes()
    for data in (json.dumps(_manhattan_log()).encode(), json.dumps(table).encode(), broken):
        response = client.post("/api/games", data=data, content_type="application/json")
        assert response.status_code in (200, 201), response.data[:300]
        game = client.get(f"/api/games/{response.get_json()['id']}")
        assert game.status_code == 200
        page = client.get(f"/games/{game.get_json()['id']}/moves/{game.get_json()['open_at']}")
        assert page.status_code == 200, page.data[:300]
