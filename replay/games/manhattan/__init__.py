"""Manhattan (Andreas Seyfarth, Hans im Glück 1994), the log's ``"game": "manhattan"``.

Rules by id: M1 (material) in ``material``; M2, M4, M5, M7, M8 in ``state`` (the moves and
M5's storey count in ``moves``); M3 (the cards) in ``deck``; M6 and M10 in ``scoring``; M9 is
the rulebook example (``tests/test_manhattan.py``). The log format is in ``log``, the state
hash in ``hashes``, the generator's policy in ``policy``, the picture in ``drawing``, the
moves in words in ``words``, both shown by its view (``view``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import LogFormatError
from ...core.family import Family, GameConfig, GameState, MoveColumn, Player
from . import log
from .deck import Deck
from .material import COLOURS, DEFAULT_MATERIAL, Material
from .moves import Build, Choose, Discard, Move
from .policy import play_game, random_move
from .state import ManhattanState

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
    colours = COLOURS
    header_fields = frozenset({"expansions", "options", "material", "deal"})
    player_fields = frozenset({"side", "second_colour"})
    fuzz_machine = "replay.games.manhattan.fuzz:ManhattanMachine"
    explorer = "replay.games.manhattan.explore:ManhattanExplorer"
    view = "replay.games.manhattan.view:ManhattanView"
    move_columns = (
        MoveColumn("card", ("card",), "integer", "the card played: its lot as printed (1-9)"),
        MoveColumn("city", ("city",), "text", "the city built in"),
        MoveColumn("storeys", ("storeys",), "integer", "the storeys of the piece built"),
        MoveColumn("colour", ("colour",), "text", "the colour of the piece built"),
    )
    _checked: tuple[GameConfig, ManhattanState] | None = None

    def configure(self, header: Mapping[str, Any], players: tuple[Player, ...],
                  seed: str | None, material: Any = None) -> GameConfig:
        """Seats, colours, material and deal from a log header, checked (M1–M3, M7)."""
        self.check_players(len(players), ())
        if material is not None and not isinstance(material, Material):
            raise LogFormatError("Manhattan takes no tile set", "/game")
        material = material or log.material_from(header.get("material"))
        options = log.options_from(header, players, material)
        config = GameConfig(self.name, (), players, options, seed, material)
        # the seats, pieces and deal are checked by setting them up; the state is kept for
        # the first new_state of this very config (the replay that follows, as a rule)
        state = ManhattanState(config)
        if any(len(mine) > 1 for mine in state.colours_of):  # M7: a seat names both colours
            seats = tuple(Player(p.name, p.colour, mine[1:])
                          for p, mine in zip(players, state.colours_of, strict=True))
            config = GameConfig(self.name, (), seats, options, seed, material)
            state = ManhattanState(config, state)  # the same set-up, under the new config
        self._checked = (config, state)
        return config

    def header_json(self, config: GameConfig) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.name}
        material = log.material_json(config.material)
        if material:
            out["material"] = material
        deck = Deck(config.material or DEFAULT_MATERIAL, [p.name for p in config.players],
                    config.seed, config.options.get("deal"))
        out["deal"] = [sorted(h) for h in deck.hands]
        return out

    def players_json(self, config: GameConfig) -> list[dict[str, Any]]:
        return log.players_json(config)

    def new_state(self, config: GameConfig) -> ManhattanState:
        checked = self._checked
        if checked is not None and checked[0] is config:  # only one caller has this config
            self._checked = None
            return checked[1]
        return ManhattanState(config)

    def decode_move(self, raw: Mapping[str, Any], path: str) -> Move:
        return log.decode_move(raw, path)

    def encode_move(self, move: Any) -> dict[str, Any]:
        return log.encode_move(move)

    def move_surely_valid(self, raw: Any) -> bool:
        return log.move_surely_valid(raw)

    def read_moves(self, raws: list[Any]) -> list[Any] | None:
        return log.read_moves(raws)

    def header_surely_valid(self, data: Mapping[str, Any]) -> bool:
        return log.header_surely_valid(data)

    def log_schema(self) -> dict[str, Any]:
        """Its header fields, players' fields and moves (``schema``)."""
        from .schema import PART

        return PART

    def play_random(self, state: GameState, pick: Any) -> Move:
        """A random legal move by the generator's policy (``policy``), played on ``state``."""
        assert isinstance(state, ManhattanState)
        move = random_move(state, pick)
        state.play(move)
        return move

    def play_random_game(self, state: GameState, pick: Any) -> list[dict[str, Any]]:
        """The whole game by the policy, in its compiled loop (``policy.play_game``)."""
        assert isinstance(state, ManhattanState)
        return play_game(state, pick)


MANHATTAN = Manhattan()
ManhattanState.FAMILY = MANHATTAN
