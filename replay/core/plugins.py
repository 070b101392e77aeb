"""The one way the core finds pluggable parts: entry points, and references ``"module:attribute"``.

An installed distribution adds parts through **entry point groups** (its ``pyproject.toml``'s
``[project.entry-points."GROUP"]``; each entry point's value is a reference
``module:attribute``): game families (``carcassonne_replay.families``, read by
``replay.core.family``) and commands of ``python -m replay``
(``carcassonne_replay.commands``, ``replay.cli_parser``). This project declares its own built-in
families the same way, so there is one mechanism. A ``Group`` imports a part when it is first
asked for it, so that a one-file ``verify`` imports only its log's family; a part that cannot
be loaded is said once on stderr, with its distribution's name and why, and left out (once a
run: a command's worker processes are ``quiet``, their parent has said it).

The entry points are read here, not by ``importlib.metadata``: its ``entry_points()`` costs
about 178M instructions (its imports, every distribution's metadata parsed), as much again as
a whole one-file ``verify``; this reader about 1.6M. It reads the ``entry_points.txt`` of each
``*.dist-info`` and ``*.egg-info`` directory on ``sys.path`` in order, each file once a process
and only as far as a lookup needs (``entry_point``: a verification stops at the distribution
that declares its family; ``entry_points`` reads them all), and parses a group's lines when the
group is asked for. The first distribution of a name hides the others and the first entry
point of a name wins, as with ``importlib.metadata.entry_points()`` (``tests/test_registry.py``
holds the two equal). ``forget()`` reads them again on next use (a test that puts a
distribution on ``sys.path``).

The importers a family declares (``Family.importer_refs``) are named by references too
(``load_ref``).
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

_LOADED: dict[str, Any] = {}
_SCAN: _Scan | None = None
T = TypeVar("T")
# one reader of the distributions at a time: the scan is a generator, and a server's threads
# ask for families at once on its first requests ("generator already executing", a 500)
_SCANNING = threading.RLock()
_GROUPS: list[Group] = []
_QUIET = False  # a worker process: its parent says what cannot be loaded (``quiet``)


def quiet() -> None:
    """This process is one of a command's workers: a part that cannot be loaded is still left
    out (``Group.failures`` says why) but not said on stderr, as the parent process, which
    loads every part before it starts its workers, has said it once for the whole run."""
    global _QUIET
    _QUIET = True


class PluginError(Exception):
    """A reference that does not name an object of the expected kind."""


def load_ref(ref: str, kind: type) -> Any:
    """The object ``ref`` (``"package.module:attribute"``) names, imported once; raises
    ``PluginError`` when it cannot be imported or is not a ``kind``."""
    found = _LOADED.get(ref)
    if found is None:
        module, sep, attribute = ref.partition(":")
        if not sep or not module or not attribute:
            raise PluginError(f"{ref!r} is not a reference 'module:attribute'")
        try:
            found = importlib.import_module(module.strip())
            for part in attribute.strip().split("."):
                found = getattr(found, part)
        except Exception as exc:  # a plugin's module may raise anything as it is imported
            raise PluginError(f"cannot load {ref!r}: {type(exc).__name__}: {exc}") from exc
        if not isinstance(found, kind):
            raise PluginError(f"{ref!r} is a {type(found).__name__}, not a {kind.__name__}")
        _LOADED[ref] = found
    return found


def family_part(family: object, attribute: str, default: Callable[[Any], T]) -> T:
    """The part of ``family`` its ``attribute`` names by reference (``"module:Class"``, made
    with the family: its view, its explorer), or ``default``'s when it names none."""
    ref = getattr(family, attribute, None)
    cls: Callable[[Any], T] = default if ref is None else load_ref(ref, type)
    return cls(family)


class EntryPoint:
    """One entry point: its ``group``, ``name`` and ``value`` (``module:attribute``), and the
    metadata directory of the distribution that declares it (``where``)."""

    __slots__ = ("group", "name", "value", "where")

    def __init__(self, group: str, name: str, value: str, where: str) -> None:
        self.group = group
        self.name = name
        self.value = value
        self.where = where

    @property
    def dist_name(self) -> str:
        """The name of the distribution that declares it (its metadata's ``Name``)."""
        for meta in ("METADATA", "PKG-INFO"):
            try:
                with open(os.path.join(self.where, meta), encoding="utf-8") as f:
                    for line in f:
                        if line.startswith("Name:"):
                            return line[5:].strip()
                        if not line.strip():
                            break
            except (OSError, UnicodeDecodeError):
                continue
        return os.path.basename(self.where).rpartition(".")[0].partition("-")[0]

    def __repr__(self) -> str:
        return f"EntryPoint({self.group!r}, {self.name!r}, {self.value!r})"


def entry_points(group: str) -> dict[str, EntryPoint]:
    """The entry points of ``group`` by name, sorted by name (every distribution read: see
    the module). Two distributions declaring one name: the first on ``sys.path`` wins."""
    with _SCANNING:
        scan = _scan()
        found = scan.sorted.get(group)
        if found is None:
            while scan.more():
                pass
            found = scan.sorted[group] = dict(sorted(scan.group(group).items()))
        return found


def entry_point(group: str, name: str | None = None) -> EntryPoint | None:
    """The entry point ``name`` of ``group`` (None: any of it), or None when there is none:
    ``entry_points(group).get(name)``, but the distributions are read only until one declares
    it (the others when a later lookup needs them)."""
    with _SCANNING:
        scan = _scan()
        while True:
            eps = scan.group(group)
            found = eps.get(name) if name is not None else next(iter(eps.values()), None)
            if found is not None or not scan.more():
                return found


def _scan() -> _Scan:
    global _SCAN
    if _SCAN is None:
        _SCAN = _Scan(sys.path)
    return _SCAN


class _Scan:
    """The ``entry_points.txt`` of the distributions on ``paths`` read so far, in their
    order, and each group's entry points in them (a group's lines are parsed when the group
    is first asked for: most files hold only groups this project never reads)."""

    def __init__(self, paths: list[str]) -> None:
        self.files: list[tuple[str, str]] = []  # (metadata directory, entry_points.txt)
        self.groups: dict[str, dict[str, EntryPoint]] = {}  # of files[:parsed[group]]
        self.parsed: dict[str, int] = {}
        self.sorted: dict[str, dict[str, EntryPoint]] = {}  # once every file is read
        self.metadata = _metadata_directories(list(paths))

    def more(self) -> bool:
        """Read the next distribution that declares entry points; False when none is left."""
        for where in self.metadata:
            text = _read(where)
            if text:
                self.files.append((where, text))
                return True
        return False

    def group(self, group: str) -> dict[str, EntryPoint]:
        """The entry points of ``group`` in the files read so far, the first of a name kept."""
        eps = self.groups.setdefault(group, {})
        done = self.parsed.get(group, 0)
        if done < len(self.files):
            header = f"[{group}]"
            for where, text in self.files[done:]:
                if header in text:
                    for ep in _parse(text, where, group):
                        eps.setdefault(ep.name, ep)
            self.parsed[group] = len(self.files)
        return eps


def _metadata_directories(paths: list[str]) -> Iterator[str]:
    """The ``*.dist-info`` and ``*.egg-info`` directories of the distributions on ``paths``,
    in their order, each name once (the first hides the others, as ``importlib.metadata``
    has it)."""
    seen: set[str] = set()
    for root in paths:
        try:
            children = os.listdir(root or ".")
        except OSError:  # not a directory (a zip file, say), or gone
            continue
        if "-info" not in "/".join(children).lower():  # one look at a directory of none
            continue
        for child in children:
            if not child.lower().endswith((".dist-info", ".egg-info")):
                continue
            # the distribution's name as importlib.metadata normalizes it: runs of - _ .
            # become one _, lower case
            dist = child.rpartition(".")[0].partition("-")[0].lower()
            dist = dist.replace("-", "_").replace(".", "_")
            while "__" in dist:
                dist = dist.replace("__", "_")
            if dist not in seen:
                seen.add(dist)
                yield f"{root}{os.sep}{child}" if root else child


def _read(where: str) -> str:
    """The ``entry_points.txt`` of a distribution's metadata directory ("" if none)."""
    path = f"{where}{os.sep}entry_points.txt"
    if not os.access(path, os.R_OK):  # most distributions have none: no exception raised
        return ""
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _parse(text: str, where: str, group: str) -> list[EntryPoint]:
    """The entry points of ``group`` in an ``entry_points.txt`` (INI: a line ``[group]``,
    then lines ``name = value``; as ``importlib.metadata`` reads it)."""
    found: list[EntryPoint] = []
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        if line[0] == "[" and line[-1] == "]":
            section = line.strip("[]")
            continue
        name, sep, value = line.partition("=")
        if section == group and sep:
            found.append(EntryPoint(group, name.strip(), value.strip(), where))
    return found


class Group:
    """The parts one entry point group adds, each a ``kind`` (``Family``...), imported when
    first asked for (``get``) or all at once (``loaded``). ``what`` names a part in messages
    ("family"); ``check(name, part)`` may refuse a loaded part with a reason."""

    def __init__(self, group: str, kind: type, what: str,
                 check: Callable[[str, Any], str | None] | None = None) -> None:
        self.group = group
        self.kind = kind
        self.what = what
        self.check = check
        self.parts: dict[str, Any] = {}  # name -> part, once loaded
        self.failures: dict[str, str] = {}  # name -> why it was left out
        _GROUPS.append(self)

    def names(self) -> list[str]:
        """Every name registered in the group, loadable or not, sorted."""
        return list(entry_points(self.group))

    def get(self, name: str) -> Any | None:
        """The part registered as ``name``, imported on first use; None when there is none
        or it cannot be loaded (said once on stderr: ``failures`` keeps why)."""
        found = self.parts.get(name)
        if found is not None or name in self.failures:
            return found
        ep = entry_point(self.group, name)
        if ep is None:
            return None
        try:  # a value may end with extras, "module:attribute [extra]": not ours to read
            found = load_ref(ep.value.partition("[")[0].strip(), self.kind)
            why = self.check(name, found) if self.check is not None else None
        except PluginError as exc:
            why = str(exc)
        if why is not None:
            self.failures[name] = f"{why} (distribution {ep.dist_name!r})"
            if not _QUIET:
                print(f"replay: the {self.what} {name!r} of the distribution {ep.dist_name!r} "
                      f"is left out: {why}", file=sys.stderr)
            return None
        self.parts[name] = found
        return found

    def loaded(self) -> dict[str, Any]:
        """Every part of the group that loads, by name, sorted by name."""
        return {n: p for n in self.names() if (p := self.get(n)) is not None}

    def forget(self) -> None:
        """Drop what was loaded and which parts failed (``forget``)."""
        self.parts.clear()
        self.failures.clear()


def forget() -> None:
    """Forget the entry points read and the parts loaded, so that the next use reads
    ``sys.path`` again: for tests that install a distribution (a ``*.dist-info`` directory put
    on ``sys.path``) or take one away. Modules already imported stay imported."""
    global _SCAN
    _SCAN = None
    _LOADED.clear()
    for group in _GROUPS:
        group.forget()

