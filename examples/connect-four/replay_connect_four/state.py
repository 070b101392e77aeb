"""A game of Connect Four in progress: ``ConnectFourState`` (rules CF1-CF5, see the package).

The board is a list of columns, each the seats of its discs from the bottom up. ``apply``
checks the move first (``check``), then changes the state in steps that cannot fail, so an
illegal move changes nothing. The state hash (L4) is kept up to date with a few XORs a move
and equals ``hash_from_scratch()`` in every position.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, NamedTuple, Self

from replay.core import hashing
from replay.core.errors import IllegalMove
from replay.core.events import Event, GameEnd, Score
from replay.core.family import Family, GameConfig, GameState, Player

# the four directions a line may run in (its other half is the opposite direction)
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
LINE = 4  # CF3: discs in a row that win


class Drop(NamedTuple):
    """A move: the column (1 = the leftmost) a disc is dropped into (CF2)."""

    column: int


class Dropped(NamedTuple):
    """Event: ``player``'s disc came to rest in ``column`` (1-based from the left), ``row``
    (1-based from the bottom)."""

    player: int
    column: int
    row: int

    @property
    def type(self) -> str:
        return "drop"

    def to_json(self) -> dict[str, Any]:
        return {"type": "drop", "player": self.player, "column": self.column, "row": self.row}

    def describe(self, names: Sequence[str]) -> str:
        return f"drop {names[self.player]} column {self.column} row {self.row}"

    def explain(self, players: Sequence[Player]) -> str:
        who = players[self.player]
        return (f"{who.name} ({who.colour}) drops a disc in column {self.column}; it comes to "
                f"rest on row {self.row} (CF2)")


def board_size(text: str) -> tuple[int, int]:
    """``"7x6"`` as (columns, rows)."""
    columns, _, rows = text.partition("x")
    return int(columns), int(rows)


class ConnectFourState(GameState):
    """One game of Connect Four (see the module)."""

    FAMILY: ClassVar[Family]  # set by the package when it makes the family

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.columns, self.rows = board_size(config.options["board"])  # CF1
        self.grid: list[list[int]] = [[] for _ in range(self.columns)]
        self.scores = [0, 0]
        self.finished = False
        self.moves_played = 0
        self.line: list[tuple[int, int]] = []  # CF3: the winning line, (column, row) 0-based
        self.setup_events: list[Event] = []
        self.hash = self.hash_from_scratch()

    # ------------------------------------------------------------ what the core reads

    @property
    def family(self) -> Family:
        return self.FAMILY

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.moves_played % 2  # G3: seats take turns

    def supply_of(self, seat: int) -> dict[str, int]:
        """CF1: the discs left (the first player has the odd one of an odd board)."""
        dropped = sum(column.count(seat) for column in self.grid)
        return {"disc": (self.columns * self.rows + 1 - seat) // 2 - dropped}

    def status(self) -> dict[str, Any]:
        return {"discs_left": self.columns * self.rows - self.moves_played,
                "board": f"{self.columns}x{self.rows}"}

    def copy(self) -> Self:
        twin = copy.copy(self)  # the configuration is shared: it never changes
        twin.grid = [list(column) for column in self.grid]
        twin.scores = list(self.scores)
        twin.line = list(self.line)
        return twin

    # ------------------------------------------------------------ the state hash (L4)

    def hash_from_scratch(self) -> int:
        """The state hash worked out from the position alone (L4: equals ``hash``)."""
        value = 0
        for c, column in enumerate(self.grid):
            for r, seat in enumerate(column):
                value ^= hashing.item("c4-disc", c, r, seat)
        for seat, score in enumerate(self.scores):
            value ^= hashing.seat_item("s", seat, score)
        return value ^ self._turn_item()

    def _turn_item(self) -> int:
        return hashing.item("c4-over") if self.finished else hashing.item("turn", self.turn())

    def turn(self) -> int:
        """The seat whose turn it is (also once the game is over: the next one)."""
        return self.moves_played % 2

    # ------------------------------------------------------------ moves

    def legal_moves(self) -> Iterator[Drop]:
        if self.finished:
            return
        for c, column in enumerate(self.grid):
            if len(column) < self.rows:
                yield Drop(c + 1)

    def check(self, move: Any) -> None:
        try:
            self._check(move)
        except IllegalMove as exc:
            exc.move = self.moves_played
            exc.player = self.config.players[self.turn()].name
            raise

    def _check(self, move: Any) -> None:
        if self.finished:
            raise IllegalMove("CF5", "the game is over: no disc may be dropped")
        if not isinstance(move, Drop):
            raise IllegalMove("CF2", f"{move!r} is not a drop of a disc")
        if not 1 <= move.column <= self.columns:
            raise IllegalMove("CF2", f"column {move.column} is not on the board (columns 1 "
                                     f"to {self.columns})")
        if len(self.grid[move.column - 1]) >= self.rows:
            raise IllegalMove("CF2", f"column {move.column} is full")

    def apply(self, move: Any) -> list[Event]:
        self.check(move)  # from here on nothing can fail: apply is atomic
        seat, c = self.turn(), move.column - 1
        r = len(self.grid[c])
        before = self._turn_item()
        self.grid[c].append(seat)
        self.hash ^= hashing.item("c4-disc", c, r, seat)
        self.moves_played += 1
        events: list[Event] = [Dropped(seat, c + 1, r + 1)]
        line = self.line_through(c, r, seat)
        if line:  # CF3
            self.line = line
            self._add_score(seat, 1)
            cells = sorted([x + 1, y + 1] for x, y in line)
            events.append(Score("play", "line", 1, (seat,), ((seat, 1),),
                                f"{len(line)} discs in a row = 1", "CF3", cells))
            self.finished = True
        elif self.moves_played == self.columns * self.rows:  # CF4
            self.finished = True
        self.hash ^= before ^ self._turn_item()
        if self.finished:
            events.append(GameEnd(tuple(self.scores), tuple(self.winners())))
        return events

    def end_now(self) -> list[Event]:
        """A game stopped here: nobody has a line, nobody scores (a log that ends
        ``"after-last-move"``)."""
        if self.finished:
            return []
        before = self._turn_item()
        self.finished = True
        self.hash ^= before ^ self._turn_item()
        return [GameEnd(tuple(self.scores), tuple(self.winners()))]

    def _add_score(self, seat: int, points: int) -> None:
        old = self.scores[seat]
        self.scores[seat] = old + points
        self.hash ^= hashing.seat_item("s", seat, old) ^ hashing.seat_item("s", seat, old + points)

    # ------------------------------------------------------------ lines

    def seat_at(self, c: int, r: int) -> int | None:
        """The seat of the disc at column ``c``, row ``r`` (0-based), or None."""
        if 0 <= c < self.columns and 0 <= r < len(self.grid[c]):
            return self.grid[c][r]
        return None

    def line_through(self, c: int, r: int, seat: int) -> list[tuple[int, int]]:
        """The longest line of ``seat``'s discs through (c, r), a disc of ``seat`` standing
        there or not, when it has at least ``LINE`` discs (CF3); else []."""
        best: list[tuple[int, int]] = []
        for dc, dr in DIRECTIONS:
            cells = [(c, r)]
            for sign in (1, -1):
                x, y = c + sign * dc, r + sign * dr
                while self.seat_at(x, y) == seat:
                    cells.append((x, y))
                    x, y = x + sign * dc, y + sign * dr
            if len(cells) >= LINE and len(cells) > len(best):
                best = sorted(cells)
        return best

    def wins_with(self, column: int, seat: int) -> bool:
        """Whether ``seat`` would make a line by dropping into ``column`` (1-based) now."""
        c = column - 1
        return bool(self.line_through(c, len(self.grid[c]), seat))

