"""The compiled hot modules (mypyc, ``replay/native.py``) against the pure-Python reference.

``./run`` builds them at set-up (``tools/build_native.py``); this suite runs on that build, and
checks here that the build is in use, that it is dropped the moment a source changes, and
that the pure-Python engine gives the same state hashes on the thousand-odd games of the
hash fixture (``tests/test_hash_fixture.py`` checks the compiled engine on the same games).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from replay import native

ROOT = Path(__file__).resolve().parent.parent


def test_the_fresh_build_is_in_use() -> None:
    assert native.compiled(), ("no fresh compiled build: run `.venv/bin/python "
                               "tools/build_native.py` (./run test does it)")
    assert native.active()
    import replay.core.hashing
    import replay.games.manhattan.state
    import replay.tiles.state
    for module in (replay.games.manhattan.state, replay.tiles.state, replay.core.hashing):
        assert module.__file__ is not None and module.__file__.endswith(".so"), module


def test_pure_python_gives_the_fixture_hashes() -> None:
    env = {**os.environ, "REPLAY_PURE": "1"}
    probe = subprocess.run([sys.executable, "-c", "import replay.native as n, "
                            "replay.games.manhattan.state as s; print(n.active(), s.__file__)"],
                           cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert probe.stdout.split()[0] == "False" and probe.stdout.strip().endswith(".py")
    # the compiled engine is held to every game of the fixture (test_hash_fixture); pure
    # Python to the first 40 of each configuration (360 games), a sixth of the time
    done = subprocess.run([sys.executable, "tools/hash_fixture.py", "--check", "--games", "40"],
                          cwd=ROOT,
                          env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def _fake_build(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package of one source and a manifest of it, in ``tmp``."""
    package = tmp / "replay"
    package.mkdir()
    source = package / "hot.py"
    source.write_text("X = 1\n")
    build = tmp / "build" / "native"
    (build / "replay").mkdir(parents=True)
    (build / "replay" / "hot.so").write_bytes(b"")
    monkeypatch.setattr(native, "ROOT", tmp)
    monkeypatch.setattr(native, "PACKAGE", package)
    monkeypatch.setattr(native, "NATIVE", build)
    monkeypatch.setattr(native, "MANIFEST", build / "manifest.json")
    monkeypatch.delenv("REPLAY_PURE", raising=False)
    manifest = {"tag": native.tag(), "modules": {"replay.hot": "replay/hot.so"},
                "sources": {"replay/hot.py": native.fingerprint(source)}}
    (build / "manifest.json").write_text(json.dumps(manifest))
    return source


def test_a_build_is_dropped_when_a_source_changes(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    source = _fake_build(tmp_path, monkeypatch)
    assert set(native.compiled()) == {"replay.hot"}
    os.utime(source, ns=(1, 1))  # touched, same content: still fresh
    assert set(native.compiled()) == {"replay.hot"}
    source.write_text("X = 2\n")  # same size, new content
    assert native.compiled() == {}


def test_restamp_records_new_times_of_unchanged_sources_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _fake_build(tmp_path, monkeypatch)
    other = source.parent / "cold.py"
    other.write_text("Y = 1\n")
    manifest = json.loads(native.MANIFEST.read_text())
    manifest["sources"]["replay/cold.py"] = native.fingerprint(other)
    native.MANIFEST.write_text(json.dumps(manifest))
    os.utime(source, ns=(1, 1))  # touched, same content
    other.write_text("Y = 2\n")  # edited: same size, new content
    native.restamp()
    recorded = json.loads(native.MANIFEST.read_text())["sources"]
    assert recorded["replay/hot.py"] == native.fingerprint(source)  # its new time
    assert recorded["replay/cold.py"] == manifest["sources"]["replay/cold.py"]  # kept stale
    assert native.compiled() == {}


def test_a_build_is_dropped_when_a_source_is_added_or_pure_is_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _fake_build(tmp_path, monkeypatch)
    monkeypatch.setenv("REPLAY_PURE", "1")
    assert native.compiled() == {}
    monkeypatch.delenv("REPLAY_PURE")
    (source.parent / "new.py").write_text("")
    assert native.compiled() == {}


def test_a_build_for_another_interpreter_or_a_broken_manifest_is_ignored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_build(tmp_path, monkeypatch)
    manifest = json.loads(native.MANIFEST.read_text())
    native.MANIFEST.write_text(json.dumps({**manifest, "tag": "cpython-399-other"}))
    assert native.compiled() == {}
    native.MANIFEST.write_text("{not json")
    assert native.compiled() == {}


def test_a_stale_build_is_said_once_and_named_by_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    source = _fake_build(tmp_path, monkeypatch)
    # this process as if it had not installed the real build
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path
                                           if not isinstance(f, native._Finder)])
    monkeypatch.delenv("REPLAY_STALE_SAID", raising=False)
    source.write_text("X = 2\n")
    assert native.install() is False
    err = capsys.readouterr().err
    assert err == ("replay: compiled engine is stale (replay/hot.py changed); running pure "
                   "Python - run ./run or tools/build_native.py to rebuild\n")
    assert native.engine() == "pure Python (build stale: replay/hot.py changed)"
    assert native.install() is False and capsys.readouterr().err == ""  # once
    monkeypatch.setenv("REPLAY_PURE", "1")  # asked for: nothing to say
    monkeypatch.delenv("REPLAY_STALE_SAID")
    assert native.install() is False and capsys.readouterr().err == ""
    assert native.engine() == "pure Python (REPLAY_PURE=1)"


def test_a_fresh_build_is_named_by_version(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_build(tmp_path, monkeypatch)
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path
                                           if not isinstance(f, native._Finder)])
    assert native.install() is True
    assert native.engine() == "compiled (mypyc, 1 module)"


@pytest.mark.parametrize("pure", [False, True])
def test_version_says_which_engine_runs(pure: bool) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REPLAY_PURE", "REPLAY_STALE_SAID")}
    if pure:
        env["REPLAY_PURE"] = "1"
    done = subprocess.run([sys.executable, "-m", "replay", "--version"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    version, engine = done.stdout.splitlines()
    assert version.split()[-1][0].isdigit()
    if pure:
        assert engine == "engine: pure Python (REPLAY_PURE=1)" and done.stderr == ""
    elif engine.startswith("engine: compiled (mypyc, "):
        assert done.stderr == ""
    elif engine.startswith("engine: pure Python (build stale: "):  # an edit since the build
        assert done.stderr.startswith("replay: compiled engine is stale (")
    else:
        assert engine == "engine: pure Python (no compiled build)" and done.stderr == ""


def test_a_state_is_an_instance_of_its_own_family_s_class_only() -> None:
    """The states are compiled classes under ``GameState``: each answers ``isinstance`` for
    itself, whatever was asked before (an ABC's shared cache once answered for another)."""
    import replay
    from replay.core.family import GameState

    players = (replay.Player("Ada", "red"), replay.Player("Ben", "blue"))
    states = [replay.family(name).new_state(replay.family(name).configure({}, players, seed="1"))
              for name in ("base", "hunters-gatherers", "manhattan")]
    for _ in range(2):  # the second time from any cache
        for state in states:
            assert isinstance(state, GameState)
            for other in states:
                assert isinstance(state, type(other)) == (type(state) is type(other))
