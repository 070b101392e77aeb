"""Small builders shared by the rule tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from replay.core.family import GameConfig, family
from replay.core.playback import Playback, play_through
from replay.core.record import parse
from replay.games.carcassonne import CarcassonneState

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def table_log(players: list[str], moves: list[dict[str, Any]], **header: Any) -> dict[str, Any]:
    """A log without a seed: every move names its tile (L1)."""
    log: dict[str, Any] = {
        "format": "carcassonne-replay/log", "version": 1, "game": "base",
        "players": [{"name": n} for n in players],
    }
    log.update(header)
    log["moves"] = moves
    return log


def mv(tile: str, x: int, y: int, rotation: int = 0, at: str | None = None,
       kind: str | None = None, **extra: Any) -> dict[str, Any]:
    move: dict[str, Any] = {"tile": tile, "x": x, "y": y, "rotation": rotation}
    if at is not None:
        move["figure"] = {"at": at} if kind is None else {"kind": kind, "at": at}
    move.update(extra)
    return move


def run(log: dict[str, Any]) -> Playback:
    return play_through(parse(log))


def scores_of(log: dict[str, Any]) -> dict[str, int]:
    r = run(log)
    assert r.error is None, r.error
    return {p.name: s for p, s in zip(r.state.players, r.state.scores, strict=True)}


def score_events(r: Playback) -> list[dict[str, Any]]:
    """The score events of a replay, as their JSON."""
    return [e.to_json() for move in r.events for e in move if e.type == "score"]


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def fixture_log(folder: str, name: str) -> dict[str, Any]:
    """``fixtures/<folder>/<name>.json`` as a dict."""
    data: dict[str, Any] = load(FIXTURES / folder / f"{name}.json")
    return data


def new_carcassonne(config: GameConfig) -> CarcassonneState:
    """The position before the first move of a Carcassonne game."""
    state = family("base").new_state(config)
    assert isinstance(state, CarcassonneState)
    return state


def carcassonne_of(r: Playback) -> CarcassonneState:
    """The last legal position of a replayed Carcassonne log."""
    assert isinstance(r.state, CarcassonneState)
    return r.state
