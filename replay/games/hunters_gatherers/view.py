"""Hunters & Gatherers' view (``replay.tiles.view``): the tile families' boards and words, and
the bonus tile a turn earned (HG7), told in the move list and on the analysis board's menu."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.events import Event
from ...core.family import GameState
from ...tiles.view import TileView
from ...tiles.words import move_figure


class HuntersGatherersView(TileView):
    """See the module."""

    def choice_words(self, state: GameState, move: Any) -> str:
        """HG7: the bonus tile of a move, where it goes and its figure."""
        bonus = getattr(move, "bonus", None)
        if bonus is None:
            return ""
        if bonus.discard:
            return f"then the bonus tile {bonus.tile}, which fits nowhere, is discarded"
        turned = f", turned {bonus.rotation}°" if bonus.rotation else ""
        tiles = getattr(state, "tiles_by_id", {})
        figure = move_figure(bonus, state, tiles.get(bonus.tile)) or "no figure"
        return f"then the bonus tile {bonus.tile} at ({bonus.x},{bonus.y}){turned} · {figure}"

    def turn_words(self, events: Sequence[Event]) -> tuple[list[str], list[str]]:
        """The bonus tile the turn earned (HG7), with its figure, or its discard."""
        from .words import bonus_words

        return bonus_words(events)
