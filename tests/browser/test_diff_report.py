"""The diff's HTML report in chromium, at desktop (1400x900) and phone (390x844) size (issue
35, item 12): the page never scrolls sideways (it was 930 px wide on a phone), no label of a
chart is cut (the intervals' were, on a desktop too), the table of changed games scrolls in
its own box, and names from the input are shown as text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from replay.generate import dumps, generate_log
from replay.lab.diff import DiffSpec
from replay.lab.diff_run import diff

from .support import CHROMIUM, OUT, expect

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
XSS = "<img src=x onerror=alert(1)>&amp;"  # a name with markup (no slash: a file name)

# what of an SVG's text lies outside its box (0: all of it is drawn): the text's box against
# the viewBox, in the SVG's own units
CUT = """svg => {
  const box = svg.viewBox.baseVal;
  let worst = 0;
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    worst = Math.max(worst, box.x - b.x, b.x + b.width - (box.x + box.width),
                     box.y - b.y, b.y + b.height - (box.y + box.height));
  }
  return worst;
}"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A diff of base games under small_city=2 and 4 (some change), one with a hostile name,
    and a game of another family (not comparable)."""
    corpus = tmp_path_factory.mktemp("diff-corpus")
    for i in range(12):
        name = f"{XSS}-{i}.json" if i == 9 else f"base-{i}.json"  # game 9 changes
        (corpus / name).write_text(dumps(generate_log("base", 2 + i % 3, 100 + i)))
    (corpus / "hg.json").write_text(dumps(generate_log("hunters-gatherers", 2, 1)))
    out = corpus.parent / "diff.html"
    with out.open("w", encoding="utf-8") as fh:
        summary = diff([str(corpus)], fh, DiffSpec({"small_city": 2}, {"small_city": 4}),
                       "html", jobs=1, viewer="http://127.0.0.1:5000", progress=False)
    assert summary.changed >= 2 and summary.statuses["not comparable"] == 1
    return out


def _overflow(pg: Any) -> int:
    """How far the page is wider than the window (0: it fits)."""
    width: int = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    return width


def _charts_whole(pg: Any) -> None:
    charts = pg.locator(".chart svg").all()
    assert len(charts) == 2
    for svg in charts:
        assert svg.evaluate(CUT) <= 0.5, svg.get_attribute("aria-label")
        box = svg.locator("xpath=..")
        assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), box.inner_html()[:80]


def test_diff_report_on_a_desktop(report: Path, page: Any) -> None:
    page.goto(report.as_uri())
    assert _overflow(page) == 0
    _charts_whole(page)
    seat = page.locator("svg[aria-label='mean final score change per seat'] text.shift")
    expect(seat.first).to_contain_text("seat 1: +")
    expect(seat.first).to_contain_text(" games")
    expect(page.locator("#changed")).to_contain_text(f"{XSS}-9.json")
    expect(page.locator("#changed a").first).to_have_attribute(
        "href", re.compile(r"^http://127\.0\.0\.1:5000/games/[0-9a-f]{16}"))
    expect(page.locator("p.note")).to_contain_text("python -m replay ingest")
    page.screenshot(path=str(OUT / "diff-report-desktop.png"), full_page=True)


def test_diff_report_fits_a_phone(report: Path, phone: Any) -> None:
    phone.goto(report.as_uri())
    expect(phone.locator("#changed")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    _charts_whole(phone)
    for svg in phone.locator(".chart svg").all():  # shrunk at most a little: text readable
        scale = svg.evaluate("s => s.getBoundingClientRect().width / s.viewBox.baseVal.width")
        assert 0.85 <= scale <= 1, scale
    box = phone.locator("#changed").locator("xpath=..")
    assert box.evaluate("e => getComputedStyle(e).overflowX") == "auto"
    phone.screenshot(path=str(OUT / "diff-report-phone.png"), full_page=True)
