"""The variations of a game kept in the browser as a tree (issue 36 item 3, ``lines.js``), in
each family: a line of two moves, a move played one step back inside it (a sub-line: the old
line remains), both shown with their words; the sub-line promoted (the order kept after a
reload), a line deleted (gone after a reload), a move's link opening exactly that position of
that line; on a desktop and on a 390x844 phone. Stored data is the user's: corrupt, foreign or
hostile data is ignored or shown as text, and what is kept is bounded."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replay.generate import generate_log

from .support import CHROMIUM, OUT, XSS, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

START = 8


def line_of(url: str) -> list[str]:
    """The tokens of the variation a page's URL holds."""
    tokens: list[str] = url.split("/variation/", 1)[1].split("/")[1].split(".")
    return tokens


def play(pg: Any, n: int, avoid: str = "") -> str:
    """Play a move at position ``n`` by clicking a shaded spot and a button of its menu (not
    the move ``avoid``); the page of position n + 1 follows. The token played."""
    spots = pg.locator("#board g.spot.legal")
    for i in range(spots.count()):
        spots.nth(i).click()
        menu = pg.locator("#explore details.spot-menu[open]:not([data-spot=''])")
        expect(menu).to_have_count(1)
        buttons = menu.locator("button[name=play]")
        for k in range(buttons.count()):
            token: str = buttons.nth(k).get_attribute("value")
            if token != avoid:
                buttons.nth(k).click()
                expect(pg.locator("#viewer")).to_have_attribute("data-move", str(n + 1))
                return token
    raise AssertionError(f"no other move at {n}")


def words_shown(pg: Any, n: int) -> str:
    """The words of move ``n`` of the variation in the page's move list (its number and
    points left out)."""
    text: str = pg.eval_on_selector(
        f"#moves ol.variation a.move[data-move='{n}']",
        "a => { const c = a.cloneNode(true); c.querySelectorAll('.num, .pts')"
        ".forEach(x => x.remove()); return c.textContent.replace(/\\s+/g, ' ').trim(); }")
    return text


def top_lines(pg: Any) -> Any:
    return pg.locator("#var-tree .var-branch > ul.var-lines > li.var-line")


def moves_of(line: Any) -> list[str]:
    """The hrefs of a line's own moves (not its sub-lines')."""
    found: list[str] = line.evaluate(
        "li => Array.from(li.querySelectorAll(':scope > ol.var-moves > li > a.var-move'))"
        ".map(a => a.getAttribute('href'))")
    return found


def stored(pg: Any, gid: str) -> Any:
    return json.loads(pg.evaluate(f"localStorage.getItem('cr-lines:{gid}')") or "null")


GAMES = {"base": ("base", 3, 7, ()), "hunters-gatherers": ("hunters-gatherers", 2, 3, ()),
         "manhattan": ("manhattan", 3, 3, ())}
BRANCH = {"base": START, "hunters-gatherers": START, "manhattan": 4}  # Manhattan: a build


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_tree_of_lines(server: str, page: Any, phone: Any, device: str, name: str) -> None:
    pg = page if device == "desktop" else phone
    gid = store(server, generate_log(*GAMES[name]))["id"]
    b = BRANCH[name]
    pg.goto(f"{server}/games/{gid}/moves/{b}?explore=1")
    expect(pg.locator("#var-tree")).to_be_hidden()  # nothing kept yet
    first = play(pg, b)
    second = play(pg, b + 1)
    assert line_of(pg.url) == [first, second]
    told = {b + 1: words_shown(pg, b + 1), b + 2: words_shown(pg, b + 2)}
    # one step back inside the line, another move: a sub-line; the old line remains
    pg.locator("#controls a[aria-label='previous move']").click()
    expect(pg.locator("#viewer")).to_have_attribute("data-move", str(b + 1))
    other = play(pg, b + 1, avoid=second)
    assert line_of(pg.url) == [first, other]
    told_other = words_shown(pg, b + 2)
    tree = pg.locator("#var-tree")
    expect(tree).to_be_visible()
    expect(tree.locator(".var-branch-head")).to_have_text(f"From move {b} of the game")
    lines = top_lines(pg)
    expect(lines).to_have_count(1)
    main = lines.first
    assert moves_of(main) == [f"/games/{gid}/variation/{b}/{first}.{second}/moves/{b + 1}",
                              f"/games/{gid}/variation/{b}/{first}.{second}/moves/{b + 2}"]
    sub = main.locator("ol.var-moves ul.var-lines > li.var-line")
    expect(sub).to_have_count(1)
    assert moves_of(sub) == [f"/games/{gid}/variation/{b}/{first}.{other}/moves/{b + 2}"]
    # words, not tokens: the move list's own words, the position shown highlighted
    moves = main.locator("a.var-move")
    expect(moves.nth(0)).to_have_text(f"{b + 1}{told[b + 1]}")
    expect(moves.nth(1)).to_have_text(f"{b + 2}{told[b + 2]}")
    expect(sub.locator("a.var-move")).to_have_text(f"{b + 2}{told_other}")
    assert told_other != told[b + 2] and "move " not in told_other[:5]
    expect(tree.locator("a.current")).to_have_count(1)
    expect(sub.locator("a.var-move")).to_have_attribute("aria-current", "step")
    # the top line has no "promote" (it is first); every line can be deleted
    expect(main.locator(":scope > .var-tools button")).to_have_count(1)
    expect(main.get_by_role("button", name="delete this line").first).to_be_visible()
    shoot(pg, f"variation-tree-{device}{'' if name == 'base' else '-' + name}-sub-line.png")
    if device == "phone":
        check_phone(pg)

    # promote the sub-line, by keyboard: it becomes the main continuation
    promote = sub.get_by_role("button", name="promote this line")
    promote.focus()
    pg.keyboard.press("Enter")
    main = top_lines(pg).first
    expect(main.locator("a.var-move").nth(1)).to_be_focused()  # the line promoted
    expect(main.locator(":scope > ol.var-moves > li > a.var-move")).to_have_count(2)
    promoted = [f"/games/{gid}/variation/{b}/{first}.{other}/moves/{b + 1}",
                f"/games/{gid}/variation/{b}/{first}.{other}/moves/{b + 2}"]
    assert moves_of(main) == promoted
    demoted = main.locator("ol.var-moves ul.var-lines > li.var-line")
    assert moves_of(demoted) == [f"/games/{gid}/variation/{b}/{first}.{second}/moves/{b + 2}"]
    pg.reload()
    assert moves_of(top_lines(pg).first) == promoted  # kept: the order survives a reload
    expect(top_lines(pg).first.locator("ul.var-lines a.var-move")).to_have_text(
        f"{b + 2}{told[b + 2]}")
    shoot(pg, f"variation-tree-{device}{'' if name == 'base' else '-' + name}.png")

    # delete the line not shown: gone, and after a reload too; the page stays where it was
    url = pg.url
    top_lines(pg).first.locator("ul.var-lines").get_by_role(
        "button", name="delete this line").click()
    expect(pg.locator("#var-tree ul.var-lines ul.var-lines")).to_have_count(0)
    assert pg.url == url
    pg.reload()
    expect(top_lines(pg)).to_have_count(1)
    expect(pg.locator("#var-tree a.var-move")).to_have_count(2)
    assert [line["t"] for line in stored(pg, gid)["lines"]] == [[first, other]]

    # a move's link opens exactly that position of that line
    pg.goto(f"{server}/games/{gid}/moves/3")
    expect(pg.locator("#var-tree a.var-move")).to_have_count(2)
    # the game's page: the tree alone
    shoot(pg, f"variation-tree-{device}{'' if name == 'base' else '-' + name}-game.png")
    pg.locator("#var-tree a.var-move").first.click()
    target = f"{server}/games/{gid}/variation/{b}/{first}.{other}/moves/{b + 1}"
    pg.wait_for_url(target)
    expect(pg.locator("#viewer")).to_have_attribute("data-move", str(b + 1))
    expect(pg.locator("#counter")).to_contain_text(f"move {b + 1} / {b + 2}")
    expect(pg.locator("#moves a.current")).to_have_attribute("data-move", str(b + 1))
    expect(pg.locator("#moves a.current")).to_have_class("move var current")
    expect(pg.locator("#var-tree a.var-move.current")).to_have_text(f"{b + 1}{told[b + 1]}")
    board = pg.locator("#board svg").inner_html()
    pg.goto(target)  # the same position, drawn from its URL alone
    assert pg.locator("#board svg").inner_html() == board

    # delete the line shown: back to the game's position at the branch
    pg.locator("#var-tree").get_by_role("button", name="delete this line").click()
    pg.wait_for_url(f"{server}/games/{gid}/moves/{b}?explore=1")
    expect(pg.locator("#viewer")).to_have_attribute("data-move", str(b))
    expect(pg.locator("#var-tree")).to_be_hidden()
    pg.reload()
    expect(pg.locator("#var-tree")).to_be_hidden()
    assert stored(pg, gid) is None


def shoot(pg: Any, name: str) -> None:
    """A screenshot of the page with the tree in view."""
    pg.locator("#var-tree").evaluate("t => t.scrollIntoView({block: 'center'})")
    pg.screenshot(path=str(OUT / name))


def check_phone(pg: Any) -> None:
    """On a 390px phone the tree fits the width and every control takes a thumb."""
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    tree = pg.locator("#var-tree")
    assert tree.evaluate("t => t.scrollWidth <= t.clientWidth")
    for control in tree.locator("a, button").all():
        box = control.bounding_box()
        assert box is not None and box["height"] >= 32, control.evaluate("x => x.outerHTML")
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_deleted_when_shown_and_top_lines_promoted(server: str, page: Any) -> None:
    """A sub-line deleted while shown: the line it branched from, at the branch; the
    variation's own "delete": the game's position at the branch; two lines from one position,
    the second promoted: the lines at that position reordered."""
    gid = store(server, generate_log("base", 3, 7))["id"]
    b = START
    page.goto(f"{server}/games/{gid}/moves/{b}?explore=1")
    first = play(page, b)
    second = play(page, b + 1)
    back = page.locator("#controls a[aria-label='previous move']")
    back.click()
    expect(page.locator("#viewer")).to_have_attribute("data-move", str(b + 1))
    play(page, b + 1, avoid=second)
    sub = page.locator("#var-tree ol.var-moves ul.var-lines > li.var-line")
    sub.get_by_role("button", name="delete this line").click()
    page.wait_for_url(f"{server}/games/{gid}/variation/{b}/{first}.{second}/moves/{b + 1}")
    expect(page.locator("#var-tree ul.var-lines ul.var-lines")).to_have_count(0)
    expect(page.locator("#var-tree a.var-move.current")).to_have_attribute("data-move",
                                                                            str(b + 1))
    # the variation's head has a "delete" too: the line shown, then the game at the branch
    page.locator("#explore .var-head [data-forget]").click()
    page.wait_for_url(f"{server}/games/{gid}/moves/{b}?explore=1")
    expect(page.locator("#var-tree")).to_be_hidden()
    # two lines from one position: one step back to it inside a line, another first move
    first = play(page, b)
    back.click()
    expect(page.locator("#viewer")).to_have_attribute("data-move", str(b))
    other = play(page, b, avoid=first)
    lines = top_lines(page)
    expect(lines).to_have_count(2)
    expect(lines.nth(0).get_by_role("button", name="promote this line")).to_have_count(0)
    lines.nth(1).get_by_role("button", name="promote this line").click()
    page.reload()
    assert [moves_of(top_lines(page).nth(k)) for k in (0, 1)] == [
        [f"/games/{gid}/variation/{b}/{other}/moves/{b + 1}"],
        [f"/games/{gid}/variation/{b}/{first}/moves/{b + 1}"]]


def test_stored_data_is_checked(server: str, page: Any) -> None:
    """Corrupt data is ignored, hostile words are shown as text, a line of another shape is
    dropped, at most 64 lines are kept (the oldest dropped), and the one variation kept
    before (``cr-variation:``) is taken in."""
    gid = store(server, generate_log("base", 3, 7))["id"]
    page.goto(f"{server}/games/{gid}/moves/2")
    key = f"cr-lines:{gid}"
    page.evaluate(f"localStorage.setItem('{key}', '{{not json')")
    page.reload()
    expect(page.locator("#var-tree")).to_be_hidden()
    good = "eyJ4IjoxfQ"  # a token's shape: the server reads it when the line is opened
    lines: list[Any] = [
        {"b": -1, "t": [good]}, {"b": 5, "t": ["a/b"]}, {"b": 5, "t": []}, "line",
        {"b": 5, "t": [good], "w": [XSS + "<img src=x onerror=alert(2)>"], "s": 999},
    ]
    lines += [{"b": 6, "t": [good, f"{'A' * 4}{i:04d}"], "w": [], "s": 10 + i}
              for i in range(70)]
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [key, json.dumps({"v": 1, "lines": lines})])
    page.evaluate(f"localStorage.setItem('cr-variation:{gid}', "
                  f"JSON.stringify({{url: '{server}/games/{gid}/variation/4/{good}/moves/5'}}))")
    page.reload()
    tree = page.locator("#var-tree")
    expect(tree).to_be_visible()
    expect(tree.locator("img, script")).to_have_count(0)
    expect(tree.locator(".var-branch")).to_have_count(3)
    expect(tree.locator(".var-branch-head").nth(1)).to_have_text("From move 5 of the game")
    expect(tree.locator(".var-branch").nth(1).locator("a.var-move")).to_have_text(
        "6" + XSS + "<img src=x onerror=alert(2)>")
    expect(tree.locator(".var-branch").first.locator("a.var-move")).to_have_text("5move 5")
    kept = stored(page, gid)["lines"]
    assert len(kept) == 64
    assert page.evaluate(f"localStorage.getItem('cr-variation:{gid}')") is None
    # the oldest dropped: of the 70 lines from move 6, the last ones seen remain
    sixes = [line["t"][1] for line in kept if line["b"] == 6]
    assert len(sixes) == 62 and sixes[0] == "AAAA0008" and sixes[-1] == "AAAA0069"


def test_results_hidden_hide_the_lines_of_later_positions(server: str, page: Any) -> None:
    """With "hide results" on, before the game's end, the tree lists no line from a position
    not reached yet (it would tell the board there), and says how many it hides."""
    gid = store(server, generate_log("base", 3, 7))["id"]
    page.goto(f"{server}/games/{gid}/moves/2")
    good = "eyJ4IjoxfQ"
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"cr-lines:{gid}", json.dumps({"v": 1, "lines": [
                      {"b": 1, "t": [good], "w": ["early"], "s": 1},
                      {"b": 20, "t": [good], "w": ["zebra"], "s": 2}]})])
    page.evaluate("localStorage.setItem('cr-spoiler', '1')")
    page.reload()
    tree = page.locator("#var-tree")
    expect(tree.locator(".var-branch")).to_have_count(1)
    expect(tree).to_contain_text("early")
    expect(tree).not_to_contain_text("zebra")
    expect(tree.locator(".var-hidden")).to_have_text(
        "Your variations from 1 later position are hidden with the results.")
    page.goto(f"{server}/games/{gid}/moves/20")  # reached from this site: asks nothing
    expect(tree.locator(".var-branch")).to_have_count(2)
    page.evaluate("localStorage.setItem('cr-spoiler', '0')")
    page.goto(f"{server}/games/{gid}/moves/2")
    expect(tree.locator(".var-branch")).to_have_count(2)
