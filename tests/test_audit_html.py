"""The audit's rows and HTML report for files that are not logs (issue 31, item 5): a file
that could not be read or parsed is said to be what it is ("unreadable", "not UTF-8",
"malformed JSON", format "unknown"), never rule L1 of a "log v1", and gets no viewer link; rule
ids are shown with their names; every bar of a chart carries its count. The page in a browser,
at desktop and phone size, is ``tests/browser/test_audit_report.py``."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from typing import Any

from replay.audit.report import Summary, game_url, write_html
from replay.audit.work import failed_row, verify_task
from replay.reports import charts
from replay.reports.html import environment

from .support import FIXTURES

INVALID = FIXTURES / "invalid"
VIEWER = "http://viewer.example"


def _row(name: str, data: bytes) -> dict[str, object]:
    return verify_task((0, name, None, data, None))


def test_L1_is_no_label_for_a_file_that_is_not_json() -> None:
    """Bytes that are not UTF-8, text that is not JSON (a syntax error, a key twice, a lone
    surrogate), a file that could not be read: their own rule label, format unknown; the
    verdict and the JSON report (``verify --json``) stay those of ``verify``."""
    cases = {
        "not UTF-8": (INVALID / "not-utf8.json").read_bytes(),
        "malformed JSON": (INVALID / "malformed-json.json").read_bytes(),
    }
    for kind, data in cases.items():
        row = _row("f.json", data)
        assert (row["verdict"], row["rule"], row["format"]) == ("unreadable", kind, "unknown")
        assert row["report"]["error"]["rule"] == "L1"  # type: ignore[index]
    for data in (b'{"a": 1, "a": 2}', b'{"a": "\\ud800"}'):
        assert _row("f.json", data)["rule"] == "malformed JSON", data
    walked = failed_row(3, "a.zip!inner.zip", "unreadable", "an archive inside an archive")
    assert (walked["rule"], walked["format"]) == ("unreadable", "unknown")
    big = verify_task((0, "big.json", None, b"{" + b" " * 100 + b"}", None), max_bytes=50)
    assert (big["rule"], big["format"]) == ("unreadable", "unknown")


def test_L1_stays_for_json_that_is_no_valid_log() -> None:
    """A JSON value that is not a valid log (schema) is the log format's L1; a tile drawn
    more often than the set holds is an illegal move under L1."""
    row = _row("m.json", (INVALID / "missing-players.json").read_bytes())
    assert (row["verdict"], row["rule"], row["format"]) == ("unreadable", "L1", "log v1")
    row = _row("o.json", (INVALID / "overdrawn-tile.json").read_bytes())
    assert (row["verdict"], row["rule"], row["format"]) == ("illegal", "L1", "log v1")


def test_only_illegal_games_link_to_the_viewer_and_rules_have_names() -> None:
    rows = {name: _row(name, (INVALID / name).read_bytes()) for name in (
        "edge-mismatch.json", "not-utf8.json", "malformed-json.json", "missing-players.json",
        "overdrawn-tile.json", "wrong-final-claim.json")}
    linked = {n for n, r in rows.items() if game_url(VIEWER, r)}
    assert linked == {"edge-mismatch.json", "overdrawn-tile.json", "wrong-final-claim.json"}
    assert game_url(VIEWER, rows["edge-mismatch.json"]).endswith("/moves/9")  # type: ignore[union-attr]
    summary = Summary()
    for r in rows.values():
        summary.add(r)
    page = io.StringIO()
    write_html(page, summary, viewer=VIEWER)
    html = page.getvalue()
    table = html[html.index('id="failures"'):]
    cells = re.findall(r"<tr><td class=\"name\">(.*?)</td><td>(\w+)</td><td>(.*?)</td>"
                       r".*?<td>([^<]*)</td></tr>", table)
    by_name = {re.sub(r"<[^>]+>", "", c[0]): (c[0].startswith("<a "), c[2], c[3]) for c in cells}
    assert by_name == {
        "edge-mismatch.json": (True, "G4 · Placement", "log v1"),
        "overdrawn-tile.json": (True, "L1 · What a log names", "log v1"),
        "wrong-final-claim.json": (True, "L2 · Claimed scores", "log v1"),
        "not-utf8.json": (False, "not UTF-8", "unknown"),
        "malformed-json.json": (False, "malformed JSON", "unknown"),
        "missing-players.json": (False, "L1 · What a log names", "log v1"),
    }
    chart = html[html.index("illegal games by rule id"):html.index("</svg>")]
    assert re.findall(r'<text class="count"[^>]*>(\d+)</text>', chart) == ["1", "1", "1"]
    assert "G4 · Placement" in chart
    json.dumps(summary.as_json())  # the summary of such rows is still plain JSON
    left = html[html.index("<h2>Not read</h2>"):]
    left = left[:left.index("</table>")]
    groups = re.findall(r"<tr><td>(\d+)</td><td>(.*?)</td><td class=\"name\">(.*?)</td>", left)
    assert sum(int(n) for n, _, _ in groups) == 3  # not UTF-8, malformed JSON, no players
    assert {x for _, _, x in groups} >= {"not-utf8.json", "malformed-json.json"}


def test_each_bar_of_a_histogram_carries_its_count() -> None:
    scores = Counter({10: 3, 11: 1, 40: 2, 95: 7})
    macros: Any = environment().get_template("charts.html").module
    svg = str(macros.histogram(charts.histogram(scores, "final scores of x"), "x"))
    bars = re.findall(r'<rect [^>]*><title>([^<]*)</title>', svg)
    counted = re.findall(r'<text class="count" [^>]*text-anchor="middle">(\d+)</text>', svg)
    assert sum(map(int, counted)) == sum(scores.values()) == 13
    assert len(counted) == sum(1 for t in bars if not t.endswith(": 0 seats"))
    assert "seats of 13" in svg and 'viewBox="0 0 ' in svg
