"""The README stays what a newcomer reads on a screen or two (issue 35, item 10): the two
commands first, one example per use, and a link to every page of ``docs/`` where the rest
lives; nothing it once said is lost, because each command and option has its page."""

from __future__ import annotations

import argparse
import re

from replay.cli import COMMANDS
from replay.cli_parser import build_parser

from .support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))}
MAX_LINES = 150


def _blocks(text: str) -> list[str]:
    """The fenced code blocks of a Markdown text, in order."""
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)


def test_the_readme_is_short() -> None:
    lines = README.splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines; keep it to {MAX_LINES} " \
        "and move the rest into a page of docs/"


def test_the_two_commands_come_first() -> None:
    """Its first lines: one command that sets up and serves the web app on an SQLite file,
    one that sets up and runs the tests; and CI runs exactly the second."""
    first = README.split("\n\n")[1]
    assert first.startswith("```sh\n"), "the README's first paragraph after its title is code"
    serve, test = [line.split("#")[0].strip() for line in _blocks(README)[0].splitlines()[:2]]
    assert (serve, test) == ("./run", "./run test")
    assert "serve the web app" in first and "SQLite" in first and "pytest" in first
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^exec \./run test$", ci, re.M), ".ci/run runs ./run test"


def test_the_readme_links_every_page_of_the_docs() -> None:
    linked = set(re.findall(r"\]\(docs/([^)#]+)", README))
    missing = sorted(set(DOCS) - linked)
    assert not missing, f"pages of docs/ the README does not link: {missing}"


def test_one_example_per_use() -> None:
    """Check, audit, view and analyse (with the two switches named), import, the rules lab,
    the API (Python and HTTP), plugins, serving, benchmarks."""
    code = "\n".join(_blocks(README))
    for command in ("verify", "audit", "ingest", "import", "fuzz", "diff", "serve", "bench"):
        assert re.search(rf"^(\S+=\S+ )?\./run {command}\b", code, re.M), command
    assert "import replay" in code and "/api/" in code
    assert "./examples/" in code
    for switch in ("try moves", "hide results"):
        assert switch in README, switch


def test_one_line_per_benchmark_script() -> None:
    """The developer guide wants every benchmark's command in the README: one line each
    (``bench.py`` is ``./run bench``)."""
    lines = [line for block in _blocks(README) for line in block.splitlines()]
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        if "__main__" not in script.read_text(encoding="utf-8"):
            continue
        named = "./run bench" if script.name == "bench.py" else f"benchmarks/{script.name}"
        found = [line for line in lines if re.search(rf"{re.escape(named)}\b", line.split("#")[0])]
        assert len(found) == 1, f"{script.name}: {len(found)} README lines run it"


def test_every_command_has_an_example_in_the_docs() -> None:
    """What left the README is in a page: every command of the command line is run in an
    example of README.md or docs/."""
    code = "\n".join(_blocks(README) + [b for text in DOCS.values() for b in _blocks(text)])
    for command in COMMANDS:
        assert re.search(rf"(\./run|python -m replay) {command}\b", code), command


def test_every_serve_option_is_in_the_operating_page() -> None:
    page = DOCS["operating.md"]
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = sub.choices["serve"]
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    assert len(options) >= 8
    missing = [o for o in options if o != "--help" and o not in page]
    assert not missing, f"serve options docs/operating.md does not give: {missing}"


def test_the_viewer_switches_and_keys_are_in_the_viewing_page() -> None:
    page = DOCS["viewing.md"]
    for words in ("## Hide results", "## The analysis board: try moves", "`Home`", "`x`",
                  "`?explore=1`", "localStorage"):
        assert words in page, words
