"""The event Hunters & Gatherers adds: a bonus tile drawn (HG7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.events import event_kind, person

if TYPE_CHECKING:
    from ...core.family import Player


@event_kind
class BonusTile(NamedTuple):
    """The player who completed a forest with gold drew this bonus tile (HG7)."""

    player: int
    tile: str
    rule: str
    feature_id: int  # the forest with gold that earned it (see docs/events.md)
    words: str = ""  # the tile described for people (not in the JSON)

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
        what = f": {self.words}" if self.words else ""
        return (f"{person(players, self.player)} completed a forest with gold and draws a "
                f"bonus tile{what} ({self.rule})")
