"""Scoring of the base game (B3-B8), majorities and ties (G8), return of figures (G9).

Scoring produces ``Score`` events that say who scored what and how it was computed, read alike
by the CLI, the web viewer and the tests. Expansions add their points (IC2, IC3, HS9) and the
tie-break (HS8) through ``CarcassonneState``'s hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...tiles.features import Feature
from ...tiles.scoring import FOLLOWERS, majority, score_event, score_feature
from ...tiles.scoring import plural as _n

if TYPE_CHECKING:
    from .state import CarcassonneState as Game

Points = tuple[int, str, str]  # points, how they were computed, rule id

# G10: completions of one placement score roads, then cities, then cloisters, each group in
# the order the features were created (their first segment); final scoring uses the same order.
TYPE_ORDER = {"road": 0, "city": 1, "cloister": 2, "field": 3}
# B7: the types final scoring counts before the farms (B8), in that order
_FINAL_TYPES = tuple(t for t in sorted(TYPE_ORDER, key=TYPE_ORDER.__getitem__) if t != "field")


def completed_points(game: Game, feat: Feature) -> Points:
    """Points of a feature completed during play: (points, how, rule id)."""
    n = len(feat.tiles)
    if feat.type == "road":
        return n, f"road: {_n(n, 'tile')} × 1 = {n}", "B3"
    if feat.type == "city":
        if n == 2 and game.small_city == 2:
            return 2, "city: 2 tiles (small city) = 2", "B4a"
        pts = 2 * n + 2 * feat.pennants
        return pts, (f"city: {_n(n, 'tile')} × 2 + {_n(feat.pennants, 'pennant')} × 2 "
                     f"= {pts}"), "B4"
    if feat.type == "cloister":
        return 9, "cloister: complete = 9", "B5"
    raise ValueError(f"{feat.type} does not score during play")


def final_points(game: Game, feat: Feature) -> Points:
    """B7: incomplete roads, cities and cloisters at the end of the game."""
    n = len(feat.tiles)
    if feat.type == "road":
        return n, f"incomplete road: {_n(n, 'tile')} × 1 = {n}", "B7"
    if feat.type == "city":
        pts = n + feat.pennants
        return pts, (f"incomplete city: {_n(n, 'tile')} + {_n(feat.pennants, 'pennant')} "
                     f"= {pts}"), "B7"
    if feat.type == "cloister":
        assert feat.cell is not None
        k = game.neighbours(feat.cell)
        return 1 + k, f"incomplete cloister: 1 + {_n(k, 'neighbour')} = {1 + k}", "B7"
    raise ValueError(f"{feat.type} has no final score")


def final_scoring(game: Game) -> None:
    """B7 then B8. Figures stay on the board at the end: no later state depends on them."""
    feats = game.features()  # in creation order
    # by type (TYPE_ORDER), then creation: a stable split, rather than a sort with tuple keys
    by_type: dict[str, list[Feature]] = {t: [] for t in _FINAL_TYPES}
    for feat in feats:
        group = by_type.get(feat.type)
        if group is not None and feat.figures:
            group.append(feat)
    for group in by_type.values():
        for feat in group:
            if feat.scored or not any(f.kind in FOLLOWERS for f in feat.figures):
                continue
            points, detail, rule = game.final_points(feat)
            score_feature(game, feat, points, detail, rule, "final")
    farm_scoring(game, feats)


def farm_scoring(game: Game, feats: list[Feature]) -> None:
    """B8: farmers score the complete cities their fields touch, ``game.farm_points`` each
    (the family's rule parameter ``Carcassonne.farm_points``: 4 per city, 3 per field)."""
    graph = game.graph
    fields = [f for f in feats if f.type == "field" and any(x.kind in FOLLOWERS for x in f.figures)]
    if not fields:
        return
    touched: list[list[Feature]] = []
    for fld in fields:
        found: dict[int, Feature] = {}
        for node in fld.touches:
            city = graph.of(node)
            if city.type == "city" and city.open == 0:
                found[city.first] = city
        touched.append([found[k] for k in sorted(found)])
    worth = game.farm_points
    if game.farm_scoring == "per-field":
        for fld, near in zip(fields, touched, strict=True):
            if not near:
                continue
            pts = worth * len(near)
            winners, strengths = majority(game, fld.figures)
            for p in winners:
                game.add_score(p, pts)
            if game.sink.keeps:
                game.sink.add(score_event(
                    "farm", "final", pts, winners, strengths,
                    f"field: {_n(len(near), 'complete city', 'complete cities')} × {worth} "
                    f"= {pts}",
                    "B8", game.cells_of(fld), fld.first))
        return
    by_city: dict[int, tuple[Feature, list[Feature]]] = {}
    for fld, near in zip(fields, touched, strict=True):
        for city in near:
            by_city.setdefault(city.first, (city, []))[1].append(fld)
    for key in sorted(by_city):
        city, flds = by_city[key]
        figures = [fig for fld in flds for fig in fld.figures]
        winners, strengths = majority(game, figures)
        for p in winners:
            game.add_score(p, worth)
        if game.sink.keeps:
            game.sink.add(score_event(
                "farm", "final", worth, winners, strengths,
                f"complete city of {_n(len(city.tiles), 'tile')}: "
                f"{_n(len(flds), 'field')} with farmers "
                f"{'touches' if len(flds) == 1 else 'touch'} it = {worth}", "B8",
                game.cells_of(city), city.first))
