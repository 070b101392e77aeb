"""Property-based fuzzing of the engine (issue 6): a Hypothesis ``RuleBasedStateMachine`` plays
whole games by drawing from the sorted legal options of the current state and checks, after every
step, invariants restated here independently of the engine:

* figure conservation: supply + on the board = the starting count, for every figure kind (G6, G9);
* tile conservation: pile + drawn + placed + discarded + hidden (HS7) + bonus stack = tile set;
* every shared edge matches and every placed tile touches another (G4); the frontier and the
  legal placements agree with a brute-force recomputation; a drawn tile is placeable (G5);
* scores never decrease (G12) and equal the sum of the score events;
* every score event obeys the tie rule (G8) and, with Hills & Sheep, the hill tie-break (HS8),
  recomputed from the figures on the scored feature; base points recomputed (B3-B8, IC2, IC3);
* no follower stays on a completed road, city, cloister, forest or river (G9);
* an illegal move raises ``IllegalMove`` naming a rule id and leaves the state unchanged.

Every game family in ``tools/golden.py`` (``FAMILIES``) gets its own machine; the families the
engine does not implement yet are skipped with the reason, and join by themselves when they land.
Expansion-specific move elements (HS3 flock choices, HG7 bonus tiles) are drawn from the engine's
legal options too (``expansion_parts``); a new one joins there.

Profiles: ``fuzz-ci`` (default, bounded for CI) and ``fuzz-heavy`` (``CARCASSONNE_FUZZ=heavy``,
``./run fuzz``). ``--hypothesis-show-statistics`` shows how often the interesting states were
reached; ``test_fuzz_reaches_interesting_states`` checks the same claim on fixed seeds.
"""

from __future__ import annotations

import dataclasses
import io
import os
import pickle
import re
import unittest
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from replay import hashing
from replay.errors import IllegalMove
from replay.game import (
    Event,
    FigureChoice,
    FlockChoice,
    Game,
    GameConfig,
    Move,
    Options,
    build_pile,
)
from replay.generate import config_for, play_random
from replay.logfile import parse
from replay.rng import SeededStream
from replay.tileset import SIDE_DELTA, TileType
from tools import golden

# ---------------------------------------------------------------------------- profiles

HEAVY = os.environ.get("CARCASSONNE_FUZZ") == "heavy"
_COMMON: dict[str, Any] = {
    "deadline": None,  # one example is a whole game
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}
settings.register_profile("fuzz-ci", max_examples=40, **_COMMON)
settings.register_profile("fuzz-heavy", max_examples=1000, **_COMMON)
FUZZ = settings.get_profile("fuzz-heavy" if HEAVY else "fuzz-ci")
"""The settings every property-based test of the engine starts from (also tests/test_properties)."""

# ---------------------------------------------------------------------------- rules restated

RULE_ID = re.compile(r"^(G|B|IC|HS|HG|L)\d+[a-z]?$")  # ids of RULES.md
FAMILY_OF = {"follower": "follower", "large-follower": "follower", "shepherd": "shepherd",
             "hut": "hut"}  # G6: which figures block which
FOLLOWER_STRENGTH = {"follower": 1, "large-follower": 2}  # G8, IC1
COMPLETABLE = frozenset({"road", "city", "cloister", "forest", "river"})  # G9 applies
RULE_PREFIX = {"inns-cathedrals": "IC", "hills-sheep": "HS", "hunters-gatherers": "HG"}
ROTATIONS = (0, 90, 180, 270)


def fits(key: str, edges: str) -> bool:
    """G4: every side that has a neighbour shows the same terrain."""
    return all(k == "." or k == e for k, e in zip(key, edges, strict=True))


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


def placements_for(game: Game, tile: TileType) -> list[tuple[int, int, int]]:
    front = frontier_of(game)
    return sorted((x, y, 90 * q) for (x, y), key in front.items()
                  for q in range(4) if fits(key, tile.rotations[q].edges))


def hidden_tiles(game: Game) -> list[str]:
    """HS7: the tiles put unseen under hill tiles ("?" in a table log that did not say)."""
    return list(game.hidden)


def bonus_stack(game: Game) -> list[str]:
    """HG7: the bonus tiles not drawn yet (drawn ones are placed or discarded)."""
    return [t.id for t in game.bonus_stack[game.bonus_pos:]]


def fingerprint(game: Game) -> tuple[Any, ...]:
    """Everything a move could change; an illegal move must leave all of it as it was."""
    return (
        game.hash, tuple(game.scores), tuple(tuple(sorted(s.items())) for s in game.supply),
        tuple((pl.cell, pl.tile.id, pl.rot) for pl in game.placements), game.pile_pos,
        game.turn, game.moves_played, game.finished,
        tuple(game.discarded), None if game.current is None else game.current.id,
        tuple(sorted(game.frontier.items())), len(game.graph.parent),
        tuple((f.node, f.player, f.kind) for f in game.figures_on_board()),
        tuple(hidden_tiles(game)), tuple(bonus_stack(game)),
        # Hills & Sheep: the bag and the flocks
        game.token_draws, tuple(game.bag),
        tuple((f.first, tuple(f.tokens)) for f in game.features() if f.tokens),
    )


@dataclass(frozen=True)
class Fig:
    node: int
    player: int
    kind: str
    cell: tuple[int, int]


# ---------------------------------------------------------------------------- the invariants


class Checker:
    """Checks one game move by move: ``play`` checks a move and its events, ``check_state`` the
    state. ``seen`` collects the interesting states the game reached (for ``event()``)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        config = game.config
        self.config = config
        self.names = [p.name for p in config.players]
        self.start_supply = [dict(s) for s in game.supply]
        assert not game.figures_on_board()
        self.tile_set = Counter({t.id: t.count for t in config.tileset.tiles})
        self.tiles_by_id = config.tileset.by_id()
        self.hills = "hills-sheep" in config.expansions
        self.base_only = config.game == "base" and not config.expansions
        self.prefixes = tuple(RULE_PREFIX[x] for x in (config.game, *config.expansions)
                              if x in RULE_PREFIX)
        self.tally = [0] * len(config.players)
        self.last_scores = list(game.scores)
        self.seen: set[str] = set()
        self.check_events(game.turn, None, None, game.setup_events, [])
        self.check_state()

    # ------------------------------------------------------------ rules

    def figure_rule(self, rule: str) -> bool:
        """G6, or a figure rule of an expansion being played (HS2, HG3, ...)."""
        return rule == "G6" or rule.startswith(self.prefixes)

    def on_hill(self, fig: Fig) -> bool:
        return self.game.board[fig.cell].tile.hill

    # ------------------------------------------------------------ a move

    def play(self, move: Move) -> list[Event]:
        game = self.game
        player, tile, played = game.turn, game.current, game.moves_played
        before = self.figures()
        if move.bonus is not None and move.figure is not None:
            # G6 holds right after the land tile; its bonus tile may then join features (G7)
            probe = _copy_game(game)
            placed = probe.step(dataclasses.replace(move, bonus=None))
            for e in placed:
                if e["type"] == "figure":
                    self.check_alone(self.node_of(e, probe), probe)
        events = game.play(move)
        assert game.moves_played == played + 1
        assert game.turn == (player + 1) % len(self.names), "G3: turns go round in order"
        self.check_events(player, tile, move, events, before)
        return events

    def figures(self) -> list[Fig]:
        return [Fig(f.node, f.player, f.kind, f.cell) for f in self.game.figures_on_board()]

    def check_events(self, player: int, tile: TileType | None, move: Move | None,
                     events: list[Event], before: list[Fig]) -> None:
        game = self.game
        places = [e for e in events if e["type"] == "place"]
        figures = [e for e in events if e["type"] == "figure"]
        if move is not None:
            assert tile is not None and places, "a move places its tile"
            first = places[0]
            assert (first["player"], first["tile"], first["x"], first["y"], first["rotation"]) \
                == (player, tile.id, move.x, move.y, move.rotation)
            if tile.hill:
                self.seen.add("hill tile placed")
            if len(places) > 1:
                assert len(places) == 2 and places[1].get("bonus"), "HG7: one bonus tile"
                self.seen.add("bonus tile played (HG7)")
            if self.base_only:
                assert len(places) == 1
                assert len(figures) == (move.figure is not None)
            if move.figure is not None:
                assert (figures[0]["player"], figures[0]["kind"], figures[0]["location"]) == (
                    player, move.figure.kind, move.figure.location)
        new = [self.node_of(e) for e in figures]
        for e, fig in zip(figures, new, strict=True):
            self.seen.add(f"{e['kind']} placed")
            if move is None or move.bonus is None or fig.cell != (move.x, move.y):
                self.check_alone(fig)  # a land tile's figure in a bonus turn: checked in play
            before = [*before, fig]
        after = self.figures()
        ended = [e for e in events if e["type"] == "end"]
        assert len(ended) == (1 if game.finished else 0), "G11: one end event, when it ends"
        for e in events:
            if e["type"] == "score":
                self.check_score(e, before, after)
            elif e["type"] == "discard":
                assert e["rule"] == "G5"
                assert not placements_for(game, self.tiles_by_id[e["tile"]]), (
                    f"G5: tile {e['tile']} was discarded but fits somewhere")
                self.seen.add("tile discarded (G5)")
            elif e["type"] == "end":
                assert game.finished
                assert e["scores"] == game.scores
                best = max(game.scores)
                assert e["winners"] == [p for p, s in enumerate(game.scores) if s == best], "G11"
                self.seen.add("game finished")
                if len(e["winners"]) > 1:
                    self.seen.add("shared victory (G11)")
            elif e["type"] == "wolf":
                self.seen.add("wolf drawn (HS2/HS3)")
        if ended:
            assert events[-1]["type"] == "end", "the end event comes last"
        if hidden_tiles(game):
            self.seen.add("tile hidden under a hill (HS7)")

    def node_of(self, e: Event, game: Game | None = None) -> Fig:
        pl = (game or self.game).board[(e["x"], e["y"])]
        seg = pl.tile.rotations[pl.rot].locations[e["location"]]
        return Fig(pl.first_node + seg, e["player"], e["kind"], pl.cell)

    def check_alone(self, fig: Fig, game: Game | None = None) -> None:
        """G6: right after its placement a figure's feature holds no other figure of its family
        (unless the figure already went home this move: scored (G9) or met a wolf (HS2))."""
        feat = (game or self.game).graph.of(fig.node)
        family = FAMILY_OF[fig.kind]
        same = [f for f in feat.figures if FAMILY_OF[f.kind] == family]
        if not any(f.node == fig.node and f.kind == fig.kind for f in same):
            return
        assert len(same) == 1, (
            f"G6: the {feat.type} of the new {fig.kind} at {fig.cell} holds {len(same)} "
            f"figures of its family")

    # ------------------------------------------------------------ scoring

    def check_score(self, e: Event, before: list[Fig], after: list[Fig]) -> None:
        points, winners = e["points"], e["winners"]
        assert type(points) is int and points >= 0, "G12"
        for p in winners:
            self.tally[p] += points
        strengths = {int(p): s for p, s in e["strengths"].items()}
        if not self.majority_based(e):
            return
        assert winners == sorted(set(winners)) and set(winners) <= set(strengths), e
        figs, feat_points = self.figures_of(e, before, after)
        if figs is not None:
            recomputed: Counter[int] = Counter()
            for f in figs:
                if f.kind in FOLLOWER_STRENGTH:
                    recomputed[f.player] += FOLLOWER_STRENGTH[f.kind]
            assert dict(recomputed) == strengths, (
                f"G8: strengths of {e['feature']} at {e['cells']}: event {strengths}, "
                f"figures {dict(recomputed)}")
        if feat_points is not None:
            assert points == feat_points, (
                f"{e['rule']}: {e['phase']} {e['feature']} at {e['cells']} scored {points}, "
                f"the rules give {feat_points} ({e['detail']})")
        best = max(strengths.values())
        tied = sorted(p for p, s in strengths.items() if s == best)
        expected = tied
        if len(tied) > 1:
            self.seen.add("tie (several winners)")
            if self.hills and figs is not None and e["feature"] in ("road", "city", "farm",
                                                                     "field"):
                expected = self.hill_break(tied, figs)
                if expected != tied:
                    self.seen.add("hill tie-break decided (HS8)")
        assert winners == expected, (
            f"{'HS8' if expected != tied else 'G8'}: {e['feature']} at {e['cells']} with "
            f"strengths {strengths}: winners {winners}, expected {expected}")
        if e["phase"] == "play" and e["feature"] == "city" and len(strengths) > 1:
            self.seen.add("completed city with several owners (G7)")
        if e["phase"] == "play" and e["feature"] == "cloister":
            self.seen.add("cloister completed")
        if e["feature"] == "farm":
            self.seen.add("farm scored (B8)")
            if len(winners) > 1:
                self.seen.add("farm tie")

    def hill_break(self, tied: list[int], figs: list[Fig]) -> list[int]:
        """HS8: of the tied players, those with a follower on a hill tile win alone; option
        ``count``: those with the most followers on hills."""
        on_hill: Counter[int] = Counter(
            f.player for f in figs
            if f.player in tied and f.kind in FOLLOWER_STRENGTH and self.on_hill(f))
        if not on_hill:
            return tied
        if self.config.options.hill_tiebreak == "count":
            most = max(on_hill.values())
            return sorted(p for p, n in on_hill.items() if n == most)
        return sorted(on_hill)

    @staticmethod
    def majority_based(e: Event) -> bool:
        """Score events decided by a majority (G8). HOOK: shepherds (HS3-HS5) share a flock and
        a sacred place (HG11) decides alone; such events are exempt."""
        return not (str(e.get("rule", "")).startswith(("HS3", "HS4", "HS5"))
                    or "sacred" in str(e.get("detail", "")))

    def figures_of(self, e: Event, before: list[Fig],
                   after: list[Fig]) -> tuple[list[Fig] | None, int | None]:
        """The figures a score event counted and the points the rules give, recomputed from
        the board; (None, None) for a kind of event this checker does not model."""
        game, graph = self.game, self.game.graph
        cells = e["cells"]
        kind = e["feature"]
        if kind == "farm":
            per_field = self.config.options.farm_scoring == "per-field"
            want = "field" if per_field else "city"
        else:
            want = kind
        if want not in COMPLETABLE | {"field"}:
            return None, None
        candidates = [f for f in game.features() if f.type == want and game.cells_of(f) == cells]
        if e["phase"] == "play":
            candidates = [f for f in candidates if f.scored]
        results: list[tuple[list[Fig], int | None]] = []
        for feat in candidates:
            root = graph.find(feat.first)
            if kind == "farm" and want == "city":
                fields = [f for f in game.features() if f.type == "field"
                          and any(graph.find(t) == root for t in f.touches)]
                roots = {graph.find(f.first) for f in fields}
                figs = [f for f in after if graph.find(f.node) in roots]
                results.append((figs, 4))  # B8 per city
                continue
            pool = before if e["phase"] == "play" else after
            figs = [f for f in pool if graph.find(f.node) == root]
            results.append((figs, self.points(feat, e)))
        strengths = {int(p): s for p, s in e["strengths"].items()}
        for figs, pts in results:
            got: Counter[int] = Counter()
            for f in figs:
                if f.kind in FOLLOWER_STRENGTH:
                    got[f.player] += FOLLOWER_STRENGTH[f.kind]
            if dict(got) == strengths:
                return figs, pts
        assert results, f"no {want} with cells {cells} for the score event {e}"
        return results[0]

    def points(self, feat: Any, e: Event) -> int | None:
        """B3-B8 with IC2/IC3 and HS9, from RULES.md. HOOK: None where not modelled."""
        n = len(feat.tiles)
        inn, cathedral = "inn" in feat.flags, "cathedral" in feat.flags
        complete = e["phase"] == "play"
        if e["feature"] == "farm":  # per-field (B8 option): 3 per complete city it touches
            graph = self.game.graph
            cities = {graph.find(t) for t in feat.touches if graph.of(t).type == "city"
                      and graph.of(t).open == 0}
            return 3 * len(cities)
        if feat.type == "road":
            return (2 * n if inn else n) if complete else (0 if inn else n)  # B3, B7, IC2
        if feat.type == "city":
            if complete:
                if n == 2 and not cathedral:
                    return self.config.options.small_city  # B4a
                per = 3 if cathedral else 2  # B4, IC3
                return per * (n + feat.pennants)
            return 0 if cathedral else n + feat.pennants  # B7, IC3
        if feat.type == "cloister":
            assert feat.cell is not None
            k = self.game.neighbours(feat.cell)
            if not complete:
                return 1 + k  # B7
            if not self.hills:
                return 9  # B5
            x, y = feat.cell
            vineyards = sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                            if (dx or dy) and self.game.board[(x + dx, y + dy)].tile.vineyard)
            return 9 + 3 * vineyards  # HS9
        return None

    # ------------------------------------------------------------ the state

    def check_state(self) -> None:
        game = self.game
        # figure conservation
        on_board: Counter[tuple[int, str]] = Counter()
        for fig in game.figures_on_board():
            on_board[(fig.player, fig.kind)] += 1
            assert fig.cell in game.board
            assert fig.hill == game.board[fig.cell].tile.hill, "a figure's hill flag (HS8)"
        for p, start in enumerate(self.start_supply):
            assert set(game.supply[p]) == set(start), "no figure kind appears or vanishes"
            for kind, count in start.items():
                left = game.supply[p][kind]
                assert left >= 0 and left + on_board[(p, kind)] == count, (
                    f"{self.names[p]}'s {kind}s: {left} in supply + {on_board[(p, kind)]} on "
                    f"the board != {count}")
                if left == 0 and kind == "follower":
                    self.seen.add("follower supply exhausted")
        assert set(k for _, k in on_board) <= set(self.start_supply[0])
        # tile conservation
        accounted: Counter[str] = Counter(t.id for t in game.pile[game.pile_pos:])
        if game.current is not None:
            accounted[game.current.id] += 1
        accounted.update(pl.tile.id for pl in game.placements)
        accounted.update(game.discarded)
        accounted.update(hidden_tiles(game))
        accounted.update(bonus_stack(game))
        assert accounted == self.tile_set, (
            f"tile conservation: missing {dict(self.tile_set - accounted)}, "
            f"extra {dict(accounted - self.tile_set)}")
        # the board (G4)
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
        # the frontier, the legal placements, the draw (G4, G5)
        front = frontier_of(game)
        assert game.frontier == front, "the engine's frontier differs from the board's"
        if game.current is not None:
            legal = placements_for(game, game.current)
            assert legal, f"G5: the drawn tile {game.current.id} fits nowhere"
            assert game.legal_placements() == legal
        assert game.finished == (game.current is None)
        if game.finished:
            assert game.pile_pos == len(game.pile)
        # completed features hold no follower (G9) and have scored
        for feat in game.features():
            if feat.type in COMPLETABLE and game.is_complete(feat):
                assert feat.scored, f"a complete {feat.type} never scored"
                stuck = [f for f in feat.figures if FAMILY_OF[f.kind] == "follower"]
                assert not stuck, f"G9: {stuck} stay on a completed {feat.type}"
        # scores (G12) and score events
        assert game.scores == self.tally, (
            f"scores {game.scores} differ from the sum of the score events {self.tally}")
        assert all(new >= old for new, old in zip(game.scores, self.last_scores, strict=True))
        self.last_scores = list(game.scores)


# ---------------------------------------------------------------------------- the machine

SEEDS = st.one_of(st.integers(0, 2**32 - 1),
                  st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12))
ILLEGAL_KINDS = ("occupied-cell", "detached-cell", "edge-mismatch", "bad-rotation",
                 "wrong-tile", "unknown-location", "occupied-segment", "foreign-figure",
                 "empty-supply")


def options_for(family: golden.Family) -> st.SearchStrategy[Options]:
    """Every rule option of ``Options``, for the families it concerns (a new one joins here)."""
    kwargs: dict[str, st.SearchStrategy[Any]] = {}
    if family[0] == "base":
        kwargs["small_city"] = st.sampled_from([2, 4])  # B4a
        kwargs["farm_scoring"] = st.sampled_from(["per-city", "per-field"])  # B8
    if "hills-sheep" in family[1]:
        kwargs["hill_tiebreak"] = st.sampled_from(["presence", "count"])  # HS8
    if family[0] == "hunters-gatherers":
        kwargs["return_timing"] = st.sampled_from(["end-of-turn", "immediate"])  # HG6
    return st.builds(Options, **kwargs)


def touching(game: Game, x: int, y: int) -> int:
    return sum((x + dx, y + dy) in game.board for dx, dy in SIDE_DELTA)


def pick_move(game: Game, choose: Callable[[list[Any], str], Any], compact: bool,
              with_figure: bool, seen: set[str]) -> Move:
    """A legal move drawn from the sorted legal options of the current state by ``choose``
    (Hypothesis in the machine, a seeded stream for the fixed games)."""
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
    extra = expansion_parts(game, tile, x, y, rot, choose, seen, figure, with_figure)
    return Move(x, y, rot, tile.id, figure, **extra)


def expansion_parts(game: Game, tile: TileType, x: int, y: int, rot: int,
                    choose: Callable[[list[Any], str], Any], seen: set[str],
                    figure: FigureChoice | None = None,
                    with_figure: bool = False) -> dict[str, Any]:
    """Extra parts of a move that expansions add, drawn from the engine's legal options.

    HS3: one expand-or-herd choice per field holding the mover's shepherd that the tile
    extends (``Game.flock_required``).
    HG7: when the tile completes a forest with gold, the bonus tile is part of the move
    (``Move.bonus``); its placement and figure are drawn from the legal options of the state
    after the land tile, found by playing the land tile on a copy of the game (``Game.step``).
    """
    extra: dict[str, Any] = {}
    locations = game.flock_required(tile, x, y, rot)
    if locations:
        extra["flock"] = tuple(FlockChoice(loc, choose(["expand", "herd"], f"flock {loc}"))
                               for loc in locations)
        seen.add("flock choice (HS3)")
    if game.bonus_stack and _gold_nearby(game, tile, x, y, rot):
        probe = _copy_game(game)
        probe.step(Move(x, y, rot, tile.id, figure, **extra))
        bonus_tile = probe.pending_bonus
        if probe.bonus_due and bonus_tile is not None:
            spots = probe.legal_placements(bonus_tile)
            if spots:
                bx, by, brot = choose(spots, "bonus placement")
                bfig = None
                if with_figure:
                    options = probe.figure_options(bonus_tile, bx, by, brot)
                    bfig = choose(options, "bonus figure") if options else None
                extra["bonus"] = Move(bx, by, brot, bonus_tile.id, bfig)
    return extra


def _gold_nearby(game: Game, tile: TileType, x: int, y: int, rot: int) -> bool:
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


_SHARED: dict[int, Any] = {}  # objects a game copy shares with its original, by id


def _shared(key: int) -> Any:
    return _SHARED[key]


class _SharingPickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if id(obj) in _SHARED:
            return _shared, (id(obj),)
        return NotImplemented


def _copy_game(game: Game) -> Game:
    """A deep copy sharing the immutable parts (configuration, tile types); pickling is several
    times as fast as ``copy.deepcopy`` here."""
    if id(game.config) not in _SHARED:
        _SHARED.clear()
        _SHARED[id(game.config)] = game.config
        for t in game.config.tileset.tiles:
            _SHARED[id(t)] = t
    buf = io.BytesIO()
    _SharingPickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(game)
    copied: Game = pickle.loads(buf.getvalue())
    return copied


class GameMachine(RuleBasedStateMachine):
    """Plays one game of ``FAMILY``; each step is one move (two rules, so that Hypothesis's
    swarm testing, which disables some rules per run, never stops a game)."""

    FAMILY: ClassVar[golden.Family] = ("base", ())

    def __init__(self) -> None:
        super().__init__()
        self.checker: Checker | None = None
        self.compact = self.figure_rate = 0

    @initialize(data=st.data())
    def set_up(self, data: st.DataObject) -> None:
        game_name, expansions = self.FAMILY
        players = data.draw(st.integers(2, golden.max_players(self.FAMILY)), label="players")
        seed = data.draw(SEEDS, label="seed")
        options = data.draw(options_for(self.FAMILY), label="options")
        # the style of play: how often the tile goes where it touches most tiles (a compact
        # board completes features and joins them), how often a figure is placed
        self.compact = data.draw(st.integers(0, 100), label="compact %")
        self.figure_rate = data.draw(st.integers(0, 100), label="figure %")
        config = config_for(game_name, players, seed, expansions, options)
        self.checker = Checker(Game(config))
        event(f"{golden.family_label(self.FAMILY)}, {players} players")

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        self.step(data, illegal_first=False)

    @rule(data=st.data())
    def try_illegal_then_play(self, data: st.DataObject) -> None:
        self.step(data, illegal_first=True)

    @invariant()
    def invariants(self) -> None:
        if self.checker is not None:
            self.checker.check_state()

    def teardown(self) -> None:
        """Play the game to its end (Hypothesis may stop a run early) with a seeded policy,
        still checking everything, so that every run reaches final scoring (B7, B8, G11)."""
        if self.checker is None:
            return
        game = self.checker.game
        if not game.finished:
            pick = SeededStream(hashing.hexdigest(game.hash), "fuzz-finish")

            def choose(options: list[Any], label: str) -> Any:
                return options[pick.below(len(options))]

            while not game.finished:
                compact, with_figure = pick.below(100) < self.compact, pick.below(2) == 0
                self.checker.play(pick_move(game, choose, compact, with_figure,
                                            self.checker.seen))
                self.checker.check_state()
            event("game finished by the teardown policy")
        for label in sorted(self.checker.seen):
            event(label)

    # ------------------------------------------------------------ steps

    def step(self, data: st.DataObject, illegal_first: bool) -> None:
        assert self.checker is not None
        game = self.checker.game
        if game.finished:
            self.after_end(data)
            return
        if illegal_first:
            self.attempt_illegal(data)
        compact = data.draw(st.integers(0, 99), label="roll") < self.compact
        with_figure = data.draw(st.integers(0, 99), label="roll") < self.figure_rate

        def choose(options: list[Any], label: str) -> Any:
            return data.draw(st.sampled_from(options), label=label)

        move = pick_move(game, choose, compact, with_figure, self.checker.seen)
        if illegal_first:
            self.attempt_bonus_errors(move)
        self.checker.play(move)

    def attempt_bonus_errors(self, move: Move) -> None:
        """HG7: a turn that earns a bonus tile must play it, and only such a turn may; either
        error is refused like any illegal move (rule id, state unchanged)."""
        assert self.checker is not None
        if move.bonus is not None:
            self.expect_refused("bonus tile left out", dataclasses.replace(move, bonus=None),
                                {"HG7"}.__contains__)
        elif self.checker.game.bonus_stack:
            some = Move(0, 0, 0)
            self.expect_refused("bonus tile not due", dataclasses.replace(move, bonus=some),
                                {"HG7"}.__contains__)

    def attempt_illegal(self, data: st.DataObject) -> None:
        self.expect_refused(*self.illegal_move(data))

    def expect_refused(self, kind: str, move: Move, expected: Callable[[str], bool]) -> None:
        """The illegal ``move`` raises ``IllegalMove`` naming an expected rule, and nothing
        changes (DESIGN: a move is checked before it changes anything)."""
        assert self.checker is not None
        game = self.checker.game
        before = fingerprint(game)
        legal_before = game.legal_placements()
        moves_played, turn = game.moves_played, game.turn
        try:
            game.play(move)
        except IllegalMove as exc:
            assert fingerprint(game) == before, (
                f"{kind}: the illegal move raised {exc.rule} ({exc.message}) but changed the "
                "state; an illegal move must leave it untouched (DESIGN, IllegalMove)")
            assert RULE_ID.match(exc.rule), f"{exc.rule!r} is not a rule id ({kind})"
            assert expected(exc.rule), f"{kind}: {move} raised {exc.rule}: {exc.message}"
            assert exc.message and exc.rule in str(exc)
            assert exc.move == moves_played
            assert exc.player == self.checker.names[turn]
            event(f"illegal move refused: {kind} ({exc.rule})")
        else:
            raise AssertionError(f"{kind}: the illegal move {move} was accepted")
        assert game.legal_placements() == legal_before

    def illegal_move(self, data: st.DataObject) -> tuple[str, Move, Callable[[str], bool]]:
        assert self.checker is not None
        checker = self.checker
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
            return kind, Move(x, y, data.draw(st.sampled_from(ROTATIONS)), tile.id), g4
        if kind == "edge-mismatch":
            front = frontier_of(game)
            bad = sorted((x, y, 90 * q) for (x, y), key in front.items()
                         for q in range(4) if not fits(key, tile.rotations[q].edges))
            if bad:
                x, y, rot = data.draw(st.sampled_from(bad))
                return kind, Move(x, y, rot, tile.id), g4
        x, y, rot = data.draw(st.sampled_from(legal))
        if kind == "bad-rotation":
            bad_rot = data.draw(st.sampled_from([45, 360, -90, 1, 135, 271]))
            return kind, Move(x, y, bad_rot, tile.id), {"G1"}.__contains__
        if kind == "wrong-tile":
            others = sorted(t for t in checker.tiles_by_id if t != tile.id)
            return kind, Move(x, y, rot, data.draw(st.sampled_from(others))), {"L1"}.__contains__
        where = tile.rotations[rot // 90].locations
        supply = game.supply[game.turn]
        if kind == "unknown-location":
            names = ["", "Z", "NN", "centre", "C", "cloister", "inner-field", "n", "w"]
            loc = data.draw(st.sampled_from([n for n in names if n not in where]))
            return kind, Move(x, y, rot, tile.id, FigureChoice("follower", loc)), \
                checker.figure_rule
        if kind == "occupied-segment":
            allowed: dict[str, set[int]] = {}
            for c in game.figure_options(tile, x, y, rot):
                allowed.setdefault(c.kind, set()).add(where[c.location])
            refused = [(k, loc) for k in sorted(supply) if supply[k] > 0
                       for loc in sorted(where) if where[loc] not in allowed.get(k, set())]
            if refused:
                k, loc = data.draw(st.sampled_from(refused))
                return kind, Move(x, y, rot, tile.id, FigureChoice(k, loc)), checker.figure_rule
        if kind == "foreign-figure":
            foreign = [k for k in ("follower", "large-follower", "shepherd", "hut", "abbot",
                                   "Follower") if k not in supply]
            k = data.draw(st.sampled_from(foreign))
            loc = data.draw(st.sampled_from(sorted(where)))
            return kind, Move(x, y, rot, tile.id, FigureChoice(k, loc)), checker.figure_rule
        if kind == "empty-supply":
            empty = sorted(k for k, n in supply.items() if n == 0)
            if empty:
                k = data.draw(st.sampled_from(empty))
                loc = data.draw(st.sampled_from(sorted(where)))
                return kind, Move(x, y, rot, tile.id, FigureChoice(k, loc)), checker.figure_rule
        # the kind does not apply in this state: put the tile on an occupied cell instead
        cell = data.draw(st.sampled_from(sorted(game.board)))
        return ("occupied-cell", Move(cell[0], cell[1], data.draw(st.sampled_from(ROTATIONS)),
                                      tile.id), g4)

    def after_end(self, data: st.DataObject) -> None:
        """G11: once the pile is empty every move is refused and nothing changes."""
        assert self.checker is not None
        game = self.checker.game
        before = fingerprint(game)
        x = data.draw(st.integers(-3, 3))
        try:
            game.play(Move(x, 5, 0))
        except IllegalMove as exc:
            assert exc.rule == "G11"
        else:
            raise AssertionError("G11: a move after the end was accepted")
        assert fingerprint(game) == before


def machine_for(family: golden.Family) -> type[GameMachine]:
    name = "GameMachine_" + re.sub(r"\W", "_", golden.family_label(family))
    return type(name, (GameMachine,), {"FAMILY": family})


def pile_size(family: golden.Family) -> int:
    return len(build_pile(config_for(family[0], 2, 0, family[1]).tileset, "0"))


def fuzz_case(family: golden.Family) -> type[unittest.TestCase]:
    """The pytest-visible test of one family: whole random games, every invariant checked
    after every step. A ``TestCase`` (not a parametrized function) so that
    ``--hypothesis-show-statistics`` reports the events of each family."""
    case = machine_for(family).TestCase
    # one initialize step, one step per tile, a few more to check G11 after discards
    case.settings = settings(FUZZ, stateful_step_count=pile_size(family) + 4)
    reason = golden.unimplemented_reason(family)
    if reason is not None:
        case = unittest.skip(reason)(case)
    return case


for _family in golden.FAMILIES:
    _name = "TestFuzz_" + re.sub(r"\W", "_", golden.family_label(_family))
    globals()[_name] = type(_name, (fuzz_case(_family),), {})


# ---------------------------------------------------------------------------- fixed seeds

# The interesting states each family must reach in the fixed-seed games below (labels of
# ``Checker.seen``; an expansion's list applies to the families it ends); the statistics of the
# fuzz runs show the same labels.
MUST_REACH: dict[str, tuple[str, ...]] = {
    "base": ("completed city with several owners (G7)", "tie (several winners)",
             "farm scored (B8)", "farm tie", "cloister completed", "follower supply exhausted",
             "game finished"),
    "inns-cathedrals": ("large-follower placed",),
    "hills-sheep": ("shepherd placed", "hill tile placed", "tile hidden under a hill (HS7)",
                    "wolf drawn (HS2/HS3)", "hill tie-break decided (HS8)"),
    "hunters-gatherers": ("hut placed", "bonus tile played (HG7)", "game finished"),
}


def play_checked(config: GameConfig, compact: int = 80, figure_rate: int = 40) -> set[str]:
    """A whole game chosen by a seeded stream with the machine's policy, every move and state
    checked; returns the interesting states it reached."""
    assert config.seed is not None
    game = Game(config)
    checker = Checker(game)
    pick = SeededStream(config.seed, "fuzz-policy")

    def choose(options: list[Any], label: str) -> Any:
        return options[pick.below(len(options))]

    while not game.finished:
        compact_now = pick.below(100) < compact
        with_figure = pick.below(100) < figure_rate
        checker.play(pick_move(game, choose, compact_now, with_figure, checker.seen))
        checker.check_state()
    return checker.seen


def play_generated(config: GameConfig) -> set[str]:
    """A game of the engine's own generator (``python -m replay generate``), checked."""
    _, moves = play_random(config)
    parsed = parse({"format": "carcassonne-replay/log", "version": 1, "game": config.game,
                    "expansions": list(config.expansions),
                    "options": config.options.as_dict(config.game),
                    "players": [{"name": p.name} for p in config.players],
                    "seed": config.seed, "moves": moves})
    game = Game(parsed.config)
    checker = Checker(game)
    for move in parsed.moves:
        checker.play(move)
        checker.check_state()
    assert game.finished
    return checker.seen


def fixed_games(family: golden.Family, count: int) -> Iterable[GameConfig]:
    top = golden.max_players(family)
    for k in range(count):
        if family[0] == "base":
            options = Options(small_city=4 if k % 5 == 4 else 2,
                              farm_scoring="per-field" if k % 3 == 2 else "per-city",
                              hill_tiebreak="count" if k % 4 == 3 else "presence")
        else:
            options = Options(return_timing="immediate" if k % 2 else "end-of-turn")
        yield config_for(family[0], 2 + k % (top - 1), 1000 + k, family[1], options)


@pytest.mark.parametrize("family", golden.FAMILIES, ids=golden.family_label)
def test_fuzz_reaches_interesting_states(family: golden.Family) -> None:
    """30 seeded games per family (24 with the machine's policy, 6 of the engine's generator),
    all invariants checked, reach the states the fuzzing is meant to explore (so the claim of
    the statistics is checked by CI, not only shown)."""
    reason = golden.unimplemented_reason(family)
    if reason is not None:
        pytest.skip(reason)
    reached: Counter[str] = Counter()
    for k, config in enumerate(fixed_games(family, 30)):
        reached.update(play_checked(config) if k % 5 else play_generated(config))
    wanted = [label for part in (family[1] or family[:1]) for label in MUST_REACH[part]]
    missing = [label for label in wanted if not reached[label]]
    assert not missing, f"never reached in 30 seeded games: {missing}; reached {dict(reached)}"


def _refused(game: Game, move: Move) -> IllegalMove:
    before = fingerprint(game)
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert fingerprint(game) == before, (
        f"{info.value.rule}: the illegal move was refused but changed the state "
        f"({info.value.message}); an illegal move must leave the state untouched")
    return info.value


def test_HG7_bonus_tile_errors_leave_the_state_unchanged() -> None:
    """HG7 (and the IllegalMove contract): a turn that earns a bonus tile but leaves it out, and
    a turn that names a bonus tile it did not earn, are refused with HG7 and change nothing.

    ENGINE BUG found by the fuzzer in the Hunters & Gatherers engine while it was being written:
    ``Game.play`` stepped the land tile and only then raised HG7, so the refused move stayed
    half played (board, turn, moves played and state hash changed)."""
    family: golden.Family = ("hunters-gatherers", ())
    reason = golden.unimplemented_reason(family)
    if reason is not None:
        pytest.skip(reason)
    for seed in range(20):
        game = Game(config_for("hunters-gatherers", 2, seed))
        pick = SeededStream(str(seed), "fuzz-policy")

        def choose(options: list[Any], label: str, pick: SeededStream = pick) -> Any:
            return options[pick.below(len(options))]

        while not game.finished:
            move = pick_move(game, choose, True, pick.below(2) == 0, set())
            bonus = move.bonus
            if bonus is None and game.moves_played == 0:
                wrong = dataclasses.replace(move, bonus=Move(0, 0, 0))
                assert _refused(game, wrong).rule == "HG7"
            if bonus is not None:
                assert _refused(game, dataclasses.replace(move, bonus=None)).rule == "HG7"
                return
            game.play(move)
    pytest.fail("no bonus tile in 20 seeded games")
