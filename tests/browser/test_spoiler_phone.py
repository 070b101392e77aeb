"""Spoiler-free viewing and the phone layout in a real browser (issue 30, part 3): the
"hide results" switch (remembered), the explanations as a bottom sheet that leaves the board in
sight, the move buttons under the thumb, and Manhattan's round panel legible on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from replay.generate import generate_log

from .support import CHROMIUM, OUT, PHONE, expect, scored_move, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

HIDDEN = """() => {
    const chart = document.querySelector('#chart svg');
    const names = Array.from(document.querySelectorAll('.game-head h1 .pname'));
    return {
      result: document.getElementById('result').innerText,
      bold: names.map(e => [e.classList.contains('winner'), getComputedStyle(e).fontWeight]),
      safe: chart.classList.contains('safe'),
      tips: Array.from(chart.querySelectorAll('a[data-move] title')).map(t => t.textContent),
    };
}"""

PTS = """() => Array.from(document.querySelectorAll('#moves a[data-move] .pts')).map(
    p => [parseInt(p.closest('a').dataset.move, 10),
          getComputedStyle(p).visibility === 'visible' && p.getClientRects().length > 0])"""


def test_spoiler_mode_hides_the_result_until_the_last_move(server: str, page: Any,
                                                           game4: dict[str, Any]) -> None:
    game = store(server, game4)
    base = f"{server}/games/{game['id']}/moves/"
    last = len(game4["moves"])
    page.goto(base + "30")
    switch = page.locator("#spoiler-switch")
    expect(switch).to_have_attribute("aria-checked", "false")
    assert "wins" in page.evaluate(HIDDEN)["result"]
    with page.expect_navigation():  # the server draws the chart for the switch: reloaded
        switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    page.reload()  # remembered; hidden from the first paint (the class is set in <head>)
    assert page.evaluate("document.documentElement.className") == "spoiler"
    seen = page.evaluate(HIDDEN)
    assert "wins" not in seen["result"] and "Final" not in seen["result"]
    assert {w for w, _ in seen["bold"]} == {True, False}
    assert len({b for _, b in seen["bold"]}) == 1  # the winners' names weigh as the others'
    assert seen["safe"]  # the chart of the scores up to here
    assert seen["tips"][31] == "move 31: not reached yet" and "," in seen["tips"][30]
    shown = page.evaluate(PTS)
    assert {m for m, v in shown if v} == {m for m, _ in shown if m <= 30} != set()
    assert last in {m for m, _ in shown}
    page.screenshot(path=str(OUT / "spoiler-on-desktop.png"))
    page.keyboard.press("End")  # the last move: everything again
    page.wait_for_url(base + str(last))
    seen = page.evaluate(HIDDEN)
    assert "wins" in seen["result"] and not seen["safe"]
    assert all(v for _, v in page.evaluate(PTS))
    page.screenshot(path=str(OUT / "spoiler-last-move.png"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(base + str(last - 1))
    assert "wins" not in page.evaluate(HIDDEN)["result"]
    page.goto(f"{server}/games")  # the library keeps the scores to itself too
    expect(page.locator("table.library .players b").first).to_be_hidden()
    page.click("#spoiler-switch")
    expect(page.locator("table.library .players b").first).to_be_visible()


def test_on_a_phone_a_score_line_and_its_feature_are_in_sight_together(
        server: str, phone: Any, game4: dict[str, Any]) -> None:
    game = store(server, game4)
    n, i = scored_move(game4, 20)
    phone.goto(f"{server}/games/{game['id']}/moves/{n}")
    sheet, controls = phone.locator("#events"), phone.locator("#controls")
    bar = controls.bounding_box()
    assert bar["y"] + bar["height"] == PHONE["height"] and bar["y"] > PHONE["height"] * 0.85
    box = sheet.bounding_box()
    assert abs(box["y"] + box["height"] - bar["y"]) <= 1 and box["height"] < PHONE["height"] / 3
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # reading the move list
    expect(phone.locator("#board")).not_to_be_in_viewport()
    line = phone.locator(f'#events li.ev-score[data-ev="{i}"]')
    line.tap()
    feature = phone.locator(f'#board g.hl[data-ev="{i}"]')
    expect(feature).to_have_class("hl hl-play on")
    lit, top = feature.bounding_box(), sheet.bounding_box()["y"]
    assert lit["y"] >= 0 and lit["y"] + lit["height"] <= top, (lit, top)
    expect(line).to_be_in_viewport()
    phone.screenshot(path=str(OUT / "phone-sheet-linked.png"))
    phone.locator("#events .sheet-grip").tap()  # folded: the heading only
    assert sheet.bounding_box()["height"] < 80
    expect(phone.locator('#controls a[aria-label="next move"]')).to_be_in_viewport()
    phone.locator('#controls a[aria-label="next move"]').tap()
    phone.wait_for_url(f"**/moves/{n + 1}")
    assert sheet.bounding_box()["height"] < 80  # stays folded while stepping
    phone.locator("#events .sheet-grip").tap()
    assert sheet.bounding_box()["height"] > 80


def test_manhattan_on_a_phone(server: str, phone: Any) -> None:
    """The round panel's text is 9 px at least with the board fitted to the phone's width; the
    last round's scoring is tinted; the chips of the buildings owned are outlined."""
    log = generate_log("manhattan", 4, 3)
    game = store(server, log)
    phone.goto(f"{server}/games/{game['id']}/moves/{len(log['moves'])}")
    sizes = phone.evaluate("""() => {
        const pic = document.querySelector('#board svg.manhattan-board');
        const scale = pic.getBoundingClientRect().width / pic.viewBox.baseVal.width;
        const texts = Array.from(pic.querySelectorAll('g.panel text'));
        return {scale, width: pic.getBoundingClientRect().width,
                px: Math.min(...texts.map(t => parseFloat(t.getAttribute('font-size')) * scale)),
                box: Math.min(...texts.filter(t => t.textContent.trim())
                                  .map(t => t.getBoundingClientRect().height)),
                tint: Array.from(pic.querySelectorAll('g.hl'))
                           .map(g => parseFloat(getComputedStyle(g).opacity))};
    }""")
    assert sizes["width"] >= PHONE["width"] - 2  # fitted to the width
    assert sizes["px"] >= 9 and sizes["box"] >= 10, sizes
    assert sizes["tint"] and min(sizes["tint"]) > 0.3  # the final scoring, as a round's
    expect(phone.locator("#board g.popup.owned")).to_have_count(4)
    phone.screenshot(path=str(OUT / "manhattan-phone-final.png"))
    phone.evaluate("window.scrollTo(0, document.querySelector('#board g.panel')"
                   ".getBoundingClientRect().top + scrollY - 40)")
    phone.screenshot(path=str(OUT / "manhattan-phone-panel.png"))
