"""Hills & Sheep: shepherds, the sheep bag, wolves, flocks (HS2-HS6) and hidden tiles (HS7).

The hill tie-break (HS8) and vineyards (HS9) live with the scoring in ``rules/base.py``; they are
driven by the tile data, like the special city tiles (HS10).

The bag (HS1) holds 18 tokens: 4x1, 5x2, 5x3, 2x4 sheep and 2 wolves (written 0). A draw from a
seeded game takes ``below(len(bag))`` of the stream ``(seed, "sheep")`` as an index into the
bag's tokens sorted in increasing order (wolves first). A table log lists its draws instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import hashing
from ..errors import IllegalMove
from ..features import Feature
from ..tileset import location_name
from .base import score_event

if TYPE_CHECKING:
    from ..game import Game, Move, Placement
    from ..tileset import TileType

WOLF = 0
BAG = (0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4)
ACTIONS = ("expand", "herd")


def token_name(value: int) -> str:
    return "wolf" if value == WOLF else f"{value} sheep"


def shepherd_fields(game: Game, tile: TileType, q: int,
                    groups: list[list[int]]) -> dict[str, list[int]]:
    """HS3: the fields holding the active player's shepherd that this tile would extend.

    Returns location (of a field segment of the new tile) -> the roots it joins; one entry per
    distinct field, keyed by the tile's first field segment in that field.
    """
    p = game.turn
    out: dict[str, list[int]] = {}
    seen: set[int] = set()
    for seg in tile.segments:
        if seg.type != "field":
            continue
        roots = groups[seg.index]
        owned = [r for r in roots if _has_shepherd_of(game, r, p)]
        if not owned or owned[0] in seen:
            continue
        seen.update(roots)
        out[location_name(tile.rotations[q], seg.index)] = roots
    return out


def _has_shepherd_of(game: Game, root: int, player: int) -> bool:
    feat = game.graph.feature[root]
    assert feat is not None
    return any(f.kind == "shepherd" and f.player == player for f in feat.figures)


def check(game: Game, tile: TileType, q: int, move: Move, groups: list[list[int]]) -> None:
    """Everything about the move's flock choices and token draws, before anything changes."""
    if "hills-sheep" not in game.config.expansions:
        if move.flock or move.tokens:
            raise IllegalMove("HS3", "this game is played without Hills & Sheep")
        return
    required = shepherd_fields(game, tile, q, groups)
    rot = tile.rotations[q]
    given: dict[int, str] = {}
    for choice in move.flock:
        if choice.action not in ACTIONS:
            raise IllegalMove("HS3", f"flock action {choice.action!r} is not expand or herd")
        seg = rot.locations.get(choice.location)
        if seg is None or tile.segments[seg].type != "field":
            raise IllegalMove("HS3", f"{choice.location!r} is not a field of tile {tile.id}")
        key = _match(required, groups[seg])
        if key is None:
            raise IllegalMove("HS3", f"the field at {choice.location} holds no shepherd of "
                              f"{game.players[game.turn].name} that this tile extends: "
                              "no expand-or-herd choice is allowed there")
        if key in given.values():
            raise IllegalMove("HS3", f"two choices for the same field ({choice.location})")
        given[seg] = key
    missing = [loc for loc in required if loc not in given.values()]
    if missing:
        raise IllegalMove("HS3", f"the tile extends the field of {game.players[game.turn].name}'s "
                          f"shepherd (at {missing[0]}): the move must choose expand or herd")
    draws = sum(1 for c in move.flock if c.action == "expand")
    if move.figure is not None and move.figure.kind == "shepherd":
        draws += 1
    if move.tokens:
        if len(move.tokens) != draws:
            raise IllegalMove("HS2", f"the move lists {len(move.tokens)} token draw(s) but makes "
                              f"{draws}")
        expected = game.peek_tokens(draws)
        if expected is not None:
            if list(move.tokens) != expected:
                raise IllegalMove("L1", f"the log draws {_names(move.tokens)} but the seeded "
                                  f"bag gives {_names(expected)}")
        else:
            bag = list(game.bag)
            for value in move.tokens:
                if value not in bag:
                    raise IllegalMove("L1", f"no {token_name(value)} token is left in the bag")
                bag.remove(value)
    elif draws and game.config.seed is None:
        raise IllegalMove("L1", "a log without a seed must list the sheep tokens it draws")


def _names(values: tuple[int, ...] | list[int]) -> str:
    return ", ".join(token_name(v) for v in values) or "nothing"


def _match(required: dict[str, list[int]], roots: list[int]) -> str | None:
    for loc, req in required.items():
        if set(req) & set(roots):
            return loc
    return None


def after_figure(game: Game, placement: Placement, move: Move) -> None:
    """HS2 draw for a new shepherd, HS3 choices, HS5 closed fields: in that order."""
    tokens = list(move.tokens)
    if move.figure is not None and move.figure.kind == "shepherd":
        rot = placement.tile.rotations[placement.rot]
        node = placement.first_node + rot.locations[move.figure.location]
        _expand(game, game.graph.of(node), tokens, "HS2")
    rot = placement.tile.rotations[placement.rot]
    for choice in move.flock:
        feat = game.graph.of(placement.first_node + rot.locations[choice.location])
        if choice.action == "expand":
            _expand(game, feat, tokens, "HS3")
        else:
            herd(game, feat, "HS3")
    # HS5: a field with shepherds that can no longer grow is herded at once
    done: set[int] = set()
    for seg in placement.tile.segments:
        if seg.type != "field":
            continue
        root = game.graph.find(placement.first_node + seg.index)
        field = game.graph.of(root)
        if root in done or field.open != 0:
            continue
        done.add(root)
        if any(f.kind == "shepherd" for f in field.figures):
            herd(game, field, "HS5")


def _expand(game: Game, feat: Feature, tokens: list[int], rule: str) -> None:
    value = tokens.pop(0) if tokens else game.draw_token()
    game.take_token(value)
    seq = game.token_draws
    game.events.append({"type": "sheep", "player": game.turn, "token": token_name(value),
                        "sheep": value, "rule": rule, "cells": game.cells_of(feat)})
    if value == WOLF:
        game.bag_return(value)
        _clear(game, feat, "wolf")
        return
    feat.tokens.append((seq, value))
    game.hash ^= hashing.item("tok", seq, value)


def herd(game: Game, feat: Feature, rule: str) -> None:
    """Every shepherd in the field scores 1 per sheep; tokens back to the bag (HS3, HS4)."""
    sheep = sum(v for _, v in feat.tokens)
    owners = sorted({f.player for f in feat.figures if f.kind == "shepherd"})
    for p in owners:
        game.add_score(p, sheep)
    game.events.append(score_event(
        game, "flock", "play", sheep, owners, {p: 1 for p in owners},
        f"flock: {sheep} sheep × 1 = {sheep}" + (" (shared flock)" if len(owners) > 1 else ""),
        rule, game.cells_of(feat)))
    _clear(game, feat, "herd")


def _clear(game: Game, feat: Feature, why: str) -> None:
    for seq, value in feat.tokens:
        game.hash ^= hashing.item("tok", seq, value)
        game.bag_return(value)
    if why == "wolf":
        game.events.append({"type": "wolf", "player": game.turn,
                            "tokens": [token_name(v) for _, v in feat.tokens],
                            "rule": "HS3", "cells": game.cells_of(feat)})
    feat.tokens = []
    for fig in list(feat.figures):
        if fig.kind == "shepherd":
            game.return_figure(feat, fig)
