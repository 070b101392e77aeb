"""The HTML report of ``python -m replay diff``: one self-contained page (inline CSS and SVG, no
script) like the audit's: the summary, the mean score change B - A per seat and per kind of
scoring event as bars with their 95 % confidence intervals, and the table of the changed games
(the first diverging move linked to the web viewer when its address is given, as the audit
links a game: by the start of the sha256 of its bytes).

Every string that came from the input or the command line (names, messages, players, rule
ids, settings) is escaped.
"""

from __future__ import annotations

from html import escape
from typing import IO, Any

from ..audit.html_report import CSS, viewer_url
from .diff import Row
from .diff_report import MAX_TABLE, DiffSummary, Mean, scores_words, side_words

EXTRA_CSS = ".changed b{color:#b42318}.same b{color:#17803d}.zero{stroke:#444}"


def _e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def shift_chart(means: list[tuple[str, Mean]], title: str) -> str:
    """Horizontal bars from 0 to each mean, a whisker over its 95 % interval (inline SVG)."""
    shown = [(label, m.as_json()) for label, m in means if m.n]
    if not shown:
        return f'<p class="muted">{_e(title)}: no game both sides replay to their end.</p>'
    ends = [abs(v) for _, j in shown for v in [j["mean"], *(j["ci95"] or [])]]
    top = max(max(ends), 1e-9)
    row_h, label_w, half = 24, 130, 260
    mid = label_w + half + 10
    height = row_h * len(shown) + 24

    def x(v: float) -> float:
        return float(mid + half * v / top)

    parts = [f'<svg role="img" aria-label="{_e(title)}" width="{mid + half + 150}" '
             f'height="{height}" xmlns="http://www.w3.org/2000/svg">',
             f'<line class="zero" x1="{mid}" x2="{mid}" y1="0" y2="{height - 18}"/>',
             f'<text x="{mid}" y="{height - 4}" text-anchor="middle">0</text>']
    for i, (label, j) in enumerate(shown):
        y = 4 + i * row_h
        mean = j["mean"]
        left, right = sorted((x(0), x(mean)))
        colour = "#2563eb" if mean >= 0 else "#b42318"
        ci = j["ci95"]
        said = f"{mean:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "") \
            + f", {j['n']} games"
        tip = f"{label}: {said}"
        parts.append(f'<text x="{label_w}" y="{y + 15}" text-anchor="end">{_e(label)}</text>'
                     f'<rect x="{left:.1f}" y="{y + 3}" width="{max(right - left, 1):.1f}" '
                     f'height="{row_h - 10}" fill="{colour}"><title>{_e(tip)}</title></rect>')
        if ci:
            lo, hi = x(ci[0]), x(ci[1])
            yc = y + row_h / 2 - 2
            parts.append(f'<path d="M{lo:.1f} {yc - 5}v10M{lo:.1f} {yc}H{hi:.1f}M{hi:.1f} '
                         f'{yc - 5}v10" stroke="#111" fill="none"/>')
        parts.append(f'<text x="{mid + half + 14}" y="{y + 15}">{_e(said)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _cards(summary: DiffSummary, s: dict[str, Any]) -> str:
    cards = [("games", "games", ""), ("compared", "compared", ""),
             ("changed", "changed", "changed"), ("unchanged", "the same", "same"),
             ("winners_changed", "winners changed", ""),
             ("became_illegal", "illegal under B only", ""),
             ("became_legal", "illegal under A only", ""), ("unreadable", "unreadable", ""),
             ("not_comparable", "not comparable", ""), ("internal", "internal errors", "")]
    out = ['<div class="cards">']
    for key, label, cls in cards:
        if key in ("internal", "became_legal") and not s[key]:
            continue
        out.append(f'<div class="card {cls}" data-key="{key}"><b>{s[key]}</b>{label}</div>')
    out.append(f'<div class="card"><b>{summary.rate:.0f}</b>games/s</div></div>')
    return "".join(out)


def _changed_table(summary: DiffSummary, viewer: str | None) -> str:
    if not summary.changed_rows:
        return '<p class="muted">None.</p>'
    out = ['<table id="changed"><tr><th>game</th><th>first diverging move</th><th>player</th>'
           "<th>A</th><th>B</th><th>final scores A</th><th>final scores B</th>"
           "<th>winners A / B</th></tr>"]
    for row in summary.changed_rows:
        k = row["first_divergence"]
        there = row.get("divergence") or {}
        url = viewer_url(viewer, {"sha256": row.get("sha256"),
                                  "move": k - 1 if isinstance(k, int) and k > 0 else None})
        name = _e(row["source"])
        cell = f'<a href="{_e(url)}">{name}</a>' if url else name
        winners = (f"{_e(', '.join(row['winners_a']) or '-')} / "
                   f"{_e(', '.join(row['winners_b']) or '-')}")
        out.append(f'<tr><td class="name">{cell}</td><td>{_e(k)}</td>'
                   f'<td>{_e(there.get("player"))}</td>'
                   f'<td>{_e(side_words(there.get("a"), there.get("b")))}</td>'
                   f'<td>{_e(side_words(there.get("b"), there.get("a")))}</td>'
                   f'<td>{_e(scores_words(row["final_scores_a"]))}</td>'
                   f'<td>{_e(scores_words(row["final_scores_b"]))}</td><td>{winners}</td></tr>')
    out.append("</table>")
    if summary.changed > len(summary.changed_rows):
        out.append(f'<p class="muted">The first {MAX_TABLE} are listed; '
                   f"{summary.changed - MAX_TABLE} more are in the JSON Lines or CSV report."
                   "</p>")
    return "".join(out)


def write_html(out: IO[str], summary: DiffSummary, title: str = "Diff",
               viewer: str | None = None) -> None:
    """The whole page."""
    s = summary.as_json()
    w = out.write
    w(f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
      f'<meta name="viewport" content="width=device-width,initial-scale=1">'
      f"<title>{_e(title)}</title><style>{CSS}{EXTRA_CSS}</style></head><body>")
    w(f"<h1>{_e(title)}</h1><p>A: {_e(summary.a)}<br>B: {_e(summary.b)}</p>")
    w(_cards(summary, s))
    w(f'<p class="muted">exit code {s["exit_code"]}; {summary.seconds:.1f} s. Score changes: '
      f'{_e(s["score_change"]["method"])}.</p>')
    w("<h2>Score change per seat (B - A)</h2>")
    w(shift_chart([(f"seat {k}", summary.seats[k]) for k in sorted(summary.seats)],
                  "mean final score change per seat"))
    if not summary.baseline:
        w("<h2>Points per game by kind of scoring (B - A)</h2>")
        w(shift_chart(list(summary.per_kind().items()), "mean points change per kind"))
    if summary.not_compared:
        w("<h2>Not compared</h2><table><tr><th>games</th><th>why</th><th>for example</th></tr>")
        for why, n in sorted(summary.not_compared.items(), key=lambda kv: (-kv[1], kv[0])):
            w(f'<tr><td>{n}</td><td>{_e(why)}</td><td class="name">'
              f'{"<br>".join(_e(x) for x in summary.examples[why])}</td></tr>')
        w("</table>")
    w(f"<h2>Changed games ({summary.changed})</h2>")
    w(_changed_table(summary, viewer))
    w("</body></html>\n")


class HtmlWriter:
    """Keeps nothing per row but what the summary keeps; writes the page at the end."""

    def __init__(self, out: IO[str], title: str = "Diff", viewer: str | None = None) -> None:
        self.out = out
        self.title = title
        self.viewer = viewer

    def row(self, row: Row) -> None:
        pass

    def close(self, summary: DiffSummary) -> None:
        write_html(self.out, summary, self.title, self.viewer)
