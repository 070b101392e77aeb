"""A game family with a deliberately broken rule, for ``tests/test_fuzz_command.py``: the
built-in Carcassonne (no expansion), except that a refused move still counts as a move played
(``BrokenState.apply`` counts the move before it is checked, so an illegal move leaves the state
changed: ``apply`` is not atomic). Logs of legal games verify as Carcassonne's do; only the
fuzzer's atomic-refusal invariant sees the bug.

It is installed the way another distribution's family is: the test writes a scratch
``broken-0.1.dist-info`` whose ``entry_points.txt`` registers ``BROKEN`` under the group
``carcassonne_replay.families`` and puts it on ``PYTHONPATH``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replay.core.events import Event
from replay.core.family import Family, GameConfig, GameState, MoveText, Player
from replay.core.values import replace
from replay.core.view import view_of
from replay.games.carcassonne import CARCASSONNE

from .wrapped_state import WrappedState


class BrokenState(WrappedState):
    """Carcassonne's state, wrapped: every rule is the engine's, but ``apply`` counts a move
    before checking it."""

    def __init__(self, inner: GameState, config: GameConfig, counted: int = 0) -> None:
        super().__init__(inner, config)
        self.counted = counted  # moves counted, the refused ones too (the bug)

    @property
    def family(self) -> Family:
        return BROKEN

    @property
    def moves_played(self) -> int:  # type: ignore[override]
        return self.counted

    def apply(self, move: Any) -> list[Event]:
        self.counted += 1  # BROKEN: counted before the move is checked, kept when it is refused
        return self.inner.apply(move)

    def copy(self) -> BrokenState:
        return BrokenState(self.inner.copy(), self.config, self.counted)


class Broken(Family):
    """Carcassonne without expansions, under its own name, with the broken ``apply``."""

    name = "broken"
    label = "Carcassonne with a broken rule"
    rule_prefixes = CARCASSONNE.rule_prefixes
    options = tuple(o for o in CARCASSONNE.options if o.expansion is None)
    max_players = CARCASSONNE.max_players
    player_rule = CARCASSONNE.player_rule
    header_fields = CARCASSONNE.header_fields

    def log_schema(self) -> dict[str, Any]:
        return CARCASSONNE.log_schema()

    def configure(self, header: Mapping[str, Any], players: tuple[Player, ...],
                  seed: str | None, material: Any = None) -> GameConfig:
        return replace(CARCASSONNE.configure(header, players, seed, material), game=self.name)

    def header_json(self, config: GameConfig) -> dict[str, Any]:
        return {**CARCASSONNE.header_json(config), "game": self.name}

    def header_surely_valid(self, data: Mapping[str, Any]) -> bool:
        return CARCASSONNE.header_surely_valid(data)

    def new_state(self, config: GameConfig) -> BrokenState:
        inner = CARCASSONNE.new_state(replace(config, game=CARCASSONNE.name))
        return BrokenState(inner, config)

    def decode_move(self, raw: Mapping[str, Any], path: str) -> Any:
        return CARCASSONNE.decode_move(raw, path)

    def encode_move(self, move: Any) -> dict[str, Any]:
        return CARCASSONNE.encode_move(move)

    def move_surely_valid(self, raw: Any) -> bool:
        return CARCASSONNE.move_surely_valid(raw)

    def describe_move(self, move: Any, events: Sequence[Event] | None,
                      state: GameState) -> MoveText:
        inner = state.inner if isinstance(state, BrokenState) else state
        return view_of(CARCASSONNE).describe_move(move, events, inner)

    def play_random(self, state: GameState, pick: Any) -> Any:
        assert isinstance(state, BrokenState)
        state.counted += 1
        return CARCASSONNE.play_random(state.inner, pick)

    def draw(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
             notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-") -> str:
        inner = state.inner if isinstance(state, BrokenState) else state
        return CARCASSONNE.draw(inner, events=events, failure=failure, notes=notes, size=size,
                                prefix=prefix)


BROKEN = Broken()
