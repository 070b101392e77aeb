"""Who is really ahead: at every position of a replayed log, the scores if the game ended there.

Scores during a game hide the points only the end scores (a tile-laying game's unfinished
features, the round under way of a game scored by rounds). ``if_ended_now(playback)`` gives,
for every position ``0 .. playback.last``, the scores of a copy of that position ended there by
its family (``GameState.end_now``, the scoring of a log ending ``"after-last-move"``): the
equivalent of a chess site's evaluation graph, exact rather than estimated.

It walks the log once on a state of its own (``play``, which keeps no events) and ends a copy
at each position, so the playback and its states are left as they are. A finished position's
value is its own scores; a failing position (the last of a log with an illegal move) shows the
state before that move, so its value is the one before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .family import GameState
    from .playback import Playback


def ended_scores(state: GameState) -> list[int]:
    """The scores of ``state`` if the game ended now; ``state`` is left unchanged."""
    return list(state.scores) if state.finished else state.scores_if_ended()


def if_ended_now(playback: Playback, start: int = 0) -> list[list[int]]:
    """The scores if the game ended at each position ``start .. playback.last`` (see the
    module), one list of scores (by seat) per position; ``start`` is a legal position (at most
    the moves played), reached from the playback's checkpoint before it."""
    record = playback.record
    state = record.new_state() if start == 0 else playback.position(start).state
    out = [ended_scores(state)]
    for move in record.moves[start:len(playback.hashes)]:
        state.play(move)
        out.append(ended_scores(state))
    if playback.error is not None:  # the failing position shows the state before its move
        out.append(list(out[-1]))
    return out
