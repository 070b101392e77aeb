"""The geometry of the reports' charts: plain numbers and the labels to show, drawn as inline
SVG by the templates (``templates/charts.html``, which escape the labels).

Each chart is as wide as its longest label needs (12 px text: about 7 px a character), so no
label is cut; the page shows it at its size, shrunk to a narrow window down to ``shrink`` of
it (its box scrolls beyond, never the page).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

CHAR = 7  # px a character of 12 px text takes, about


@dataclass
class Chart:
    """An SVG's frame: its title (its accessible name), size and narrowest scale."""

    title: str
    width: float
    height: float
    shrink: float
    marks: list[dict[str, Any]] = field(default_factory=list)  # a bar (or row) each
    axis: dict[str, Any] = field(default_factory=dict)  # the axis and its caption, if any

    @property
    def min_width(self) -> float:
        return self.width * self.shrink


def bars(counts: Sequence[tuple[str, int]], title: str, colour: str = "#b42318") -> Chart | None:
    """Horizontal bars, one per label, each with its count (None: nothing to draw)."""
    if not counts:
        return None
    top = max(n for _, n in counts)
    row_h, bar_w = 22, 220
    label_w = 12 + CHAR * max(len(label) for label, _ in counts)
    count_w = 12 + CHAR * len(str(top))
    chart = Chart(title, label_w + bar_w + count_w, row_h * len(counts) + 10, 0.8)
    for i, (label, n) in enumerate(counts):
        y = 5 + i * row_h
        w = max(1, round(bar_w * n / top))
        chart.marks.append({"label": label, "n": n, "y": y, "x": label_w, "w": w,
                            "h": row_h - 6, "colour": colour})
    return chart


def histogram(scores: Counter[int], title: str, bins: int = 20) -> Chart | None:
    """Vertical bars: how many seats ended with a score in each range, each bar with its
    count above it and (at most 10 of them) its range below (None: no score)."""
    if not scores:
        return None
    lo, hi = min(scores), max(scores)
    width = max(1, -(-(hi - lo + 1) // bins))
    counts = [0] * (-(-(hi - lo + 1) // width))
    for s, n in scores.items():
        counts[(s - lo) // width] += n
    top = max(counts)
    plot_w, plot_h, head = 440, 150, 18  # head: room for the count over the tallest bar
    bw = plot_w / len(counts)
    every = max(1, -(-len(counts) // 10))  # at most 10 range labels: no overlap
    chart = Chart(title, plot_w + 20, plot_h + head + 48, 0.78)
    for i, n in enumerate(counts):
        h = round(plot_h * n / top)
        a, b = lo + i * width, lo + (i + 1) * width - 1
        chart.marks.append({"x": round(10 + i * bw, 1), "y": head + plot_h - h,
                            "w": round(bw - 2, 1), "h": h, "n": n,
                            "mid": round(10 + i * bw + (bw - 2) / 2, 1),
                            "range": f"{a}" if a == b else f"{a}-{b}",
                            "low": a if i % every == 0 else None})
    chart.axis.update({"y": head + plot_h + .5, "right": plot_w + 10,
                       "label_y": head + plot_h + 14, "caption_y": head + plot_h + 38,
                       "centre": 10 + plot_w / 2, "lo": lo, "hi": hi,
                       "seats": sum(scores.values()), "per_bar": width})
    return chart


def shifts(means: Sequence[tuple[str, dict[str, Any]]], title: str) -> Chart | None:
    """A mean change with its 95 % interval per label (``Mean.as_json()``: ``mean``,
    ``ci95``, ``n``): a line of text (the label, the mean, the interval, the games), under
    it a bar from 0 to the mean and a whisker over the interval, all rows on one scale
    (None: no mean to show)."""
    shown = [(label, j) for label, j in means if j["n"]]
    if not shown:
        return None
    texts = []
    for label, j in shown:
        ci = j["ci95"]
        texts.append(f"{label}: {j['mean']:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]"
                                                      if ci else "")
                     + f", {j['n']} game{'s' * (j['n'] != 1)}")
    pad, row_h = 8, 40
    width = max(360, 2 * pad + CHAR * max(map(len, texts)))
    mid, half = width / 2, width / 2 - pad
    top = max([abs(v) for _, j in shown for v in [j["mean"], *(j["ci95"] or [])]] + [1e-9])

    def x(v: float) -> float:
        return round(float(mid + half * v / top), 1)

    chart = Chart(title, width, row_h * len(shown) + 22, max(0.75, min(1.0, 340 / width)))
    for i, ((_, j), text) in enumerate(zip(shown, texts, strict=True)):
        y = 4 + i * row_h
        left, right = sorted((x(0), x(j["mean"])))
        ci = j["ci95"]
        chart.marks.append({"text": text, "text_y": y + 13, "x": left, "y": y + 19,
                            "w": max(round(right - left, 1), 1), "h": 12,
                            "colour": "#2563eb" if j["mean"] >= 0 else "#b42318",
                            "lo": x(ci[0]) if ci else None, "hi": x(ci[1]) if ci else None,
                            "whisker_y": y + 25, "pad": pad})
    chart.axis.update({"zero": mid, "bottom": row_h * len(shown) + 4,
                       "label_y": row_h * len(shown) + 18})
    return chart


def intervals(rows: Sequence[tuple[str, str, float, float, float]], title: str,
              reference: float | None = None, low: float = 0.0,
              high: float = 1.0) -> Chart | None:
    """Estimates with their 95 % intervals on one scale from ``low`` to ``high`` (a rate:
    0 to 1): per row (its text, its colour, the estimate, the interval's bounds) the text on
    the left and, on the right, a whisker over the interval and a dot at the estimate; a
    dashed line at ``reference`` (a fair value) and the scale's ends under them (None: no
    row)."""
    if not rows:
        return None
    row_h, plot_w, pad = 24, 300, 10
    left = pad + CHAR * max(len(text) for text, *_ in rows) + 12
    span = (high - low) or 1.0

    def x(v: float) -> float:
        return round(left + plot_w * (min(high, max(low, v)) - low) / span, 1)

    chart = Chart(title, left + plot_w + pad, row_h * len(rows) + 26, 0.8)
    for i, (text, colour, value, lo, hi) in enumerate(rows):
        y = 4 + i * row_h
        chart.marks.append({"text": text, "text_y": y + 15, "pad": pad, "colour": colour,
                            "x": x(value), "lo": x(lo), "hi": x(hi), "whisker_y": y + 11})
    bottom = row_h * len(rows) + 4
    chart.axis.update({"top": 2, "bottom": bottom, "label_y": bottom + 16, "left": x(low),
                       "right": x(high), "low": f"{low:g}", "high": f"{high:g}",
                       "reference": None if reference is None else x(reference),
                       "reference_label": None if reference is None else f"{reference:.3g}"})
    return chart
