"""The replay loop: a record's moves applied one by one to its family's state.

``play_through(record)`` replays a whole log once and keeps, per move, its events, the state
hash and the scores after it (the verifier and the viewer read these), plus a copy of the state
every ``CHECKPOINT`` moves, so that any position is at most a few moves away
(``Playback.position(n)``). ``steps(record)`` walks a log move by move for a library user.

Position ``n`` is the state after the first ``n`` moves. When move ``k`` (0-based) is illegal,
position ``k + 1`` is its *failing position*: the state before that move, with the ``Failure``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from . import hashing
from .errors import IllegalMove
from .loop import run_moves
from .values import value, value_type

if TYPE_CHECKING:
    from .events import Event
    from .family import GameState
    from .record import GameRecord

CHECKPOINT = 16  # moves between two kept copies of the state


@value
class Failure:
    """The illegal move a failing position shows."""

    index: int  # 0-based index of the move in the log
    player: str | None
    rule: str
    message: str
    move: Any

    def text(self) -> str:
        who = f" ({self.player})" if self.player else ""
        return f"Move {self.index + 1}{who} is illegal: {self.rule}: {self.message}"


@value
class Step:
    """One move of a log as ``steps`` yields it: the move, its events and the state after it.

    ``state`` is the live state of the walk: copy it (``state.copy()``) to keep it."""

    index: int  # 0-based index of the move in the log
    move: Any
    events: list[Event]
    state: GameState

    @property
    def state_hash(self) -> str:
        return self.state.state_hash


@value
class Position:
    """Position ``n`` of a log: the state after ``n`` moves and what to show with it."""

    n: int
    state: GameState
    events: list[Event]  # the events of move n (the setup's at 0; none for a failing one)
    failure: Failure | None


class Playback:
    """A log replayed as far as it is legal."""

    record: GameRecord
    state: GameState  # the last legal position
    events: list[list[Event]]  # per move played (empty lists when not kept)
    hashes: list[str]  # the state hash after each move
    scores: list[list[int]]  # the scores after each move
    error: IllegalMove | None
    checkpoints: dict[int, GameState]

    def __init__(self, record: GameRecord, state: GameState, events: list[list[Event]],
                 hashes: list[str], scores: list[list[int]], error: IllegalMove | None,
                 checkpoints: dict[int, GameState] | None = None) -> None:
        self.record = record
        self.state = state
        self.events = events
        self.hashes = hashes
        self.scores = scores
        self.error = error
        self.checkpoints = {} if checkpoints is None else checkpoints

    @property
    def last(self) -> int:
        """The number of the last position: the moves played, plus one for a failing move."""
        return len(self.hashes) + (1 if self.error is not None else 0)

    def failure(self) -> Failure | None:
        e = self.error
        if e is None:
            return None
        index = e.move if e.move is not None else len(self.hashes)
        return Failure(index, e.player, e.rule, e.message, self.record.moves[index])

    def position(self, n: int | None = None) -> Position:
        """Position ``n`` (default: the last). Raises ``IndexError`` when the log has no such
        position (negative, beyond its moves, or after its failing move)."""
        last = self.last
        if n is None:
            n = last
        if n < 0 or n > len(self.record.moves):
            raise IndexError(f"position {n} is not in this game (0 to "
                             f"{len(self.record.moves)})")
        if n > last:
            raise IndexError(f"position {n} is not in this game: move {last} is illegal")
        failure = self.failure() if self.error is not None and n == last else None
        if failure is not None:
            return Position(n, self._state_at(n - 1), [], failure)
        if n == 0:
            state = self._state_at(0)
            return Position(0, state, list(state.setup_events), None)
        state = self.state.copy() if n == len(self.hashes) else self._state_at(n)
        return Position(n, state, list(self.events[n - 1]) if self.events else [], None)

    def _state_at(self, n: int) -> GameState:
        """A fresh copy of the state after ``n`` legal moves."""
        if n == len(self.hashes) and n:
            return self.state.copy()
        base = max((k for k in self.checkpoints if k <= n), default=None)
        if base is None:
            state: GameState = self.record.new_state()
            base = 0
        else:
            state = self.checkpoints[base].copy()
        for move in self.record.moves[base:n]:
            state.apply(move)
        return state


def play_through(record: GameRecord, upto: int | None = None, keep_events: bool = True,
                 checkpoints: bool = True) -> Playback:
    """Replay ``record`` (its first ``upto`` moves) and stop at the first illegal move."""
    state = record.new_state()
    moves = record.moves if upto is None else record.moves[:upto]
    events, hashes, scores, kept, error = run_moves(state, moves, keep_events,
                                                    CHECKPOINT if checkpoints else 0)
    if (error is None and record.end_after_last_move and not state.finished
            and state.moves_played == len(record.moves) and hashes):
        final = state.end_now()
        if keep_events:
            events[-1].extend(final)
        hashes[-1] = hashing.hexdigest(state.hash)
        scores[-1] = list(state.scores)
    return Playback(record, state, events, hashes, scores, error, kept)


def branch(played: Playback, record: GameRecord, base: int) -> Playback:
    """The playback of ``record``, whose first ``base`` moves are those of ``played.record``
    (legal there: ``base <= len(played.hashes)``), replayed only from ``played``'s checkpoint
    at ``base``: the first ``base`` moves' events, hashes, scores and checkpoints are
    ``played``'s own (shared, never changed: a position copies its checkpoint), the moves
    after them are played on a copy of the state at ``base``. The same as
    ``play_through(record)``, at the cost of the moves after ``base`` and at most
    ``CHECKPOINT`` before it (the analysis board's variations, issue 36)."""
    if not 0 <= base <= len(played.hashes):
        raise ValueError(f"a branch starts at a legal position (0 to {len(played.hashes)}), "
                         f"not {base}")
    start = base
    if start and start == len(played.hashes) and played.record.end_after_last_move:
        start -= 1  # the last move's events, hash and scores hold the end scoring there
    state = played._state_at(start) if start else record.new_state()
    moves = record.moves[start:]
    events, hashes, scores, kept, error = run_moves(state, moves, True, 0)
    if (error is None and record.end_after_last_move and not state.finished
            and state.moves_played == len(record.moves) and hashes):
        final = state.end_now()
        events[-1].extend(final)
        hashes[-1] = hashing.hexdigest(state.hash)
        scores[-1] = list(state.scores)
    checkpoints = {k: s for k, s in played.checkpoints.items() if k <= start}
    return Playback(record, state, played.events[:start] + events,
                    played.hashes[:start] + hashes, played.scores[:start] + scores, error,
                    checkpoints)


def steps(record: GameRecord) -> Iterator[Step]:
    """Walk a log move by move: each legal move with its events and the state after it.

    Stops with the ``IllegalMove`` of the first illegal move (raised to the caller)."""
    state = record.new_state()
    n = len(record.moves)
    for k, move in enumerate(record.moves):
        events = state.apply(move)
        if (k == n - 1 and record.end_after_last_move and not state.finished
                and state.moves_played == n):
            events = events + state.end_now()
        yield Step(k, move, events, state)


value_type(Playback, frozen=False)
