"""Connect Four's invariants for ``python -m replay fuzz`` (``ConnectFour.fuzz_machine``).

The generic machine (``replay.lab.machines.GameMachine``) already checks what every family
promises (determinism, atomic refusal, copies, the state hash, scores, the log round trip).
This machine adds Connect Four's own rules, restated here independently of ``state``:

* no disc floats and each player has dropped half the discs (CF1, CF2);
* a player scores exactly when a line of four of theirs is on the board, and the game is over
  exactly when one is or the board is full (CF3, CF4);
* the supply plus the discs on the board is each player's share (CF1);
* before a legal drop, a drop into a full column and one off the board are refused (CF2).

Its style of play (``pick_move``): most moves avoid completing a line when another column
does not, so that games also fill the board (the draw of CF4) instead of ending early.

This module needs ``hypothesis`` (imported only when fuzzing).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from replay.lab.checker import Checker, Choose, Expected, Roll
from replay.lab.machines import GameMachine

from .state import DIRECTIONS, LINE, ConnectFourState, Drop


def lines_of(state: ConnectFourState, seat: int) -> int:
    """How many lines of ``LINE`` cells hold only ``seat``'s discs, counted from scratch."""
    found = 0
    for c in range(state.columns):
        for r in range(state.rows):
            for dc, dr in DIRECTIONS:
                if all(state.seat_at(c + k * dc, r + k * dr) == seat for k in range(LINE)):
                    found += 1
    return found


class ConnectFourChecker(Checker):
    """The generic checks, and Connect Four's (see the module)."""

    def fingerprint(self, state: Any) -> tuple[Any, ...]:
        return (*super().fingerprint(state), tuple(map(tuple, state.grid)))

    def check_position(self) -> None:
        state = self.state
        assert isinstance(state, ConnectFourState)
        discs = sum(len(column) for column in state.grid)
        assert discs == state.moves_played, "CF2: one disc a move"
        assert all(len(column) <= state.rows for column in state.grid), "CF2: a column overflows"
        share = state.columns * state.rows
        for seat in (0, 1):
            mine = sum(column.count(seat) for column in state.grid)
            assert mine == (discs + 1 - seat) // 2, "G3: the players take turns"
            assert state.supply_of(seat)["disc"] + mine == (share + 1 - seat) // 2, "CF1"
            lined = lines_of(state, seat) > 0
            assert state.scores[seat] == (1 if lined else 0), "CF3: a point for a line"
            if lined:
                self.saw("four in a row")
        full = discs == share
        assert state.finished == (sum(state.scores) > 0 or full), "CF3, CF4: when it ends"
        if full and not any(state.scores):
            self.saw("draw: the board is full")


class ConnectFourMachine(GameMachine):
    """Games of Connect Four on every board, with illegal drops tried before legal ones."""

    FAMILY = "connect-four"
    CHECKER = ConnectFourChecker
    END_RULE = "CF5"

    def pick_move(self, choose: Choose, roll: Roll) -> Any:
        """A legal drop; four times in five one that completes no line, when there is one."""
        assert self.checker is not None
        state = self.checker.state
        assert isinstance(state, ConnectFourState)
        moves = self.checker.legal()
        if roll() < 80:
            seat = state.turn()
            quiet = [m for m in moves if not state.wins_with(m.column, seat)]
            moves = quiet or moves
        return choose(moves, "move")

    def illegal_variants(self, move: Any) -> Iterable[tuple[str, Any, Expected]]:
        assert self.checker is not None
        state = self.checker.state
        assert isinstance(state, ConnectFourState)
        yield "off the board", Drop(state.columns + 1), "CF2"
        full = [c for c, column in enumerate(state.grid, 1) if len(column) == state.rows]
        if full:
            yield "full column", Drop(full[0]), "CF2"

    @classmethod
    def step_count(cls) -> int:
        return 70  # the largest board has 63 cells
