"""Random legal games: the generator behind ``python -m replay generate`` and the benchmarks.

A generated game draws from its seed's pile (G2) and picks moves by its family's policy
(``Family.play_random``) with a second stream of the same seed (purpose ``"generator"``), so
the same arguments always give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .core.family import GameConfig, GameState, Player, family
from .core.record import log_json
from .core.rng import SeededStream

NAMES = ("Ada", "Ben", "Cleo", "Dan", "Eva", "Finn")


def config_for(game: str, players: int, seed: int | str, expansions: Sequence[str] = (),
               options: Mapping[str, Any] | None = None, material: Any = None) -> GameConfig:
    """A seeded game of ``players`` named players (``material``: e.g. a corrected tile set,
    HG13). Raises ``LogFormatError``/``IllegalMove`` for a game that cannot be set up."""
    fam = family(game)
    header = {"expansions": list(expansions), "options": dict(options or {})}
    fam.check_players(players, list(expansions))
    seats = tuple(Player(NAMES[i], fam.colours[i]) for i in range(players))
    return fam.configure(header, seats, str(seed), material)


def play_random(config: GameConfig) -> tuple[GameState, list[dict[str, Any]]]:
    """Play a whole game at random; return the finished state and its moves as log objects."""
    assert config.seed is not None
    fam = family(config.game)
    state = fam.new_state(config)
    moves = fam.play_random_game(state, SeededStream(config.seed, "generator"))
    return state, moves


def generate_log(
    game: str, players: int = 2, seed: int | str = 0,
    expansions: Sequence[str] = (), options: Mapping[str, Any] | None = None,
    material: Any = None,
) -> dict[str, Any]:
    """A whole random legal game as a log (schema v1) with its claimed scores and winners."""
    config = config_for(game, players, seed, expansions, options, material)
    finished, moves = play_random(config)
    names = [p.name for p in config.players]
    log = log_json(finished.family, config, moves, claims={
        "final_scores": dict(zip(names, finished.scores, strict=True)),
        "winners": [names[p] for p in finished.winners()],
    }, meta={"generator": "carcassonne-replay generate"})
    log["seed"] = seed  # as given: an integer stays an integer
    return log


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
