"""The analysis board of the tile-laying families (``replay.core.explore``): the legal moves
of the tile drawn; a table log draws the tile of each move (the variation follows the log's
tile while it is left in the pile); the empty cells next to the board where the tile fits
nowhere are told why (the verifier's words for the tile put there unturned). What a move and
a cell are called is the view's (``replay.tiles.view.TileView``: ``menu``, ``spot_name``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.explore import Explorer
from ..core.family import GameState
from .state import TileState

NEIGHBOURS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _tiles(state: GameState) -> TileState:
    assert isinstance(state, TileState)
    return state


class TileExplorer(Explorer):
    """See the module."""

    def draw_of(self, state: GameState, move: Any) -> str | None:
        if state.config.seed is not None:
            return None
        tile: str | None = getattr(move, "tile", None)
        return tile

    def moves(self, state: GameState, draw: str | None) -> Iterator[Any]:
        game = _tiles(state)
        if draw is None or game.config.seed is not None:
            yield from game.legal_moves()
            return
        tile = game.tiles_by_id.get(draw)
        if tile is not None and game.remaining.get(draw, 0) > 0 and game._may_draw(tile):
            yield from game.legal_moves_of(tile)

    def draws(self, state: GameState) -> list[str]:
        game = _tiles(state)
        if game.config.seed is not None or game.finished:
            return []
        return [t.id for t in game.tileset.tiles
                if game.remaining.get(t.id, 0) > 0 and game._may_draw(t)]

    def attempts(self, state: GameState, draw: str | None,
                 legal: set[str]) -> Iterator[tuple[str, Any]]:
        game = _tiles(state)
        seen: set[tuple[int, int]] = set()
        for x, y in sorted(game.board):
            for dx, dy in NEIGHBOURS:
                cell = (x + dx, y + dy)
                if cell in game.board or cell in seen:
                    continue
                seen.add(cell)
                spot = f"{cell[0]},{cell[1]}"
                if spot in legal:
                    continue
                raw: dict[str, Any] = {"x": cell[0], "y": cell[1], "rotation": 0}
                if draw is not None:
                    raw["tile"] = draw
                yield spot, self.family.decode_move(raw, "")
