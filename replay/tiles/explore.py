"""The analysis board of the tile-laying families (``replay.core.explore``): a move's spot is
the cell its tile goes to ("x,y"), named by what it touches (``spot_name``); its menu the
rotation, then the figure as a player says it ("farmer in the field", "no figure" included),
then what else the family's move holds; the empty cells next to the board where
the tile fits nowhere are told why (the verifier's words for the tile put there unturned).
A table log draws the tile of each move: the variation follows the log's tile while it is
left in the pile."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..core.events import article
from ..core.explore import Explorer
from ..core.family import GameState
from ..core.view import view_of
from .board import SIDE_WORDS
from .state import TileState
from .words import and_list, move_figure, turned

TILE_KEYS = frozenset({"x", "y", "rotation", "tile", "figure", "discard", "scores"})
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

    def draw_label(self, state: GameState, draw: str) -> str:
        tile = _tiles(state).tiles_by_id.get(draw)
        return f"{tile.words} ({draw})" if tile is not None else f"tile {draw}"

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

    def place(self, state: GameState, move: Any) -> tuple[str, str, tuple[str, ...]]:
        if getattr(move, "discard", False):
            return "", "", ("discard the tile: it fits nowhere (G5)",)
        game = _tiles(state)
        tile = game.tiles_by_id.get(move.tile) if move.tile else game.current
        figure = move_figure(move, state, tile) or "no figure"
        extra = self.extra_words(state, move)
        return f"{move.x},{move.y}", "", (turned(move.rotation), figure,
                                          *((extra,) if extra else ()))

    def spot_label(self, spot: str) -> str:
        return f"cell ({spot})"

    def spot_name(self, state: GameState, spot: str) -> str:
        """An open cell named by what it touches, then its coordinates: ``next to the
        cloister at (0,0), touching a field (north) · (0,1)``, ``touching a city (north) and a
        road (west) · (2,-1)``."""
        game = _tiles(state)
        x, _, y = spot.partition(",")
        try:
            cell = (int(x), int(y))
        except ValueError:
            return self.spot_label(spot)
        key = game.frontier.get(cell, "....")
        sides: dict[str, list[str]] = {}
        for s, letter in enumerate(key):
            if letter != ".":
                sides.setdefault(game.terrain(letter), []).append(SIDE_WORDS[s])
        parts = []
        cloisters = sorted(game.near_cloisters.get(cell, ()))
        if cloisters:
            at = and_list([f"({cx},{cy})" for cx, cy in cloisters])
            parts.append(f"next to the cloister{'s' * (len(cloisters) > 1)} at {at}")
        if sides:
            parts.append("touching " + and_list([f"{article(what)} ({', '.join(where)})"
                                                 for what, where in sides.items()]))
        return f"{', '.join(parts) or 'cell'} · ({cell[0]},{cell[1]})"

    def extra_words(self, state: GameState, move: Any) -> str:
        """What a move holds beyond its tile and figure (a flock choice, a bonus tile...),
        in the log's own fields."""
        told = getattr(view_of(self.family), "choice_words", None)
        if told is not None and (words := told(state, move)):
            return str(words)
        raw = self.family.encode_move(move)
        parts = [f"{k}: {json.dumps(v, separators=(', ', ': '), ensure_ascii=False)}"
                 for k, v in raw.items() if k not in TILE_KEYS]
        return "; ".join(parts)

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
