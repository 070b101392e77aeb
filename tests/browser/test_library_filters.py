"""The library's game and expansion selects (issue 31, item 1): chosen, sent, kept by the
sort links, and the filter form still fits a phone."""

from __future__ import annotations

from typing import Any

import pytest

from replay.generate import generate_log

from .support import CHROMIUM, OUT, PHONE, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


@pytest.fixture(scope="module")
def stored(server: str) -> dict[str, str]:
    logs = {"base": generate_log("base", 2, 11),
            "ic": generate_log("base", 3, 12, expansions=["inns-cathedrals"]),
            "hg": generate_log("hunters-gatherers", 2, 13)}
    return {name: store(server, log)["id"] for name, log in logs.items()}


def test_the_library_filters_by_game_and_expansion(server: str, page: Any,
                                                   stored: dict[str, str]) -> None:
    page.goto(f"{server}/games")
    expect(page.locator("table.library tbody tr")).to_have_count(3)
    page.select_option("select[name=game]", "base")
    page.select_option("select[name=expansion]", "inns-cathedrals")
    page.click(".filters button[type=submit]")
    expect(page.locator("table.library tbody tr")).to_have_count(1)
    expect(page.locator(".count")).to_contain_text("1 game of Carcassonne with Inns")
    expect(page.locator(f"a[href='/games/{stored['ic']}']")).to_be_visible()
    expect(page.locator("select[name=game]")).to_have_value("base")
    page.click("table.library th a:has-text('Moves')")
    expect(page.locator("table.library tbody tr")).to_have_count(1)  # the sort keeps them
    assert "expansion=inns-cathedrals" in page.url
    page.screenshot(path=str(OUT / "library-filters.png"))


def test_the_filters_fit_a_phone(server: str, phone: Any, stored: dict[str, str]) -> None:
    phone.goto(f"{server}/games?game=hunters-gatherers")
    expect(phone.locator("table.library tbody tr")).to_have_count(1)
    form = phone.locator("form.filters").bounding_box()
    assert form is not None and form["x"] + form["width"] <= PHONE["width"]
    phone.screenshot(path=str(OUT / "library-filters-phone.png"), full_page=True)
