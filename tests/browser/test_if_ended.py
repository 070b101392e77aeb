"""The "if it ended now" line in a real browser (issue 30, part 2): a dashed line per player on
the chart, the score if the game ended now beside each player's, at desktop and phone sizes."""

from __future__ import annotations

from typing import Any

import pytest

from replay.core.outlook import if_ended_now
from replay.core.playback import play_through
from replay.core.record import parse
from replay.generate import generate_log

from .support import CHROMIUM, OUT, expect, store

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


def test_dashed_lines_and_the_values_beside_the_scores(server: str, page: Any,
                                                       phone: Any) -> None:
    log = generate_log("base", 6, 3, ("inns-cathedrals", "hills-sheep"))
    curve = if_ended_now(play_through(parse(log)))
    n = len(curve) * 2 // 3
    url = f"{server}/games/{store(server, log)['id']}/moves/{n}"
    for pg, name in ((page, "desktop"), (phone, "phone")):
        pg.goto(url)
        dashed = pg.locator("#chart svg polyline.if-ended")
        expect(dashed).to_have_count(6)
        assert dashed.first.get_attribute("stroke-dasharray")
        expect(pg.locator("#chart .legend")).to_contain_text(
            "dashed: the score if the game ended now")
        beside = pg.locator("table.scores small.if-ended")
        expect(beside).to_have_count(6)
        assert [int(t.strip("→\xa0 ")) for t in beside.all_inner_texts()] == curve[n]
        expect(pg.locator("table.scores caption")).to_have_text(
            "→ the score if the game ended now")
        # the table fits the page: nothing sticks out to the right
        width = pg.evaluate("document.documentElement.clientWidth")
        right = pg.evaluate("Math.max(...[...document.querySelectorAll('table.scores td')]"
                            ".map(e => e.getBoundingClientRect().right))")
        assert right <= width + 0.5, (name, right, width)
        pg.locator("#state").screenshot(path=str(OUT / f"if-ended-scores-{name}.png"))
        pg.locator("#chart").screenshot(path=str(OUT / f"if-ended-chart-{name}.png"))
