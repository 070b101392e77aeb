"""The game state and the turn sequence: draw, place, figure, score, return (G1-G12).

A ``Game`` is built from a ``GameConfig`` and advanced one ``Move`` at a time with ``play``.
``play`` checks the whole move before it changes anything: an illegal move raises
``IllegalMove`` naming the rule and leaves the state (and its hash) exactly as it was.
Scoring itself lives in ``replay.rules``; this module owns the board and the feature graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from . import hashing
from .errors import IllegalMove
from .features import Feature, FeatureGraph, Figure
from .rng import SeededStream
from .rules import base as base_rules
from .rules import hills_sheep
from .rules import hunters_gatherers as hg_rules
from .tileset import (
    ROLE,
    SIDE_DELTA,
    SIDES,
    TileSet,
    TileType,
    location_name,
)

Event = dict[str, Any]
Cell = tuple[int, int]

FIGURE_FAMILY = {
    "follower": "follower", "large-follower": "follower", "shepherd": "shepherd", "hut": "hut",
}
FIGURE_STRENGTH = {"follower": 1, "large-follower": 2, "shepherd": 0, "hut": 1}
FIGURE_SEGMENTS = {
    "follower": frozenset({"road", "city", "field", "cloister", "forest", "river", "meadow"}),
    "large-follower": frozenset({"road", "city", "field", "cloister"}),
    "shepherd": frozenset({"field"}),
    "hut": frozenset({"river", "lake"}),
}


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Options:
    small_city: int = 2  # B4a
    farm_scoring: str = "per-city"  # B8
    hill_tiebreak: str = "presence"  # HS8: "presence" or "count"
    return_timing: str = "end-of-turn"  # HG6: "end-of-turn" or "immediate"

    def as_dict(self, game: str = "base") -> dict[str, Any]:
        if game == "hunters-gatherers":
            return {"return_timing": self.return_timing}
        out: dict[str, Any] = {"small_city": self.small_city, "farm_scoring": self.farm_scoring}
        if self.hill_tiebreak != "presence":
            out["hill_tiebreak"] = self.hill_tiebreak
        return out


def supply_for(game: str, expansions: tuple[str, ...] | list[str]) -> dict[str, int]:
    """Starting figures of each player (B1, IC1, HS1, HG1)."""
    if game == "hunters-gatherers":
        return {"follower": 5, "hut": 2}
    supply = {"follower": 7}
    if "inns-cathedrals" in expansions:
        supply["large-follower"] = 1
    if "hills-sheep" in expansions:
        supply["shepherd"] = 1
    return supply


@dataclass(frozen=True, slots=True)
class GameConfig:
    game: str
    expansions: tuple[str, ...]
    players: tuple[Player, ...]
    options: Options
    tileset: TileSet
    seed: str | None  # None: the tiles come from the moves (a game played on a table, L1)
    supply: dict[str, int] = field(default_factory=lambda: {"follower": 7})


@dataclass(frozen=True, slots=True)
class FigureChoice:
    kind: str
    location: str


@dataclass(frozen=True, slots=True)
class FlockChoice:
    """HS3: for the field holding this player's shepherd that the new tile extends (named by a
    location of the new tile), draw a token ("expand") or score the flock ("herd")."""

    location: str
    action: str


@dataclass(frozen=True, slots=True)
class Move:
    x: int = 0
    y: int = 0
    rotation: int = 0
    tile: str | None = None
    figure: FigureChoice | None = None
    discard: bool = False
    flock: tuple[FlockChoice, ...] = ()
    tokens: tuple[int, ...] = ()  # sheep tokens drawn (0 = wolf): required in table logs
    hidden: str | None = None  # table logs: the tile put under a hill (HS7), if known
    bonus: Move | None = None  # Hunters & Gatherers: the bonus tile played in the same turn


@dataclass(slots=True)
class Placement:
    index: int
    tile: TileType
    rot: int  # quarter turns
    cell: Cell
    first_node: int
    player: int | None  # None for the start tile


class Game:
    """One game in progress: ``legal_placements``/``figure_options`` explore, ``play`` moves."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.tiles_by_id = config.tileset.by_id()
        self.graph = FeatureGraph()
        self.board: dict[Cell, Placement] = {}
        self.placements: list[Placement] = []
        self.frontier: dict[Cell, str] = {}
        self.cloisters: dict[Cell, int] = {}
        self.scores = [0] * len(config.players)
        self.supply = [dict(config.supply) for _ in config.players]
        self.turn = 0
        self.moves_played = 0
        self.finished = False
        self.discarded: list[str] = []
        self.events: list[Event] = []  # events of the move being played
        self.steps: list[Move] = []  # every step applied, to rebuild the game (see play)
        self.setup_events: list[Event] = []
        self.frontier_keys: dict[str, int] = {}  # key -> how many frontier cells have it
        self.hash = 0
        for p, score in enumerate(self.scores):
            self.hash ^= hashing.item("s", p, score)
        starts = [t for t in config.tileset.tiles if t.start]
        if len(starts) != 1:
            raise ValueError("a tile set needs exactly one start tile")
        self.start_tile = starts[0]
        self.pile: list[TileType] = []
        self.remaining: dict[str, int] = {}
        if config.seed is not None:
            self.pile = build_pile(config.tileset, config.seed)
        else:
            for t in config.tileset.tiles:
                self.remaining[t.id] = t.count - (1 if t.start else 0)
        self.pile_pos = 0
        self.hidden: list[str] = []  # tiles under hills (HS7); "?" when a table log did not say
        self.sheep = "hills-sheep" in config.expansions
        self.bag: list[int] = sorted(hills_sheep.BAG) if self.sheep else []
        self.token_draws = 0
        self._sheep_stream = (SeededStream(config.seed, "sheep")
                              if self.sheep and config.seed is not None else None)
        self.hg = config.game == "hunters-gatherers"
        self.net = FeatureGraph()  # HG8 river networks (rivers + lakes); unused elsewhere
        self.bonus_stack: list[TileType] = []
        self.bonus_pos = 0
        self.bonus_remaining: dict[str, int] = {}
        self.pending_bonus: TileType | None = None  # seeded: the bonus tile to play now
        self.bonus_due = False  # HG7: this turn's bonus tile comes next
        self.pending_returns: list[tuple[Feature, Figure]] = []
        if self.hg:
            bonus = [t for t in config.tileset.tiles if t.bonus for _ in range(t.count)]
            if config.seed is not None:
                SeededStream(config.seed, "bonus").shuffle(bonus)
                self.bonus_stack = bonus
            else:
                self.bonus_remaining = {t.id: t.count for t in config.tileset.tiles if t.bonus}
                for t in config.tileset.tiles:
                    if t.bonus:
                        self.remaining.pop(t.id, None)
        self.current: TileType | None = None
        self._place(self.start_tile, 0, (0, 0), None)
        self.hash ^= hashing.item("turn", self.turn)
        self.events = self.setup_events
        self._draw()
        self.events = []

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> tuple[Player, ...]:
        return self.config.players

    def tiles_left(self) -> int:
        if self.config.seed is not None:
            return len(self.pile) - self.pile_pos + (1 if self.current is not None else 0)
        return sum(self.remaining.values()) - self.hidden.count("?")

    def can_place(self, tile: TileType) -> bool:
        fits = tile.fits
        return any(fits(key) for key in self.frontier_keys)

    def legal_placements(self, tile: TileType | None = None) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation in degrees), sorted."""
        tile = tile or self.current
        if tile is None:
            return []
        out = [
            (x, y, 90 * q)
            for (x, y), key in self.frontier.items()
            for q in tile.fits(key)
        ]
        out.sort()
        return out

    def figure_options(self, tile: TileType, x: int, y: int, rotation: int,
                       player: int | None = None) -> list[FigureChoice]:
        """Legal figure choices after placing ``tile`` there (not including "no figure")."""
        p = self.turn if player is None else player
        q = rotation // 90
        rot = tile.rotations[q]
        groups = self._prospective(tile, (x, y), q)
        out: list[FigureChoice] = []
        for kind in sorted(self.supply[p]):
            if self.supply[p][kind] <= 0:
                continue
            family = FIGURE_FAMILY[kind]
            allowed = FIGURE_SEGMENTS[kind]
            graph = self.net if family == "hut" else self.graph
            kind_groups = self._prospective(tile, (x, y), q, net=True) if family == "hut" \
                else groups
            for seg in tile.segments:
                if seg.type not in allowed:
                    continue
                if self._occupied(kind_groups[seg.index], family, graph):
                    continue
                out.append(FigureChoice(kind, location_name(rot, seg.index)))
        return out

    def flock_required(self, tile: TileType, x: int, y: int, rotation: int) -> list[str]:
        """HS3: locations of the fields needing an expand-or-herd choice after this placement."""
        if not self.sheep:
            return []
        q = rotation // 90
        groups = self._prospective(tile, (x, y), q)
        return list(hills_sheep.shepherd_fields(self, tile, q, groups))

    # ------------------------------------------------------------------ moves

    def play(self, move: Move) -> list[Event]:
        """Play one turn of a log: the tile, and (Hunters & Gatherers) its bonus tile.

        Raises ``IllegalMove`` and leaves the state as it was. A turn with a bonus tile is two
        ``step``s; when its second half is wrong the game is rebuilt from its steps so far
        (errors are rare, turns are many: this costs nothing on the legal path).
        """
        idx = self.moves_played
        bonus = move.bonus
        done = len(self.steps)
        events = self.step(replace(move, bonus=None) if bonus is not None else move)
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

    def _rewind(self, steps: int) -> None:
        """Back to the state after the first ``steps`` steps, by replaying them."""
        fresh = Game(self.config)
        for m in self.steps[:steps]:
            fresh.step(m)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)

    def step(self, move: Move) -> list[Event]:
        """Check and apply one tile (a land tile, or the bonus tile a turn is waiting for).

        Returns its events. Raises ``IllegalMove`` and leaves the state exactly as it was.
        """
        idx = self.moves_played
        player_name = self.players[self.turn].name
        try:
            tile = self._check(move)
        except IllegalMove as exc:
            exc.move = idx
            exc.player = player_name
            if self.bonus_due:
                exc.message = f"bonus tile: {exc.message}"
            raise
        self.events = []
        self.steps.append(move)
        bonus_step = self.bonus_due
        if move.discard:
            self._discard(tile)
        else:
            self._apply(tile, move)
        if bonus_step:
            self._end_turn()
        if not self.bonus_due:
            self.moves_played += 1
            self.hash ^= hashing.item("moves", idx) ^ hashing.item("moves", idx + 1)
        events, self.events = self.events, []
        return events

    def _check(self, move: Move) -> TileType:
        if self.finished:
            raise IllegalMove("G11", "the game is over: the draw pile is empty")
        if move.discard and self.config.seed is not None:
            raise IllegalMove("G5", "seeded games discard unplaceable tiles by themselves; "
                              "a log never discards")
        tile = self._tile_for(move)
        if move.discard:
            if self.can_place(tile):
                first = self.legal_placements(tile)[0]
                raise IllegalMove("G5", f"tile {tile.id} is discarded but can be placed, "
                                  f"e.g. at ({first[0]},{first[1]}) rotation {first[2]}")
            return tile
        if move.rotation not in (0, 90, 180, 270):
            raise IllegalMove("G1", f"rotation {move.rotation} is not 0, 90, 180 or 270")
        cell = (move.x, move.y)
        q = move.rotation // 90
        self._check_placement(tile, cell, q)
        if move.figure is None and not (self.sheep or move.flock or move.tokens):
            groups: list[list[int]] = []
        else:
            groups = self._prospective(tile, cell, q)
        if move.figure is not None:
            self._check_figure(tile, cell, q, move.figure, groups)
        if self.sheep or move.flock or move.tokens:
            hills_sheep.check(self, tile, q, move, groups)
        if move.hidden is not None:
            self._check_hidden(tile, move.hidden)
        return tile

    def _check_hidden(self, tile: TileType, hidden: str) -> None:
        if not tile.hill:
            raise IllegalMove("HS7", f"tile {tile.id} is no hill: nothing goes under it")
        if self.config.seed is not None:
            nxt = self.pile[self.pile_pos].id if self.pile_pos < len(self.pile) else None
            if hidden != nxt:
                raise IllegalMove("HS7", f"the log hides {hidden} under the hill but the pile "
                                  f"gives {nxt or 'nothing (it is empty)'}")
            return
        left = self.remaining.get(hidden, 0) - (1 if hidden == tile.id else 0)
        if hidden not in self.tiles_by_id or left <= 0:
            raise IllegalMove("L1", f"tile {hidden} cannot go under the hill: none is left")

    def _tile_for(self, move: Move) -> TileType:
        if self.bonus_due:
            want = self.pending_bonus
            if want is None:
                tile = self.tiles_by_id.get(move.tile or "")
                if tile is None or not tile.bonus:
                    raise IllegalMove("L1", f"{move.tile!r} is not a bonus tile of "
                                      f"{self.config.tileset.id}")
                if self.bonus_remaining.get(tile.id, 0) <= 0:
                    raise IllegalMove("L1", f"bonus tile {tile.id} was already played")
                return tile
            if move.tile is not None and move.tile != want.id:
                raise IllegalMove("L1", f"the log names bonus tile {move.tile} but the seeded "
                                  f"bonus stack gives {want.id}")
            return want
        if self.config.seed is not None:
            assert self.current is not None
            if move.tile is not None and move.tile != self.current.id:
                raise IllegalMove("L1", f"the log names tile {move.tile} but the seeded pile "
                                  f"gives {self.current.id}")
            return self.current
        if move.tile is None:
            raise IllegalMove("L1", "a log without a seed must name the tile of every move")
        tile = self.tiles_by_id.get(move.tile)
        if tile is None:
            raise IllegalMove("L1", f"unknown tile {move.tile!r} (not in tile set "
                              f"{self.config.tileset.id})")
        if tile.bonus:
            raise IllegalMove("HG7", f"{tile.id} is a bonus tile: it is played only after a "
                              "forest with gold is completed")
        if self.remaining.get(tile.id, 0) <= 0:
            raise IllegalMove("L1", f"tile {tile.id} drawn more often than the set holds "
                              f"({tile.count - (1 if tile.start else 0)} in the pile)")
        return tile

    def _check_placement(self, tile: TileType, cell: Cell, q: int) -> None:
        x, y = cell
        if cell in self.board:
            raise IllegalMove("G4", f"cell ({x},{y}) already holds tile {self.board[cell].tile.id}")
        key = self.frontier.get(cell)
        if key is None or cell in self.board:
            raise IllegalMove("G4", f"cell ({x},{y}) shares no side with a placed tile")
        edges = tile.rotations[q].edges
        for s in range(4):
            if key[s] != "." and key[s] != edges[s]:
                dx, dy = SIDE_DELTA[s]
                other = self.board[(x + dx, y + dy)]
                raise IllegalMove(
                    "G4", f"tile {tile.id} rotated {90 * q} at ({x},{y}): its {SIDES[s]} side "
                    f"({self.terrain(edges[s])}) meets {self.terrain(key[s])} of tile "
                    f"{other.tile.id} "
                    f"at ({x + dx},{y + dy})")

    def _check_figure(self, tile: TileType, cell: Cell, q: int, fig: FigureChoice,
                      groups: list[list[int]]) -> None:
        p = self.turn
        if fig.kind not in self.supply[p]:
            raise IllegalMove("G6", f"figure {fig.kind!r} is not part of this game")
        if self.supply[p][fig.kind] <= 0:
            if any(f.player == p and f.kind == fig.kind for _, f in self.pending_returns):
                raise IllegalMove("HG6", f"{self.players[p].name}'s {fig.kind} recovered this "
                                  "turn returns only at the end of the turn")
            raise IllegalMove("G6", f"{self.players[p].name} has no {fig.kind} left in supply")
        rot = tile.rotations[q]
        seg_index = rot.locations.get(fig.location)
        if seg_index is None:
            names = sorted(rot.locations)
            raise IllegalMove("G6", f"tile {tile.id} rotated {90 * q} has no segment at "
                              f"{fig.location!r} (locations: {', '.join(names)})")
        seg = tile.segments[seg_index]
        if seg.type not in FIGURE_SEGMENTS[fig.kind]:
            raise IllegalMove(self._figure_rule(fig.kind), f"a {fig.kind} cannot stand on a "
                              f"{seg.type} ({fig.location})")
        family = FIGURE_FAMILY[fig.kind]
        if family == "hut":
            groups = self._prospective(tile, cell, q, net=True)
        holder = self._occupied(groups[seg_index], family, self.net if family == "hut" else None)
        if holder is not None:
            what = f"river network of the {seg.type}" if family == "hut" else seg.type
            raise IllegalMove(
                self._figure_rule(fig.kind),
                f"the {what} at {fig.location} already holds a {holder.kind} of "
                f"{self.players[holder.player].name} at ({holder.cell[0]},{holder.cell[1]}) "
                f"{holder.location}")

    def _figure_rule(self, kind: str) -> str:
        return {"shepherd": "HS2", "hut": "HG3"}.get(kind, "G6")

    def _occupied(self, roots: list[int], family: str,
                  graph: FeatureGraph | None = None) -> Figure | None:
        graph = graph or self.graph
        for r in roots:
            feat = graph.feature[r]
            assert feat is not None
            for f in feat.figures:
                if FIGURE_FAMILY[f.kind] == family:
                    return f
        return None

    def _prospective(self, tile: TileType, cell: Cell, q: int,
                     net: bool = False) -> list[list[int]]:
        """For each segment of a tile not yet placed: the roots of the features it would join.

        Segments of the new tile can join each other through a neighbour's feature, so the
        closure is taken over the small graph of (new segment, neighbour root) links.
        """
        rot = tile.rotations[q]
        x, y = cell
        graph = self.net if net else self.graph
        links: list[tuple[int, int]] = []
        for s in range(4):
            dx, dy = SIDE_DELTA[s]
            nb = self.board.get((x + dx, y + dy))
            if nb is None:
                continue
            nrot = nb.tile.rotations[nb.rot]
            o = (s + 2) % 4
            for j, seg in rot.side_pairs[s]:
                if net and tile.segments[seg].type != "river":
                    continue
                for nseg in nrot.side_j[o][2 - j]:
                    links.append((seg, graph.find(nb.first_node + nseg)))
        n = len(tile.segments)
        groups: list[list[int]] = [[] for _ in range(n)]
        if not links:
            return groups
        # union-find on new segments, keyed through the neighbour roots
        comp = list(range(n))

        def f(a: int) -> int:
            while comp[a] != a:
                a = comp[a]
            return a

        if net:  # rivers flow into the lakes of their own tile
            for river in tile.segments:
                for lake in river.touches if river.type == "river" else ():
                    a, b = f(river.index), f(lake)
                    if a != b:
                        comp[a] = b
        by_root: dict[int, int] = {}
        for seg, root in links:
            if root in by_root:
                a, b = f(seg), f(by_root[root])
                if a != b:
                    comp[a] = b
            else:
                by_root[root] = seg
        roots_of: dict[int, list[int]] = {}
        for root, seg in by_root.items():
            roots_of.setdefault(f(seg), []).append(root)
        for i in range(n):
            groups[i] = roots_of.get(f(i), [])
        return groups

    # ------------------------------------------------------------------ applying

    def _apply(self, tile: TileType, move: Move) -> None:
        p = self.turn
        q = move.rotation // 90
        cell = (move.x, move.y)
        bonus_step = self.bonus_due
        if bonus_step:
            self._bonus_taken(tile)
        elif self.config.seed is None:
            self.remaining[tile.id] -= 1
        self.current = None
        placement = self._place(tile, q, cell, p)
        self.events.append({"type": "place", "player": p, "tile": tile.id, "x": move.x,
                            "y": move.y, "rotation": move.rotation,
                            **({"bonus": True} if bonus_step else {})})
        if move.figure is not None:
            self._put_figure(placement, move.figure)
        if self.sheep:
            hills_sheep.after_figure(self, placement, move)
        if tile.hill:
            self._hide_under_hill(tile, move.hidden)
        completed = self._after_placement(placement)
        if bonus_step:
            return  # step() ends the turn
        if self.hg and any(f.type == "forest" and f.counts.get("gold") for f in completed):
            self._offer_bonus()
            if self.bonus_due:
                return
        self._end_turn()

    def _bonus_taken(self, tile: TileType) -> None:
        """The bonus tile of this turn leaves its stack (placed or discarded)."""
        self.bonus_due = False
        self.pending_bonus = None
        self.hash ^= hashing.item("bonus-due")
        if self.config.seed is None:
            self.bonus_remaining[tile.id] -= 1
            self.hash ^= hashing.item("bonus-played", tile.id, self.bonus_remaining[tile.id])

    def _offer_bonus(self) -> None:
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
        self.events.append({"type": "bonus", "player": self.turn, "tile": tile.id, "rule": "HG7"})
        if not self.can_place(tile):
            self.discarded.append(tile.id)
            self.events.append({"type": "discard", "player": self.turn, "tile": tile.id,
                                "rule": "HG7"})
            return
        self.bonus_due = True
        self.pending_bonus = tile
        self.hash ^= hashing.item("bonus-due")

    def _hide_under_hill(self, tile: TileType, named: str | None) -> None:
        """HS7: the next tile of the pile goes under the hill, unseen and out of the game."""
        if self.config.seed is not None:
            if self.pile_pos >= len(self.pile):
                return
            hidden = self.pile[self.pile_pos].id
            self.pile_pos += 1
            self.hash ^= hashing.item("drawn", self.pile_pos - 1)
            self.hash ^= hashing.item("drawn", self.pile_pos)
        else:
            if self.tiles_left() == 0:
                return
            hidden = named or "?"
            if named is not None:
                self.remaining[named] -= 1
        self.hidden.append(hidden)
        self.hash ^= hashing.item("hidden", len(self.hidden), hidden)
        self.events.append({"type": "hidden", "player": self.turn, "tile": hidden,
                            "rule": "HS7"})

    # Hills & Sheep bag (HS1): see rules/hills_sheep.py for the draw algorithm
    def draw_token(self) -> int:
        assert self._sheep_stream is not None
        return self.bag[self._sheep_stream.below(len(self.bag))]

    def peek_tokens(self, n: int) -> list[int] | None:
        """The next ``n`` seeded draws, assuming no token comes back in between (None: table)."""
        if self._sheep_stream is None:
            return None
        stream = self._sheep_stream.copy()
        bag = list(self.bag)
        out = []
        for _ in range(n):
            out.append(bag.pop(stream.below(len(bag))))
        return out

    def take_token(self, value: int) -> None:
        self.bag.remove(value)
        self.hash ^= hashing.item("draws", self.token_draws)
        self.token_draws += 1
        self.hash ^= hashing.item("draws", self.token_draws)

    def bag_return(self, value: int) -> None:
        self.bag.append(value)
        self.bag.sort()

    def _discard(self, tile: TileType) -> None:
        if self.bonus_due:
            self._bonus_taken(tile)
            self.discarded.append(tile.id)
            self.events.append({"type": "discard", "player": self.turn, "tile": tile.id,
                                "rule": "HG7"})
            return
        self.remaining[tile.id] -= 1
        self.discarded.append(tile.id)
        self.hash ^= hashing.item("discard", len(self.discarded), tile.id)
        self.events.append({"type": "discard", "player": self.turn, "tile": tile.id,
                            "rule": "G5"})
        if self.tiles_left() == 0:
            self._finish()

    def _place(self, tile: TileType, q: int, cell: Cell, player: int | None) -> Placement:
        rot = tile.rotations[q]
        graph = self.graph
        index = len(self.placements)
        first = len(graph.parent)
        placement = Placement(index, tile, q, cell, first, player)
        open_sides = tile.open_sides
        for seg in tile.segments:
            feat = Feature(seg.type, first + seg.index, index, open_sides[seg.index])
            feat.pennants = seg.attr("pennants")
            if seg.attrs:
                for k, v in seg.attrs.items():
                    feat.counts[k] = v
                if seg.attr("inn"):
                    feat.flags.add("inn")
                if seg.attr("cathedral"):
                    feat.flags.add("cathedral")
            if seg.touches:
                feat.touches = [first + t for t in seg.touches]
            if seg.type == "cloister":
                feat.cell = cell
            graph.add(feat)
            if self.hg:
                self._add_net_node(seg, first, index, open_sides[seg.index])
        if self.hg:
            for seg in tile.segments:
                if seg.type == "river":
                    for lake in seg.touches:
                        self.net.union(first + seg.index, first + lake)
        self.board[cell] = placement
        self.placements.append(placement)
        x, y = cell
        self.hash ^= hashing.item("t", x, y, tile.id, q)
        for s in range(4):
            dx, dy = SIDE_DELTA[s]
            ncell = (x + dx, y + dy)
            nb = self.board.get(ncell)
            if nb is None:
                continue
            o = (s + 2) % 4
            nrot = nb.tile.rotations[nb.rot]
            for si in rot.side_segs[s]:
                graph.of(first + si).open -= 1
            for ni in nrot.side_segs[o]:
                graph.of(nb.first_node + ni).open -= 1
            for j, si in rot.side_pairs[s]:
                for ni in nrot.side_j[o][2 - j]:
                    graph.union(first + si, nb.first_node + ni)
                    if self.hg and tile.segments[si].type == "river":
                        self.net.union(first + si, nb.first_node + ni)
        self._frontier_remove(cell)
        edges = rot.edges
        for s in range(4):
            dx, dy = SIDE_DELTA[s]
            ncell = (x + dx, y + dy)
            if ncell in self.board:
                continue
            key = self.frontier.get(ncell)
            if key is None:
                key = self._frontier_key(ncell)
            else:
                self._frontier_remove(ncell)
                o = (s + 2) % 4
                key = key[:o] + edges[s] + key[o + 1:]
            self.frontier[ncell] = key
            self.frontier_keys[key] = self.frontier_keys.get(key, 0) + 1
        if tile.has_cloister():
            for seg in tile.segments:
                if seg.type == "cloister":
                    self.cloisters[cell] = first + seg.index
        return placement

    def _add_net_node(self, seg: Any, first: int, index: int, open_sides: int) -> None:
        """HG8: the river network graph mirrors the node ids; a river joins its own lakes.

        Only rivers and lakes get a record; other nodes are placeholders that keep ids aligned.
        """
        if seg.type not in ("river", "lake"):
            self.net.parent.append(first + seg.index)
            self.net.feature.append(None)
            return
        feat = Feature(seg.type, first + seg.index, index, open_sides)
        if seg.type == "lake":
            feat.counts["fish"] = seg.attr("fish")
        self.net.add(feat)

    def _frontier_remove(self, cell: Cell) -> None:
        key = self.frontier.pop(cell, None)
        if key is not None:
            left = self.frontier_keys[key] - 1
            if left:
                self.frontier_keys[key] = left
            else:
                del self.frontier_keys[key]

    def _frontier_key(self, cell: Cell) -> str:
        x, y = cell
        key = []
        for s in range(4):
            dx, dy = SIDE_DELTA[s]
            nb = self.board.get((x + dx, y + dy))
            key.append("." if nb is None else nb.tile.rotations[nb.rot].edges[(s + 2) % 4])
        return "".join(key)

    def _put_figure(self, placement: Placement, choice: FigureChoice) -> None:
        p = self.turn
        rot = placement.tile.rotations[placement.rot]
        seg_index = rot.locations[choice.location]
        node = placement.first_node + seg_index
        fig = Figure(p, choice.kind, node, placement.cell, choice.location,
                     FIGURE_STRENGTH[choice.kind], placement.tile.hill)
        seg = placement.tile.segments[seg_index]
        target = self.net.of(node) if choice.kind == "hut" else self.graph.of(node)
        target.figures.append(fig)
        if seg.attr("sacred") and choice.kind == "follower":
            target.flags.add(f"sacred:{p}")  # HG11: this hunter's player alone scores
        self._take_from_supply(fig)
        seg_type = seg.type
        self.events.append({"type": "figure", "player": p, "kind": choice.kind,
                            "x": placement.cell[0], "y": placement.cell[1],
                            "location": choice.location,
                            "role": ROLE.get(seg_type) if FIGURE_FAMILY[choice.kind] == "follower"
                            else choice.kind,
                            "feature": seg_type})

    def _take_from_supply(self, fig: Figure) -> None:
        self.supply[fig.player][fig.kind] -= 1
        self.hash ^= hashing.item("f", fig.node, fig.player, fig.kind)

    def return_figure(self, feat: Feature, fig: Figure) -> None:
        feat.figures.remove(fig)
        self.supply[fig.player][fig.kind] += 1
        self.hash ^= hashing.item("f", fig.node, fig.player, fig.kind)
        self.events.append({"type": "return", "player": fig.player, "kind": fig.kind,
                            "x": fig.cell[0], "y": fig.cell[1], "location": fig.location})

    def add_score(self, player: int, points: int) -> None:
        if points == 0:
            return
        old = self.scores[player]
        self.scores[player] = old + points
        self.hash ^= hashing.item("s", player, old) ^ hashing.item("s", player, old + points)

    def _after_placement(self, placement: Placement) -> list[Feature]:
        """Score every feature this placement completed (G10 order), then return figures (G9)."""
        graph = self.graph
        done: dict[int, Feature] = {}
        for seg in placement.tile.segments:
            root = graph.find(placement.first_node + seg.index)
            feat = graph.feature[root]
            assert feat is not None
            if root not in done and not feat.scored and self.is_complete(feat):
                done[root] = feat
        x, y = placement.cell
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                node = self.cloisters.get((x + dx, y + dy))
                if node is None:
                    continue
                root = graph.find(node)
                feat = graph.feature[root]
                assert feat is not None
                if root not in done and not feat.scored and self.is_complete(feat):
                    done[root] = feat
        completed = sorted(done.values(), key=_completion_order)
        for feat in completed:
            feat.scored = True
            self.score_completed(feat)
        return completed

    def is_complete(self, feat: Feature) -> bool:
        if feat.type == "cloister":
            assert feat.cell is not None
            return self.neighbours(feat.cell) == 8
        if feat.type in ("road", "city", "forest", "river"):
            return feat.open == 0
        return False

    def neighbours(self, cell: Cell) -> int:
        x, y = cell
        board = self.board
        return sum(
            1 for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if (dx or dy) and (x + dx, y + dy) in board
        )

    def score_completed(self, feat: Feature) -> None:
        base_rules.score_completed(self, feat)

    def completed_points(self, feat: Feature) -> tuple[int, str, str]:
        if feat.type in ("forest", "river"):
            return hg_rules.completed_points(self, feat)
        return base_rules.completed_points(self, feat)

    def return_after_scoring(self, feat: Feature, fig: Figure) -> None:
        """G9, HG6: back to the supply now, or (H&G default) at the end of the turn."""
        if self.hg and self.config.options.return_timing == "end-of-turn":
            self.pending_returns.append((feat, fig))
            self.hash ^= hashing.item("pending-return", fig.node, fig.player)
        else:
            self.return_figure(feat, fig)

    def final_points(self, feat: Feature) -> tuple[int, str, str]:
        return base_rules.final_points(self, feat)

    def terrain(self, letter: str) -> str:
        return TERRAIN.get(self.config.game, {}).get(letter, letter)

    def vineyards_around(self, cell: Cell) -> int:
        x, y = cell
        board = self.board
        n = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nb = board.get((x + dx, y + dy))
                if (dx or dy) and nb is not None and nb.tile.vineyard:
                    n += 1
        return n

    def _end_turn(self) -> None:
        for feat, fig in self.pending_returns:
            self.hash ^= hashing.item("pending-return", fig.node, fig.player)
            self.return_figure(feat, fig)
        self.pending_returns = []
        self.hash ^= hashing.item("turn", self.turn)
        self.turn = (self.turn + 1) % len(self.players)
        self.hash ^= hashing.item("turn", self.turn)
        self._draw()

    def _draw(self) -> None:
        """Seeded games: draw the next tile, discarding unplaceable ones by themselves (G5)."""
        if self.config.seed is None:
            if self.tiles_left() == 0:
                self._finish()
            return
        while self.pile_pos < len(self.pile):
            tile = self.pile[self.pile_pos]
            self.pile_pos += 1
            self.hash ^= hashing.item("drawn", self.pile_pos - 1)
            self.hash ^= hashing.item("drawn", self.pile_pos)
            if self.can_place(tile):
                self.current = tile
                return
            self.discarded.append(tile.id)
            self.events.append({"type": "discard", "player": self.turn, "tile": tile.id,
                                "rule": "G5"})
        self.current = None
        self._finish()

    def end_now(self) -> list[Event]:
        """End the game here (a log with ``"end": "after-last-move"``); return the final events."""
        self.events = []
        self._finish()
        events, self.events = self.events, []
        return events

    def _finish(self) -> None:
        if self.finished:
            return
        if self.hg:
            hg_rules.final_scoring(self)
        else:
            base_rules.final_scoring(self)
        self.finished = True
        self.hash ^= hashing.item("finished")
        self.events.append({"type": "end", "scores": list(self.scores),
                            "winners": self.winners()})

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [p for p, s in enumerate(self.scores) if s == best]

    def features(self) -> list[Feature]:
        """Every feature (one per root), in creation order."""
        feats = [f for f in self.graph.feature if f is not None]
        feats.sort(key=lambda f: f.first)
        return feats

    def cells_of(self, feat: Feature) -> list[list[int]]:
        return sorted([list(self.placements[t].cell) for t in feat.tiles])

    def net_features(self) -> list[Feature]:
        """HG8 river networks (one per root), in creation order; empty outside H&G."""
        feats = [f for f in self.net.feature if f is not None and f.type in ("river", "lake")]
        feats.sort(key=lambda f: f.first)
        return feats

    def figures_on_board(self) -> list[Figure]:
        out = [fig for feat in self.features() for fig in feat.figures]
        out += [fig for feat in self.net_features() for fig in feat.figures]
        out.sort(key=lambda f: f.node)
        return out


def build_pile(tileset: TileSet, seed: str) -> list[TileType]:
    """The seeded draw pile (G2): tile-set order, each tile ``count`` times, the start tile once
    less, then a Fisher-Yates shuffle from ``SeededStream(seed, "pile")``."""
    pile: list[TileType] = []
    for t in tileset.tiles:
        if t.bonus:
            continue
        pile.extend([t] * (t.count - (1 if t.start else 0)))
    SeededStream(seed, "pile").shuffle(pile)
    return pile


def _completion_order(feat: Feature) -> tuple[int, int]:
    return (base_rules.TYPE_ORDER.get(feat.type, 9), feat.first)


TERRAIN = {
    "base": {"C": "city", "R": "road", "F": "field"},
    "hunters-gatherers": {"F": "forest", "M": "meadow", "R": "river"},
}
