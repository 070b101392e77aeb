"""The checks every family's games go through, move by move: the fuzz profiles (``FUZZ``),
the helpers the machines draw with, and ``Checker``, which plays a move or refuses an illegal
one and checks what the family interface (``replay.core.family``) promises. The machines that
drive it are in ``replay.lab.machines`` (its docstring lists every check).

This module needs ``hypothesis`` (imported only by ``replay.lab`` and the families' fuzz
modules, never by a verification).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from ..core import hashing
from ..core.errors import IllegalMove
from ..core.events import Event
from ..core.family import Family, GameState, families, family
from ..core.record import log_json
from ..core.rng import SeededStream
from ..core.verify import verify

Choose = Callable[[list[Any], str], Any]  # picks one of the options (a label for the draw)
Roll = Callable[[], int]  # 0-99
Expected = str | Callable[[str], bool] | None  # the rule an illegal move must be refused by

# ---------------------------------------------------------------------------- profiles

HEAVY = os.environ.get("CARCASSONNE_FUZZ") == "heavy"
_COMMON: dict[str, Any] = {
    "deadline": None,  # one example is a whole game
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}
# CI: the same examples on every run (derandomized, no example database) and no shrinking (a
# failure prints its reproduce_failure blob at once), so a red CI run is the code's doing,
# reproduces anywhere and stays short; heavy: random, shrinking, with the database, to explore.
settings.register_profile("fuzz-ci", max_examples=40, derandomize=True, database=None,
                          phases=(Phase.explicit, Phase.generate), **_COMMON)
settings.register_profile("fuzz-heavy", max_examples=1000, **_COMMON)
FUZZ = settings.get_profile("fuzz-heavy" if HEAVY else "fuzz-ci")
"""The settings every property-based test of the engine starts from."""

SEEDS = st.one_of(st.integers(0, 2**32 - 1),
                  st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12))
"""Seeds of generated games: integers and the text a log may carry."""


def games() -> list[tuple[Family, tuple[str, ...]]]:
    """Every family of the registry with each mix of its expansions."""
    return [(fam, mix) for fam in families() for mix in fam.mixes()]


def label(name: str, mix: Iterable[str] = ()) -> str:
    """``family+expansion+expansion``: a family and its expansions, as labels show them."""
    return "+".join((name, *mix))


def options_for(name: str, mix: Iterable[str] = (),
                pinned: Mapping[str, Any] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Every rule option of the family that the expansions in play use, from the registry;
    those in ``pinned`` (``fuzz --option``) keep their given value. Each is drawn from its
    values simplest first (``simplest_first``): Hypothesis shrinks a draw toward the first,
    so a failing game ends on the simplest values that still fail (a 2x2 board when a 3x3
    one fails too)."""
    mix, pinned = tuple(mix), pinned or {}
    return st.fixed_dictionaries({
        o.key: st.just(pinned[o.key]) if o.key in pinned else
        st.sampled_from(simplest_first(o.choices, o.default))
        for o in family(name).options if o.expansion is None or o.expansion in mix})


def simplest_first(choices: Iterable[Any], default: Any) -> tuple[Any, ...]:
    """An option's values in the order a failing game shrinks toward: when every value holds
    numbers (``4``, ``"3x3"``, ``"9x7"``), the smallest first (by their sum, then in order);
    otherwise the default first, then the others as the family lists them."""
    values = tuple(choices)
    numbers = [_numbers(v) for v in values]
    if values and all(numbers):
        return tuple(v for _, _, _, v in sorted(
            (sum(n), n, i, v) for i, (v, n) in enumerate(zip(values, numbers, strict=True))))
    return tuple(sorted(values, key=lambda v: v != default))


def _numbers(value: Any) -> tuple[float, ...]:
    """The numbers a value holds: ``4`` (4,), ``"8x7"`` (8, 7), ``"per-city"`` () (nothing
    for true and false: a switch has no size)."""
    if type(value) is int or type(value) is float:
        return (abs(value),)
    if type(value) is str:
        return tuple(float(d) for d in re.findall(r"\d+(?:\.\d+)?", value))
    return ()


def rule_ids(fam: Family) -> re.Pattern[str]:
    """The rule ids of a family (docs/rules.md): its prefixes, its expansions', G and L."""
    prefixes = {"G", "L", *fam.rule_prefixes, *(x.rule_prefix for x in fam.expansions.values())}
    return re.compile(rf"^({'|'.join(sorted(prefixes, key=lambda p: (-len(p), p)))})\d+[a-z]?$")


def seeded_choice(pick: SeededStream) -> tuple[Choose, Roll]:
    """``choose`` and ``roll`` of a seeded stream (the policy of the fixed-seed games)."""

    def choose(options: list[Any], label: str) -> Any:
        return options[pick.below(len(options))]

    return choose, lambda: pick.below(100)


# ---------------------------------------------------------------------------- the checker


class Checker:
    """Checks one game move by move: ``play`` plays and checks a move, ``refuse`` an illegal
    one, ``check_state`` the position, ``check_log`` the round trip through a log,
    ``check_end_now`` an early end.
    ``seen`` counts the interesting states the game reached (``saw``), for ``event()`` and the
    fixed-seed tests; ``trying`` is the move being played or refused (None between moves), so
    that a failure can be written as the log of the game up to it (``fuzz_run.game_of``).

    Hooks for a family's own invariants (each a no-op here):

    * ``before_move(move)``: what ``check_move`` needs to know of the position before ``move``;
    * ``check_move(move, events, before)``: the move just played and its events;
    * ``check_position()``: the position, after the generic checks;
    * ``fingerprint(state)``: everything of a position a move could change (an illegal move
      must leave all of it as it was; a copy must agree with its original);
    * ``order(moves)``: the legal moves in the order they are drawn from (default: the
      family's own, fixed order).
    """

    COPY_EVERY: ClassVar[int] = 24  # the moves played on a copy first: one in COPY_EVERY
    IS_LEGAL_EVERY: ClassVar[int] = 1  # the refused moves is_legal is asked about too

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.family = state.family
        self.config = state.config
        self.names = [p.name for p in self.config.players]
        self.rule_id = rule_ids(self.family)
        self.played: list[Any] = []  # the moves played
        self.moves: list[dict[str, Any]] = []  # and as a log writes them
        self.hashes: list[str] = []  # the state hash after each
        self.seen: Counter[str] = Counter()
        self.tally = [0] * len(self.names)  # the points of the score events, per seat
        self.refused = 0  # illegal moves refused
        self.trying: tuple[str, Any] | None = None  # the move being played or refused, and how
        self._legal: tuple[int, int, list[Any]] = (-1, 0, [])
        self.check_shared_events(state.setup_events, state)

    # ------------------------------------------------------------ hooks

    def before_move(self, move: Any) -> Any:
        """What ``check_move`` needs to know of the position before ``move`` is played."""
        return None

    def check_move(self, move: Any, events: list[Event], before: Any) -> None:
        """A family's checks of the move just played (``before``: ``before_move``'s)."""

    def check_position(self) -> None:
        """A family's invariants of the current position."""

    def fingerprint(self, state: GameState) -> tuple[Any, ...]:
        """Everything of ``state`` a move could change (a family lists its own)."""
        return (state.hash, tuple(state.scores), state.moves_played, state.finished,
                state.current_player,
                tuple(tuple(sorted(state.supply_of(s).items())) for s in range(len(self.names))))

    def order(self, moves: list[Any]) -> list[Any]:
        """The legal moves of a position in the order they are drawn from."""
        return moves

    # ------------------------------------------------------------ moves

    def saw(self, what: str) -> None:
        self.seen[what] += 1

    def legal(self) -> list[Any]:
        """The legal moves of the position, in ``order`` (computed once per position)."""
        state = self.state
        key = (state.moves_played, state.hash)
        if self._legal[:2] != key:
            self._legal = (*key, self.order(list(state.legal_moves())))
        return self._legal[2]

    def play(self, move: Any) -> list[Event]:
        """Play a legal ``move`` and check it; its events."""
        state = self.state
        played = state.moves_played
        self.trying = ("played", move)
        before = self.before_move(move)
        if played % self.COPY_EVERY == 0:
            events = self._play_on_a_copy_first(move)
        else:
            events = state.apply(move)
        assert state.moves_played == played + 1, "a move counts once"
        raw = self.family.encode_move(move)
        assert self.family.decode_move(raw, f"/moves/{played}") == move, (
            f"encode_move/decode_move: {move} -> {raw} -> another move")
        self.played.append(move)
        self.moves.append(raw)
        self.trying = None  # played: a failure from here on is after it
        self.hashes.append(state.state_hash)
        self.check_shared_events(events, state)
        self.check_move(move, events, before)
        return events

    def check_shared_events(self, events: list[Event], state: GameState,
                     tally: list[int] | None = None) -> None:
        """The events every game shares: ``score`` (added to ``tally``, default the game's)
        and ``end``: one, last, when the game is over, with its scores and winners."""
        tally = self.tally if tally is None else tally
        ends = 0
        for e in events:
            if e.type == "score":
                points, winners = e.to_json()["points"], e.to_json()["winners"]
                assert type(points) is int and points >= 0, f"points are never negative: {e}"
                assert winners == sorted(set(winners)), f"winners are seats, in order: {e}"
                assert all(0 <= p < len(tally) for p in winners), e
                for p in winners:
                    tally[p] += points
            elif e.type == "end":
                ends += 1
                data = e.to_json()
                assert data["scores"] == state.scores, f"the end event's scores: {e}"
                best = max(state.scores)
                assert data["winners"] == [p for p, s in enumerate(state.scores) if s == best], (
                    f"G11: every best score wins: {e}")
                self.saw("game finished")
                if len(data["winners"]) > 1:
                    self.saw("shared victory")
        assert ends == (1 if state.finished else 0), "one end event, when the game ends"
        assert not ends or events[-1].type == "end", "the end event comes last"

    def _play_on_a_copy_first(self, move: Any) -> list[Event]:
        """``move`` on a copy, then on the state: the copy is independent, ``check`` changes
        nothing, and both give the same events and the same position (determinism)."""
        state = self.state
        mark = self.fingerprint(state)
        probe = state.copy()
        assert probe.hash == state.hash and self.fingerprint(probe) == mark, "copy() differs"
        probe.check(move)
        assert self.fingerprint(probe) == mark, "check() changed the position"
        mirrored = [e.to_json() for e in probe.apply(move)]
        assert self.fingerprint(state) == mark, "a move played on a copy changed the original"
        events = state.apply(move)
        assert [e.to_json() for e in events] == mirrored, "the same move, other events"
        assert self.fingerprint(probe) == self.fingerprint(state), (
            "the same move on a copy led to another position")
        self.saw("move played on a copy too")
        return events

    def refuse(self, move: Any, expected: Expected = None,
               kind: str = "illegal move") -> IllegalMove:
        """The illegal ``move`` raises ``IllegalMove`` naming an ``expected`` rule (None: any
        rule of the family), with the move number and the player, and nothing changes
        (``GameState.apply`` is atomic); ``is_legal`` refuses it too (one time in
        ``IS_LEGAL_EVERY``: it may cost more than ``apply``). The exception."""
        state = self.state
        self.trying = (kind, move)
        mark = self.fingerprint(state)
        seat, played = state.current_player, state.moves_played
        try:
            state.apply(move)
        except IllegalMove as exc:
            assert self.fingerprint(state) == mark, (
                f"{kind}: the illegal move raised {exc.rule} ({exc.message}) but changed the "
                "state; an illegal move must leave it untouched (GameState.apply)")
            assert self.rule_id.match(exc.rule), f"{exc.rule!r} is not a rule id ({kind})"
            ok = expected is None or (exc.rule == expected if isinstance(expected, str)
                                      else expected(exc.rule))
            assert ok, f"{kind}: {move} raised {exc.rule}: {exc.message}"
            assert exc.message and exc.rule in str(exc)
            assert exc.move == played, f"{kind}: IllegalMove.move {exc.move}, not {played}"
            if seat is not None:
                assert exc.player == self.names[seat], f"{kind}: player {exc.player}"
            refused = exc
        else:
            raise AssertionError(f"{kind}: the illegal move {move} was accepted")
        if self.refused % self.IS_LEGAL_EVERY == 0:
            assert not state.is_legal(move), f"{kind}: is_legal accepts {move}"
        self.refused += 1
        self.trying = None
        return refused

    # ------------------------------------------------------------ positions

    def check_state(self) -> None:
        """The generic invariants of the position, with ``check_position``'s."""
        state = self.state
        assert state.state_hash == hashing.hexdigest(state.hash)
        scratch = getattr(state, "hash_from_scratch", None)
        if scratch is not None:
            assert state.hash == scratch(), "L4: the incremental hash != the one from scratch"
        self.check_scores(state)
        assert state.scores == self.tally, (
            f"scores {state.scores} differ from the sum of the score events {self.tally}")
        seat = state.current_player
        assert state.finished == (seat is None), "nobody is to move exactly when it is over"
        assert seat is None or 0 <= seat < len(self.names)
        self.check_position()
        if self._legal[:2] == (state.moves_played, state.hash):  # check_position's
            some = bool(self._legal[2])
        else:
            some = next(iter(state.legal_moves()), None) is not None
        assert some != state.finished, (
            "a finished game has no legal move, a game going on has one")

    def check_scores(self, state: GameState) -> None:
        assert len(state.scores) == len(self.names), "one score per seat"
        assert all(type(s) is int and s >= 0 for s in state.scores), (
            f"scores are never negative: {state.scores}")

    def check_end_now(self) -> None:
        """``end_now`` on a copy: that game is over, scored, and the original untouched."""
        state = self.state
        if state.finished:
            return
        mark = self.fingerprint(state)
        probe = state.copy()
        events = probe.end_now()
        assert self.fingerprint(state) == mark, "end_now on a copy changed the original"
        assert probe.finished and probe.current_player is None
        assert next(iter(probe.legal_moves()), None) is None, "legal moves after end_now"
        self.check_scores(probe)
        tally = list(self.tally)
        self.check_shared_events(events, probe, tally)
        assert probe.scores == tally, "end_now: the scores are not the sum of the score events"
        self.saw("ended early (end_now)")

    def check_log(self) -> None:
        """The game written as a log (``log_json``) verifies, with the same state hash after
        every move and the same scores: legal_moves -> apply -> verify."""
        state = self.state
        report = verify(log_json(self.family, self.config, self.moves))
        assert report.valid, report.line()
        assert report.finished == state.finished
        assert report.hashes == self.hashes, "verify gives other state hashes"
        assert list(report.final_scores.values()) == state.scores
