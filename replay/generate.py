"""Random legal games: the generator behind ``python -m replay generate`` and the benchmarks.

A generated game draws from its seed's pile (G2) and picks among the sorted legal options with a
second stream of the same seed (purpose ``"generator"``), so the same arguments always give the
same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from .game import FlockChoice, Game, GameConfig, Move, Options, Player, supply_for
from .logfile import COLOURS, tileset_for
from .rng import SeededStream
from .tileset import TileSet, TileType

NAMES = ("Ada", "Ben", "Cleo", "Dan", "Eva", "Finn")


def config_for(game: str, players: int, seed: int | str, expansions: tuple[str, ...] = (),
               options: Options | None = None, tileset: TileSet | None = None) -> GameConfig:
    """A seeded game; ``tileset`` replaces the game's built-in set (HG13: a corrected file)."""
    tileset = tileset_for(game, list(expansions), tileset)
    return GameConfig(
        game=game, expansions=expansions,
        players=tuple(Player(NAMES[i], COLOURS[i]) for i in range(players)),
        options=options or Options(), tileset=tileset, seed=str(seed),
        supply=supply_for(game, expansions),
    )


def play_random(config: GameConfig, figure_rate: float = 0.6) -> tuple[Game, list[dict[str, Any]]]:
    """Play a whole game at random; return the finished game and its moves as log objects."""
    assert config.seed is not None
    game = Game(config)
    pick = SeededStream(config.seed, "generator")
    threshold = int(figure_rate * 1000)
    moves: list[dict[str, Any]] = []
    while not game.finished:
        tile = game.current
        assert tile is not None
        record, move = _random_move(game, tile, pick, threshold)
        game.step(move)
        if game.bonus_due:  # HG7: the bonus tile is part of the same turn
            bonus = game.pending_bonus
            assert bonus is not None
            record["bonus"], bonus_move = _random_move(game, bonus, pick, threshold)
            game.step(bonus_move)
        moves.append(record)
    return game, moves


def _random_move(game: Game, tile: TileType, pick: SeededStream,
                 threshold: int) -> tuple[dict[str, Any], Move]:
    options = game.legal_placements(tile)
    x, y, rot = options[pick.below(len(options))]
    record: dict[str, Any] = {"tile": tile.id, "x": x, "y": y, "rotation": rot}
    figure = None
    if pick.below(1000) < threshold:
        figs = game.figure_options(tile, x, y, rot)
        if figs:
            figure = figs[pick.below(len(figs))]
            record["figure"] = ({"at": figure.location} if figure.kind == "follower"
                                else {"kind": figure.kind, "at": figure.location})
    flock: list[FlockChoice] = []
    for loc in game.flock_required(tile, x, y, rot):
        flock.append(FlockChoice(loc, ("expand", "herd")[pick.below(2)]))
    if flock:
        record["flock"] = [{"at": c.location, "action": c.action} for c in flock]
    return record, Move(x, y, rot, tile.id, figure, flock=tuple(flock))


def generate_log(
    game: str = "base", players: int = 2, seed: int | str = 0,
    expansions: tuple[str, ...] = (), options: Options | None = None,
    tileset: TileSet | None = None,
) -> dict[str, Any]:
    config = config_for(game, players, seed, expansions, options, tileset)
    finished, moves = play_random(config)
    names = [p.name for p in config.players]
    return {
        "format": "carcassonne-replay/log",
        "version": 1,
        "game": game,
        "expansions": list(expansions),
        "options": config.options.as_dict(game),
        "tileset": {"id": config.tileset.id, "sha256": config.tileset.digest},
        "players": [{"name": p.name, "colour": p.colour} for p in config.players],
        "seed": seed,
        "moves": moves,
        "claims": {
            "final_scores": dict(zip(names, finished.scores, strict=True)),
            "winners": [names[p] for p in finished.winners()],
        },
        "meta": {"generator": "carcassonne-replay generate"},
    }


def dumps(log: dict[str, Any]) -> str:
    """Stable, readable JSON: the header on its own lines, one move per line."""
    head = {k: v for k, v in log.items() if k not in ("moves", "claims", "meta")}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append('  "moves": [')
    moves = [f"    {json.dumps(m, ensure_ascii=False)}" for m in log["moves"]]
    lines.append(",\n".join(moves))
    tail = [k for k in ("claims", "meta") if k in log]
    lines.append("  ]" + ("," if tail else ""))
    for i, k in enumerate(tail):
        comma = "," if i < len(tail) - 1 else ""
        lines.append(f"  {json.dumps(k)}: {json.dumps(log[k], ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
