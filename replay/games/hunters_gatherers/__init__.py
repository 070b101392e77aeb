"""Hunters & Gatherers (the standalone game of the Carcassonne family), the log's
``"game": "hunters-gatherers"``.

Rules by id: HG1-HG3, HG6-HG8 in ``state`` (figures, huts, returns, bonus tiles, river
networks); HG4, HG5, HG9-HG11 in ``scoring``; HG12 are the rulebook examples
(``fixtures/hunters-gatherers``); HG13 the tile set (``docs/hunters-gatherers-tiles.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import LogFormatError
from ...core.family import GameConfig, GameState, Option
from ...core.sink import DROP
from ...tiles.family import TileFamily
from ...tiles.moves import TileMove, encode_tile_move, plain_fields, tile_fields
from ...tiles.policy import random_placement
from . import features  # noqa: F401  (tells the tile layer the family's features)
from .state import HuntersGatherersState, Move, read_plain_moves

__all__ = ["HUNTERS_GATHERERS", "HuntersGatherers", "HuntersGatherersState", "Move"]

BONUS_FIELDS = frozenset({"tile", "discard", "x", "y", "rotation", "figure"})


class HuntersGatherers(TileFamily):
    """Hunters & Gatherers (HG1-HG13)."""

    name = "hunters-gatherers"
    label = "Hunters & Gatherers"
    view = "replay.games.hunters_gatherers.view:HuntersGatherersView"
    rule_prefixes = ("HG",)
    options = (Option("return_timing", ("end-of-turn", "immediate"), "end-of-turn", "HG6",
                      "gatherers and fishers of a completed forest or river return at the end "
                      "of the turn (default) or at once"),)
    max_players = 5
    player_rule = "HG1"
    tileset = "hunters-gatherers"
    figure_kinds = frozenset({"follower", "hut"})
    fuzz_machine = "replay.games.hunters_gatherers.fuzz:HuntersGatherersMachine"
    move_fields = TileFamily.move_fields | {"bonus"}

    def log_schema(self) -> dict[str, Any]:
        """The header fields and moves the tile-laying families share (``tile_logs``)."""
        from ..tile_logs import PART

        return PART

    def new_state(self, config: GameConfig) -> HuntersGatherersState:
        return HuntersGatherersState(config)

    def read_moves(self, raws: list[Any]) -> list[Any] | None:
        return read_plain_moves(raws, self.move_fields, BONUS_FIELDS, self.figure_kinds)

    def decode_move(self, raw: Mapping[str, Any], path: str) -> Move:
        self.refuse_foreign_fields(raw, path)
        bonus = raw.get("bonus")
        return Move(*tile_fields(raw),
                    bonus=None if bonus is None else TileMove(*tile_fields(bonus)))

    def encode_move(self, move: Any) -> dict[str, Any]:
        out = encode_tile_move(move)
        if move.bonus is not None:
            out["bonus"] = encode_tile_move(move.bonus)
        return out

    def move_surely_valid(self, raw: Any) -> bool:
        if not super().move_surely_valid(raw):
            return False
        if "bonus" in raw:
            bonus = raw["bonus"]
            return plain_fields(bonus, BONUS_FIELDS, self.figure_kinds) is not None
        return True

    def play_random(self, state: GameState, pick: Any) -> Move:
        """The land tile, then (HG7) the bonus tile it earned, by the generator's policy."""
        assert isinstance(state, HuntersGatherersState)
        tile = state.current
        if tile is None:
            raise LogFormatError("the generator plays seeded games only")
        move: Move = random_placement(state, tile, pick, Move)
        kept, state.sink = state.sink, DROP  # the generator keeps no events
        try:
            state.step(move)
            if state.bonus_due:
                assert state.pending_bonus is not None
                move = move.with_bonus(random_placement(state, state.pending_bonus, pick))
                state.step(move.bonus)
        finally:
            state.sink = kept
        return move


HUNTERS_GATHERERS = HuntersGatherers()
HuntersGatherersState.FAMILY = HUNTERS_GATHERERS
