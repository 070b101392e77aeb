"""The one way the core finds pluggable parts: entry points, and references ``"module:attribute"``.

An installed distribution adds parts through **entry point groups** (its ``pyproject.toml``'s
``[project.entry-points."GROUP"]``; each entry point's value is a reference
``module:attribute``): game families (``carcassonne_replay.families``, read by
``replay.core.family``) and commands of ``python -m replay``
(``carcassonne_replay.commands``, ``replay.cli_parser``). This project declares its own built-in
families the same way, so there is one mechanism. A ``Group`` imports a part when it is first
asked for it, so that a one-file ``verify`` imports only its log's family; a part that cannot
be loaded is said once on stderr, with its distribution's name and why, and left out.

The entry points are read here, not by ``importlib.metadata`` (which costs a one-file
``verify`` a fifth of its start-up in imports): once per process, every group at once, from
the ``entry_points.txt`` of each ``*.dist-info`` and ``*.egg-info`` directory on ``sys.path``,
the first distribution of a name winning as with ``importlib.metadata.entry_points()``
(``tests/test_registry.py`` holds the two equal). ``forget()`` reads them again on next use
(a test that puts a distribution on ``sys.path``).

The importers a family declares (``Family.importer_refs``) are named by references too
(``load_ref``).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable
from typing import Any

_LOADED: dict[str, Any] = {}
_SCAN: dict[str, dict[str, EntryPoint]] | None = None
_GROUPS: list[Group] = []


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
    """The entry points of ``group`` by name, sorted by name (read once per process, every
    group at once: see the module). Two distributions declaring one name: the first on
    ``sys.path`` wins."""
    global _SCAN
    if _SCAN is None:
        _SCAN = _scan(sys.path)
    return _SCAN.get(group, {})


def _scan(paths: list[str]) -> dict[str, dict[str, EntryPoint]]:
    seen: set[str] = set()
    groups: dict[str, dict[str, EntryPoint]] = {}
    for root in paths:
        try:
            children = os.listdir(root or ".")
        except OSError:  # not a directory (a zip file, say), or gone
            continue
        for child in children:
            low = child.lower()
            if not low.endswith((".dist-info", ".egg-info")):
                continue
            dist = re.sub(r"[-_.]+", "_", low.rpartition(".")[0].partition("-")[0])
            if dist in seen:
                continue  # an earlier distribution of that name hides this one
            seen.add(dist)
            where = os.path.join(root, child)
            try:
                with open(os.path.join(where, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):
                continue
            for ep in _parse(text, where):
                groups.setdefault(ep.group, {}).setdefault(ep.name, ep)
    return {g: dict(sorted(eps.items())) for g, eps in groups.items()}


def _parse(text: str, where: str) -> list[EntryPoint]:
    """The entry points of an ``entry_points.txt`` (INI: ``[group]``, then ``name = value``)."""
    found: list[EntryPoint] = []
    group = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[" and line[-1] == "]":
            group = line[1:-1].strip()
            continue
        name, sep, value = line.partition("=")
        if group is not None and sep:
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
        ep = entry_points(self.group).get(name)
        if ep is None:
            return None
        try:  # a value may end with extras, "module:attribute [extra]": not ours to read
            found = load_ref(ep.value.partition("[")[0].strip(), self.kind)
            why = self.check(name, found) if self.check is not None else None
        except PluginError as exc:
            why = str(exc)
        if why is not None:
            self.failures[name] = f"{why} (distribution {ep.dist_name!r})"
            print(f"replay: the {self.what} {name!r} of the distribution {ep.dist_name!r} is "
                  f"left out: {why}", file=sys.stderr)
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

