"""The audit's HTML report in chromium, at desktop (1400x900) and phone (390x844) size (issue
31, item 5): files that are not logs say what they are and link nowhere, an illegal game links
to its failing move in the viewer, rule ids carry their names, every bar its count, and the
page never scrolls sideways on a phone (the charts shrink to it, the wide table scrolls in its
own box)."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pytest

from replay.audit import audit
from replay.generate import dumps, generate_log

from .support import CHROMIUM, OUT, expect

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
INVALID = Path(__file__).resolve().parent.parent.parent / "fixtures" / "invalid"
BROKEN = ("edge-mismatch.json", "overdrawn-tile.json", "malformed-json.json", "not-utf8.json",
          "missing-players.json", "wrong-final-claim.json")


@pytest.fixture(scope="module")
def report(server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An audit of a few games of two families and broken logs, the illegal ones stored in
    the viewer's library (as ``ingest`` would)."""
    corpus = tmp_path_factory.mktemp("audit-corpus")
    for i in range(4):
        (corpus / f"base-{i}.json").write_text(dumps(generate_log("base", 2 + i % 3, i)))
        (corpus / f"hg-{i}.json").write_text(dumps(generate_log("hunters-gatherers", 2, i)))
    for name in BROKEN:
        data = (INVALID / name).read_bytes()
        (corpus / name).write_bytes(data)
        if name in ("edge-mismatch.json", "overdrawn-tile.json"):
            post(server, data)
    out = corpus.parent / "audit.html"
    with out.open("w", encoding="utf-8") as fh:
        summary = audit([str(corpus)], fh, "html", jobs=1, viewer=server, progress=False)
    assert summary.verdicts["unreadable"] == 3 and summary.verdicts["illegal"] == 3
    return out


def post(server: str, data: bytes) -> None:
    """Store a log's very bytes in the viewer's library (its id: the start of their sha256)."""
    request = urllib.request.Request(f"{server}/api/games", data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10):
        pass


def _row(pg: Any, name: str) -> Any:
    return pg.locator("#failures tr", has=pg.locator("td.name", has_text=name))


def _overflow(pg: Any) -> int:
    """How far the page is wider than the window (0: it fits)."""
    width: int = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    return width


def test_audit_report_says_what_a_file_is_and_links_only_games(report: Path, page: Any) -> None:
    page.goto(report.as_uri())
    for name, rule, fmt in (("not-utf8.json", "not UTF-8", "unknown"),
                            ("malformed-json.json", "malformed JSON", "unknown"),
                            ("missing-players.json", "L1 · What a log names", "log v1")):
        row = _row(page, name)
        expect(row.locator("td").nth(2)).to_have_text(rule)
        expect(row.locator("td").nth(6)).to_have_text(fmt)
        expect(row.locator("a")).to_have_count(0)  # not stored by the viewer: no link
    expect(_row(page, "overdrawn-tile.json").locator("td").nth(2)).to_have_text(
        "L1 · What a log names")
    expect(_row(page, "edge-mismatch.json").locator("td").nth(2)).to_have_text("G4 · Placement")
    chart = page.locator("svg[aria-label='illegal games by rule id']")
    expect(chart).to_contain_text("G4 · Placement")
    expect(chart.locator("text.count")).to_have_text(["1", "1", "1"])
    for label in ("Carcassonne", "Hunters & Gatherers"):  # the games' names, not their ids
        bars = page.locator(f"svg[aria-label='final scores of {label}'] text.count"
                            "[text-anchor=middle]")
        counts = [int(t) for t in bars.all_text_contents()]
        assert counts and all(counts), label
    expect(page.locator("h3")).to_have_text(["Carcassonne", "Hunters & Gatherers"])
    assert sum(int(t) for t in page.locator(
        "svg[aria-label='final scores of Carcassonne'] text.count[text-anchor=middle]")
        .all_text_contents()) == 2 + 3 + 4 + 2  # seats of base-0 .. base-3
    assert _overflow(page) == 0
    page.screenshot(path=str(OUT / "audit-report-desktop.png"), full_page=True)
    for name in ("edge-mismatch.json", "overdrawn-tile.json"):  # links that the viewer answers
        page.goto(report.as_uri())
        _row(page, name).locator("a").click()
        page.wait_for_url("**/moves/*")
        expect(page.locator("#board svg")).to_be_visible()


def test_audit_report_fits_a_phone(report: Path, phone: Any) -> None:
    phone.goto(report.as_uri())
    expect(phone.locator("#failures")).to_be_visible()
    assert _overflow(phone) == 0  # the page does not scroll sideways
    box = phone.locator("#failures").locator("xpath=..")
    wide: bool = box.evaluate("e => e.scrollWidth > e.clientWidth")
    assert wide and box.evaluate("e => getComputedStyle(e).overflowX") == "auto"
    charts = phone.locator(".chart").all()
    assert len(charts) == 3
    for chart in charts:  # each chart shrinks to the phone, whole, its text still readable
        assert chart.evaluate("e => e.scrollWidth <= e.clientWidth"), chart.inner_html()[:80]
        scale = chart.evaluate("e => { const s = e.querySelector('svg'); return"
                               " s.getBoundingClientRect().width / s.viewBox.baseVal.width }")
        assert 0.75 <= scale <= 1, scale
    phone.screenshot(path=str(OUT / "audit-report-phone.png"), full_page=True)
