"""A game state that wraps another family's and asks it everything: the base of the test
families that change one thing of Carcassonne (``broken_family``: a refused move counted;
``handicap_family``: points for the first seat at the end). A subclass overrides what it
changes and ``family``, ``apply`` and ``copy``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from replay.core.events import Event
from replay.core.family import GameConfig, GameState
from replay.core.rng import SeededStream


class WrappedState(GameState):
    """``inner``'s rules and position under the configuration ``config`` (see the module)."""

    def __init__(self, inner: GameState, config: GameConfig) -> None:
        self.inner = inner
        self.config = config

    @property
    def scores(self) -> list[int]:  # type: ignore[override]
        return self.inner.scores

    @property
    def finished(self) -> bool:  # type: ignore[override]
        return self.inner.finished

    @property
    def moves_played(self) -> int:  # type: ignore[override]
        return self.inner.moves_played

    @property
    def hash(self) -> int:  # type: ignore[override]
        return self.inner.hash

    @property
    def setup_events(self) -> list[Event]:  # type: ignore[override]
        return self.inner.setup_events

    @property
    def current_player(self) -> int | None:
        return self.inner.current_player

    def legal_moves(self) -> Iterator[Any]:
        return self.inner.legal_moves()

    def check(self, move: Any) -> None:
        self.inner.check(move)

    def end_now(self) -> list[Event]:
        return self.inner.end_now()

    def redraw_hidden(self, seat: int, rng: SeededStream) -> None:
        self.inner.redraw_hidden(seat, rng)

    def supply_of(self, seat: int) -> dict[str, int]:
        return self.inner.supply_of(seat)

    def status(self) -> dict[str, Any]:
        return self.inner.status()
