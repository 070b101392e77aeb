"""Carcassonne's invariants for fuzzing (``Carcassonne.fuzz_machine``): the tile-laying
families' checks (``replay.tiles.fuzz``) with Carcassonne's rules restated independently of
the engine:

* the points of every score event recomputed from the board (B3-B8 with the options B4a and
  B8, IC2, IC3, HS9), farms per city or per field (B8);
* Hills & Sheep: the hill tie-break (HS8, with its option), the shepherds the sheep bag
  follows, the tiles hidden under hills (HS7) and the bag in the fingerprint; a flock's
  expand-or-herd choices (HS3) drawn from the engine's legal options, with its shortcut
  (``shepherd_beside``) checked against the fields worked out in full;
* with no expansion: one tile and at most one figure a move.

A house-rule variant that derives from ``Carcassonne`` inherits this machine, which reads the
farm points from the family (``farm_points``); when it changes another rule restated here, it
names its own machine (a subclass of ``CarcassonneMachine`` whose checker overrides
``points``, say) or ``fuzz_machine = None`` for the generic one.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...lab.checker import Choose
from ...tiles.fuzz import Event, Fig, TileChecker
from ...tiles.fuzz_machine import TileMachine
from ...tiles.moves import FigureChoice
from ...tiles.state import TileState as Game
from ...tiles.tileset import TileType
from .hills_sheep import shepherd_beside, shepherd_fields
from .sheep_moves import FlockChoice

SHEEP = "hills-sheep"
FARM_POINTS = {"per-city": 4, "per-field": 3}  # B8, by the option farm_scoring


def sheep_part(game: Game) -> Any:
    """The Hills & Sheep state of a game (bag, draws, hidden tiles), or None."""
    parts: dict[str, Any] = getattr(game, "parts", {})
    return parts.get(SHEEP)


def hidden_tiles(game: Game) -> list[str]:
    """HS7: the tiles put unseen under hill tiles ("?" in a table log that did not say)."""
    sheep = sheep_part(game)
    return list(sheep.hidden) if sheep is not None else []


class CarcassonneChecker(TileChecker):
    """``TileChecker`` with Carcassonne's scoring (B3-B8, IC2, IC3) and Hills & Sheep."""

    def __init__(self, game: Any) -> None:
        config = game.config
        self.hills = SHEEP in config.expansions
        self.alone = not config.expansions
        super().__init__(game)

    # ------------------------------------------------------------ the position

    @classmethod
    def more_fingerprint(cls, game: Game) -> tuple[Any, ...]:
        sheep = sheep_part(game)
        return (tuple(hidden_tiles(game)), None if sheep is None else sheep.token_draws,
                None if sheep is None else tuple(sheep.bag))

    def held_elsewhere(self) -> list[str]:
        return hidden_tiles(self.game)

    def check_position(self) -> None:
        super().check_position()
        if self.hills:  # the shepherds the sheep bag follows (``shepherd_beside``)
            game = self.game
            assert sheep_part(game).shepherds == {
                f.player: f.node for f in game.figures_on_board() if f.kind == "shepherd"}

    # ------------------------------------------------------------ a move

    def check_places(self, move: Any, places: list[Event], figures: list[Event]) -> None:
        super().check_places(move, places, figures)
        if self.alone:
            assert len(figures) == (move.figure is not None), "one figure at most (G6)"

    def check_tile_events(self, player: int, tile: TileType | None, move: Any,
                          events: list[Event], before: list[Fig]) -> None:
        super().check_tile_events(player, tile, move, events, before)
        if hidden_tiles(self.game):
            self.saw("tile hidden under a hill (HS7)")

    def note(self, e: Event) -> None:
        if e["type"] == "wolf":
            self.saw("wolf drawn (HS2/HS3)")

    def move_parts(self, tile: TileType, x: int, y: int, rot: int, choose: Choose,
                   figure: FigureChoice | None, with_figure: bool) -> dict[str, Any]:
        """HS3: one expand-or-herd choice per field holding the mover's shepherd that the
        tile extends (``flock_required``), drawn by ``choose``."""
        game: Any = self.game
        extra: dict[str, Any] = {}
        locations = game.flock_required(tile, x, y, rot)
        if self.hills:
            self.check_flock_shortcut(tile, x, y, rot, locations)
        if locations:
            extra["flock"] = tuple(
                FlockChoice(loc, choose(["expand", "herd"], f"flock {loc}"))
                for loc in locations)
            self.saw("flock choice (HS3)")
        return extra

    def check_flock_shortcut(self, tile: TileType, x: int, y: int, rot: int,
                             locations: list[str]) -> None:
        """HS3: ``flock_required`` skips the features a tile joins when ``shepherd_beside``
        says the mover's shepherd is in no field beside it; the fields worked out in full
        agree."""
        game: Any = self.game
        q = rot // 90
        full = list(shepherd_fields(game, tile, q, game._prospective(tile, (x, y), q)))
        assert locations == full, f"HS3 shortcut: {locations} != {full} at ({x},{y}) {rot}"
        if game.supply[game.turn]["shepherd"] < 1:
            beside = shepherd_beside(game, (x, y))
            assert beside or not full
            self.saw("HS3: shepherd out, " + (("tile extends its field" if full else
                                               "tile beside its field, not extending it")
                                              if beside else "tile away from its field"))

    # ------------------------------------------------------------ scoring

    def check_score(self, e: Event, before: list[Fig], after: list[Fig]) -> None:
        super().check_score(e, before, after)
        if not self.majority_based(e):
            return
        best = max(e["strengths"].values())
        tied = sorted(int(p) for p, s in e["strengths"].items() if s == best)
        if len(tied) > 1 and e["winners"] != tied:
            self.saw("hill tie-break decided (HS8)")
        if e["feature"] == "farm":
            self.saw("farm scored (B8)")
            if len(e["winners"]) > 1:
                self.saw("farm tie")

    def majority_based(self, e: Event) -> bool:
        """Shepherds (HS3-HS5) share a flock: not a majority."""
        return not str(e.get("rule", "")).startswith(("HS3", "HS4", "HS5"))

    def tie_winners(self, tied: list[int], figs: list[Fig], e: Event) -> tuple[list[int], str]:
        """HS8: of the tied players, those with a follower on a hill tile win alone; option
        ``count``: those with the most followers on hills."""
        if not self.hills or e["feature"] not in ("road", "city", "farm", "field"):
            return tied, "G8"
        on_hill: Counter[int] = Counter(
            f.player for f in figs
            if f.player in tied and f.kind in self.STRENGTH and self.on_hill(f))
        if not on_hill:
            return tied, "G8"
        if self.config.options["hill_tiebreak"] == "count":
            most = max(on_hill.values())
            return sorted(p for p, n in on_hill.items() if n == most), "HS8"
        return sorted(on_hill), "HS8"

    def on_hill(self, fig: Fig) -> bool:
        return self.game.board[fig.cell].tile.hill

    def figures_of(self, e: Event, before: list[Fig],
                   after: list[Fig]) -> tuple[list[Fig], int | None] | None:
        """Farms (B8): per field, the field's figures; per city, the farmers of every field
        touching the complete city the event names (4 points)."""
        if e["feature"] != "farm":
            return super().figures_of(e, before, after)
        per_field = self.config.options["farm_scoring"] == "per-field"
        found = self.feature_figures(e, "field" if per_field else "city", before, after)
        if per_field or found is None:
            return found
        game, graph = self.game, self.game.graph
        root = graph.find(e["feature_id"])
        fields = [f for f in game.features() if f.type == "field"
                  and any(graph.find(t) == root for t in f.touches)]
        roots = {graph.find(f.first) for f in fields}
        return [f for f in after if graph.find(f.node) in roots], self.farm_points("per-city")

    def farm_points(self, scoring: str) -> int:
        """B8: what a farm scores for each complete city, per-city (4) or per-field (3), or
        what the family (a house-rule variant) says (``farm_points``)."""
        return int(getattr(self.family, "farm_points", FARM_POINTS)[scoring])

    def points(self, feat: Any, e: Event) -> int | None:
        """B3-B8 with IC2/IC3 and HS9, from docs/rules.md; None where not modelled."""
        n, pennants = len(feat.tiles), int(feat.pennants)
        inn, cathedral = "inn" in feat.flags, "cathedral" in feat.flags
        complete = e["phase"] == "play"
        if e["feature"] == "farm":  # per-field (B8 option): 3 per complete city it touches
            graph = self.game.graph
            cities = {graph.find(t) for t in feat.touches if graph.of(t).type == "city"
                      and graph.of(t).open == 0}
            return self.farm_points("per-field") * len(cities)
        if feat.type == "road":
            return (2 * n if inn else n) if complete else (0 if inn else n)  # B3, B7, IC2
        if feat.type == "city":
            if complete:
                if n == 2 and not cathedral:
                    return int(self.config.options["small_city"])  # B4a
                per = 3 if cathedral else 2  # B4, IC3
                return per * (n + pennants)
            return 0 if cathedral else n + pennants  # B7, IC3
        if feat.type == "cloister":
            return self.cloister_points(feat, complete)
        return None

    def cloister_points(self, feat: Any, complete: bool) -> int:
        """B5, B7; HS9: 3 more for each vineyard around a complete cloister."""
        assert feat.cell is not None
        if not complete:
            return 1 + self.game.neighbours(feat.cell)  # B7
        if not self.hills:
            return 9  # B5
        x, y = feat.cell
        vineyards = sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                        if (dx or dy) and self.game.board[(x + dx, y + dy)].tile.vineyard)
        return 9 + 3 * vineyards  # HS9


class CarcassonneMachine(TileMachine):
    """Plays one game of Carcassonne (the tile machine with ``CarcassonneChecker``)."""

    CHECKER = CarcassonneChecker
