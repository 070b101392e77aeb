"""The registry of game families (issue 28, item 1): every family, built-in or not, registers
through the entry point group ``carcassonne_replay.families``.

A scratch distribution here is a ``<name>-0.1.dist-info`` directory (``METADATA`` and
``entry_points.txt``) and a module beside it, in the test's temporary directory, put on
``sys.path`` (in this process) or ``PYTHONPATH`` (a ``python -m replay`` child): the family is
found with no file of the project edited. ``replay.core.plugins.forget()`` makes the registry
read ``sys.path`` again; the ``registry`` fixture calls it before and after each test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from replay.cli import main
from replay.core import plugins
from replay.core.errors import LogFormatError
from replay.core.family import FAMILY_GROUP, NO_FAMILIES, Family, families, family
from replay.core.verify import verify
from replay.generate import dumps, generate_log

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = ["base", "hunters-gatherers", "manhattan"]

# a family of another distribution: Carcassonne under another name (the variants of the
# examples change a rule too; here only the registration matters)
FAMILY_MODULE = '''
from replay.games.carcassonne import Carcassonne


class Scratch(Carcassonne):
    name = "scratch-game"
    label = "Scratch game"


SCRATCH = Scratch()
NOT_A_FAMILY = 42
'''


@pytest.fixture(autouse=True)
def registry() -> Iterator[None]:
    """The registry read afresh before the test and after it (``sys.path`` restored)."""
    plugins.forget()
    yield
    plugins.forget()


def scratch_distribution(where: Path, dist: str, entry_points: dict[str, str],
                         module: str | None = None) -> Path:
    """A distribution ``dist`` installed into ``where``: its metadata directory declaring
    ``entry_points`` (name -> ``module:attribute``) in the families' group, and the module
    ``module`` (``FAMILY_MODULE``), if given; ``where``."""
    info = where / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n",
                                   encoding="utf-8")
    lines = [f"[{FAMILY_GROUP}]", *(f"{k} = {v}" for k, v in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if module is not None:
        (where / f"{module}.py").write_text(FAMILY_MODULE, encoding="utf-8")
    return where


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A scratch distribution ``scratch-games`` on ``sys.path`` declaring the family
    ``scratch-game`` (module ``scratch_games_family``) and three that cannot load; the
    directory."""
    where = scratch_distribution(tmp_path / "site", "scratch-games", {
        "scratch-game": "scratch_games_family:SCRATCH",
        "broken-import": "scratch_games_missing:FAMILY",
        "not-a-family": "scratch_games_family:NOT_A_FAMILY",
        "misnamed": "scratch_games_family:SCRATCH",
    }, module="scratch_games_family")
    monkeypatch.syspath_prepend(str(where))
    plugins.forget()
    yield where
    monkeypatch.undo()
    sys.modules.pop("scratch_games_family", None)


def run_replay(*args: str, pythonpath: Path | None = None,
               cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m replay ARGS`` in a fresh interpreter, ``pythonpath`` before the project."""
    paths = [str(p) for p in (pythonpath, ROOT) if p is not None]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    return subprocess.run([sys.executable, "-m", "replay", *args], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def without_stale_note(stderr: str) -> list[str]:
    """The lines of ``stderr`` but the compiled engine's note that it is stale."""
    return [line for line in stderr.splitlines() if "compiled engine is stale" not in line]


# ------------------------------------------------------------------ the built-in families


def test_the_built_in_families_come_from_the_entry_points() -> None:
    """pyproject.toml declares them (an editable install puts them in its metadata; ``./run``
    installs again when pyproject.toml changes), and ``families()`` is that list."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["entry-points"][FAMILY_GROUP]
    found = plugins.entry_points(FAMILY_GROUP)
    assert list(declared) == BUILT_IN and list(found) == BUILT_IN
    assert {n: ep.value for n, ep in found.items()} == declared
    assert {ep.dist_name for ep in found.values()} == {"carcassonne-replay"}
    assert [f.name for f in families()] == BUILT_IN
    assert all(isinstance(f, Family) for f in families())


def test_the_entry_points_read_are_those_of_importlib_metadata() -> None:
    """``plugins`` reads ``entry_points.txt`` itself (no ``importlib.metadata`` on the
    start-up path): the same groups, names and values as the standard library's."""
    from importlib.metadata import entry_points

    everything = entry_points()
    expected = {g: {ep.name: ep.value for ep in everything.select(group=g)}
                for g in everything.groups}
    got = {g: {n: ep.value for n, ep in plugins.entry_points(g).items()} for g in expected}
    assert got == expected
    for group, eps in expected.items():  # a lookup reads until it finds: the same answer
        for name, value in eps.items():
            plugins.forget()
            found = plugins.entry_point(group, name)
            assert found is not None and found.value == value
        plugins.forget()
        assert plugins.entry_point(group, "no such name") is None


# ------------------------------------------------------------------ a family of another package


def scratch_log() -> str:
    """A log of the scratch family (a base game's, renamed)."""
    return dumps({**generate_log("base", 2, 5), "game": "scratch-game"})


def test_a_family_of_another_distribution_is_found(installed: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert family("scratch-game").label == "Scratch game"
    assert [f.name for f in families()] == [*BUILT_IN, "scratch-game"]
    report = verify(scratch_log())
    assert report.valid and report.game == "scratch-game", report.line()
    capsys.readouterr()


def test_a_family_of_another_distribution_through_the_command_line(tmp_path: Path) -> None:
    site = scratch_distribution(tmp_path / "site", "scratch-games",
                                {"scratch-game": "scratch_games_family:SCRATCH"},
                                module="scratch_games_family")
    path = tmp_path / "game.json"
    path.write_text(scratch_log(), encoding="utf-8")
    done = run_replay("verify", str(path), pythonpath=site)
    assert done.returncode == 0 and ": valid," in done.stdout, done.stdout + done.stderr
    done = run_replay("generate", "--help", pythonpath=site)
    assert "--game {base,hunters-gatherers,manhattan,scratch-game}" in done.stdout, done.stdout
    assert without_stale_note(done.stderr) == []


# ------------------------------------------------------------------ families that cannot load


def test_a_family_that_cannot_load_is_said_once_and_left_out(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert [f.name for f in families()] == [*BUILT_IN, "scratch-game"]
    assert [f.name for f in families()] == [*BUILT_IN, "scratch-game"]
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 3, said
    for name, why in [("broken-import", "No module named 'scratch_games_missing'"),
                      ("not-a-family", "is a int, not a Family"),
                      ("misnamed", "it is the family 'scratch-game', registered as "
                                   "'misnamed'")]:
        (line,) = [s for s in said if f"'{name}'" in s]
        assert "distribution 'scratch-games'" in line and why in line, line
        with pytest.raises(LogFormatError) as info:
            family(name)
        assert info.value.path == "/game" and "cannot be loaded" in info.value.message
        assert why in info.value.message and "scratch-games" in info.value.message
    assert capsys.readouterr().err == ""  # said once, not at each use
    assert family("base").name == "base"


def test_a_broken_family_is_said_once_on_the_command_line(tmp_path: Path) -> None:
    site = scratch_distribution(tmp_path / "site", "broken-games",
                                {"broken": "broken_games_missing:FAMILY"})
    log = tmp_path / "game.json"
    log.write_text(dumps(generate_log("base", 2, 1)), encoding="utf-8")
    done = run_replay("verify", str(log), pythonpath=site)  # imports the base family alone
    assert done.returncode == 0 and without_stale_note(done.stderr) == []
    done = run_replay("generate", "--game", "manhattan", "--seed", "1", pythonpath=site)
    assert done.returncode == 0 and json.loads(done.stdout)["game"] == "manhattan"
    said = without_stale_note(done.stderr)
    assert len(said) == 1 and "'broken'" in said[0] and "'broken-games'" in said[0], said
    log.write_text(dumps({**generate_log("base", 2, 1), "game": "broken"}), encoding="utf-8")
    done = run_replay("verify", str(log), pythonpath=site)
    assert done.returncode == 2 and "cannot be loaded" in done.stdout, done.stdout


# ------------------------------------------------------------------ a game nobody installed


UNKNOWN = "this service plays no game 'chess' (it plays base, hunters-gatherers and manhattan)"


def _chess() -> str:
    return dumps({**generate_log("base", 2, 4), "game": "chess"})


def test_a_log_of_a_game_not_installed_is_exit_2(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chess.json"
    path.write_text(_chess(), encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    assert capsys.readouterr().out == f"{path}: unreadable: /game: {UNKNOWN}\n"
    with pytest.raises(LogFormatError) as info:
        family("chess")
    assert (info.value.path, info.value.message) == ("/game", UNKNOWN)
    report = verify(_chess())
    assert report.exit_code == 2 and report.failure is not None
    assert (report.failure.path, report.failure.message) == ("/game", UNKNOWN)


def test_a_log_of_a_game_not_installed_over_http(client: FlaskClient) -> None:
    """An upload is refused with 400 and the JSON path; ``/api/verify`` answers its report
    (200, as for every log it reads) with the same error."""
    r = client.post("/api/games", data=_chess())
    assert r.status_code == 400
    assert r.get_json()["error"]["path"] == "/game"
    assert UNKNOWN in r.get_json()["error"]["message"]
    report: dict[str, Any] = client.post("/api/verify", data=_chess()).get_json()
    assert report["valid"] is False and report["error"]["path"] == "/game"
    assert report["error"]["message"] == UNKNOWN


def test_no_family_at_all_says_how_to_install(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """From a bare clone (sources on ``PYTHONPATH``, nothing installed) no entry point is
    found: every command says how to install the project."""
    with monkeypatch.context() as patch:
        patch.setattr(sys, "path", [])
        plugins.forget()
        assert families() == ()
        with pytest.raises(LogFormatError) as info:
            family("base")
        assert "plays no game 'base': no game family" in info.value.message
        assert "./run" in info.value.message
        assert main(["generate", "--game", "base"]) == 2
        assert NO_FAMILIES in capsys.readouterr().err
    plugins.forget()
    assert [f.name for f in families()] == BUILT_IN
