"""A game of Hunters & Gatherers: ``HuntersGatherersState``.

Besides the shared tile-laying machinery it keeps the river networks (HG8, a second
union-find over the same node ids), the bonus tiles of forests with gold (HG7: a turn with a
bonus tile is two steps, and ``apply`` rebuilds the game when the second is wrong, so that a
move stays atomic), huts (HG3), the return timing option (HG6) and the sacred place (HG11).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ...core import hashing
from ...core.errors import IllegalMove
from ...core.events import Event
from ...core.family import Family, GameConfig
from ...core.rng import SeededStream
from ...core.values import value_type
from ...tiles.events import Discard
from ...tiles.features import Feature, FeatureGraph, Figure
from ...tiles.moves import FigureChoice, TileMove, plain_fields
from ...tiles.scoring import scores_after
from ...tiles.state import Cell, FigureKind, Placement, TileState, group_links, link
from ...tiles.tileset import SIDE_DELTA, Segment, TileType
from . import scoring
from .events import BonusTile

FIGURES = {
    "follower": FigureKind("follower", "follower", 1,
                           frozenset({"forest", "river", "meadow"}), "G6", 5),  # HG1, HG2
    "hut": FigureKind("hut", "hut", 1, frozenset({"river", "lake"}), "HG3", 2),  # HG1, HG3
}


class Move(TileMove):
    """A Hunters & Gatherers move: the land tile and its figure, and the bonus tile played in
    the same turn when the land tile completed a forest with gold (HG7). A value, as a
    ``TileMove``."""

    bonus: TileMove | None

    def __init__(self, x: int = 0, y: int = 0, rotation: int = 0, tile: str | None = None,
                 figure: FigureChoice | None = None, discard: bool = False,
                 bonus: TileMove | None = None) -> None:
        TileMove.__init__(self, x, y, rotation, tile, figure, discard)
        self.bonus = bonus

    def with_bonus(self, bonus: TileMove | None) -> Move:
        """This move with ``bonus`` as its bonus tile."""
        return Move(self.x, self.y, self.rotation, self.tile, self.figure, self.discard, bonus)


value_type(Move)


def read_plain_moves(raws: list[Any], fields: frozenset[str], bonus_fields: frozenset[str],
                     figure_kinds: frozenset[str]) -> list[Move] | None:
    """The moves of a log whose every move, and bonus tile, has only the fields given and
    surely passes the schema (``tiles.moves.plain_fields``); None if one does not."""
    out: list[Move] = []
    for raw in raws:
        f = plain_fields(raw, fields, figure_kinds)
        if f is None:
            return None
        bonus: TileMove | None = None
        b = raw.get("bonus")  # (a dict: ``plain_fields`` said so)
        if b is not None or "bonus" in raw:
            g = plain_fields(b, bonus_fields, figure_kinds)
            if g is None:
                return None
            bonus = TileMove(g[0], g[1], g[2], g[3], g[4], g[5])
        out.append(Move(f[0], f[1], f[2], f[3], f[4], f[5], bonus))
    return out


WATER = frozenset({"river", "lake"})  # the segments of the river networks (HG8)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class HuntersGatherersState(TileState):
    """One game of Hunters & Gatherers in progress."""

    FAMILY: ClassVar[Family]
    MOVE = Move
    TERRAIN = {"F": "forest", "M": "meadow", "R": "river"}
    CLOSING = frozenset({"forest", "river"})

    def __init__(self, config: GameConfig) -> None:
        self.return_timing: str = config.options["return_timing"]  # HG6
        super().__init__(config, FIGURES)

    @property
    def family(self) -> Family:
        return self.FAMILY

    def decision(self, move: Any) -> Any:
        """A move without its bonus tile (HG7): drawn during the turn, it is not known when
        the land tile is chosen."""
        return move.with_bonus(None) if getattr(move, "bonus", None) is not None else move

    def _on_setup(self) -> None:
        self.net = FeatureGraph()  # HG8 river networks (rivers + lakes)
        self.bonus_stack: list[TileType] = []
        self.bonus_pos = 0
        self.bonus_remaining: dict[str, int] = {}
        self.pending_bonus: TileType | None = None  # seeded: the bonus tile to play now
        self.bonus_due = False  # HG7: this turn's bonus tile comes next
        self._bonus_step = False
        self.pending_returns: list[tuple[Feature, Figure]] = []
        bonus = [t for t in self.tileset.tiles if t.bonus for _ in range(t.count)]
        if self.config.seed is not None:
            SeededStream(self.config.seed, "bonus").shuffle(bonus)
            self.bonus_stack = bonus
        else:
            self.bonus_remaining = {t.id: t.count for t in self.tileset.tiles if t.bonus}
            for t in self.tileset.tiles:
                if t.bonus:
                    self.remaining.pop(t.id, None)

    def _copy_into(self, new: TileState) -> None:
        super()._copy_into(new)
        assert isinstance(new, HuntersGatherersState)
        new.return_timing = self.return_timing
        new.net = self.net.copy()
        new.bonus_stack = self.bonus_stack  # (read by position, never changed)
        new.bonus_pos = self.bonus_pos
        new.bonus_remaining = dict(self.bonus_remaining)
        new.pending_bonus, new.bonus_due = self.pending_bonus, self.bonus_due
        new._bonus_step = self._bonus_step
        new.pending_returns = []
        if self.pending_returns:  # (within a turn) the copy's features in the same places
            twin = {id(f): g for graphs in ((self.graph, new.graph), (self.net, new.net))
                    for f, g in zip(graphs[0].feature, graphs[1].feature, strict=True)
                    if f is not None}
            new.pending_returns = [(twin.get(id(feat)) or feat.copy(), fig)
                                   for feat, fig in self.pending_returns]

    def _move(self, **fields: Any) -> Move:
        return Move(**fields)

    def _redraw_more(self, seat: int, rng: SeededStream) -> None:
        """The bonus tiles not played yet (HG7), in a new order: the tile-set order
        shuffled by ``rng``; a table game's become a seeded-like stack."""
        rank = {t.id: i for i, t in enumerate(self.tileset.tiles)}
        if self.bonus_remaining or not self.bonus_stack:  # a table game
            left = [t for t in self.tileset.tiles for _ in range(self.bonus_remaining.get(
                t.id, 0))]
            rng.shuffle(left)
            self.bonus_stack, self.bonus_pos, self.bonus_remaining = left, 0, {}
            return
        rest = sorted(self.bonus_stack[self.bonus_pos:], key=lambda t: rank[t.id])
        rng.shuffle(rest)
        self.bonus_stack = self.bonus_stack[:self.bonus_pos] + rest  # (copies share the old)

    # ------------------------------------------------------------ a turn of one or two steps

    def apply(self, move: Any) -> list[Event]:
        """Play one turn: the land tile, and its bonus tile (HG7) when it earned one.

        A turn with a bonus tile is two ``step``s; when its second half is wrong the game is
        rebuilt from its steps so far (errors are rare, turns are many: this costs nothing on
        the legal path)."""
        move = self._as_move(move)
        idx = self.moves_played
        bonus = move.bonus
        done = len(self.steps)
        events = self.step(move.with_bonus(None) if bonus is not None else move)
        try:
            if self.bonus_due:
                if bonus is None:
                    which = f" {self.pending_bonus.id}" if self.pending_bonus else ""
                    raise IllegalMove(
                        "HG7", f"the tile completed a forest with gold: the bonus tile{which} "
                        "must be played in this turn", idx, self.players[self.turn].name)
                events += self.step(bonus)
            elif bonus is not None:
                player = self.players[(self.turn - 1) % len(self.players)].name
                raise IllegalMove("HG7", "no bonus tile is due: the tile completed no forest "
                                  "with gold, or this turn already had one", idx, player)
        except IllegalMove:
            self._rewind(done)
            raise
        return events

    def check(self, move: Any) -> None:
        """The land tile is checked here; a turn that has or needs a bonus tile is tried on a
        copy (the bonus tile's checks depend on the land tile's consequences)."""
        move = self._as_move(move)
        super().check(move.with_bonus(None))
        if move.bonus is not None or (not move.discard and self.completes_gold_forest(
                self._tile_for(move), move.x, move.y, move.rotation)):
            self.copy().apply(move)

    def step(self, move: Any) -> list[Event]:
        self._bonus_step = self.bonus_due
        return super().step(move)

    def _step_done(self, idx: int) -> None:
        if self._bonus_step:
            self._end_turn()
        if not self.bonus_due:
            super()._step_done(idx)

    def _annotate(self, exc: IllegalMove) -> None:
        super()._annotate(exc)
        if self.bonus_due:
            exc.message = f"bonus tile: {exc.message}"

    def _check(self, move: TileMove) -> TileType:
        try:
            return super()._check(move)
        except IllegalMove as exc:
            if self.bonus_due and exc.rule == "G5":
                exc.rule = "HG7"  # a bonus tile is discarded under HG7 (docs/rules.md)
            raise

    def _check_drawn(self, tile: TileType) -> None:
        if tile.bonus:
            raise IllegalMove("HG7", f"{tile.id} is a bonus tile: it is played only after a "
                              "forest with gold is completed")

    def _tile_for(self, move: TileMove) -> TileType:
        if not self.bonus_due:
            return super()._tile_for(move)
        want = self.pending_bonus
        if want is None:
            tile = self.tiles_by_id.get(move.tile or "")
            if tile is None or not tile.bonus:
                raise IllegalMove("L1", f"{move.tile!r} is not a bonus tile of "
                                  f"{self.tileset.id}")
            if self.bonus_remaining.get(tile.id, 0) <= 0:
                raise IllegalMove("L1", f"bonus tile {tile.id} was already played")
            return tile
        if move.tile is not None and move.tile != want.id:
            raise IllegalMove("L1", f"the log names bonus tile {move.tile} but the seeded "
                              f"bonus stack gives {want.id}")
        return want

    def _take_tile(self, tile: TileType) -> bool:
        if self.bonus_due:
            self._bonus_taken(tile)
            return True
        return super()._take_tile(tile)

    def _discard(self, tile: TileType) -> None:
        if self.bonus_due:
            self._bonus_taken(tile)
            self.discarded.append(tile.id)
            self.sink.add(Discard(self.turn, tile.id, "HG7", tile.words))
            return
        super()._discard(tile)

    def _turn_goes_on(self, completed: list[Feature]) -> bool:
        if self._bonus_step:
            return True  # the turn ends with the step (``_step_done``)
        if not completed:
            return False
        gold = [f for f in completed if f.type == "forest" and f.counts.get("gold")]
        if gold:
            self._offer_bonus(gold[0])
            return self.bonus_due
        return False

    def _bonus_taken(self, tile: TileType) -> None:
        """The bonus tile of this turn leaves its stack (placed or discarded)."""
        self.bonus_due = False
        self.pending_bonus = None
        self.hash ^= hashing.item("bonus-due")
        if self.config.seed is None:
            self.bonus_remaining[tile.id] -= 1
            self.hash ^= hashing.item("bonus-played", tile.id, self.bonus_remaining[tile.id])

    def _offer_bonus(self, forest: Feature) -> None:
        """HG7: the player who completed a forest with gold plays the top bonus tile now."""
        if self.config.seed is None:
            if sum(self.bonus_remaining.values()) > 0:
                self.bonus_due = True
                self.hash ^= hashing.item("bonus-due")
            return
        if self.bonus_pos >= len(self.bonus_stack):
            return
        tile = self.bonus_stack[self.bonus_pos]
        self.bonus_pos += 1
        self.hash ^= hashing.item("bonus-pos", self.bonus_pos)
        self.sink.add(BonusTile(self.turn, tile.id, "HG7", forest.first, tile.words))
        if not self.can_place(tile):
            self.discarded.append(tile.id)
            self.sink.add(Discard(self.turn, tile.id, "HG7", tile.words))
            return
        self.bonus_due = True
        self.pending_bonus = tile
        self.hash ^= hashing.item("bonus-due")

    # ------------------------------------------------------------ legal moves

    def _complete_moves(self, tile: TileType, move: Any) -> Iterator[Any]:
        """A land move that earns a bonus tile is complete with it (HG7): every placement and
        figure of every bonus tile that can come (a discard when it fits nowhere)."""
        if not self.completes_gold_forest(tile, move.x, move.y, move.rotation):
            yield move
            return
        trial = self.copy()
        trial.step(move)
        if not trial.bonus_due:
            yield move
            return
        if trial.pending_bonus is not None:
            bonus_tiles = [trial.pending_bonus]
        else:
            bonus_tiles = [t for t in self.tileset.tiles
                           if trial.bonus_remaining.get(t.id, 0) > 0]
        for b in bonus_tiles:
            spots = trial.legal_placements(b)
            if not spots:
                yield move.with_bonus(TileMove(tile=b.id, discard=True))
            for x, y, rot in spots:
                for fig in [None, *trial.figure_options(b, x, y, rot)]:
                    yield move.with_bonus(TileMove(x, y, rot, b.id, fig))

    def completes_gold_forest(self, tile: TileType, x: int, y: int, rotation: int) -> bool:
        """Whether placing the tile there completes a forest with gold (HG7), computed without
        placing it: the open ends the joined forest would keep, and its gold."""
        q = rotation // 90
        groups = self._prospective(tile, (x, y), q)
        rot = tile.rotations[q]
        graph = self.graph
        seen: set[int] = set()
        for seg in tile.segments:
            if seg.type != "forest" or seg.index in seen:
                continue
            roots = set(groups[seg.index])
            part = {seg.index} | {s.index for s in tile.segments
                                  if s.type == "forest" and roots & set(groups[s.index])}
            seen |= part
            feats = [graph.feature[r] for r in roots]
            gold = any(tile.segments[i].attr("gold") for i in part) or any(
                f is not None and f.counts.get("gold") for f in feats)
            if not gold:
                continue
            open_ends = sum(tile.open_sides[i] for i in part)
            open_ends += sum(f.open for f in feats if f is not None)
            for s in range(4):
                dx, dy = SIDE_DELTA[s]
                nb = self.board.get((x + dx, y + dy))
                if nb is None:
                    continue
                open_ends -= sum(1 for i in rot.side_segs[s] if i in part)
                nrot = nb.tile.rotations[nb.rot]
                open_ends -= sum(1 for i in nrot.side_segs[(s + 2) % 4]
                                 if graph.find(nb.first_node + i) in roots)
            if open_ends == 0:
                return True
        return False

    # ------------------------------------------------------------ river networks and huts

    def _place(self, tile: TileType, q: int, cell: Cell, player: int | None) -> Placement:
        """HG8: the river network graph mirrors the node ids; a river joins its own lakes and
        the rivers across the sides it shares."""
        placement = super()._place(tile, q, cell, player)
        first, index = placement.first_node, placement.index
        net = self.net
        rivers = False
        for seg in tile.segments:
            if seg.type in WATER:
                rivers = rivers or seg.type == "river"
                self._add_net_node(seg, first, index, tile.open_sides[seg.index])
            else:  # a placeholder that keeps the node ids aligned
                net.parent.append(first + seg.index)
                net.feature.append(None)
        if not rivers:
            return placement
        for seg in tile.segments:
            if seg.type == "river":
                for lake in seg.touches:
                    net.union(first + seg.index, first + lake)
        # the loop of ``_across``, written out, for the rivers alone
        segments = tile.segments
        rot = tile.rotations[q]
        x, y = cell
        for s, (dx, dy) in enumerate(SIDE_DELTA):
            nb = self.board.get((x + dx, y + dy))
            if nb is None:
                continue
            nside = nb.tile.rotations[nb.rot].side_j[(s + 2) % 4]
            nfirst = nb.first_node
            for j, si in rot.side_pairs[s]:
                if segments[si].type == "river":
                    for ni in nside[2 - j]:
                        net.union(first + si, nfirst + ni)
        return placement

    def _add_net_node(self, seg: Segment, first: int, index: int, open_sides: int) -> None:
        """The record of a river or a lake in the river networks."""
        feat = Feature(seg.type, first + seg.index, index, open_sides)
        if seg.type == "lake":
            feat.add_counts({"fish": seg.attr("fish")})
        self.net.add(feat)

    def _group_word(self, figure_family: str) -> str:
        return "river network"  # the huts' groups (HG8)

    def _groups_for(self, figure_family: str, tile: TileType, cell: Cell,
                    q: int) -> tuple[list[list[int]], FeatureGraph]:
        if figure_family != "hut":
            return super()._groups_for(figure_family, tile, cell, q)
        net = self.net
        joined = [(river.index, lake) for river in tile.segments if river.type == "river"
                  for lake in river.touches]
        by_root: dict[int, int] = {}
        for seg, node in self._across(tile, cell, q):
            if tile.segments[seg].type == "river":
                link(by_root, joined, seg, net.find(node))
        return group_links(len(tile.segments), by_root, joined), net

    def _figure_target(self, fig: Figure, attrs: Mapping[str, int], family: str) -> Feature:
        target = self.net.of(fig.node) if family == "hut" else self.graph.of(fig.node)
        if attrs.get("sacred") and fig.kind == "follower":
            target.add_flags((f"sacred:{fig.player}",))  # HG11: this hunter's player alone scores
        return target

    def figure_graphs(self) -> list[FeatureGraph]:
        return [self.graph, self.net]

    def net_features(self) -> list[Feature]:
        """HG8 river networks (one per root), in creation order."""
        feats = [f for f in self.net.feature if f is not None and f.type in ("river", "lake")]
        feats.sort(key=lambda f: f.first)
        return feats

    # ------------------------------------------------------------ returns (HG6) and scoring

    def _supply_exhausted(self, player: int, kind: str) -> None:
        if any(f.player == player and f.kind == kind for _, f in self.pending_returns):
            raise IllegalMove("HG6", f"{self.players[player].name}'s {kind} recovered this "
                              "turn returns only at the end of the turn")
        super()._supply_exhausted(player, kind)

    def return_after_scoring(self, feat: Feature, fig: Figure) -> None:
        """G9, HG6: back to the supply now, or (default) at the end of the turn."""
        if self.return_timing == "end-of-turn":
            self.pending_returns.append((feat, fig))
            self.hash ^= hashing.item("pending-return", fig.node, fig.player)
        else:
            self.return_figure(feat, fig)

    def _before_turn_end(self) -> None:
        for feat, fig in self.pending_returns:
            self.hash ^= hashing.item("pending-return", fig.node, fig.player)
            self.return_figure(feat, fig)
        self.pending_returns = []

    def completed_points(self, feat: Feature) -> tuple[int, str, str]:
        return scoring.completed_points(self, feat)

    def final_scoring(self) -> None:
        scoring.final_scoring(self)

    def scores_if_ended(self) -> list[int]:
        """The final scoring's points (HG10, HG11) worked out here and undone, without the
        default's copy of the state: the gatherers and fishers going home (HG9) score
        nothing."""
        return list(self.scores) if self.finished else scores_after(self, scoring.final_points)

