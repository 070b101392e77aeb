"""The state of a tile-laying game: board, frontier, feature graph, draw pile, figures (G1-G12).

``TileState`` is the machinery every tile-laying family shares: a move is checked before
anything changes (``_check``), then the tile is placed, its figure put, the features it
completed scored (G10 order) and the turn passed. A family subclasses it and fills in its
figures, scoring and expansion rules through the hooks named ``_on_...``/``_check_extra``/...;
nothing here knows which game it plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Self

from mypy_extensions import mypyc_attr

from ..core import hashing
from ..core.errors import IllegalMove
from ..core.events import Event, GameEnd
from ..core.family import GameConfig
from ..core.rng import SeededStream
from ..core.sink import DROP, EventSink
from .board import Cell, Placement
from .copies import copied, copy_tile_state
from .events import Discard, Place
from .features import Feature, Figure, group_links, link
from .figures import FigureKind, Figures
from .moves import FigureChoice, TileMove
from .tileset import TileSet, TileType
from .words import turned

__all__ = ["Cell", "FigureKind", "Placement", "TileState", "build_pile", "group_links", "link"]


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class TileState(Figures):
    """One tile-laying game in progress (see the module)."""

    MOVE: ClassVar[type] = TileMove  # the family's move class
    COMPLETION_ORDER: ClassVar[Mapping[str, int]] = {}  # G10: segment type -> rank
    CLOSING: ClassVar[frozenset[str]] = frozenset()  # segment types complete with no open side

    def __init__(self, config: GameConfig, figure_kinds: Mapping[str, FigureKind]) -> None:
        self.config = config
        tileset: TileSet = config.material
        self._init_board(tileset)
        self.figure_kinds = dict(figure_kinds)
        self.scores = [0] * len(config.players)
        self.supply = [{k: f.count for k, f in figure_kinds.items()} for _ in config.players]
        self.turn = 0
        self.moves_played = 0
        self.finished = False
        self.discarded: list[str] = []
        self.sink = EventSink()  # where the events of the move being played go (core/sink.py)
        self.steps: list[Any] = []  # every step applied, to rebuild the game (see _rewind)
        # the position ``steps`` start from when it is not the game's start (a redrawn one)
        self.origin: TileState | None = None
        self.hash = 0
        for p, score in enumerate(self.scores):
            self.hash ^= hashing.seat_item("s", p, score)
        starts = [t for t in tileset.tiles if t.start]
        if len(starts) != 1:
            raise ValueError("a tile set needs exactly one start tile")
        self.start_tile = starts[0]
        self.pile: list[TileType] = []
        self.remaining: dict[str, int] = {}
        if config.seed is not None:
            self.pile = build_pile(tileset, config.seed)
        else:
            for t in tileset.tiles:
                self.remaining[t.id] = t.count - (1 if t.start else 0)
        self.pile_pos = 0
        self.current: TileType | None = None
        self._on_setup()
        self._place(self.start_tile, 0, (0, 0), None)
        self.hash ^= hashing.item("turn", self.turn)
        self._draw()
        self.setup_events = self.sink.take()

    # ------------------------------------------------------------------ hooks

    def _on_setup(self) -> None:
        """The family's own state, before the start tile is placed."""

    def _check_drawn(self, tile: TileType) -> None:
        """Refuse a tile a table log names that may not be drawn from the pile."""

    def _needs_groups(self, move: Any) -> bool:
        """Whether ``_check_extra`` needs the features the new tile would join."""
        return False

    def _check_extra(self, tile: TileType, cell: Cell, q: int, move: Any,
                     groups: list[list[int]]) -> None:
        """The family's checks of a move, after the placement and the figure passed."""

    def _on_figure(self, placement: Placement, move: Any) -> None:
        """After the tile and its figure are down, before completed features score."""

    def _turn_goes_on(self, completed: list[Feature]) -> bool:
        """After scoring: True when the turn is not over yet (a second step follows)."""
        return False

    def _before_turn_end(self) -> None:
        """At the end of a turn, before the next player draws."""

    def _drawn_unseen(self) -> list[str]:
        """The tiles drawn that nobody saw, in order (tiles hidden under others by an
        expansion; "?" for one a table log did not name): ``redraw_hidden`` redraws them."""
        return []

    def _rehide(self, tiles: list[str]) -> None:
        """Give the unseen places of ``_drawn_unseen`` the tiles ``tiles`` (redrawn)."""

    def _redraw_more(self, seat: int, rng: SeededStream) -> None:
        """Redraw the family's own hidden parts (``redraw_hidden``, after the pile)."""

    def tiebreak(self, tied: list[int], figures: list[Figure]) -> list[int]:
        """The winners among players tied for a majority (G8: all of them)."""
        return tied

    def score_completed(self, feat: Feature) -> None:
        """A completed feature scores (G8) and its followers go home (G9)."""
        from .scoring import score_completed
        score_completed(self, feat)

    def completed_points(self, feat: Feature) -> tuple[int, str, str]:
        """Points of a feature completed during play: (points, how, rule id)."""
        raise NotImplementedError

    def final_scoring(self) -> None:
        raise NotImplementedError

    def return_after_scoring(self, feat: Feature, fig: Figure) -> None:
        """G9: a scored figure goes back to its supply."""
        self.return_figure(feat, fig)

    # ------------------------------------------------------------------ the interface

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.turn

    def supply_of(self, seat: int) -> dict[str, int]:
        return dict(self.supply[seat])

    def status(self) -> dict[str, Any]:
        return {"tiles_left": self.tiles_left(),
                "next_tile": None if self.current is None or self.finished else self.current.id}

    def check(self, move: Any) -> None:
        try:
            self._check(self._as_move(move))
        except IllegalMove as exc:
            self._annotate(exc)
            raise

    def redraw_hidden(self, seat: int, rng: SeededStream) -> None:
        """The order of the tiles left, and the tiles drawn unseen, redrawn; a table game's
        state made one that draws (``replay.tiles.hidden``)."""
        from .hidden import redraw_tiles  # (interpreted: once per determinization)

        redraw_tiles(self, seat, rng)

    def copy(self) -> Self:
        """An independent copy: what changes in place copied, the rest shared (``copies``)."""
        return copied(self)

    def _copy_into(self, new: TileState) -> None:
        """Give ``new`` (made without ``__init__``) a copy of what this class and its bases
        hold; a family with attributes of its own extends it, ``super()`` first."""
        copy_tile_state(self, new)

    def legal_moves(self) -> Iterator[Any]:
        """Every complete legal move: each tile that may come next (the drawn one, or in a
        table log every tile left), each placement, no figure or each figure, and each choice
        the family adds; a table log's unplaceable tile is a discard."""
        if self.finished:
            return
        if self.config.seed is not None:
            tiles = [self.current] if self.current is not None else []
        else:
            tiles = [t for t in self.tileset.tiles if self.remaining.get(t.id, 0) > 0
                     and self._may_draw(t)]
        for tile in tiles:
            yield from self.legal_moves_of(tile)

    def legal_moves_of(self, tile: TileType) -> Iterator[Any]:
        """Every complete legal move of ``tile`` (``legal_moves``' for one tile): a table
        log's unplaceable tile is a discard."""
        spots = self.legal_placements(tile)
        if not spots and self.config.seed is None:
            yield self._move(tile=tile.id, discard=True)
        for x, y, rot in spots:
            figures: list[FigureChoice | None] = [None]
            figures += self.figure_options(tile, x, y, rot)
            for fig in figures:
                yield from self._complete_moves(
                    tile, self._move(x=x, y=y, rotation=rot, tile=tile.id, figure=fig))

    def _may_draw(self, tile: TileType) -> bool:
        try:
            self._check_drawn(tile)
        except IllegalMove:
            return False
        return True

    def _move(self, **fields: Any) -> Any:
        """A move of the family's move class."""
        return TileMove(**fields)

    def _complete_moves(self, tile: TileType, move: Any) -> Iterator[Any]:
        """The complete moves made of a placement with its figure (the family adds choices)."""
        yield move

    def end_now(self) -> list[Event]:
        """End the game here (a log with ``"end": "after-last-move"``); return the final events."""
        self._finish()
        return self.sink.take()

    # ------------------------------------------------------------------ queries

    def tiles_left(self) -> int:
        if self.config.seed is not None:
            return len(self.pile) - self.pile_pos + (1 if self.current is not None else 0)
        return sum(self.remaining.values()) - self._unknown_gone()

    def _unknown_gone(self) -> int:
        """Tiles gone from a table game's pile that the log does not name."""
        return 0

    def legal_placements(self, tile: TileType | None = None) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation in degrees) of ``tile`` (default: the drawn one), sorted.

        A table log draws no tile by itself: there ``tile`` must be given."""
        tile = tile or self.current
        if tile is None:
            if self.config.seed is None and not self.finished:
                raise ValueError("a game without a seed has no drawn tile: name the tile "
                                 "(legal_placements(state.tiles_by_id[...]))")
            return []
        return self.placements_of(tile)

    def is_complete(self, feat: Feature) -> bool:
        if feat.type == "cloister":
            assert feat.cell is not None
            return self.neighbours(feat.cell) == 8
        return feat.type in self.CLOSING and feat.open == 0

    # ------------------------------------------------------------------ moves

    def _as_move(self, move: Any) -> Any:
        """A move of the family's own class (a plain ``TileMove`` is taken as one)."""
        if isinstance(move, self.MOVE):
            return move
        return self.MOVE(move.x, move.y, move.rotation, move.tile, move.figure, move.discard)

    def step(self, move: Any) -> list[Event]:
        """Check and apply one tile. Returns its events; raises ``IllegalMove`` and leaves the
        state exactly as it was."""
        # typed: compiled, the move's fields are read natively
        if move.__class__ is not self.MOVE:
            move = self._as_move(move)
        m: TileMove = move
        idx = self.moves_played
        try:
            tile = self._check(m)
        except IllegalMove as exc:
            self._annotate(exc)
            raise
        self.steps.append(m)
        if m.discard:
            self._discard(tile)
        else:
            self._apply(tile, m)
        self._step_done(idx)
        return self.sink.take()

    def apply(self, move: Any) -> list[Event]:
        """One log move is one tile (a family with two-step turns overrides this)."""
        return self.step(move)

    def play(self, move: Any) -> None:
        """``apply`` into the sink that drops events: none is built (the verifier keeps none)."""
        kept, self.sink = self.sink, DROP
        try:
            self.apply(move)
        finally:
            self.sink = kept

    def _annotate(self, exc: IllegalMove) -> None:
        exc.move = self.moves_played
        exc.player = self.players[self.turn].name

    def _step_done(self, idx: int) -> None:
        self.moves_played += 1
        self.hash ^= _MOVES[idx] ^ _MOVES[idx + 1]

    def _rewind(self, steps: int) -> None:
        """Back to the state after the first ``steps`` steps, by replaying them."""
        fresh = (self.family.new_state(self.config) if self.origin is None
                 else self.origin.copy())
        assert isinstance(fresh, TileState)
        for m in self.steps[:steps]:
            fresh.step(m)
        fresh.origin = self.origin
        if hasattr(self, "__mypyc_attrs__"):  # compiled by mypyc: the attributes are slots
            getattr(self, "__setstate__")(fresh.__getstate__())  # noqa: B009
        else:
            self.__dict__.clear()
            self.__dict__.update(fresh.__dict__)

    def _check(self, move: TileMove) -> TileType:
        if self.finished:
            raise IllegalMove("G11", "the game is over: the draw pile is empty")
        if move.discard and self.config.seed is not None:
            raise IllegalMove("G5", "seeded games discard unplaceable tiles by themselves; "
                              "a log never discards")
        tile = self._tile_for(move)
        if move.discard:
            if self.can_place(tile):
                first = self.legal_placements(tile)[0]
                raise IllegalMove("G5", f"tile {tile.id} ({tile.words}) is discarded but can "
                                  f"be placed, e.g. at ({first[0]},{first[1]}), "
                                  f"{turned(first[2])}")
            return tile
        rotation = move.rotation
        if rotation not in (0, 90, 180, 270) or type(rotation) is not int:
            raise IllegalMove("G1", f"rotation {rotation} is not 0, 90, 180 or 270")
        cell = (move.x, move.y)
        q = rotation // 90
        self._check_placement(tile, cell, q)
        if move.figure is None and not self._needs_groups(move):
            groups: list[list[int]] = []
        else:
            groups = self._prospective(tile, cell, q)
        if move.figure is not None:
            self._check_figure(tile, cell, q, move.figure, groups)
        self._check_extra(tile, cell, q, move, groups)
        return tile

    def _tile_for(self, move: TileMove) -> TileType:
        if self.config.seed is not None:
            assert self.current is not None
            if move.tile is not None and move.tile != self.current.id:
                named = self.tiles_by_id.get(move.tile)
                said = f" ({named.words})" if named is not None else ""
                raise IllegalMove("L1", f"the log names tile {move.tile}{said} but the seeded "
                                  f"pile gives {self.current.id} ({self.current.words})")
            return self.current
        if move.tile is None:
            raise IllegalMove("L1", "a log without a seed must name the tile of every move")
        tile = self.tiles_by_id.get(move.tile)
        if tile is None:
            raise IllegalMove("L1", f"unknown tile {move.tile!r} (not in tile set "
                              f"{self.tileset.id})")
        self._check_drawn(tile)
        if self.remaining.get(tile.id, 0) <= 0:
            raise IllegalMove("L1", f"tile {tile.id} ({tile.words}) drawn more often than the "
                              "set holds "
                              f"({tile.count - (1 if tile.start else 0)} in the pile)")
        return tile

    # ------------------------------------------------------------------ applying

    def _apply(self, tile: TileType, move: TileMove) -> None:
        p = self.turn
        q = move.rotation // 90
        cell = (move.x, move.y)
        bonus = self._take_tile(tile)
        self.current = None
        placement = self._place(tile, q, cell, p)
        if self.sink.keeps:  # (the tile's words are worked out when first asked for)
            self.sink.add(Place(p, tile.id, move.x, move.y, move.rotation, bonus, tile.words))
        if move.figure is not None:
            self._put_figure(placement, move.figure)
        self._on_figure(placement, move)
        completed = self._after_placement(placement)
        if not self._turn_goes_on(completed):
            self._end_turn()

    def _take_tile(self, tile: TileType) -> bool:
        """The placed tile leaves the pile; True when it is a bonus tile (a second step)."""
        if self.config.seed is None:
            self.remaining[tile.id] -= 1
        return False

    def _discard(self, tile: TileType) -> None:
        self.remaining[tile.id] -= 1
        self.discarded.append(tile.id)
        self.hash ^= hashing.item("discard", len(self.discarded), tile.id)
        self.sink.add(Discard(self.turn, tile.id, "G5", tile.words))
        if self.tiles_left() == 0:
            self._finish()

    def flip(self, *item: object) -> None:
        """Add or remove one item of the state hash (L4): rule modules that keep state of
        their own (the sheep bag, flocks, ...) say each change through this."""
        self.hash ^= hashing.item(*item)

    def take_from_pile(self) -> TileType | None:
        """Seeded games: the next tile of the pile, taken unseen (None when it is empty)."""
        if self.pile_pos >= len(self.pile):
            return None
        tile = self.pile[self.pile_pos]
        self.pile_pos += 1
        self.hash ^= _DRAWN[self.pile_pos - 1] ^ _DRAWN[self.pile_pos]
        return tile

    def add_score(self, player: int, points: int) -> None:
        if points == 0:
            return
        old = self.scores[player]
        self.scores[player] = old + points
        self.hash ^= hashing.seat_item("s", player, old)
        self.hash ^= hashing.seat_item("s", player, old + points)

    def _after_placement(self, placement: Placement) -> list[Feature]:
        """Score every feature this placement completed (G10 order), then return figures (G9)."""
        graph = self.graph
        feature = graph.feature
        closing = self.CLOSING
        done: dict[int, Feature] = {}
        first = placement.first_node
        for node in range(first, first + len(placement.tile.segments)):
            root = graph.find(node)
            feat = feature[root]
            assert feat is not None
            if feat.scored or root in done:
                continue
            # ``is_complete`` written out: the closing types, then cloisters (never others)
            if feat.type in closing:
                if feat.open:
                    continue
            elif feat.type != "cloister" or not self.is_complete(feat):
                continue
            done[root] = feat
        if placement.cell in self.near_cloisters:
            self._completed_cloisters(placement.cell, done)
        if not done:
            return []
        order = self.COMPLETION_ORDER
        completed = sorted(done.values(), key=lambda f: (order.get(f.type, 9), f.first))
        for feat in completed:
            feat.scored = True
            self.score_completed(feat)
        return completed

    def _end_turn(self) -> None:
        self._before_turn_end()
        turn = (self.turn + 1) % len(self.scores)
        self.hash ^= _TURN[self.turn] ^ _TURN[turn]
        self.turn = turn
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
            self.hash ^= _DRAWN[self.pile_pos - 1] ^ _DRAWN[self.pile_pos]
            if self.can_place(tile):
                self.current = tile
                return
            self.discarded.append(tile.id)
            if self.sink.keeps:
                self.sink.add(Discard(self.turn, tile.id, "G5", tile.words))
        self.current = None
        self._finish()

    def _finish(self) -> None:
        if self.finished:
            return
        self.final_scoring()
        self.finished = True
        self.hash ^= hashing.item("finished")
        self.sink.add(GameEnd(tuple(self.scores), tuple(self.winners())))


# the items the hash changes on every move: the turn, the moves played, the tiles drawn
_TURN = hashing.Items("turn")
_MOVES = hashing.Items("moves")
_DRAWN = hashing.Items("drawn")



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
