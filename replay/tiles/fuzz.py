"""What every tile-laying family's fuzzing checks (``python -m replay fuzz`` and
``tests/test_fuzz.py``): the ``TileChecker`` restates, independently of the engine, after every
move of the machines of ``replay.lab.machines``:

* figure conservation: supply + on the board = the starting count, for every figure kind (G6, G9);
* tile conservation: pile + drawn + placed + discarded + held elsewhere (``held_elsewhere``)
  = the tile set;
* every shared edge matches and every placed tile touches another (G4); the frontier and the
  legal placements agree with a brute-force recomputation; a drawn tile is placeable (G5); a
  land tile discarded under G5 fits nowhere;
* every score event decided by a majority obeys the tie rule (G8), with the figures on the
  feature the event names (``feature_id``) recomputed;
* no follower stays on a completed feature of a type in ``completable`` (G9).

A family's own rules come in through the hooks of ``TileChecker`` (``completable``,
``points``, ``tie_winners``, ``majority_based``, ``figures_of``, ``check_places``,
``check_discard``, ``alone_now``, ``move_parts``, ``held_elsewhere``, ``more_fingerprint``) and of
``TileMachine`` (``replay.tiles.fuzz_machine``), in the family's own ``fuzz`` module.

This module needs ``hypothesis`` through ``replay.lab`` (imported only for fuzzing).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.events import article
from ..core.family import GameState, family
from ..lab.checker import Checker, Choose
from .moves import FigureChoice
from .state import TileState as Game
from .tileset import SIDE_DELTA, TileType

Event = dict[str, Any]  # the checker reads events as their JSON (``Event.to_json()``)
Move = Any  # a tile family's move

ROTATIONS = (0, 90, 180, 270)


def fits(key: str, edges: str) -> bool:
    """G4: every side that has a neighbour shows the same terrain (a frontier key is a
    pattern: its "." stands for a side without a neighbour, which takes any terrain)."""
    return re.fullmatch(key, edges) is not None


def frontier_of(game: Game) -> dict[tuple[int, int], str]:
    """Empty cells next to the board, with the terrain each neighbour shows them (G4)."""
    out: dict[tuple[int, int], str] = {}
    board = game.board
    for x, y in board:
        for dx, dy in SIDE_DELTA:
            cell = (x + dx, y + dy)
            if cell in board or cell in out:
                continue
            key = []
            for s, (ex, ey) in enumerate(SIDE_DELTA):
                nb = board.get((cell[0] + ex, cell[1] + ey))
                key.append("." if nb is None else nb.tile.rotations[nb.rot].edges[(s + 2) % 4])
            out[cell] = "".join(key)
    return out


def placements_for(game: Game, tile: TileType,
                   front: dict[tuple[int, int], str] | None = None) -> list[tuple[int, int, int]]:
    """G4: where ``tile`` fits, brute force (``front``: the frontier, when it is known)."""
    front = frontier_of(game) if front is None else front
    edges = [r.edges for r in tile.rotations]
    out = []
    for (x, y), key in front.items():
        fit = re.compile(key).fullmatch  # fits(key, ...), compiled once for the cell
        out += [(x, y, 90 * q) for q, e in enumerate(edges) if fit(e)]
    return sorted(out)


def tile_fingerprint(game: Game) -> tuple[Any, ...]:
    """What a move of any tile family could change (a family adds its parts:
    ``TileChecker.more_fingerprint``)."""
    return (
        game.hash, tuple(game.scores), tuple(tuple(sorted(s.items())) for s in game.supply),
        tuple((pl.cell, pl.tile.id, pl.rot) for pl in game.placements), game.pile_pos,
        game.turn, game.moves_played, game.finished,
        tuple(game.discarded), None if game.current is None else game.current.id,
        tuple(sorted(game.frontier.items())), len(game.graph.parent),
        tuple((f.node, f.player, f.kind) for f in game.figures_on_board()),
        tuple((f.first, tuple(f.tokens)) for f in game.features() if f.tokens),
    )


def touching(game: Game, x: int, y: int) -> int:
    return sum((x + dx, y + dy) in game.board for dx, dy in SIDE_DELTA)


@dataclass(frozen=True)
class Fig:
    """A figure on the board, as the checker sees it."""

    node: int
    player: int
    kind: str
    cell: tuple[int, int]


class TileChecker(Checker):
    """Checks one game of a tile-laying family move by move (the hooks of
    ``replay.lab.checker.Checker``): ``check_move`` a move and its events, ``check_position``
    the state; its own hooks (see the module) take a family's rules."""

    # is_legal of a tile family may play a turn on a copy (a bonus tile): one refusal in 8
    IS_LEGAL_EVERY = 8
    FIGURE_GROUPS: ClassVar[Mapping[str, str]] = {"large-follower": "follower"}  # G6
    STRENGTH: ClassVar[Mapping[str, int]] = {"follower": 1, "large-follower": 2}  # G8
    # the feature types whose followers go back when the feature is completed (G9)
    completable: ClassVar[frozenset[str]] = frozenset({"road", "city", "cloister"})

    def __init__(self, game: GameState) -> None:
        super().__init__(game)
        assert isinstance(game, Game)
        self.game = game
        config = game.config
        self.start_supply = [dict(s) for s in game.supply]
        assert not game.figures_on_board()
        self.tile_set = Counter({t.id: t.count for t in config.material.tiles})
        self.tiles_by_id = config.material.by_id()
        fam = family(config.game)
        own = tuple(p for p in fam.rule_prefixes
                    if all(x.rule_prefix != p for x in fam.expansions.values()))
        self.prefixes = own + tuple(fam.expansions[x].rule_prefix for x in config.expansions)
        self.last_json: list[Event] = []  # the events of the last move, as JSON
        self.check_tile_events(game.turn, None, None,
                               [e.to_json() for e in game.setup_events], [])

    # ------------------------------------------------------------ a family's hooks

    @classmethod
    def more_fingerprint(cls, game: Game) -> tuple[Any, ...]:
        """What a move of this family could change besides ``tile_fingerprint``."""
        return ()

    @classmethod
    def fingerprint_of(cls, game: Game) -> tuple[Any, ...]:
        """Everything a move could change; an illegal move must leave all of it as it was."""
        return tile_fingerprint(game) + cls.more_fingerprint(game)

    def held_elsewhere(self) -> list[str]:
        """Tiles of the set neither in the pile nor drawn, placed or discarded."""
        return []

    def check_places(self, move: Move, places: list[Event], figures: list[Event]) -> None:
        """The tiles a move placed (``place`` events, the move's own first) and the figures
        it placed (``figure`` events)."""
        assert len(places) == 1, f"one tile placed a move: {places}"

    def alone_now(self, move: Move | None, fig: Fig) -> bool:
        """Whether G6 is checked for ``fig`` after the whole move (else in ``before_move``)."""
        return True

    def note(self, e: Event) -> None:
        """An event of a kind the generic checks leave alone (a family counts it: ``saw``)."""

    def majority_based(self, e: Event) -> bool:
        """Whether a score event is decided by a majority (G8); a family exempts its others."""
        return True

    def tie_winners(self, tied: list[int], figs: list[Fig], e: Event) -> tuple[list[int], str]:
        """The winners of a feature the players ``tied`` share and the rule that says so (G8:
        all of them)."""
        return tied, "G8"

    def points(self, feat: Any, e: Event) -> int | None:
        """The points the rules give the feature of a score event; None: not modelled."""
        return None

    def move_parts(self, tile: TileType, x: int, y: int, rot: int, choose: Choose,
                   figure: FigureChoice | None, with_figure: bool) -> dict[str, Any]:
        """The fields a family adds to a move of ``tile`` at (x, y, rot), drawn by
        ``choose`` from the engine's legal options (default: none)."""
        return {}

    # ------------------------------------------------------------ rules

    def figure_rule(self, rule: str) -> bool:
        """G6, or a figure rule of the family or an expansion being played."""
        return rule == "G6" or rule.startswith(self.prefixes)

    def group(self, kind: str) -> str:
        """G6: figures of the same group block each other."""
        return self.FIGURE_GROUPS.get(kind, kind)

    # ------------------------------------------------------------ a move

    def fingerprint(self, state: GameState) -> tuple[Any, ...]:
        assert isinstance(state, Game)
        return self.fingerprint_of(state)

    def before_move(self, move: Move) -> tuple[int, TileType | None, list[Fig]]:
        game = self.game
        return game.turn, game.current, self.figures()

    def check_move(self, move: Move, events: list[Any],
                   before: tuple[int, TileType | None, list[Fig]]) -> None:
        player, tile, figures = before
        self.last_json = [e.to_json() for e in events]
        assert self.game.turn == (player + 1) % len(self.names), "G3: turns go round in order"
        self.check_tile_events(player, tile, move, self.last_json, figures)

    def figures(self) -> list[Fig]:
        return [Fig(f.node, f.player, f.kind, f.cell) for f in self.game.figures_on_board()]

    def check_tile_events(self, player: int, tile: TileType | None, move: Move | None,
                          events: list[Event], before: list[Fig]) -> None:
        places = [e for e in events if e["type"] == "place"]
        figures = [e for e in events if e["type"] == "figure"]
        if move is not None:
            assert tile is not None and places, "a move places its tile"
            first = places[0]
            assert (first["player"], first["tile"], first["x"], first["y"], first["rotation"]) \
                == (player, tile.id, move.x, move.y, move.rotation)
            if tile.hill:
                self.saw("hill tile placed")
            self.check_places(move, places, figures)
            if move.figure is not None:
                assert (figures[0]["player"], figures[0]["kind"], figures[0]["location"]) == (
                    player, move.figure.kind, move.figure.location)
        new = [self.node_of(e) for e in figures]
        for e, fig in zip(figures, new, strict=True):
            self.saw(f"{e['kind']} placed")
            if self.alone_now(move, fig):
                self.check_alone(fig)
            before = [*before, fig]
        after = self.figures()
        for i, e in enumerate(events):
            if e["type"] == "score":
                self.check_score(e, before, after)
            elif e["type"] == "discard":
                self.check_discard(e, events[:i], events[i + 1:])
            else:
                self.note(e)

    def check_discard(self, e: Event, earlier: list[Event], later: list[Event]) -> None:
        """G5: a drawn land tile that fits nowhere is discarded."""
        tile = self.tiles_by_id[e["tile"]]
        rule = e["rule"]
        assert rule == "G5", f"a discard under rule {rule}: {e}"
        assert not tile.bonus, f"G5: bonus tile {tile.id} discarded as a drawn land tile"
        self.saw("tile discarded (G5)")
        assert not placements_for(self.game, tile), (
            f"{rule}: tile {tile.id} was discarded but fits somewhere")

    def node_of(self, e: Event, game: Game | None = None) -> Fig:
        pl = (game or self.game).board[(e["x"], e["y"])]
        seg = pl.tile.rotations[pl.rot].locations[e["location"]]
        return Fig(pl.first_node + seg, e["player"], e["kind"], pl.cell)

    def check_alone(self, fig: Fig, game: Game | None = None) -> None:
        """G6: right after its placement a figure's feature holds no other figure of its group
        (unless the figure already went home this move: scored (G9) or sent away)."""
        feat = (game or self.game).graph.of(fig.node)
        group = self.group(fig.kind)
        same = [f for f in feat.figures if self.group(f.kind) == group]
        if not any(f.node == fig.node and f.kind == fig.kind for f in same):
            return
        assert len(same) == 1, (
            f"G6: the {feat.type} of the new {fig.kind} at {fig.cell} holds {len(same)} "
            f"figures of its group")

    # ------------------------------------------------------------ scoring

    def check_score(self, e: Event, before: list[Fig], after: list[Fig]) -> None:
        """G8 and the points of one score event, recomputed for the feature the event names
        by its ``feature_id`` (two features may cover the same cells: the two fields either
        side of a road)."""
        winners = e["winners"]  # points >= 0 and the tally (G12): Checker
        strengths = {int(p): s for p, s in e["strengths"].items()}
        if not self.majority_based(e):
            return
        assert set(winners) <= set(strengths), e
        assert strengths, f"a score event without figures: {e}"
        best = max(strengths.values())
        tied = sorted(p for p, s in strengths.items() if s == best)
        found = self.figures_of(e, before, after)
        if found is None:  # a feature this checker does not model: G8 from the event
            assert winners == tied, (
                f"G8: {e['feature']} at {e['cells']} with strengths {strengths}: winners "
                f"{winners}, expected {tied}")
        else:
            problems = self.score_problems(e, *found, tied)
            assert not problems, problems[0]
        if len(tied) > 1:
            self.saw("tie (several winners)")
        if e["phase"] == "play" and e["feature"] == "city" and len(strengths) > 1:
            self.saw("completed city with several owners (G7)")
        if e["phase"] == "play" and e["feature"] == "cloister":
            self.saw("cloister completed")

    def score_problems(self, e: Event, figs: list[Fig], feat_points: int | None,
                       tied: list[int]) -> list[str]:
        """Why the score event ``e`` does not fit a feature holding ``figs`` worth
        ``feat_points`` (None: points not modelled); empty when it fits."""
        points, winners = e["points"], e["winners"]
        strengths = {int(p): s for p, s in e["strengths"].items()}
        recomputed: Counter[int] = Counter()
        for f in figs:
            if f.kind in self.STRENGTH:
                recomputed[f.player] += self.STRENGTH[f.kind]
        if dict(recomputed) != strengths:
            return [f"G8: strengths of {e['feature']} at {e['cells']}: event {strengths}, "
                    f"figures {dict(recomputed)}"]
        out = []
        if feat_points is not None and points != feat_points:
            out.append(f"{e['rule']}: {e['phase']} {e['feature']} at {e['cells']} scored "
                       f"{points}, the rules give {feat_points} ({e['detail']})")
        expected, rule = self.tie_winners(tied, figs, e) if len(tied) > 1 else (tied, "G8")
        if winners != expected:
            out.append(f"{rule}: {e['feature']} at {e['cells']} with strengths {strengths}: "
                       f"winners {winners}, expected {expected}")
        return out

    def figures_of(self, e: Event, before: list[Fig],
                   after: list[Fig]) -> tuple[list[Fig], int | None] | None:
        """The figures on the feature a score event names (``feature_id``) and the points the
        rules give it (``points``); None for a kind of event this checker does not model."""
        return self.feature_figures(e, e["feature"], before, after)

    def feature_figures(self, e: Event, want: str, before: list[Fig],
                        after: list[Fig]) -> tuple[list[Fig], int | None] | None:
        """``figures_of`` for a feature of type ``want`` (None: not modelled)."""
        game, graph = self.game, self.game.graph
        cells = e["cells"]
        if want not in self.completable and want != "field":
            return None
        fid = e["feature_id"]
        assert type(fid) is int and 0 <= fid < len(graph.parent), f"feature_id of {e}"
        feat = graph.of(fid)
        assert feat.type == want and game.cells_of(feat) == cells, (
            f"the score event names feature {fid}, {article(feat.type)} at "
            f"{game.cells_of(feat)}: {e}")
        if e["phase"] == "play":
            assert feat.scored, f"a completed {want} that is not marked scored: {e}"
        twins = [f for f in game.features() if f.type == want and game.cells_of(f) == cells]
        if len(twins) > 1:
            self.saw("scored feature shares its cells with another (told apart by id)")
        root = graph.find(fid)
        pool = before if e["phase"] == "play" else after
        return [f for f in pool if graph.find(f.node) == root], self.points(feat, e)

    # ------------------------------------------------------------ the state

    def check_position(self) -> None:
        self.check_figures()
        self.check_tiles()
        self.check_board()

    def check_figures(self) -> None:
        """Figure conservation: supply + on the board = the starting count, per kind."""
        game = self.game
        on_board: Counter[tuple[int, str]] = Counter()
        for fig in game.figures_on_board():
            on_board[(fig.player, fig.kind)] += 1
            assert fig.cell in game.board
            assert fig.hill == game.board[fig.cell].tile.hill, "a figure's hill flag"
        for p, start in enumerate(self.start_supply):
            assert set(game.supply[p]) == set(start), "no figure kind appears or vanishes"
            for kind, count in start.items():
                left = game.supply[p][kind]
                assert left >= 0 and left + on_board[(p, kind)] == count, (
                    f"{self.names[p]}'s {kind}s: {left} in supply + {on_board[(p, kind)]} on "
                    f"the board != {count}")
                if left == 0 and kind == "follower":
                    self.saw("follower supply exhausted")
        assert set(k for _, k in on_board) <= set(self.start_supply[0])

    def check_tiles(self) -> None:
        """Tile conservation: every tile of the set is in exactly one place."""
        game = self.game
        accounted: Counter[str] = Counter(t.id for t in game.pile[game.pile_pos:])
        if game.current is not None:
            accounted[game.current.id] += 1
        accounted.update(pl.tile.id for pl in game.placements)
        accounted.update(game.discarded)
        accounted.update(self.held_elsewhere())
        assert accounted == self.tile_set, (
            f"tile conservation: missing {dict(self.tile_set - accounted)}, "
            f"extra {dict(accounted - self.tile_set)}")

    def check_board(self) -> None:
        """G4 on the board, the frontier and the legal placements (brute force), G5 on the
        tile drawn, G9 on the completed features."""
        game = self.game
        board = game.board
        assert len(board) == len(game.placements)
        for i, pl in enumerate(game.placements):
            assert pl.index == i and board[pl.cell] is pl
            edges = pl.tile.rotations[pl.rot].edges
            neighbours = 0
            for s, (dx, dy) in enumerate(SIDE_DELTA):
                nb = board.get((pl.cell[0] + dx, pl.cell[1] + dy))
                if nb is None:
                    continue
                neighbours += 1
                other = nb.tile.rotations[nb.rot].edges[(s + 2) % 4]
                assert edges[s] == other, f"G4: {pl.tile.id} at {pl.cell} side {s} vs {other}"
            assert neighbours or i == 0, f"G4: tile {pl.tile.id} at {pl.cell} touches no tile"
        front = frontier_of(game)
        assert game.frontier == front, "the engine's frontier differs from the board's"
        if game.current is not None:
            legal = placements_for(game, game.current, front)
            assert legal, f"G5: the drawn tile {game.current.id} fits nowhere"
            assert game.legal_placements() == legal
        assert game.finished == (game.current is None)
        if game.finished:
            assert game.pile_pos == len(game.pile)
        for feat in game.features():  # completed features hold no follower (G9), scored
            if feat.type in self.completable and game.is_complete(feat):
                assert feat.scored, f"a complete {feat.type} never scored"
                stuck = [f for f in feat.figures if self.group(f.kind) == "follower"]
                assert not stuck, f"G9: {stuck} stay on a completed {feat.type}"
