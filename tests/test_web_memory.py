"""What a server process keeps is bounded by bytes (issue 35 F: workers grew to 540 MB under
the soak): the games and variations kept (``CACHE_BYTES``, ``VARIATION_BYTES``,
``EXPLORED_BYTES``: estimated weights, never under what an entry really holds), and the
attribute texts the SVG writer remembers."""

from __future__ import annotations

import gc
import json
import tracemalloc
from typing import Any

import pytest

from replay.core import svgtext
from replay.generate import generate_log
from web import db as store
from web import viewer
from web.db import get_db
from web.games import LRU, Entry, cache, weigh


def test_an_lru_keeps_its_weight_under_its_budget() -> None:
    kept: LRU[str, str] = LRU(10, 100, len)
    for i in range(20):
        kept.put(f"k{i}", "x" * 30)
        assert kept.weight <= 100 and len(kept) <= 3
    assert kept.get("k19") and kept.get("k17") and kept.get("k16") is None
    kept.get("k17")  # used: the least recently used goes first
    kept.put("k20", "y" * 30)
    assert kept.get("k17") and kept.get("k18") is None
    kept.put("big", "z" * 500)  # heavier than the budget: kept alone
    assert len(kept) == 1 and kept.weight == 500 and kept.get("big")
    kept.put("big", "z" * 10)  # put again: weighed again
    assert kept.weight == 10
    by_count: LRU[int, str] = LRU(2)
    for i in range(5):
        by_count.put(i, "x" * 1000)
    assert len(by_count) == 2 and by_count.weight == 0


GAMES = [("base", 6, 1, ("inns-cathedrals", "hills-sheep")), ("hunters-gatherers", 4, 2, ()),
         ("manhattan", 4, 3, ()), ("base", 2, 1, ())]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}")
def test_a_games_weight_is_never_under_what_it_holds(app: Any, game: Any) -> None:
    """``weigh`` (from the row, before the replay) is at least the bytes a kept game holds
    once viewed: its record and playback with checkpoints, summary, report and charts."""
    client = app.test_client()
    gid = client.post("/api/games", data=json.dumps(generate_log(*game))).get_json()["id"]
    with app.test_request_context():
        row = store.find(get_db(), gid)
        assert row is not None

        def viewed() -> Entry:
            entry = Entry(row)
            _ = entry.summary, entry.report
            for n in (entry.last, entry.last // 2):
                viewer.build(entry, n)
                viewer.chart(entry, n, "/games/x/moves/", "")
                viewer.chart(entry, n, "/games/x/moves/", "?explore=1")
            return entry

        viewed()  # the process's own caches (tile art, attribute texts) warmed first
        gc.collect()
        tracemalloc.start()
        try:
            entry = viewed()
            gc.collect()
            held = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
    assert held <= weigh(entry) <= 4 * held, (held, weigh(entry))


@pytest.mark.app_config(CACHE_BYTES=4_000_000, VARIATION_BYTES=3_500_000,
                        RATE_LIMIT=None, ANALYSIS_RATE_LIMIT=None)
def test_the_kept_games_and_variations_stay_within_their_budgets(app: Any) -> None:
    client = app.test_client()
    ids = []
    for seed in range(8):
        log = generate_log("base", 6, 100 + seed, ("inns-cathedrals", "hills-sheep"))
        ids.append(client.post("/api/games", data=json.dumps(log)).get_json()["id"])
    for gid in ids:
        assert client.get(f"/games/{gid}/moves/20").status_code == 200
        got = client.get(f"/api/games/{gid}/moves/60/choices").get_json()["choices"]
        token = got["options"][0]["token"]
        assert client.get(f"/games/{gid}/variation/60/{token}/moves/61").status_code == 200
        games, variations = app.extensions["replay_cache"], app.extensions["replay_variations"]
        assert games.weight <= 4_000_000 and variations.weight <= 3_500_000
    assert 1 <= len(games._games) <= 3 and 1 <= len(variations) < len(ids)
    with app.app_context():
        assert cache().kept(ids[-1]) is not None and cache().kept(ids[0]) is None


def test_the_svg_writer_remembers_short_values_and_so_many() -> None:
    svgtext._WRITTEN.clear()
    svgtext.element("a", href="/games/0123456789abcdef/moves/12?explore=1", class_="hit")
    assert ("class_", "hit") in svgtext._WRITTEN
    assert not any(k == "href" for k, _ in svgtext._WRITTEN)  # a link is not remembered
    for i in range(svgtext.REMEMBERED + 10):
        svgtext.element("rect", x=str(i))
        assert len(svgtext._WRITTEN) <= svgtext.REMEMBERED


def test_serve_collects_cycles_at_the_default_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m replay`` slows the cycle collector for a short verify; ``serve`` runs for
    hours and sets it back (at 20,000 its workers grew to 250-540 MB under the soak, 92 MB
    at the default)."""
    import gc

    from replay.cli_parser import build_parser
    from web import command, server

    seen: list[tuple[int, ...]] = []

    def serve(config: object, settings: object) -> int:
        seen.append(gc.get_threshold())
        return 0

    monkeypatch.setattr(server, "serve", serve)
    before = gc.get_threshold()
    gc.set_threshold(20_000)
    try:
        args = build_parser("serve").parse_args(["serve", "--port", "0", "--db", "x.db"])
        assert command.cmd_serve(args) == 0
    finally:
        gc.set_threshold(*before)
    assert seen == [command.DEFAULT_GC]
