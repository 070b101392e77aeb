"""Manhattan (Andreas Seyfarth, Hans im Glück 1994), the future log's ``"game": "manhattan"``.

Rules by id: M1 (material) in ``material``; M2–M5, M7, M8 in ``state``; M6 and M10 in
``scoring``; M9 is the rulebook example (``tests/test_manhattan.py``); the SVG picture of a
position in ``drawing``.

This is the engine core only. The family is **not registered**: registration
(``register(MANHATTAN)``) waits for the log format (decode/encode), goldens, an invalid
corpus, a fuzz machine and viewer support. Importing this package has no effect on
the registry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.events import Event
from ...core.family import Family, GameConfig, GameState, Player
from .material import DEFAULT_MATERIAL, Material
from .state import Build, Choose, Discard, ManhattanState, Move

__all__ = ["MANHATTAN", "Build", "Choose", "Discard", "Manhattan", "ManhattanState",
           "Material", "Move"]


class Manhattan(Family):
    """Manhattan (M1–M10)."""

    name = "manhattan"
    label = "Manhattan"
    rule_prefixes = ("M",)
    min_players = 2
    max_players = 4
    player_rule = "M1"

    def configure(self, header: Mapping[str, Any], players: tuple[Player, ...],
                  seed: str | None, material: Any = None) -> GameConfig:
        """A configuration from a header (sides and second colours as options, M2, M7); the
        log format proper comes with registration."""
        self.check_players(len(players), ())
        options = dict(header.get("options") or {})
        return GameConfig(self.name, (), players, options, seed, material or DEFAULT_MATERIAL)

    def new_state(self, config: GameConfig) -> ManhattanState:
        return ManhattanState(config)

    def decode_move(self, raw: Mapping[str, Any], path: str) -> Move:
        raise NotImplementedError("the Manhattan log format comes with registration")

    def encode_move(self, move: Any) -> dict[str, Any]:
        raise NotImplementedError("the Manhattan log format comes with registration")

    def play_random(self, state: GameState, pick: Any) -> Move:
        """A uniformly random legal move (a placeholder for the generator policy)."""
        assert isinstance(state, ManhattanState)
        moves = list(state.legal_moves())
        move: Move = moves[pick.below(len(moves))]
        state.apply(move)
        return move

    def draw(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
             notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-") -> str:
        """The board as SVG (``drawing.board``)."""
        from .drawing import board

        assert isinstance(state, ManhattanState)
        return board(state, events=events, failure=failure, notes=notes, size=size,
                     prefix=prefix)


MANHATTAN = Manhattan()  # not registered: see the module docstring
ManhattanState.FAMILY = MANHATTAN
