"""The reports' HTML page: a ``Kind``'s template (``replay/reports/templates``) rendered with
Jinja, HTML escaping on (every name, message, player, rule id and setting is shown as text,
never as markup), into one self-contained file: inline CSS, inline SVG charts, no script.

Games link to the web viewer when its address is given (``viewer_url``): a game's id there is
the start of the sha256 of its bytes, as ``ingest`` and uploads store it, so a link answers
only once the game is in the viewer's library (``audit --ingest DB`` stores them; the page says
so when they were not stored).

The page fits a phone's width (390 px): the charts shrink to it down to a readable size and,
like the wide tables, scroll sideways in their own box beyond that, never the page.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from . import Kind, Summary

TEMPLATES = Path(__file__).resolve().with_name("templates")


@cache
def environment() -> Environment:
    """The reports' Jinja environment (autoescape on, an undefined value an error)."""
    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def write_page(out: IO[str], kind: Kind, summary: Summary, title: str,
               viewer: str | None = None) -> None:
    """The whole page of ``kind``'s report."""
    values = kind.page(summary, viewer)
    page = environment().get_template(kind.template).render(title=title, viewer=viewer,
                                                            **values)
    out.write(page.rstrip("\n") + "\n")


def viewer_url(viewer: str | None, sha256: str | None, move: int | None = None) -> str | None:
    """The viewer's page of a game (after the 0-based ``move``: its page is move + 1), when
    the viewer is an http(s) address and the game's bytes are known."""
    if not viewer or not sha256 or urlsplit(viewer).scheme not in ("http", "https"):
        return None
    base = viewer.rstrip("/") + "/games/" + quote(str(sha256)[:16])
    return base + (f"/moves/{int(move) + 1}" if isinstance(move, int) else "")


def family_label(name: str) -> str:
    """A game family's name for people (its ``label``), or its ``game`` as the log
    writes it when no installed family has that name."""
    from ..core.errors import LogFormatError
    from ..core.family import family

    try:
        return family(name).label
    except LogFormatError:
        return name


def render(template: str, **values: Any) -> str:
    """A template of the reports rendered with ``values`` (for tests and tools)."""
    return environment().get_template(template).render(**values)
