"""The web app under hostile requests: rate limits, odd query numbers, bodies without a length,
logs stored before today's checks. (Real server processes: tests/test_service.py.)"""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay.generate import dumps, generate_log
from web import db as store
from web.games import check

LOG = dumps(generate_log("base", 2, 9)).encode()


pytestmark = pytest.mark.app_config(RATE_LIMIT="3/60")  # the ``app`` of tests/conftest.py


def test_uploads_over_the_rate_limit_get_429_with_retry_after(app: Flask) -> None:
    client = app.test_client()
    codes = [client.post("/api/verify", data=LOG).status_code for _ in range(3)]
    assert codes == [200, 200, 200]
    over = client.post("/api/games", data=LOG)
    assert over.status_code == 429
    assert 1 <= int(over.headers["Retry-After"]) <= 60
    assert over.get_json()["error"]["code"] == 429
    page = client.post("/upload", data={"log": LOG.decode()})
    assert page.status_code == 429 and b"Too many" in page.data
    assert client.get("/api/games").status_code == 200  # reading is never limited
    other = client.post("/api/verify", data=LOG, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other.status_code == 200  # the limit is per client


@pytest.mark.app_config(RATE_LIMIT=None)
def test_the_rate_limit_can_be_off(client: FlaskClient) -> None:
    assert {client.post("/api/verify", data=LOG).status_code for _ in range(80)} == {200}


@pytest.mark.parametrize("query", [
    "/games?page=1e23", "/games?page=100000000000000000000000000", "/games?size=-5&page=-1",
    "/api/games?offset=1e23", "/api/games?offset=100000000000000000000000000",
    "/api/games?limit=99999999999999999999&offset=-3", "/games?page=%F0%9F%8E%B2",
])
def test_odd_numbers_in_the_query_are_clamped(app: Flask, query: str) -> None:
    """D7: ``page=1e23`` and ``offset=1e23`` answered 500."""
    assert app.test_client().get(query).status_code == 200


def test_a_body_without_a_length_is_read_whole_or_refused(app: Flask) -> None:
    """D6 at the WSGI layer (chunked through a real server: tests/test_service.py)."""
    client = app.test_client()
    small = client.post("/api/games", input_stream=io.BytesIO(LOG),
                        environ_overrides={"wsgi.input_terminated": True},
                        headers={"Content-Type": "application/json"})
    assert small.status_code == 201
    assert small.get_json()["verdict"]["valid"] is True
    big = b"{" + b" " * app.config["MAX_CONTENT_LENGTH"] + b"}"
    refused = client.post("/api/games", input_stream=io.BytesIO(big),
                          environ_overrides={"wsgi.input_terminated": True})
    assert refused.status_code == 413


def test_a_stored_log_that_no_longer_reads_shows_why(app: Flask) -> None:
    """D4: a game stored with a lone surrogate answered 500 for ever."""
    bad = json.loads(LOG)
    bad["moves"][2]["tile"] = "\ud800"
    good = check(LOG, 10**7)
    text = json.dumps(bad)
    row = replace(good.row, id="0123456789abcdef", sha256="0" * 64, log=text)
    with app.app_context():
        assert store.insert(store.get_db(), row)
    client = app.test_client()
    page = client.get("/games/0123456789abcdef/moves/0")
    assert page.status_code == 200
    assert b"cannot be read any more" in page.data and b"/moves/2/tile" in page.data
    assert client.get("/api/games/0123456789abcdef").status_code == 200


def test_every_response_says_its_cpu_cost(app: Flask) -> None:
    response = app.test_client().post("/api/verify", data=LOG)
    assert response.headers["Server-Timing"].startswith("cpu;dur=")
    assert float(response.headers["Server-Timing"].split("=")[1]) > 0
