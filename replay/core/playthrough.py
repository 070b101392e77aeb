"""Playthroughs (OpenSpiel style): a readable per-move dump of a game, for golden files.

A playthrough records one game: a header line, then for every move the move itself (as it
stands in the log) followed by what the engine made of it: what was drawn, every event (its
``describe`` line), the scores, the supplies and the state hash. ``tests/test_golden.py``
replays the moves of ``fixtures/golden/*.txt`` and compares line by line;
``tools/golden.py`` writes them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import hashing
from .family import GameState
from .record import GameRecord, parse
from .view import view_of

HEADER = "header "
MOVE_RE = re.compile(r"^move (\d+) +(\S+) +(\{.*\})$")


def log_of(header: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The game log (schema v1) a playthrough stands for."""
    return {
        "format": "carcassonne-replay/log", "version": 1, "game": header["game"],
        "expansions": header["expansions"], "options": header["options"],
        "players": [{"name": n} for n in header["players"]], "seed": header["seed"],
        "moves": moves,
    }


def read_playthrough(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the recorded moves of a playthrough."""
    header: dict[str, Any] | None = None
    moves: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith(HEADER):
            header = json.loads(line[len(HEADER):])
            continue
        m = MOVE_RE.match(line)
        if m:
            if int(m.group(1)) != len(moves):
                raise ValueError(f"line {n}: move {m.group(1)} out of order")
            moves.append(json.loads(m.group(3)))
    if header is None:
        raise ValueError("no header line")
    return header, moves


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _supply(state: GameState) -> str:
    return "  ".join(
        f"{p.name} " + " ".join(f"{k}×{v}" for k, v in sorted(state.supply_of(i).items()))
        for i, p in enumerate(state.players))


def dump(header: dict[str, Any], moves: list[dict[str, Any]], name: str) -> str:
    """Replay the moves and write the playthrough. Raises ``IllegalMove`` on an illegal move."""
    return dump_record(parse(log_of(header, moves)), name)


def dump_record(log: GameRecord, name: str) -> str:
    """The playthrough of a record (see the module)."""
    game = log.new_state()
    view = view_of(log.family)  # the lines it writes beside the rules' own
    names = [p.name for p in log.config.players]
    header = log.raw or {}
    out = [
        f"# Golden playthrough {name}: tests/test_golden.py replays the moves and compares every",
        "# line. After an intended rule change: .venv/bin/python tools/golden.py, then review",
        "# the diff. Moves count from 0 (as in the verifier's reports); y grows to the south.",
        HEADER + _j({"game": header.get("game"), "expansions": header.get("expansions", []),
                     "options": header.get("options", {}),
                     "players": names, "seed": header.get("seed")}),
    ]
    out += view.playthrough_intro(game)
    out += [f"  {ev.describe(names)}" for ev in game.setup_events]
    out.append(f"  hash {hashing.hexdigest(game.hash)}")
    raw_moves = header.get("moves", [])
    for i, move in enumerate(log.moves):
        player = game.current_player
        before = view.playthrough_before(game, move)
        out.append("")
        out.append(f"move {i} {names[player or 0]} {_j(raw_moves[i])}")
        events = game.apply(move)
        out.append(f"  {view.playthrough_after(game, before)}")
        out += [f"  {ev.describe(names)}" for ev in events]
        out.append("  scores " + ", ".join(f"{n} {s}" for n, s in zip(names, game.scores,
                                                                       strict=True)))
        out.append(f"  supply {_supply(game)}")
        out.append(f"  hash {hashing.hexdigest(game.hash)}")
    out.append("")
    out.append("finished" if game.finished else f"unfinished after {game.moves_played} moves")
    return "\n".join(out) + "\n"
