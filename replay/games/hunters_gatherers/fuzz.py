"""Hunters & Gatherers' invariants for fuzzing (``HuntersGatherers.fuzz_machine``): the
tile-laying families' checks (``replay.tiles.fuzz``) with the bonus tiles (HG7) restated:

* a turn that completes a forest with gold plays the bonus tile it earned (drawn from the
  engine's legal options, after the land tile played on a copy), and only such a turn may: a
  bonus tile left out, or one not due, is refused with HG7 and changes nothing;
* the land tile's figure obeys G6 before the bonus tile joins features (G7);
* a move places its land tile and at most one bonus tile; a bonus tile that fits nowhere when
  it is drawn is discarded under HG7 (never G5), was announced when the game is seeded, and
  the turn places no tile after it; the bonus stack counts in tile conservation;
* a sacred place (HG11) decides alone: not a majority (G8).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...core.values import replace
from ...lab.checker import Choose, Expected
from ...tiles.fuzz import Event, Fig, TileChecker, placements_for
from ...tiles.fuzz_machine import TileMachine
from ...tiles.moves import FigureChoice, TileMove
from ...tiles.state import TileState as Game
from ...tiles.tileset import SIDE_DELTA, TileType
from .features import COMPLETABLE


def bonus_stack(game: Game) -> list[str]:
    """HG7: the bonus tiles not drawn yet (drawn ones are placed or discarded)."""
    stack = getattr(game, "bonus_stack", [])
    return [t.id for t in stack[getattr(game, "bonus_pos", 0):]]


def gold_nearby(game: Game, tile: TileType, x: int, y: int, rot: int) -> bool:
    """Whether the tile could complete a forest with gold (HG7), so that a bonus tile may be
    due: a cheap necessary condition, checked before playing the tile on a copy of the game."""
    sides = tile.rotations[rot // 90].side_segs
    for seg in tile.segments:
        if seg.type == "forest" and seg.attr("gold") and all(
                (x + dx, y + dy) in game.board
                for s, (dx, dy) in enumerate(SIDE_DELTA) if seg.index in sides[s]):
            return True
    for dx, dy in SIDE_DELTA:
        nb = game.board.get((x + dx, y + dy))
        if nb is None:
            continue
        for seg in nb.tile.segments:
            feat = game.graph.of(nb.first_node + seg.index)
            if feat.type == "forest" and feat.counts.get("gold") and feat.open <= 4:
                return True
    return False


class HuntersGatherersChecker(TileChecker):
    """``TileChecker`` with the bonus tiles (HG7) and sacred places (HG11)."""

    completable = TileChecker.completable | COMPLETABLE  # forests and rivers too (HG6)

    @classmethod
    def more_fingerprint(cls, game: Game) -> tuple[Any, ...]:
        return (tuple(bonus_stack(game)),)

    def held_elsewhere(self) -> list[str]:
        return bonus_stack(self.game)

    def before_move(self, move: Any) -> tuple[int, TileType | None, list[Fig]]:
        game = self.game
        if move.bonus is not None and move.figure is not None:
            # G6 holds right after the land tile; its bonus tile may then join features (G7)
            probe: Any = game.copy()
            placed = [e.to_json() for e in probe.step(replace(move, bonus=None))]
            for e in placed:
                if e["type"] == "figure":
                    self.check_alone(self.node_of(e, probe), probe)
        return super().before_move(move)

    def alone_now(self, move: Any, fig: Fig) -> bool:
        """A land tile's figure in a bonus turn is checked in ``before_move``."""
        return move is None or move.bonus is None or fig.cell != (move.x, move.y)

    def check_places(self, move: Any, places: list[Event], figures: list[Event]) -> None:
        if len(places) > 1:
            assert len(places) == 2 and places[1].get("bonus"), "HG7: one bonus tile"
            self.saw("bonus tile played (HG7)")

    def check_discard(self, e: Event, earlier: list[Event], later: list[Event]) -> None:
        """HG7: a bonus tile that fits nowhere when it is drawn is discarded; the turn then
        goes on without it (no tile is placed after it, so the board after the move is the
        board it was drawn for). A land tile: G5."""
        if e["rule"] != "HG7":
            super().check_discard(e, earlier, later)
            return
        tile = self.tiles_by_id[e["tile"]]
        assert tile.bonus, f"HG7: tile {tile.id} is discarded as a bonus tile but is none"
        if self.config.seed is not None:  # seeded games announce the bonus tile drawn
            assert any(b["type"] == "bonus" and b["tile"] == tile.id for b in earlier), (
                f"HG7: bonus tile {tile.id} discarded but never drawn")
        assert not any(x["type"] == "place" for x in later), (
            f"HG7: bonus tile {tile.id} was discarded, yet the turn placed another tile")
        self.saw("bonus tile discarded (HG7)")
        assert not placements_for(self.game, tile), (
            f"HG7: tile {tile.id} was discarded but fits somewhere")

    def majority_based(self, e: Event) -> bool:
        """A sacred place (HG11) decides alone: not a majority."""
        return "sacred" not in str(e.get("detail", ""))

    def move_parts(self, tile: TileType, x: int, y: int, rot: int, choose: Choose,
                   figure: FigureChoice | None, with_figure: bool) -> dict[str, Any]:
        """HG7: when the tile completes a forest with gold, the bonus tile is part of the move
        (``Move.bonus``); its placement and figure are drawn from the legal options of the
        state after the land tile, found by playing the land tile on a copy (``step``)."""
        game: Any = self.game
        if not (game.bonus_stack and gold_nearby(game, tile, x, y, rot)
                and game.completes_gold_forest(tile, x, y, rot)):
            return {}  # no bonus tile to draw (a copy of the game costs ~15 ms)
        probe: Any = game.copy()
        probe.step(game._move(x=x, y=y, rotation=rot, tile=tile.id, figure=figure))
        bonus_tile = probe.pending_bonus
        if not (probe.bonus_due and bonus_tile is not None):
            return {}
        spots = probe.legal_placements(bonus_tile)
        if not spots:
            return {}
        bx, by, brot = choose(spots, "bonus placement")
        bfig = None
        if with_figure:
            options = probe.figure_options(bonus_tile, bx, by, brot)
            bfig = choose(options, "bonus figure") if options else None
        return {"bonus": TileMove(bx, by, brot, bonus_tile.id, bfig)}


class HuntersGatherersMachine(TileMachine):
    """Plays one game of Hunters & Gatherers: the tile machine with its checker, and HG7's
    two illegal turns."""

    CHECKER = HuntersGatherersChecker

    def illegal_variants(self, move: Any) -> Iterable[tuple[str, Any, Expected]]:
        """HG7: a turn that earns a bonus tile must play it, and only such a turn may; either
        error is refused like any illegal move (rule id, state unchanged)."""
        if move.bonus is not None:
            yield "bonus tile left out", replace(move, bonus=None), "HG7"
        elif getattr(self.tiles().game, "bonus_stack", None):
            yield "bonus tile not due", replace(move, bonus=TileMove(0, 0, 0)), "HG7"
