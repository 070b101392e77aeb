"""A game of Carcassonne (1st edition) with the expansions in play: ``CarcassonneState``.

The board, the pile and the turn sequence are the shared tile-laying machinery
(``replay.tiles.state``); this module adds the base game's figures and scoring (``scoring``)
and calls the hooks of the expansions in play (``rules.ExpansionRules``), whatever they are:
each expansion keeps its own state (``parts``) and its own fields of a move (``Move.extras``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from ...core.family import Family, GameConfig
from ...core.values import class_fields, value_type
from ...tiles.features import Feature, Figure
from ...tiles.moves import FigureChoice, TileMove, plain_fields
from ...tiles.scoring import scores_after
from ...tiles.state import FigureKind, TileState
from ...tiles.tileset import TileType
from . import scoring
from .rules import ExpansionRules, Points

if TYPE_CHECKING:
    from ...core.rng import SeededStream
    from ...tiles.state import Placement

FOLLOWER = FigureKind("follower", "follower", 1,
                      frozenset({"road", "city", "field", "cloister"}), "G6", 7)  # B1, G6


class Move(TileMove):
    """A Carcassonne move: the tile and its figure (``TileMove``), and in ``extras`` the
    fields of the expansions that add some, each as a record of the expansion's own class
    (Hills & Sheep's ``SheepFields``), none for a move that uses none (most moves). A value,
    as a ``TileMove``."""

    extras: tuple[Any, ...]

    def __init__(self, x: int = 0, y: int = 0, rotation: int = 0, tile: str | None = None,
                 figure: FigureChoice | None = None, discard: bool = False,
                 extras: tuple[Any, ...] = ()) -> None:
        TileMove.__init__(self, x, y, rotation, tile, figure, discard)
        self.extras = extras

    def extra(self, kind: type) -> Any:
        """This move's record of class ``kind`` (None when it has none)."""
        for record in self.extras:
            if type(record) is kind:
                return record
        return None

    def with_extra(self, kind: type, record: Any) -> Move:
        """This move with ``record`` as its record of class ``kind`` (None: without one)."""
        extras = tuple(r for r in self.extras if type(r) is not kind)
        if record is not None:
            extras += (record,)
        return Move(self.x, self.y, self.rotation, self.tile, self.figure, self.discard,
                    extras)


value_type(Move)


def read_plain_moves(raws: list[Any], fields: frozenset[str],
                     figure_kinds: frozenset[str]) -> list[Move] | None:
    """The moves of a log whose every move has only the shared fields (``fields``) and
    surely passes the schema (``tiles.moves.plain_fields``); None if one does not."""
    out: list[Move] = []
    for raw in raws:
        f = plain_fields(raw, fields, figure_kinds)
        if f is None:
            return None
        out.append(Move(f[0], f[1], f[2], f[3], f[4], f[5]))
    return out


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class CarcassonneState(TileState):
    """One game of Carcassonne in progress."""

    FAMILY: ClassVar[Family]  # the built-in family (a state's own: ``family``)
    MOVE = Move
    TERRAIN = {"C": "city", "R": "road", "F": "field"}
    COMPLETION_ORDER = scoring.TYPE_ORDER
    CLOSING = frozenset({"road", "city"})

    def __init__(self, config: GameConfig, rules: tuple[ExpansionRules, ...],
                 absent: tuple[ExpansionRules, ...], family: Family, farm_points: int) -> None:
        self.rules = rules
        self.absent = absent
        self._family = family  # the built-in family, or a variant derived from it
        self.options = config.options
        self.small_city: int = config.options["small_city"]  # B4a
        self.farm_scoring: str = config.options["farm_scoring"]  # B8
        self.farm_points = farm_points  # B8: a farm's points per complete city
        self.parts: dict[str, Any] = {}  # each expansion's own state, by name
        # the hooks each expansion really has, so that the hot path calls no empty one
        self._point_rules = _having(rules, "completed_points", "final_points")
        self._tiebreaks = _having(rules, "tiebreak")
        self._checks = _having(rules, "check")
        self._absent_checks = _having(absent, "check_absent")
        self._figure_hooks = _having(rules, "on_figure")
        self._group_rules = _having(rules, "needs_groups")
        kinds = {"follower": FOLLOWER}
        for r in rules:
            kinds.update(r.figures)
        super().__init__(config, kinds)

    @property
    def family(self) -> Family:
        return self._family

    def decision(self, move: Any) -> Any:
        """A move without what it draws during the turn (Hills & Sheep: the sheep tokens,
        HS2, and a table log's tile put under a hill, HS7): drawn, not chosen, they are not
        known when the move is chosen."""
        from .sheep_moves import SheepFields, sheep_of

        sheep = sheep_of(move) if isinstance(move, Move) else None
        if sheep is None or not sheep.tokens and sheep.hidden is None:
            return move
        return move.with_extra(SheepFields, SheepFields(sheep.flock) if sheep.flock else None)

    def _copy_into(self, new: TileState) -> None:
        super()._copy_into(new)
        assert isinstance(new, CarcassonneState)
        new.rules, new.absent, new._family = self.rules, self.absent, self._family
        new.options, new.small_city = self.options, self.small_city
        new.farm_scoring, new.farm_points = self.farm_scoring, self.farm_points
        # each expansion's state is its own to copy (``ExpansionRules.setup``)
        new.parts = {name: part.copy() for name, part in self.parts.items()}
        new._point_rules, new._tiebreaks = self._point_rules, self._tiebreaks
        new._checks, new._absent_checks = self._checks, self._absent_checks
        new._figure_hooks, new._group_rules = self._figure_hooks, self._group_rules

    def part(self, expansion: str) -> Any:
        """The per-game state of an expansion in play (e.g. the sheep bag)."""
        return self.parts[expansion]

    # ------------------------------------------------------------ hooks

    def _on_setup(self) -> None:
        for r in self.rules:
            r.setup(self)

    def _move(self, **fields: Any) -> Move:
        """A move from its fields by name: the tile's, and those of any expansion (each
        makes its record of them, ``ExpansionRules.record``)."""
        if TILE_FIELDS.issuperset(fields):
            return Move(**fields)
        extras = tuple(r.record(fields) for r in (*self.rules, *self.absent)
                       if not r.move_fields.isdisjoint(fields))
        return Move(**{k: v for k, v in fields.items() if k in TILE_FIELDS},
                    extras=tuple(r for r in extras if r is not None))

    def _needs_groups(self, move: Any) -> bool:
        for r in self._group_rules:  # noqa: SIM110 (``any`` of a generator: 3x, compiled)
            if r.needs_groups(self, move):
                return True
        return False

    def _check_extra(self, tile: TileType, cell: tuple[int, int], q: int, move: Any,
                     groups: list[list[int]]) -> None:
        for r in self._checks:
            r.check(self, tile, q, move, groups)
        for r in self._absent_checks:
            r.check_absent(self, tile, move)

    def _on_figure(self, placement: Placement, move: Any) -> None:
        for r in self._figure_hooks:
            r.on_figure(self, placement, move)

    def _unknown_gone(self) -> int:
        return sum(r.unknown_gone(self) for r in self.rules)

    def _drawn_unseen(self) -> list[str]:
        return [t for r in self.rules for t in r.drawn_unseen(self)]

    def _rehide(self, tiles: list[str]) -> None:
        at = 0
        for r in self.rules:
            n = len(r.drawn_unseen(self))
            if n:
                r.rehide(self, tiles[at:at + n])
                at += n

    def _redraw_more(self, seat: int, rng: SeededStream) -> None:
        for r in self.rules:
            r.redraw_hidden(self, seat, rng)

    def _complete_moves(self, tile: TileType, move: Any) -> Iterator[Any]:
        moves = [move]
        for r in self.rules:
            moves = [m for base in moves for m in r.complete_moves(self, tile, base)]
        yield from moves

    def flock_required(self, tile: TileType, x: int, y: int, rotation: int) -> list[str]:
        """HS3: locations of the fields needing an expand-or-herd choice after this placement
        (empty without Hills & Sheep). For the callers outside the rules (the JCZ importer,
        the fuzz test): the rules ask ``hills_sheep.flock_required``, as this does through
        the expansion's part of the state."""
        part = self.parts.get("hills-sheep")
        return [] if part is None else part.flock_required(self, tile, x, y, rotation)

    # ------------------------------------------------------------ scoring

    def completed_points(self, feat: Feature) -> Points:
        for r in self._point_rules:
            found = r.completed_points(self, feat)
            if found is not None:
                return found
        return scoring.completed_points(self, feat)

    def final_points(self, feat: Feature) -> Points:
        for r in self._point_rules:
            found = r.final_points(self, feat)
            if found is not None:
                return found
        return scoring.final_points(self, feat)

    def tiebreak(self, tied: list[int], figures: list[Figure]) -> list[int]:
        for r in self._tiebreaks:
            found = r.tiebreak(self, tied, figures)
            if found is not None:
                return found
        return tied

    def final_scoring(self) -> None:
        scoring.final_scoring(self)

    def scores_if_ended(self) -> list[int]:
        """The final scoring (B7, B8; a variant's ``final_scoring``) worked out here and
        undone, without the default's copy of the state: it only adds points (figures stay on
        the board at the end)."""
        return list(self.scores) if self.finished else scores_after(self)



TILE_FIELDS: frozenset[str] = frozenset(class_fields(TileMove))


def _having(rules: tuple[ExpansionRules, ...], *hooks: str) -> tuple[ExpansionRules, ...]:
    """The rules that override one of ``hooks`` of ``ExpansionRules``."""
    return tuple(r for r in rules
                 if any(getattr(type(r), h) is not getattr(ExpansionRules, h) for h in hooks))
