"""The machine that plays a tile-laying family's games for fuzzing (``replay.lab.machines``'
``GameMachine`` with the hooks of tiles): a style of play (compact boards, figures often or
seldom) and nine kinds of illegal move, each refused with its rule and nothing changed. Its
checker is ``replay.tiles.fuzz.TileChecker``; a family's own ``fuzz`` module subclasses both.

This module needs ``hypothesis`` through ``replay.lab`` (imported only for fuzzing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from hypothesis import strategies as st

from ..core.family import GameState, families
from ..generate import config_for
from ..lab.machines import Choose, Expected, GameMachine, Roll
from .fuzz import ROTATIONS, TileChecker, fits, frontier_of, touching
from .moves import FigureChoice
from .state import TileState as Game
from .state import build_pile

Move = Any  # a tile family's move

ILLEGAL_KINDS = ("occupied-cell", "detached-cell", "edge-mismatch", "bad-rotation",
                 "wrong-tile", "unknown-location", "occupied-segment", "foreign-figure",
                 "empty-supply")
UNKNOWN_KINDS = ("abbot", "Follower")  # figure kinds no family has (``foreign_kinds``)


def foreign_kinds() -> list[str]:
    """The figure kinds a foreign figure is drawn from: those of every installed family
    (another family's are foreign to this one), then kinds that no family has."""
    known = {k for f in families() for k in getattr(f, "figure_kinds", ())}
    return sorted(known) + [k for k in UNKNOWN_KINDS if k not in known]


def mv(game: Game, x: int = 0, y: int = 0, rotation: int = 0, tile: str | None = None,
       figure: FigureChoice | None = None) -> Move:
    """A tile move of the game's family (the illegal moves the machine tries)."""
    return game._move(x=x, y=y, rotation=rotation, tile=tile, figure=figure)


def pick_move(checker: TileChecker, choose: Choose, compact: bool, with_figure: bool) -> Move:
    """A legal move drawn from the sorted legal options of the current state by ``choose``
    (Hypothesis in the machine, a seeded stream for the fixed games): the placement (among
    those touching most tiles when ``compact``), a figure when ``with_figure``, then the
    family's own parts (``TileChecker.move_parts``)."""
    game = checker.game
    tile = game.current
    assert tile is not None
    placements = game.legal_placements()
    if compact:
        most = max(touching(game, x, y) for x, y, _ in placements)
        placements = [p for p in placements if touching(game, p[0], p[1]) == most]
    x, y, rot = choose(placements, "placement")
    figure = None
    if with_figure:
        options = game.figure_options(tile, x, y, rot)
        if options:
            figure = choose(options, "figure")
    extra = checker.move_parts(tile, x, y, rot, choose, figure, with_figure)
    return game._move(x=x, y=y, rotation=rot, tile=tile.id, figure=figure, **extra)


class TileMachine(GameMachine):
    """Plays one game of a tile-laying family: a style of play, nine kinds of illegal move.
    A family's subclass sets ``CHECKER`` to its ``TileChecker`` and may add illegal variants
    of a legal move (``illegal_variants``)."""

    CHECKER: ClassVar[type[TileChecker]] = TileChecker
    END_RULE = "G11"  # once the pile is empty every move is refused

    def __init__(self) -> None:
        super().__init__()
        self.compact = self.figure_rate = 0

    @classmethod
    def step_count(cls) -> int:
        # one initialize step, one step per tile, a few more to check G11 after discards
        return len(build_pile(config_for(cls.FAMILY, 2, 0, cls.MIX).material, "0")) + 4

    def tiles(self) -> TileChecker:
        assert isinstance(self.checker, TileChecker)
        return self.checker

    def new_game(self, data: st.DataObject) -> GameState:
        state = super().new_game(data)
        # the style of play: how often the tile goes where it touches most tiles (a compact
        # board completes features and joins them), how often a figure is placed
        self.compact = data.draw(st.integers(0, 100), label="compact %")
        self.figure_rate = data.draw(st.integers(0, 100), label="figure %")
        return state

    def pick_move(self, choose: Choose, roll: Roll) -> Move:
        compact, with_figure = roll() < self.compact, roll() < self.figure_rate
        return pick_move(self.tiles(), choose, compact, with_figure)

    def illegal_move(self, data: st.DataObject) -> tuple[str, Move, Expected]:
        checker = self.tiles()
        game = checker.game
        tile = game.current
        assert tile is not None
        kind = data.draw(st.sampled_from(ILLEGAL_KINDS), label="illegal kind")
        g4: Callable[[str], bool] = {"G4"}.__contains__
        legal = game.legal_placements()
        if kind == "detached-cell":
            xs = [c[0] for c in game.board]
            ys = [c[1] for c in game.board]
            x = max(xs) + data.draw(st.integers(2, 5))
            y = data.draw(st.integers(min(ys) - 3, max(ys) + 3))
            return kind, mv(game, x, y, data.draw(st.sampled_from(ROTATIONS)), tile.id), g4
        if kind == "edge-mismatch":
            front = frontier_of(game)
            bad = sorted((x, y, 90 * q) for (x, y), key in front.items()
                         for q in range(4) if not fits(key, tile.rotations[q].edges))
            if bad:
                x, y, rot = data.draw(st.sampled_from(bad))
                return kind, mv(game, x, y, rot, tile.id), g4
        x, y, rot = data.draw(st.sampled_from(legal))
        if kind == "bad-rotation":
            bad_rot = data.draw(st.sampled_from([45, 360, -90, 1, 135, 271]))
            return kind, mv(game, x, y, bad_rot, tile.id), {"G1"}.__contains__
        if kind == "wrong-tile":
            others = sorted(t for t in checker.tiles_by_id if t != tile.id)
            wrong = mv(game, x, y, rot, data.draw(st.sampled_from(others)))
            return kind, wrong, {"L1"}.__contains__
        wrong_figure = self.wrong_figure(data, kind, x, y, rot)
        if wrong_figure is not None:
            return wrong_figure
        # the kind does not apply in this state: put the tile on an occupied cell instead
        cell = data.draw(st.sampled_from(sorted(game.board)))
        return ("occupied-cell", mv(game, cell[0], cell[1], data.draw(st.sampled_from(ROTATIONS)),
                                      tile.id), g4)

    def wrong_figure(self, data: st.DataObject, kind: str, x: int, y: int,
                     rot: int) -> tuple[str, Move, Expected] | None:
        """An illegal figure on the tile placed at (x, y, rot) legally, or None when ``kind``
        does not apply in this state."""
        checker = self.tiles()
        game = checker.game
        tile = game.current
        assert tile is not None
        where = tile.rotations[rot // 90].locations
        supply = game.supply[game.turn]
        if kind == "unknown-location":
            names = ["", "Z", "NN", "centre", "C", "cloister", "inner-field", "n", "w"]
            loc = data.draw(st.sampled_from([n for n in names if n not in where]))
            return kind, mv(game, x, y, rot, tile.id, FigureChoice("follower", loc)), \
                checker.figure_rule
        if kind == "occupied-segment":
            allowed: dict[str, set[int]] = {}
            for c in game.figure_options(tile, x, y, rot):
                allowed.setdefault(c.kind, set()).add(where[c.location])
            refused = [(k, loc) for k in sorted(supply) if supply[k] > 0
                       for loc in sorted(where) if where[loc] not in allowed.get(k, set())]
            if refused:
                k, loc = data.draw(st.sampled_from(refused))
                return kind, mv(game, x, y, rot, tile.id, FigureChoice(k, loc)), checker.figure_rule
        if kind == "foreign-figure":
            foreign = [k for k in foreign_kinds() if k not in supply]
            k = data.draw(st.sampled_from(foreign))
            loc = data.draw(st.sampled_from(sorted(where)))
            return kind, mv(game, x, y, rot, tile.id, FigureChoice(k, loc)), checker.figure_rule
        if kind == "empty-supply":
            empty = sorted(k for k, n in supply.items() if n == 0)
            if empty:
                k = data.draw(st.sampled_from(empty))
                loc = data.draw(st.sampled_from(sorted(where)))
                return kind, mv(game, x, y, rot, tile.id, FigureChoice(k, loc)), checker.figure_rule
        return None
