"""Typed events: what a move did, as immutable records with one ``to_json()``.

Every event kind is a ``NamedTuple`` (immutable and as cheap to make as a dict) with:

* ``type``: its kind, the ``"type"`` of its JSON;
* ``to_json()``: the JSON object the API, the goldens and the explanations emit;
* ``describe(names)``: one line of a golden playthrough;
* ``explain(players)``: a sentence for people (the web viewer).

This module holds the kinds every game family shares (``Score``, ``GameEnd``); a family or the
tile-laying machinery defines its own kinds next to the rules that make them and registers
them with ``@event_kind``. ``docs/events.md`` lists every kind and its fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

if TYPE_CHECKING:
    from .family import Player


class Event(Protocol):
    """What every event kind offers."""

    @property
    def type(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...

    def describe(self, names: Sequence[str]) -> str: ...

    def explain(self, players: Sequence[Player]) -> str: ...


KINDS: dict[str, type] = {}
"""Every registered event kind, by its ``type`` (filled by ``@event_kind``)."""

E = TypeVar("E", bound=type)


def event_kind(cls: E) -> E:
    """Register an event class under its ``type``."""
    KINDS[cls.type.fget(None)] = cls  # type: ignore[attr-defined]
    return cls


def person(players: Sequence[Player], seat: Any) -> str:
    """A seat as people read it: ``Ada (red)``, ``Ben (black and green)`` (a seat of two
    colours); ``someone`` for no seat."""
    if isinstance(seat, int) and 0 <= seat < len(players):
        p = players[seat]
        return f"{p.name} ({join_words([p.colour, *p.also])})"
    return "someone"


def join_words(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def article(noun: str) -> str:
    """``a knight``, ``an inn``, ``an Azul log``."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def seats(players: Sequence[int], names: Sequence[str]) -> str:
    """Seats as a comma-separated list of names (``nobody`` when empty)."""
    return ", ".join(names[int(p)] for p in players) or "nobody"


def cells_text(cells: Sequence[Sequence[int]]) -> str:
    """Cells as a golden line writes them: ``(x,y) (x,y) ...``."""
    return " ".join(f"({x},{y})" for x, y in cells)


def generic_explain(event: Event, players: Sequence[Player]) -> str:
    """``kind: key value, ...`` for kinds that have no sentence of their own yet."""
    data = event.to_json()
    rest = ", ".join(f"{k} {person(players, v) if k == 'player' else v}"
                     for k, v in data.items() if k != "type")
    return f"{event.type}: {rest}" if rest else event.type


def worth_telling(event: Event) -> bool:
    """Whether people are told of an event: not of a score of no points (an incomplete road
    with an inn, a farm nobody holds)."""
    return not (isinstance(event, Score) and event.points == 0)


def explanations(events: Sequence[Event], players: Sequence[Player]) -> list[tuple[str, str]]:
    """``(type, sentence)`` for each event people are told of (``worth_telling``), in order:
    what the viewer lists for a move."""
    return [(e.type, e.explain(players)) for e in events if worth_telling(e)]


@event_kind
class Score(NamedTuple):
    """A feature (or farm, flock, meadow, ...) scored: who won it, how the points were made."""

    phase: str  # "play" or "final"
    feature: str  # what scored: road, city, cloister, farm, flock, meadow, network, ...
    points: int  # points each winner gets
    winners: tuple[int, ...]  # seats
    strengths: tuple[tuple[int, int], ...]  # (seat, strength), by seat
    detail: str  # how the points were computed
    rule: str
    cells: list[list[int]]  # the cells the feature covers, sorted
    feature_id: int | None = None  # names the feature in its game (see docs/events.md)

    @property
    def type(self) -> str:
        return "score"

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "score", "phase": self.phase, "feature": self.feature,
            "feature_id": self.feature_id, "points": self.points, "winners": list(self.winners),
            "strengths": {str(p): s for p, s in self.strengths}, "detail": self.detail,
            "rule": self.rule, "tie": self.tie, "cells": [list(c) for c in self.cells],
        }

    def describe(self, names: Sequence[str]) -> str:
        strengths = ", ".join(f"{names[p]} {s}" for p, s in self.strengths)
        tie = " tie" if self.tie else ""
        return (f"score {self.phase} {self.feature} {self.points} to "
                f"{seats(self.winners, names)} [{self.rule}{tie}] strengths {strengths}; "
                f"{self.detail}; cells {cells_text(self.cells)}; feature {self.feature_id}")

    def majority(self, players: Sequence[Player]) -> str:
        """Who wins and why (G8, with a tie-break such as HS8's when it applied)."""
        strengths = dict(self.strengths)
        winners = list(self.winners)
        points = self.points
        if not winners:
            return "nobody scores"
        order = sorted(strengths, key=lambda p: (-strengths[p], p))
        counts = "–".join(str(strengths[p]) for p in order)
        losers = [p for p in order if p not in winners]
        nothing = (f"; {join_words([person(players, p) for p in losers])} "
                   f"score{'s' if len(losers) == 1 else ''} nothing" if losers else "")
        if len(strengths) <= 1 and len(winners) == 1:
            return f"{person(players, winners[0])} scores {points}"
        top = max(strengths.values(), default=0)
        tied = [p for p in order if strengths[p] == top]
        if len(winners) > 1:
            both = "both" if len(winners) == 2 else "all"
            return (f"{join_words([person(players, w) for w in winners])} tie {counts}, {both} "
                    f"score {points}{nothing}")
        if len(tied) > 1:
            return (f"{join_words([person(players, p) for p in tied])} tie {counts}; the tie "
                    f"goes to {person(players, winners[0])} (hill), who scores {points}"
                    f"{nothing}")
        return (f"{person(players, winners[0])} wins {counts} and scores {points}"
                f"{nothing}")

    def explain(self, players: Sequence[Player]) -> str:
        end = "end of game: " if self.phase == "final" else ""
        if not self.winners and self.detail.endswith("nobody scores"):  # said once
            return f"{end}{self.detail} ({self.rule})"
        return f"{end}{self.detail}; {self.majority(players)} ({self.rule})"


@event_kind
class GameEnd(NamedTuple):
    """The game is over (G11): the final scores and the winners (every best score wins)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def type(self) -> str:
        return "end"

    def to_json(self) -> dict[str, Any]:
        return {"type": "end", "scores": list(self.scores), "winners": list(self.winners)}

    def describe(self, names: Sequence[str]) -> str:
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, self.scores, strict=True))
        return f"end: scores {scores}; winners {seats(self.winners, names)}"

    def explain(self, players: Sequence[Player]) -> str:
        table = ", ".join(f"{p.name} {s}" for p, s in zip(players, self.scores, strict=False))
        winners = [person(players, w) for w in self.winners]
        won = "wins" if len(winners) == 1 else "win"
        return f"game over: {table}; {join_words(winners)} {won}"
