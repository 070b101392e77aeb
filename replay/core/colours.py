"""The drawing colours of the player colours every picture uses, and the mark each seat bears
beside its colour (``seat_marks``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

PLAYER_COLOURS = {
    "red": "#d1301f", "blue": "#2160c4", "green": "#23963a", "yellow": "#f2c413",
    "black": "#262626", "grey": "#a3a3a3",
}


NOBODY = "#8a8a8a"  # the colour of what no seat owns (a feature nobody scored)


def player_colour(colour: str) -> str:
    """The drawing colour of a player colour name (``red``, ``blue``, ...)."""
    return PLAYER_COLOURS.get(colour, NOBODY)


def text_on(fill: str) -> str:
    """Text that reads on a drawing colour (dark on yellow and grey, white on the others)."""
    return "#1b1b1b" if fill in (PLAYER_COLOURS["yellow"], PLAYER_COLOURS["grey"]) else "#ffffff"


# an SVG's marks let the pointer through to the piece they mark (and to its tooltip)
MARK_STYLE = "<style>text.mark{pointer-events:none}</style>"


def seat_marks(players: Iterable[str | Mapping[str, object]]) -> list[str]:
    """One character per seat, drawn on its pieces and beside its name in legends: a cue
    besides the colour, which some eyes do not tell apart (red and green for deuteranopes) and
    whose tooltip a touch screen never shows. The first letter of each name, capitalised, when
    no two seats share it; else every seat's number, from 1. ``players`` are names or the
    stored seats (``{"name": ...}``)."""
    names = [str(p["name"]) if isinstance(p, Mapping) else str(p) for p in players]
    letters = [_initial(n) for n in names]
    if all(letters) and len(set(letters)) == len(letters):
        return letters
    return [str(i + 1) for i in range(len(names))]


def _initial(name: str) -> str:
    """The first letter or digit of ``name``, capitalised when that is one character."""
    first = next((c for c in name if c.isalnum()), "")
    upper = first.upper()
    return upper if len(upper) == 1 else first
