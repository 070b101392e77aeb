"""Events of the tile-laying families: a tile placed or discarded, a figure put or returned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core.events import event_kind, person

if TYPE_CHECKING:
    from ..core.family import Player


@event_kind
class Place(NamedTuple):
    """A tile put on the board (``bonus``: the bonus tile of a Hunters & Gatherers turn)."""

    player: int
    tile: str
    x: int
    y: int
    rotation: int
    bonus: bool = False

    @property
    def type(self) -> str:
        return "place"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "place", "player": self.player, "tile": self.tile,
                               "x": self.x, "y": self.y, "rotation": self.rotation}
        if self.bonus:
            out["bonus"] = True
        return out

    def describe(self, names: Sequence[str]) -> str:
        return f"place {self.tile} at ({self.x},{self.y}) rotation {self.rotation}"

    def explain(self, players: Sequence[Player]) -> str:
        return (f"{person(players, self.player)} placed tile {self.tile} at "
                f"({self.x},{self.y}), rotated {self.rotation}°")


@event_kind
class FigurePlaced(NamedTuple):
    """A figure put on a segment of the tile just placed."""

    player: int
    kind: str  # follower, large-follower, shepherd, hut, ...
    x: int
    y: int
    location: str
    role: str | None  # what a follower is called there (knight, thief, ...), else the kind
    feature: str  # the segment type it stands on

    @property
    def type(self) -> str:
        return "figure"

    def to_json(self) -> dict[str, Any]:
        return {"type": "figure", "player": self.player, "kind": self.kind, "x": self.x,
                "y": self.y, "location": self.location, "role": self.role,
                "feature": self.feature}

    def describe(self, names: Sequence[str]) -> str:
        role = f" ({self.role})" if self.role else ""
        return (f"figure {names[self.player]} {self.kind} at ({self.x},{self.y}) "
                f"{self.location}: {self.feature}{role}")

    def explain(self, players: Sequence[Player]) -> str:
        figure = self.kind.replace("-", " ")
        as_role = f" as {self.role}" if self.role else ""
        return (f"{person(players, self.player)} put a {figure} on the {self.feature} at "
                f"{self.location}{as_role}")


@event_kind
class FigureReturned(NamedTuple):
    """A figure went back to its player's supply (G9, or a wolf, or the end of a game)."""

    player: int
    kind: str
    x: int
    y: int
    location: str
    feature_id: int  # the feature it left (see docs/events.md)

    @property
    def type(self) -> str:
        return "return"

    def to_json(self) -> dict[str, Any]:
        return {"type": "return", "player": self.player, "kind": self.kind, "x": self.x,
                "y": self.y, "location": self.location, "feature_id": self.feature_id}

    def describe(self, names: Sequence[str]) -> str:
        return (f"return {names[self.player]} {self.kind} from ({self.x},{self.y}) "
                f"{self.location}; feature {self.feature_id}")

    def explain(self, players: Sequence[Player]) -> str:
        figure = self.kind.replace("-", " ")
        return (f"{person(players, self.player)}'s {figure} at ({self.x},{self.y}) "
                f"{self.location} went back to the supply")


@event_kind
class Discard(NamedTuple):
    """A tile that fits nowhere left the game: a drawn tile (G5) or a bonus tile (HG7)."""

    player: int  # who drew it
    tile: str
    rule: str

    @property
    def type(self) -> str:
        return "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "player": self.player, "tile": self.tile,
                "rule": self.rule}

    def describe(self, names: Sequence[str]) -> str:
        return f"discard {self.tile} [{self.rule}] (drawn by {names[self.player]})"

    def explain(self, players: Sequence[Player]) -> str:
        return (f"tile {self.tile} could not be placed anywhere and was discarded "
                f"({self.rule})")
