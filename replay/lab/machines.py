"""Hypothesis state machines that play whole random games of every registered family and check,
after every step, what the family interface (``replay.core.family``) promises.

A ``GameMachine`` plays one game: its first step sets the game up (players, seed, options of
the registry), each later step draws a legal move, or first tries an illegal one, and a
``Checker`` checks every move and every position. What any family gets by registering, through
``Family`` and ``GameState`` alone:

* a move is drawn from the legal options (``legal_moves()``, in the family's fixed order or
  another of ``Checker.order``), ``apply`` takes it and counts it, and ``decode_move`` reads
  back what ``encode_move`` writes of it;
* determinism and copy independence: every ``COPY_EVERY``-th move is first played on a
  ``copy()``: ``check`` changes nothing, the copy's move leaves the original as it was, and
  the original then gives the same events and the same position;
* the state hash: ``state_hash`` is ``hash`` in hex, and equals ``hash_from_scratch()`` where
  the state offers one (L4);
* one score per seat, an integer, never negative: the sum of the points of the score events
  (``score``: each winner gets ``points``, never negative), so scores never decrease; the game
  is finished exactly when nobody is to move and no move is legal, and the move that ends it
  gives one ``end`` event, last, with the scores and every best score as winners (G11);
* an illegal move raises ``IllegalMove`` with a rule id of the family, the move number and the
  player, changes nothing (``Checker.fingerprint``) and is not ``is_legal``: the move just
  played, played again when ``is_legal`` refuses it, and after the end every move (one of the
  game's own, refused by ``GameMachine.END_RULE``);
* ``end_now`` on a copy ends the game there and leaves the original alone;
* the round trip: the moves played, written as a log (``log_json``), pass ``verify``
  with the same state hash after every move and the same scores.

A family adds its own invariants in a subclass, through the hooks below (documented where they
are defined): ``Checker.before_move``, ``check_move``, ``check_position``, ``fingerprint``,
``order``; ``GameMachine.new_game``, ``pick_move``, ``illegal_move``, ``illegal_variants``,
``step_count``. ``machine_for`` makes the machine of one family and expansion mix,
``fuzz_case`` its ``unittest.TestCase`` under the current profile, and ``games()`` lists every
family and mix of the registry, so a family joins by registering. ``generated`` and
``check_game`` check the games of the engine's own generator the same way, ``play_out`` a game
chosen by a seeded stream (the fixed-seed tests).

Profiles: ``fuzz-ci`` (the default: bounded and derandomized, the same examples every run) and
``fuzz-heavy`` (``CARCASSONNE_FUZZ=heavy``: random, with the example database, shrinking).
``FUZZ`` is the one in force. Statistics: the machines record what their games reached with
``hypothesis.event`` (``--hypothesis-show-statistics``).

A family names its machine (its own invariants) with ``Family.fuzz_machine``, a reference
``"module:Class"`` to a ``GameMachine`` subclass; ``family_machine`` loads it (the generic
``GameMachine`` when it is None). ``python -m replay fuzz`` (``replay.lab.fuzz_command``) and
the test suite's fuzz tests run the same machines.

This module needs ``hypothesis`` (imported only by ``replay.lab`` and the families' fuzz
modules, never by a verification).
"""

from __future__ import annotations

import re
import unittest
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from ..core import hashing
from ..core.events import Event
from ..core.family import Family, GameConfig, GameState, family
from ..core.plugins import PluginError, load_ref
from ..core.record import log_json, parse
from ..core.rng import SeededStream
from ..generate import config_for, play_random
from .checker import (
    FUZZ,
    HEAVY,
    SEEDS,
    Checker,
    Choose,
    Expected,
    Roll,
    games,
    label,
    options_for,
    rule_ids,
    seeded_choice,
)

__all__ = [
    "FUZZ", "HEAVY", "SEEDS", "Checker", "Choose", "Expected", "GameMachine", "Roll",
    "check_game", "family_machine", "fuzz_case", "games", "generated", "label", "machine_for",
    "options_for", "play_out", "rule_ids", "seeded_choice",
]


# ---------------------------------------------------------------------------- the machine


class GameMachine(RuleBasedStateMachine):
    """Plays one game of ``FAMILY`` with the expansions ``MIX``; each step is one move (two
    rules, so that Hypothesis's swarm testing, which disables some rules in a run, never stops
    a game). The teardown plays the game to its end with a seeded policy, checks ``end_now``
    where it was left, and the round trip through a log.

    Hooks for a family's machine:

    * ``CHECKER``: its ``Checker`` subclass; ``END_RULE``: the rule that refuses every move
      after the end (None: any rule of the family);
    * ``new_game(data)``: set a game up (draws with ``data``), default: players, seed and
      options from the registry, by ``replay.generate.config_for``;
    * ``pick_move(choose, roll)``: a legal move (default: ``choose`` among all of them); a
      family's style of play lives here (``roll()`` is 0-99);
    * ``illegal_move(data)``: (kind, move, expected rule) of an illegal move to try, or None;
    * ``illegal_variants(move)``: illegal moves made from the legal ``move`` about to be
      played, each tried and refused first;
    * ``step_count()``: the steps of one run (enough for a whole game; default 100).

    ``PLAYERS`` and ``OPTIONS`` (set by ``machine_for``: ``fuzz --players``, ``--option``) pin
    what ``new_game`` would draw: ``players(data, low, high)`` and ``options(data)`` honour
    them, and a family's ``new_game`` that draws its own set-up should too. ``failed`` is the
    exception a step raised (the teardown then plays nothing more, so the game stays as it
    was when the check failed).
    """

    FAMILY: ClassVar[str] = ""  # set by machine_for (or a family's subclass)
    MIX: ClassVar[tuple[str, ...]] = ()
    CHECKER: ClassVar[type[Checker]] = Checker
    END_RULE: ClassVar[str | None] = None
    PLAYERS: ClassVar[int | None] = None  # pinned: the number of players of every game
    OPTIONS: ClassVar[Mapping[str, Any]] = {}  # pinned: option values of every game

    def __init__(self) -> None:
        super().__init__()
        self.checker: Checker | None = None
        self.started: GameState | None = None  # the game set up (before its checker)
        self.failed: BaseException | None = None

    @contextmanager
    def guard(self) -> Iterator[None]:
        """Remember the exception a step raises (``failed``) and let it go on."""
        try:
            yield
        except BaseException as exc:
            self.failed = self.failed or exc
            raise

    # ------------------------------------------------------------ hooks

    def new_game(self, data: st.DataObject) -> GameState:
        """A new game, set up with ``data``'s draws."""
        fam = family(self.FAMILY)
        players = self.players(data, fam.min_players, fam.seat_limit(self.MIX))
        seed = data.draw(SEEDS, label="seed")
        options = self.options(data)
        event(f"{label(self.FAMILY, self.MIX)}, {players} players")
        return fam.new_state(config_for(self.FAMILY, players, seed, self.MIX, options))

    def players(self, data: st.DataObject, low: int, high: int) -> int:
        """The number of players: ``PLAYERS`` when pinned, else drawn from low to high."""
        pinned = self.PLAYERS
        return data.draw(st.integers(low, high) if pinned is None else st.just(pinned),
                         label="players")

    def options(self, data: st.DataObject) -> dict[str, Any]:
        """The values of the registry's options of the expansions in play, ``OPTIONS``
        pinned, the others drawn simplest first (``options_for``), so that a failing game
        shrinks to the simplest values that still fail: a ``new_game`` of a family's own
        should take its options from here."""
        return data.draw(options_for(self.FAMILY, self.MIX, self.OPTIONS), label="options")

    def pick_move(self, choose: Choose, roll: Roll) -> Any:
        """A legal move drawn by ``choose`` (Hypothesis, or the teardown's seeded stream)."""
        assert self.checker is not None
        return choose(self.checker.legal(), "move")

    def illegal_move(self, data: st.DataObject) -> tuple[str, Any, Expected] | None:
        """An illegal move to try before a legal one: (kind, move, expected rule)."""
        return None

    def illegal_variants(self, move: Any) -> Iterable[tuple[str, Any, Expected]]:
        """Illegal moves made from the legal ``move`` about to be played."""
        return ()

    @classmethod
    def step_count(cls) -> int:
        """Steps in one run: enough for a whole game and a few steps after its end."""
        return 100

    # ------------------------------------------------------------ rules

    @initialize(data=st.data())
    def set_up(self, data: st.DataObject) -> None:
        with self.guard():
            self.started = self.new_game(data)
            self.checker = self.CHECKER(self.started)
            self.checker.check_state()

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        with self.guard():
            self.step(data, illegal_first=False)

    @rule(data=st.data())
    def try_illegal_then_play(self, data: st.DataObject) -> None:
        with self.guard():
            self.step(data, illegal_first=True)

    @invariant()
    def state_invariants(self) -> None:
        if self.checker is not None and self.failed is None:
            with self.guard():
                self.checker.check_state()

    def teardown(self) -> None:
        """Play the game to its end (Hypothesis may stop a run early) with a seeded policy,
        still checking everything, so that every run reaches the end; then the log. After a
        failed step, nothing: the game stays where the check failed."""
        if self.checker is None or self.failed is not None:
            return
        with self.guard():
            self.finish()

    def finish(self) -> None:
        """The teardown's work (see ``teardown``)."""
        checker = self.checker
        assert checker is not None
        state = checker.state
        if not state.finished:
            checker.check_end_now()
            choose, roll = seeded_choice(
                SeededStream(hashing.hexdigest(state.hash), "fuzz-finish"))
            while not state.finished:
                checker.play(self.pick_move(choose, roll))
                checker.check_state()
            event("game finished by the teardown policy")
        checker.check_log()
        for what in sorted(checker.seen):
            event(what)

    # ------------------------------------------------------------ steps

    def step(self, data: st.DataObject, illegal_first: bool) -> None:
        checker = self.checker
        assert checker is not None
        if checker.state.finished:
            self.after_end(data)
            return
        if illegal_first:
            self.try_last_move_again()
            wrong = self.illegal_move(data)
            if wrong is not None:
                self.expect_refused(*wrong)

        def choose(options: list[Any], label: str) -> Any:
            return data.draw(st.sampled_from(options), label=label)

        def roll() -> int:
            return data.draw(st.integers(0, 99), label="roll")

        move = self.pick_move(choose, roll)
        if illegal_first:
            for wrong in self.illegal_variants(move):
                self.expect_refused(*wrong)
        checker.play(move)

    def try_last_move_again(self) -> None:
        """The move just played, again: when ``is_legal`` refuses it, ``apply`` refuses it
        too, with a rule id, and changes nothing. (It draws nothing, so a family's draws,
        and with them the examples of a derandomized run, stay as they were.)"""
        checker = self.checker
        assert checker is not None
        if checker.played and not checker.state.is_legal(checker.played[-1]):
            self.expect_refused("the last move again", checker.played[-1], None)

    def after_end(self, data: st.DataObject) -> None:
        """Once the game is over every move is refused (one of its own, say) and nothing
        changes."""
        assert self.checker is not None
        move = data.draw(st.sampled_from(self.checker.played), label="a move of the game")
        self.expect_refused("move after the end", move, self.END_RULE)

    def expect_refused(self, kind: str, move: Any, expected: Expected) -> None:
        """``Checker.refuse``, and the statistics of what was refused."""
        assert self.checker is not None
        exc = self.checker.refuse(move, expected, kind)
        event(f"illegal move refused: {kind} ({exc.rule})")


# ---------------------------------------------------------------------------- test cases


def family_machine(fam: Family) -> type[GameMachine]:
    """The machine a family names (``Family.fuzz_machine``, a reference "module:Class" to a
    ``GameMachine`` subclass), or the generic ``GameMachine``; ``PluginError`` when the
    reference names no such class."""
    ref = fam.fuzz_machine
    if ref is None:
        return GameMachine
    found: type = load_ref(ref, type)
    if not issubclass(found, GameMachine):
        raise PluginError(f"{ref!r} (the fuzz machine of {fam.name}) is not a GameMachine")
    return found


def machine_for(name: str, mix: tuple[str, ...] = (), base: type[GameMachine] | None = None,
                players: int | None = None,
                options: Mapping[str, Any] | None = None) -> type[GameMachine]:
    """The machine (``base``, default the family's own: ``family_machine``) of one family and
    mix, with ``players`` and ``options`` pinned when given."""
    base = family_machine(family(name)) if base is None else base
    suffix = re.sub(r"\W", "_", label(name, mix))
    return type(f"{base.__name__}_{suffix}", (base,), {
        "FAMILY": name, "MIX": mix, "PLAYERS": players, "OPTIONS": dict(options or {})})


def fuzz_case(machine: type[GameMachine],
              profile: settings | None = None) -> type[unittest.TestCase]:
    """The ``unittest.TestCase`` that runs ``machine`` under ``profile`` (default ``FUZZ``)
    with its ``step_count``; a ``TestCase`` rather than a parametrized test, so that
    ``--hypothesis-show-statistics`` reports the events of each machine."""
    case: type[unittest.TestCase] = machine.TestCase
    case.settings = settings(profile or FUZZ,  # type: ignore[attr-defined]
                             stateful_step_count=machine.step_count())
    return case


# ---------------------------------------------------------------------------- fixed games


def generated(config: GameConfig) -> tuple[GameState, list[Any]]:
    """A new game of ``config`` and the moves the engine's generator plays in it (``python -m
    replay generate``), read back from their log."""
    _, raw = play_random(config)
    record = parse(log_json(family(config.game), config, raw))
    state: GameState = record.new_state()
    return state, list(record.moves)


def check_game(checker: Checker, moves: Iterable[Any]) -> Iterator[list[Event]]:
    """Play ``moves`` through ``checker``, checking the position before the first and after
    each; the events of each move."""
    checker.check_state()
    for move in moves:
        events = checker.play(move)
        checker.check_state()
        yield events


def play_out(checker: Checker, pick_move: Callable[[Choose, Roll], Any],
             pick: SeededStream) -> Checker:
    """Play the game to its end by ``pick_move`` on a seeded stream's choices (the policy of
    a machine, for the fixed-seed tests), checking every move and position, then the log."""
    choose, roll = seeded_choice(pick)
    checker.check_state()
    while not checker.state.finished:
        checker.play(pick_move(choose, roll))
        checker.check_state()
    checker.check_log()
    return checker
