"""The one way the core finds pluggable parts: a reference ``"module:attribute"``.

Families (``replay.games.FAMILIES``) and the importers a family declares
(``Family.importer_refs``) are named by such references and imported on first use, so that a
one-file ``verify`` imports only what its log needs. The reference is the same string a
Python entry point holds (``module:attribute``).
"""

from __future__ import annotations

import importlib
from typing import Any

_LOADED: dict[str, Any] = {}


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
            found = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as exc:
            raise PluginError(f"cannot load {ref!r}: {exc}") from exc
        if not isinstance(found, kind):
            raise PluginError(f"{ref!r} is a {type(found).__name__}, not a {kind.__name__}")
        _LOADED[ref] = found
    return found
