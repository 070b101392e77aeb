"""Manhattan's material (M1) and the geometry of its cards (M2).

Sources: the French rulebook in seed 001 (last pages) gives 6 cities of 3×3 lots, 45 building
cards, 24 building pieces per colour "in four formats of 1, 2, 3 or 4 storeys", 4 colours and
2–4 players. It does not give

* the cards per lot: 45 cards over 9 lots, **5 per lot** (RULES.md M1's decision);
* the split of a colour's 24 pieces by height: **12 of 1 storey, 6 of 2, 4 of 3, 2 of 4**.
  This is a **reconstruction**: reviews of the 1994 edition say each player gets "lots of
  'ones', not that many 'fours'" (boardgame.de), which this split honours; no source at hand
  gives the printed figures. A log header may override it (``Material``).

The colours are those of the rulebook's example (M9): blue, black, red and green (the yellow
piece is the first-player marker, so yellow is no building colour).

Lots are numbered 0–8 row by row as the board lies with south at the bottom: row 0 is the
north row, column 0 the west column. A card is named by the lot it marks as printed, that is
as the south player reads it (M2).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...core.values import value_type

CITIES = ("Manhattan", "Frankfurt", "Sydney", "Hong Kong", "São Paulo", "Cairo")
COLOURS = ("blue", "black", "red", "green")
SIDES = ("south", "west", "north", "east")  # clockwise around the table (G3 turn order)
LOTS = 9
HEIGHTS = (1, 2, 3, 4)

_ROWS = ("north", "middle", "south")
_COLS = ("west", "centre", "east")


class Material:
    """What a game of Manhattan is played with (M1); every figure may be overridden."""

    cards_per_lot: tuple[int, ...]
    pieces: Mapping[int, int]
    hand_size: int

    def __init__(self, cards_per_lot: tuple[int, ...] = (5,) * LOTS,
                 pieces: Mapping[int, int] | None = None, hand_size: int = 4) -> None:
        self.cards_per_lot = cards_per_lot
        self.pieces = {1: 12, 2: 6, 3: 4, 4: 2} if pieces is None else pieces
        self.hand_size = hand_size

    @property
    def cards(self) -> int:
        """The number of building cards (45)."""
        return sum(self.cards_per_lot)

    @property
    def pieces_per_colour(self) -> int:
        """The number of building pieces of one colour (24)."""
        return sum(self.pieces.values())

    def deck(self) -> list[int]:
        """The cards before shuffling, by printed lot, in lot order."""
        return [lot for lot in range(LOTS) for _ in range(self.cards_per_lot[lot])]


value_type(Material)
DEFAULT_MATERIAL = Material()


def lot_seen_from(card: int, side: str) -> int:
    """The lot a card printed as ``card`` marks for a player sitting on ``side`` (M2).

    South reads the card as printed; north sees it turned 180°; west and east a quarter turn
    (west's far edge is the east of the board, his left the north; east's the reverse).
    """
    r, c = divmod(card, 3)
    if side == "south":
        row, col = r, c
    elif side == "north":
        row, col = 2 - r, 2 - c
    elif side == "west":
        row, col = c, 2 - r
    elif side == "east":
        row, col = 2 - c, r
    else:
        raise ValueError(f"{side!r} is not a side of the board (choose from {', '.join(SIDES)})")
    return row * 3 + col


def lot_name(lot: int) -> str:
    """A lot as people read it: ``the north-west lot``, ``the centre lot``."""
    row, col = divmod(lot, 3)
    if row == 1 and col == 1:
        return "the centre lot"
    if row == 1:
        return f"the middle-{_COLS[col]} lot"
    if col == 1:
        return f"the {_ROWS[row]}-centre lot"
    return f"the {_ROWS[row]}-{_COLS[col]} lot"


def default_sides(players: int) -> tuple[str, ...]:
    """Where players sit unless the header says otherwise (M2): two face to face (south,
    north), three or four clockwise from the south."""
    return ("south", "north") if players == 2 else SIDES[:players]
