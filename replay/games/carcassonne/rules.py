"""What an expansion of Carcassonne plugs in: ``ExpansionRules`` and its hooks.

``CarcassonneState`` calls the hooks of the expansions in play, in the fixed order of
``EXPANSION_ORDER`` (the pile depends on it, G2); ``check_absent`` is called for the expansions
not in play, so that a move using their fields is refused by the rule that owns them. An
expansion that reads fields of a move keeps them in a record of its own class in the move's
``extras`` (``decode``, ``record``), and writes them back (``encode``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.family import Expansion, Option
from ...tiles.features import Feature, Figure
from ...tiles.state import FigureKind

if TYPE_CHECKING:
    from ...core.rng import SeededStream
    from ...tiles.state import Placement
    from ...tiles.tileset import TileType
    from .state import CarcassonneState, Move

Points = tuple[int, str, str]  # points, how they were computed, rule id


class ExpansionRules:
    """The rules one expansion adds. Every hook does nothing by default."""

    info: ClassVar[Expansion]
    tileset: ClassVar[str]  # the built-in tile set it adds
    figures: ClassVar[Mapping[str, FigureKind]] = {}
    options: ClassVar[tuple[Option, ...]] = ()
    move_fields: ClassVar[frozenset[str]] = frozenset()  # log move keys it reads

    def setup(self, state: CarcassonneState) -> None:
        """Its own state, before the start tile is placed: an object in ``state.parts``
        whose ``copy()`` is independent (the state's ``copy`` copies it)."""

    def needs_groups(self, state: CarcassonneState, move: Move) -> bool:
        """Whether ``check`` reads the features the tile joins (``groups``) for this move
        without a figure (they are worked out for a move with one anyway)."""
        return False

    def check(self, state: CarcassonneState, tile: TileType, q: int, move: Move,
              groups: list[list[int]]) -> None:
        """Its checks of a move (raise ``IllegalMove``); nothing may change."""

    def check_absent(self, state: CarcassonneState, tile: TileType, move: Move) -> None:
        """Refuse a move that uses this expansion's fields in a game without it."""

    def on_figure(self, state: CarcassonneState, placement: Placement, move: Move) -> None:
        """After the tile and its figure are down, before completed features score."""

    def completed_points(self, state: CarcassonneState, feat: Feature) -> Points | None:
        """Its points for a feature completed during play (None: the base game's)."""
        return None

    def final_points(self, state: CarcassonneState, feat: Feature) -> Points | None:
        """Its points for an incomplete feature at the end (None: the base game's)."""
        return None

    def tiebreak(self, state: CarcassonneState, tied: list[int],
                 figures: list[Figure]) -> list[int] | None:
        """The winners among players tied for a majority (None: no tie-break)."""
        return None

    def unknown_gone(self, state: CarcassonneState) -> int:
        """Tiles gone from a table game's pile that the log does not name."""
        return 0

    def drawn_unseen(self, state: CarcassonneState) -> list[str]:
        """The tiles it took from the pile unseen, in order ("?" for one a table log did not
        name): ``redraw_hidden`` redraws them with the pile."""
        return []

    def rehide(self, state: CarcassonneState, tiles: list[str]) -> None:
        """Its unseen tiles (``drawn_unseen``) are now ``tiles`` (redrawn)."""

    def redraw_hidden(self, state: CarcassonneState, seat: int, rng: SeededStream) -> None:
        """Redraw what else of its state ``seat`` cannot know (``GameState.redraw_hidden``):
        any randomness still to come comes from ``rng``."""

    def complete_moves(self, state: CarcassonneState, tile: TileType,
                       move: Move) -> Iterator[Move]:
        """The complete moves a placement with its figure makes (adding its choices)."""
        yield move

    def random_choices(self, state: CarcassonneState, tile: TileType, move: Move,
                       pick: Any) -> Move:
        """The generator's choices for its fields of ``move`` (a seeded ``pick`` stream)."""
        return move

    def decode(self, raw: Mapping[str, Any], path: str) -> Any:
        """Its record of its fields of a schema-valid move object (one of ``Move.extras``),
        or None when they say nothing."""
        return None

    def record(self, fields: Mapping[str, Any]) -> Any:
        """Its record of its fields given by name as Python values (``state._move``), or
        None when they say nothing."""
        return None

    def encode(self, move: Move) -> dict[str, Any]:
        """Its fields of ``move`` as the log writes them (from its record)."""
        return {}

    def surely_valid(self, raw: Mapping[str, Any]) -> bool:
        """Its fields of a move object as the schema accepts them (the fast path)."""
        return True
