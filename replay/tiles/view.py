"""The view of the tile-laying families (``replay.core.view``): their boards drawn by
``drawing.board`` in one pass, with the analysis board's spots over the cells and the scored
features linked to their explanations; the tile drawn, on its own; each move in words
(``words.describe_move``) and the playthrough's lines. A tile family brings its own words in a
subclass: what a turn did besides its tile and figure (``turn_words``), what a legal move holds
beyond them (``choice_words``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.events import Event
from ..core.family import GameState, MoveText
from ..core.view import View
from . import words
from .state import TileState


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
