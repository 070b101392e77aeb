"""``python -m replay fuzz``: its arguments, checked against the registry (``Plan``). The run
itself (Hypothesis, the machines) is ``fuzz_run``, imported only when the command runs, so
that building the command line never imports ``hypothesis``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cli_help import whole_number
from ..core.errors import IllegalMove, LogFormatError
from ..core.family import Family, Option, families, family

EXIT_BAD_ARGUMENTS = 2
DEFAULT_EXAMPLES = 100
DEFAULT_OUT = "fuzz-failures"
DEFAULT_REPLAYS = 20

HELP = "play random games of a family and check every invariant (exit 0 held, 1 broken)"
DESCRIPTION = (
    "Play random games of one game family (built-in or installed from another package) with "
    "Hypothesis and check, after every move, what every family owes (moves drawn from "
    "legal_moves() are accepted, illegal ones refused with a rule id and nothing changed, "
    "copies independent, the state hash consistent, scores never negative and the sum of the "
    "score events, one end event, the game written as a log verifies with the same hashes) "
    "and the family's own invariants (Family.fuzz_machine). At the end a sample of the games "
    "is verified again in another process with another PYTHONHASHSEED: the same state hash "
    "after every move. Exit 0 when every invariant held; 1 when one broke: Hypothesis shrinks "
    "the game to a small one, written to --out as a log that 'verify' reads, and the "
    "invariant is named; 2 for bad arguments. The statistics say how many games reached each "
    "interesting state.")
def examples() -> str:
    """The examples of ``fuzz --help``, with the families, expansions and options of the
    registry."""
    fams = families()
    if not fams:
        return ""
    mixed = next((f for f in fams if f.expansions), fams[0])
    expansion = next(iter(mixed.expansions), "none")
    seats = min(mixed.seat_limit(()), mixed.min_players + 1)
    options = " ".join(f"--option {o.key}={o.choices[-1]}" for o in mixed.options[:2])
    game, last = mixed.name, fams[-1].name
    return f"""examples:
  python -m replay fuzz --game {game}      # {DEFAULT_EXAMPLES} games over every expansion mix
  python -m replay fuzz --game {game} --expansions {expansion} --players {seats} --examples 500
  python -m replay fuzz --game {game} {options}
  python -m replay fuzz --game {last} --seed 7 --out failures/   # the run of seed 7 again
  python -m replay fuzz --game {game} --expansions none     # the game without expansions

  A run prints its seed; --seed S plays the same games again (and finds the same failure)."""


class BadArgument(Exception):
    """An argument the registry refuses (exit 2, one line)."""


@dataclass
class Plan:
    """What a run plays: the family, its expansion mixes (each with its number of games), the
    pinned players and options, the seed and where a failing game goes."""

    family: Family
    mixes: list[tuple[tuple[str, ...], int]]
    players: int | None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    out: str = DEFAULT_OUT
    replays: int = DEFAULT_REPLAYS
    verbose: bool = False
    command: list[str] = field(default_factory=list)  # the arguments that run it again


def add_fuzz(sub: Any, command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``fuzz`` to the sub-commands ``sub``; ``command(sub, name, help, description,
    examples)`` makes a sub-command as the others are made."""
    f = command(sub, "fuzz", HELP, DESCRIPTION, examples())
    f.add_argument("--game", required=True, metavar="GAME",
                   help="the family to play (required; no default): "
                        + ", ".join(x.name for x in families()))
    f.add_argument("--expansions", metavar="LIST", help="comma-separated expansions played in "
                   "every game, or 'none' for the game alone (default: every mix of the "
                   "family's expansions, the games shared among them)")
    f.add_argument("--players", type=int, metavar="N",
                   help="players in every game (default: drawn, from the least to the most "
                        "the game seats)")
    f.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option's value in every game, e.g. small_city=4; repeat for "
                        "several (default: each game draws the values)")
    f.add_argument("--examples", type=whole_number(1, unit="game"), default=DEFAULT_EXAMPLES,
                   metavar="N",
                   help=f"how many games to play (default: {DEFAULT_EXAMPLES})")
    f.add_argument("--seed", type=whole_number(0), default=None, metavar="S",
                   help="the seed of the run: the same seed plays the same games (default: "
                        "a random one, printed)")
    f.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                   help=f"where the log of a failing game is written (default: ./{DEFAULT_OUT}"
                        ", made when needed)")
    f.add_argument("--replays", type=whole_number(0), default=DEFAULT_REPLAYS, metavar="N",
                   help="games verified again in another process with another PYTHONHASHSEED "
                        f"(default: {DEFAULT_REPLAYS}; 0: none)")
    f.add_argument("-v", "--verbose", action="store_true",
                   help="on a failure, also print Hypothesis's steps and the traceback "
                        "(default: off)")
    f.set_defaults(func=cmd_fuzz)


def cmd_fuzz(args: argparse.Namespace) -> int:
    """``python -m replay fuzz``: 0 every invariant held, 1 one broke, 2 bad arguments."""
    try:
        plan = plan_of(args)
    except BadArgument as exc:
        print(f"fuzz: {exc}", file=sys.stderr)
        return EXIT_BAD_ARGUMENTS
    from .fuzz_run import run

    return run(plan)


def plan_of(args: argparse.Namespace) -> Plan:
    """The run the arguments ask for, checked against the registry; ``BadArgument`` with a
    one-line message otherwise."""
    try:
        fam = family(args.game)
    except LogFormatError as exc:
        raise BadArgument(exc.message) from None
    pinned_mix = None if args.expansions is None else _mix(fam, args.expansions)
    options = {}
    for item in args.option:
        key, value = _option(fam, item)
        options[key] = value
    mixes = [pinned_mix] if pinned_mix is not None else fam.mixes()
    for key in options:  # an option of an expansion: the mixes that play it
        opt = next(o for o in fam.options if o.key == key)
        if opt.expansion is not None:
            if pinned_mix is not None and opt.expansion not in pinned_mix:
                raise BadArgument(f"--option {key}: an option of "
                                  f"{fam.expansions[opt.expansion].label}, which --expansions "
                                  f"leaves out")
            mixes = [m for m in mixes if opt.expansion in m]
    if args.players is not None:
        mixes = _seating(fam, mixes, args.players)
    seed = args.seed if args.seed is not None else _random_seed()
    shares = [args.examples // len(mixes) + (i < args.examples % len(mixes))
              for i in range(len(mixes))]
    return Plan(fam, [(m, n) for m, n in zip(mixes, shares, strict=True) if n], args.players,
                options, seed, args.out, args.replays, args.verbose,
                _again(args, seed))


def _mix(fam: Family, text: str) -> tuple[str, ...]:
    """The expansions of ``--expansions``, in the family's order."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if names in ([], ["none"]):
        return ()
    try:
        fam.check_expansions(names)
    except LogFormatError as exc:
        raise BadArgument(f"--expansions: {exc.message}") from None
    if len(set(names)) != len(names):
        raise BadArgument(f"--expansions: {text!r} names an expansion twice")
    return tuple(x for x in fam.expansions if x in names)


def _option(fam: Family, item: str) -> tuple[str, Any]:
    """``KEY=VALUE`` of ``--option`` as an option of ``fam`` and one of its values."""
    key, sep, text = item.partition("=")
    key = key.strip().replace("-", "_")
    known = {o.key: o for o in fam.options}
    if not sep or not key:
        raise BadArgument(f"--option {item!r}: give KEY=VALUE, e.g. "
                          f"{_example(fam.options)}")
    opt = known.get(key)
    if opt is None:
        listed = ", ".join(known) if known else "none"
        raise BadArgument(f"--option {key}: not an option of {fam.label} (its options: "
                          f"{listed})")
    value: Any = text.strip()
    if type(opt.default) is int:
        try:
            value = int(value)
        except ValueError:
            value = None
    if value not in opt.choices or type(value) is not type(opt.default):
        raise BadArgument(f"--option {key}={text}: not a value of {key} (choose from "
                          f"{', '.join(map(str, opt.choices))})")
    return key, value


def _example(options: tuple[Option, ...]) -> str:
    return f"{options[0].key}={options[0].choices[-1]}" if options else "small_city=4"


def _seating(fam: Family, mixes: list[tuple[str, ...]],
             players: int) -> list[tuple[str, ...]]:
    """The mixes that seat ``players``; ``BadArgument`` (the family's message) when none."""
    seated = [m for m in mixes if fam.min_players <= players <= fam.seat_limit(m)]
    if seated:
        return seated
    widest = max(mixes, key=fam.seat_limit)
    try:
        fam.check_players(players, widest)
    except IllegalMove as exc:
        raise BadArgument(f"--players {players}: {exc.message} ({exc.rule})") from None
    raise BadArgument(f"--players {players}: no expansion mix seats them")  # pragma: no cover


def _random_seed() -> int:
    import random

    return random.SystemRandom().randrange(2**32)


def _again(args: argparse.Namespace, seed: int) -> list[str]:
    """The arguments of the same run (printed after a failure)."""
    out = ["--game", args.game]
    if args.expansions is not None:
        out += ["--expansions", args.expansions or "none"]
    if args.players is not None:
        out += ["--players", str(args.players)]
    for item in args.option:
        out += ["--option", item]
    return [*out, "--examples", str(args.examples), "--seed", str(seed)]
