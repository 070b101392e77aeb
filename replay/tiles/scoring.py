"""Majorities (G8) and score events, shared by the tile-laying families.

A feature's figures give each player a strength (a follower 1, a large follower 2, ...); the
players of greatest strength all win (G8) unless the family breaks the tie
(``TileState.tiebreak``, e.g. HS8's hills).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ..core.events import Score
from ..core.sink import DROP
from .features import Feature, Figure

if TYPE_CHECKING:
    from .state import TileState as Game

FOLLOWERS = ("follower", "large-follower")
G = TypeVar("G", bound="Game")  # a tile-laying state of one family


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
        winners = game.tiebreak(winners, figures)
    return winners, strengths


def score_event(feature: str, phase: str, points: int, winners: list[int],
                strengths: dict[int, int], detail: str, rule: str,
                cells: list[list[int]], feature_id: int) -> Score:
    """A ``Score`` event (strengths by seat; ``feature_id``: the feature's first node)."""
    return Score(phase, feature, points, tuple(winners), tuple(sorted(strengths.items())),
                 detail, rule, cells, feature_id)


def scores_after(game: G, scoring: Callable[[G], None] | None = None) -> list[int]:
    """The scores after a final ``scoring`` that only adds points (default: the state's own
    ``final_scoring``), worked out on ``game`` and undone (the scores, the hash and the sink
    as they were; the sink drops its events): ``GameState.scores_if_ended`` without the
    default's copy of the whole state."""
    scores, before, sink = list(game.scores), game.hash, game.sink
    game.sink = DROP
    try:
        if scoring is None:
            game.final_scoring()
        else:
            scoring(game)
        return list(game.scores)
    finally:
        game.scores[:] = scores
        game.hash, game.sink = before, sink


def plural(k: int, word: str, many: str | None = None) -> str:
    """``1 tile``, ``2 tiles`` (``many``: an irregular plural)."""
    return f"{k} {word if k == 1 else (many or word + 's')}"


def score_feature(game: Game, feat: Feature, points: int, detail: str, rule: str,
                  phase: str) -> None:
    """G8: the majority of the followers on ``feat`` scores ``points`` (with a score event);
    no one, and no event, when it holds no follower."""
    winners, strengths = majority(game, feat.figures)
    if not strengths:
        return
    for p in winners:
        game.add_score(p, points)
    if game.sink.keeps:
        game.sink.add(score_event(feat.type, phase, points, winners, strengths,
                              detail, rule, game.cells_of(feat), feat.first))


def score_completed(game: Game, feat: Feature) -> None:
    """A feature completed during play scores (G7, G8); its followers go home (G9)."""
    if not feat.figures:  # no one scores, no one goes home
        return
    points, detail, rule = game.completed_points(feat)
    score_feature(game, feat, points, detail, rule, "play")
    for fig in list(feat.figures):
        if fig.kind in FOLLOWERS:
            game.return_after_scoring(feat, fig)
