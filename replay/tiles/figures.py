"""Figures on the features of a tile-laying game: which may stand where (G6), putting them
and sending them home (G9).

``Figures`` is a part of ``TileState`` (``replay.tiles.state``); a family describes its figure
kinds as ``FigureKind``s.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from ..core import hashing
from ..core.errors import IllegalMove
from ..core.events import article
from ..core.values import value_type
from .board import Board, Cell, Placement
from .events import FigurePlaced, FigureReturned
from .features import Feature, FeatureGraph, Figure
from .kinds import ROLE
from .moves import FigureChoice
from .tileset import TileType
from .words import figure_place, turned, where_code

if TYPE_CHECKING:
    from ..core.sink import EventSink


HOLDING = 3.0  # points a figure in supply is worth at the start (``holding_value``)
SPREAD = 1.5  # points a lead may still move, times the root of the tiles left (``margin_spread``)


class FigureKind:
    """A kind of figure: which family of figures it blocks, its strength in majorities (G8),
    the segment types it may stand on, and the rule that says so."""

    name: str
    family: str  # figures of one family block each other on a feature (G6)
    strength: int
    segments: frozenset[str]
    rule: str
    count: int  # how many each player starts with

    def __init__(self, name: str, family: str, strength: int, segments: frozenset[str],
                 rule: str, count: int) -> None:
        self.name = name
        self.family = family
        self.strength = strength
        self.segments = segments
        self.rule = rule
        self.count = count


value_type(FigureKind)


def _words(kind: str) -> str:
    """A figure kind as people write it: ``large follower``."""
    return kind.replace("-", " ")


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class Figures(Board):
    """The figure rules of ``TileState`` (see the module)."""

    figure_kinds: dict[str, FigureKind]
    supply: list[dict[str, int]]  # per seat: kind -> figures left
    turn: int
    sink: EventSink  # where the events of the move go (``TileState.play``: none)
    hash: int

    def _groups_for(self, figure_family: str, tile: TileType, cell: Cell,
                    q: int) -> tuple[list[list[int]], FeatureGraph]:
        """The features each segment would join, in the graph where ``figure_family`` counts."""
        return self._prospective(tile, cell, q), self.graph

    def _group_word(self, figure_family: str) -> str:
        """What a group of ``_groups_for`` (not a feature) is called in messages."""
        return "group"

    def _supply_exhausted(self, player: int, kind: str) -> None:
        raise IllegalMove("G6", f"{self.players[player].name} has no {_words(kind)} left in "
                          "supply")

    def figure_options(self, tile: TileType, x: int, y: int, rotation: int,
                       player: int | None = None) -> list[FigureChoice]:
        """Legal figure choices after placing ``tile`` there (not including "no figure")."""
        p = self.turn if player is None else player
        q = rotation // 90
        rot = tile.rotations[q]
        out: list[FigureChoice] = []
        groups_by_family: dict[str, tuple[list[list[int]], FeatureGraph]] = {}
        supply = self.supply[p]
        for kind in sorted(supply):
            if supply[kind] <= 0:
                continue
            fk = self.figure_kinds[kind]
            found = groups_by_family.get(fk.family)
            if found is None:
                found = groups_by_family[fk.family] = self._groups_for(fk.family, tile,
                                                                       (x, y), q)
            groups, graph = found
            for seg in tile.segments:
                if seg.type not in fk.segments:
                    continue
                if self._occupied(groups[seg.index], fk.family, graph):
                    continue
                out.append(FigureChoice(kind, rot.names[seg.index]))
        return out

    def _check_figure(self, tile: TileType, cell: Cell, q: int, fig: FigureChoice,
                      groups: list[list[int]]) -> None:
        p = self.turn
        if fig.kind not in self.supply[p]:
            raise IllegalMove("G6", f"the {_words(fig.kind)} ({fig.kind}) is not a figure of "
                              "this game")
        if self.supply[p][fig.kind] <= 0:
            self._supply_exhausted(p, fig.kind)
        rot = tile.rotations[q]
        seg_index = rot.locations.get(fig.location)
        if seg_index is None:
            names = sorted(rot.locations)
            raise IllegalMove("G6", f"tile {tile.id} ({tile.words}), {turned(90 * q)}, has no "
                              f"place {fig.location!r} for a figure (its places: "
                              f"{', '.join(names)})")
        seg = tile.segments[seg_index]
        kind = self.figure_kinds[fig.kind]
        if seg.type not in kind.segments:
            raise IllegalMove(kind.rule, f"{article(_words(fig.kind))} cannot stand on the "
                              f"{seg.type} {where_code(fig.location)}")
        graph = self.graph
        if kind.family != "follower":
            groups, graph = self._groups_for(kind.family, tile, cell, q)
        holder = self._occupied(groups[seg_index], kind.family, graph)
        if holder is not None:
            what = (seg.type if graph is self.graph
                    else f"{self._group_word(kind.family)} of the {seg.type}")
            raise IllegalMove(
                kind.rule,
                f"the {what} {where_code(fig.location)} already holds a "
                f"{_words(holder.kind)} of {self.players[holder.player].name}, on the tile at "
                f"({holder.cell[0]},{holder.cell[1]}) {where_code(holder.location)}")

    def _occupied(self, roots: list[int], family: str,
                  graph: FeatureGraph | None = None) -> Figure | None:
        graph = graph or self.graph
        kinds = self.figure_kinds
        for r in roots:
            feat = graph.feature[r]
            assert feat is not None
            for f in feat.figures:
                if kinds[f.kind].family == family:
                    return f
        return None

    def _put_figure(self, placement: Placement, choice: FigureChoice) -> None:
        p = self.turn
        rot = placement.tile.rotations[placement.rot]
        seg_index = rot.locations[choice.location]
        node = placement.first_node + seg_index
        kind = self.figure_kinds[choice.kind]
        fig = Figure(p, choice.kind, node, placement.cell, choice.location,
                     kind.strength, placement.tile.hill)
        seg = placement.tile.segments[seg_index]
        self._figure_target(fig, seg.attrs, kind.family).add_figure(fig)
        self.supply[p][fig.kind] -= 1
        self.hash ^= hashing.item("f", fig.node, fig.player, fig.kind)
        if self.sink.keeps:
            event = self.figure_event(placement.tile, placement.cell, placement.rot, choice)
            assert event is not None
            self.sink.add(event)

    def figure_event(self, tile: TileType, cell: Cell, q: int,
                     choice: FigureChoice) -> FigurePlaced | None:
        """The event of putting ``choice`` on ``tile`` placed at ``cell`` turned ``q``
        quarters, by the player to move: what a follower there is called and the feature it
        stands on, and where in words (``words.figure_place``). The move list and the
        explanations tell a played figure from it, and the analysis board a legal move's figure
        before it is played (one source of words). None when the tile has no
        such place or the game no such figure."""
        rot = tile.rotations[q % 4]
        seg_index = rot.locations.get(choice.location)
        kind = self.figure_kinds.get(choice.kind)
        if seg_index is None or kind is None:
            return None
        seg = tile.segments[seg_index]
        role = ROLE.get(seg.type) if kind.family == "follower" else choice.kind
        return FigurePlaced(self.turn, choice.kind, cell[0], cell[1], choice.location, role,
                            seg.type, figure_place(tile, 90 * q, choice.location, seg.type,
                                                   choice.kind))

    def _figure_target(self, fig: Figure, attrs: Mapping[str, int], family: str) -> Feature:
        """The feature a new figure joins."""
        return self.graph.of(fig.node)

    def return_figure(self, feat: Feature, fig: Figure) -> None:
        feat.figures.remove(fig)
        self.supply[fig.player][fig.kind] += 1
        self.hash ^= hashing.item("f", fig.node, fig.player, fig.kind)
        if self.sink.keeps:
            self.sink.add(FigureReturned(fig.player, fig.kind, fig.cell[0], fig.cell[1],
                                         fig.location, feat.first, feat.type))

    def figure_graphs(self) -> list[FeatureGraph]:
        """The graphs figures stand in (the feature graph, and any the family adds)."""
        return [self.graph]

    def figures_on_board(self) -> list[Figure]:
        out = [fig for graph in self.figure_graphs() for root, feat in enumerate(graph.feature)
               if feat is not None for fig in feat.figures]
        out.sort(key=lambda f: f.node)
        return out

    def tiles_left(self) -> int:
        """The tiles still to come (the state's own: ``TileState.tiles_left``)."""
        raise NotImplementedError

    def holding_value(self, seat: int) -> float:
        """Each figure in ``seat``'s supply is worth ``HOLDING`` points while the whole pile
        is left, less as it runs out (the share of tiles still to come), 0 at the end: a
        figure kept can still claim a feature (``mcts:500:dets=3`` against ``greedy``,
        2-player base games: 41 % without it and 62 % with it on 60 games of one seed set;
        59.5 % and 58.8 % on 200 of another; 55 % and 59 % in all: docs/agents.md)."""
        left = self.tiles_left()
        if self.finished or not left:
            return 0.0
        share = left / (left + len(self.board))
        return HOLDING * share * sum(self.supply_of(seat).values())

    def margin_spread(self) -> float:
        """``SPREAD`` times the square root of the tiles still to come, plus one: each tile
        moves the lead by a few points either way, so the lead's spread at the end grows as
        the root of the tiles left (a random walk)."""
        return SPREAD * math.sqrt(self.tiles_left() + 1)
