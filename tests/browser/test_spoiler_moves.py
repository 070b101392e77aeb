"""Spoiler-free viewing that holds (issue 36 item 4), in a real browser, desktop and phone: with
"hide results" on, a game entered from the library opens at its start; at every position before
the last, nothing on the page tells the result or the moves to come: not its text
(``document.body.innerText``: no final score, no winner's word, no move to come), not a style (the
winners' names weigh and colour as the others'), not the chart (its points axis no higher than
the scores reached call for, no line right of the cursor); at the last position the result
shows. A link from elsewhere to a position not reached yet asks first."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from replay.generate import generate_log

from .support import CHROMIUM, OUT, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

# What the page shows, as a visitor sees it: its text, the moves listed, the names' styles
# (winners and the others), the chart's axis and how far its lines run.
PROBE = """() => {
    const shown = e => !!e && getComputedStyle(e).display !== 'none' &&
        getComputedStyle(e).visibility === 'visible' && e.getClientRects().length > 0;
    const look = e => { const s = getComputedStyle(e);
        return [s.fontWeight, s.color, s.visibility, s.display].join('|'); };
    const styles = sel => Array.from(document.querySelectorAll(sel)).map(
        e => [e.classList.contains('winner'), look(e)]);
    const pic = Array.from(document.querySelectorAll('#chart svg.chart')).find(shown);
    let axis = [], right = 0, cursor = null, tips = [];
    if (pic) {
        axis = Array.from(pic.querySelectorAll('text.axis[text-anchor=end]'))
            .map(t => parseInt(t.textContent, 10));
        cursor = parseFloat(pic.querySelector('line.cursor').getAttribute('x1'));
        right = Math.max(...Array.from(pic.querySelectorAll('polyline')).flatMap(
            p => p.getAttribute('points').split(' ').map(xy => parseFloat(xy))));
        tips = Array.from(pic.querySelectorAll('a[data-move] title')).map(t => t.textContent);
    }
    return {
        text: document.body.innerText,
        move: parseInt(document.getElementById('viewer').dataset.move, 10),
        listed: Array.from(document.querySelectorAll('#moves a[data-move]')).filter(shown)
            .map(a => parseInt(a.dataset.move, 10)),
        heads: styles('.game-head h1 .pname'),
        rows: styles('table.scores td.name'),
        wins: Array.from(document.querySelectorAll('.winner small, .standing')).filter(shown)
            .length,
        chart: !!pic, safe: !!pic && pic.classList.contains('safe'),
        axis, right, cursor, tips,
    };
}"""


def _api(server: str, path: str) -> Any:
    with urllib.request.urlopen(f"{server}/api{path}", timeout=10) as response:
        return json.loads(response.read())


def _ticks(top: int) -> int:
    """The chart's highest points label for scores up to ``top`` (``web.viewer._ticks``)."""
    from web.viewer import _ticks as ticks
    return ticks(top)[-1]


def _facts(server: str, game_id: str, last: int) -> dict[str, Any]:
    """What the test looks for: the final scores and winners, and each position's scores (the
    highest reached up to it: what the chart's axis may run to)."""
    game = _api(server, f"/games/{game_id}")
    reached, highest = [], 0
    for k in range(last + 1):
        body = _api(server, f"/games/{game_id}/moves/{k}")
        highest = max(highest, *(p["score"] for p in body["players"]),
                      *(p["if_ended_now"] for p in body["players"]))
        reached.append(highest)
    return {"players": game["players"], "winners": game["winners"], "reached": reached}


def _check(seen: dict[str, Any], n: int, last: int, facts: dict[str, Any],
           words: dict[int, str]) -> None:
    """Nothing of the result or the moves to come on the page at position ``n`` < ``last``."""
    text = seen["text"]
    assert seen["move"] == n
    # the result's words ("wins" alone can be a round's: Manhattan's majorities)
    final = {p["name"]: p["score"] for p in facts["players"]}
    for word in ("Final score", "game over", *(f"{w} {final[w]} wins" for w in facts["winners"])):
        assert word not in text, (n, word)
    assert seen["listed"] == list(range(n + 1)), (n, seen["listed"])  # no move to come
    for k in range(n + 1, last + 1):
        assert words[k] not in text, (n, k, words[k])
    assert seen["wins"] == 0
    for group in (seen["heads"], seen["rows"]):  # a winner's name looks as the others'
        assert len({style for _, style in group}) <= 1 or n > 0 and group is seen["rows"] \
            and len({s for w, s in group if not w}) == len({s for _, s in group}), (n, group)
    assert seen["chart"] and seen["safe"], n
    assert max(seen["axis"]) == _ticks(facts["reached"][n]), (n, seen["axis"])
    assert seen["right"] <= seen["cursor"] + 0.05, (n, seen["right"], seen["cursor"])
    assert all(t == f"move {k}: not reached yet" for k, t in enumerate(seen["tips"]) if k > n)


def _walk(pg: Any, server: str, game_id: str, last: int, facts: dict[str, Any],
          words: dict[int, str], step: Any, name: str) -> None:
    for n in range(last + 1):
        if n:
            step()
            pg.wait_for_url(f"**/games/{game_id}/moves/{n}")  # pushed after the page shows
        seen = pg.evaluate(PROBE)
        if n < last:
            _check(seen, n, last, facts, words)
        if n == 3:
            pg.screenshot(path=str(OUT / f"spoiler-{name}-move3.png"), full_page=True)
    # the last position: the result shows, every move is listed, the whole chart
    seen = pg.evaluate(PROBE)
    assert "Final score" in seen["text"] and seen["wins"] > 0
    for p in facts["players"]:
        assert f"{p['name']} {p['score']}" + " wins" * (p["name"] in facts["winners"]) \
            in seen["text"]
    assert seen["listed"] == list(range(last + 1)) and seen["chart"] and not seen["safe"]
    assert max(seen["axis"]) == _ticks(facts["reached"][last])
    pg.screenshot(path=str(OUT / f"spoiler-{name}-last.png"), full_page=True)


def _words(pg: Any, server: str, game_id: str, last: int) -> dict[int, str]:
    """The move list's text of each move, read with the results shown (switch off)."""
    pg.goto(f"{server}/games/{game_id}/moves/{last}")
    found: dict[str, str] = pg.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('#moves a[data-move]'))"
        ".map(a => [a.dataset.move, a.innerText.replace(/^\\s*\\d+\\s*/, '')]))")
    return {int(k): v for k, v in found.items()}


def _enter_from_the_library(pg: Any, server: str, game_id: str) -> None:
    pg.goto(f"{server}/games")
    switch = pg.locator("#spoiler-switch")
    if switch.get_attribute("aria-checked") != "true":
        switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    row = pg.locator("table.library tr", has=pg.locator(f'a.open[href="/games/{game_id}"]'))
    expect(row.locator(".players b").first).to_be_hidden()  # no scores
    looks = row.evaluate("r => Array.from(r.querySelectorAll('.pname')).map(e => "
                         "[getComputedStyle(e).fontWeight, getComputedStyle(e).color].join())")
    assert len(set(looks)) == 1, looks  # nobody stands out
    row.locator("a.open").click()
    pg.wait_for_url(f"**/games/{game_id}/moves/0")


@pytest.fixture(scope="module")
def short() -> dict[str, Any]:
    return generate_log("base", 2, 1)


@pytest.mark.parametrize("family", ["base", "manhattan", "hunters-gatherers"])
def test_nothing_tells_the_result_before_the_last_move_on_a_desktop(
        server: str, page: Any, short: dict[str, Any], family: str) -> None:
    log = short if family == "base" else generate_log(family, 2, 1)
    game = store(server, log)
    last = len(log["moves"])
    words = _words(page, server, game["id"], last)
    facts = _facts(server, game["id"], last)
    _enter_from_the_library(page, server, game["id"])
    _walk(page, server, game["id"], last, facts, words,
          lambda: page.keyboard.press("ArrowRight"), f"desktop-{family}")


def test_nothing_tells_the_result_before_the_last_move_on_a_phone(
        server: str, phone: Any, short: dict[str, Any]) -> None:
    game = store(server, short)
    last = len(short["moves"])
    words = _words(phone, server, game["id"], last)
    facts = _facts(server, game["id"], last)
    _enter_from_the_library(phone, server, game["id"])
    nxt = phone.locator('#controls a[aria-label="next move"]')
    _walk(phone, server, game["id"], last, facts, words, lambda: nxt.tap(), "phone")


def test_a_link_to_a_position_not_reached_yet_asks_first(server: str, browser: Any,
                                                         short: dict[str, Any]) -> None:
    game = store(server, generate_log("base", 2, 3))
    last = _api(server, f"/games/{game['id']}")["moves_played"]
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        pg = context.new_page()
        pg.goto(f"{server}/games")
        pg.click("#spoiler-switch")
        url = f"{server}/games/{game['id']}/moves/{last}"
        pg.goto(url)  # as from a chat or a bookmark: no referrer of this site
        box = pg.locator("section.spoiler-ask")
        expect(box).to_be_visible()
        text = pg.evaluate("document.body.innerText")
        assert f"This link opens move {last} of {last} and shows the result." in text
        assert "wins" not in text and "Final score" not in text
        expect(pg.locator("#viewer")).to_be_hidden()
        pg.keyboard.press("End")  # the keys wait for the answer too
        assert "wins" not in pg.evaluate("document.body.innerText")
        pg.screenshot(path=str(OUT / "spoiler-ask.png"))
        box.get_by_role("link", name="start from the beginning").click()
        pg.wait_for_url(f"**/games/{game['id']}/moves/0")
        expect(pg.locator("#viewer")).to_be_visible()
        pg.goto(f"{server}/games/{game['id']}/moves/5")  # mid-game: asked too, without result
        assert "This link opens move 5 of" in pg.locator("section.spoiler-ask").inner_text()
        pg.get_by_role("button", name="show it").click()
        expect(pg.locator("#viewer")).to_be_visible()
        expect(pg.locator("section.spoiler-ask")).to_have_count(0)
        pg.reload()  # a position reached is not asked about again
        expect(pg.locator("#viewer")).to_be_visible()
        expect(pg.locator("section.spoiler-ask")).to_have_count(0)
        pg.goto(url)
        pg.get_by_role("button", name="show it").click()
        assert "wins" in pg.evaluate("document.body.innerText")
    finally:
        context.close()


def test_a_variation_tells_nothing_of_the_games_moves_after_its_branch(
        server: str, page: Any, short: dict[str, Any]) -> None:
    """A variation's link from elsewhere asks first too (it shows the game up to its branch);
    shown, its page lists the game's moves up to the branch and the variation's own, and its
    last move is no end of the game: the result stays hidden."""
    game = store(server, short)
    with urllib.request.urlopen(f"{server}/games/{game['id']}/moves/5?explore=1",
                                timeout=10) as response:
        html = response.read().decode()
    token = re.search(r'name="play" value="([^"]+)"', html)
    assert token is not None
    url = f"{server}/games/{game['id']}/variation/5/{token.group(1)}/moves/6"
    page.goto(f"{server}/games")
    page.click("#spoiler-switch")
    page.goto(url)
    box = page.locator("section.spoiler-ask")
    expect(box).to_contain_text("This link opens a variation from move 5 of the game.")
    box.get_by_role("button", name="show it").click()
    seen = page.evaluate(PROBE)
    assert seen["listed"] == [0, 1, 2, 3, 4, 5, 6]  # the variation's move is the 6
    assert page.locator("#moves a.var").count() == 1
    assert page.locator("#moves a.left").count() == len(short["moves"]) - 5
    assert not page.locator("#moves a.left").first.is_visible()
    assert page.evaluate("document.getElementById('viewer').hasAttribute('data-end')") is False
    assert "Final score" not in seen["text"] and "wins" not in seen["text"]
    page.screenshot(path=str(OUT / "spoiler-variation.png"))


def test_the_question_on_a_phone(server: str, phone: Any, short: dict[str, Any]) -> None:
    """The question fits a phone: its words and both answers in sight, each answer a thumb's
    size (44 px at least, the page's --tap)."""
    game = store(server, short)
    phone.goto(f"{server}/games")
    phone.locator("#spoiler-switch").tap()
    phone.goto(f"{server}/games/{game['id']}/moves/{len(short['moves'])}")
    box = phone.locator("section.spoiler-ask")
    expect(box).to_contain_text("and shows the result.")
    for name, role in (("start from the beginning", "link"), ("show it", "button")):
        answer = box.get_by_role(role, name=name)
        expect(answer).to_be_in_viewport()
        size = answer.bounding_box()
        assert size["height"] >= 44 and size["x"] >= 0, (name, size)
    phone.screenshot(path=str(OUT / "spoiler-ask-phone.png"))
    box.get_by_role("link", name="start from the beginning").tap()
    phone.wait_for_url(f"**/games/{game['id']}/moves/0")
