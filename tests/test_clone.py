"""Everything in the clone (issue 31, item 6): a clone alone holds every file its docs link and
its tests read. Every relative link of README.md and the docs resolves to a file inside the
repository; no doc, test, tool or module names a path outside it (the project's shared folder
beside a checkout, ``/work/...``); the reference copies in docs/reference are the ones the
built-in tile sets were made from."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md"),
               *(ROOT / "examples").glob("*/README.md"), *(ROOT / "fixtures").rglob("README.md")])
# [text](target) and [label]: target, outside code spans and code blocks
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)", re.M)
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
# a path outside the repository: the shared folder beside it, a machine's absolute path
OUTSIDE = re.compile(r"\.\./shared\b|(?<![\w.])/work/|ROOT\.parent\b")
# where docs and tests also must not send a reader to the shared folder by name
SHARED = re.compile(r"(?<![\w./-])shared/(?:reference|seeds|fixtures|RULES\.md)")


def links(text: str) -> list[str]:
    """The link targets of a Markdown text (code spans and blocks left out)."""
    return [a or b for a, b in LINK.findall(CODE.sub("", text))]


def test_links_reads_markdown() -> None:
    text = ('See [a](docs/a.md#x) and [b](b.md "t"), `[not](x.md)`.\n'
            "```\n[nor](y.md)\n```\n[ref]: ../z.md\n")
    assert links(text) == ["docs/a.md#x", "b.md", "../z.md"]


def test_every_relative_link_of_the_docs_is_a_file_of_the_clone() -> None:
    broken = []
    for doc in DOCS:
        for target in links(doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # http:, mailto:, an anchor of the page itself
            path = (doc.parent / target.split("#")[0]).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
    assert not broken, "links to files that are not in the clone:\n" + "\n".join(broken)


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown text (code blocks left out)."""
    headings = re.findall(r"^#+\s+(.*?)\s*$", re.sub(r"```.*?```", "", text, flags=re.S), re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def test_anchors_reads_headings() -> None:
    assert anchors("# A: `b`, c\n```\n# not\n```\n### 1.8 Fuzz it\n") == {"a-b-c", "18-fuzz-it"}


def test_every_anchor_of_a_link_is_a_heading_of_its_page() -> None:
    """A section moved from one page to another (issue 35, item 10) leaves no link to an
    anchor that is gone."""
    broken = []
    for doc in DOCS:
        for target in links(doc.read_text(encoding="utf-8")):
            path, _, anchor = target.partition("#")
            if not anchor or re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue
            page = (doc.parent / path).resolve() if path else doc
            if page.suffix == ".md" and anchor not in anchors(page.read_text(encoding="utf-8")):
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
    assert not broken, "links to anchors that no heading makes:\n" + "\n".join(broken)


def test_no_doc_test_or_code_names_a_path_outside_the_clone() -> None:
    this = Path(__file__).resolve()
    code = [p for top in ("replay", "web", "tests", "tools", "benchmarks", "examples")
            for p in sorted((ROOT / top).rglob("*.py")) if p != this and ".venv" not in p.parts]
    found = []
    for path in [*DOCS, *code]:
        reference = path.is_relative_to(ROOT / "docs" / "reference")  # copies, kept unchanged
        strict = path.suffix == ".md" or path.is_relative_to(ROOT / "tests")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not reference and (OUTSIDE.search(line) or strict and SHARED.search(line)):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "paths outside the clone:\n" + "\n".join(found)


def test_the_reference_copies_make_the_built_in_tile_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """tools/import_reference.py, run on docs/reference/tiles-base-ic-hs.md, gives the
    committed tile sets of the base game and its expansions byte for byte (the Hunters &
    Gatherers one: ``test_hg13_importer_reproduces_the_committed_file``)."""
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    tool = importlib.import_module("import_reference")
    try:
        text = (ROOT / "docs" / "reference" / "tiles-base-ic-hs.md").read_text(encoding="utf-8")
        made = {name: tool.dump_tileset(data) for name, data in tool.build_tilesets(text).items()}
    finally:
        sys.modules.pop("import_reference", None)
    assert len(made) == 3
    for name, text in made.items():
        assert text == (ROOT / "replay" / "data" / "tilesets" / name).read_text(
            encoding="utf-8"), name
