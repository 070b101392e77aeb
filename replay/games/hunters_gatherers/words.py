"""Hunters & Gatherers' words for its turns: the bonus tile a turn earned (HG7), placed with its
figure or discarded, told after the land tile in the move list (``TileView.turn_words``)."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.events import Event
from ...tiles.events import Discard, FigurePlaced, Place
from ...tiles.words import figure_code, figure_text

BONUS_RULE = "HG7"  # the rule a bonus tile is played (or discarded) under


def bonus_words(events: Sequence[Event]) -> tuple[list[str], list[str]]:
    """The bonus tile of a turn and its figure, or its discard, in words and in codes
    (``bonus tile: a forest with gold at (2,0) · hunter in the meadow``; ``bonus HG-12 (2,0)
    90°``): the figure as its event says it (``tiles.words.told_figure``)."""
    words: list[str] = []
    codes: list[str] = []
    in_bonus = False
    for e in events:
        if isinstance(e, Place) and e.bonus:
            in_bonus = True
            turned = f", turned {e.rotation}°" if e.rotation else ""
            words.append(f"bonus tile: {e.words or 'a tile'} at ({e.x},{e.y}){turned}")
            codes.append(f"bonus {e.tile} ({e.x},{e.y}) {e.rotation}°")
        elif isinstance(e, FigurePlaced) and in_bonus:
            words.append(figure_text(e, None) or "")
            codes.append(figure_code(e, None) or "")
        elif isinstance(e, Discard) and e.rule == BONUS_RULE:
            words.append(f"bonus tile {e.words or ''} fits nowhere and is discarded")
            codes.append(f"bonus {e.tile} discarded")
    return words, codes
