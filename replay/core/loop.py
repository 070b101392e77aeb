"""The loop of ``playback.play_through``: each move applied, and what is kept after it.

Kept apart so that it can be compiled (``replay/native.py``) while ``playback`` keeps its
documented pure-Python API; every verification runs it once per move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import hashing
from .errors import IllegalMove

if TYPE_CHECKING:
    from .events import Event
    from .family import GameState

Played = tuple[list[list["Event"]], list[str], list[list[int]], dict[int, "GameState"],
               IllegalMove | None]


def run_moves(state: GameState, moves: Sequence[Any], keep_events: bool,
              every: int) -> Played:
    """Apply ``moves`` to ``state`` until one is illegal. Returns per legal move its events
    (when ``keep_events``), the state hash (``hashing.hexdigest``) and the scores after it;
    a copy of the state every ``every`` moves (none for 0), by moves played; the
    ``IllegalMove`` that stopped the loop, if one did."""
    events: list[list[Event]] = []
    hashes: list[str] = []
    scores: list[list[int]] = []
    kept: dict[int, GameState] = {}
    error: IllegalMove | None = None
    for k, move in enumerate(moves):
        try:
            if keep_events:
                events.append(state.apply(move))
            else:
                state.play(move)
        except IllegalMove as exc:
            error = exc
            break
        hashes.append(hashing.hexdigest(state.hash))
        scores.append(list(state.scores))
        if every and (k + 1) % every == 0:
            kept[k + 1] = state.copy()
    return events, hashes, scores, kept, error
