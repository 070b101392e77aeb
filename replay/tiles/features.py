"""The feature graph: segments joined across tiles, with incremental union-find.

Every placed segment is a node (an int). A feature is the set of nodes under one root; its
``Feature`` record holds everything scoring needs, kept up to date on each union so that
completion is a counter test (``open == 0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
@dataclass(slots=True)
class Figure:
    """A figure on the board: whose, what kind, on which segment node, cell and location,
    with its strength in majorities (G8)."""

    player: int
    kind: str  # "follower" | "large-follower" | "shepherd" | "hut"
    node: int
    cell: tuple[int, int]
    location: str
    strength: int
    hill: bool  # stands on a hill tile (HS8)

    # written out, so that it compiles (a dataclass's own ``__init__`` is interpreted)
    def __init__(self, player: int, kind: str, node: int, cell: tuple[int, int],
                 location: str, strength: int, hill: bool) -> None:
        self.player = player
        self.kind = kind
        self.node = node
        self.cell = cell
        self.location = location
        self.strength = strength
        self.hill = hill

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # explicit, as the compiled class's pickling calls ``__init__`` with no arguments
        return (Figure, (self.player, self.kind, self.node, self.cell, self.location,
                         self.strength, self.hill))


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class Feature:
    """A feature (the segments joined under one root) with everything scoring needs: its
    tiles, open ends (complete at ``open == 0``), figures, symbols and flags."""

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
        self.figures: list[Figure] = []
        self.flags: set[str] = set()
        self.touches: list[int] = []  # nodes of other features this one borders (fields: cities)
        self.scored = False
        self.cell: tuple[int, int] | None = None  # cloisters only
        self.counts: dict[str, int] = {}  # symbol totals (fish, gold, deer, ...)
        self.tokens: list[tuple[int, int]] = []  # Hills & Sheep flock: (draw number, sheep)

    def absorb(self, other: Feature) -> None:
        if other.first < self.first:
            self.first = other.first
        self.nodes.extend(other.nodes)
        self.tiles |= other.tiles
        self.open += other.open
        self.pennants += other.pennants
        if other.figures:
            self.figures.extend(other.figures)
        if other.flags:
            self.flags |= other.flags
        if other.touches:
            self.touches.extend(other.touches)
        if other.scored:
            self.scored = True
        if other.counts:
            counts = self.counts
            for k, v in other.counts.items():
                counts[k] = counts.get(k, 0) + v
        if other.tokens:
            self.tokens.extend(other.tokens)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class FeatureGraph:
    """The placed segments as union-find nodes; each root holds its feature's ``Feature``."""

    __slots__ = ("parent", "feature")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.feature: list[Feature | None] = []

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
