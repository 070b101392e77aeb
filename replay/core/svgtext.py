"""Text of SVG pictures, shared by every drawing: escaped strings and short numbers."""

from __future__ import annotations

from html import escape


def esc(text: object) -> str:
    """Any value as text safe in SVG content and attributes."""
    return escape(str(text), quote=True)


def num(v: float) -> str:
    """A coordinate with one decimal at most: ``12``, ``12.5``."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text
