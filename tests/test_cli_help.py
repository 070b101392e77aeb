"""Every command's ``--help`` explains it: a description, each argument's meaning and default,
examples; ``./run --help`` and ``./run --version`` are the command line's (not serve's) and
``./run --port 8000`` still serves."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from replay.cli import COMMANDS
from replay.cli_parser import build_parser

from .support import ROOT


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_the_help_lists_every_command() -> None:
    assert set(_commands()) == set(COMMANDS)
    text = build_parser().format_help()
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s+\S", text, re.M), name  # with its one-line help


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_explains_itself(name: str) -> None:
    """A description, examples that run this command, and help for every argument
    (positional ones included) that gives an option's default."""
    command = _commands()[name]
    assert command.description and len(command.description) > 40, name
    assert command.epilog and "examples:" in command.epilog, name
    assert f"python -m replay {name}" in command.epilog, name
    for action in command._actions:
        if action.dest == "help":
            continue
        assert action.help and len(action.help) > 10, (name, action.dest)
        if action.option_strings:
            said = "default" in action.help or (action.required and "required" in action.help)
            assert said, (name, action.dest, action.help)
    assert "examples:" in command.format_help()  # shown as written (RawDescriptionHelpFormatter)


# --------------------------------------------------------------------------- ./run


@pytest.fixture
def run_copy(tmp_path: Path) -> Path:
    """The ``run`` script in a checkout of its own whose setup does nothing (its python runs
    the real one for ``-m replay``, except ``serve`` and ``data``, which it only echoes)."""
    root = tmp_path / "checkout"
    for d in ("replay", "web", ".venv/bin"):
        (root / d).mkdir(parents=True)
    shutil.copy(ROOT / "run", root / "run")
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    python = root / ".venv" / "bin" / "python"
    python.write_text(f"""#!/bin/sh
case "$*" in
  "-m replay serve"*) echo "served: $*"; exit 0 ;;
  "-m replay data"*) echo "data: $*"; exit 0 ;;
  "-m replay"*) exec {shlex.quote(sys.executable)} "$@" ;;
esac
exit 0  # pip, build_native, compileall: set up already
""", encoding="utf-8")
    python.chmod(0o755)
    return root


def _run(root: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(root / "run"), *words], capture_output=True, text=True,
                          cwd=root.parent, timeout=60, env={**os.environ, "NO_COLOR": "1"})


def test_run_help_is_the_command_line_s(run_copy: Path) -> None:
    done = _run(run_copy, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("One entry point")
    for word in ("./run test", "./run bench", "./run fuzz", "./run --version"):
        assert word in done.stdout
    assert "usage: python -m replay" in done.stdout
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s+\S", done.stdout, re.M), name
    assert "--port" not in done.stdout  # not serve's


def test_run_version_and_serve_options(run_copy: Path) -> None:
    done = _run(run_copy, "--version")
    assert done.returncode == 0, done.stderr
    assert re.match(r"python -m replay \d+\.\d+\S*\nengine: ", done.stdout)
    served = _run(run_copy, "--port", "8000")
    assert served.returncode == 0
    assert served.stdout.strip() == (f"served: -m replay serve --db {run_copy}/games.db "
                                     "--port 8000")


def test_run_data_browses_the_project_s_library(run_copy: Path) -> None:
    """``./run data``: Datasette on the games.db ``./run`` serves, unless told another."""
    done = _run(run_copy, "data", "--port", "8002")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"data: -m replay data --db {run_copy}/games.db --port 8002"
    other = _run(run_copy, "data", "--db", "other.db")
    assert other.stdout.strip() == "data: -m replay data --db other.db"
