"""Compiled hot modules (mypyc), used only while they match the sources they were built from.

``tools/build_native.py`` (run by ``./run`` at set-up) compiles the hot modules it lists
with mypyc into ``build/native/`` and writes a manifest: the interpreter it built for, and
the size, modification time and SHA-256 of every ``.py`` file of the package. ``install()``,
called once by ``replay/__init__``, puts a finder first on ``sys.meta_path`` that imports the
compiled module instead of the ``.py`` file, but only when the whole manifest still holds:
the same interpreter and not one source of ``replay`` edited since the build (a compiled
module may have been built against its neighbours' types and constants, so any edit makes
the build stale). Otherwise, or with ``REPLAY_PURE=1`` in the environment, nothing changes
and the pure-Python engine runs. The two give the same results: ``tests/test_native.py``
replays the state-hash fixture with each.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

# paths as text: pathlib costs a few milliseconds of every start, and this runs at every one
PACKAGE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(PACKAGE)
NATIVE = os.path.join(ROOT, "build", "native")
MANIFEST = os.path.join(NATIVE, "manifest.json")


def tag() -> str:
    """The interpreter a build is for."""
    return f"{sys.implementation.cache_tag}-{sys.platform}"


def sources() -> list[Path]:
    """Every source file whose edit makes a build stale."""
    from pathlib import Path

    return sorted(Path(PACKAGE).rglob("*.py"))


def fingerprint(path: str | os.PathLike[str]) -> list[Any]:
    """What the manifest records of a source: size, modification time, SHA-256."""
    stat = os.stat(path)
    return [stat.st_size, stat.st_mtime_ns, _sha256_hex(_read(path))]


def _read(path: str | os.PathLike[str]) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _sha256_hex(data: bytes) -> str:
    import hashlib  # here: OpenSSL's import costs every start, and a fresh build needs none

    return hashlib.sha256(data).hexdigest()


def _scan(folder: str, rel: str, out: dict[str, os.DirEntry[str]]) -> None:
    """The ``.py`` files under ``folder`` (as ``sources()`` finds them), by their path from
    ROOT: ``os.scandir`` rather than ``Path.rglob``, which costs a few milliseconds more at
    every start."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir():
                _scan(entry.path, f"{rel}{entry.name}/", out)
            elif entry.name.endswith(".py"):
                out[f"{rel}{entry.name}"] = entry


def _stale(manifest: dict[str, Any]) -> str | None:
    """Why the build of ``manifest`` does not match the sources (None: it does)."""
    recorded = manifest.get("sources")
    if manifest.get("tag") != tag() or not isinstance(recorded, dict):
        return "built for another interpreter"
    files: dict[str, os.DirEntry[str]] = {}
    _scan(str(PACKAGE), os.path.relpath(PACKAGE, ROOT).replace(os.sep, "/") + "/", files)
    for name, found in files.items():
        entry = recorded.get(name)
        if not isinstance(entry, list) or len(entry) != 3:
            return f"{name} is new"
        stat = found.stat()
        if stat.st_size != entry[0]:
            return f"{name} changed"
        if (stat.st_mtime_ns != entry[1]  # touched: only the content decides
                and _sha256_hex(_read(found.path)) != entry[2]):
            return f"{name} changed"
    if len(files) != len(recorded):
        gone = sorted(set(recorded) - set(files))
        return f"{gone[0] if gone else 'a source'} is gone"
    return None


def restamp() -> None:
    """Record again the modification times of the sources of a fresh build whose contents
    are the ones built. A source touched but unchanged (a ``git checkout`` and back, a stash)
    is otherwise read and hashed at every start to learn that it did not change (a few ms of
    each one-file ``verify``). ``tools/build_native.py`` calls it when the build is fresh."""
    import json

    with open(MANIFEST, encoding="utf-8") as f:
        manifest = json.load(f)
    recorded: dict[str, list[Any]] = manifest["sources"]
    changed = False
    for path in sources():
        entry = recorded.get(os.path.relpath(path, ROOT).replace(os.sep, "/"))
        if entry is None or os.stat(path).st_mtime_ns == entry[1]:
            continue  # (only a touched source is read and hashed: ./run calls this each time)
        size, mtime, digest = fingerprint(path)
        # the time only, and only of a source whose content is the one built: one edited since
        # the build keeps its entry, so the build stays stale
        if [entry[0], entry[2]] == [size, digest]:
            entry[1] = mtime
            changed = True
    if changed:
        with open(MANIFEST, "w", encoding="utf-8") as f:
            f.write(json.dumps(manifest, indent=1) + "\n")


# why the compiled modules are not in use, once ``compiled`` has looked ("" while they are)
why_pure = ""


def compiled() -> dict[str, str]:
    """The compiled modules to use (module name to file), or {} when the build is missing,
    stale, for another interpreter, or turned off by ``REPLAY_PURE`` (``why_pure`` says
    which)."""
    global why_pure
    why_pure = ""
    if os.environ.get("REPLAY_PURE"):
        why_pure = "REPLAY_PURE=1"
        return {}
    if not os.path.isfile(MANIFEST):
        why_pure = "no compiled build"
        return {}
    try:
        with open(MANIFEST, encoding="utf-8") as f:
            manifest = json.loads(f.read())
        stale = _stale(manifest) if isinstance(manifest, dict) else "its manifest is broken"
        if stale is not None:
            why_pure = f"build stale: {stale}"
            return {}
        files = manifest.get("modules", {})
        found = {name: os.path.join(NATIVE, rel) for name, rel in files.items()}
    except (OSError, ValueError, AttributeError):
        why_pure = "build stale: its manifest is broken"
        return {}
    if not all(os.path.isfile(p) for p in found.values()):
        why_pure = "build stale: a compiled module is missing"
        return {}
    return found


class _Finder:
    """Finds the compiled modules of a fresh build (a ``sys.meta_path`` entry)."""

    def __init__(self, modules: dict[str, str]) -> None:
        self.modules = modules

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.modules.get(name)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, file)
        return importlib.util.spec_from_file_location(name, file, loader=loader)


def install() -> bool:
    """Use the compiled modules from now on, if the build is fresh (see the module). A stale
    build is said once on stderr (not by the processes this one starts: the environment
    carries ``REPLAY_STALE_SAID``)."""
    if active():
        return True
    modules = compiled()
    if not modules:
        if why_pure.startswith("build stale") and not os.environ.get("REPLAY_STALE_SAID"):
            os.environ["REPLAY_STALE_SAID"] = "1"
            stale = why_pure.removeprefix("build stale: ")
            sys.stderr.write(f"replay: compiled engine is stale ({stale}); running pure "
                             "Python - run ./run or tools/build_native.py to rebuild\n")
        return False
    sys.meta_path.insert(0, _Finder(modules))
    return True


def active() -> bool:
    """Whether the compiled modules are in use in this process."""
    return any(isinstance(f, _Finder) for f in sys.meta_path)


def engine() -> str:
    """Which engine this process runs, in words (``python -m replay --version``)."""
    for finder in sys.meta_path:
        if isinstance(finder, _Finder):
            # (the manifest lists the library the modules share, ``<hash>__mypyc``, too)
            n = sum(1 for name in finder.modules if not name.endswith("__mypyc"))
            return f"compiled (mypyc, {n} module{'' if n == 1 else 's'})"
    return f"pure Python ({why_pure or 'no compiled build'})"


install()  # on import: ``replay/__init__`` imports this module before any other
