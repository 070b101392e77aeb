"""The statistics pages (issue 38 item 4) in a real browser: a player's page reached from
the library and from a game's viewer, its figures and its bar chart; the corpus's page from
the library's "statistics" link with its histogram; on a desktop (1400x900) and a phone
(390x844), nothing wider than the screen, even for a name of 64 characters."""

from __future__ import annotations

from typing import Any

import pytest

from replay.generate import generate_log

from .support import CHROMIUM, OUT, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

LONG = "Wolfgang-Amadeus-Theophilus-Mozart-von-Salzburg-und-Wien-Europa"  # 64 characters
NAMES = ["Ada", "Bérénice", LONG, "<i>Dee</i>"]

WIDEST = """() => Math.max(document.documentElement.scrollWidth,
    ...Array.from(document.querySelectorAll('main *')).map(e => e.getBoundingClientRect().right))"""


@pytest.fixture(scope="module")
def stored(server: str) -> list[str]:
    ids = []
    for k, (game, n) in enumerate([("base", 2), ("base", 3), ("hunters-gatherers", 3),
                                   ("manhattan", 4), ("base", 4), ("manhattan", 2)]):
        log = generate_log(game, n, 40 + k)
        old = [p["name"] for p in log["players"]]
        new = [NAMES[(k + i) % len(NAMES)] for i in range(n)]
        to = dict(zip(old, new, strict=True))
        for p in log["players"]:
            p["name"] = to[p["name"]]
        claims = log["claims"]
        claims["final_scores"] = {to[a]: s for a, s in claims["final_scores"].items()}
        claims["winners"] = [to[a] for a in claims["winners"]]
        ids.append(store(server, log)["id"])
    return ids


def _check_player_page(pg: Any) -> None:
    expect(pg.locator("h1 bdi")).to_have_text("Bérénice")
    expect(pg.locator("dl.figures dd").first).to_have_text("5")
    chart = pg.locator("svg.chart.bars")
    expect(chart).to_be_visible()
    assert chart.locator("rect.bar").count() >= 4
    assert chart.bounding_box()["height"] > 80
    expect(pg.locator("ul.recent li")).to_have_count(5)
    expect(pg.locator("ul.recent").get_by_text("<i>Dee</i>").first).to_be_visible()


def test_a_players_page_from_the_library_on_a_desktop(server: str, page: Any,
                                                      stored: list[str]) -> None:
    page.goto(f"{server}/games")
    page.locator("table.library a.plink", has_text="Bérénice").first.click()
    page.wait_for_url("**/players/B%C3%A9r%C3%A9nice")
    _check_player_page(page)
    assert page.evaluate(WIDEST) <= 1400
    page.screenshot(path=str(OUT / "stats-player-desktop.png"), full_page=True)
    # a recent game with the long name opens in the viewer
    page.locator("ul.recent li", has_text=LONG).first.locator("a").first.click()
    page.wait_for_url("**/games/*/moves/*")
    page.locator(".game-head h1 a.plink", has_text=LONG).click()  # and its names lead back
    expect(page.locator("h1 bdi")).to_have_text(LONG)


def test_a_players_page_on_a_phone(server: str, phone: Any, stored: list[str]) -> None:
    phone.goto(f"{server}/players/B%C3%A9r%C3%A9nice")
    _check_player_page(phone)
    assert phone.evaluate(WIDEST) <= 390
    phone.screenshot(path=str(OUT / "stats-player-phone.png"), full_page=True)
    phone.goto(f"{server}/players/{LONG}")
    expect(phone.locator("h1 bdi")).to_have_text(LONG)
    assert phone.evaluate(WIDEST) <= 390
    phone.screenshot(path=str(OUT / "stats-player-long-phone.png"), full_page=True)


def test_the_statistics_of_a_filter(server: str, page: Any, phone: Any,
                                    stored: list[str]) -> None:
    page.goto(f"{server}/games?game=base")
    page.locator("a.stats-link").click()
    page.wait_for_url("**/stats?game=base")
    expect(page.locator(".count").first).to_contain_text("3 games of Carcassonne")
    expect(page.locator("table.figs tr.all")).to_contain_text("3")
    expect(page.locator("svg.chart.columns rect.bar:not([height='0.0'])").first).to_be_visible()
    page.screenshot(path=str(OUT / "stats-corpus-desktop.png"), full_page=True)
    phone.goto(f"{server}/stats")
    expect(phone.locator("svg.chart.columns")).to_be_visible()
    assert phone.evaluate(WIDEST) <= 390
    phone.screenshot(path=str(OUT / "stats-corpus-phone.png"), full_page=True)


def test_a_name_without_games_on_a_phone(server: str, phone: Any, stored: list[str]) -> None:
    response = phone.goto(f"{server}/players/%3Cb%3ENobody%3C%2Fb%3E%20{'x' * 50}")
    assert response.status == 404
    expect(phone.locator("p.empty")).to_contain_text("No stored game has a player named")
    expect(phone.locator("h1 bdi")).to_contain_text("<b>Nobody</b>")
    assert phone.evaluate(WIDEST) <= 390
    phone.screenshot(path=str(OUT / "stats-player-unknown-phone.png"), full_page=True)
