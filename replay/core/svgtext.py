"""Text of SVG pictures, shared by every drawing: elements, escaped strings and short numbers.

Every SVG element a drawing makes is written by ``element`` (an empty element or one holding
text), ``wrap`` (one holding other elements) or ``open_tag`` (the start of a group closed by
hand), so that attribute values and text are escaped here, in one place (``esc``: the
semantics of ``html.escape``). Attributes are keyword arguments in the order written: a
trailing ``_`` is dropped (``class_``) and ``_`` stands for ``-`` (``stroke_width``); a name
that is not an identifier is passed as ``**{"xml:space": ...}``; a value None leaves the
attribute out. Values are written with ``str``: numbers that need rounding go through ``num``.
"""

from __future__ import annotations

from html import escape

__all__ = ["element", "esc", "num", "open_tag", "wrap"]

_NAMES: dict[str, str] = {}  # keyword -> attribute name, filled on first use
_WRITTEN: dict[tuple[str, object], str] = {}  # (keyword, text value) -> the attribute written


def esc(text: object) -> str:
    """Any value as text safe in SVG content and attributes."""
    return escape(str(text), quote=True)


def num(v: float) -> str:
    """A coordinate with one decimal at most: ``12``, ``12.5``."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _name(key: str) -> str:
    name = _NAMES[key] = key.rstrip("_").replace("_", "-")
    return name


def _attributes(attributes: dict[str, object]) -> str:
    out = ""
    get = _WRITTEN.get
    for item in attributes.items():
        out += get(item) or _written(item)
    return out


# What is remembered: short text values (colours, classes, coordinates: what pictures repeat),
# at most so many; a long one (a link, a path) is hardly ever written twice, and a server
# drawing thousands of games would keep each (50 MB of them before this bound)
REMEMBERED = 20_000
REMEMBERED_LENGTH = 40


def _written(item: tuple[str, object]) -> str:
    """One attribute as written, `` name="value"`` ("" for the value None), remembered when
    its value is short text (``REMEMBERED_LENGTH``: a picture repeats its colours, classes and
    coordinates; a number is not remembered: 1, 1.0 and True would be one key)."""
    key, value = item
    if value is None:
        return ""
    out = f' {_NAMES.get(key) or _name(key)}="{escape(str(value), True)}"'
    if type(value) is str and len(value) <= REMEMBERED_LENGTH:
        if len(_WRITTEN) >= REMEMBERED:  # a bound for a server that draws for days
            _WRITTEN.clear()
        _WRITTEN[item] = out
    return out


def open_tag(tag: str, /, **attributes: object) -> str:
    """The start tag ``<tag a="v" ...>`` of an element whose end the caller writes."""
    return f"<{tag}{_attributes(attributes)}>"


def element(tag: str, text: object = None, /, **attributes: object) -> str:
    """``<tag a="v" .../>``, or ``<tag a="v" ...>text</tag>`` with ``text`` escaped."""
    if text is None:
        return f"<{tag}{_attributes(attributes)}/>"
    return f"<{tag}{_attributes(attributes)}>{esc(text)}</{tag}>"


def wrap(tag: str, /, *children: str, **attributes: object) -> str:
    """``<tag a="v" ...>children</tag>``: ``children`` are SVG already written (by these
    functions, or text passed through ``esc``)."""
    return f"<{tag}{_attributes(attributes)}>{''.join(children)}</{tag}>"
