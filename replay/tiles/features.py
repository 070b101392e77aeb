"""The feature graph: segments joined across tiles, with incremental union-find.

Every placed segment is a node (an int). A feature is the set of nodes under one root; its
``Feature`` record holds everything scoring needs, kept up to date on each union so that
completion is a counter test (``open == 0``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from ..core.values import value_type
from .empty import EmptyDict, EmptyList, EmptySet


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class Figure:
    """A figure on the board: whose, what kind, on which segment node, cell and location,
    with its strength in majorities (G8). Never changed once made: a state's copies share
    it (``Feature.copy``)."""

    player: int
    kind: str  # "follower" | "large-follower" | "shepherd" | a family's own kind
    node: int
    cell: tuple[int, int]
    location: str
    strength: int
    hill: bool  # stands on a hill tile (HS8)

    def __init__(self, player: int, kind: str, node: int, cell: tuple[int, int],
                 location: str, strength: int, hill: bool) -> None:
        self.player = player
        self.kind = kind
        self.node = node
        self.cell = cell
        self.location = location
        self.strength = strength
        self.hill = hill


# pickled as a call of the class with its fields (``value_type``): a compiled class's own
# pickling would call ``__init__`` with no arguments
value_type(Figure, frozen=False)


# A new feature starts with these shared empty containers (``tiles/empty.py``: most features
# never get a figure, flag, border, symbol or token, and a move makes three or four); it gets
# its own on its first addition, through the ``add_`` methods. ``tiles/snapshot.py`` shares
# them between a state and its copies.
_NO_FIGURES: Final[list[Figure]] = EmptyList()
_NO_FLAGS: Final[set[str]] = EmptySet()
_NO_TOUCHES: Final[list[int]] = EmptyList()
_NO_COUNTS: Final[dict[str, int]] = EmptyDict()
_NO_TOKENS: Final[list[tuple[int, int]]] = EmptyList()
SHARED_EMPTY: Final[tuple[Any, ...]] = (_NO_FIGURES, _NO_FLAGS, _NO_TOUCHES, _NO_COUNTS,
                                        _NO_TOKENS)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class Feature:
    """A feature (the segments joined under one root) with everything scoring needs: its
    tiles, open ends (complete at ``open == 0``), figures, symbols and flags. Its figures,
    flags, touches, counts and tokens change only through its ``add_`` methods (they may be
    shared empty containers until then)."""

    __slots__ = (
        "type", "first", "nodes", "tiles", "open", "pennants", "figures", "flags",
        "touches", "scored", "cell", "counts", "tokens",
    )

    def __init__(self, seg_type: str, node: int, tile: int, open_sides: int) -> None:
        self.type = seg_type
        self.first = node  # smallest node id: a stable, creation-ordered name of the feature
        self.nodes = [node]
        self.tiles = {tile}
        self.open = open_sides
        self.pennants = 0
        self.figures: list[Figure] = _NO_FIGURES
        self.flags: set[str] = _NO_FLAGS
        self.touches: list[int] = _NO_TOUCHES  # nodes of other features it borders (fields)
        self.scored = False
        self.cell: tuple[int, int] | None = None  # cloisters only
        self.counts: dict[str, int] = _NO_COUNTS  # symbol totals (pennants, ...)
        # tokens an expansion lays on the feature, as (draw number, value), that stay with it
        # when features join (the sheep of a shepherd's flock, say)
        self.tokens: list[tuple[int, int]] = _NO_TOKENS

    def add_figure(self, fig: Figure) -> None:
        if self.figures is _NO_FIGURES:
            self.figures = [fig]
        else:
            self.figures.append(fig)

    def add_flags(self, flags: Iterable[str]) -> None:
        if self.flags is _NO_FLAGS:
            self.flags = set(flags)
        else:
            self.flags.update(flags)

    def add_touches(self, nodes: Iterable[int]) -> None:
        if self.touches is _NO_TOUCHES:
            self.touches = list(nodes)
        else:
            self.touches.extend(nodes)

    def add_counts(self, counts: Mapping[str, int]) -> None:
        """Add symbol totals (``counts`` of a segment or of another feature)."""
        if self.counts is _NO_COUNTS:
            self.counts = dict(counts)
            return
        mine = self.counts
        for k, v in counts.items():
            mine[k] = mine.get(k, 0) + v

    def add_token(self, token: tuple[int, int]) -> None:
        if self.tokens is _NO_TOKENS:
            self.tokens = [token]
        else:
            self.tokens.append(token)

    def copy(self) -> Feature:
        """An independent copy (``TileState.copy``): its containers copied but the empty ones,
        which are the shared empty ones of a new feature in the copy (its ``add_`` methods
        give it its own); its figures, which never change, shared."""
        new = Feature(self.type, self.first, 0, self.open)
        new.nodes = list(self.nodes)
        new.tiles = set(self.tiles)
        new.pennants = self.pennants
        new.scored = self.scored
        new.cell = self.cell
        if self.figures:
            new.figures = list(self.figures)
        if self.flags:
            new.flags = set(self.flags)
        if self.touches:
            new.touches = list(self.touches)
        if self.counts:
            new.counts = dict(self.counts)
        if self.tokens:
            new.tokens = list(self.tokens)
        return new

    def absorb(self, other: Feature) -> None:
        if other.first < self.first:
            self.first = other.first
        self.nodes.extend(other.nodes)
        self.tiles |= other.tiles
        self.open += other.open
        self.pennants += other.pennants
        if other.figures:
            if self.figures is _NO_FIGURES:
                self.figures = list(other.figures)
            else:
                self.figures.extend(other.figures)
        if other.flags:
            self.add_flags(other.flags)
        if other.touches:
            self.add_touches(other.touches)
        if other.scored:
            self.scored = True
        if other.counts:
            self.add_counts(other.counts)
        if other.tokens:
            if self.tokens is _NO_TOKENS:
                self.tokens = list(other.tokens)
            else:
                self.tokens.extend(other.tokens)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class FeatureGraph:
    """The placed segments as union-find nodes; each root holds its feature's ``Feature``."""

    __slots__ = ("parent", "feature")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.feature: list[Feature | None] = []

    def copy(self) -> FeatureGraph:
        """An independent copy: the same nodes, each feature copied (``Feature.copy``)."""
        new = FeatureGraph()
        new.parent = list(self.parent)
        feature = new.feature
        for f in self.feature:
            feature.append(None if f is None else f.copy())
        return new

    def add(self, feature: Feature) -> int:
        node = len(self.parent)
        self.parent.append(node)
        self.feature.append(feature)
        return node

    def add_all(self, features: list[Feature]) -> None:
        """Add the features of a new tile's segments, whose nodes follow the last one's."""
        self.parent.extend(range(len(self.parent), len(self.parent) + len(features)))
        self.feature.extend(features)

    def find(self, node: int) -> int:
        parent = self.parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def of(self, node: int) -> Feature:
        feat = self.feature[self.find(node)]
        assert feat is not None
        return feat

    def union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        fa, fb = self.feature[ra], self.feature[rb]
        assert fa is not None and fb is not None
        if len(fa.nodes) < len(fb.nodes):
            ra, rb, fa, fb = rb, ra, fb, fa
        fa.absorb(fb)
        self.parent[rb] = ra
        self.feature[rb] = None
        return ra


def group_links(n: int, by_root: dict[int, int],
                joined: Sequence[tuple[int, int]] = ()) -> list[list[int]]:
    """Per segment of a new tile, the roots it joins. ``by_root``: each root a neighbour's
    feature offers -> the first segment of the tile that reaches it; ``joined``: pairs of the
    tile's segments that are one feature (joined on the tile itself, or reaching one root:
    see ``link``)."""
    groups: list[list[int]] = [[] for _ in range(n)]
    if not joined:  # the usual case: no two segments of the tile meet
        for root, seg in by_root.items():
            groups[seg].append(root)
        return groups
    comp = list(range(n))

    def f(a: int) -> int:
        while comp[a] != a:
            a = comp[a]
        return a

    for a0, b0 in joined:
        a, b = f(a0), f(b0)
        if a != b:
            comp[a] = b
    roots_of: dict[int, list[int]] = {}
    for root, seg in by_root.items():
        roots_of.setdefault(f(seg), []).append(root)
    for i in range(n):
        groups[i] = roots_of.get(f(i), [])
    return groups


def link(by_root: dict[int, int], joined: list[tuple[int, int]], seg: int, root: int) -> None:
    """Segment ``seg`` of a new tile reaches the feature of ``root`` (for ``group_links``)."""
    other = by_root.setdefault(root, seg)
    if other != seg:
        joined.append((seg, other))
