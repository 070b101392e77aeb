"""Text fit for a terminal: every line the commands print for people goes through
``printable``, so that a name read from a file (a file name, an archive entry's name, a
player's name) cannot recolour, rewrite or ring the terminal it is printed on.

The JSON, CSV and HTML reports escape in their own way (JSON strings, CSV quoting, HTML
entities); this is for text."""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with each character that is not printable (controls such as ESC and BEL, line
    and paragraph separators, format characters such as a right-to-left override) written as
    its Python escape: ``\\x1b``, ``\\x07``, ``\\u202e``. Printable text, accents and
    scripts included, is given back as it is."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)
