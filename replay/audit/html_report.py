"""The audit's HTML report: one self-contained file (inline CSS, inline SVG charts, no
script) with the summary, a histogram of the failing rule ids, the score distribution of each
game family and the table of the games that are not valid, with their first failing move
(an illegal game linked to the web viewer when its address is given: a game's id there is the
start of the sha256 of its bytes, as ``ingest`` and uploads store it; a file that could not be
read is not stored there, so it gets no link).

Rule ids are shown with their names (``rule_names``: "G4 · Placement"); a file that is no log
is said to be what it is ("not UTF-8", "malformed JSON", "unreadable": ``work.not_read``).
Each bar of a chart is labelled with its count. The page fits a phone's width (390 px): the
charts shrink to it down to a readable size and, like the tables, scroll sideways in their own
box beyond that.

Every string that came from the input (names, messages, players, rule ids) is escaped.
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import IO
from urllib.parse import quote, urlsplit

from ..core.rule_names import rule_label
from .report import MAX_TABLE, Summary
from .work import Row

CSS = """
*{box-sizing:border-box}
body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:4px 6px;
text-align:left;vertical-align:top}th{background:#f4f4f4}
#failures td:nth-child(6){min-width:16em}#failures td:nth-child(3){white-space:nowrap}
.cards{display:flex;gap:1em;flex-wrap:wrap}.card{border:1px solid #ddd;border-radius:6px;
padding:.6em 1em;min-width:7em}.card b{display:block;font-size:1.6em}
.valid b{color:#17803d}.illegal b{color:#b42318}.unreadable b,.internal b{color:#9a6700}
.name{word-break:break-all;font-family:ui-monospace,monospace;font-size:12px;min-width:10em}
.chart svg{display:block;width:100%;height:auto}
svg text{font:12px system-ui,sans-serif}svg text.count{font-size:11px;fill:#333}.muted{color:#666}
@media (max-width:600px){body{margin:1em auto;padding:0 .6em}.cards{gap:.5em}
.card{min-width:5.5em;padding:.4em .6em}}
"""


def _e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def viewer_url(viewer: str | None, row: Row) -> str | None:
    """The viewer's page of a game (its failing move), when the viewer is an http(s) address
    and the game is one the library stores (a readable log; a file that could not be read,
    or is no log, is never stored: a link would answer 404)."""
    if not viewer or not row.get("sha256") or row.get("verdict") in ("unreadable", "internal"):
        return None
    if urlsplit(viewer).scheme not in ("http", "https"):
        return None
    base = viewer.rstrip("/") + "/games/" + quote(str(row["sha256"])[:16])
    move = row.get("move")
    return base + (f"/moves/{int(move) + 1}" if isinstance(move, int) else "")


def _svg(title: str, width: float, height: float, shrink: float) -> str:
    """An SVG's opening tag: as wide as the page allows up to ``width``, not narrower than
    ``shrink`` of it (its box scrolls beyond)."""
    return (f'<div class="chart scroll"><svg role="img" aria-label="{_e(title)}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
            f'style="max-width:{width:.0f}px;min-width:{width * shrink:.0f}px" '
            'xmlns="http://www.w3.org/2000/svg">')


def bar_chart(counts: list[tuple[str, int]], title: str, colour: str = "#b42318") -> str:
    """Horizontal bars, one per label, each with its count (an inline SVG)."""
    if not counts:
        return f'<p class="muted">{_e(title)}: none.</p>'
    top = max(n for _, n in counts)
    row_h, bar_w = 22, 220
    label_w = 12 + 7 * max(len(label) for label, _ in counts)  # 12px text: ~7px a character
    count_w = 12 + 7 * len(str(top))
    width = label_w + bar_w + count_w
    parts = [_svg(title, width, row_h * len(counts) + 10, 0.8)]
    for i, (label, n) in enumerate(counts):
        y = 5 + i * row_h
        w = max(1, round(bar_w * n / top))
        parts.append(f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end">{_e(label)}</text>'
                     f'<rect x="{label_w}" y="{y + 2}" width="{w}" height="{row_h - 6}" '
                     f'fill="{colour}"><title>{_e(label)}: {n}</title></rect>'
                     f'<text class="count" x="{label_w + w + 6}" y="{y + 15}">{n}</text>')
    parts.append("</svg></div>")
    return "".join(parts)


def histogram(scores: Counter[int], title: str, bins: int = 20) -> str:
    """Vertical bars: how many seats ended with a score in each range, each bar with its
    count above it and its range below (an inline SVG)."""
    if not scores:
        return f'<p class="muted">{_e(title)}: no finished valid game.</p>'
    lo, hi = min(scores), max(scores)
    width = max(1, -(-(hi - lo + 1) // bins))
    counts = [0] * (-(-(hi - lo + 1) // width))
    for s, n in scores.items():
        counts[(s - lo) // width] += n
    top = max(counts)
    plot_w, plot_h, head = 440, 150, 18  # head: room for the count over the tallest bar
    bw = plot_w / len(counts)
    parts = [_svg(title, plot_w + 20, plot_h + head + 48, 0.78)]
    for i, n in enumerate(counts):
        h = round(plot_h * n / top)
        a, b = lo + i * width, lo + (i + 1) * width - 1
        x, y = 10 + i * bw, head + plot_h - h
        what = f"{a}" if a == b else f"{a}-{b}"
        parts.append(f'<rect x="{x:.1f}" y="{y}" width="{bw - 2:.1f}" height="{h}" '
                     f'fill="#2563eb"><title>{what}: {n} seat{"s" * (n != 1)}</title></rect>')
        if n:
            parts.append(f'<text class="count" x="{x + (bw - 2) / 2:.1f}" y="{y - 4}" '
                         f'text-anchor="middle">{n}</text>')
        if i % max(1, -(-len(counts) // 10)) == 0:  # at most 10 range labels: no overlap
            parts.append(f'<text class="count" x="{x:.1f}" y="{head + plot_h + 14}">{a}</text>')
    parts.append(f'<line x1="10" x2="{plot_w + 10}" y1="{head + plot_h + .5}" '
                 f'y2="{head + plot_h + .5}" stroke="#999"/>'
                 f'<text x="{10 + plot_w / 2}" y="{head + plot_h + 38}" text-anchor="middle">'
                 f'final score ({lo} to {hi}), seats of {sum(scores.values())}; a bar: '
                 f'{width} point{"s" * (width != 1)}</text></svg></div>')
    return "".join(parts)


def write_html(out: IO[str], summary: Summary, title: str = "Audit",
               viewer: str | None = None) -> None:
    """The whole page."""
    s = summary.as_json()
    w = out.write
    w(f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
      f'<meta name="viewport" content="width=device-width,initial-scale=1">'
      f"<title>{_e(title)}</title><style>{CSS}</style></head><body>")
    w(f"<h1>{_e(title)}</h1><div class=\"cards\">")
    for key, label in (("games", "games"), ("valid", "valid"), ("unfinished", "unfinished"),
                       ("illegal", "illegal"), ("unreadable", "unreadable"),
                       ("internal", "internal errors")):
        if key == "internal" and not s[key]:
            continue
        w(f'<div class="card {key}" data-key="{key}"><b>{s[key]}</b>{label}</div>')
    w(f'<div class="card"><b>{summary.rate:.0f}</b>games/s</div></div>')
    w(f'<p class="muted">exit code {s["exit_code"]}; {summary.seconds:.1f} s.</p>')
    if summary.partial:  # a broken archive: this report is not of the whole corpus
        w(f'<p class="illegal"><b>Incomplete: {summary.partial} archive'
          f'{"s" * (summary.partial != 1)} not read to the end</b> '
          f'({_e(", ".join(summary.partial_names))}): the games after the break are missing '
          "from this report.</p>")

    w("<h2>Failing rules</h2>")
    w(bar_chart([(rule_label(r), n) for r, n in
                 sorted(summary.rules.items(), key=lambda kv: (-kv[1], kv[0]))],
                "illegal games by rule id"))
    if summary.unreadable:
        w('<h2>Not read</h2><div class="scroll"><table><tr><th>games</th><th>why</th>'
          "<th>for example</th></tr>")
        for why, n in sorted(summary.unreadable.items(), key=lambda kv: (-kv[1], kv[0])):
            w(f'<tr><td>{n}</td><td>{_e(why)}</td><td class="name">'
              f'{"<br>".join(_e(x) for x in summary.examples[why])}</td></tr>')
        w("</table></div>")

    w("<h2>Scores by game family</h2>")
    if not summary.scores:
        w('<p class="muted">No finished valid game.</p>')
    for game in sorted(summary.scores):
        w(f"<h3>{_e(game)}</h3>{histogram(summary.scores[game], f'final scores of {game}')}")

    bad = summary.games - s["valid"] - s["unfinished"]
    w(f"<h2>Games that are not valid ({bad})</h2>")
    if not summary.failures:
        w('<p class="muted">None.</p>')
    else:
        w('<div class="scroll"><table id="failures"><tr><th>game</th><th>verdict</th>'
          "<th>rule</th><th>move</th><th>player</th><th>message</th><th>format</th></tr>")
        for row in summary.failures:
            url = viewer_url(viewer, row)
            name = _e(row["name"])
            cell = f'<a href="{_e(url)}">{name}</a>' if url else name
            move = row["move"] + 1 if isinstance(row["move"], int) else ""  # people count from 1
            w(f'<tr><td class="name">{cell}</td><td>{_e(row["verdict"])}</td>'
              f'<td>{_e(rule_label(row["rule"]))}</td><td>{_e(move)}</td>'
              f'<td>{_e(row["player"])}</td><td>{_e(row["message"])}</td>'
              f'<td>{_e(row["format"])}</td></tr>')
        w("</table></div>")
        if bad > len(summary.failures):
            w(f'<p class="muted">The first {MAX_TABLE} are listed; {bad - MAX_TABLE} more are '
              "in the JSON Lines or CSV report.</p>")
    w("</body></html>\n")


class HtmlWriter:
    """Keeps nothing per row but what the summary keeps; writes the page at the end."""

    def __init__(self, out: IO[str], title: str = "Audit", viewer: str | None = None) -> None:
        self.out = out
        self.title = title
        self.viewer = viewer

    def row(self, row: Row) -> None:
        pass

    def close(self, summary: Summary) -> None:
        write_html(self.out, summary, self.title, self.viewer)
