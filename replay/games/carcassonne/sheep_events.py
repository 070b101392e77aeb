"""The events Hills & Sheep adds: a token drawn, a wolf, a tile hidden under a hill (HS2, HS3,
HS7). They live apart from the rules (``hills_sheep``), which may be compiled (mypyc):
``@event_kind`` reads each class's ``type`` property from the class itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.events import cells_text, event_kind, join_words, person

if TYPE_CHECKING:
    from ...core.family import Player


@event_kind
class TokenDraw(NamedTuple):
    """A token drawn from the bag for a flock (HS2, HS3)."""

    player: int
    token: str  # "wolf" or "N sheep"
    sheep: int  # 0 for the wolf
    rule: str
    cells: list[list[int]]  # the field
    feature_id: int  # the field (see docs/events.md)

    @property
    def type(self) -> str:
        return "sheep"

    def to_json(self) -> dict[str, Any]:
        return {"type": "sheep", "player": self.player, "token": self.token,
                "sheep": self.sheep, "rule": self.rule, "cells": [list(c) for c in self.cells],
                "feature_id": self.feature_id}

    def describe(self, names: Sequence[str]) -> str:
        return (f"draw {names[self.player]}: {self.token} [{self.rule}] for the field "
                f"{cells_text(self.cells)}; feature {self.feature_id}")

    def explain(self, players: Sequence[Player]) -> str:
        token = "a wolf" if self.sheep == 0 else self.token
        return f"{person(players, self.player)} drew {token} for the flock ({self.rule})"


@event_kind
class Wolf(NamedTuple):
    """A wolf was drawn: the flock is lost and its shepherds go home (HS3)."""

    player: int
    tokens: tuple[str, ...]  # the sheep lost
    rule: str
    cells: list[list[int]]
    feature_id: int  # the field

    @property
    def type(self) -> str:
        return "wolf"

    def to_json(self) -> dict[str, Any]:
        return {"type": "wolf", "player": self.player, "tokens": list(self.tokens),
                "rule": self.rule, "cells": [list(c) for c in self.cells],
                "feature_id": self.feature_id}

    def describe(self, names: Sequence[str]) -> str:
        lost = ", ".join(self.tokens) or "no sheep"
        return (f"wolf [{self.rule}]: the flock ({lost}) is lost; field "
                f"{cells_text(self.cells)}; feature {self.feature_id}")

    def explain(self, players: Sequence[Player]) -> str:
        lost = join_words(list(self.tokens))
        flock = f"the flock ({lost})" if lost else "the flock"
        return f"a wolf: {flock} is lost and its shepherds go home ({self.rule})"


@event_kind
class HiddenTile(NamedTuple):
    """The next tile of the pile went under a hill, out of the game (HS7)."""

    player: int
    tile: str  # "?" when a table log does not say
    rule: str

    @property
    def type(self) -> str:
        return "hidden"

    def to_json(self) -> dict[str, Any]:
        return {"type": "hidden", "player": self.player, "tile": self.tile, "rule": self.rule}

    def describe(self, names: Sequence[str]) -> str:
        return f"hidden under the hill: {self.tile} [{self.rule}]"

    def explain(self, players: Sequence[Player]) -> str:
        return (f"the next tile of the pile goes under the hill {person(players, self.player)} "
                f"placed, unseen and out of the game ({self.rule})")
