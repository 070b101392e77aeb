"""The event Hunters & Gatherers adds: a bonus tile drawn (HG7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.events import event_kind, generic_explain

if TYPE_CHECKING:
    from ...core.family import Player


@event_kind
class BonusTile(NamedTuple):
    """The player who completed a forest with gold drew this bonus tile (HG7)."""

    player: int
    tile: str
    rule: str
    feature_id: int  # the forest with gold that earned it (see docs/events.md)

    @property
    def type(self) -> str:
        return "bonus"

    def to_json(self) -> dict[str, Any]:
        return {"type": "bonus", "player": self.player, "tile": self.tile, "rule": self.rule,
                "feature_id": self.feature_id}

    def describe(self, names: Sequence[str]) -> str:
        return (f"bonus tile {self.tile} for {names[self.player]} [{self.rule}]; forest "
                f"{self.feature_id}")

    def explain(self, players: Sequence[Player]) -> str:
        return generic_explain(self, players)
