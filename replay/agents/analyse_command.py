"""``python -m replay analyse``: the computer analysis of logs (``analysis``), on a corpus as
``audit`` walks one (files, directories, zip and tar archives, JSON Lines), written by the
reports' shared writers (``analyse_report``). The parser is cheap to build: the agents and the
search are imported when the command runs."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from ..cli_help import add_dask, open_output, whole_number
from ..core.json_input import MAX_BYTES

FORMATS = ("text", "jsonl", "html")
DEFAULT_AGENT = "mcts:200:dets=2"  # analysis.DEFAULT_AGENT (not imported: the parser stays light)
HELP = "computer analysis of games: win chances, the best moves, and the mistakes played"
DESCRIPTION = """\
Search every position of each log (read as verify reads it, imports included) with an mcts
agent and report, move by move: each player's win chance, the engine's best move with its
value, the move played with its value and its loss (the best value minus its own), and a mark
by the drop of its player's win chance: ?! inaccuracy from 0.1, ? mistake from 0.2, ?? blunder
from 0.3 (lichess's thresholds). Then, per player, the marks and the average loss.

A win chance is how often the search sees that player come out on top (the mean outcome of its
simulations, a tie shared), not a calibrated probability; the search never looks at what the
player to move could not know (the order of the tiles left, the other hands). A log with an
illegal move is analysed up to it. The same log and agent always give the same analysis."""
EXAMPLES = """examples:
  python -m replay analyse game.json
  python -m replay analyse game.json --agent mcts:800:dets=4 --format html --out game.html
  python -m replay analyse corpus/ --jobs 4 --format jsonl --out analysis.jsonl
  python -m replay analyse corpus.zip --jobs 2 --resume analyse.ckpt   # again after Ctrl-C

Exit codes: 0 every game analysed to its end, 1 some log has an illegal move (analysed up to
it), 2 bad arguments or some log unreadable, 3 an internal error (the worst game wins)."""


def agent_spec(text: str) -> str:
    """``--agent SPEC``: an mcts agent's spec, written back in full (argparse says why not)."""
    from . import AgentSpecError
    from .analysis import searching_agent

    try:
        return searching_agent(text).spec
    except AgentSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(sub: Any, command: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``analyse`` command (``command``: ``cli_parser._command``)."""
    a = command(sub, "analyse", HELP, DESCRIPTION, EXAMPLES)
    a.add_argument("sources", nargs="+", metavar="LOG",
                   help="logs: files, directories, zip and tar archives, JSON Lines files")
    a.add_argument("--agent", type=agent_spec, default=DEFAULT_AGENT, metavar="SPEC",
                   help="the searching agent, e.g. mcts:800:dets=4 (default: "
                        f"{DEFAULT_AGENT}, a 2-player base game in about 20 s of CPU)")
    a.add_argument("--format", choices=FORMATS, default="text",
                   help="text (a line per move with its mark, a summary per player; "
                        "default), jsonl (an object per game, position and player, then the "
                        "summary), html (one page: a win-chance chart per game)")
    a.add_argument("--out", metavar="FILE", help="write the report here (default: stdout)")
    a.add_argument("--jobs", type=whole_number(1, 1024), default=1, metavar="J",
                   help="worker processes, a game each at a time (default: 1, in this "
                        "process, with a bar of the moves)")
    add_dask(a)
    a.add_argument("--resume", metavar="FILE",
                   help="checkpoint: each game analysed is appended here, and the same "
                        "command started again with it goes on where it stopped (default: "
                        "none)")
    a.add_argument("--max-bytes", type=whole_number(1, unit="byte"), default=MAX_BYTES,
                   metavar="N",
                   help="largest log read, in bytes (default 5 MB)")
    a.set_defaults(func=cmd_analyse)


class _Bar:
    """A bar of the moves analysed in this process (``--jobs 1``), on stderr when it is a
    terminal."""

    def __init__(self, show: bool) -> None:
        from ..audit.command import Progress

        self.bar = Progress(None, show, unit="move")
        self.total = 0

    def __call__(self, done: int, total: int) -> None:
        if done == 1:
            self.total += total
            self.bar.total(self.total)
        self.bar(1)


def game_rows(sources: Sequence[str], spec: str, jobs: int, max_bytes: int,
              done: dict[int, Any], show: bool, dask: str | None = None,
              shared_fs: bool = False) -> Iterator[dict[str, Any]]:
    """Each game's row (``analysis.analyse_task``), in the order of the walk: in this process
    for one job, else on the audit's workers (one game a task), or on the Dask cluster at
    ``dask`` as ``audit --dask`` runs; ``done`` (a checkpoint's rows, by index) given back
    as they are."""
    from functools import partial

    from ..audit.command import working
    from ..audit.runner import tasks
    from ..audit.sources import Limits, walk
    from .analyse_report import public
    from .analysis import analyse_batch, analyse_task

    limits = Limits(max_bytes=max_bytes)
    if jobs == 1 and dask is None:
        bar = _Bar(show)
        try:
            for task in tasks(walk(sources, limits)):
                old = done.get(task[0])
                if old is not None and old.get("name") == task[1]:
                    yield old
                    continue
                yield analyse_task(spec, task, max_bytes, bar)
        finally:
            bar.bar.close()
        return
    worker: Any = partial(analyse_batch, spec)
    with working(sources, show, limits, jobs=jobs, worker=worker, batch=1,
                 done=done, dask=dask, shared_fs=shared_fs) as stream:
        for row in stream:
            yield public(row)


def analyse(sources: Sequence[str], out: IO[str], spec: str = DEFAULT_AGENT,
            fmt: str = "text", jobs: int = 1, max_bytes: int = MAX_BYTES,
            checkpoint: str | None = None, show: bool | None = None,
            dask: str | None = None, shared_fs: bool = False) -> Any:
    """Analyse every game of ``sources`` with the agent ``spec``, writing the report in
    ``fmt`` to ``out``; the summary (``analyse_report.AnalyseSummary``). Raises
    ``resume.CheckpointError`` for a checkpoint of another command."""
    from ..audit import resume
    from ..reports import writer
    from .analyse_report import ANALYSE, AnalyseSummary, told

    done = resume.load(checkpoint, sources) if checkpoint else {}
    if any(row.get("agent") != spec or "status" not in row for row in done.values()):
        raise resume.CheckpointError(f"{checkpoint} is not the checkpoint of an analysis by "
                                     f"{spec} (give the same --agent, or another file)")
    summary = AnalyseSummary(spec)
    report = writer(ANALYSE, "json" if fmt == "jsonl" else fmt, out, title="Analysis")
    start = time.perf_counter()
    ckpt = resume.Checkpoint(checkpoint, sources) if checkpoint else None
    try:
        for row in game_rows(sources, spec, jobs, max_bytes, done,
                             sys.stderr.isatty() if show is None else show, dask, shared_fs):
            summary.add(row)
            if ckpt is not None and row["index"] not in done:
                ckpt.add(row)
            for r in told(row):
                report.row(r)
    finally:
        if ckpt is not None:
            ckpt.close()
    summary.seconds = time.perf_counter() - start
    report.close(summary)
    return summary


def cmd_analyse(args: argparse.Namespace) -> int:
    """``analyse``: the report, its summary on stderr unless it is the text on stdout; the
    exit code is the worst of the games' (``AnalyseSummary.exit``)."""
    from ..audit.resume import CheckpointError

    out = open_output(args.out, "analyse")
    if out is None:
        return 2
    try:
        summary = analyse(args.sources, out, args.agent, args.format, args.jobs,
                          args.max_bytes, args.resume, dask=args.dask,
                          shared_fs=args.shared_fs)
    except CheckpointError as exc:
        print(f"analyse: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("analyse: interrupted" + (f"; the games analysed are kept in {args.resume}: "
                                        "run the same command again to go on"
                                        if args.resume else ""), file=sys.stderr)
        return 130
    finally:
        if args.out:
            out.close()
    if args.format != "text" or args.out:
        print("\n".join(summary.lines()), file=sys.stderr)
    code: int = summary.exit
    return code
