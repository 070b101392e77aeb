"""Manhattan's fuzz machine (``Manhattan.fuzz_machine``): seeded and table games (no seed:
the deal is drawn by Hypothesis and so is every card drawn, among the engine's legal moves) of
2, 3 and 4 players, sometimes with other material (M1: the log header's ``material``) and
other seats (M2); a style of play; each step draws a move, or first tries one of 20 kinds of
illegal move, which must be refused with its rule id and change nothing. The checker is
``fuzz_checker.ManhattanChecker``.

This module needs ``hypothesis`` (imported only for fuzzing).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from ...core.family import GameState
from ...lab.checker import SEEDS, Expected, Roll
from ...lab.machines import GameMachine
from . import Build, Choose, Discard, ManhattanState
from .fuzz_checker import ManhattanChecker, pick_move
from .fuzz_rules import (
    CITIES,
    HEIGHTS,
    SIDES,
    Move,
    Setup,
    changed,
    deck_of,
    lot_from,
    materials,
    may_build,
    new_game,
)
from .material import Material

ILLEGAL_BUILDS = ("card not in hand", "no such lot", "no such city", "storeys not chosen",
                  "storeys out of range", "take-over too short", "another player's colour",
                  "unknown colour", "wrong draw", "choose while building", "discard while "
                  "a build is legal", "not a move")
ILLEGAL_CHOICES = ("another player's colour", "too many pieces", "too few pieces",
                   "more than the supply", "no such height", "build while choosing",
                   "discard while choosing", "not a move")


Wrong = tuple[str, Any, Expected]  # an illegal move: its kind, the move, the rule expected
GAME_KINDS = [(n, table) for n in (4, 3, 2) for table in (False, True)]


class ManhattanMachine(GameMachine):
    """Plays one game of Manhattan (``GameMachine`` with Manhattan's hooks): seeded and table
    games, other seats and material, a style of play, 20 kinds of illegal move."""

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
        kinds = [k for k in GAME_KINDS if self.PLAYERS in (None, k[0])]  # fuzz --players
        players, table = data.draw(st.sampled_from(kinds), label="players, table game")
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

    def illegal_move(self, data: st.DataObject) -> Wrong:
        checker = self.manhattan()
        if checker.phase == "choose":
            return self.illegal_choice(data)
        plays = [m for m in checker.legal() if not isinstance(m, Choose)]
        legal_move = data.draw(st.sampled_from(plays), label="legal move")
        kind = data.draw(st.sampled_from(ILLEGAL_BUILDS), label="illegal kind")
        if kind in ("card not in hand", "not a move", "choose while building", "wrong draw"):
            return self.illegal_play(data, kind, legal_move)
        if isinstance(legal_move, Discard):
            return self.build_without_a_legal_build(data, legal_move)
        return self.illegal_build(data, kind, legal_move)

    def seat(self) -> tuple[ManhattanState, int, tuple[str, ...], list[str], list[int]]:
        """The state, the seat to move, its colours, the others' and its hand."""
        checker = self.manhattan()
        state = checker.state
        seat = state.current_player
        assert seat is not None
        mine = checker.colours_of[seat]
        return state, seat, mine, [c for c in checker.colours if c not in mine], \
            state.hands[seat]

    def illegal_choice(self, data: st.DataObject) -> Wrong:
        """An illegal choice of the round's pieces (M1, M2, M4), or a move of another
        phase."""
        checker = self.manhattan()
        state, _, mine, others, hand = self.seat()
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
            return kind, Build(hand[0], CITIES[0], 1, mine[0] if len(mine) > 1 else None), "M4"
        if kind == "discard while choosing":
            return kind, Discard(hand[0]), "M4"
        return kind, ("choose", 1), "M4"

    def illegal_play(self, data: st.DataObject, kind: str, legal_move: Build | Discard) -> Wrong:
        """A card not in hand, a wrong draw (M3), not a move, a choice while building (M4)."""
        checker = self.manhattan()
        state, seat, mine, _, hand = self.seat()
        if kind == "card not in hand":
            missing = [c for c in range(9) if c not in hand]
            return kind, changed(legal_move, card=data.draw(st.sampled_from(missing))), "M3"
        if kind == "not a move":
            return kind, data.draw(st.sampled_from(["build!", None, {"card": 1}])), "M4"
        if kind == "choose while building":
            return kind, Choose(tuple((c, 1) for c in mine for _ in range(checker.per_round))), \
                "M4"
        if checker.seeded:
            probe = state.copy()
            probe.apply(legal_move)
            drawn = Counter(probe.hands[seat]) - (Counter(hand) - Counter([legal_move.card]))
            wrong = [c for c in range(9) if c not in drawn]
            return kind, changed(legal_move, draw=data.draw(st.sampled_from(wrong))), "M3"
        pile = state.pile or [*state.played, legal_move.card]
        wrong = [c for c in (*range(9), 9, -1) if c not in pile]
        return kind, changed(legal_move, draw=data.draw(st.sampled_from([None, *wrong]))), "M3"

    def build_without_a_legal_build(self, data: st.DataObject, discard: Discard) -> Wrong:
        """No legal build: any build of a card in hand with a chosen piece breaks M5."""
        state, _, mine, _, _ = self.seat()
        colour = data.draw(st.sampled_from(
            [c for c in mine if any(state.chosen[c].values())]), label="colour")
        storeys = data.draw(st.sampled_from(
            [h for h in HEIGHTS if state.chosen[colour][h]]), label="storeys")
        build = Build(discard.card, data.draw(st.sampled_from(CITIES)), storeys,
                      colour if len(mine) > 1 else None, discard.draw)
        return "build with no legal build", build, "M5"

    def illegal_build(self, data: st.DataObject, kind: str, build: Build) -> Wrong:
        """A build made illegal: no such lot or city (M1), storeys not chosen (M4), a
        take-over too short (M5), a colour not the player's (M2); or a discard (M5)."""
        state, _, mine, others, _ = self.seat()
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
            short = self.short_take_overs(build)
            if short:
                return kind, data.draw(st.sampled_from(short), label="short build"), "M5"
            kind = "another player's colour"
        if kind == "another player's colour":
            return kind, changed(build, colour=data.draw(st.sampled_from(others))), "M2"
        assert kind == "unknown colour", kind
        return kind, changed(build, colour=data.draw(st.sampled_from(
            ["yellow", "Blue", "grey", ""]))), "M2"

    def short_take_overs(self, build: Build) -> list[Build]:
        """Every build of the hand that would take a building over with too few storeys."""
        checker = self.manhattan()
        state, seat, mine, _, hand = self.seat()
        side = checker.sides[seat]
        return [Build(card, city, h, c if len(mine) > 1 else None, build.draw)
                for card in sorted(set(hand)) for city in CITIES
                for c in mine for h in HEIGHTS if state.chosen[c][h]
                and not may_build(checker.board.get(
                    (CITIES.index(city), lot_from(card, side))), c, h)]
