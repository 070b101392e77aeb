"""Events of the tile-laying families: a tile placed or discarded, a figure put or returned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core.events import article, event_kind, person
from .kinds import ROLE
from .words import figure_words, on_feature, where

DRAWN_TILE_RULE = "G5"  # the rule a drawn tile that fits nowhere leaves the game under

if TYPE_CHECKING:
    from ..core.family import Player


@event_kind
class Place(NamedTuple):
    """A tile put on the board (``bonus``: a second tile the turn earned, a bonus tile)."""

    player: int
    tile: str
    x: int
    y: int
    rotation: int
    bonus: bool = False
    words: str = ""  # the tile described for people (not in the JSON: the id says it there)

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
        what = self.words or "a tile"
        turned = f", turned {self.rotation}°" if self.rotation else ""
        bonus = " as a bonus tile" if self.bonus else ""
        return (f"{person(players, self.player)} placed {what} at ({self.x},{self.y})"
                f"{turned}{bonus}")


@event_kind
class FigurePlaced(NamedTuple):
    """A figure put on a segment of the tile just placed."""

    player: int
    kind: str  # follower, large-follower, shepherd, a family's own kind...
    x: int
    y: int
    location: str
    role: str | None  # what a follower is called there (knight, thief, ...), else the kind
    feature: str  # the segment type it stands on
    place: str = ""  # where it stands in words ("in the field to the west"; not in the JSON)

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
        figure = figure_words(self.kind, self.role)
        return (f"{person(players, self.player)} put {article(figure)} "
                f"{self.place or on_feature(self.feature, self.location, self.kind)}")


@event_kind
class FigureReturned(NamedTuple):
    """A figure went back to its player's supply (G9, or a wolf, or the end of a game)."""

    player: int
    kind: str
    x: int
    y: int
    location: str
    feature_id: int  # the feature it left (see docs/events.md)
    feature: str = ""  # the segment type it stood on (not in the JSON)

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
        role = ROLE.get(self.feature) if self.kind in ("follower", "large-follower") else None
        figure = figure_words(self.kind, role)
        place = (on_feature(self.feature, self.location, self.kind) if self.feature
                 else where(self.location))
        return (f"{person(players, self.player)}'s {figure} {place} of the tile at "
                f"({self.x},{self.y}) went back to the supply")


@event_kind
class Discard(NamedTuple):
    """A tile that fits nowhere left the game: a drawn tile (G5) or a bonus tile (under its
    family's rule)."""

    player: int  # who drew it
    tile: str
    rule: str
    words: str = ""  # the tile described (not in the JSON)

    @property
    def type(self) -> str:
        return "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "player": self.player, "tile": self.tile,
                "rule": self.rule}

    def describe(self, names: Sequence[str]) -> str:
        return f"discard {self.tile} [{self.rule}] (drawn by {names[self.player]})"

    def explain(self, players: Sequence[Player]) -> str:
        what = "the tile drawn" if self.rule == DRAWN_TILE_RULE else "the bonus tile"
        words = f" ({self.words})" if self.words else ""
        return (f"{what}{words} fits nowhere on the board and leaves the game "
                f"({self.rule})")
