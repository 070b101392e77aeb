"""``python -m replay play`` (one game between agents, its log) and ``arena`` (two agents
over many games: the score with its Wilson interval, the Elo difference, the SPRT): their
parsers and their commands. An agent spec, a list of them and ``--sprt`` are read here, a bad
one refused by the parser (exit 2, the problem named); the games run in ``games`` and
``arena``."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import IO, Any

from ..cli_help import add_dask, whole_number
from . import AgentSpecError, agents
from . import agent as make_agent
from .arena import MAX_GAMES

EXIT_DONE = 0
EXIT_BAD_ARGUMENTS = 2
MAX_ELO = 2000.0  # an SPRT bound beyond is no question an arena can answer

HELP_PLAY = "play one game between agents (random, greedy, mcts) and write its log"
HELP_ARENA = ("play two agents against each other: the score with a Wilson 95 %% interval, the "
              "Elo difference, an SPRT")
DESCRIPTION_PLAY = """\
Play one seeded game with an agent at each seat and write its log (a log v1, as generate
writes: 'verify' passes it; its meta names the agents by seat). The same seed and specs give
the same game on any machine. An agent is named by a spec, its parameters after colons:
random, greedy, mcts, mcts:800, mcts:800:dets=4 (docs/agents.md). One spec plays every seat;
several, comma-separated, are one per seat in order."""
DESCRIPTION_ARENA = """\
Play --games games between agent a and agent b, a at seat k % players in game k (the seats
alternate), b at the others, game k from the seed '<seed>-<k>'. The report: a's wins, ties and
losses; its score rate (a win 1, a tie 1/2) with the Wilson 95 % interval, overall and by a's
seat (the seat advantage); the Elo difference a - b with its interval (the Elo of the
interval's bounds); the mean final scores and the mean length. --sprt ELO0,ELO1 runs
fishtest's sequential probability ratio test after each game, in game order, and stops at its
verdict (H1: a is ELO1 better, H0: it is ELO0 at most; alpha = beta = 0.05). The games run in
--jobs processes; the report is the same with any --jobs."""


def _examples_play() -> str:
    from ..core.family import families

    last = families()[-1].name
    return f"""examples:
  python -m replay play --agents mcts:500,greedy --seed 7 > game.json
  python -m replay play --agents greedy --players 4 --seed 1 --out game.json
  python -m replay play --game {last} --agents mcts:200:dets=2,random --out g.json
  python -m replay verify game.json

Exit codes: 0 played, 2 bad arguments (an agent spec, the players, the game or its options)."""


def _examples_arena() -> str:
    from ..core.family import families

    last = families()[-1].name
    return f"""examples:
  python -m replay arena --a greedy --b random --games 40
  python -m replay arena --a mcts:500 --b greedy --games 200 --jobs 2 --format json
  python -m replay arena --a mcts:200 --b mcts:100 --games 2000 --sprt 0,50
  python -m replay arena --game {last} --a mcts:100 --b random --games 100 --out arena.txt

Exit codes: 0 done, 2 bad arguments."""


def _spec(text: str) -> str:
    """``--a``/``--b``: one agent spec, written back in full (``mcts:500:dets=3``)."""
    try:
        return make_agent(text).spec
    except AgentSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _specs(text: str) -> list[str]:
    """``--agents``: a comma-separated list of specs."""
    try:
        return [a.spec for a in agents(text)]
    except AgentSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _sprt(text: str) -> tuple[float, float]:
    """``--sprt ELO0,ELO1``: two Elo differences, the first below the second."""
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give two Elo differences ELO0,ELO1 "
                                         "(e.g. 0,50)")
    bounds = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part.strip()[:40]!r} is not a number (give "
                                             "ELO0,ELO1, e.g. 0,50)") from None
        if not math.isfinite(value) or abs(value) > MAX_ELO:
            raise argparse.ArgumentTypeError(f"{part.strip()[:40]!r}: give an Elo difference "
                                             f"from {-MAX_ELO:g} to {MAX_ELO:g}")
        bounds.append(value)
    if bounds[0] >= bounds[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: ELO0 must be below ELO1 (e.g. 0,50)")
    return bounds[0], bounds[1]


def _common(p: argparse.ArgumentParser, players: int | None) -> None:
    """The game's arguments: ``--game``, ``--players``, ``--seed``, its rules."""
    from ..cli_parser import add_game, add_rules

    add_game(p)
    said = ("the number of agents given, or 2 for one agent" if players is None else players)
    p.add_argument("--players", type=whole_number(2, 6), default=players, metavar="N",
                   help=f"number of players, 2 to 6 (default: {said})")
    p.add_argument("--seed", type=int, default=0, help="the seed: the same seed and specs give "
                   "the same games (default: 0)")
    add_rules(p)


def add_parsers(sub: Any, command: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``play`` and ``arena`` commands (``command``: ``cli_parser._command``)."""
    p = command(sub, "play", HELP_PLAY, DESCRIPTION_PLAY, _examples_play())
    p.add_argument("--agents", type=_specs, required=True, metavar="SPEC,SPEC,...",
                   help="the agents by seat, comma-separated, or one for every seat "
                        "(required; e.g. mcts:800:dets=4,greedy)")
    _common(p, None)
    p.add_argument("--out", metavar="FILE", help="write the log here (default: stdout)")
    p.set_defaults(func=cmd_play)

    a = command(sub, "arena", HELP_ARENA, DESCRIPTION_ARENA, _examples_arena())
    a.add_argument("--a", type=_spec, required=True, metavar="SPEC",
                   help="agent a, whose score is reported (required)")
    a.add_argument("--b", type=_spec, required=True, metavar="SPEC",
                   help="agent b, its opponent at every other seat (required)")
    a.add_argument("--games", type=whole_number(1, MAX_GAMES), default=100, metavar="N",
                   help=f"games to play, 1 to {MAX_GAMES} (default: 100)")
    _common(a, 2)
    a.add_argument("--jobs", type=whole_number(1, 1024), default=None, metavar="N",
                   help="worker processes (default: every core)")
    add_dask(a, files=False)
    a.add_argument("--sprt", type=_sprt, default=None, metavar="ELO0,ELO1",
                   help="stop at the verdict of the SPRT of Elo ELO1 against ELO0 (e.g. 0,50; "
                        "default: play every game)")
    a.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (a short table; default) or json (one object)")
    a.add_argument("--out", metavar="FILE", help="write the report here (default: stdout)")
    a.set_defaults(func=cmd_arena)


def _bad(command: str, message: str) -> int:
    print(f"{command}: {message}", file=sys.stderr)
    return EXIT_BAD_ARGUMENTS


def _output(command: str, path: str | None) -> IO[str] | None:
    """``--out FILE`` opened before the games are played (a wrong path is said at once, not
    after an hour of games), or stdout; None after a line on stderr."""
    if not path:
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")  # closed by the command
    except OSError as exc:
        _bad(command, f"cannot write {path!r}: {exc.strerror or exc}")
        return None


def _checked(args: argparse.Namespace, command: str, players: int) -> dict[str, Any] | None:
    """The rule options, checked, and the game set up once (exit 2 here, not in a worker);
    None after a line on stderr."""
    from ..cli import game_options
    from ..core.errors import IllegalMove, LogFormatError
    from ..generate import config_for

    options = game_options(args, command, players)
    if options is None:
        return None
    try:
        config_for(args.game, players, args.seed, args.expansions, options)
    except (LogFormatError, IllegalMove) as exc:
        _bad(command, exc.message)
        return None
    return options


def cmd_play(args: argparse.Namespace) -> int:
    """``play``: one game, its log to stdout or ``--out``; a line on stderr with the result."""
    from ..audit.command import Progress
    from ..core.family import family
    from ..generate import dumps
    from .games import play_game

    specs: list[str] = args.agents
    players = args.players if args.players is not None else max(2, len(specs))
    if len(specs) > 1 and len(specs) != players:
        return _bad("play", f"{len(specs)} agents for {players} players: give one agent per "
                            "seat, or one for every seat")
    options = _checked(args, "play", players)
    if options is None:
        return EXIT_BAD_ARGUMENTS
    out = _output("play", args.out)
    if out is None:
        return EXIT_BAD_ARGUMENTS
    seated = agents(",".join(specs * players if len(specs) == 1 else specs))
    bar = Progress(None, sys.stderr.isatty(), unit="move")
    try:
        state, log = play_game(args.game, seated, args.seed, args.expansions, options,
                               progress=lambda n: bar(1))
        bar.close()
        out.write(dumps(log))
    finally:
        bar.close()
        if out is not sys.stdout:
            out.close()
    names = [p["name"] for p in log["players"]]
    scores = ", ".join(f"{n} ({a.spec}) {s}" for n, a, s in zip(names, seated, state.scores,
                                                                 strict=True))
    won = " and ".join(names[k] for k in state.winners())
    print(f"play: {family(args.game).label}, seed {args.seed}: {scores}; {won} won"
          f"{' (tied)' if len(state.winners()) > 1 else ''}"
          f"{f'; log written to {args.out}' if args.out else ''}", file=sys.stderr)
    return EXIT_DONE


def cmd_arena(args: argparse.Namespace) -> int:
    """``arena``: the games, a bar with the running score on a terminal, the report."""
    import json

    from ..audit.command import Progress
    from ..core.family import family
    from .arena import ArenaSpec, ArenaSummary, run_arena

    options = _checked(args, "arena", args.players)
    if options is None:
        return EXIT_BAD_ARGUMENTS
    spec = ArenaSpec(args.game, args.a, args.b, args.games, args.players, args.seed,
                     tuple(args.expansions), options, args.sprt)
    out = _output("arena", args.out)
    if out is None:
        return EXIT_BAD_ARGUMENTS
    bar = Progress(args.games, sys.stderr.isatty() and args.games > 1)

    def tick(summary: ArenaSummary) -> None:
        bar.note(summary.running())
        bar(1)

    try:
        summary = run_arena(spec, args.jobs, family(args.game).label, tick, args.dask)
        bar.close()
        out.write((json.dumps(summary.as_json(), ensure_ascii=False) if args.format == "json"
                   else "\n".join(summary.lines())) + "\n")
    finally:
        bar.close()
        if out is not sys.stdout:
            out.close()
    return EXIT_DONE
