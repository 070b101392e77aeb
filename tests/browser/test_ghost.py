"""See the move before you play it (issue 36 item 2), in a real browser, on a desktop and a
phone, in each family: a legal spot tapped shows the piece there as a ghost (the tile, turned
as chosen; Manhattan's building with the piece on it), turned by the bar's button, the key
"r" and a tap on the ghost, given a figure by tapping its feature, then played: the move
played is the one shown. And the keyboard alone: arrows between spots, r, Enter."""

from __future__ import annotations

from typing import Any

import pytest

from replay.generate import generate_log

from .support import CHROMIUM, OUT, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

GAMES = {"base": ("base", 3, 7, ("inns-cathedrals", "hills-sheep")),
         "hunters-gatherers": ("hunters-gatherers", 2, 3, ()),
         "manhattan": ("manhattan", 3, 3, ())}
START = {"base": 8, "hunters-gatherers": 8, "manhattan": 4}  # a build of round 1 at 4

# the spot whose ghosts are the richest: most turns, then most targets
RICHEST = """() => {
  const by = {};
  document.querySelectorAll('#board g.preview').forEach(g => {
    const s = by[g.dataset.spot] || (by[g.dataset.spot] = {turns: 0, targets: 0});
    s.turns += 1; s.targets += g.querySelectorAll('g.target').length;
  });
  return Object.entries(by).sort((a, b) => (b[1].turns - a[1].turns) ||
                                 (b[1].targets - a[1].targets) || (a[0] < b[0] ? -1 : 1))[0][0];
}"""


# a point of the ghost's tile on the screen, off its targets
ON_THE_TILE = """() => {
  const r = document.querySelector('#board g.preview.on use.preview-tile').getBoundingClientRect();
  for (let fy = 0.15; fy < 0.9; fy += 0.1) for (let fx = 0.15; fx < 0.9; fx += 0.1) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const e = document.elementFromPoint(x, y);
    if (e && e.closest('g.preview.on') && !e.closest('g.target')) return [x, y];
  }
  throw new Error('no point of the tile off its targets');
}"""


def _label(pg: Any) -> str:
    text: str = pg.locator("#board g.preview.on").get_attribute("data-label")
    return text


def _open(pg: Any, server: str, name: str) -> tuple[str, int]:
    gid = store(server, generate_log(*GAMES[name]))["id"]
    n = START[name]
    pg.goto(f"{server}/games/{gid}/moves/{n}?explore=1")
    expect(pg.locator("#board g.preview")).not_to_have_count(0)
    expect(pg.locator("#ghost-bar")).to_be_hidden()
    return gid, n


def _tap_spot(pg: Any, spot: str) -> None:
    pg.locator(f'#board g.spot.legal[data-spot="{spot}"]').click()
    expect(pg.locator("#ghost-bar")).to_be_visible()
    expect(pg.locator("#board g.preview.on")).to_have_count(1)
    assert pg.locator("#board g.preview.on").get_attribute("data-spot") == spot


def _expected_token(pg: Any) -> str:
    """The token of the move the bar would play now: the chosen target's (or the ghost's own)
    first option, through the menu's button of that index."""
    index: str = pg.evaluate("""() => {
      const t = document.querySelector('#board g.preview.on g.target.chosen') ||
                document.querySelector('#board g.preview.on');
      const which = document.querySelector('#ghost-bar [data-ghost-which] [aria-pressed=true]');
      const all = t.dataset.options.split(' ');
      const k = which ? [...which.parentNode.children].indexOf(which) : 0;
      return all[k];
    }""")
    token: str = pg.locator(f'#explore button[name=play][data-option="{index}"]').get_attribute(
        "value")
    return token


def _ghost_and_play(pg: Any, server: str, name: str, shot: str) -> None:
    gid, n = _open(pg, server, name)
    spot: str = pg.evaluate(RICHEST)
    _tap_spot(pg, spot)
    turns = pg.locator(f'#board g.preview[data-spot="{spot}"]').count()
    first = _label(pg)
    assert first and pg.locator("#ghost-bar [data-ghost-turn]").inner_text() == first
    if turns > 1:
        pg.locator("#ghost-bar [data-ghost-rotate='1']").click()
        second = _label(pg)
        assert second != first
        pg.keyboard.press("r")
        assert _label(pg) != second or turns == 2
        if name != "manhattan":  # a tap on the ghost (the tile, away from its targets) turns it
            before = _label(pg)
            x, y = pg.evaluate(ON_THE_TILE)
            if pg.viewport_size["width"] > 700:
                pg.mouse.click(x, y)
            else:
                pg.touchscreen.tap(x, y)
            assert _label(pg) != before
    if name != "manhattan":
        # the turn with the most targets, then a figure put by tapping its feature
        for _ in range(turns):
            if pg.locator("#board g.preview.on g.target").count():
                break
            pg.locator("#ghost-bar [data-ghost-rotate='1']").click()
        target = pg.locator("#board g.preview.on g.target").first
        words = target.get_attribute("aria-label")
        target.click()
        expect(pg.locator("#board g.preview.on g.target.chosen")).to_have_count(1)
        expect(pg.locator("#board g.preview.on g.target.chosen .preview-figure.picked")
               ).to_be_visible()
        expect(pg.locator("#ghost-bar [data-ghost-figures] [aria-pressed=true]")).to_have_text(
            words)
        kinds = pg.locator("#ghost-bar [data-ghost-which] button")
        if kinds.count() > 1:  # another kind of figure on the same feature: drawn instead
            kinds.last.click()
            expect(kinds.last).to_have_attribute("aria-pressed", "true")
            expect(pg.locator("#board g.preview.on g.target.chosen .preview-figure.picked")
                   ).to_have_count(1)
    else:
        expect(pg.locator("#board g.preview.on g.building")).to_be_visible()
        assert "storey" in _label(pg)
    pg.screenshot(path=str(OUT / shot))
    token = _expected_token(pg)
    pg.locator("#ghost-bar [data-ghost-play]").click()
    expect(pg.locator("#viewer")).to_have_attribute("data-move", str(n + 1))
    assert pg.url.endswith(f"/variation/{n}/{token}/moves/{n + 1}"), (pg.url, token)
    expect(pg.locator("#ghost-bar")).to_be_hidden()
    assert gid in pg.url


@pytest.mark.parametrize("name", list(GAMES))
def test_a_ghost_turned_given_a_figure_and_played(server: str, page: Any, name: str) -> None:
    _ghost_and_play(page, server, name, f"ghost-{name}-desktop.png")


@pytest.mark.parametrize("name", list(GAMES))
def test_a_ghost_on_a_phone(server: str, phone: Any, name: str) -> None:
    _ghost_and_play(phone, server, name, f"ghost-{name}-phone.png")
    # the bar sits inside the screen, its buttons big enough to tap
    width = phone.viewport_size["width"]
    _open(phone, server, name)
    _tap_spot(phone, phone.evaluate(RICHEST))
    box = phone.locator("#ghost-bar").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    for b in phone.locator("#ghost-bar button:visible").all():
        assert b.bounding_box()["height"] >= 32


def test_the_keyboard_alone(server: str, page: Any) -> None:
    _, n = _open(page, server, "base")
    spot: str = page.evaluate(RICHEST)
    page.locator(f'#board g.spot.legal[data-spot="{spot}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#ghost-bar")).to_be_visible()
    assert page.locator("#board g.preview.on").get_attribute("data-spot") == spot
    moved = set()
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        moved.add(page.locator("#board g.preview.on").get_attribute("data-spot"))
    assert moved - {spot}, "the arrows move the ghost between spots"
    assert page.locator("#viewer").get_attribute("data-move") == str(n)  # not a step
    here = page.locator("#board g.preview.on").get_attribute("data-spot")
    if page.locator(f'#board g.preview[data-spot="{here}"]').count() > 1:
        before = _label(page)
        page.keyboard.press("r")
        assert _label(page) != before
    token = _expected_token(page)
    page.keyboard.press("Escape")
    expect(page.locator("#ghost-bar")).to_be_hidden()
    page.locator(f'#board g.spot.legal[data-spot="{here}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#ghost-bar")).to_be_visible()
    token = _expected_token(page)
    page.keyboard.press("Enter")
    expect(page.locator("#viewer")).to_have_attribute("data-move", str(n + 1))
    assert page.url.endswith(f"/{token}/moves/{n + 1}")
