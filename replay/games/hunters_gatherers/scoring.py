"""Hunters & Gatherers scoring (HG4, HG5, HG9-HG11) on the shared feature graph.

Rivers and forests complete during play; huts (on river networks, HG8) and hunters (meadows)
score at the end. The river network is a second union-find over the same nodes, joining rivers
across tiles and rivers with the lakes they flow into (see ``HuntersGatherersState._place``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...tiles.features import Feature
from ...tiles.scoring import majority, score_event
from ...tiles.scoring import plural as _n

if TYPE_CHECKING:
    from .state import HuntersGatherersState as Game


def completed_points(game: Game, feat: Feature) -> tuple[int, str, str]:
    """HG4 rivers, HG5 forests: the points, how they were made and the rule of a feature
    completed during play."""
    n = len(feat.tiles)
    if feat.type == "forest":
        mush = feat.counts.get("mushrooms", 0)
        pts = 2 * n + 2 * mush
        extra = f" + {_n(mush, 'mushroom clearing')} × 2" if mush else ""
        return pts, f"forest: {_n(n, 'tile')} × 2{extra} = {pts}", "HG5"
    if feat.type == "river":
        fish = lake_fish(game, feat)
        pts = n + fish
        return pts, f"river: {_n(n, 'tile')} + {fish} fish in its lakes = {pts}", "HG4"
    raise ValueError(f"{feat.type} does not score during play")


def lake_fish(game: Game, river: Feature) -> int:
    """Fish of the distinct lakes at the river's ends."""
    lakes: dict[int, int] = {}
    for node in river.touches:
        lake = game.graph.of(node)
        lakes[lake.first] = lake.counts.get("fish", 0)
    return sum(lakes.values())


def final_scoring(game: Game) -> None:
    """HG9: gatherers and fishers on unfinished features go home; HG10 huts; HG11 hunters."""
    feats = game.features()
    for feat in feats:
        if feat.type in ("forest", "river") and not feat.scored:
            for fig in list(feat.figures):
                game.return_figure(feat, fig)
    final_points(game, feats)


def final_points(game: Game, feats: list[Feature] | None = None) -> None:
    """HG10 huts, HG11 hunters: the points of the final scoring, which the gatherers and
    fishers going home (HG9) do not change (``feats``: the features, default all)."""
    if feats is None:
        feats = game.features()
    networks = [f for f in game.net_features() if any(x.kind == "hut" for x in f.figures)]
    for net in networks:
        fish = net.counts.get("fish", 0)
        winners, strengths = majority(game, net.figures, ("hut",))
        for p in winners:
            game.add_score(p, fish)
        if game.sink.keeps:
            game.sink.add(score_event(
                "network", "final", fish, winners, strengths,
                f"river network: {fish} fish × 1 = {fish}", "HG10", game.cells_of(net),
                net.first))
    meadows = [f for f in feats if f.type == "meadow" and f.figures]
    for meadow in sorted(meadows, key=lambda f: f.first):
        score_meadow(game, meadow)


def meadow_value(feat: Feature) -> tuple[int, str]:
    """HG11: a meadow's points (2 per deer the tigers leave, mammoth and aurochs; a fire
    drives the tigers away) and how they were made."""
    c = feat.counts
    deer, mammoth, aurochs = c.get("deer", 0), c.get("mammoth", 0), c.get("aurochs", 0)
    tigers = 0 if c.get("fire") else c.get("tiger", 0)
    eaten = min(deer, tigers)
    pts = 2 * (deer - eaten + mammoth + aurochs)
    parts = [f"{_n(deer, 'deer', 'deer')}"]
    if c.get("tiger", 0):
        parts.append("fire drives the tigers away" if c.get("fire")
                     else f"{_n(tigers, 'tiger')} eat{'s' if tigers == 1 else ''} {eaten}")
    parts.append(f"{_n(mammoth, 'mammoth')}")
    if aurochs:
        parts.append(f"{aurochs} aurochs")
    return pts, f"meadow: {', '.join(parts)}: {deer - eaten + mammoth + aurochs} × 2 = {pts}"


def score_meadow(game: Game, feat: Feature) -> None:
    """HG11: the majority of the meadow's hunters scores its value at the end; with a sacred
    place, only the player who put a hunter on it in that turn."""
    points, detail = meadow_value(feat)
    winners, strengths = majority(game, feat.figures)
    rule = "HG11"
    sacred = sorted(int(f.split(":")[1]) for f in feat.flags if f.startswith("sacred:"))
    if sacred:
        winners = sacred
        detail += " (sacred place: only the hunter placed on it scores)"
    for p in winners:
        game.add_score(p, points)
    if game.sink.keeps:
        game.sink.add(score_event("meadow", "final", points, winners, strengths,
                              detail, rule, game.cells_of(feat), feat.first))
