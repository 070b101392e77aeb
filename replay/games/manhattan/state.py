"""A game of Manhattan in progress: ``ManhattanState`` and its moves.

Decisions where the rulebook (seed 001) is silent are in docs/rules.md ("M: decisions"): the
seats and second colours (``config.options["sides"]``, ``["second_colours"]``), the discard
when no build is legal (M5, ``Discard``), the draw after every card and the first player of
each round (the next seat). The cards (M3) are in ``deck``.

The state hash (L4) is kept incrementally: one item per piece on the board, per colour's
supply of each height and score, the cards' items (``deck``) and one for the turn (phase,
round, first player, turn). The pieces in play need no item: a colour's pieces are its supply,
those in play and those on the board.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, ClassVar, Final, Self

from mypy_extensions import i64

from ...core.errors import IllegalMove
from ...core.events import Event, GameEnd
from ...core.family import Family, GameConfig, GameState
from ...core.rng import SeededStream
from ...core.values import replace
from . import hashes, scoring
from .deck import Deck, card_text
from .events import Built, CardDiscarded, PiecesChosen, pieces_text
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
from .moves import (
    CITY_INDEX,
    SEEN_FROM,
    Build,
    Choose,
    Discard,
    Move,
    check_choice,
    choice_counts,
    may_build,
)

ROUNDS = {2: 6, 3: 6, 4: 4}  # M7
PER_ROUND = {2: 4, 3: 4, 4: 6}  # pieces per colour per round (M4, M7)
# the board's keys, made once: a lookup with the very key object stored compares no fields
# (typed Any so that, compiled, the tuple is not unpacked and packed again)
_CELLS: Final[list[Any]] = [(city, lot) for city in range(len(CITIES)) for lot in range(LOTS)]


class ManhattanState(GameState):
    """One game of Manhattan (M1–M10). Scores are kept per colour and summed per seat (M7)."""

    FAMILY: ClassVar[Family]
    config: GameConfig
    scores: list[int]
    finished: bool
    moves_played: int
    hash: int
    setup_events: list[Event]
    _hash: i64  # pieces, supplies and scores (signed, see ``hashes``)
    _turn_item: i64

    def __init__(self, config: GameConfig, original: ManhattanState | None = None) -> None:
        self.config = config
        if original is not None:  # a copy (``copy``): no set-up, no checks
            self._copy_from(original)
            return
        n = len(config.players)
        if n not in ROUNDS:
            raise IllegalMove("M1", f"{n} players; Manhattan takes 2 to 4")
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
        for c in self.colours:
            if c not in COLOURS:
                raise IllegalMove("M1", f"{c} is not a colour of Manhattan "
                                  f"({', '.join(COLOURS)})")
        if len(set(self.colours)) != len(self.colours):
            raise IllegalMove("M2", "every colour belongs to one player: "
                              f"{', '.join(self.colours)}")
        if len(set(self.sides)) != n:
            raise IllegalMove("M2", f"every side of the board seats one player: "
                              f"{', '.join(self.sides)}")
        self.seat_of = {c: s for s, cs in enumerate(self.colours_of) for c in cs}
        # a colour's place in COLOURS (``hashes``' tables) and the lot each card marks, by seat
        self._cid = {c: COLOURS.index(c) for c in self.colours}
        self._seat_cid = [self._cid[cs[0]] for cs in self.colours_of]
        for side in self.sides:
            if side not in SEEN_FROM:
                raise IllegalMove("M2", f"{side!r} is not a side of the board (choose from "
                                  f"{', '.join(SEEN_FROM)})")
        self._lots = tuple(SEEN_FROM[side] for side in self.sides)
        self.rounds = ROUNDS[n]
        self.per_round = PER_ROUND[n]
        self.builds_per_round = self.per_round * len(self.colours)
        if self.material.pieces_per_colour < self.rounds * self.per_round:
            raise IllegalMove("M1", f"{self.material.pieces_per_colour} pieces per colour; "
                              f"{n} players need {self.rounds * self.per_round} "
                              f"({self.rounds} rounds of {self.per_round})")
        self.supply = {c: dict(self.material.pieces) for c in self.colours}
        self.chosen = {c: dict.fromkeys(HEIGHTS, 0) for c in self.colours}
        self.board: dict[tuple[int, int], list[tuple[str, int]]] = {}
        names = [p.name for p in config.players]
        self.deck = Deck(self.material, names, config.seed, config.options.get("deal"))
        self.round = 1
        self.first = 0
        self.phase = "choose"  # "choose", "build" or "over"
        self.turn = 0  # choices or builds made this round
        self.colour_scores = dict.fromkeys(self.colours, 0)
        self.scores = [0] * n
        self.finished = False
        self.moves_played = 0
        self.setup_events: list[Event] = []
        self._hash = hashes.start_hash(self.colours, tuple(self.material.pieces.items()))
        self._turn_item = self._turn_hash()
        self._rehash()

    def _copy_from(self, o: ManhattanState) -> None:
        """Make this a copy of ``o``: what changes in place is copied, the rest shared."""
        self.material, self.sides, self.colours_of = o.material, o.sides, o.colours_of
        self.colours, self.seat_of, self.rounds = o.colours, o.seat_of, o.rounds
        self._cid, self._seat_cid, self._lots = o._cid, o._seat_cid, o._lots
        self.per_round, self.builds_per_round = o.per_round, o.builds_per_round
        self.round, self.first, self.phase, self.turn = o.round, o.first, o.phase, o.turn
        self.finished, self.moves_played = o.finished, o.moves_played
        self._hash, self._turn_item, self.hash = o._hash, o._turn_item, o.hash
        self.supply = {c: dict(v) for c, v in o.supply.items()}
        self.chosen = {c: dict(v) for c, v in o.chosen.items()}
        self.board = {k: list(v) for k, v in o.board.items()}
        self.deck = o.deck.copy()
        self.colour_scores = dict(o.colour_scores)
        self.scores = list(o.scores)
        self.setup_events = list(o.setup_events)

    # ------------------------------------------------------------ the interface

    @property
    def family(self) -> Family:
        return self.FAMILY

    def _rehash(self) -> None:
        """The state hash from its three parts (board and supplies, turn, cards)."""
        self.hash = hashes.unsigned(self._hash ^ self._turn_item ^ self.deck.hash
                                    ^ self.deck.played_hash)

    @property
    def hands(self) -> list[list[int]]:
        """The cards each seat holds (M3)."""
        return self.deck.hands

    @property
    def pile(self) -> list[int]:
        """The draw pile (in a table game: its cards, in lot order)."""
        return self.deck.pile

    @property
    def played(self) -> list[int]:
        """The cards played since the last reshuffle, in order."""
        return self.deck.played

    @property
    def reshuffles(self) -> int:
        return self.deck.reshuffles

    @property
    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        return (self.first + self.turn) % len(self.config.players)

    def lot_of(self, seat: int, card: int) -> int:
        """The lot ``card`` marks for ``seat`` (M2)."""
        return lot_seen_from(card, self.sides[seat])

    def legal_moves(self) -> Iterator[Move]:
        """Every legal move; a build or discard names no draw in a seeded game, and each
        card that may be drawn in a table game."""
        seat = self.current_player
        if seat is None:
            return
        if self.phase == "choose":
            per_colour = [list(self.choices(c)) for c in self.colours_of[seat]]
            for combo in itertools.product(*per_colour):
                yield Choose(tuple(p for part in combo for p in part))
            return
        builds: list[Build | Discard] = list(self.builds(seat))
        if not builds:
            builds = [Discard(card) for card in sorted(set(self.hands[seat]))]
        if self.deck.seed is not None:
            yield from builds
            return
        for move in builds:
            for card in self.deck.possible_draws(move.card):
                yield move.with_draw(card)

    def choices(self, colour: str) -> Iterator[tuple[tuple[str, int], ...]]:
        """Every choice of this round's pieces of ``colour`` the supply allows (M4)."""
        supply = self.supply[colour]
        for pick in itertools.combinations_with_replacement(HEIGHTS, self.per_round):
            if all(pick.count(h) <= supply[h] for h in HEIGHTS):
                yield tuple((colour, h) for h in pick)

    def builds(self, seat: int) -> Iterator[Build]:
        """Every legal build of ``seat`` (M5), cards and cities in order."""
        two = len(self.colours_of[seat]) > 1
        for card in sorted(set(self.hands[seat])):
            for city in CITIES:
                for colour in self.colours_of[seat]:
                    for h in HEIGHTS:
                        if self.chosen[colour][h] and self.takeover_error(
                                seat, card, city, h, colour) is None:
                            yield Build(card, city, h, colour if two else None)

    def check(self, move: Any) -> None:
        """Raise ``IllegalMove`` (with the move's index and player) when ``move`` is
        illegal here."""
        try:
            self._check(move)
        except IllegalMove as exc:
            self._annotate(exc)
            raise

    def _check(self, move: Any) -> None:
        seat = self.current_player
        if seat is None:
            raise IllegalMove("M8", "the game is over")
        cls = type(move)
        if cls is Build:
            self._check_build(seat, move)
        elif cls is Choose:
            check_choice(self, seat, move)
        elif cls is Discard:
            name = self.config.players[seat].name
            if self.phase != "build":
                raise IllegalMove("M4", f"{name} must first choose the pieces of round "
                                  f"{self.round}")
            self.deck.check_play(seat, move.card)
            if any(True for _ in self.builds(seat)):
                raise IllegalMove("M5", f"{name} can build, so may not discard "
                                  f"{card_text(move.card)}")
            self.deck.check_draw(seat, move.card, move.draw)
        else:
            raise IllegalMove("M4", f"{move!r} is not a Manhattan move")

    def _check_build(self, seat: int, move: Build) -> tuple[str, int, int, int,
                                                           list[tuple[str, int]] | None]:
        """M1-M5, M7 for a build by ``seat``; its colour, the colour's place in COLOURS, the
        city index, the lot and the building there (None: an empty lot). Written for speed:
        the common legal build costs a few lookups, the messages come from the slow checks
        it falls back to."""
        if self.phase != "build":
            raise IllegalMove("M4", f"{self.config.players[seat].name} must first choose "
                              f"the pieces of round {self.round}")
        card = move.card
        deck = self.deck
        if type(card) is not int or card not in deck.hands[seat]:
            deck.check_play(seat, card)
        colour = move.colour
        mine = self.colours_of[seat]
        if colour is None and len(mine) == 1:
            colour = mine[0]
            cid = self._seat_cid[seat]
        else:
            if colour is None or colour not in mine:
                colour = self._colour(seat, colour)
            cid = self._cid[colour]
        city = CITY_INDEX.get(move.city, -1) if type(move.city) is str else -1
        if city < 0:
            raise IllegalMove("M1", f"{move.city!r} is not a city of the board (choose "
                              f"from {', '.join(CITIES)})")
        storeys = move.storeys
        if type(storeys) is not int or not self.chosen[colour].get(storeys):
            raise IllegalMove("M4", f"{self.config.players[seat].name} has no {colour} "
                              f"{storeys}-storey piece in play (chosen: "
                              f"{pieces_text(self.chosen_list(colour)) or 'none'})")
        lot = self._lots[seat][card]
        stack = self.board.get(_CELLS[city * LOTS + lot])
        if stack and not may_build(stack, colour, storeys):
            raise IllegalMove("M5", str(self.takeover_error(seat, card, move.city, storeys,
                                                            colour)))
        draw = move.draw
        if deck.seed is None or not deck.pile or (draw is not None and draw != deck.pile[0]):
            deck.check_draw(seat, card, draw)
        return colour, cid, city, lot, stack

    def _colour(self, seat: int, colour: str | None) -> str:
        """The colour a build of ``seat`` uses (M2, M7)."""
        mine = self.colours_of[seat]
        if colour is None:
            if len(mine) > 1:
                raise IllegalMove("M7", f"{self.config.players[seat].name} plays "
                                  f"{' and '.join(mine)}: name the colour of the piece")
            return mine[0]
        if colour not in mine:
            raise IllegalMove("M2", f"{colour} is not a colour of "
                              f"{self.config.players[seat].name} ({' and '.join(mine)})")
        return colour

    def takeover_error(self, seat: int, card: int, city: str, storeys: int,
                       colour: str) -> str | None:
        """Why ``colour``'s piece of ``storeys`` may not go on the lot ``card`` marks for
        ``seat`` in ``city`` (M5), or None."""
        lot = SEEN_FROM[self.sides[seat]][card]
        stack = self.board.get((CITY_INDEX[city], lot))
        if not stack or may_build(stack, colour, storeys):
            return None
        owner = stack[-1][0]
        theirs = sum(s for c, s in stack if c == owner)
        mine = sum(s for c, s in stack if c == colour) + storeys
        return (f"{lot_name(lot)} of {city} (card {card} read from the {self.sides[seat]}) "
                f"is {owner}'s with {theirs} of its "
                f"{scoring.height(stack)} storeys; with this {storeys}-storey piece "
                f"{colour} would have {mine}, fewer than {theirs}")

    def apply(self, move: Any) -> list[Event]:
        return self._apply(move, True)

    def play(self, move: Any) -> None:
        """``apply`` without the events (the verifier's fast path)."""
        self._apply(move, False)

    def _apply(self, move: Any, explain: bool) -> list[Event]:
        if type(move) is not Build or self.phase != "build":
            return self._apply_other(move, explain)
        seat = (self.first + self.turn) % len(self.scores)
        try:
            colour, cid, city, lot, stack = self._check_build(seat, move)
        except IllegalMove as exc:
            self._annotate(exc)
            raise
        deck = self.deck
        storeys = move.storeys
        if stack is None:
            stack = self.board[_CELLS[city * LOTS + lot]] = []
        events: list[Event] = []
        if explain:
            before = stack[-1][0] if stack else None
            events.append(Built(seat, colour, move.card, move.city, lot, storeys,
                                scoring.height(stack) + storeys, before))
        self._hash ^= hashes.piece(city, lot, len(stack), cid, colour, storeys)
        stack.append((colour, storeys))
        self.chosen[colour][storeys] -= 1
        reshuffle = deck.play_and_draw(seat, move.card,
                                       move.draw if deck.seed is None else None, explain)
        if reshuffle:
            events += reshuffle
        self.turn += 1
        if self.turn == self.builds_per_round:
            events += self._end_round(explain)
        self.moves_played += 1
        self._turn_item = hashes.turn(self.phase, self.round, self.first, self.turn)
        self.hash = hashes.unsigned(self._hash ^ self._turn_item ^ deck.hash
                                    ^ deck.played_hash)
        return events

    def _annotate(self, exc: IllegalMove) -> None:
        exc.move = self.moves_played
        seat = self.current_player
        exc.player = None if seat is None else self.config.players[seat].name

    def _apply_other(self, move: Any, explain: bool) -> list[Event]:
        """A choice, a discard, or a move the checks refuse."""
        seat = (self.first + self.turn) % len(self.scores)
        events: list[Event] = []
        if type(move) is Choose and self.phase == "choose":
            mine = self.colours_of[seat]
            counts = choice_counts(move.pieces, mine, self.supply, self.per_round)
            if counts is None:  # refused: the checks that word why
                try:
                    by_piece = check_choice(self, seat, move)
                except IllegalMove as exc:
                    self._annotate(exc)
                    raise
                counts = [0] * 10
                for (colour, s), n in by_piece.items():
                    counts[5 * mine.index(colour) + s] = n
            h = self._hash
            for k, colour in enumerate(mine):
                cid, supply, chosen = self._cid[colour], self.supply[colour], self.chosen[colour]
                for s in HEIGHTS:
                    n = counts[5 * k + s]
                    if n:
                        left = supply[s]
                        h ^= (hashes.supply(cid, colour, s, left)
                              ^ hashes.supply(cid, colour, s, left - n))
                        supply[s] = left - n
                        chosen[s] += n
            self._hash = h
            if explain:
                colours = self.colours
                events.append(PiecesChosen(seat, self.round, tuple(sorted(
                    move.pieces, key=lambda p: (colours.index(p[0]), p[1])))))
            self.turn += 1
            if self.turn == len(self.scores):
                self.phase, self.turn = "build", 0
        else:  # a discard (M5): the card goes, a card comes, the same player plays again
            self.check(move)
            self.deck.play(seat, move.card)
            if explain:
                events.append(CardDiscarded(seat, move.card))
            events += self.deck.draw(seat, move.draw if self.deck.seed is None else None,
                                     explain)
        self.moves_played += 1
        self._turn_item = self._turn_hash()
        self._rehash()
        return events

    def _score(self, phase: str, explain: bool = True) -> list[Event]:
        events, points = scoring.score_round(self.board, self.colours, self.seat_of, phase,
                                             explain)
        for colour, p in points.items():
            if p:
                old, cid = self.colour_scores[colour], self._cid[colour]
                self._hash ^= hashes.score(cid, colour, old) ^ hashes.score(cid, colour, old + p)
                self.colour_scores[colour] = old + p
                self.scores[self.seat_of[colour]] += p
        return list(events)

    def _end_round(self, explain: bool = True) -> list[Event]:
        last = self.round == self.rounds
        events = self._score("final" if last else "play", explain)
        if last:
            return events + self._finish(explain)
        self.round += 1
        self.first = (self.first + 1) % len(self.config.players)
        self.phase, self.turn = "choose", 0
        return events

    def _finish(self, explain: bool = True) -> list[Event]:
        self.phase, self.finished = "over", True
        return [GameEnd(tuple(self.scores), tuple(self.winners()))] if explain else []

    def end_now(self) -> list[Event]:
        """End here (a log ending ``"after-last-move"``). Decision: a round in which pieces
        were built is scored as it stands (phase ``final``), as a table would before
        packing up; an unstarted round is not scored."""
        if self.finished:
            return []
        events = self._score("final") if self.phase == "build" and self.turn else []
        events += self._finish()
        self._turn_item = self._turn_hash()
        self._rehash()
        return events

    def copy(self) -> Self:
        return type(self)(self.config, self)

    def decision(self, move: Any) -> Any:
        """A build or discard without the card drawn after it (M3): drawn, not chosen, it is
        not known when the card is played."""
        return move.with_draw(None) if getattr(move, "draw", None) is not None else move

    def redraw_hidden(self, seat: int, rng: SeededStream) -> None:
        """The other hands and the draw pile redrawn (M3, ``Deck.redraw``); a table game's
        state becomes one that draws by itself, as a seeded one does."""
        if self.finished:
            return
        self.deck.redraw(seat, rng)
        if self.config.seed is None:
            self.config = replace(self.config, seed=self.deck.seed)
        self._rehash()

    def supply_of(self, seat: int) -> dict[str, int]:
        return {f"{c} {h}-storey": self.supply[c][h] for c in self.colours_of[seat]
                for h in HEIGHTS}

    def status(self) -> dict[str, Any]:
        from .words import status  # the state told for people: no replay needs it

        return status(self)

    def chosen_list(self, colour: str) -> list[tuple[str, int]]:
        """The pieces of ``colour`` in play, height by height."""
        return [(colour, h) for h in HEIGHTS for _ in range(self.chosen[colour][h])]

    def _turn_hash(self) -> i64:
        return hashes.turn(self.phase, self.round, self.first, self.turn)

    def hash_from_scratch(self) -> int:
        """The state hash computed anew (the tests compare it with the incremental one)."""
        return hashes.from_scratch(self)
