"""The arguments of ``python -m replay balance`` and the command: rule variants measured by
self-play (``balance``: the games and the figures; ``balance_report``: the formats). The
settings ``--a``/``--b KEY=VALUE`` are read by ``diff``'s parser (``lab.diff_command``:
``add_rule_sets``), so the two commands take the same rule sets; the machinery is
imported when the command runs."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import IO, Any

from ..cli_help import add_dask, whole_number
from ..lab.diff_command import add_rule_sets

FORMATS = ("text", "json", "html")
MAX_GAMES = 100_000  # games a rule set at most (a million would hold its results in memory)
MAX_JOBS = 256
HELP = ("measure two rule sets by self-play (--a/--b KEY=VALUE): seat advantage, score "
        "spread, ties, length, points by kind, each with a 95 %% interval, and B - A")
DESCRIPTION = """\
Play --games games under rule set A and as many under rule set B, every seat played by the
same agent (--agent SPEC: random, greedy, mcts:800, ...), game k of each set from the seed
<seed>-k so that the sets are paired, and report for each set:

  seat advantage      each seat's score rate (a win 1, a best score shared by k seats 1/k)
                      with its Wilson 95 % interval; fair: 1 / players
  first seat margin   the first seat's score minus the mean of the others' (fair: 0)
  score spread        the best final score minus the worst
  tie rate            the games whose best score is shared
  length              the moves of a game
  points by kind      the points of the Score events per game, by kind of scoring

means with a 95 % Student t-interval, and the difference B - A of each: the mean of the
per-game differences (paired by seed) with its t-interval. --a/--b KEY=VALUE are read as
'diff' reads them: an option of the game's family, or game=NAME to play another family (a
house-rule variant); a key not given keeps the default. A and B the same rules: the set is
played once. The report is the same whatever --jobs."""
EXAMPLES = """examples:
  python -m replay balance --game base --a small_city=2 --b small_city=4 --agent greedy \\
      --games 100
  python -m replay balance --game base --players 3 --b farm_scoring=per-field \\
      --agent mcts:100 --games 400 --jobs 4 --format html --out balance.html
  python -m replay balance --game base --b game=rich-farms --agent greedy --games 50 \\
      --format json

Exit codes: 0 measured, 2 bad arguments (an unknown option or value, a game that cannot be
set up with them, a bad agent spec, an unwritable --out), 3 an internal error."""


def _game(name: str) -> str:
    """``--game NAME``: an installed family that loads (else why not)."""
    from ..core.family import REGISTRY, not_installed

    if REGISTRY.get(name) is None:
        raise argparse.ArgumentTypeError(not_installed(name))
    return name


def _fail(message: str) -> int:
    print(f"python -m replay balance: error: {message}", file=sys.stderr)
    return 2


def cmd_balance(args: argparse.Namespace) -> int:
    """``python -m replay balance``: the report on stdout or --out; exit 2 for arguments that
    set up no game (said in one line)."""
    from ..core.errors import IllegalMove, LogFormatError
    from ..core.printable import printable
    from . import AgentSpecError, agent
    from .balance import Balance, default_jobs, rule_set, self_play
    from .balance_report import BALANCE, BalanceSummary

    spec = args.agent.strip()
    if "," in spec:
        return _fail(f"--agent {printable(spec[:60])!r}: give one agent (every seat plays it), "
                     "e.g. --agent mcts:100")
    try:
        spec = agent(spec).spec
    except AgentSpecError as exc:
        return _fail(printable(f"--agent: {exc}"))
    sets = []
    for label, given in (("A", args.a or {}), ("B", args.b or {})):
        try:
            sets.append(rule_set(label, args.game, args.players, given))
        except (LogFormatError, IllegalMove) as exc:
            where = " ".join(f"{k}={v}" for k, v in given.items())
            return _fail(printable(f"rule set {label}" + (f" ({where})" if where else "")
                                   + f": {getattr(exc, 'message', None) or exc}"))
    if (sets[0].game, sets[0].options) == (sets[1].game, sets[1].options):
        sets = sets[:1]
    try:
        out: IO[str] = (open(args.out, "w", encoding="utf-8", newline="")  # noqa: SIM115
                        if args.out else sys.stdout)
    except OSError as exc:
        return _fail(f"cannot write {printable(args.out)}: {exc.strerror or exc}")
    from ..cli_help import Progress
    from ..reports import writer

    total = args.games * len(sets)
    start = time.perf_counter()
    try:
        with Progress(total, "balance: games played") as progress:
            results = self_play(sets, args.players, spec, args.games, args.seed,
                                args.jobs or default_jobs(), progress.tick, args.dask)
        summary = BalanceSummary(Balance(args.game, args.players, spec, args.games, args.seed,
                                         sets, results))
        report = writer(BALANCE, args.format, out, title="Balance")
        report.close(summary)
    finally:
        if args.out:
            out.close()
    seconds = time.perf_counter() - start
    print(f"balance: {total} games in {seconds:.1f} s", file=sys.stderr)
    return 0


def add_parser(sub: Any, command: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``balance`` command (``command``: ``cli_parser._command``)."""
    p = command(sub, "balance", HELP, DESCRIPTION, EXAMPLES)
    p.add_argument("--game", type=_game, required=True, metavar="NAME",
                   help="the game family, any installed one ('python -m replay --help' lists "
                        "them; required)")
    p.add_argument("--players", type=whole_number(2, 6), default=2, metavar="N",
                   help="seats, 2 to the game's most (default: 2)")
    add_rule_sets(p, "the game's own rules")
    p.add_argument("--agent", required=True, metavar="SPEC",
                   help="the agent at every seat: random, greedy, mcts:800, mcts:800:dets=4 "
                        "(required)")
    p.add_argument("--games", type=whole_number(1, MAX_GAMES), required=True, metavar="N",
                   help=f"games a rule set, 1 to {MAX_GAMES} (required)")
    p.add_argument("--seed", type=int, default=0,
                   help="game k of each set is dealt from the seed <seed>-k (default: 0)")
    p.add_argument("--jobs", type=whole_number(1, MAX_JOBS), default=None, metavar="N",
                   help="worker processes (default: every core); the report is the same "
                        "for any number")
    add_dask(p, files=False)
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (a short table; default), json (one object), html (one page)")
    p.add_argument("--out", metavar="FILE", help="write the report here (default: stdout)")
    p.set_defaults(func=cmd_balance)
