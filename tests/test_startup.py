"""Start-up: ``python -m replay verify FILE`` imports only what that file needs.

A one-file verify is mostly interpreter start-up and imports, so each module it does not need
is time lost (issue "Verify 1,000 logs/s per core"). These tests run the command in a fresh
interpreter and read which modules it imported (``sys.modules``); they measure no time.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from replay import dumps, generate_log
from replay.core.family import FAMILY_GROUP
from replay.core.plugins import entry_points

PACKAGES = {game: ep.value.partition(":")[0] for game, ep in entry_points(FAMILY_GROUP).items()}

ROOT = Path(__file__).resolve().parent.parent
# never needed to verify a valid log v1: the web app, drawing, the generator, foreign
# formats, the JSON Schema validator (the header check is the fast path), orjson (dearer to
# import than it saves on one small file), the playback of the API's other names, the
# command-line parser (a plain ``verify FILE`` is read by hand), OpenSSL's hashes
# (``core.digests``), ``dataclasses`` with the ``inspect`` it imports (``core.values``) and
# ``importlib.metadata`` with zipfile and email (``core.plugins`` reads the entry points), and
# the log schemas (``core.schemas``, the families' parts: only a log the fast checks refuse)
NOT_NEEDED = ("web", "replay.svg", "replay.tiles.drawing", "replay.tiles.art",
              "replay.generate", "replay.core.importing", "replay.games.carcassonne.importers",
              "replay.audit.command", "jsonschema",
              "orjson", "replay.cli_parser", "argparse", "hashlib", "_hashlib", "pathlib",
              "pickle", "dataclasses", "inspect", "importlib.metadata", "zipfile", "email",
              "replay.core.schemas", "replay.games.tile_logs", "replay.games.manhattan.schema")
# a game of each family: (game, players, expansions)
GAMES = [("base", 2, ()), ("base", 6, ("inns-cathedrals", "hills-sheep")),
         ("hunters-gatherers", 3, ()), ("manhattan", 4, ())]


# ``python -m replay verify FILE``, then the names of every module imported (``-X importtime``
# would miss those imported by ``importlib.import_module``), written as it leaves by
# ``os._exit`` (``replay/__main__.py``)
_VERIFY = """import os, runpy, sys
sys.argv = ["replay", "verify", sys.argv[1]]
leave = os._exit
def _exit(code):
    sys.stderr.write("\\nmodules: " + " ".join(sorted(sys.modules)) + "\\n")
    sys.stderr.flush()
    leave(code)
os._exit = _exit
runpy.run_module("replay", run_name="__main__", alter_sys=True)
"""


def imported_by_verify(path: Path) -> set[str]:
    """The modules a fresh ``python -m replay verify PATH`` imports (it must say valid)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    done = subprocess.run([sys.executable, "-c", _VERIFY, str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert ": valid," in done.stdout
    found = re.search(r"^modules: (.*)$", done.stderr, re.M)
    assert found, done.stderr[-2000:]
    return set(found[1].split())


@pytest.mark.parametrize(("game", "players", "expansions"), GAMES)
def test_a_one_file_verify_imports_its_family_alone(tmp_path: Path, game: str, players: int,
                                                    expansions: tuple[str, ...]) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(generate_log(game, players, 7, expansions)), encoding="utf-8")
    modules = imported_by_verify(path)
    assert PACKAGES[game] in modules
    others = [p for g, p in PACKAGES.items() if g != game]
    wrong = sorted(m for m in modules for prefix in (*NOT_NEEDED, *others)
                   if m == prefix or m.startswith(prefix + "."))
    assert not wrong, f"a verify of a {game} log imported {wrong}"


@pytest.mark.parametrize("words", [
    ["verify", "a.json"],
    ["verify", "a.json", "b c.json", "dir/d.jcz"],
])
def test_a_plain_verify_reads_as_the_parser_would(words: list[str]) -> None:
    """``cli._plain_verify`` (no parser) gives the arguments ``build_parser`` gives."""
    from replay.cli import _plain_verify
    from replay.cli_parser import build_parser

    by_hand = _plain_verify(words)
    assert by_hand is not None
    assert vars(by_hand) == vars(build_parser("verify").parse_args(words))


@pytest.mark.parametrize("words", [
    [], ["verify"], ["verify", "--json", "a.json"], ["verify", "a.json", "-v"],
    ["generate"], ["render", "a.json"], ["verify", "--", "-a.json"],
])
def test_every_other_command_line_goes_to_the_parser(words: list[str]) -> None:
    from replay.cli import _plain_verify

    assert _plain_verify(words) is None
