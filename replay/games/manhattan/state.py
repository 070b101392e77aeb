"""A game of Manhattan in progress: ``ManhattanState`` and its moves.

Decisions where the rulebook (seed 001) is silent, as a careful player would take them:

* **Seats (M2).** ``config.options["sides"]`` (one side per player) or by default south/north
  for two players, south, west, north(, east) for three or four. The two-player game's second
  colours are ``config.options["second_colours"]`` or the first unused ``COLOURS``.
* **Deck (M3).** The 45 cards in lot order are shuffled by ``SeededStream(seed,
  "manhattan-deck")``; seat 0 gets the first 4 cards, seat 1 the next 4, and so on; the
  pile is the rest, drawn from the front. When a player must draw and the pile is empty, all
  played cards (in the order they were played, the one just played included) are shuffled
  by ``SeededStream(seed, "manhattan-deck/<k>")`` (k = 1, 2, ...) into the new pile.
  Test vectors (default material): seed 0 deals ``[7, 8, 6, 6]`` to seat 0, seed 1 deals
  ``[0, 1, 2, 6]`` (pinned by ``tests/test_manhattan.py``).
* **No legal build (M5).** Rare: every lot the player's cards mark is held in all six cities
  by other colours too tall to take over with the chosen pieces. Then (and only then) the
  player discards one card of their choice (``Discard``), draws, and plays again, as
  Carcassonne's G5 redraws an unplaceable tile.
* Every player draws after every card, the last card of the game included; the first player
  of the next round is the left neighbour, i.e. the next seat (G3 order is clockwise).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from ...core import hashing
from ...core.errors import IllegalMove, LogFormatError
from ...core.events import Event, GameEnd
from ...core.family import Family, GameConfig, GameState
from ...core.rng import SeededStream
from . import scoring
from .events import Built, PiecesChosen, Reshuffle, pieces_text
from .material import (
    CITIES,
    COLOURS,
    DEFAULT_MATERIAL,
    HEIGHTS,
    LOTS,
    Material,
    default_sides,
    lot_name,
    lot_seen_from,
)

ROUNDS = {2: 6, 3: 6, 4: 4}  # M7
PER_ROUND = {2: 4, 3: 4, 4: 6}  # pieces per colour per round (M4, M7)


@dataclass(frozen=True, slots=True)
class Choose:
    """M4: the pieces a player takes into play for the round, as (colour, storeys) pairs."""

    pieces: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Build:
    """M5: play ``card`` (the lot as printed, 0–8) and put a piece of ``storeys`` of
    ``colour`` (needed only by a player with two colours) on the lot it marks in ``city``."""

    card: int
    city: str
    storeys: int
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """A player with no legal build discards ``card`` and draws (see the module)."""

    card: int


Move = Choose | Build | Discard


def _count(items: list[int], value: int) -> int:
    return sum(1 for x in items if x == value)


class ManhattanState(GameState):
    """One game of Manhattan (M1–M10). Scores are kept per colour and summed per seat (M7)."""

    FAMILY: ClassVar[Family]

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        n = len(config.players)
        if n not in ROUNDS:
            raise IllegalMove("M1", f"{n} players; Manhattan takes 2 to 4")
        if config.seed is None:
            raise LogFormatError("Manhattan is played from a seed for now (M3)", "/seed")
        self.material: Material = config.material or DEFAULT_MATERIAL
        self.sides: tuple[str, ...] = tuple(config.options.get("sides") or default_sides(n))
        own = [p.colour for p in config.players]
        self.colours_of: tuple[tuple[str, ...], ...]
        if n == 2:
            spare = [c for c in COLOURS if c not in own]
            second = tuple(config.options.get("second_colours") or spare[:2])
            self.colours_of = tuple((own[s], second[s]) for s in range(n))
        else:
            self.colours_of = tuple((c,) for c in own)
        self.colours = tuple(c for cs in self.colours_of for c in cs)
        if len(set(self.colours)) != len(self.colours) or len(set(self.sides)) != n:
            raise IllegalMove("M2", "every colour and every side belongs to one player")
        self.seat_of = {c: s for s, cs in enumerate(self.colours_of) for c in cs}
        self.rounds = ROUNDS[n]
        self.per_round = PER_ROUND[n]
        self.supply = {c: dict(self.material.pieces) for c in self.colours}
        self.chosen = {c: dict.fromkeys(HEIGHTS, 0) for c in self.colours}
        self.board: dict[tuple[int, int], list[tuple[str, int]]] = {}
        deck = self.material.deck()
        SeededStream(config.seed, "manhattan-deck").shuffle(deck)
        size = self.material.hand_size
        self.hands = [deck[s * size:(s + 1) * size] for s in range(n)]
        self.pile = deck[n * size:]
        self.played: list[int] = []
        self.reshuffles = 0
        self.round = 1
        self.first = 0
        self.phase = "choose"  # "choose", "build" or "over"
        self.turn = 0  # choices or builds made this round
        self.colour_scores = dict.fromkeys(self.colours, 0)
        self.scores = [0] * n
        self.finished = False
        self.moves_played = 0
        self.setup_events: list[Event] = []
        self.hash = 0
        self._rehash()

    # ------------------------------------------------------------ the interface

    @property
    def family(self) -> Family:
        return self.FAMILY

    @property
    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        return (self.first + self.turn) % len(self.config.players)

    def lot_of(self, seat: int, card: int) -> int:
        """The lot ``card`` marks for ``seat`` (M2)."""
        return lot_seen_from(card, self.sides[seat])

    def legal_moves(self) -> Iterator[Move]:
        seat = self.current_player
        if seat is None:
            return
        if self.phase == "choose":
            per_colour = [list(self._choices(c)) for c in self.colours_of[seat]]
            for combo in itertools.product(*per_colour):
                yield Choose(tuple(p for part in combo for p in part))
            return
        builds = list(self._builds(seat))
        yield from builds
        if not builds:
            for card in sorted(set(self.hands[seat])):
                yield Discard(card)

    def _choices(self, colour: str) -> Iterator[tuple[tuple[str, int], ...]]:
        for pick in itertools.combinations_with_replacement(HEIGHTS, self.per_round):
            if all(_count(list(pick), h) <= self.supply[colour][h] for h in HEIGHTS):
                yield tuple((colour, h) for h in pick)

    def _builds(self, seat: int) -> Iterator[Build]:
        two = len(self.colours_of[seat]) > 1
        for card in sorted(set(self.hands[seat])):
            for city in CITIES:
                for colour in self.colours_of[seat]:
                    for h in HEIGHTS:
                        move = Build(card, city, h, colour if two else None)
                        if self.chosen[colour][h] and self._takeover_error(seat, move) is None:
                            yield move

    def check(self, move: Any) -> None:
        seat = self.current_player
        if seat is None:
            raise IllegalMove("M8", "the game is over")
        name = self.config.players[seat].name
        mine = self.colours_of[seat]
        if isinstance(move, Choose):
            if self.phase != "choose":
                raise IllegalMove("M4", f"{name} must build now: pieces are chosen at the "
                                  "start of a round")
            for colour, h in move.pieces:
                if colour not in mine:
                    raise IllegalMove("M2", f"{colour} is not a colour of {name} "
                                      f"({' and '.join(mine)})")
                if h not in HEIGHTS:
                    raise IllegalMove("M1", f"there is no {h}-storey piece (1 to 4)")
            for colour in mine:
                taken = [h for c, h in move.pieces if c == colour]
                if len(taken) != self.per_round:
                    what = "too many" if len(taken) > self.per_round else "too few"
                    raise IllegalMove("M4", f"{name} takes {len(taken)} {colour} pieces, "
                                      f"{what}: each round takes {self.per_round}")
                for h in HEIGHTS:
                    if _count(taken, h) > self.supply[colour][h]:
                        raise IllegalMove("M4", f"{name} takes {_count(taken, h)} {colour} "
                                          f"{h}-storey pieces; {self.supply[colour][h]} left")
            return
        if not isinstance(move, Build | Discard):
            raise IllegalMove("M4", f"{move!r} is not a Manhattan move")
        if self.phase != "build":
            raise IllegalMove("M4", f"{name} must first choose the pieces of round "
                              f"{self.round}")
        if not (isinstance(move.card, int) and 0 <= move.card < LOTS):
            raise IllegalMove("M1", f"card {move.card!r}: a card marks one of the lots 0 to 8")
        if move.card not in self.hands[seat]:
            raise IllegalMove("M3", f"{name} holds no card {move.card} "
                              f"({lot_name(move.card)} as printed); hand "
                              f"{sorted(self.hands[seat])}")
        if isinstance(move, Discard):
            if any(True for _ in self._builds(seat)):
                raise IllegalMove("M5", f"{name} can build, so may not discard card "
                                  f"{move.card}")
            return
        if move.city not in CITIES:
            raise IllegalMove("M1", f"{move.city!r} is not a city of the board (choose from "
                              f"{', '.join(CITIES)})")
        if move.colour is None and len(mine) > 1:
            raise IllegalMove("M7", f"{name} plays {' and '.join(mine)}: name the colour "
                              "of the piece")
        colour = move.colour or mine[0]
        if colour not in mine:
            raise IllegalMove("M2", f"{colour} is not a colour of {name} ({' and '.join(mine)})")
        if move.storeys not in HEIGHTS or not self.chosen[colour][move.storeys]:
            raise IllegalMove("M4", f"{name} has no {colour} {move.storeys}-storey piece in "
                              f"play (chosen: {pieces_text(self._chosen_list(colour))})")
        error = self._takeover_error(seat, Build(move.card, move.city, move.storeys, colour))
        if error is not None:
            raise IllegalMove("M5", error)

    def _chosen_list(self, colour: str) -> list[tuple[str, int]]:
        return [(colour, h) for h in HEIGHTS for _ in range(self.chosen[colour][h])]

    def _takeover_error(self, seat: int, move: Build) -> str | None:
        """Why ``move`` may not go on its lot (M5), or None."""
        colour = move.colour or self.colours_of[seat][0]
        city = CITIES.index(move.city)
        lot = self.lot_of(seat, move.card)
        stack = self.board.get((city, lot))
        if not stack:
            return None
        owner = scoring.owner(stack)
        if owner == colour:
            return None
        theirs = sum(s for c, s in stack if c == owner)
        after = sum(s for c, s in stack if c == colour) + move.storeys
        if after >= theirs:
            return None
        return (f"{lot_name(lot)} of {move.city} (card {move.card} seen from the "
                f"{self.sides[seat]}) is {owner}'s with {theirs} of its "
                f"{scoring.height(stack)} storeys; with this {move.storeys}-storey piece "
                f"{colour} would have {after}, fewer than {theirs}")

    def apply(self, move: Any) -> list[Event]:
        self.check(move)
        seat = self.current_player
        assert seat is not None
        events: list[Event] = []
        if isinstance(move, Choose):
            pieces = tuple(sorted(move.pieces, key=lambda p: (self.colours.index(p[0]), p[1])))
            for colour, h in pieces:
                self.supply[colour][h] -= 1
                self.chosen[colour][h] += 1
            events.append(PiecesChosen(seat, self.round, pieces))
            self.turn += 1
            if self.turn == len(self.config.players):
                self.phase, self.turn = "build", 0
        else:
            self.hands[seat].remove(move.card)
            self.played.append(move.card)
            if isinstance(move, Build):
                colour = move.colour or self.colours_of[seat][0]
                city, lot = CITIES.index(move.city), self.lot_of(seat, move.card)
                stack = self.board.setdefault((city, lot), [])
                before = scoring.owner(stack) if stack else None
                stack.append((colour, move.storeys))
                self.chosen[colour][move.storeys] -= 1
                events.append(Built(seat, colour, move.card, move.city, lot, move.storeys,
                                    scoring.height(stack), before))
            events += self._draw(seat)
            if isinstance(move, Build):
                self.turn += 1
                if not any(any(c.values()) for c in self.chosen.values()):
                    events += self._end_round()
        self.moves_played += 1
        self._rehash()
        return events

    def _draw(self, seat: int) -> list[Event]:
        events: list[Event] = []
        if not self.pile:
            self.reshuffles += 1
            pile = list(self.played)
            SeededStream(self.config.seed or "", f"manhattan-deck/{self.reshuffles}").shuffle(
                pile)
            self.pile, self.played = pile, []
            events.append(Reshuffle(self.reshuffles, len(pile)))
        self.hands[seat].append(self.pile.pop(0))
        return events

    def _score(self, phase: str) -> list[Event]:
        events, points = scoring.score_round(self.board, self.colours, self.seat_of, phase)
        for colour, p in points.items():
            self.colour_scores[colour] += p
            self.scores[self.seat_of[colour]] += p
        return list(events)

    def _end_round(self) -> list[Event]:
        last = self.round == self.rounds
        events = self._score("final" if last else "play")
        if last:
            return events + self._finish()
        self.round += 1
        self.first = (self.first + 1) % len(self.config.players)
        self.phase, self.turn = "choose", 0
        return events

    def _finish(self) -> list[Event]:
        self.phase, self.finished = "over", True
        return [GameEnd(tuple(self.scores), tuple(self.winners()))]

    def end_now(self) -> list[Event]:
        """End here (a log ending ``"after-last-move"``). Decision: a round in which pieces
        were built is scored as it stands (phase ``final``), as a table would before
        packing up; an unstarted round is not scored."""
        if self.finished:
            return []
        events = self._score("final") if self.phase == "build" and self.turn else []
        events += self._finish()
        self._rehash()
        return events

    def copy(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.supply = {c: dict(v) for c, v in self.supply.items()}
        other.chosen = {c: dict(v) for c, v in self.chosen.items()}
        other.board = {k: list(v) for k, v in self.board.items()}
        other.hands = [list(h) for h in self.hands]
        other.pile, other.played = list(self.pile), list(self.played)
        other.colour_scores = dict(self.colour_scores)
        other.scores = list(self.scores)
        other.setup_events = list(self.setup_events)
        return other

    def supply_of(self, seat: int) -> dict[str, int]:
        return {f"{c} {h}-storey": self.supply[c][h] for c in self.colours_of[seat]
                for h in HEIGHTS}

    def status(self) -> dict[str, Any]:
        return {"round": self.round, "rounds": self.rounds, "phase": self.phase,
                "first_player": self.first, "pile": len(self.pile),
                "played_cards": len(self.played), "hands": [len(h) for h in self.hands],
                "colour_scores": dict(self.colour_scores),
                "chosen": {c: pieces_text(self._chosen_list(c)) for c in self.colours}}

    def _rehash(self) -> None:
        item = hashing.item
        h = item("m-turn", self.phase, self.round, self.first, self.turn, self.reshuffles)
        for (city, lot), stack in self.board.items():
            for level, (colour, s) in enumerate(stack):
                h ^= item("m-piece", city, lot, level, colour, s)
        for colour in self.colours:
            h ^= item("m-score", colour, self.colour_scores[colour])
            for height in HEIGHTS:
                h ^= item("m-supply", colour, height, self.supply[colour][height])
                h ^= item("m-chosen", colour, height, self.chosen[colour][height])
        for seat, hand in enumerate(self.hands):
            h ^= item("m-hand", seat, tuple(sorted(hand)))
        h ^= item("m-pile", tuple(self.pile)) ^ item("m-played", tuple(self.played))
        self.hash = h
