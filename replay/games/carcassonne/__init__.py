"""Carcassonne (1st edition), the log's ``"game": "base"``, with its expansions Inns &
Cathedrals (``inns_cathedrals``) and Hills & Sheep (``hills_sheep``).

Rules by id: G1-G12 in ``replay.tiles.state`` (the turn, placement, figures) and ``scoring``
(G8 majorities, G10 order); B1-B9 in ``scoring``; IC1-IC4 in ``inns_cathedrals``; HS1-HS10 in
``hills_sheep``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...core.errors import ReplayError
from ...core.family import Expansion, GameConfig, GameState, Option
from ...tiles.family import TileFamily
from ...tiles.moves import plain_fields, tile_fields
from .hills_sheep import HillsSheep
from .inns_cathedrals import InnsCathedrals
from .rules import ExpansionRules
from .sheep_moves import FlockChoice, SheepFields
from .state import CarcassonneState, Move, read_plain_moves

__all__ = ["Carcassonne", "CarcassonneState", "FlockChoice", "Move", "SheepFields",
           "CARCASSONNE"]

RULES: dict[str, ExpansionRules] = {r.info.name: r for r in (InnsCathedrals(), HillsSheep())}
FIELD_RULES = tuple(r for r in RULES.values() if r.move_fields)  # expansions with move fields
BASIC_FIELDS = TileFamily.move_fields  # a move with only these fields needs no expansion


class Carcassonne(TileFamily):
    """Carcassonne, 1st edition (B1-B9), with Inns & Cathedrals and Hills & Sheep."""

    name = "base"
    label = "Carcassonne"
    view = "replay.games.carcassonne.view:CarcassonneView"
    rule_prefixes = ("B", "IC", "HS")
    expansions: ClassVar[Mapping[str, Expansion]] = {n: r.info for n, r in RULES.items()}
    options = (
        Option("small_city", (2, 4), 2, "B4a", "points of a complete 2-tile city"),
        Option("farm_scoring", ("per-city", "per-field"), "per-city", "B8",
               "farmers score each complete city once (per-city) or each field (per-field)"),
        *(o for r in RULES.values() for o in r.options),
    )
    max_players = 5
    player_rule = "B1"
    tileset = "base-1e"
    expansion_order = tuple(RULES)
    figure_kinds = frozenset({"follower", "large-follower", "shepherd"})
    importer_refs: ClassVar[tuple[str, ...]] = ("replay.games.carcassonne.importers.jcz:JCZ",
                                                "replay.games.carcassonne.importers.bga:BGA")
    fuzz_machine = "replay.games.carcassonne.fuzz:CarcassonneMachine"
    move_fields = TileFamily.move_fields | frozenset(
        k for r in RULES.values() for k in r.move_fields)
    # Rule parameters: what a house-rule variant (a subclass under its own name, see
    # docs/plugins.md) changes. Each is handed to the state once, by new_state, so that the
    # rules read a plain attribute and a variant costs nothing.
    # B8: the points a farm's majority scores for each complete city, by farm_scoring.
    farm_points: ClassVar[Mapping[str, int]] = {"per-city": 4, "per-field": 3}

    def log_schema(self) -> dict[str, Any]:
        """The header fields and moves the tile-laying families share (``tile_logs``)."""
        from ..tile_logs import PART

        return PART

    def new_state(self, config: GameConfig) -> CarcassonneState:
        ordered = [RULES[x] for x in self.expansion_order if x in config.expansions]
        absent = [r for name, r in RULES.items() if name not in config.expansions]
        return CarcassonneState(config, tuple(ordered), tuple(absent), self,
                                self.farm_points[config.options["farm_scoring"]])

    def decode_move(self, raw: Mapping[str, Any], path: str) -> Move:
        if BASIC_FIELDS.issuperset(raw):  # most moves: no expansion field
            return Move(*tile_fields(raw))
        self.refuse_foreign_fields(raw, path)
        extras = [r.decode(raw, path) for r in FIELD_RULES if not r.move_fields.isdisjoint(raw)]
        return Move(*tile_fields(raw), tuple(x for x in extras if x is not None))

    def read_moves(self, raws: list[Any]) -> list[Any] | None:
        plain = read_plain_moves(raws, BASIC_FIELDS, self.figure_kinds)
        if plain is not None or not all(self.move_surely_valid(raw) for raw in raws):
            return plain
        try:  # some moves have expansion fields: each decoded as the slow path would
            return [self.decode_move(raw, f"/moves/{i}") for i, raw in enumerate(raws)]
        except ReplayError:
            return None  # the slow path says it, after the header's errors

    def encode_move(self, move: Any) -> dict[str, Any]:
        from .policy import encode  # (here: a verify needs no policy, and the import costs)

        return encode(move, FIELD_RULES)

    def move_surely_valid(self, raw: Any) -> bool:
        if type(raw) is dict and BASIC_FIELDS.issuperset(raw):  # most moves: the shared check
            return plain_fields(raw, BASIC_FIELDS, self.figure_kinds) is not None
        if not super().move_surely_valid(raw):
            return False
        return all(r.surely_valid(raw) for r in FIELD_RULES
                   if not r.move_fields.isdisjoint(raw))

    def play_random(self, state: GameState, pick: Any) -> Move:
        from .policy import random_move

        assert isinstance(state, CarcassonneState)
        move = random_move(state, pick)
        state.play(move)  # one step: no events are kept
        return move

    def play_random_game(self, state: GameState, pick: Any) -> list[dict[str, Any]]:
        """The whole game by the policy, in its compiled loop (``policy.play_game``)."""
        from .policy import play_game

        assert isinstance(state, CarcassonneState)
        return play_game(state, pick, FIELD_RULES)


CARCASSONNE = Carcassonne()
CarcassonneState.FAMILY = CARCASSONNE
