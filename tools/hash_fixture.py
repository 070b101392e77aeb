"""The state-hash fixture: generated games' per-move state hashes, to prove that speed work
changes no result (issue 15).

    .venv/bin/python tools/hash_fixture.py          # rewrite fixtures/hashes/generated.json
    .venv/bin/python tools/hash_fixture.py --check  # exit 1 when a game's hashes differ

For each configuration of ``benchmarks/bench.py`` and each of ``GAMES`` seeds, the fixture
keeps the SHA-256 of the generated log (its bytes: the generator's choices) and of the list of
its per-move state hashes as the verifier reports them (L4). ``tests/test_hash_fixture.py``
regenerates every game and compares. Rewrite it only when a rule changes on purpose, and
review the diff with the golden playthroughs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from replay.core.json_input import decode  # noqa: E402
from replay.core.verify import verify  # noqa: E402
from replay.generate import dumps, generate_log  # noqa: E402

FIXTURE = ROOT / "fixtures" / "hashes" / "generated.json"
GAMES = 240  # per configuration: 2,160 games in all
CONFIGS: list[tuple[str, str, int, tuple[str, ...]]] = [
    ("base 2p", "base", 2, ()),
    ("base 4p", "base", 4, ()),
    ("base+I&C+H&S 2p", "base", 2, ("inns-cathedrals", "hills-sheep")),
    ("base+I&C+H&S 6p", "base", 6, ("inns-cathedrals", "hills-sheep")),
    ("hunters-gatherers 2p", "hunters-gatherers", 2, ()),
    ("hunters-gatherers 4p", "hunters-gatherers", 4, ()),
    ("manhattan 2p", "manhattan", 2, ()),
    ("manhattan 3p", "manhattan", 3, ()),
    ("manhattan 4p", "manhattan", 4, ()),
]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_record(game: str, players: int, seed: int, expansions: tuple[str, ...]) -> list[str]:
    """[log digest, hashes digest, final state hash] of one generated game."""
    text = dumps(generate_log(game, players, seed, expansions))
    report = verify(decode(text))
    if not report.valid:
        raise SystemExit(f"{game} {players}p seed {seed}: {report.line()}")
    return [digest(text), digest(" ".join(report.hashes)), report.state_hash or ""]


def config_records(label: str, games: int = GAMES) -> dict[str, list[str]]:
    """The records of one configuration, by seed (its first ``games`` seeds)."""
    _, game, players, expansions = next(c for c in CONFIGS if c[0] == label)
    return {str(seed): game_record(game, players, seed, expansions)
            for seed in range(1000, 1000 + games)}


def dump(data: dict[str, dict[str, list[str]]]) -> str:
    """The fixture's text: a line per game."""
    lines = ["{"]
    for i, (label, games) in enumerate(data.items()):
        lines.append(f"  {json.dumps(label)}: {{")
        rows = [f"    {json.dumps(seed)}: {json.dumps(rec)}" for seed, rec in games.items()]
        lines.append(",\n".join(rows))
        lines.append("  }" + ("," if i < len(data) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 on a difference")
    ap.add_argument("--games", type=int, default=GAMES, metavar="N",
                    help=f"with --check: only the first N games of each configuration "
                         f"(default: all {GAMES})")
    args = ap.parse_args(argv)
    if not args.check:
        args.games = GAMES
    data: dict[str, Any] = {label: config_records(label, max(1, min(args.games, GAMES)))
                            for label, *_ in CONFIGS}
    if args.check:
        stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
        bad = [(c, s) for c in data for s in data[c] if stored.get(c, {}).get(s) != data[c][s]]
        for c, s in bad[:20]:
            print(f"{c} seed {s}: differs")
        return 1 if bad else 0
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(dump(data), encoding="utf-8")
    print(f"{FIXTURE.relative_to(ROOT)}: {sum(len(v) for v in data.values())} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
