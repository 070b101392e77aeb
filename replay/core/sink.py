"""Where the events of a move go: ``EventSink``.

A move's events (``core.events``) are for a caller that shows them: ``apply``, the viewer,
``replay.steps``, the goldens. The verifier and the generator keep none (``GameState.play``).
A tile-laying state sends every event of the move being played to one object, its ``sink``:
a sink that keeps them, or ``DROP``, which keeps nothing. Building an event costs (its cells,
its words, an interpreted constructor): where it does, the rules ask ``sink.keeps`` first, so
that the verifier's path builds no event at all. Compiled with the engine (``native.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from .events import Event


@mypyc_attr(serializable=True)  # a state pickles (tiles/snapshot.py)
class EventSink:
    """The events of the move being played: kept in ``events`` when ``keeps``, else none."""

    keeps: bool
    events: list[Event]

    def __init__(self, keeps: bool = True) -> None:
        self.keeps = keeps
        self.events = []

    def add(self, event: Event) -> None:
        """Record an event (dropped by a sink that does not keep them)."""
        if self.keeps:
            self.events.append(event)

    def copy(self) -> EventSink:
        """The sink of a copy of the state: the same events, in a list of its own (``DROP``
        itself, which never holds one)."""
        if self is DROP:
            return self
        sink = EventSink(self.keeps)
        sink.events = list(self.events)
        return sink

    def take(self) -> list[Event]:
        """The events recorded so far; the sink starts again empty."""
        events = self.events
        self.events = []
        return events


DROP: Final = EventSink(keeps=False)
"""The sink of a caller that keeps no events (shared: it never holds one)."""
