"""The board of a tile-laying game: placed tiles, the open cells next to them (the frontier,
with the edges each demands), the feature graph, and the checks of a placement (G1, G4).

``Board`` is a part of ``TileState`` (``replay.tiles.state``); it holds no rule of any family.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from ..core import hashing
from ..core.errors import IllegalMove
from ..core.events import Event
from ..core.family import GameConfig, GameState
from ..core.rng import SeededStream
from ..core.values import value_type
from .features import Feature, FeatureGraph, group_links
from .tileset import SIDE_DELTA, SegmentSeed, TileSet, TileType
from .words import turned

Cell = tuple[int, int]
OPPOSITE = (2, 3, 0, 1)  # the side across from each side
SIDE_WORDS = ("north", "east", "south", "west")  # SIDES for people
_SPAN: Final = 4096  # cells nearer the start than this in x and y pack into one int


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class Placement:
    """A tile on the board: its index in placement order, turn, cell and first node id.
    Never changed once made: a state's copies share it (``TileState.copy``)."""

    index: int
    tile: TileType
    rot: int  # quarter turns
    cell: Cell
    first_node: int
    player: int | None  # None for the start tile

    def __init__(self, index: int, tile: TileType, rot: int, cell: Cell, first_node: int,
                 player: int | None) -> None:
        self.index = index
        self.tile = tile
        self.rot = rot
        self.cell = cell
        self.first_node = first_node
        self.player = player


# pickled as a call of the class with its fields (``value_type``): a compiled class's own
# pickling would call ``__init__`` with no arguments
value_type(Placement, frozen=False)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class Board(GameState):
    """Tiles on cells, the frontier and the feature graph (see the module).

    ``GameState`` <- ``Board`` <- ``Figures`` <- ``TileState``: one chain of single
    inheritance, so that the classes compile with mypyc (``GameState`` stays interpreted)."""

    TERRAIN: ClassVar[Mapping[str, str]] = {}  # edge letter -> word, for messages
    tileset: TileSet
    tiles_by_id: dict[str, TileType]
    graph: FeatureGraph
    board: dict[Cell, Placement]
    placements: list[Placement]
    frontier: dict[Cell, str]  # open cell -> the edges its neighbours demand ("." for none)
    frontier_keys: dict[str, dict[Cell, None]]  # frontier key -> the open cells that have it
    cloisters: dict[Cell, int]  # cell -> node of a segment that completes by its neighbours
    near_cloisters: dict[Cell, list[Cell]]  # open cell -> cloister cells of its 3 x 3 block
    cloister_around: dict[Cell, int]  # cloister cell -> how many of its 8 neighbours hold a tile
    # ``GameState``'s attributes, declared again: compiled with mypyc, ``Board`` is a native
    # class on an interpreted base, whose attributes mypyc does not see
    config: GameConfig
    scores: list[int]
    finished: bool
    moves_played: int
    hash: int
    setup_events: list[Event]

    def _init_board(self, tileset: TileSet) -> None:
        self.tileset = tileset
        self.tiles_by_id = tileset.by_id()
        self.graph = FeatureGraph()
        self.board = {}
        self.placements = []
        self.frontier = {}
        self.frontier_keys = {}
        self.cloisters = {}
        self.near_cloisters = {}
        self.cloister_around = {}
        self._last_prospective: tuple[TileType, Cell, int, int, list[list[int]]] | None = None

    def can_place(self, tile: TileType) -> bool:
        fit = tile.fitting
        for key in self.frontier_keys:  # noqa: SIM110 (``any`` of a generator: 3x, compiled)
            if key in fit:
                return True
        return False

    def placements_of(self, tile: TileType) -> list[tuple[int, int, int]]:
        """Every (x, y, rotation in degrees) where ``tile`` fits, sorted."""
        codes = self._placement_codes(tile)
        if codes is None:
            return self._placements_far(tile)
        return [_unpack(c) for c in codes]

    def pick_placement(self, tile: TileType, pick: SeededStream) -> tuple[int, int, int]:
        """``placements_of(tile)[pick.below(n)]`` for the n placements (the generator's draw),
        without making the others. ``tile`` must fit somewhere."""
        codes = self._placement_codes(tile)
        if codes is None:
            spots = self._placements_far(tile)
            return spots[pick.below(len(spots))]
        return _unpack(codes[pick.below(len(codes))])

    def _placement_codes(self, tile: TileType) -> list[int] | None:
        """The placements of ``tile`` as sorted ints ((x, y, q) packed in order, see
        ``_unpack``), or None on a board that reaches ``_SPAN`` cells from the start."""
        # each distinct frontier key is tried once (many open cells demand the same edges)
        fit = tile.fitting
        codes: list[int] = []
        for key, cells in self.frontier_keys.items():
            turns = fit.get(key)
            if turns is None:
                continue
            for x, y in cells:
                if not (-_SPAN < x < _SPAN and -_SPAN < y < _SPAN):
                    return None
                base = ((x + _SPAN) * 2 * _SPAN + y + _SPAN) * 4
                for q in turns:
                    codes.append(base + q)
        codes.sort()
        return codes

    def _placements_far(self, tile: TileType) -> list[tuple[int, int, int]]:
        """``placements_of`` on a board that reaches ``_SPAN`` cells from the start."""
        fit = tile.fitting
        out = [
            (x, y, 90 * q)
            for key, cells in self.frontier_keys.items() if (turns := fit.get(key, ()))
            for x, y in cells
            for q in turns
        ]
        out.sort()
        return out

    def neighbours(self, cell: Cell) -> int:
        """How many of the 8 cells around ``cell`` hold a tile."""
        known = self.cloister_around.get(cell)  # kept up to date around cloisters
        if known is not None:
            return known
        x, y = cell
        board = self.board
        count = 0
        # written out: the loops over (-1, 0, 1) cost ten times as much, compiled
        for c in ((x - 1, y - 1), (x, y - 1), (x + 1, y - 1), (x - 1, y), (x + 1, y),
                  (x - 1, y + 1), (x, y + 1), (x + 1, y + 1)):
            if c in board:
                count += 1
        return count

    def features(self) -> list[Feature]:
        """Every feature (one per root), in creation order."""
        # each put at its first node (a feature's smallest): no sort with a key per feature
        feature = self.graph.feature
        by_first: list[Feature | None] = [None] * len(feature)
        for f in feature:
            if f is not None:
                by_first[f.first] = f
        return [f for f in by_first if f is not None]

    def cells_of(self, feat: Feature) -> list[list[int]]:
        return sorted([list(self.placements[t].cell) for t in feat.tiles])

    def terrain(self, letter: str) -> str:
        return self.TERRAIN.get(letter, letter)

    def _check_placement(self, tile: TileType, cell: Cell, q: int) -> None:
        x, y = cell
        if cell in self.board:
            there = self.board[cell].tile
            raise IllegalMove("G4", f"cell ({x},{y}) already holds tile {there.id} "
                              f"({there.words})")
        key = self.frontier.get(cell)
        if key is None:
            raise IllegalMove("G4", f"cell ({x},{y}) shares no side with a placed tile")
        if q in tile.fitting.get(key, ()):
            return
        edges = tile.rotations[q].edges
        for s in range(4):
            if key[s] != "." and key[s] != edges[s]:
                dx, dy = SIDE_DELTA[s]
                other = self.board[(x + dx, y + dy)]
                raise IllegalMove(
                    "G4", f"tile {tile.id} ({tile.words}) at ({x},{y}), {turned(90 * q)}: its "
                    f"{SIDE_WORDS[s]} side ({self.terrain(edges[s])}) meets "
                    f"{self.terrain(key[s])} of tile {other.tile.id} ({other.tile.words}) "
                    f"at ({x + dx},{y + dy})")

    def _prospective(self, tile: TileType, cell: Cell, q: int) -> list[list[int]]:
        """For each segment of a tile not yet placed: the roots of the features it would join.

        Segments of the new tile can join each other through a neighbour's feature, so the
        closure is taken over the small graph of (new segment, neighbour root) links.
        """
        # the graph's roots change only when a tile is placed (which adds nodes): the last
        # answer holds while the graph has as many nodes (a move asks up to four times)
        size = len(self.graph.parent)
        last = self._last_prospective
        if (last is not None and last[0] is tile and last[1] == cell and last[2] == q
                and last[3] == size):
            return last[4]
        # the loop of ``_across`` and ``link``, written out: this runs on every move with a
        # figure, and makes no (segment, root) pair
        rot = tile.rotations[q]
        x, y = cell
        graph = self.graph  # ``graph.find(...)``: a direct call once compiled (a bound method
        by_root: dict[int, int] = {}  # kept in a local is called as a Python object)
        meets: list[tuple[int, int]] = []  # two segments of the tile reach one root
        for s in range(4):
            dx, dy = SIDE_DELTA[s]
            nb = self.board.get((x + dx, y + dy))
            if nb is None:
                continue
            nside = nb.tile.rotations[nb.rot].side_j[(s + 2) % 4]
            first = nb.first_node
            for j, seg in rot.side_pairs[s]:
                for nseg in nside[2 - j]:
                    root = graph.find(first + nseg)
                    other = by_root.setdefault(root, seg)
                    if other != seg:
                        meets.append((seg, other))
        groups = group_links(len(tile.segments), by_root, meets)
        self._last_prospective = (tile, cell, q, size, groups)
        return groups

    def _across(self, tile: TileType, cell: Cell, q: int) -> Iterator[tuple[int, int]]:
        """(segment of the tile, node of a neighbour's segment) for every pair of segments
        that meet across a side when the tile lies at ``cell`` turned ``q`` quarter turns."""
        rot = tile.rotations[q]
        x, y = cell
        for s in range(4):
            dx, dy = SIDE_DELTA[s]
            nb = self.board.get((x + dx, y + dy))
            if nb is None:
                continue
            nside = nb.tile.rotations[nb.rot].side_j[(s + 2) % 4]
            for j, seg in rot.side_pairs[s]:
                for nseg in nside[2 - j]:
                    yield seg, nb.first_node + nseg

    def _place(self, tile: TileType, q: int, cell: Cell, player: int | None) -> Placement:
        rot = tile.rotations[q]
        graph = self.graph
        parent = graph.parent
        feature = graph.feature
        board = self.board
        frontier = self.frontier
        keys = self.frontier_keys
        index = len(self.placements)
        first = len(parent)
        # compiled, a ``Cell`` local is unboxed and boxed again at each use as a key: the cells
        # this places and looks at are made boxed once (``Any``)
        at: Any = cell
        placement = Placement(index, tile, q, at, first, player)
        seeds = tile.seeds
        n = len(seeds)
        # the tile's segments are new nodes; a segment's ``Feature`` is made only when it stays
        # a root (one that joins a larger feature is added to it in place, see below)
        for k in range(n):  # a compiled loop (``extend`` would go through a range object)
            parent.append(first + k)
            feature.append(None)
        opens = list(tile.open_sides)
        if tile.cloister_segs:
            self._add_cloister(tile, cell, first)
        board[at] = placement
        self.placements.append(placement)
        x, y = cell
        self.hash ^= _tile_item(x, y, tile.id, q)
        # ``get`` and ``del``, not ``pop``: compiled, ``dict.pop`` with a default is a method
        # call by name
        key = frontier.get(at)
        if key is not None:
            del frontier[at]
            same = keys[key]
            del same[at]
            if not same:
                del keys[key]
        # every side shared with a neighbour closes one open end on each side of it; the open
        # ends are counted before the features are joined (a join adds them up), so that the
        # tile's own features are still its own. An open cell across a side now demands this
        # tile's edge there.
        edges = rot.edges
        side_segs = rot.side_segs
        side_pairs = rot.side_pairs
        around: list[Any] = [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]
        joins: list[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...], int]] = []
        for s in range(4):
            ncell = around[s]
            nb = board.get(ncell)
            if nb is not None:
                o = (s + 2) % 4
                nrot = nb.tile.rotations[nb.rot]
                nfirst = nb.first_node
                for si in side_segs[s]:
                    opens[si] -= 1
                for ni in nrot.side_segs[o]:
                    nfeat = feature[graph.find(nfirst + ni)]
                    assert nfeat is not None
                    nfeat.open -= 1
                joins.append((side_pairs[s], nrot.side_j[o], nfirst))
                continue
            key = frontier.get(ncell)
            if key is None:  # a new open cell: the placed tile is its only neighbour
                key = _LONE_KEY[s][edges[s]]
            else:
                del frontier[ncell]  # (then put back last, as a new cell is)
                same = keys[key]
                del same[ncell]
                if not same:
                    del keys[key]
                o = (s + 2) % 4
                key = key[:o] + edges[s] + key[o + 1:]
            frontier[ncell] = key
            cells = keys.get(key)
            if cells is None:
                keys[key] = {ncell: None}
            else:
                cells[ncell] = None
        # the unions of ``FeatureGraph.union`` in the same order, with the same roots: a new
        # segment joining a feature of more than one node is absorbed by it (its record is
        # never made); joining a single node, it becomes the root (made, then joined)
        for pairs, nside, nfirst in joins:
            for j, si in pairs:
                a = first + si
                for ni in nside[2 - j]:
                    b = nfirst + ni
                    if feature[a] is None and parent[a] == a:
                        rb = graph.find(b)
                        fb = feature[rb]
                        assert fb is not None
                        if len(fb.nodes) > 1:
                            fb.nodes.append(a)
                            fb.tiles.add(index)
                            fb.open += opens[si]
                            seed = seeds[si]
                            if seed.counts:
                                fb.pennants += seed.pennants
                                fb.add_counts(seed.counts)
                                if seed.flags:
                                    fb.add_flags(seed.flags)
                            if seed.touches:
                                fb.add_touches([first + t for t in seed.touches])
                            parent[a] = rb
                            continue
                        feature[a] = _seed_feature(seeds[si], first, si, index, opens[si], at)
                    graph.union(a, b)
        for k in range(n):
            node = first + k
            if parent[node] == node and feature[node] is None:
                feature[node] = _seed_feature(seeds[k], first, k, index, opens[k], at)
        return placement

    @abc.abstractmethod
    def is_complete(self, feat: Feature) -> bool:
        """Whether a feature is complete (``TileState`` says)."""

    def _completed_cloisters(self, cell: Cell, done: dict[int, Feature]) -> None:
        """Add to ``done`` (root -> feature) the cloisters a tile put at ``cell`` completed."""
        graph = self.graph
        feature = graph.feature
        cloisters = self.cloisters
        around = self.cloister_around
        for near in self.near_cloisters.pop(cell):  # no tile comes here again
            if near != cell:  # a neighbour: one more of its 8 (``_add_cloister`` counted it)
                around[near] += 1
            root = graph.find(cloisters[near])
            feat = feature[root]
            assert feat is not None
            if root not in done and not feat.scored and self.is_complete(feat):
                done[root] = feat

    def _add_cloister(self, tile: TileType, cell: Cell, first: int) -> None:
        """A cloister placed at ``cell``: the tiles that may complete it are those put in its
        3 x 3 block (its own included, placed first)."""
        for k in tile.cloister_segs:
            self.cloisters[cell] = first + k
        x, y = cell
        near = self.near_cloisters
        board = self.board
        around = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = (x + dx, y + dy)
                if c == cell or c not in board:
                    near.setdefault(c, []).append(cell)
                else:
                    around += 1
        # the neighbours counted as tiles come (``_completed_cloisters``), not looked up each
        # time a completion is checked
        self.cloister_around[cell] = around


class _LoneKeys(dict[str, str]):
    """Edge letter -> the frontier key of an open cell whose only neighbour shows that letter
    on one side (the one of this table, see ``_LONE_KEY``)."""

    def __init__(self, side: int) -> None:
        super().__init__()
        self.side = side

    def __missing__(self, letter: str) -> str:
        key = "".join(letter if s == self.side else "." for s in range(4))
        self[letter] = key
        return key


# per side s of a placed tile: the key of a new open cell across s (its side OPPOSITE[s])
_LONE_KEY = tuple(_LoneKeys(OPPOSITE[s]) for s in range(4))

# tile id -> (x, y, quarter turns) packed in an int -> ``hashing.item("t", x, y, id, q)``;
# each table keeps at most _TILE_ITEMS_MAX values (a long-lived process sees many cells)
_TILE_ITEMS: dict[str, dict[int, int]] = {}
_TILE_ITEMS_MAX: Final = 20_000


def _tile_item(x: int, y: int, tile_id: str, q: int) -> int:
    """The hash item of a tile on a cell (``hashing.item("t", ...)``), from a table."""
    if not (-_SPAN < x < _SPAN and -_SPAN < y < _SPAN):
        return hashing.item("t", x, y, tile_id, q)
    table = _TILE_ITEMS.get(tile_id)
    if table is None:
        table = _TILE_ITEMS[tile_id] = {}
    code = (x * 2 * _SPAN + y) * 4 + q  # one int per (x, y, q)
    value = table.get(code)
    if value is None:
        value = hashing.text_item(f"t|{x}|{y}|{tile_id}|{q}")
        if len(table) < _TILE_ITEMS_MAX:
            table[code] = value
    return value


def _unpack(code: int) -> tuple[int, int, int]:
    """(x, y, rotation in degrees) of a placement packed by ``_placement_codes``."""
    span = 2 * _SPAN
    return (code // 4 // span - _SPAN, code // 4 % span - _SPAN, 90 * (code % 4))


def _seed_feature(seed: SegmentSeed, first: int, k: int, index: int, open_ends: int,
                  cell: Cell) -> Feature:
    """The feature of segment ``k`` of a tile just placed at ``cell`` (placement ``index``,
    first node ``first``)."""
    feat = Feature(seed.type, first + k, index, open_ends)
    if seed.counts:
        feat.pennants = seed.pennants
        feat.counts = dict(seed.counts)
        if seed.flags:
            feat.flags = set(seed.flags)
    if seed.touches:
        feat.touches = [first + t for t in seed.touches]
    if seed.cloister:
        feat.cell = cell
    return feat

