"""Scoring of the base game (B3-B8), majorities and ties (G8), return of figures (G9).

Scoring produces events: dicts that say who scored what and how it was computed, read alike by
the CLI, the web viewer and the tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..features import Feature, Figure

if TYPE_CHECKING:
    from ..game import Game

# G10: completions of one placement score roads, then cities, then cloisters, each group in
# the order the features were created (their first segment); final scoring uses the same order.
TYPE_ORDER = {"road": 0, "city": 1, "cloister": 2, "field": 3}
FOLLOWERS = ("follower", "large-follower")


def majority(game: Game, figures: list[Figure],
             kinds: tuple[str, ...] = FOLLOWERS) -> tuple[list[int], dict[int, int]]:
    """G8: the players of greatest strength all win; the others get nothing."""
    strengths: dict[int, int] = {}
    for f in figures:
        if f.kind in kinds:
            strengths[f.player] = strengths.get(f.player, 0) + f.strength
    if not strengths:
        return [], {}
    best = max(strengths.values())
    winners = sorted(p for p, s in strengths.items() if s == best)
    if len(winners) > 1:
        winners = hill_tiebreak(game, winners, figures)
    return winners, strengths


def hill_tiebreak(game: Game, tied: list[int], figures: list[Figure]) -> list[int]:
    """HS8: among tied players, those with a follower on a hill tile of the feature win alone
    (option ``count``: those with the most followers on hills). Without hills, all tied win."""
    on_hills: dict[int, int] = {}
    for f in figures:
        if f.hill and f.kind in FOLLOWERS and f.player in tied:
            on_hills[f.player] = on_hills.get(f.player, 0) + 1
    if not on_hills:
        return tied
    if game.config.options.hill_tiebreak == "count":
        best = max(on_hills.values())
        return sorted(p for p, n in on_hills.items() if n == best)
    return sorted(on_hills)


def completed_points(game: Game, feat: Feature) -> tuple[int, str, str]:
    """Points of a feature completed during play: (points, how, rule id)."""
    n = len(feat.tiles)
    if feat.type == "road":
        if "inn" in feat.flags:
            return 2 * n, f"road with an inn: {_n(n, 'tile')} × 2 = {2 * n}", "IC2"
        return n, f"road: {_n(n, 'tile')} × 1 = {n}", "B3"
    if feat.type == "city":
        if "cathedral" in feat.flags:
            pts = 3 * n + 3 * feat.pennants
            return pts, (f"city with a cathedral: {_n(n, 'tile')} × 3 + "
                         f"{_n(feat.pennants, 'pennant')} × 3 = {pts}"), "IC3"
        if n == 2 and game.config.options.small_city == 2:
            return 2, "city: 2 tiles (small city) = 2", "B4a"
        pts = 2 * n + 2 * feat.pennants
        return pts, (f"city: {_n(n, 'tile')} × 2 + {_n(feat.pennants, 'pennant')} × 2 "
                     f"= {pts}"), "B4"
    if feat.type == "cloister":
        assert feat.cell is not None
        vines = game.vineyards_around(feat.cell)
        if vines:
            pts = 9 + 3 * vines
            return pts, f"cloister: complete = 9 + {_n(vines, 'vineyard')} × 3 = {pts}", "HS9"
        return 9, "cloister: complete = 9", "B5"
    raise ValueError(f"{feat.type} does not score during play")


def final_points(game: Game, feat: Feature) -> tuple[int, str, str]:
    """B7: incomplete roads, cities and cloisters at the end of the game."""
    n = len(feat.tiles)
    if feat.type == "road":
        if "inn" in feat.flags:
            return 0, "incomplete road with an inn = 0", "IC2"
        return n, f"incomplete road: {_n(n, 'tile')} × 1 = {n}", "B7"
    if feat.type == "city":
        if "cathedral" in feat.flags:
            return 0, "incomplete city with a cathedral = 0", "IC3"
        pts = n + feat.pennants
        return pts, (f"incomplete city: {_n(n, 'tile')} + {_n(feat.pennants, 'pennant')} "
                     f"= {pts}"), "B7"
    if feat.type == "cloister":
        assert feat.cell is not None
        k = game.neighbours(feat.cell)
        return 1 + k, f"incomplete cloister: 1 + {_n(k, 'neighbour')} = {1 + k}", "B7"
    raise ValueError(f"{feat.type} has no final score")


def score_feature(game: Game, feat: Feature, points: int, detail: str, rule: str,
                  phase: str) -> None:
    winners, strengths = majority(game, feat.figures)
    if not strengths:
        return
    for p in winners:
        game.add_score(p, points)
    game.events.append(score_event(game, feat.type, phase, points, winners, strengths,
                                   detail, rule, game.cells_of(feat)))


def score_event(game: Game, feature: str, phase: str, points: int, winners: list[int],
                strengths: dict[int, int], detail: str, rule: str,
                cells: list[list[int]]) -> dict[str, Any]:
    return {
        "type": "score", "phase": phase, "feature": feature, "points": points,
        "winners": winners, "strengths": {str(p): s for p, s in sorted(strengths.items())},
        "detail": detail, "rule": rule, "tie": len(winners) > 1, "cells": cells,
    }


def score_completed(game: Game, feat: Feature) -> None:
    points, detail, rule = game.completed_points(feat)
    score_feature(game, feat, points, detail, rule, "play")
    for fig in list(feat.figures):
        if fig.kind in FOLLOWERS:
            game.return_after_scoring(feat, fig)


def final_scoring(game: Game) -> None:
    """B7 then B8. Figures stay on the board at the end: no later state depends on them."""
    feats = game.features()
    for feat in sorted(feats, key=lambda f: (TYPE_ORDER.get(f.type, 9), f.first)):
        if feat.scored or feat.type not in ("road", "city", "cloister"):
            continue
        if not any(f.kind in FOLLOWERS for f in feat.figures):
            continue
        points, detail, rule = game.final_points(feat)
        score_feature(game, feat, points, detail, rule, "final")
    farm_scoring(game, feats)


def farm_scoring(game: Game, feats: list[Feature]) -> None:
    """B8: farmers score the complete cities their fields touch."""
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
    if game.config.options.farm_scoring == "per-field":
        for fld, near in zip(fields, touched, strict=True):
            if not near:
                continue
            pts = 3 * len(near)
            winners, strengths = majority(game, fld.figures)
            for p in winners:
                game.add_score(p, pts)
            game.events.append(score_event(
                game, "farm", "final", pts, winners, strengths,
                f"field: {_n(len(near), 'complete city', 'complete cities')} × 3 = {pts}",
                "B8", game.cells_of(fld)))
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
            game.add_score(p, 4)
        cells = game.cells_of(city)
        game.events.append(score_event(
            game, "farm", "final", 4, winners, strengths,
            f"complete city of {_n(len(city.tiles), 'tile')}: "
            f"{_n(len(flds), 'field')} with farmers touch it = 4", "B8", cells))


def _n(k: int, word: str, plural: str | None = None) -> str:
    return f"{k} {word if k == 1 else (plural or word + 's')}"
