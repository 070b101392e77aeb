"""Inns & Cathedrals (IC1-IC4): the large follower, inns on roads, cathedrals in cities.

Inns, cathedrals and the tiles that carry them are data (``inns-cathedrals`` tile set); this
module scores them and gives every player the large follower, which counts twice in majorities
(IC1). The 6th player the expansion allows is ``info.extra_players``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.family import Expansion
from ...tiles.features import Feature
from ...tiles.scoring import plural as _n
from ...tiles.state import FigureKind
from .rules import ExpansionRules, Points

if TYPE_CHECKING:
    from .state import CarcassonneState

LARGE_FOLLOWER = FigureKind("large-follower", "follower", 2,
                            frozenset({"road", "city", "field", "cloister"}), "G6", 1)  # IC1


class InnsCathedrals(ExpansionRules):
    info = Expansion("inns-cathedrals", "Inns & Cathedrals", "IC", extra_players=1)
    tileset = "inns-cathedrals"
    figures = {"large-follower": LARGE_FOLLOWER}

    def completed_points(self, state: CarcassonneState, feat: Feature) -> Points | None:
        n = len(feat.tiles)
        if feat.type == "road" and "inn" in feat.flags:
            return 2 * n, f"road with an inn: {_n(n, 'tile')} × 2 = {2 * n}", "IC2"
        if feat.type == "city" and "cathedral" in feat.flags:
            pts = 3 * n + 3 * feat.pennants
            return pts, (f"city with a cathedral: {_n(n, 'tile')} × 3 + "
                         f"{_n(feat.pennants, 'pennant')} × 3 = {pts}"), "IC3"
        return None

    def final_points(self, state: CarcassonneState, feat: Feature) -> Points | None:
        if feat.type == "road" and "inn" in feat.flags:
            return 0, "incomplete road with an inn = 0", "IC2"
        if feat.type == "city" and "cathedral" in feat.flags:
            return 0, "incomplete city with a cathedral = 0", "IC3"
        return None
