"""Untrusted JSON in (L1): I-JSON decoding and the structural limits checked before any schema.

Everything a user hands us goes through here first, so that the cost of what follows is
bounded by numbers written below, not by the input:

* ``decode`` accepts I-JSON (RFC 7493) only: UTF-8, no duplicate object keys, no lone
  surrogates (``"\\ud800"``: a string that cannot be written back as UTF-8), no NaN or
  Infinity. Each refusal names its JSON path. Before parsing, it counts the commas, braces
  and brackets of the text (``MAX_SEPARATORS``), so that no text costs more to parse than a
  log of ``MAX_MOVES`` moves could.
* ``check_bounds`` walks a decoded log before the JSON Schema sees it: at most ``MAX_DEPTH``
  levels of nesting, ``MAX_ITEMS`` items in any array or object (``MAX_MOVES`` in ``/moves``),
  ``MAX_STRING`` characters in any string, and numbers that are integers: ``1.0`` or ``1e3``
  is refused with its path everywhere but under ``/meta`` (free information), so that a log
  never means a different game than it seems to (the seed ``1.0`` is not the seed ``1``).

The schema's own ``maxItems`` are stricter; these limits exist because some schema keywords
(``uniqueItems``) cost the square of an array's length and run before ``maxItems`` rejects it.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

from . import scan
from .errors import LogFormatError
from .scan import members, within_bounds

MAX_BYTES = 5 * 1024 * 1024
MAX_MOVES = 1000
MAX_DEPTH = 8  # a valid log needs 5: /moves/3/bonus/figure/at
MAX_ITEMS = 64  # any array but /moves, any object
MAX_STRING = 1000  # the longest string the schema allows (a /meta value)
# A log of MAX_MOVES moves holds some 30,000 values; a text with more commas, braces and
# brackets than this is refused before it is parsed (a million tiny objects would cost seconds)
MAX_SEPARATORS = 200_000

# orjson costs more to import (it brings datetime, uuid and platform) than it saves on a few
# small texts, where it is hardly faster than ``json``: a process takes it up for a text of
# ORJSON_SIZE characters, or from its ORJSON_AFTER-th text on (a web server, an audit), so a
# one-file verify never imports it. Either way the value is the same (see ``_fast_decode``).
ORJSON_SIZE = 64 * 1024
ORJSON_AFTER = 32
_texts = 0  # texts decoded in this process, up to ORJSON_AFTER

# a JSON escape of a UTF-16 surrogate; only then can a decoded string hold a lone one
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def _fast_decode(text: str) -> Any:
    """The value of ``text`` by orjson (about three times as fast as the standard library),
    or ``_SLOW`` when only the standard decoder may answer.

    orjson keeps the last of two equal keys and reads an integer beyond 64 bits as a float,
    and its errors are worded otherwise; so its value is taken only when it holds no float
    and as many members as the text has colons (each member is written with one colon, so
    this proves that no key was written twice and no string holds a colon). Anything else
    (an error, a float, a colon in a string) is decoded again by ``json``, whose results and
    messages are the reference (``tests/test_json_input.py`` checks both agree)."""
    import orjson  # here: see ORJSON_SIZE

    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return _SLOW
    return value if text.count(":") == members(value) else _SLOW


_SLOW = object()


def _orjson_pays(size: int) -> bool:
    """Whether the fast decoder is worth its import for a text of ``size`` characters."""
    global _texts
    if _texts < ORJSON_AFTER:
        _texts += 1
    return size >= ORJSON_SIZE or _texts >= ORJSON_AFTER or "orjson" in sys.modules


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_bounded(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of the file at ``path``, read at most once and never past ``max_bytes``;
    ``LogFormatError`` when it is larger or cannot be read (the reason and the path said)."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > max_bytes:
                raise LogFormatError(f"the log is {size} bytes; the limit is {max_bytes} bytes")
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise LogFormatError(f"cannot read file {os.path.abspath(path)!r}: "
                             f"{exc.strerror or exc}") from None
    if len(data) > max_bytes:  # grew while read
        raise LogFormatError(f"the log is over {max_bytes} bytes; the limit is {max_bytes} "
                             "bytes")
    return data


def decode(data: bytes | str, max_bytes: int = MAX_BYTES, fast: bool = True) -> Any:
    """Bytes (or text) to a JSON value; ``LogFormatError`` for anything that is not I-JSON.

    ``fast=False`` decodes with the standard library only (the reference the fast path is
    tested against); ``fast=True`` takes orjson when it pays (``ORJSON_SIZE``)."""
    if isinstance(data, str):  # at most 4 bytes a character: most texts need no encoding
        size = len(data) if len(data) * 4 <= max_bytes else len(data.encode("utf-8",
                                                                             "surrogatepass"))
    else:
        size = len(data)
    if size > max_bytes:
        raise LogFormatError(f"the log is {size} bytes; the limit is {max_bytes} bytes")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"not UTF-8 text (byte {exc.start})") from None
    separators = len(text) and (text.count(",") + text.count("{") + text.count("[")
                                if len(text) > MAX_SEPARATORS else 0)
    if separators > MAX_SEPARATORS:
        raise LogFormatError(f"the text holds {separators} commas, braces and brackets; a log "
                             f"holds far fewer (at most {MAX_SEPARATORS} are read)")
    value = _fast_decode(text) if fast and _orjson_pays(len(text)) else _SLOW
    if value is not _SLOW:
        return value
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_reject_constant)
    except _DuplicateKey as dup:
        key, path = _first_duplicate(text) or (dup.key, "")
        raise LogFormatError(f"the key {key!r} appears twice in one object", path) from None
    except json.JSONDecodeError as exc:
        raise LogFormatError(f"invalid JSON at line {exc.lineno} column {exc.colno}: "
                             f"{exc.msg}") from None
    except RecursionError:
        raise LogFormatError("invalid JSON: nested too deeply") from None
    except ValueError as exc:  # a constant, or an integer of more than 4300 digits
        raise LogFormatError(f"invalid JSON: {exc}") from None
    if (isinstance(data, str) and not text.isascii() and not _encodable(text)
            or "\\u" in text and _SURROGATE_ESCAPE.search(text)):
        check_strings(value)
    return value


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Pairs:
    """An object decoded as its list of pairs (to find a duplicate key's path)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs


def _first_duplicate(text: str) -> tuple[str, str] | None:
    """The first duplicate key of ``text`` in document order and its JSON path; None when
    the text cannot be read through (the first parse stopped at the duplicate: what follows
    may be nested too deeply, hold an integer too long or a syntax error)."""
    try:
        tree = json.loads(text, object_pairs_hook=_Pairs, parse_constant=_reject_constant)
    except (RecursionError, ValueError):  # JSONDecodeError is a ValueError
        return None
    stack: list[tuple[Any, tuple[Any, ...]]] = [(tree, ())]
    while stack:
        node, parts = stack.pop()
        if isinstance(node, _Pairs):
            seen: set[str] = set()
            for key, _ in node.pairs:
                if key in seen:
                    return key, pointer((*parts, key))
                seen.add(key)
            pairs: list[tuple[str, Any]] = node.pairs
            for i in range(len(pairs) - 1, -1, -1):
                stack.append((pairs[i][1], (*parts, pairs[i][0])))
        elif isinstance(node, list):
            items: list[Any] = node
            for i in range(len(items) - 1, -1, -1):
                stack.append((items[i], (*parts, i)))
    return None  # not reached: the first parse found one


def check_strings(value: Any) -> None:
    """Refuse, with its path, a string (or key) holding a lone surrogate."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        node, parts = stack.pop()
        if type(node) is str:
            if not _encodable(node):
                raise LogFormatError("a string holds a lone UTF-16 surrogate (an escape such "
                                     "as \\ud800 that stands for no character)", pointer(parts))
        elif type(node) is dict:
            for k, v in node.items():
                if not _encodable(k):
                    raise LogFormatError("a key holds a lone UTF-16 surrogate",
                                         pointer((*parts, k.encode("utf-8", "replace")
                                                  .decode())))
                stack.append((v, (*parts, k)))
        elif type(node) is list:
            for i, v in enumerate(node):
                stack.append((v, (*parts, i)))


def pointer(parts: Any) -> str:
    """A JSON pointer (RFC 6901) of a path given as its parts."""
    if not parts:
        return ""
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def check_bounds(value: Any, parts: tuple[Any, ...] = (), free: bool = False) -> None:
    """Refuse, with its path, a value over the structural limits of the module docstring.

    ``parts`` is where ``value`` sits in the log (the depth counts from the root); under a
    ``free`` value (``/meta``) any JSON number is allowed."""
    if within_bounds(value, len(parts), MAX_DEPTH, MAX_ITEMS, MAX_STRING):
        return  # the usual case, told without making the path of every value
    stack: list[tuple[Any, tuple[Any, ...], bool]] = [(value, parts, free)]
    while stack:
        node, at, loose = stack.pop()
        kind = type(node)
        if kind is dict or kind is list:
            if len(at) >= MAX_DEPTH:
                raise LogFormatError(f"nested more than {MAX_DEPTH} levels deep", pointer(at))
            limit = MAX_MOVES if at == ("moves",) else MAX_ITEMS
            if len(node) > limit:
                what = "items" if kind is list else "keys"
                raise LogFormatError(f"{len(node)} {what}; at most {limit} are read here",
                                     pointer(at))
            if kind is dict:
                for k, v in node.items():
                    if len(k) > MAX_STRING:
                        raise LogFormatError(f"a key of {len(k)} characters; at most "
                                             f"{MAX_STRING}", pointer(at))
                    stack.append((v, (*at, k), loose or at == () and k == "meta"))
            else:
                for i, v in enumerate(node):
                    stack.append((v, (*at, i), loose))
        elif kind is str:
            if len(node) > MAX_STRING:
                raise LogFormatError(f"a string of {len(node)} characters; at most "
                                     f"{MAX_STRING}", pointer(at))
        elif kind is float and not loose:
            raise LogFormatError(f"{node!r} is not an integer: numbers in a log are whole "
                                 "numbers written without a point or an exponent", pointer(at))


# ------------------------------------------------------------ fast schema checks
# (a ``Family.move_surely_valid`` accepts only what the schema accepts)

def plain_int(v: Any, lo: int, hi: int) -> bool:
    """``v`` is an int (not a bool) from ``lo`` to ``hi``."""
    return type(v) is int and lo <= v <= hi


def text(v: Any, lo: int, hi: int) -> bool:
    """``v`` is a string of ``lo`` to ``hi`` characters."""
    return type(v) is str and lo <= len(v) <= hi


def short_text(v: Any) -> bool:
    """``v`` is a string of 1 to 32 characters."""
    return type(v) is str and 1 <= len(v) <= 32


def scores_object(v: Any) -> bool:
    """A ``scores`` object of the schema (at most 6 names, points 0 to 100,000)."""
    return scan.scores_object(v)
