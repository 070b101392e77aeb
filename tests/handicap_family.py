"""A game family that favours its first seat, for ``tests/test_balance.py``: the built-in
Carcassonne (no expansion) with one more option, ``handicap`` (0 or 10), the points the first
seat gets when the game ends (a final ``Score`` event of the kind ``handicap``), and a
``banner`` option whose one value is markup, to see that reports escape it.

It is installed the way another distribution's family is: the test writes a scratch
``handicap-0.1.dist-info`` whose ``entry_points.txt`` registers ``HANDICAP`` under the group
``carcassonne_replay.families`` and puts it on ``sys.path``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from replay.core.events import Event, Score
from replay.core.family import Family, GameConfig, GameState, MoveText, Option, Player
from replay.core.values import replace
from replay.core.view import view_of
from replay.games.carcassonne import CARCASSONNE

from .wrapped_state import WrappedState

OURS = ("handicap", "banner")
HOSTILE = "<script>alert('x')</script>&"


class HandicapState(WrappedState):
    """Carcassonne's state, wrapped: the first seat gets ``bonus`` points at the end."""

    def __init__(self, inner: GameState, config: GameConfig, bonus: int) -> None:
        super().__init__(inner, config)
        self.bonus = bonus

    @property
    def family(self) -> Family:
        return HANDICAP

    @property
    def scores(self) -> list[int]:  # type: ignore[override]
        scores = list(self.inner.scores)
        if self.inner.finished:
            scores[0] += self.bonus
        return scores

    def _ended(self, events: list[Event], was_over: bool) -> list[Event]:
        if self.inner.finished and not was_over and self.bonus:
            events = [*events, Score("final", "handicap", self.bonus, (0,), ((0, 1),),
                                     "the first seat's handicap", "T1", [])]
        return events

    def apply(self, move: Any) -> list[Event]:
        was_over = self.inner.finished
        return self._ended(self.inner.apply(move), was_over)

    def copy(self) -> HandicapState:
        return HandicapState(self.inner.copy(), self.config, self.bonus)

    def end_now(self) -> list[Event]:
        was_over = self.inner.finished
        return self._ended(self.inner.end_now(), was_over)


class Handicap(Family):
    """Carcassonne without expansions, under its own name, with a handicap for seat 1."""

    name = "handicap"
    label = "Carcassonne with a handicap"
    rule_prefixes = (*CARCASSONNE.rule_prefixes, "T")
    options = (*(o for o in CARCASSONNE.options if o.expansion is None),
               Option("handicap", (0, 10), 0, "T1", "points the first seat gets at the end"),
               Option("banner", ("plain", HOSTILE), "plain", "T2", "a string to escape"))
    max_players = CARCASSONNE.max_players
    player_rule = CARCASSONNE.player_rule
    header_fields = CARCASSONNE.header_fields

    def log_schema(self) -> dict[str, Any]:
        schema = copy.deepcopy(CARCASSONNE.log_schema())
        props = schema["header"]["options"]["properties"]
        props["handicap"] = {"enum": [0, 10]}
        props["banner"] = {"enum": ["plain", HOSTILE]}
        return schema

    def configure(self, header: Mapping[str, Any], players: tuple[Player, ...],
                  seed: str | None, material: Any = None) -> GameConfig:
        given = dict(header.get("options") or {})
        ours = self.option_values({k: v for k, v in given.items() if k in OURS}, ())
        inner = CARCASSONNE.configure(
            {**header, "options": {k: v for k, v in given.items() if k not in OURS}},
            players, seed, material)
        mine = {k: ours[k] for k in OURS}
        return replace(inner, game=self.name, options={**inner.options, **mine})

    def header_json(self, config: GameConfig) -> dict[str, Any]:
        inner = replace(config, game=CARCASSONNE.name,
                        options={k: v for k, v in config.options.items() if k not in OURS})
        head = CARCASSONNE.header_json(inner)
        head["options"] = {**head["options"], **{k: config.options[k] for k in OURS}}
        return {**head, "game": self.name}

    def new_state(self, config: GameConfig) -> HandicapState:
        inner = CARCASSONNE.new_state(replace(
            config, game=CARCASSONNE.name,
            options={k: v for k, v in config.options.items() if k not in OURS}))
        return HandicapState(inner, config, int(config.options["handicap"]))

    def decode_move(self, raw: Mapping[str, Any], path: str) -> Any:
        return CARCASSONNE.decode_move(raw, path)

    def encode_move(self, move: Any) -> dict[str, Any]:
        return CARCASSONNE.encode_move(move)

    def describe_move(self, move: Any, events: Sequence[Event] | None,
                      state: GameState) -> MoveText:
        inner = state.inner if isinstance(state, HandicapState) else state
        return view_of(CARCASSONNE).describe_move(move, events, inner)

    def play_random(self, state: GameState, pick: Any) -> Any:
        assert isinstance(state, HandicapState)
        was_over = state.inner.finished
        move = CARCASSONNE.play_random(state.inner, pick)
        state._ended([], was_over)
        return move

    def draw(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
             notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-") -> str:
        inner = state.inner if isinstance(state, HandicapState) else state
        return CARCASSONNE.draw(inner, events=events, failure=failure, notes=notes, size=size,
                                prefix=prefix)


HANDICAP = Handicap()
