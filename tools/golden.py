"""Golden playthroughs (OpenSpiel style): readable per-move dumps of fixed seeded games.

    .venv/bin/python tools/golden.py            # rewrite fixtures/golden/*.txt
    .venv/bin/python tools/golden.py --fresh    # ... choosing new random moves from the seeds
    .venv/bin/python tools/golden.py --check    # exit 1 when a file differs (CI does this through
                                                # tests/test_golden.py)

Each file records one game: a header line, then for every move the move itself (as it stands in
a log) followed by what the engine made of it: placement, figure, every event with its points,
winners and rule id, the scores, the supplies and the state hash. ``tests/test_golden.py``
replays the recorded moves and compares the dump line by line, so any change of behaviour shows
up as a failing test; after an *intended* rule change, run this command and review the diff
(``git diff fixtures/golden``) like any other change.

By default the moves already recorded in a file are kept when they are still legal, so the diff
shows only the consequences of the rule change; ``--fresh`` (or a move that became illegal)
plays the game again from its seed with the generator's random choices.

This module also owns the list of game families that the golden set and the property-based tests
cover (``FAMILIES``) and the probe that says which of them the engine implements yet
(``unimplemented_reason``): a family is played once its tile set loads *and* the engine gives its
figures (large follower, shepherd, hut) to the players, so the suites widen by themselves when an
expansion lands.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from replay import hashing  # noqa: E402
from replay.errors import IllegalMove, ReplayError  # noqa: E402
from replay.game import Event, Game, GameConfig, Options  # noqa: E402
from replay.generate import config_for, play_random  # noqa: E402
from replay.logfile import MAX_PLAYERS, ParsedLog, parse  # noqa: E402

GOLDEN_DIR = ROOT / "fixtures" / "golden"

Family = tuple[str, tuple[str, ...]]  # (game, expansions)

# Every game family the suites know. A family the engine does not implement yet is skipped
# (with the reason) until it lands; nothing here needs to change then.
FAMILIES: tuple[Family, ...] = (
    ("base", ()),
    ("base", ("inns-cathedrals",)),
    ("base", ("hills-sheep",)),
    ("base", ("inns-cathedrals", "hills-sheep")),
    ("hunters-gatherers", ()),
)

# How the probe tells that the engine implements an expansion's rules, not only its tile set:
# the figure it gives every player, and the module of its rules (None: in rules/base.py).
SIGNATURE: dict[str, tuple[str, str | None]] = {
    "inns-cathedrals": ("large-follower", None),  # IC1; IC2/IC3 live in rules/base.py
    "hills-sheep": ("shepherd", "replay.rules.hills_sheep"),  # HS1
    "hunters-gatherers": ("hut", "replay.rules.hunters_gatherers"),  # HG1
}


def family_label(family: Family) -> str:
    game, expansions = family
    return "+".join((game, *expansions))


def max_players(family: Family) -> int:
    game, expansions = family
    return MAX_PLAYERS[game] + (1 if "inns-cathedrals" in expansions else 0)  # B1, IC1


def unimplemented_reason(family: Family) -> str | None:
    """None when the engine plays this family; else why not (yet).

    A family is played when its tile sets load, the players' supply holds its figure (large
    follower, shepherd, hut) and its rules module exists (``SIGNATURE``): a tile set or a
    supply alone may land before the rules do."""
    game, expansions = family
    try:
        config = config_for(game, 2, 0, expansions)
        supply = Game(config).supply[0]
    except (ReplayError, KeyError, ValueError) as exc:
        return f"{family_label(family)}: the engine cannot set it up yet ({exc})"
    for part in (game, *expansions):
        if part not in SIGNATURE:
            continue
        kind, module = SIGNATURE[part]
        if kind not in supply:
            return (f"{family_label(family)}: tile set present, but the players' supply has no "
                    f"{kind} yet (rules not implemented)")
        if module is not None and importlib.util.find_spec(module) is None:
            return f"{family_label(family)}: no rules module {module} yet"
    return None


def implemented_families() -> list[Family]:
    return [f for f in FAMILIES if unimplemented_reason(f) is None]


# ---------------------------------------------------------------------------- the golden set


@dataclass(frozen=True)
class GoldenGame:
    name: str
    game: str
    expansions: tuple[str, ...]
    players: int
    seed: int | str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def family(self) -> Family:
        return (self.game, self.expansions)

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.name}.txt"

    def config(self) -> GameConfig:
        return config_for(self.game, self.players, self.seed, self.expansions,
                          Options(**self.options))


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
)


def active_golden() -> list[GoldenGame]:
    """The golden games of the families the engine implements."""
    families = set(implemented_families())
    return [g for g in GOLDEN if g.family in families]


# ---------------------------------------------------------------------------- dump and parse

HEADER = "header "
MOVE_RE = re.compile(r"^move (\d+) +(\S+) +(\{.*\})$")


def header_of(spec: GoldenGame) -> dict[str, Any]:
    config = spec.config()
    return {
        "game": spec.game, "expansions": list(spec.expansions),
        "options": config.options.as_dict(spec.game),
        "players": [p.name for p in config.players], "seed": spec.seed,
    }


def log_of(header: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The game log (schema v1) a golden file stands for."""
    return {
        "format": "carcassonne-replay/log", "version": 1, "game": header["game"],
        "expansions": header["expansions"], "options": header["options"],
        "players": [{"name": n} for n in header["players"]], "seed": header["seed"],
        "moves": moves,
    }


def read_golden(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the recorded moves of a golden file."""
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


def _cells(cells: list[list[int]]) -> str:
    return " ".join(f"({x},{y})" for x, y in cells)


def _names(players: list[int] | list[str], names: list[str]) -> str:
    return ", ".join(names[int(p)] for p in players) or "nobody"


def render_event(ev: Event, names: list[str]) -> str:
    """One event as a line a person can read; unknown event types as their JSON."""
    t = ev.get("type")
    if t == "place":
        return f"place {ev['tile']} at ({ev['x']},{ev['y']}) rotation {ev['rotation']}"
    if t == "figure":
        role = f" ({ev['role']})" if ev.get("role") else ""
        return (f"figure {names[ev['player']]} {ev['kind']} at ({ev['x']},{ev['y']}) "
                f"{ev['location']}: {ev['feature']}{role}")
    if t == "score":
        strengths = ", ".join(f"{names[int(p)]} {s}" for p, s in ev["strengths"].items())
        tie = " tie" if ev.get("tie") else ""
        return (f"score {ev['phase']} {ev['feature']} {ev['points']} to "
                f"{_names(ev['winners'], names)} [{ev['rule']}{tie}] strengths {strengths}; "
                f"{ev['detail']}; cells {_cells(ev['cells'])}")
    if t == "return":
        return (f"return {names[ev['player']]} {ev['kind']} from ({ev['x']},{ev['y']}) "
                f"{ev['location']}")
    if t == "discard":
        return f"discard {ev['tile']} [{ev['rule']}] (drawn by {names[ev['player']]})"
    if t == "bonus":
        return f"bonus tile {ev['tile']} for {names[ev['player']]} [{ev.get('rule', 'HG7')}]"
    if t == "hidden":
        return f"hidden under the hill: {ev['tile']} [{ev.get('rule', 'HS7')}]"
    if t == "sheep":
        return (f"draw {names[ev['player']]}: {ev['token']} [{ev['rule']}] for the field "
                f"{_cells(ev['cells'])}")
    if t == "wolf":
        lost = ", ".join(ev.get("tokens", [])) or "no sheep"
        return f"wolf [{ev['rule']}]: the flock ({lost}) is lost; field {_cells(ev['cells'])}"
    if t == "end":
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, ev["scores"], strict=True))
        return f"end: scores {scores}; winners {_names(ev['winners'], names)}"
    return f"{t} {_j({k: v for k, v in ev.items() if k != 'type'})}"


def _supply(game: Game) -> str:
    return "  ".join(
        f"{p.name} " + " ".join(f"{k}×{v}" for k, v in sorted(game.supply[i].items()))
        for i, p in enumerate(game.players))


def dump(header: dict[str, Any], moves: list[dict[str, Any]], name: str) -> str:
    """Replay the moves and write the playthrough. Raises ``IllegalMove`` on an illegal move."""
    log = parse(log_of(header, moves))
    return _dump(log, name)


def _dump(log: ParsedLog, name: str) -> str:
    game = Game(log.config)
    names = [p.name for p in log.config.players]
    header = log.raw or {}
    out = [
        f"# Golden playthrough {name}: tests/test_golden.py replays the moves and compares every",
        "# line. After an intended rule change: .venv/bin/python tools/golden.py, then review",
        "# the diff. Moves count from 0 (as in the verifier's reports); y grows to the south.",
        HEADER + _j({"game": header.get("game"), "expansions": header.get("expansions", []),
                     "options": header.get("options", {}),
                     "players": names, "seed": header.get("seed")}),
        f"tileset {log.config.tileset.id} sha256 {log.config.tileset.digest}",
        f"start {game.start_tile.id} at (0,0) rotation 0; pile {len(game.pile)} tiles",
    ]
    out += [f"  {render_event(ev, names)}" for ev in game.setup_events]
    out.append(f"  hash {hashing.hexdigest(game.hash)}")
    raw_moves = header.get("moves", [])
    for i, move in enumerate(log.moves):
        player = game.turn
        tile = game.current
        edges = "" if tile is None else f" edges {tile.rotations[move.rotation // 90 % 4].edges}"
        out.append("")
        out.append(f"move {i} {names[player]} {_j(raw_moves[i])}")
        events = game.play(move)
        out.append(f"  tile {tile.id if tile else '?'}{edges}; {game.tiles_left()} left in pile")
        out += [f"  {render_event(ev, names)}" for ev in events]
        out.append("  scores " + ", ".join(f"{n} {s}" for n, s in zip(names, game.scores,
                                                                       strict=True)))
        out.append(f"  supply {_supply(game)}")
        out.append(f"  hash {hashing.hexdigest(game.hash)}")
    out.append("")
    out.append("finished" if game.finished else f"unfinished after {game.moves_played} moves")
    return "\n".join(out) + "\n"


def fresh_moves(spec: GoldenGame) -> list[dict[str, Any]]:
    _, moves = play_random(spec.config())
    return moves


def regenerate(spec: GoldenGame, fresh: bool = False) -> tuple[str, str]:
    """The dump of one golden game and how its moves were obtained."""
    header = header_of(spec)
    if not fresh and spec.path.is_file():
        try:
            old_header, moves = read_golden(spec.path.read_text(encoding="utf-8"))
            if old_header == header:
                text = dump(header, moves, spec.name)
                if text.rstrip().endswith("\nfinished"):
                    return text, "recorded moves"
        except (IllegalMove, ReplayError, ValueError, KeyError):
            pass
    return dump(header, fresh_moves(spec), spec.name), "new moves from the seed"


def diff_lines(expected: str, actual: str, label: str = "golden") -> list[str]:
    return list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), label,
                                     "replay", lineterm="", n=2))


def check(spec: GoldenGame) -> list[str]:
    """Differences between the file and a replay of its moves (empty when they agree)."""
    expected = spec.path.read_text(encoding="utf-8")
    header, moves = read_golden(expected)
    return diff_lines(expected, dump(header, moves, spec.name), str(spec.path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--fresh", action="store_true",
                    help="choose new random moves from the seeds instead of the recorded ones")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when a golden file differs from its replay")
    args = ap.parse_args(argv)
    for family in FAMILIES:
        reason = unimplemented_reason(family)
        if reason is not None:
            print(f"skip {reason}", file=sys.stderr)
    specs = active_golden()
    if args.check:
        bad = 0
        for spec in specs:
            if not spec.path.is_file():
                print(f"{spec.path}: missing (run tools/golden.py)")
                bad += 1
                continue
            diff = check(spec)
            if diff:
                bad += 1
                print("\n".join(diff[:60]))
        return 1 if bad else 0
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for spec in specs:
        text, how = regenerate(spec, args.fresh)
        old = spec.path.read_text(encoding="utf-8") if spec.path.is_file() else None
        state = "unchanged" if old == text else ("new" if old is None else "CHANGED")
        spec.path.write_text(text, encoding="utf-8")
        print(f"{spec.path.relative_to(ROOT)}: {state} ({how}, "
              f"{text.count(chr(10) + 'move ')} moves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
