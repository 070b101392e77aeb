"""The events Manhattan adds: pieces chosen (M4), a piece built (M5), a card given up when no
build is legal, the cards reshuffled (M3). Scores are the shared ``Score`` events (see
``scoring``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.events import event_kind, person
from .material import lot_name

if TYPE_CHECKING:
    from ...core.family import Player


def pieces_text(pieces: Sequence[tuple[str, int]]) -> str:
    """``blue 1,1,2 black 4`` for chosen pieces (colour, storeys)."""
    out: list[str] = []
    for colour in dict.fromkeys(c for c, _ in pieces):
        out.append(f"{colour} " + ",".join(str(h) for c, h in pieces if c == colour))
    return " ".join(out)


@event_kind
class PiecesChosen(NamedTuple):
    """A player took these pieces from their supply for the round (M4)."""

    player: int
    round: int
    pieces: tuple[tuple[str, int], ...]  # (colour, storeys), sorted
    rule: str = "M4"

    @property
    def type(self) -> str:
        return "choose"

    def to_json(self) -> dict[str, Any]:
        return {"type": "choose", "player": self.player, "round": self.round,
                "pieces": [list(p) for p in self.pieces], "rule": self.rule}

    def describe(self, names: Sequence[str]) -> str:
        return (f"round {self.round}: {names[self.player]} chooses "
                f"{pieces_text(self.pieces)} [{self.rule}]")

    def explain(self, players: Sequence[Player]) -> str:
        return (f"{person(players, self.player)} takes {pieces_text(self.pieces)} storeys "
                f"for round {self.round} ({self.rule})")


@event_kind
class Built(NamedTuple):
    """A piece was put on a lot (M5): the card played, where, and what the building became."""

    player: int
    colour: str
    card: int  # the lot as printed
    city: str
    lot: int  # the lot read from the player's side (M2)
    storeys: int  # of the piece
    height: int  # of the building after it
    previous_owner: str | None
    rule: str = "M5"

    @property
    def type(self) -> str:
        return "build"

    def to_json(self) -> dict[str, Any]:
        return {"type": "build", "player": self.player, "colour": self.colour,
                "card": self.card, "city": self.city, "lot": self.lot,
                "storeys": self.storeys, "height": self.height,
                "previous_owner": self.previous_owner, "rule": self.rule}

    def _what(self) -> str:
        took = (f", taking it from {self.previous_owner}"
                if self.previous_owner not in (None, self.colour) else "")
        return (f"a {self.colour} {self.storeys}-storey piece on {lot_name(self.lot)} of "
                f"{self.city} (card {self.card}), now {self.height} "
                f"storey{'s' * (self.height != 1)}{took}")

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} builds {self._what()} [{self.rule}]"

    def explain(self, players: Sequence[Player]) -> str:
        return f"{person(players, self.player)} builds {self._what()} ({self.rule})"


@event_kind
class CardDiscarded(NamedTuple):
    """A player with no legal build gave up a card (docs/rules.md, decision on M5)."""

    player: int
    card: int  # the lot as printed
    rule: str = "M5"

    @property
    def type(self) -> str:
        return "card-discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": "card-discard", "player": self.player, "card": self.card,
                "rule": self.rule}

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} cannot build and discards card {self.card} [{self.rule}]"

    def explain(self, players: Sequence[Player]) -> str:
        return (f"{person(players, self.player)} cannot build anywhere with these cards and "
                f"pieces, so discards card {self.card} ({lot_name(self.card)} as printed) and "
                f"draws again ({self.rule})")


@event_kind
class Reshuffle(NamedTuple):
    """The draw pile ran out: the played cards were shuffled into a new pile (M3)."""

    number: int  # 1 for the first reshuffle of the game
    cards: int
    rule: str = "M3"

    @property
    def type(self) -> str:
        return "reshuffle"

    def to_json(self) -> dict[str, Any]:
        return {"type": "reshuffle", "number": self.number, "cards": self.cards,
                "rule": self.rule}

    def describe(self, names: Sequence[str]) -> str:
        return f"reshuffle {self.number}: {self.cards} cards [{self.rule}]"

    def explain(self, players: Sequence[Player]) -> str:
        return (f"the draw pile is empty: the {self.cards} played cards are shuffled into a "
                f"new pile ({self.rule})")
