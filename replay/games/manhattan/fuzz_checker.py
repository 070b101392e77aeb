"""Manhattan's checker for fuzzing (``ManhattanChecker``): after every move of the machines
of ``replay.lab.machines`` it restates the rules against a shadow model kept from the moves:

* pieces (M1, M4): supply + chosen + on the board = the material's count, per colour and
  height; the board, supply and chosen pieces equal the shadow model;
* cards (M3): pile + hands + played = the deck, as a multiset; every hand holds the hand
  size; a seeded draw is the front of the pile, a table draw the card the move names;
* M2: a card's lot is read from the player's side (``fuzz_rules.lot_from``);
* M5: a building's owner is its top piece's colour and has at least as many storeys in it as
  any other colour; every take-over left the new owner with at least as many storeys as the
  previous one; the legal builds equal a brute-force recomputation, and a discard happens only
  when there is no legal build;
* M4, M7, M8: turn order, rounds, the first player passing left, the end after the last round;
* M6, M10: each round's score events equal a recomputation from the board; a seat's score is
  the sum of its colours';
* the log's header reads back (seats, second colours, the deal).

``pick_move`` is the machine's style of play (empty lots, take-overs).

This module needs ``hypothesis`` through ``replay.lab`` (imported only for fuzzing).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...core.events import GameEnd, Score
from ...core.family import GameState
from ...core.record import log_json, parse
from ...lab.checker import Checker, Roll
from . import MANHATTAN, Build, Choose, Discard, ManhattanState
from .events import Built, CardDiscarded, PiecesChosen, Reshuffle
from .fuzz_rules import (
    CITIES,
    COLOURS,
    HEIGHTS,
    PER_ROUND,
    ROUNDS,
    SIDES,
    Move,
    Stack,
    deck_of,
    fingerprint,
    lot_from,
    may_build,
    move_key,
    ownership_problems,
    round_scores,
    storeys_by_colour,
)
from .material import Material

# ---------------------------------------------------------------------------- the checker


class ManhattanChecker(Checker):
    """Checks one game move by move against a shadow model of the rules (the hooks of
    ``Checker``); ``seen`` counts the interesting states reached (for ``event()`` and
    the fixed-seed test)."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        assert isinstance(state, ManhattanState)
        self.state: ManhattanState = state
        config = state.config
        n = len(config.players)
        self.n = n
        self.material = config.material or Material()
        assert state.material == self.material
        self.deck = Counter(deck_of(self.material))
        self.seeded = config.seed is not None
        self.rounds, self.per_round = ROUNDS[n], PER_ROUND[n]
        # M2: seats; M7: the two-player game's second colours (the first colours not played)
        sides = config.options.get("sides")
        self.sides = tuple(sides) if sides else (("south", "north") if n == 2 else SIDES[:n])
        own = [p.colour for p in config.players]
        if n == 2:
            given = config.options.get("second_colours")
            second = tuple(given) if given else tuple(c for c in COLOURS if c not in own)[:2]
            self.colours_of: tuple[tuple[str, ...], ...] = tuple(
                (own[s], second[s]) for s in range(n))
        else:
            self.colours_of = tuple((c,) for c in own)
        assert state.colours_of == self.colours_of and state.sides == self.sides
        self.colours = [c for cs in self.colours_of for c in cs]
        self.seat_of = {c: s for s, cs in enumerate(self.colours_of) for c in cs}
        # the shadow model
        self.board: dict[tuple[int, int], Stack] = {}
        self.supply = {c: dict(self.material.pieces) for c in self.colours}
        self.chosen = {c: dict.fromkeys(HEIGHTS, 0) for c in self.colours}
        self.round, self.first, self.phase, self.turn = 1, 0, "choose", 0
        self.reshuffles = 0
        self.colour_tally = dict.fromkeys(self.colours, 0)
        self.finished = False
        assert not state.setup_events

    def order(self, moves: list[Any]) -> list[Any]:
        """The legal moves sorted (``legal()`` computes them once per position: the engine
        enumerates every build with every card a table game may draw)."""
        return sorted(moves, key=move_key)

    def fingerprint(self, state: GameState) -> tuple[Any, ...]:
        assert isinstance(state, ManhattanState)
        return fingerprint(state)

    # ------------------------------------------------------------ the shadow model

    def current(self) -> int | None:
        return None if self.finished else (self.first + self.turn) % self.n

    def restated_builds(self, seat: int) -> set[tuple[int, str, int, str | None]]:
        """Every legal build of ``seat`` as (card, city, storeys, colour or None) (M2, M4, M5,
        M7), from the shadow model and the seat's hand."""
        out: set[tuple[int, str, int, str | None]] = set()
        two = len(self.colours_of[seat]) > 1
        for card in set(self.state.hands[seat]):
            lot = lot_from(card, self.sides[seat])
            for city_index, city in enumerate(CITIES):
                stack = self.board.get((city_index, lot))
                for colour in self.colours_of[seat]:
                    for h in HEIGHTS:
                        if self.chosen[colour][h] and may_build(stack, colour, h):
                            out.add((card, city, h, colour if two else None))
        return out

    def choice_count(self, seat: int) -> int:
        """M4: how many different choices of the round's pieces the supply allows."""
        total = 1
        for colour in self.colours_of[seat]:
            left = self.supply[colour]
            total *= sum(1 for pick in itertools.combinations_with_replacement(
                HEIGHTS, self.per_round) if all(pick.count(h) <= left[h] for h in HEIGHTS))
        return total

    def check_choice(self, seat: int, move: Choose) -> None:
        for colour in self.colours_of[seat]:
            taken = [h for c, h in move.pieces if c == colour]
            assert len(taken) == self.per_round, f"M4: {move} takes {len(taken)} {colour}"
            assert all(taken.count(h) <= self.supply[colour][h] for h in HEIGHTS), move
        assert all(c in self.colours_of[seat] for c, _ in move.pieces), f"M2: {move}"

    # ------------------------------------------------------------ a move

    def before_move(self, move: Move) -> tuple[Any, ...]:
        """The move restated against the shadow model; what ``check_move`` needs."""
        state = self.state
        seat = self.current()
        assert seat is not None and state.current_player == seat, "M4/M8: turn order"
        hand = list(state.hands[seat])
        pile, played = list(state.pile), list(state.played)
        before = {k: list(v) for k, v in self.board.items()}
        if type(move) is Choose:
            assert self.phase == "choose"
            self.check_choice(seat, move)
        elif type(move) is Build:
            assert self.phase == "build" and move.card in hand, f"M3/M4: {move}"
            legal = self.restated_builds(seat)
            assert (move.card, move.city, move.storeys, move.colour) in legal, (
                f"M5: the engine offers {move}, the rules do not allow it")
        else:
            assert type(move) is Discard and self.phase == "build" and move.card in hand
            assert not self.restated_builds(seat), f"M5: {move} while a build is legal"
        return seat, hand, pile, played, before

    def check_move(self, move: Move, events: list[Any], before: tuple[Any, ...]) -> None:
        assert MANHATTAN.move_surely_valid(self.moves[-1]) == (type(move) is not Discard)
        self.check_events(move, events, *before)

    def check_events(self, move: Move, events: list[Any], seat: int, hand: list[int],
                     pile: list[int], played: list[int],
                     before: dict[tuple[int, int], Stack]) -> None:
        kinds = [type(e).__name__ for e in events]
        rest = list(events)
        if isinstance(move, Choose):
            self.check_choice_events(move, rest, seat)
            assert not rest, kinds
            return
        # a card is played and one drawn (M3)
        state = self.state
        drawn = Counter(state.hands[seat]) - (Counter(hand) - Counter([move.card]))
        assert sum(drawn.values()) == 1 and len(state.hands[seat]) == len(hand), (
            "M3: play one card, draw one")
        card = next(iter(drawn))
        if type(move) is Build:
            self.check_build_event(move, rest.pop(0), seat, before, kinds)
        else:
            discarded = rest.pop(0)
            assert isinstance(discarded, CardDiscarded), kinds
            assert (discarded.player, discarded.card) == (seat, move.card)
            self.seen["discard (no legal build)"] += 1
        self.check_draw(move, card, rest, pile, played)
        if type(move) is Build:
            self.turn += 1
            if self.turn == len(self.colours) * self.per_round:
                self.check_round_end(rest)
                return
        assert not rest, f"unexpected events {kinds}"

    def check_choice_events(self, move: Choose, rest: list[Any], seat: int) -> None:
        """M4: the pieces chosen leave the supply; the last choice starts the builds."""
        first = rest.pop(0)
        assert isinstance(first, PiecesChosen) and first.player == seat
        assert first.round == self.round
        assert sorted(first.pieces) == sorted(move.pieces)
        for colour, h in move.pieces:
            self.supply[colour][h] -= 1
            self.chosen[colour][h] += 1
        self.turn += 1
        if self.turn == self.n:
            self.phase, self.turn = "build", 0

    def check_build_event(self, move: Build, built: Any, seat: int,
                          before: dict[tuple[int, int], Stack], kinds: list[str]) -> None:
        """M2, M5: the build's event against the stack before it (a take-over leaves the
        new owner at least as many storeys); the shadow board follows."""
        colour = move.colour or self.colours_of[seat][0]
        lot = lot_from(move.card, self.sides[seat])
        key = (CITIES.index(move.city), lot)
        old = before.get(key, [])
        assert isinstance(built, Built), kinds
        assert (built.player, built.colour, built.card, built.city, built.lot,
                built.storeys) == (seat, colour, move.card, move.city, lot, move.storeys)
        previous = old[-1][0] if old else None
        assert built.previous_owner == previous
        assert built.height == sum(s for _, s in old) + move.storeys
        if previous is not None and previous != colour:
            by = storeys_by_colour(old)
            assert by[colour] + move.storeys >= by[previous], (
                f"M5: {colour} took {key} over from {previous} with "
                f"{by[colour] + move.storeys} of {by[previous]} storeys")
            self.seen["take-over"] += 1
            if by[colour] + move.storeys == by[previous]:
                self.seen["take-over with exactly as many storeys"] += 1
        elif previous == colour:
            self.seen["build on own building"] += 1
        self.board[key] = [*old, (colour, move.storeys)]
        self.chosen[colour][move.storeys] -= 1

    def check_draw(self, move: Build | Discard, card: int, rest: list[Any], pile: list[int],
                   played: list[int]) -> None:
        """M3: the card drawn: the front of the pile (seeded) or the one the move names
        (table), after a reshuffle when the pile was empty."""
        if rest and isinstance(rest[0], Reshuffle):
            shuffle = rest.pop(0)
            assert not pile, "M3: a reshuffle only when the pile is empty"
            self.reshuffles += 1
            assert (shuffle.number, shuffle.cards) == (self.reshuffles, len(played) + 1)
            self.seen["reshuffle"] += 1
        else:
            assert pile, "M3: the pile ran out without a reshuffle"
            if self.seeded:
                assert card == pile[0], "M3: a seeded game draws the front of the pile"
        if not self.seeded:
            assert card == move.draw, f"M3: drew {card}, the move says {move.draw}"

    def check_round_end(self, rest: list[Any]) -> None:
        """M6/M10 recomputed from the board; M4 the marker passes left; M8 the end."""
        last = self.round == self.rounds
        expected = round_scores(self.board, self.colours)
        scores = [e for e in rest if isinstance(e, Score)]
        got = [(e.feature, e.feature_id if e.feature == "city majority" else None, e.points,
                tuple(e.winners)) for e in scores]
        want = [(what, city, points, () if colour is None else (self.seat_of[colour],))
                for what, city, points, colour in expected]
        assert got == want, f"M6: the round scores {got}, the rules give {want}"
        for e, (_, _, points, colour) in zip(scores, expected, strict=True):
            assert e.phase == ("final" if last else "play")
            assert e.rule == ("M10" if colour is None else "M6"), e
            if colour is None:
                self.seen[f"tied {e.feature} (M10)"] += 1
            else:
                self.colour_tally[colour] += points
        if self.n == 2 and any(colour is None and self.tied_within_a_seat(what, city)
                               for what, city, _, colour in expected):
            self.seen["a two-player seat's colours tie with each other (M7)"] += 1
        assert rest[:len(scores)] == scores
        ends = rest[len(scores):]
        self.seen["round scored"] += 1
        if last:  # the end event's scores and winners: machines.Checker
            assert len(ends) == 1 and isinstance(ends[0], GameEnd), "M8: the game ends"
            self.finished, self.phase = True, "over"
        else:
            assert not ends, ends
            self.round += 1
            self.first = (self.first + 1) % self.n
            self.phase, self.turn = "choose", 0

    def tied_within_a_seat(self, what: str, city: int | None) -> bool:
        """Whether the leaders of a tied feature include both colours of one seat (M7)."""
        built = {k: s for k, s in self.board.items() if s}
        if what == "tallest building":
            top = max(sum(h for _, h in s) for s in built.values())
            leaders = [s[-1][0] for s in built.values() if sum(h for _, h in s) == top]
        else:
            owners = Counter(s[-1][0] for (c, _), s in built.items() if c == city)
            leaders = [c for c, k in owners.items() if k == max(owners.values())]
        seats = [self.seat_of[c] for c in set(leaders)]
        return len(seats) != len(set(seats))

    # ------------------------------------------------------------ the state

    def check_position(self) -> None:
        state = self.state
        # the shadow model and the turn (M4, M7, M8)
        assert state.board == self.board, "the board differs from the moves played"
        assert state.supply == self.supply and state.chosen == self.chosen
        assert state.current_player == self.current()
        assert (state.phase, state.round, state.first) == (self.phase, self.round, self.first)
        assert state.finished == self.finished
        # pieces (M1, M4): supply + chosen + on the board = the material, per colour and height
        on_board: Counter[tuple[str, int]] = Counter(
            piece for stack in state.board.values() for piece in stack)
        for colour in self.colours:
            for h in HEIGHTS:
                left, chosen = state.supply[colour][h], state.chosen[colour][h]
                assert left >= 0 and chosen >= 0
                assert left + chosen + on_board[(colour, h)] == self.material.pieces[h], (
                    f"{colour} {h}-storey pieces: {left} in supply, {chosen} chosen, "
                    f"{on_board[(colour, h)]} on the board")
            in_play = sum(state.chosen[colour].values())
            if state.phase == "choose":
                seat = self.seat_of[colour]
                done = (seat - state.first) % self.n < state.turn
                assert in_play == (self.per_round if done else 0), "M4: chosen pieces"
        assert all(c in self.colours for c, _ in on_board)
        # cards (M3): pile + hands + played = the deck
        cards = Counter(state.pile) + Counter(state.played)
        for hand in state.hands:
            assert len(hand) == self.material.hand_size, "M3: every hand is full"
            cards.update(hand)
        assert cards == self.deck, (
            f"cards: missing {dict(self.deck - cards)}, extra {dict(cards - self.deck)}")
        assert state.reshuffles == self.reshuffles
        # buildings (M5): the top piece's colour owns it and has the most storeys
        problems = ownership_problems(state.board)
        assert not problems, problems[0]
        # scores (M6, M7): per seat the sum of its colours' (the sum of the score events and
        # the hash from scratch, L4: machines.Checker)
        assert state.colour_scores == self.colour_tally
        assert state.scores == [sum(state.colour_scores[c] for c in cs)
                                for cs in self.colours_of]
        # the legal moves (M4, M5, M3) agree with a brute-force recomputation
        self.check_legal_moves()

    def check_legal_moves(self) -> None:
        state = self.state
        moves = self.legal()
        seat = self.current()
        if seat is None:
            assert moves == []
            return
        if self.phase == "choose":
            assert all(type(m) is Choose for m in moves)
            assert len(set(moves)) == len(moves) == self.choice_count(seat)
            return
        plays = [m for m in moves if not isinstance(m, Choose)]
        assert len(plays) == len(moves) == len(set(moves))
        builds = self.restated_builds(seat)
        if builds:
            assert {(m.card, m.city, m.storeys, m.colour) for m in plays
                    if isinstance(m, Build)} == builds, "M5: the legal builds"
            assert all(type(m) is Build for m in plays), "M5: a discard while a build is legal"
        else:
            assert all(type(m) is Discard for m in plays)
            assert {m.card for m in plays} == set(state.hands[seat])
            self.seen["no legal build"] += 1
        draws = {m.draw for m in plays}
        if self.seeded:
            assert draws == {None}
        else:
            by_card: dict[int, set[int | None]] = {}
            for m in plays:
                by_card.setdefault(m.card, set()).add(m.draw)
            for card, named in by_card.items():
                assert named == set(state.pile or [*state.played, card]), "M3: the draws"

    # ------------------------------------------------------------ the log

    def check_log(self) -> None:
        """L1: the header of the game written as a log reads back; the log verifies with the
        same hashes and scores (machines.Checker)."""
        log = log_json(self.family, self.config, self.moves)
        options = parse(log).config.options
        for key in ("sides", "second_colours"):
            assert options[key] == self.config.options[key], key
        if not self.seeded:  # the deal, each hand in lot order
            assert options["deal"] == tuple(tuple(sorted(h))
                                            for h in self.config.options["deal"])
        super().check_log()


# ---------------------------------------------------------------------------- policies


def pick_move(checker: ManhattanChecker, choose: Callable[[list[Move], str], Move],
              roll: Roll, spread: int, takeover: int) -> Move:
    """A legal move drawn from the sorted legal moves by ``choose``; ``roll()`` (0-99) below
    ``spread`` prefers an empty lot, below ``takeover`` a take-over (the style of play)."""
    state = checker.state
    moves = checker.legal()
    seat = state.current_player
    assert seat is not None and moves
    if state.phase == "build" and type(moves[0]) is Build:
        side = state.sides[seat]

        def kind(m: Move) -> str:
            assert type(m) is Build
            stack = state.board.get((CITIES.index(m.city), lot_from(m.card, side)))
            colour = m.colour or state.colours_of[seat][0]
            return "empty" if not stack else "own" if stack[-1][0] == colour else "take"

        for style, rate in (("take", takeover), ("empty", spread)):
            if roll() < rate:
                preferred = [m for m in moves if kind(m) == style]
                if preferred:
                    return choose(preferred, style)
    return choose(moves, "move")
