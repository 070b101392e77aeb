"""Property-based fuzzing of the Manhattan engine (M1-M10), in the style of ``test_fuzz``: the
machine of ``replay.lab.machines`` (what every family gets: moves drawn from the sorted legal
moves, illegal moves refused atomically, copies independent, scores from the score events,
the incremental hash equal to ``hash_from_scratch()`` (L4), the round trip through a log that
verifies with the same hashes and scores) plays whole games of 2, 3 and 4 players, seeded and
table games (no seed: the deal is drawn by Hypothesis and so is every card drawn, among the
engine's legal moves), sometimes with other material (M1: the log header's ``material``) and
other seats (M2). Each step draws a move, or first tries an illegal one. After every step the
``ManhattanChecker`` restates the rules independently of the engine:

* pieces (M1, M4): supply + chosen + on the board = the material's count, per colour and
  height; the board, supply and chosen pieces equal a shadow model kept from the moves;
* cards (M3): pile + hands + played = the deck (45 by default), as a multiset; every hand holds
  the hand size; a seeded draw is the front of the pile, a table draw the card the move names;
* M2: a card's lot is read from the player's side (restated from the side's far and left edges);
* M5: a building's owner is its top piece's colour and has at least as many storeys in it as
  any other colour; every take-over left the new owner with at least as many storeys as the
  previous one (recomputed from the stack before the move); the legal builds equal a
  brute-force recomputation, and a discard happens only when there is no legal build;
* M4, M7, M8: turn order, rounds, the first player passing left, the end after the last round;
* M6, M10: each round's score events equal a recomputation from the board (tallest building,
  majority per city, one point per building; nobody scores a tie); a seat's score is the sum
  of its colours';
* the log's header reads back (seats, second colours, the deal);
* an illegal move (20 kinds) raises ``IllegalMove`` with the expected rule id and changes
  nothing.

Profiles: those of ``replay.lab.machines`` (``fuzz-ci`` by default, ``fuzz-heavy`` with
``CARCASSONNE_FUZZ=heavy``). ``--hypothesis-show-statistics`` shows how often the interesting
states were reached; ``test_fuzz_reaches_interesting_states`` checks the claim on fixed seeds.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import event
from hypothesis import strategies as st

from replay.core.events import GameEnd, Score
from replay.core.family import GameConfig, GameState, Player
from replay.core.record import log_json, parse
from replay.core.rng import SeededStream
from replay.core.values import replace
from replay.games.manhattan import MANHATTAN, Build, Choose, Discard, ManhattanState
from replay.games.manhattan.events import Built, CardDiscarded, PiecesChosen, Reshuffle
from replay.games.manhattan.material import Material
from replay.generate import config_for
from replay.lab import machines
from replay.lab.machines import (
    SEEDS,
    Expected,
    GameMachine,
    Roll,
    check_game,
    fuzz_case,
    generated,
    play_out,
)

Move = Choose | Build | Discard
Stack = list[tuple[str, int]]

# ---------------------------------------------------------------------------- rules restated

CITIES = ("Manhattan", "Frankfurt", "Sydney", "Hong Kong", "São Paulo", "Cairo")  # M1
COLOURS = ("blue", "black", "red", "green")  # M1, in the order the log gives them by default
HEIGHTS = (1, 2, 3, 4)
SIDES = ("south", "west", "north", "east")  # clockwise (G3)
ROUNDS = {2: 6, 3: 6, 4: 4}  # M7
PER_ROUND = {2: 4, 3: 4, 4: 6}  # pieces per colour and round (M4, M7)
TALLEST, MAJORITY, BUILDING = 3, 2, 1  # M6
NAMES = ("Ada", "Ben", "Cleo", "Dan")

# M2: a player reads a card with its top edge towards the far side of the board and its left
# edge towards their left hand: (far edge, left edge) per side.
FAR_LEFT = {"south": ("north", "west"), "north": ("south", "east"),
            "west": ("east", "north"), "east": ("west", "south")}


def lot_from(card: int, side: str) -> int:
    """M2: the lot (row by row from the north-west) that ``card`` marks for ``side``."""
    down, right = divmod(card, 3)  # from the card's top edge, from its left edge
    far, left = FAR_LEFT[side]
    where: dict[str, int] = {}
    for edge, distance in ((far, down), (left, right)):
        if edge in ("north", "south"):
            where["row"] = distance if edge == "north" else 2 - distance
        else:
            where["col"] = distance if edge == "west" else 2 - distance
    return where["row"] * 3 + where["col"]


def storeys_by_colour(stack: Stack) -> Counter[str]:
    out: Counter[str] = Counter()
    for colour, s in stack:
        out[colour] += s
    return out


def may_build(stack: Stack | None, colour: str, storeys: int) -> bool:
    """M5: an empty lot, the colour's own building, or a take-over leaving the colour at least
    as many storeys as the owner."""
    if not stack or stack[-1][0] == colour:
        return True
    by = storeys_by_colour(stack)
    return by[colour] + storeys >= by[stack[-1][0]]


def round_scores(board: dict[tuple[int, int], Stack], colours: Sequence[str]
                 ) -> list[tuple[str, int | None, int, str | None]]:
    """M6 with M10, recomputed: (what, city or None, points, the winning colour or None on a
    tie) in scoring order: the tallest building, each city in board order, each colour."""
    built = {key: stack for key, stack in board.items() if stack}
    if not built:
        return []
    out: list[tuple[str, int | None, int, str | None]] = []
    heights = {key: sum(s for _, s in stack) for key, stack in built.items()}
    top = max(heights.values())
    tallest = [key for key, h in heights.items() if h == top]
    out.append(("tallest building", None, TALLEST,
                built[tallest[0]][-1][0] if len(tallest) == 1 else None))
    for city in range(len(CITIES)):
        owners = Counter(stack[-1][0] for (c, _), stack in built.items() if c == city)
        if not owners:
            continue
        most = max(owners.values())
        leaders = [colour for colour, k in owners.items() if k == most]
        out.append(("city majority", city, MAJORITY, leaders[0] if len(leaders) == 1 else None))
    for colour in colours:
        owned = sum(1 for stack in built.values() if stack[-1][0] == colour)
        if owned:
            out.append(("building", None, BUILDING * owned, colour))
    return out


def ownership_problems(board: dict[tuple[int, int], Stack]) -> list[str]:
    """M5: every building is its top piece's colour's, with at least as many storeys in it as
    any other colour (what every legal take-over keeps true)."""
    out = []
    for key, stack in sorted(board.items()):
        if not stack:
            out.append(f"an empty building at {key}")
            continue
        by = storeys_by_colour(stack)
        owner = stack[-1][0]
        if by[owner] != max(by.values()):
            out.append(f"M5: {key} is {owner}'s with {by[owner]} storeys, fewer than "
                       f"{dict(by)}")
    return out


def fingerprint(state: ManhattanState) -> tuple[Any, ...]:
    """Everything a move could change; an illegal move must leave all of it as it was."""
    return (
        state.hash, state.hash_from_scratch(), tuple(state.scores),
        tuple(sorted(state.colour_scores.items())),
        tuple(sorted((k, tuple(v)) for k, v in state.board.items())),
        tuple(sorted((c, tuple(sorted(v.items()))) for c, v in state.supply.items())),
        tuple(sorted((c, tuple(sorted(v.items()))) for c, v in state.chosen.items())),
        tuple(tuple(h) for h in state.hands), tuple(state.pile), tuple(state.played),
        state.reshuffles, state.phase, state.round, state.first, state.turn,
        state.moves_played, state.finished, state.current_player,
    )


def move_key(move: Move) -> tuple[Any, ...]:
    """A total order on the moves of one position: choices, builds, discards."""
    if isinstance(move, Choose):
        return (0, move.pieces)
    if isinstance(move, Build):
        return (1, move.card, move.city, move.storeys, move.colour or "", move.draw or -1)
    return (2, move.card, move.draw or -1)


def changed(move: Build | Discard, **fields: Any) -> Any:
    """``move`` with some fields changed (an illegal move the machine tries)."""
    return replace(move, **fields)


def new_game(config: GameConfig) -> ManhattanState:
    state = MANHATTAN.new_state(config)
    assert isinstance(state, ManhattanState)
    return state


# ---------------------------------------------------------------------------- configurations


@dataclasses.dataclass(frozen=True)
class Setup:
    """What a game is played with: players, seed (None: a table game), seats, material."""

    players: int
    seed: str | None
    sides: tuple[str, ...] | None = None
    second_colours: tuple[str, ...] | None = None
    material: Material | None = None
    deal_order: tuple[int, ...] | None = None  # table games: the shuffled deck

    def config(self) -> GameConfig:
        material = self.material or Material()
        raw: list[dict[str, Any]] = [{"name": NAMES[i]} for i in range(self.players)]
        for i, p in enumerate(raw):
            if self.sides is not None:
                p["side"] = self.sides[i]
            if self.second_colours is not None:
                p["second_colour"] = self.second_colours[i]
        header: dict[str, Any] = {"players": raw}
        if self.seed is None:
            assert self.deal_order is not None
            size = material.hand_size
            header["deal"] = [list(self.deal_order[s * size:(s + 1) * size])
                              for s in range(self.players)]
        players = tuple(Player(NAMES[i], COLOURS[i]) for i in range(self.players))
        return MANHATTAN.configure(header, players, self.seed, self.material)

    def label(self) -> str:
        kind = "seeded" if self.seed is not None else "table"
        return f"{self.players} players, {kind}"


def deck_of(material: Material) -> list[int]:
    return [lot for lot, k in enumerate(material.cards_per_lot) for _ in range(k)]


@st.composite
def materials(draw: st.DrawFn, players: int) -> Material | None:
    """The default material mostly; else other cards per lot, hand sizes and pieces (M1). A
    hand of one or two cards makes a discard (no legal build) reachable."""
    if draw(st.integers(0, 3), label="material") != 0:
        return None
    hand = draw(st.integers(1, 5), label="hand size")
    cards = draw(st.lists(st.integers(0, 6), min_size=9, max_size=9), label="cards per lot")
    short = max(0, players * hand + 1 - sum(cards))  # a deal and a pile (M1, M3), spread
    for lot in range(9):  # over the lots within the schema's 20 cards a lot
        more = min(short, 20 - cards[lot])
        cards[lot] += more
        short -= more
    pieces = draw(st.lists(st.integers(0, 14), min_size=4, max_size=4), label="pieces")
    need = ROUNDS[players] * PER_ROUND[players]
    pieces[0] += max(0, need - sum(pieces))  # enough pieces for every round (M1, M7)
    return Material(tuple(cards), dict(zip(HEIGHTS, pieces, strict=True)), hand)


# ---------------------------------------------------------------------------- the checker


class ManhattanChecker(machines.Checker):
    """Checks one game move by move against a shadow model of the rules (the hooks of
    ``machines.Checker``); ``seen`` counts the interesting states reached (for ``event()`` and
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
        state = self.state
        kinds = [type(e).__name__ for e in events]
        rest = list(events)
        if isinstance(move, Choose):
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
            assert not rest, kinds
            return
        # a card is played and one drawn (M3)
        drawn = Counter(state.hands[seat]) - (Counter(hand) - Counter([move.card]))
        assert sum(drawn.values()) == 1 and len(state.hands[seat]) == len(hand), (
            "M3: play one card, draw one")
        card = next(iter(drawn))
        if type(move) is Build:
            built = rest.pop(0)
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
        else:
            discarded = rest.pop(0)
            assert isinstance(discarded, CardDiscarded), kinds
            assert (discarded.player, discarded.card) == (seat, move.card)
            self.seen["discard (no legal build)"] += 1
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
        if type(move) is Build:
            self.turn += 1
            if self.turn == len(self.colours) * self.per_round:
                self.check_round_end(rest)
                return
        assert not rest, f"unexpected events {kinds}"

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
        log = log_json(MANHATTAN, self.config, self.moves)
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


def play_checked(setup: Setup, policy_seed: str, spread: int,
                 takeover: int) -> ManhattanChecker:
    """A whole game chosen by a seeded stream with the machine's policy, every move checked."""
    checker = ManhattanChecker(new_game(setup.config()))
    play_out(checker, lambda choose, roll: pick_move(checker, choose, roll, spread, takeover),
             SeededStream(policy_seed, "fuzz-manhattan"))
    return checker


def play_generated(players: int, seed: int) -> ManhattanChecker:
    """A game of the engine's own generator (``python -m replay generate``), checked."""
    state, moves = generated(config_for("manhattan", players, seed))
    checker = ManhattanChecker(state)
    for _ in check_game(checker, moves):
        pass
    assert checker.finished
    checker.check_log()
    return checker


# ---------------------------------------------------------------------------- the machine

ILLEGAL_BUILDS = ("card not in hand", "no such lot", "no such city", "storeys not chosen",
                  "storeys out of range", "take-over too short", "another player's colour",
                  "unknown colour", "wrong draw", "choose while building", "discard while "
                  "a build is legal", "not a move")
ILLEGAL_CHOICES = ("another player's colour", "too many pieces", "too few pieces",
                   "more than the supply", "no such height", "build while choosing",
                   "discard while choosing", "not a move")


GAME_KINDS = [(n, table) for n in (4, 3, 2) for table in (False, True)]


class ManhattanMachine(GameMachine):
    """Plays one game of Manhattan (``machines.GameMachine`` with Manhattan's hooks): seeded
    and table games, other seats and material, a style of play, 20 kinds of illegal move."""

    FAMILY = "manhattan"
    CHECKER = ManhattanChecker
    END_RULE = "M8"  # after the last round's scoring every move is refused

    def __init__(self) -> None:
        super().__init__()
        self.setup: Setup | None = None
        self.spread = self.takeover = 0

    @classmethod
    def step_count(cls) -> int:
        # one initialize step, one step per move of the longest game (2 players: 6 rounds of 2
        # choices and 16 builds), a few more to check M8 after the end
        return 6 * 18 + 4

    def manhattan(self) -> ManhattanChecker:
        assert isinstance(self.checker, ManhattanChecker)
        return self.checker

    def new_game(self, data: st.DataObject) -> GameState:
        players, table = data.draw(st.sampled_from(GAME_KINDS), label="players, table game")
        seed = None if table else str(data.draw(SEEDS, label="seed"))
        sides = None
        if data.draw(st.booleans(), label="sides given"):
            sides = tuple(data.draw(st.permutations(SIDES), label="sides")[:players])
        seconds = None
        if players == 2 and data.draw(st.booleans(), label="second colours given"):
            seconds = tuple(data.draw(st.permutations(("red", "green")), label="seconds"))
        # one game in eight crowds the board: a hand of one card, empty lots first, no
        # take-over; so a player may find no legal build (a discard, M5), rare otherwise
        crowd = data.draw(st.integers(0, 7), label="crowd") == 0
        material = Material(hand_size=1) if crowd else data.draw(materials(players),
                                                                  label="material")
        order = None
        if table:
            order = tuple(data.draw(st.permutations(deck_of(material or Material())),
                                    label="deal"))
        self.setup = Setup(players, seed, sides, seconds, material, order)
        self.spread = 90 if crowd else data.draw(st.integers(0, 100), label="empty lot %")
        self.takeover = 0 if crowd else data.draw(st.integers(0, 100), label="take-over %")
        event(self.setup.label())
        event("crowded board (hand of 1)" if crowd else "material: default"
              if material is None else f"material: other, hand of {material.hand_size}")
        if sides is not None:
            event("sides given")
        return new_game(self.setup.config())

    def pick_move(self, choose: Callable[[list[Any], str], Any], roll: Roll) -> Move:
        return pick_move(self.manhattan(), choose, roll, self.spread, self.takeover)

    def illegal_move(self, data: st.DataObject) -> tuple[str, Any, Expected]:
        checker = self.manhattan()
        state = checker.state
        seat = state.current_player
        assert seat is not None
        mine = checker.colours_of[seat]
        others = [c for c in checker.colours if c not in mine]
        hand = state.hands[seat]
        if checker.phase == "choose":
            kind = data.draw(st.sampled_from(ILLEGAL_CHOICES), label="illegal kind")
            legal = data.draw(st.sampled_from(checker.legal()), label="legal choice")
            assert type(legal) is Choose
            pieces = list(legal.pieces)
            colour = data.draw(st.sampled_from(mine), label="colour")
            if kind == "another player's colour":
                return kind, Choose((*pieces, (data.draw(st.sampled_from(others)), 1))), "M2"
            if kind == "too many pieces":
                return kind, Choose((*pieces, (colour, 1))), "M4"
            if kind == "too few pieces":
                drop = next(i for i, p in enumerate(pieces) if p[0] == colour)
                return kind, Choose(tuple(pieces[:drop] + pieces[drop + 1:])), "M4"
            if kind == "more than the supply":
                scarce = [h for h in HEIGHTS if state.supply[colour][h] < checker.per_round]
                if scarce:
                    h = data.draw(st.sampled_from(scarce))
                    rest = [p for p in pieces if p[0] != colour]
                    over = [(colour, h)] * (state.supply[colour][h] + 1)
                    fill = [(colour, 1)] * (checker.per_round - len(over))
                    if len(over) <= checker.per_round:
                        return kind, Choose(tuple(rest + over + fill)), "M4"
                kind = "no such height"
            if kind == "no such height":
                bad = data.draw(st.sampled_from([0, 5, -1, 10]))
                swap = next(i for i, p in enumerate(pieces) if p[0] == colour)
                pieces[swap] = (colour, bad)
                return kind, Choose(tuple(pieces)), "M1"
            if kind == "build while choosing":
                return kind, Build(hand[0], CITIES[0], 1, mine[0] if len(mine) > 1 else None), \
                    "M4"
            if kind == "discard while choosing":
                return kind, Discard(hand[0]), "M4"
            return kind, ("choose", 1), "M4"
        plays = [m for m in checker.legal() if not isinstance(m, Choose)]
        legal_move = data.draw(st.sampled_from(plays), label="legal move")
        kind = data.draw(st.sampled_from(ILLEGAL_BUILDS), label="illegal kind")
        if isinstance(legal_move, Discard) and kind not in (
                "card not in hand", "not a move", "choose while building", "wrong draw"):
            # no legal build: any build of a card in hand with a chosen piece breaks M5
            colour = data.draw(st.sampled_from(
                [c for c in mine if any(state.chosen[c].values())]), label="colour")
            storeys = data.draw(st.sampled_from(
                [h for h in HEIGHTS if state.chosen[colour][h]]), label="storeys")
            build = Build(legal_move.card, data.draw(st.sampled_from(CITIES)), storeys,
                          colour if len(mine) > 1 else None, legal_move.draw)
            return "build with no legal build", build, "M5"
        if kind == "card not in hand":
            missing = [c for c in range(9) if c not in hand]
            return kind, changed(legal_move, card=data.draw(st.sampled_from(missing))), "M3"
        if kind == "not a move":
            return kind, data.draw(st.sampled_from(["build!", None, {"card": 1}])), "M4"
        if kind == "choose while building":
            return kind, Choose(tuple((c, 1) for c in mine for _ in range(checker.per_round))), \
                "M4"
        if kind == "wrong draw":
            if checker.seeded:
                probe = state.copy()
                probe.apply(legal_move)
                drawn = Counter(probe.hands[seat]) - (Counter(hand) - Counter([legal_move.card]))
                wrong = [c for c in range(9) if c not in drawn]
                return kind, changed(legal_move, draw=data.draw(st.sampled_from(wrong))), "M3"
            pile = state.pile or [*state.played, legal_move.card]
            wrong = [c for c in (*range(9), 9, -1) if c not in pile]
            return kind, changed(legal_move, draw=data.draw(st.sampled_from([None, *wrong]))), \
                "M3"
        assert isinstance(legal_move, Build)
        build = legal_move
        if kind == "discard while a build is legal":
            return kind, Discard(build.card, build.draw), "M5"
        if kind == "no such lot":
            return kind, changed(build, card=data.draw(st.sampled_from([9, -1, 10, 100]))), "M1"
        if kind == "no such city":
            city = data.draw(st.sampled_from(["Paris", "manhattan", "", "Sao Paulo", "cairo "]))
            return kind, changed(build, city=city), "M1"
        colour = build.colour or mine[0]
        if kind == "storeys not chosen":
            unchosen = [h for h in HEIGHTS if not state.chosen[colour][h]]
            if unchosen:
                return kind, changed(build, storeys=data.draw(st.sampled_from(unchosen))), "M4"
            kind = "storeys out of range"
        if kind == "storeys out of range":
            return kind, changed(build, storeys=data.draw(st.sampled_from([0, 5, -1, 8]))), "M4"
        if kind == "take-over too short":
            side = checker.sides[seat]
            short = [Build(card, city, h, c if len(mine) > 1 else None, build.draw)
                     for card in sorted(set(hand)) for city in CITIES
                     for c in mine for h in HEIGHTS if state.chosen[c][h]
                     and not may_build(checker.board.get(
                         (CITIES.index(city), lot_from(card, side))), c, h)]
            if short:
                return kind, data.draw(st.sampled_from(short), label="short build"), "M5"
            kind = "another player's colour"
        if kind == "another player's colour":
            return kind, changed(build, colour=data.draw(st.sampled_from(others))), "M2"
        if kind == "unknown colour":
            return kind, changed(build, colour=data.draw(st.sampled_from(
                ["yellow", "Blue", "grey", ""]))), "M2"
        raise AssertionError(kind)


TestFuzzManhattan = fuzz_case(ManhattanMachine)


# ---------------------------------------------------------------------------- fixed seeds

INTERESTING = ("take-over", "tied tallest building (M10)", "tied city majority (M10)",
               "reshuffle", "discard (no legal build)")


def fixed_games() -> Iterator[ManhattanChecker]:
    """36 games: 12 of the engine's generator (2, 3 and 4 players), 12 of the machine's policy
    (seeded and table, several styles of play) and 12 with a hand of one card and a spread
    style, so that discards (no legal build) happen."""
    for k in range(12):
        yield play_generated(2 + k % 3, 500 + k)
    for k in range(12):
        players = 2 + k % 3
        if k % 2:
            order = list(deck_of(Material()))
            SeededStream(str(k), "fuzz-deal").shuffle(order)
            setup = Setup(players, None, deal_order=tuple(order))
        else:
            setup = Setup(players, str(700 + k), sides=tuple(SIDES[-players:]))
        yield play_checked(setup, f"policy-{k}", spread=25 * (k % 4), takeover=30 * (k % 3))
    one_card = Material(hand_size=1)
    for k in range(12):
        yield play_checked(Setup(2 + k % 3, str(900 + k), material=one_card), f"spread-{k}",
                           spread=90, takeover=0)


def test_fuzz_reaches_interesting_states(capsys: pytest.CaptureFixture[str]) -> None:
    """The fixed-seed games, every move checked, reach take-overs, tied tallest buildings,
    tied majorities, reshuffles and discards (so the claim of the statistics is checked by CI,
    not only shown)."""
    reached: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for checker in fixed_games():
        reached.update(checker.seen)
        games.update(label for label in checker.seen if label in INTERESTING)
    with capsys.disabled():
        print("\nManhattan fixed-seed games (36): " + ", ".join(
            f"{label}: {reached[label]} in {games[label]} games" for label in INTERESTING))
    missing = [label for label in INTERESTING if not reached[label]]
    assert not missing, f"never reached in 36 fixed games: {missing}; reached {dict(reached)}"
    assert reached["game finished"] == 36


# ---------------------------------------------------------------------------- the checker itself


def test_lot_from_restates_M2() -> None:
    """The restated reading of a card (far and left edges) on the corners and the centre."""
    assert [lot_from(0, s) for s in SIDES] == [0, 2, 8, 6]
    assert [lot_from(1, s) for s in SIDES] == [1, 5, 7, 3]
    assert all(lot_from(4, s) == 4 for s in SIDES)
    assert all(sorted(lot_from(c, s) for c in range(9)) == list(range(9)) for s in SIDES)


def test_round_scores_restates_M6_and_M10_on_the_rulebook_example() -> None:
    """The checker's own scoring gives the totals of the rulebook example (M9), and nobody
    the points of a tie (M10)."""
    from .test_manhattan import m9_board

    points: Counter[str] = Counter()
    for _, _, p, colour in round_scores(m9_board(), COLOURS):
        if colour is not None:
            points[colour] += p
    assert [points[c] for c in COLOURS] == [8, 9, 6, 4]
    tie = {(0, 0): [("blue", 2)], (0, 1): [("black", 2)]}
    assert round_scores(tie, COLOURS) == [
        ("tallest building", None, TALLEST, None), ("city majority", 0, MAJORITY, None),
        ("building", None, 1, "blue"), ("building", None, 1, "black")]


def test_the_checker_restates_M5() -> None:
    """The checker's take-over rule and ownership invariant refuse what M5 refuses (so a
    wrong take-over the engine let through would be caught)."""
    stack = [("black", 2), ("black", 2)]
    assert not may_build(stack, "blue", 3) and may_build(stack, "blue", 4)
    assert may_build([("black", 2), ("blue", 1)], "blue", 1)  # own building: no limit
    assert may_build([("blue", 1), ("black", 2)], "blue", 1)  # 2 >= 2: as many is enough
    assert not may_build([("blue", 1), ("black", 3)], "blue", 1)
    assert may_build(None, "red", 1) and may_build([], "red", 1)
    assert ownership_problems({(0, 4): [*stack, ("blue", 4)], (1, 0): [("red", 1)]}) == []
    (problem,) = ownership_problems({(0, 4): [*stack, ("red", 3)]})
    assert problem.startswith("M5: (0, 4) is red's with 3 storeys")
