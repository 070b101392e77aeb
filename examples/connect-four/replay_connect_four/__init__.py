"""Connect Four as a game family of carcassonne-replay, in a distribution of its own: the log's
``"game": "connect-four"`` (an example of docs/plugins.md).

Rules (ids ``CF``, the family's ``rule_prefixes``; G3, G11 and the L rules of the service apply
as to every game):

- **CF1 Board and players.** Two players; a vertical board of 7 columns and 6 rows (option
  ``board``: ``7x6``, ``8x7`` or ``9x7``), empty at the start. Each player has half the
  discs (the first player the odd one of an odd board). The first player of the log starts;
  then they take turns (G3).
- **CF2 Drop.** A move names a column (1 = the leftmost); the disc falls to the lowest empty
  cell of it. A column off the board or full cannot take a disc.
- **CF3 Four in a row.** A player whose disc completes a line of four or more of their own
  discs, horizontal, vertical or diagonal, scores 1 point and the game ends.
- **CF4 Full board.** When the last cell is filled without a line, the game ends: a draw,
  nobody scores, and both players win (G11: every best score wins).
- **CF5 The end.** Once the game is over no disc may be dropped.

The state and its rules are in ``state``, the picture in ``drawing`` and the moves in words in
``view`` (its ``View``), the log schema's part in ``schema``, the invariants the fuzzer adds in
``fuzz``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replay.core.errors import LogFormatError
from replay.core.family import Family, GameConfig, GameState, Option, Player

from .state import ConnectFourState, Drop

__all__ = ["CONNECT_FOUR", "ConnectFour", "ConnectFourState", "Drop"]


class ConnectFour(Family):
    """Connect Four (CF1-CF5)."""

    name = "connect-four"
    label = "Connect Four"
    rule_prefixes = ("CF",)
    options = (Option("board", ("7x6", "8x7", "9x7"), "7x6", "CF1",
                      "columns x rows of the board"),)
    min_players = 2
    max_players = 2
    player_rule = "CF1"
    colours = ("red", "yellow")
    fuzz_machine = "replay_connect_four.fuzz:ConnectFourMachine"
    view = "replay_connect_four.view:ConnectFourView"  # its pictures and words

    # ------------------------------------------------------------ the header

    def configure(self, header: Mapping[str, Any], players: tuple[Player, ...],
                  seed: str | None, material: Any = None) -> GameConfig:
        """Two seats (CF1), no expansion, the board option; no material to replace."""
        if material is not None:
            raise LogFormatError(f"{self.label} takes no tile set", "/game")
        expansions = list(header.get("expansions", []))
        self.check_expansions(expansions)
        self.check_players(len(players), expansions)
        options = self.option_values(header.get("options", {}), expansions)
        return GameConfig(self.name, (), players, options, seed)

    def log_schema(self) -> dict[str, Any]:
        """The JSON Schema of this game's header fields and moves (``schema``)."""
        from .schema import PART

        return PART

    # ------------------------------------------------------------ moves

    def new_state(self, config: GameConfig) -> ConnectFourState:
        return ConnectFourState(config)

    def decode_move(self, raw: Mapping[str, Any], path: str) -> Drop:
        """A schema-valid move: ``{"column": 4}`` (claimed ``scores`` are the core's)."""
        return Drop(raw["column"])

    def encode_move(self, move: Any) -> dict[str, Any]:
        return {"column": move.column}

    def move_surely_valid(self, raw: Any) -> bool:
        """The fast path: a plain ``{"column": N}`` that the schema surely accepts."""
        return (type(raw) is dict and len(raw) == 1 and type(raw.get("column")) is int
                and 1 <= raw["column"] <= 16)

    def play_random(self, state: GameState, pick: Any) -> Drop:
        """The generator's policy: win when a drop wins, else block a drop that would win
        for the other player, else any column (``pick`` is a seeded stream)."""
        assert isinstance(state, ConnectFourState)
        moves = list(state.legal_moves())
        seat = state.turn()
        move = (next((m for m in moves if state.wins_with(m.column, seat)), None)
                or next((m for m in moves if state.wins_with(m.column, 1 - seat)), None)
                or moves[pick.below(len(moves))])
        state.apply(move)
        return move


CONNECT_FOUR = ConnectFour()
ConnectFourState.FAMILY = CONNECT_FOUR
