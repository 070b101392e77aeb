"""Determinism across processes for ``python -m replay fuzz``: a sample of the run's games,
written as logs, is verified again by ``python -m replay verify --json`` in a new process
with another ``PYTHONHASHSEED`` (so set and dict orders differ), and the state hash after each
move (``move_hashes``) must be the one the run saw."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cli_help import plural
from ..core.family import family
from ..core.record import log_json

if TYPE_CHECKING:
    from .fuzz_run import Failure, Game

HEX = 16  # hex digits of one state hash in move_hashes
Row = dict[str, Any]  # a line of verify --json


def other_hash_seed() -> str:
    """A ``PYTHONHASHSEED`` other than this process's."""
    mine = os.environ.get("PYTHONHASHSEED", "")
    return str((int(mine) + 1) % 2**32) if mine.isdigit() else "0"


def spread(games: list[Game], count: int) -> list[Game]:
    """``count`` of ``games`` (at most), evenly spread."""
    if len(games) <= count:
        return list(games)
    return [games[i * len(games) // count] for i in range(count)]


def recheck(games: list[Game], count: int) -> tuple[Failure | None, str]:
    """Verify ``count`` of ``games`` in another process; the first whose hashes differ (or
    that does not verify) as a failure, else None and a line that says what was checked."""
    from .fuzz_run import Failure

    sample = spread(games, count)
    if not sample:
        return None, "determinism: no finished game to verify again"
    hash_seed = other_hash_seed()
    with tempfile.TemporaryDirectory(prefix="replay-fuzz-") as tmp:
        paths = []
        for k, game in enumerate(sample):
            path = Path(tmp) / f"game-{k}.json"
            log = log_json(family(game.config.game), game.config, game.moves)
            path.write_text(json.dumps(log), encoding="utf-8")
            paths.append(str(path))
        rows, error = _verify_elsewhere(paths, hash_seed)
    if error:
        return Failure(f"determinism: verifying the games again in another process failed: "
                       f"{error}", "python -m replay verify --json, PYTHONHASHSEED="
                       f"{hash_seed}"), ""
    for game, name in zip(sample, paths, strict=True):
        problem = _compare(game, rows.get(name))
        if problem:
            return Failure(f"determinism: {problem} in a process with PYTHONHASHSEED="
                           f"{hash_seed}", "fuzz_recheck.recheck (python -m replay verify "
                           "--json in a new process)", game.config, game.moves), ""
    moves = sum(len(g.hashes) for g in sample)
    return None, (f"determinism: {plural(len(sample), 'game')} verified again in a process "
                  f"with PYTHONHASHSEED={hash_seed}: the same state hash after each of their "
                  f"{moves:,} moves")


def _verify_elsewhere(paths: list[str], hash_seed: str) -> tuple[dict[str, Row], str]:
    """``verify --json`` of ``paths`` in a new process: its rows by file, or an error."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    root = str(Path(__file__).resolve().parents[2])  # where ``replay`` is imported from
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    done = subprocess.run([sys.executable, "-m", "replay", "verify", "--json", *paths],
                          env=env, capture_output=True, text=True, check=False)
    rows: dict[str, Row] = {}
    for line in done.stdout.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "file" in row:
            rows[row["file"]] = row
    if done.returncode not in (0, 1) or len(rows) != len(paths):
        said = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return rows, f"exit {done.returncode}: {said}"
    return rows, ""


def _compare(game: Game, row: Row | None) -> str:
    """Why the other process's verification of ``game`` differs (empty: it agrees)."""
    if row is None:
        return "a game was not verified"
    if not row.get("valid"):
        error = row.get("error") or {}
        return (f"a game of the run is invalid: {error.get('rule')} at move "
                f"{error.get('move')}: {error.get('message')}")  # counted from 1
    theirs = str(row.get("move_hashes", ""))
    ours = "".join(game.hashes)
    if theirs == ours:
        return ""
    for k, mine in enumerate(game.hashes):
        other = theirs[k * HEX:(k + 1) * HEX]
        if other != mine:
            return f"the state hash after move {k + 1} is {mine} here and {other or 'none'}"
    return f"{len(theirs) // HEX} state hashes there, {len(ours) // HEX} here"
