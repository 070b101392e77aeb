"""The drawing colours of the player colours every picture uses."""

from __future__ import annotations

PLAYER_COLOURS = {
    "red": "#d1301f", "blue": "#2160c4", "green": "#23963a", "yellow": "#f2c413",
    "black": "#262626", "grey": "#a3a3a3",
}


def player_colour(colour: str) -> str:
    """The drawing colour of a player colour name (``red``, ``blue``, ...)."""
    return PLAYER_COLOURS.get(colour, "#8a8a8a")


def text_on(fill: str) -> str:
    """Text that reads on a drawing colour (dark on yellow and grey, white on the others)."""
    return "#1b1b1b" if fill in (PLAYER_COLOURS["yellow"], PLAYER_COLOURS["grey"]) else "#ffffff"
