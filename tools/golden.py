"""Golden playthroughs (OpenSpiel style): readable per-move dumps of fixed seeded games.

    .venv/bin/python tools/golden.py            # rewrite fixtures/golden/*.txt
    .venv/bin/python tools/golden.py --fresh    # ... choosing new random moves from the seeds
    .venv/bin/python tools/golden.py --check    # exit 1 when a file differs (CI does this through
                                                # tests/test_golden.py)

Each file records one game (``replay.core.playthrough``): a header line, then for every move
the move itself (as it stands in a log) followed by what the engine made of it. The header says
which game it is, so ``tests/test_golden.py`` needs nothing from here: it replays every file in
``fixtures/golden/`` and compares line by line, and checks that every game family and every
expansion mix in the registry (``replay.families()``) has a golden game. After an *intended*
rule change, run this command and review the diff (``git diff fixtures/golden``).

By default the moves already recorded in a file are kept when they are still legal, so the diff
shows only the consequences of the rule change; ``--fresh`` (or a move that became illegal)
plays the game again from its seed with the generator's random choices.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from replay.core.errors import ReplayError  # noqa: E402
from replay.core.family import family  # noqa: E402
from replay.core.playthrough import dump, read_playthrough  # noqa: E402
from replay.generate import config_for, play_random  # noqa: E402

GOLDEN_DIR = ROOT / "fixtures" / "golden"


@dataclass(frozen=True)
class GoldenGame:
    name: str
    game: str
    expansions: tuple[str, ...]
    players: int
    seed: int | str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.name}.txt"

    def header(self) -> dict[str, Any]:
        config = config_for(self.game, self.players, self.seed, self.expansions, self.options)
        fam = family(self.game)
        return {
            "game": self.game, "expansions": list(self.expansions),
            "options": fam.options_json(config.options, config.expansions),
            "players": [p.name for p in config.players], "seed": self.seed,
        }


# One game at least for every family and expansion mix of the registry (tests/test_golden.py
# checks that), and every rule option.
GOLDEN: tuple[GoldenGame, ...] = (
    GoldenGame("base-2p-seed1", "base", (), 2, 1),
    GoldenGame("base-3p-seed42-small-city-4", "base", (), 3, 42, {"small_city": 4}),
    GoldenGame("base-4p-seed7-per-field", "base", (), 4, 7, {"farm_scoring": "per-field"}),
    GoldenGame("base-5p-seed2026", "base", (), 5, 2026),
    GoldenGame("base-ic-6p-seed5", "base", ("inns-cathedrals",), 6, 5),
    GoldenGame("base-hs-3p-seed11", "base", ("hills-sheep",), 3, 11),
    GoldenGame("base-ic-hs-4p-seed13", "base", ("inns-cathedrals", "hills-sheep"), 4, 13),
    GoldenGame("hg-3p-seed3", "hunters-gatherers", (), 3, 3),
    GoldenGame("hg-4p-seed8-immediate", "hunters-gatherers", (), 4, 8,
               {"return_timing": "immediate"}),
    GoldenGame("manhattan-2p-seed1", "manhattan", (), 2, 1),
    GoldenGame("manhattan-3p-seed2", "manhattan", (), 3, 2),
    GoldenGame("manhattan-4p-seed3", "manhattan", (), 4, 3),
)


def fresh_moves(spec: GoldenGame) -> list[dict[str, Any]]:
    _, moves = play_random(config_for(spec.game, spec.players, spec.seed, spec.expansions,
                                      spec.options))
    return moves


def regenerate(spec: GoldenGame, fresh: bool = False) -> tuple[str, str]:
    """The dump of one golden game and how its moves were obtained."""
    header = spec.header()
    if not fresh and spec.path.is_file():
        try:
            old_header, moves = read_playthrough(spec.path.read_text(encoding="utf-8"))
            if old_header == header:
                text = dump(header, moves, spec.name)
                if text.rstrip().endswith("\nfinished"):
                    return text, "recorded moves"
        except (ReplayError, ValueError, KeyError):
            pass
    return dump(header, fresh_moves(spec), spec.name), "new moves from the seed"


def diff_lines(expected: str, actual: str, label: str = "golden") -> list[str]:
    return list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), label,
                                     "replay", lineterm="", n=2))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--fresh", action="store_true",
                    help="choose new random moves from the seeds instead of the recorded ones")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when a golden file differs from its replay")
    args = ap.parse_args(argv)
    if args.check:
        bad = 0
        for spec in GOLDEN:
            if not spec.path.is_file():
                print(f"{spec.path}: missing (run tools/golden.py)")
                bad += 1
                continue
            expected = spec.path.read_text(encoding="utf-8")
            header, moves = read_playthrough(expected)
            diff = diff_lines(expected, dump(header, moves, spec.name), str(spec.path))
            if diff:
                bad += 1
                print("\n".join(diff[:60]))
        return 1 if bad else 0
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for spec in GOLDEN:
        text, how = regenerate(spec, args.fresh)
        old = spec.path.read_text(encoding="utf-8") if spec.path.is_file() else None
        state = "unchanged" if old == text else ("new" if old is None else "CHANGED")
        spec.path.write_text(text, encoding="utf-8")
        print(f"{spec.path.relative_to(ROOT)}: {state} ({how}, "
              f"{text.count(chr(10) + 'move ')} moves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
