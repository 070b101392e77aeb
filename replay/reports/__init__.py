"""The reports of ``audit`` and ``diff``, one layer for both: the writers of their formats
(text, JSON Lines, CSV, an HTML page) and the factory that picks one; each command says only
what its report is made of (a ``Kind``: which rows the text lists and how, a row's JSON object
and CSV cells, the page's template and its values).

Writers take the rows one at a time, in the order of the walk, and the summary at the end, so
a report of ten million games is written as it goes (the page keeps nothing per row but what
the summary keeps). The HTML page is a Jinja template (``replay/reports/templates``, HTML
escaped automatically: every string from the input or the command line is shown as text),
rendered by ``html``; the charts' geometry is ``charts``.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Protocol

from ..core.printable import printable

Row = dict[str, Any]
FORMATS = ("text", "json", "csv", "html")


class Summary(Protocol):
    """What a report ends with: counts over the rows."""

    def lines(self) -> list[str]: ...

    def as_json(self) -> dict[str, Any]: ...


class Writer(Protocol):
    """A report format: rows one by one, then the summary."""

    def row(self, row: Row) -> None: ...

    def close(self, summary: Any) -> None: ...


@dataclass(frozen=True)
class Kind:
    """What one command's report is made of, format by format."""

    listed: Callable[[Row], bool]  # text: the rows that get a line (every row with verbose)
    line: Callable[[Row], str]  # text: a row's line
    public: Callable[[Row], Any]  # JSON Lines: a row's object
    columns: tuple[str, ...]  # CSV: the header
    cells: Callable[[Row], Sequence[Any]]  # CSV: a row's cells
    template: str  # HTML: the page's template, in replay/reports/templates
    page: Callable[[Any, str | None], Mapping[str, Any]]  # HTML: (summary, viewer) -> values


def reason(message: str | None) -> str:
    """A message with its numbers taken out, to group alike reasons."""
    return re.sub(r"(?<![\w.-])\d+(?![\w.])", "N", message or "")[:160]


def cell(value: Any) -> Any:
    """A cell a spreadsheet will not run: text starting with = + - @ is quoted with '."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


class TextWriter:
    """A line per listed row (``verbose``: every row), then the summary's lines."""

    def __init__(self, kind: Kind, out: IO[str], verbose: bool = False) -> None:
        self.kind = kind
        self.out = out
        self.verbose = verbose

    def row(self, row: Row) -> None:
        if self.verbose or self.kind.listed(row):
            self.out.write(printable(self.kind.line(row)) + "\n")

    def close(self, summary: Summary) -> None:
        self.out.write("\n".join(summary.lines()) + "\n")


class JsonWriter:
    """JSON Lines: an object per row, then ``{"summary": ...}``."""

    def __init__(self, kind: Kind, out: IO[str]) -> None:
        self.kind = kind
        self.out = out

    def row(self, row: Row) -> None:
        self.out.write(json.dumps(self.kind.public(row), ensure_ascii=False) + "\n")

    def close(self, summary: Summary) -> None:
        self.out.write(json.dumps({"summary": summary.as_json()}, ensure_ascii=False) + "\n")


class CsvWriter:
    """A line per row, for spreadsheets (the summary is no row: the command prints it on
    stderr)."""

    def __init__(self, kind: Kind, out: IO[str]) -> None:
        self.kind = kind
        self.writer = csv.writer(out)
        self.writer.writerow(kind.columns)

    def row(self, row: Row) -> None:
        self.writer.writerow([cell(x) for x in self.kind.cells(row)])

    def close(self, summary: Summary) -> None:
        pass


class HtmlWriter:
    """One page, written at the end from the summary (``html.write_page``)."""

    def __init__(self, kind: Kind, out: IO[str], title: str,
                 viewer: str | None = None) -> None:
        self.kind = kind
        self.out = out
        self.title = title
        self.viewer = viewer

    def row(self, row: Row) -> None:
        pass

    def close(self, summary: Summary) -> None:
        from .html import write_page

        write_page(self.out, self.kind, summary, self.title, self.viewer)


def writer(kind: Kind, fmt: str, out: IO[str], viewer: str | None = None,
           verbose: bool = False, title: str = "Report") -> Writer:
    """The writer of ``kind``'s report in ``fmt`` (one of ``FORMATS``; ``viewer``: the web
    viewer the page links games to; ``verbose``: the text lists every row)."""
    if fmt == "json":
        return JsonWriter(kind, out)
    if fmt == "csv":
        return CsvWriter(kind, out)
    if fmt == "html":
        return HtmlWriter(kind, out, title, viewer)
    return TextWriter(kind, out, verbose)
