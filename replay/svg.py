"""Pictures of positions as SVG, for every game family (python-chess's ``chess.svg``).

``board(state, ...)`` draws any state: a pure function of it (the family's view draws, see
``replay.core.view``). ``render(record, n)`` draws position ``n`` of a log (the state after
its first ``n`` moves) with the events of move ``n`` and the wrong claims (L2) at that
position; the CLI (``python -m replay render``) and the web viewer both call it, so they draw
the same picture.
When move ``k`` (0-based) is illegal, position ``k + 1`` shows the state before it with the
attempted move in red and the rule and reason written on the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from .core.colours import player_colour
from .core.events import Event
from .core.family import GameState
from .core.playback import Failure, Position
from .core.record import GameRecord
from .core.verify import Report, claims_at, judge
from .core.view import view_of

__all__ = ["Failure", "Position", "board", "claim_notes", "player_colour", "position", "render"]


def board(state: GameState, *, events: Sequence[Event] = (), failure: Failure | None = None,
          notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-") -> str:
    """An SVG picture of ``state``.

    ``events`` are the events of the move just played (its tiles outlined, the features it
    scored emphasized with their points, returned figures faded); ``failure`` draws an illegal
    move over the board; ``notes`` are written above it. ``size`` sets the width in pixels (by
    default the picture fills its container); ``prefix`` keeps the ids of several pictures on
    one page apart."""
    return view_of(state.family).board(state, events=events, failure=failure, notes=notes,
                                       size=size, prefix=prefix)


def position(record: GameRecord, n: int | None = None) -> Position:
    """Position ``n`` of a log (default: the last), from its kept playback. Raises
    ``IndexError`` when the log has no such position."""
    return record.playback.position(n)


def claim_notes(record: GameRecord, n: int, report: Report | None = None) -> tuple[str, ...]:
    """The wrong claims (L2) of the log at position ``n``, as lines for people: the
    verifier's own words."""
    report = report or judge(record, record.playback)
    return tuple(f"L2: {c.message}" for c in claims_at(report, n, len(record.moves)))


def render(record: GameRecord, n: int | None = None, *, size: int | None = None,
           prefix: str = "cr-", report: Report | None = None) -> str:
    """The picture of position ``n`` of ``record`` (see ``position``)."""
    pos = position(record, n)
    notes: tuple[str, ...] = ()
    if pos.failure is None:
        notes = claim_notes(record, pos.n, report)
    return board(pos.state, events=pos.events, failure=pos.failure, notes=notes, size=size,
                 prefix=prefix)
