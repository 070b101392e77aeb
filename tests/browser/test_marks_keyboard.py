"""Told apart without colour and reached by keyboard (issue 35, item 14): the players' marks
on the board and beside their names, legible on a phone once zoomed to a figure's size; the
chart one tab stop (its 100 columns none), the move list reached soon after the buttons;
the analysis board's spots named "legal: ..." or "nothing can be played here: <rule>: ..."
as a screen reader reads them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from replay.core.colours import seat_marks
from replay.generate import generate_log

from .support import CHROMIUM, OUT, PHONE, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "body";
  if (e.closest("#chart svg")) return "chart-column";
  if (e.id === "chart") return "chart";
  if (e.closest("#moves")) return "moves";
  if (e.closest("#controls")) return "controls";
  return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "");
}"""


def tab_stops(pg: Any, until: str, most: int = 250) -> list[str]:
    """What Tab focuses, in order, until an element of kind ``until``."""
    seen: list[str] = []
    for _ in range(most):
        pg.keyboard.press("Tab")
        seen.append(pg.evaluate(FOCUSED))
        if seen[-1] == until:
            break
    return seen


def test_the_chart_is_one_tab_stop_before_the_move_list(server: str, page: Any) -> None:
    log = generate_log("base", 3, 5)
    gid = store(server, log)["id"]
    page.goto(f"{server}/games/{gid}/moves/40")
    assert page.locator("#chart svg a").count() > 70
    stops = tab_stops(page, "moves")
    assert stops[-1] == "moves", stops
    assert "chart-column" not in stops  # before: 72 column stops came first
    assert stops.count("chart") == 1
    assert stops.index("controls") < stops.index("chart")
    assert len(stops) < 40, stops
    expect(page.locator("#chart")).to_have_accessible_name(re.compile("score chart"))
    page.focus("#chart")
    page.keyboard.press("ArrowRight")  # the chart, focused, steps like the page
    expect(page.locator("#viewer")).to_have_attribute("data-move", "41")


def test_spots_are_named_legal_or_why_not(server: str, page: Any) -> None:
    gid = store(server, generate_log("base", 3, 7))["id"]
    page.goto(f"{server}/games/{gid}/moves/9?explore=1")
    # a spot is named by what it touches, its coordinates after (issue 36 item 2)
    legal = page.get_by_role("button", name=re.compile(
        r"^legal: (next to the cloisters? at [^·]+, )?touching [^·]+ · \(-?\d+,-?\d+\), \d+ "
        r"moves?$"))
    refused = page.get_by_role("button", name=re.compile(
        r"^nothing can be played here: [^:]+ · \(-?\d+,-?\d+\): [A-Z]+\d+: .+"))
    assert legal.count() > 0 and refused.count() > 0
    assert legal.count() == page.locator("#board g.spot.legal").count()
    assert refused.count() == page.locator("#board g.spot.illegal").count()
    name = str(refused.first.get_attribute("aria-label"))
    refused.first.focus()  # a refused spot, reached by keyboard, says why
    page.keyboard.press("Enter")
    expect(page.locator("#refusal")).to_be_visible()
    expect(page.locator("#refusal .rule")).to_have_text(name.split(": ")[2])
    page.screenshot(path=str(OUT / "marks-analysis-desktop.png"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_marks_on_the_board_and_beside_the_names(server: str, browser: Any, size: str) -> None:
    log = generate_log("base", 4, 7, ("inns-cathedrals", "hills-sheep"))
    gid = store(server, log)["id"]
    viewport = PHONE if size == "phone" else {"width": 1400, "height": 900}
    context = browser.new_context(viewport=viewport, has_touch=size == "phone",
                                  is_mobile=size == "phone")
    context.set_default_timeout(10_000)
    pg = context.new_page()
    pg.goto(f"{server}/games/{gid}/moves/30")
    marks = seat_marks(p["name"] for p in log["players"])
    on_board = pg.eval_on_selector_all("#board text.mark", "ts => ts.map(t => t.textContent)")
    assert on_board and set(on_board) <= set(marks)
    for m, p in zip(marks, log["players"], strict=True):
        expect(pg.locator(".scores td.swatch .mk").filter(has_text=m)).to_have_count(1)
        expect(pg.locator("h1 .pname").filter(has_text=p["name"]).locator(".mk")) \
            .to_have_text(m)
    # the pointer goes through a mark to its figure, whose tooltip says whose it is
    under = pg.eval_on_selector("#board g.figures text.mark", """t => {
      const r = t.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return hit && hit.getAttribute("class");
    }""")
    assert under is not None and under.startswith("figure"), under
    pg.screenshot(path=str(OUT / f"marks-viewer-{size}.png"))
    if size == "phone":
        # a 6 x 8 board fills the phone's width: two zoom steps make a mark 9 px or more, as
        # tall as the move list's letters; an early board shows them so fitted
        for _ in range(2):
            pg.click("#zoom button[data-zoom=in]")
        heights = pg.eval_on_selector_all(
            "#board text.mark", "ts => ts.map(t => t.getBoundingClientRect().height)")
        assert min(heights) >= 9, heights
        pg.screenshot(path=str(OUT / "marks-viewer-phone-zoomed.png"))
        pg.goto(f"{server}/games/{gid}/moves/6")
        heights = pg.eval_on_selector_all(
            "#board text.mark", "ts => ts.map(t => t.getBoundingClientRect().height)")
        assert heights and min(heights) >= 9, heights
        pg.screenshot(path=str(OUT / "marks-viewer-phone-early.png"))
    context.close()
