"""The upload page's live check names an illegal move as every surface does (issue 31, item
2): "at move 9 (log entry /moves/8)", read from the report's ``move`` and ``entry``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from replay.generate import dumps, generate_log

from .support import CHROMIUM, OUT, expect

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def test_upload_names_the_illegal_move_from_1(server: str, page: Any) -> None:
    bad = copy.deepcopy(generate_log("base", 2, 1))
    bad["moves"][8]["x"] += 40  # the 9th move, the log entry /moves/8
    page.goto(f"{server}/upload")
    page.fill("#log", dumps(bad))
    feedback = page.locator("#feedback")
    expect(feedback).to_contain_text("Well-formed, but invalid at move 9 (log entry /moves/8)")
    page.screenshot(path=str(OUT / "upload-numbering.png"))
