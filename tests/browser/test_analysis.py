"""The analysis board in a real browser: a variation played by clicking in every family, the
shaded spots against ``legal_moves()``, a refusal in the verifier's words, the variation
reloaded from its URL, listed on the game's page and saved as a new game; on a desktop and on
a phone."""

from __future__ import annotations

from typing import Any

import pytest

from replay.core.explore import read_line
from replay.core.record import parse
from replay.games.manhattan.state import ManhattanState
from replay.generate import generate_log

from .support import CHROMIUM, OUT, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

GAMES = {"base": ("base", 3, 7, ()),
         "hunters-gatherers": ("hunters-gatherers", 2, 3, ()),
         "manhattan": ("manhattan", 3, 3, ())}
START = {"base": 8, "hunters-gatherers": 8, "manhattan": 4}  # a build of round 1 at 4


def legal_spots(log: dict[str, Any], n: int) -> set[str]:
    """The spots of the legal moves at position ``n``, from the engine itself."""
    record = parse(log)
    state = record.playback.position(n).state
    out = set()
    for m in state.legal_moves():
        if hasattr(m, "x"):
            out.add(f"{m.x},{m.y}")
        elif isinstance(state, ManhattanState) and hasattr(m, "city"):
            out.add(f"{m.city}/{state.lot_of(state.current_player or 0, m.card)}")
    return out


def shown_spots(pg: Any) -> set[str]:
    found: list[str] = pg.eval_on_selector_all(
        "#board g.spot.legal", "gs => gs.map(g => g.dataset.spot)")
    return set(found)


def play_one(pg: Any, n: int) -> None:
    """Click a shaded spot, then its first move; the page of position n + 1 follows."""
    pg.locator("#board g.spot.legal").first.click()
    menu = pg.locator("#explore details.spot-menu[open]:not([data-spot=''])")
    expect(menu).to_have_count(1)
    expect(menu.locator("button[name=play]").first).to_be_visible()
    menu.locator("button[name=play]").first.click()
    expect(pg.locator("#viewer")).to_have_attribute("data-move", str(n + 1))


@pytest.mark.parametrize("name", list(GAMES))
def test_a_variation_by_clicking(server: str, page: Any, name: str) -> None:
    log = generate_log(*GAMES[name])
    gid = store(server, log)["id"]
    n = START[name]
    page.goto(f"{server}/games/{gid}/moves/{n}")
    page.locator("#controls a[data-explore-on]").click()
    page.wait_for_url("**explore=1")
    assert shown_spots(page) == legal_spots(log, n)
    if name == "manhattan":  # a piece shades only the lots it may go on
        page.locator("#explore .facets button").first.click()
        assert page.locator("#board g.spot.legal.dim").count() > 0
        page.locator("#explore .facets button").first.click()
    page.screenshot(path=str(OUT / f"analysis-{name}-spots.png"))
    play_one(page, n)
    assert f"/games/{gid}/variation/{n}/" in page.url and page.url.endswith(f"/moves/{n + 1}")
    expect(page.locator("#moves ol.variation a.move")).to_have_count(1)
    expect(page.locator("#explore .var-head")).to_contain_text(f"from move {n}")
    play_one(page, n + 1)
    expect(page.locator("#moves ol.variation a.move")).to_have_count(2)
    # the shaded spots of the variation's position are its legal moves
    line_log = dict(log, moves=log["moves"][:n] + line_moves(page.url))
    assert shown_spots(page) == legal_spots(line_log, n + 2)
    # an unshaded spot says which rule forbids it
    illegal = page.locator("#board g.spot.illegal")
    if illegal.count():
        illegal.first.click()
        expect(page.locator("#refusal")).to_be_visible()
        expect(page.locator("#refusal")).to_contain_text("rule")
    page.screenshot(path=str(OUT / f"analysis-{name}-variation.png"))
    # the URL opens the same variation; the game's page lists it (lines.js) and opens it
    url = page.url
    page.reload()
    expect(page.locator("#moves ol.variation a.move")).to_have_count(2)
    assert page.url == url
    page.goto(f"{server}/games/{gid}/moves/{n}")
    expect(page.locator("#var-tree .var-branch-head")).to_have_text(f"From move {n} of the game")
    page.locator("#var-tree a.var-move").last.click()
    page.wait_for_url(url)
    # saved as a new game, through the upload's checks
    page.locator("#explore .save-form button").click()
    page.wait_for_url(f"{server}/games/*/moves/*")
    assert f"/games/{gid}/" not in page.url
    expect(page.locator(".badge.ok")).to_be_visible()
    # it says which game it came from, and leads back to it at the branch (issue 36 item 3)
    origin = page.locator(".game-head .origin-line")
    expect(origin).to_contain_text(f"Variation of {log['players'][0]['name']}")
    expect(origin).to_contain_text(f"from move {n}")
    page.screenshot(path=str(OUT / f"analysis-{name}-saved.png"))
    if name == "base":  # the library's row says the same
        saved = page.url
        page.goto(f"{server}/games")
        expect(page.locator("table.library .origin")).to_contain_text(f"from move {n}")
        page.screenshot(path=str(OUT / "analysis-library-variation.png"))
        page.goto(saved)
    origin.locator("a").click()
    page.wait_for_url(f"{server}/games/{gid}/moves/{n}")


def line_moves(url: str) -> list[dict[str, Any]]:
    """The moves of the variation a page's URL holds (``.../variation/<b>/<line>/moves/<n>``)."""
    moves: list[dict[str, Any]] = read_line(url.split("/variation/", 1)[1].split("/")[1])
    return moves


def test_a_variation_on_a_phone(server: str, phone: Any) -> None:
    log = generate_log(*GAMES["base"])
    gid = store(server, log)["id"]
    phone.goto(f"{server}/games/{gid}/moves/8?explore=1")
    controls = phone.locator("#controls")  # every button, the switch too, within a thumb's reach
    assert controls.evaluate("c => c.scrollWidth <= c.clientWidth")
    expect(controls.locator("a[data-explore-on]")).to_be_in_viewport(ratio=1)
    phone.locator("#board g.spot.legal").first.tap()
    menu = phone.locator("#explore details.spot-menu[open]:not([data-spot=''])")
    expect(menu).to_be_visible()
    box = menu.bounding_box()
    board = phone.locator("#board").bounding_box()
    view = phone.viewport_size
    assert box["y"] + box["height"] <= view["height"]  # the menu is on screen...
    assert board["y"] < box["y"]  # ...over the board's bottom, the board above it in view
    phone.screenshot(path=str(OUT / "analysis-phone-menu.png"))
    menu.locator("button[name=play]").first.tap()
    expect(phone.locator("#viewer")).to_have_attribute("data-move", "9")
    expect(phone.locator("#moves ol.variation a.move")).to_have_count(1)
    phone.screenshot(path=str(OUT / "analysis-phone-variation.png"))
    # left: the game's page lists it; deleted: listed no more, even after a reload
    phone.goto(f"{server}/games/{gid}/moves/3")
    tree = phone.locator("#var-tree")
    expect(tree.locator(".var-branch-head")).to_have_text("From move 8 of the game")
    expect(tree.locator("a.var-move")).to_have_count(1)
    tree.get_by_role("button", name="delete this line").tap()
    expect(tree).to_be_hidden()
    phone.reload()
    expect(phone.locator("#board svg")).to_be_visible()
    expect(phone.locator("#var-tree")).to_be_hidden()
    expect(phone.locator("#var-tree a.var-move")).to_have_count(0)

