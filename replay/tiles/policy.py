"""The generator's policy for a tile, shared by the tile games: what ``python -m replay
generate`` plays. Compiled with the engine (``replay/native.py``): it runs on every move of
every generated game."""

from __future__ import annotations

from typing import Any, Final

from .moves import TileMove

FIGURE_RATE: Final = 600  # the generator puts a figure on 600 moves in 1000 (when it can)


def random_placement(state: Any, tile: Any, pick: Any, move_class: type = TileMove) -> Any:
    """The generator's policy for a tile: a placement drawn from the sorted legal ones, then,
    on ``FIGURE_RATE`` moves in 1000, a figure drawn from the legal choices; a move of
    ``move_class``."""
    x, y, rot = state.pick_placement(tile, pick)
    figure = None
    if pick.below(1000) < FIGURE_RATE:
        figs = state.figure_options(tile, x, y, rot)
        if figs:
            figure = figs[pick.below(len(figs))]
    return move_class(x, y, rot, tile.id, figure)
