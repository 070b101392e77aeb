"""The view of the tile-laying families (``replay.core.view``): their boards drawn by
``drawing.board`` in one pass, with the analysis board's spots over the cells and the scored
features linked to their explanations; the tile drawn, on its own; each move in words
(``words.describe_move``) and the playthrough's lines; the analysis board's words (a move's
cell and menu, a cell named by what it touches, a table log's tiles). A tile family brings its
own words in a subclass: what a turn did besides its tile and figure (``turn_words``), what a
legal move holds beyond them (``choice_words``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.events import Event, article
from ..core.family import GameState, MoveText
from ..core.view import View
from . import words
from .board import SIDE_WORDS
from .state import TileState

TILE_KEYS = frozenset({"x", "y", "rotation", "tile", "figure", "discard", "scores"})
NO_FIGURE = "no figure"  # the menu's step of a move that puts none


def _tiles(state: GameState) -> TileState:
    assert isinstance(state, TileState)
    return state


class TileView(View):
    """See the module."""

    def board(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
              notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-",
              spots: Mapping[str, str] | None = None,
              spot_names: Mapping[str, str] | None = None, linked: bool = False,
              ghost: Sequence[Any] = ()) -> str:
        from . import drawing  # on first use: the command line's verify draws nothing

        return drawing.board(_tiles(state), events=events, failure=failure, notes=notes,
                             size=size, prefix=prefix, spots=spots, spot_names=spot_names,
                             linked=linked, ghost=ghost)

    def next_piece(self, state: GameState, size: int = 56) -> str:
        """The drawn tile on its own ("" when none is drawn: a table game, or the end)."""
        game = _tiles(state)
        if game.current is None or game.finished:
            return ""
        from .art import tile_picture

        return tile_picture(game.current, size=size, prefix="next-")

    def next_piece_words(self, state: GameState) -> str:
        """The drawn tile in words (``a city cap``), "" when none is drawn."""
        game = _tiles(state)
        return "" if game.current is None or game.finished else str(game.current.words or "")

    def describe_move(self, move: Any, events: Sequence[Event] | None,
                      state: GameState) -> MoveText:
        """The tile in words, where it went, its figure (``words.describe_move``), then what
        else the turn did (``turn_words``)."""
        return words.describe_move(move, events, state, *self.turn_words(events or ()))

    def turn_words(self, events: Sequence[Event]) -> tuple[list[str], list[str]]:
        """What a turn did besides placing its tile and figure, in words and in codes, for
        the move list (``describe_move`` tells it last): nothing, in a game whose turn is one
        tile; a family whose turns do more tells it."""
        return [], []

    def choice_words(self, state: GameState, move: Any) -> str:
        """What a legal move holds beyond its tile and figure, in words, for the analysis
        board's menu ("" when nothing: the board then shows the move's other fields as the log
        writes them); a family whose moves hold more tells it."""
        return ""

    # ---------------------------------------------------------------- the analysis board

    def menu(self, state: GameState, move: Any) -> tuple[str, str, tuple[str, ...]]:
        """A move's spot is the cell its tile goes to ("x,y"); its menu the rotation, then
        the figure as a player says it (``farmer in the field``, ``no figure``), then what
        else the family's move holds (``choice_words``, else the log's own fields)."""
        if getattr(move, "discard", False):
            return "", "", ("discard the tile: it fits nowhere (G5)",)
        game = _tiles(state)
        tile = game.tiles_by_id.get(move.tile) if move.tile else game.current
        figure = words.move_figure(move, state, tile) or NO_FIGURE
        extra = self.extra_words(state, move)
        return f"{move.x},{move.y}", "", (words.turned(move.rotation), figure,
                                          *((extra,) if extra else ()))

    def option_text(self, state: GameState, move: Any, steps: tuple[str, ...]) -> str:
        """``describe_move``'s text, from the figure the menu has told already."""
        if getattr(move, "discard", False) or len(steps) < 2:
            return super().option_text(state, move, steps)
        return words.tried_text(move, state, None if steps[1] == NO_FIGURE else steps[1])

    def spot_name(self, state: GameState, spot: str) -> str:
        """An open cell named by what it touches, then its coordinates: ``next to the
        cloister at (0,0), touching a field (north) · (0,1)``, ``touching a city (north) and a
        road (west) · (2,-1)``."""
        game = _tiles(state)
        x, _, y = spot.partition(",")
        try:
            cell = (int(x), int(y))
        except ValueError:
            return f"cell ({spot})"
        key = game.frontier.get(cell, "....")
        sides: dict[str, list[str]] = {}
        for s, letter in enumerate(key):
            if letter != ".":
                sides.setdefault(game.terrain(letter), []).append(SIDE_WORDS[s])
        parts = []
        cloisters = sorted(game.near_cloisters.get(cell, ()))
        if cloisters:
            at = words.and_list([f"({cx},{cy})" for cx, cy in cloisters])
            parts.append(f"next to the cloister{'s' * (len(cloisters) > 1)} at {at}")
        if sides:
            parts.append("touching " + words.and_list(
                [f"{article(what)} ({', '.join(where)})" for what, where in sides.items()]))
        return f"{', '.join(parts) or 'cell'} · ({cell[0]},{cell[1]})"

    def draw_label(self, state: GameState, draw: str) -> str:
        """A tile of a table log's pile: ``a city cap (E)``."""
        tile = _tiles(state).tiles_by_id.get(draw)
        return f"{tile.words} ({draw})" if tile is not None else f"tile {draw}"

    def extra_words(self, state: GameState, move: Any) -> str:
        """What a move holds beyond its tile and figure (a flock choice, a bonus tile...):
        ``choice_words``, else the log's own fields."""
        told = self.choice_words(state, move)
        if told:
            return told
        raw = self.family.encode_move(move)
        parts = [f"{k}: {json.dumps(v, separators=(', ', ': '), ensure_ascii=False)}"
                 for k, v in raw.items() if k not in TILE_KEYS]
        return "; ".join(parts)

    def playthrough_intro(self, state: GameState) -> list[str]:
        game = _tiles(state)
        return [f"tileset {game.tileset.id} sha256 {game.tileset.digest}",
                f"start {game.start_tile.id} at (0,0) rotation 0; pile {len(game.pile)} tiles"]

    def playthrough_before(self, state: GameState, move: Any) -> Any:
        tile = _tiles(state).current
        edges = "" if tile is None else f" edges {tile.rotations[move.rotation // 90 % 4].edges}"
        return tile, edges

    def playthrough_after(self, state: GameState, before: Any) -> str:
        tile, edges = before
        return f"tile {tile.id if tile else '?'}{edges}; {_tiles(state).tiles_left()} left in pile"
