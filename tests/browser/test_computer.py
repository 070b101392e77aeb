"""Computer analysis in the viewer (issue 37 item 4), in a real browser: asked for with the
panel's button, followed while it runs without a reload, then the win-chance graph (a click on
it jumps to the position), the best move drawn on the board, the mark of the move played; on a
desktop and a phone, Carcassonne and Manhattan."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from replay.generate import generate_log

from .conftest import serving
from .support import CHROMIUM, OUT, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

GAMES = {"base": ("base", 2, 3, ()), "manhattan": ("manhattan", 2, 3, ()),
         "phone": ("base", 2, 5, ())}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with a quick agent (a whole game in a couple of seconds)."""
    with serving({"DATABASE": str(tmp_path_factory.mktemp("computer") / "games.db"),
                  "ANALYSIS_AGENT": "mcts:4:dets=1"}) as url:
        yield url


def _analysed(pg: Any, server: str, name: str, n: int) -> str:
    gid: str = store(server, generate_log(*GAMES[name]))["id"]
    pg.goto(f"{server}/games/{gid}/moves/{n}")
    expect(pg.locator("#board.best-move")).to_have_count(0)
    pg.get_by_role("button", name="Analyse this game").click()
    # the page comes back with the panel following the work, then drawing the result in place
    expect(pg.locator("#computer[data-status=done]")).to_have_count(1, timeout=90_000)
    return gid


@pytest.mark.parametrize("name", ["base", "manhattan"])
def test_the_analysis_is_asked_for_followed_and_drawn(page: Any, server: str,
                                                      name: str) -> None:
    gid = _analysed(page, server, name, 6)
    chart = page.locator("#computer svg.win-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(2)
    expect(page.locator("#computer .computer-best")).to_contain_text("Best move here")
    # the best move drawn on the board as a ghost, visible without any tap
    ghost = page.locator("#board.best-move g.preview").first
    expect(ghost).to_be_visible()
    box = ghost.bounding_box()
    assert box is not None and box["width"] > 5 and box["height"] > 5
    page.locator("#computer").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / f"computer-{name}-desktop.png"))
    # a click on the graph jumps to that position (in place: the panel follows)
    column = chart.locator('a[data-move="12"] rect')
    column.click(force=True)
    expect(page).to_have_url(f"{server}/games/{gid}/moves/12")
    expect(page.locator("#counter b")).to_have_text("12")
    expect(page.locator("#computer .computer-played")).to_contain_text("Move 12")
    expect(page.locator("#board.best-move g.preview").first).to_be_visible()


def test_on_a_phone(phone: Any, server: str) -> None:
    _analysed(phone, server, "phone", 9)
    expect(phone.locator("#computer svg.win-chart")).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # nothing wider than the screen
    phone.locator("#computer").scroll_into_view_if_needed()
    phone.screenshot(path=str(OUT / "computer-base-phone.png"))
