"""Helpers of the browser tests (the fixtures are in ``conftest``)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUT = Path(__file__).resolve().parent.parent.parent / "test-output" / "browser"
PHONE = {"width": 390, "height": 844}
XSS = "<script>alert(1)</script>"


def store(server: str, log: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{server}/api/games", data=json.dumps(log).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body: dict[str, Any] = json.loads(response.read())
    return body


def current_move(pg: Any) -> str:
    text: str = pg.locator("#moves a.current").get_attribute("data-move")
    return text


def scored_move(log: dict[str, Any], after: int = 0) -> tuple[int, int]:
    """A move after move ``after`` that scores a feature during play, with points:
    (position, event index)."""
    from replay.core.events import Score
    from replay.core.playback import play_through
    from replay.core.record import parse

    record = play_through(parse(log))
    for k, events in enumerate(record.events):
        for i, e in enumerate(events):
            if isinstance(e, Score) and e.phase == "play" and e.points and e.winners \
                    and k > after:
                return k + 1, i
    raise AssertionError("no scoring move")
