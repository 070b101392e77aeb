"""The viewer in a real browser: Debian's chromium, headless, driven by Playwright.

The fixtures (the app, chromium, a desktop and a phone page) are in ``conftest``.
"""

from __future__ import annotations

import copy
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from replay.core.events import Score
from replay.core.playback import play_through
from replay.core.record import parse
from replay.generate import dumps, generate_log

from .support import CHROMIUM, OUT, PHONE, XSS, current_move, expect, scored_move, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")



def test_upload_a_generated_game(server: str, page: Any, game4: dict[str, Any],
                                 tmp_path: Path) -> None:
    page.goto(f"{server}/upload")
    page.fill("#log", '{"format": "carcassonne-replay/log", "version": 1, "game": "base"}')
    expect(page.locator("#feedback")).to_contain_text(
        "The log is not readable: a Carcassonne log needs ")
    page.fill("#log", "{")
    expect(page.locator("#feedback")).to_contain_text("invalid JSON")
    path = tmp_path / "game.json"
    path.write_text(dumps(game4), encoding="utf-8")
    page.set_input_files("input[type=file]", str(path))
    expect(page.locator("#feedback")).to_contain_text(f"Valid: {len(game4['moves'])} moves")
    page.fill("#log", "")
    page.screenshot(path=str(OUT / "upload.png"))
    page.click("button[type=submit]")
    last = len(game4["moves"])
    page.wait_for_url(f"**/moves/{last}")
    expect(page.locator("#board svg.carcassonne-board")).to_be_visible()
    expect(page.locator("#counter")).to_contain_text(f"move {last} / {last}")
    assert current_move(page) == str(last)
    expect(page.locator("#state")).to_contain_text("game over")
    page.screenshot(path=str(OUT / "viewer-final.png"))


def test_step_with_the_keyboard(server: str, page: Any, game4: dict[str, Any]) -> None:
    game = store(server, game4)
    base = f"{server}/games/{game['id']}/moves/"
    last = len(game4["moves"])
    page.goto(base + "10")
    board = page.locator("#board").inner_html()
    page.keyboard.press("ArrowRight")
    page.wait_for_url(base + "11")
    expect(page.locator("#counter")).to_contain_text("move 11 /")
    assert current_move(page) == "11"
    assert page.locator("#board").inner_html() != board
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(base + "9")
    expect(page.locator("#counter")).to_contain_text("move 9 /")
    page.keyboard.press("End")
    page.wait_for_url(base + str(last))
    assert current_move(page) == str(last)
    page.keyboard.press("Home")
    page.wait_for_url(base + "0")
    expect(page.locator("#events")).to_contain_text("start tile")
    page.go_back()
    page.wait_for_url(base + str(last))
    expect(page.locator("#counter")).to_contain_text(f"move {last} /")
    page.keyboard.press("Home")
    page.wait_for_url(base + "0")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_url(base + "3")
    expect(page.locator("#counter")).to_contain_text("move 3 /")
    page.screenshot(path=str(OUT / "keyboard-move-3.png"))


def test_move_list_and_chart_jump(server: str, page: Any, game4: dict[str, Any]) -> None:
    game = store(server, game4)
    base = f"{server}/games/{game['id']}/moves/"
    page.goto(base + "5")
    page.click('#moves a[data-move="20"]')
    page.wait_for_url(base + "20")
    assert current_move(page) == "20"
    chart = page.locator("#chart svg")
    box = chart.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 25, box["y"] + box["height"] / 2)
    page.wait_for_function("() => !location.pathname.endsWith('/moves/20')")
    n = int(current_move(page))
    assert len(game4["moves"]) - 5 <= n <= len(game4["moves"])
    assert page.url == base + str(n)


def test_permalink(server: str, page: Any, game4: dict[str, Any]) -> None:
    game = store(server, game4)
    page.goto(f"{server}/games/{game['id']}/moves/25")
    expect(page.locator("#counter")).to_contain_text("move 25 /")
    link = page.locator('#moves a[data-move="25"]')
    expect(link).to_have_class("move current")
    expect(link).to_be_in_viewport()
    expect(page.locator("#board rect.last")).to_have_count(1)
    page.screenshot(path=str(OUT / "permalink-25.png"))


def test_invalid_game_opens_at_its_failing_move(server: str, page: Any,
                                                game4: dict[str, Any]) -> None:
    bad = copy.deepcopy(game4)
    bad["moves"][8].update({"x": 0, "y": 0})  # onto the start tile: G4
    bad.pop("claims")
    game = store(server, bad)
    page.goto(f"{server}/games/{game['id']}")
    page.wait_for_url("**/moves/9")
    banner = page.locator("#board svg g.banner")
    expect(banner).to_contain_text("G4")
    expect(banner).to_contain_text("Move 9")
    expect(page.locator("#board svg g.ghost")).to_have_count(1)
    expect(page.locator("#events .failure")).to_contain_text("Rule G4")
    expect(page.locator('#moves a[data-move="9"]')).to_have_class("move current failed")
    page.screenshot(path=str(OUT / "invalid-failing-move.png"))
    page.keyboard.press("ArrowRight")  # nothing after the failing move
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/moves/8")
    expect(page.locator("#board svg g.banner")).to_have_count(0)


def test_player_name_shows_as_text(server: str, page: Any, game4: dict[str, Any]) -> None:
    log = copy.deepcopy(game4)
    log["players"][0]["name"] = XSS
    log.pop("claims")
    game = store(server, log)
    page.goto(f"{server}/games/{game['id']}/moves/4")
    expect(page.locator(".game-head h1")).to_contain_text(XSS)
    expect(page.locator("table.scores")).to_contain_text(XSS)
    page.goto(f"{server}/games?player=script")
    expect(page.locator("table.library")).to_contain_text(XSS)
    page.screenshot(path=str(OUT / "library.png"))


def test_audit_report_opens_in_chromium(server: str, page: Any, tmp_path: Path) -> None:
    """The audit's HTML report: a self-contained page (no script), its charts, its table of
    games that are not valid with links to the viewer, and hostile names shown as text."""
    import io as _io
    import zipfile

    from replay.audit import audit

    invalid = Path(__file__).resolve().parent.parent.parent / "fixtures" / "invalid"
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(6):
        (corpus / f"base-{i}.json").write_text(dumps(generate_log("base", 2 + i % 3, i)))
        (corpus / f"hg-{i}.json").write_text(dumps(generate_log("hunters-gatherers", 2, i)))
    for name in ("edge-mismatch.json", "occupied-cell.json", "wrong-final-claim.json",
                 "malformed-json.json", "supply-empty.json"):
        (corpus / name).write_bytes((invalid / name).read_bytes())
    edge = (invalid / "edge-mismatch.json").read_bytes()
    with zipfile.ZipFile(corpus / "hostile.zip", "w") as z:
        z.writestr(f"{XSS}.json", edge)
        z.writestr("inner.zip", b"PK")
    request = urllib.request.Request(f"{server}/api/games", data=edge,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10):
        pass
    out = _io.StringIO()
    summary = audit([str(corpus)], out, "html", jobs=1, viewer=server, progress=False)
    assert summary.exit == 2
    html = out.getvalue()
    assert "<script" not in html and "&lt;script&gt;" in html
    report = tmp_path / "audit.html"
    report.write_text(html, encoding="utf-8")

    page.goto(report.as_uri())
    expect(page.locator(".card[data-key=games] b")).to_have_text(str(summary.games))
    expect(page.locator(".card[data-key=illegal] b")).to_have_text(
        str(summary.verdicts["illegal"]))
    expect(page.locator("svg[aria-label='illegal games by rule id'] rect")).to_have_count(
        len(summary.rules))
    expect(page.locator("svg[aria-label='final scores of Carcassonne'] rect").first).to_be_visible()
    expect(page.locator("svg[aria-label='final scores of Hunters & Gatherers']")).to_be_visible()
    expect(page.locator("#failures")).to_contain_text(f"hostile.zip!{XSS}.json")
    expect(page.locator("#failures")).to_contain_text("archive inside an archive")
    page.screenshot(path=str(OUT / "audit-report.png"), full_page=True)
    page.locator("#failures a", has_text="edge-mismatch.json").click()
    page.wait_for_url("**/moves/9")
    expect(page.locator("#board svg.carcassonne-board")).to_be_visible()


# ---------------------------------------------------------------- zoom, links, phone, help

FAMILIES = {"base": ("base", 4, 3, ()),
            "base-ic-hs": ("base", 3, 5, ("inns-cathedrals", "hills-sheep")),
            "hunters-gatherers": ("hunters-gatherers", 4, 3, ()),
            "manhattan": ("manhattan", 4, 3, ())}



def view_box(pg: Any) -> list[float]:
    text: str = pg.locator("#board svg.carcassonne-board").get_attribute("viewBox")
    return [float(v) for v in text.split()]


def scale(pg: Any) -> float:
    return float(pg.locator("#board-pane").get_attribute("data-scale"))


def test_zoom_and_pan_are_kept_while_stepping(server: str, page: Any,
                                              game4: dict[str, Any]) -> None:
    game = store(server, game4)
    base = f"{server}/games/{game['id']}/moves/"
    page.goto(base + "30")
    fit = scale(page)
    expect(page.locator("#zoom")).to_be_visible()
    page.keyboard.press("+")
    assert scale(page) == pytest.approx(fit * 1.5, rel=0.01)
    box = page.locator("#board").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -300)
    zoomed = scale(page)
    assert zoomed > fit * 1.5
    before = view_box(page)
    page.mouse.down()
    page.mouse.move(cx + 60, cy + 40, steps=4)
    page.mouse.up()
    moved = view_box(page)
    assert moved[0] == pytest.approx(before[0] - 60 / zoomed, abs=0.5)
    assert moved[1] == pytest.approx(before[1] - 40 / zoomed, abs=0.5)
    assert page.url == base + "30"  # a drag is not a click
    page.keyboard.press("ArrowRight")
    page.wait_for_url(base + "31")
    expect(page.locator("#board-pane")).to_have_class(re.compile("zoomed"))
    assert scale(page) == pytest.approx(zoomed, rel=0.001)
    last = page.locator("#board rect.last")
    x, y = float(last.get_attribute("x")), float(last.get_attribute("y"))
    vb = view_box(page)
    assert vb[0] <= x and x + 95 <= vb[0] + vb[2] and vb[1] <= y and y + 95 <= vb[1] + vb[3]
    page.screenshot(path=str(OUT / "zoomed-desktop.png"))
    page.keyboard.press("0")
    expect(page.locator("#board-pane")).not_to_have_class(re.compile("zoomed"))
    assert scale(page) == pytest.approx(fit, rel=0.2)
    page.click("#zoom button[data-zoom=in]")
    assert scale(page) > fit


def test_far_zoom_brings_the_last_tile_into_view(server: str, page: Any,
                                                 game4: dict[str, Any]) -> None:
    game = store(server, game4)
    base = f"{server}/games/{game['id']}/moves/"
    page.goto(base + "40")
    for _ in range(4):
        page.keyboard.press("+")
    box = page.locator("#board").bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 10, box["y"] + box["height"] - 10, steps=3)
    page.mouse.up()
    for n in (41, 42, 43):
        page.keyboard.press("ArrowRight")
        page.wait_for_url(base + str(n))
        last = page.locator("#board rect.last")
        x, y = float(last.get_attribute("x")), float(last.get_attribute("y"))
        vb = view_box(page)
        assert vb[0] <= x and x + 95 <= vb[0] + vb[2], (n, vb, x)
        assert vb[1] <= y and y + 95 <= vb[1] + vb[3], (n, vb, y)


def test_a_score_lights_its_feature_and_a_badge_its_line(server: str, page: Any,
                                                         game4: dict[str, Any]) -> None:
    game = store(server, game4)
    n, i = scored_move(game4)
    page.goto(f"{server}/games/{game['id']}/moves/{n}")
    line = page.locator(f'#events li.ev-score[data-ev="{i}"]')
    feature = page.locator(f'#board g.hl[data-ev="{i}"]')
    expect(feature).to_have_count(1)
    line.hover()
    expect(feature).to_have_class(re.compile(r"\bon\b"))
    expect(page.locator("#board svg.carcassonne-board")).to_have_class(re.compile("focus"))
    fill = feature.get_attribute("fill")
    assert fill and fill.startswith("#") and fill != "#ffd21f"  # the scorer's colour
    page.screenshot(path=str(OUT / "link-line-to-feature.png"))
    page.mouse.move(5, 5)
    expect(feature).not_to_have_class(re.compile(r"\bon\b"))
    badge = page.locator(f'#board g.popup[data-ev="{i}"]').first
    badge.click()
    expect(line).to_have_class(re.compile(r"\bon\b"))
    caption = page.locator("#caption")
    expect(caption).to_be_visible()
    expect(caption).to_have_text(line.locator(".text").text_content() or "")
    page.keyboard.press("Escape")
    expect(caption).to_be_hidden()


def test_help_overlay(server: str, page: Any, game4: dict[str, Any]) -> None:
    game = store(server, game4)
    page.goto(f"{server}/games/{game['id']}/moves/5")
    help_box = page.locator("#help")
    expect(help_box).to_be_hidden()
    page.keyboard.press("?")
    expect(help_box).to_be_visible()
    expect(help_box).to_contain_text("Keys and gestures")
    page.screenshot(path=str(OUT / "help.png"))
    page.keyboard.press("ArrowRight")  # the help is modal: no step
    page.keyboard.press("Escape")
    expect(help_box).to_be_hidden()
    assert page.url.endswith("/moves/5")
    page.click("#zoom button[data-help]")
    expect(help_box).to_be_visible()
    page.click("#help button[data-help-close]")
    expect(help_box).to_be_hidden()


def swipe(pg: Any, x0: float, y0: float, x1: float, y1: float) -> None:
    cdp = pg.context.new_cdp_session(pg)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": x0, "y": y0}]})
    for k in range(1, 6):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x0 + (x1 - x0) * k / 5, "y": y0 + (y1 - y0) * k / 5}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_touch_stepping_on_a_phone(server: str, phone: Any, game4: dict[str, Any]) -> None:
    game = store(server, game4)
    base = f"{server}/games/{game['id']}/moves/"
    phone.goto(base + "10")
    nxt = phone.locator('#controls a[aria-label="next move"]')
    hit = nxt.bounding_box()
    assert hit["width"] >= 44 and hit["height"] >= 44
    for button in phone.locator("#zoom button").all():
        b = button.bounding_box()
        assert b["width"] >= 44 and b["height"] >= 44
    nxt.tap()
    phone.wait_for_url(base + "11")
    box = phone.locator("#board").bounding_box()
    mid = box["y"] + box["height"] / 2
    swipe(phone, box["x"] + 300, mid, box["x"] + 60, mid + 10)
    phone.wait_for_url(base + "12")
    expect(phone.locator("#counter")).to_contain_text("move 12 /")
    swipe(phone, box["x"] + 60, mid, box["x"] + 300, mid)
    phone.wait_for_url(base + "11")
    # zoomed in, a drag moves the board instead of stepping
    phone.keyboard.press("+")
    before = view_box(phone)
    swipe(phone, box["x"] + 300, mid, box["x"] + 60, mid)
    assert phone.url == base + "11"
    assert view_box(phone)[0] > before[0]


@pytest.mark.parametrize("name", list(FAMILIES))
def test_every_page_fits_a_phone(server: str, phone: Any, name: str) -> None:
    log = generate_log(*FAMILIES[name])
    game = store(server, log)
    last = len(log["moves"])
    pages = [f"/games/{game['id']}/moves/{last}", f"/games/{game['id']}/moves/{last // 2}"]
    if name == "base":
        pages += ["/games", "/upload", "/games/0123456789abcdef", "/games?sort=moves&order=asc"]
    for path in pages:
        phone.goto(server + path)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (path, width)
    phone.goto(f"{server}/games/{game['id']}/moves/{last}")
    expect(phone.locator("#result")).to_be_in_viewport()
    expect(phone.locator("#controls")).to_be_in_viewport()
    phone.screenshot(path=str(OUT / f"{name}-phone.png"))
    phone.screenshot(path=str(OUT / f"{name}-phone-full.png"), full_page=True)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_desktop_screenshots(server: str, page: Any, name: str) -> None:
    log = generate_log(*FAMILIES[name])
    game = store(server, log)
    last = len(log["moves"])
    page.goto(f"{server}/games/{game['id']}/moves/{last}")
    expect(page.locator("#result")).to_be_in_viewport()
    expect(page.locator("#result")).to_contain_text("wins")
    expect(page.locator("#events .ev-end")).to_be_in_viewport()
    page.screenshot(path=str(OUT / f"{name}-desktop.png"))
    score = page.locator("#events li.ev-score").first
    score.click()
    page.screenshot(path=str(OUT / f"{name}-desktop-linked.png"))


def test_library_sorts_and_fits_a_phone(server: str, phone: Any, game4: dict[str, Any]) -> None:
    store(server, game4)
    bad = copy.deepcopy(game4)
    assert len(bad["moves"]) == 71
    bad["moves"][8].update({"x": 0, "y": 0})
    bad.pop("claims")
    bad["players"][1]["name"] = "Quentin"
    store(server, bad)
    phone.goto(f"{server}/games?sort=moves&order=asc")
    expect(phone.locator(".sortby a[aria-current]")).to_contain_text("Moves")
    row = phone.locator("table.library tbody tr").first
    expect(row).to_contain_text("8 of 71")  # the illegal game stopped first
    expect(row).to_contain_text("invalid · G4 · move 9")
    opener = row.locator("a.open")
    expect(opener).to_be_in_viewport()
    assert opener.bounding_box()["height"] >= 44
    phone.fill("input[name=player]", "quent")
    phone.locator("form.filters button").tap()
    expect(phone.locator(".count")).to_contain_text("1 game")
    phone.screenshot(path=str(OUT / "library-phone.png"), full_page=True)


# ---------------------------------------------------------------- a game without tiles

def test_a_manhattan_game_steps_and_links(server: str, page: Any) -> None:
    """A game of another family in the same viewer: stepped with the keys and the buttons,
    its round scoring linked both ways to the board's groups (``data-ev``), its own status
    (round, phase, draw pile) and no word of tiles."""
    log = generate_log("manhattan", 3, 5)
    game = store(server, log)
    base = f"{server}/games/{game['id']}/moves/"
    last = len(log["moves"])
    page.goto(base + "0")
    board = page.locator("#board svg.manhattan-board")
    expect(board).to_be_visible()
    expect(page.locator("#events")).to_contain_text("nobody has moved yet")
    expect(page.locator("#state")).to_contain_text("Round 1 of 6 · choosing pieces")
    expect(page.locator("#state")).to_contain_text("33 cards to draw")
    assert "tile" not in page.locator("#viewer").inner_text().lower()
    assert page.title().endswith("Manhattan replay")
    page.screenshot(path=str(OUT / "manhattan-start.png"))
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_url(base + "3")
    expect(page.locator("#counter")).to_contain_text(f"move 3 / {last}")
    assert current_move(page) == "3"
    expect(page.locator("#events")).to_contain_text("for round 1")
    page.click('#controls a[aria-label="next move"]')
    page.wait_for_url(base + "4")
    expect(page.locator("#state")).to_contain_text("Round 1 of 6 · building")
    expect(page.locator("#board rect.last")).to_have_count(1)
    expect(page.locator("#moves a.current")).to_contain_text("-storey piece on the")
    page.screenshot(path=str(OUT / "manhattan-first-build.png"))
    # the end of round 1: the tallest building, the cities, the buildings
    record = play_through(parse(log))
    n = next(k + 1 for k, events in enumerate(record.events)
             if any(isinstance(e, Score) for e in events))
    events = record.events[n - 1]
    i = next(j for j, e in enumerate(events) if isinstance(e, Score)
             and e.feature == "city majority" and e.winners)
    page.click(f'#moves a[data-move="{n}"]')
    page.wait_for_url(base + str(n))
    expect(page.locator("#events li.ev-score")).to_have_count(
        sum(1 for e in events if isinstance(e, Score) and e.points))
    expect(page.locator("#events")).to_contain_text("the tallest building")
    expect(page.locator("#events")).to_contain_text("nobody scores (M10)")
    line = page.locator(f'#events li.ev-score[data-ev="{i}"]')
    group = page.locator(f'#board g.hl[data-ev="{i}"]')
    expect(group).to_have_count(1)
    line.click()
    expect(line).to_have_class(re.compile(r"\bon\b"))
    expect(group).to_have_class(re.compile(r"\bon\b"))
    expect(board).to_have_class(re.compile("focus"))
    # (the groups fade: wait for the end of the transition) the line's group stands out,
    # every other scored group is hidden
    page.wait_for_function("""i => {
        const gs = Array.from(document.querySelectorAll('#board g.hl'));
        return gs.length > 1 && gs.every(g => {
            const o = parseFloat(getComputedStyle(g).opacity);
            return g.dataset.ev === String(i) ? o > 0.5 : o === 0;
        });
    }""", arg=i)
    box, pane = group.bounding_box(), page.locator("#board").bounding_box()
    assert box and box["width"] > 50 and pane["x"] <= box["x"] <= pane["x"] + pane["width"]
    page.screenshot(path=str(OUT / "manhattan-round-end-linked.png"))
    line.click()  # a second click lets it go
    expect(group).not_to_have_class(re.compile(r"\bon\b"))
    # a "+N" badge of the board lights its line and writes it in the caption
    j = next(k for k, e in enumerate(events) if isinstance(e, Score)
             and e.feature == "building")
    page.locator(f'#board g.popup[data-ev="{j}"]').click()
    expect(page.locator(f'#events li.ev-score[data-ev="{j}"]')).to_have_class(
        re.compile(r"\bon\b"))
    expect(page.locator("#caption")).to_contain_text("1 point each")
    page.keyboard.press("Escape")
    page.keyboard.press("End")
    page.wait_for_url(base + str(last))
    expect(page.locator("#state")).to_contain_text("game over")
    expect(page.locator("#result")).to_contain_text("wins")
    expect(page.locator("#events .ev-end")).to_contain_text("game over")
    page.screenshot(path=str(OUT / "manhattan-final.png"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(base + str(last - 1))
    expect(page.locator("#counter")).to_contain_text(f"move {last - 1} / {last}")


def test_a_broken_manhattan_game_in_the_browser(server: str, page: Any) -> None:
    log = generate_log("manhattan", 2, 3)
    bad = copy.deepcopy(log)
    bad.pop("claims")
    record = parse(log)
    state = record.new_state()
    index = next(k for k, m in enumerate(log["moves"]) if k > 20 and "card" in m)
    for move in record.moves[:index]:
        state.apply(move)
    hand = state.hands[state.current_player]  # type: ignore[attr-defined,index]
    bad["moves"][index]["card"] = next(c for c in range(9) if c not in hand)
    game = store(server, bad)
    page.goto(f"{server}/games/{game['id']}")
    page.wait_for_url(f"**/moves/{index + 1}")
    expect(page.locator("#board svg g.banner")).to_contain_text("M3")
    expect(page.locator("#events .failure")).to_contain_text("Rule M3")
    expect(page.locator("#events")).to_contain_text("The illegal move was not played")
    expect(page.locator(f'#moves a[data-move="{index + 1}"]')).to_have_class(
        "move current failed")
    page.screenshot(path=str(OUT / "manhattan-invalid.png"))
