"""The parser of ``python -m replay``: every command, its options with their defaults, its
examples (``cli_help``); ``cli.main`` builds it except for a plain ``verify FILE...``."""

from __future__ import annotations

import argparse
from functools import cache
from typing import Any

from .cli import cmd_generate, cmd_import, cmd_render, cmd_verify
from .cli_help import EXAMPLES, NUMBERING, generate_examples, version, whole_number
from .core.family import Option, families
from .core.plugins import Group


class VersionAction(argparse.Action):
    """``--version``: the version (looked up only when asked for: the lookup is slow) and the
    engine that runs, compiled or pure Python and why (``native.engine``)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from . import native

        print(f"{parser.prog} {version()}\nengine: {native.engine()}")
        parser.exit()


def _expansions(text: str) -> tuple[str, ...]:
    known = list(dict.fromkeys(x for f in families() for x in f.expansions))
    items = tuple(x.strip() for x in text.split(",") if x.strip())
    for x in items:
        if x not in known:
            raise argparse.ArgumentTypeError(
                f"unknown expansion {x!r} (choose from {', '.join(known)})")
    return items


def _game(name: str) -> str:
    """``--game NAME``: an installed family that loads; else why not (one that is installed
    but cannot be loaded says its error, not only argparse's "invalid choice")."""
    from .core.family import REGISTRY, not_installed

    if REGISTRY.get(name) is None:
        raise argparse.ArgumentTypeError(not_installed(name))
    return name


def all_options() -> list[Option]:
    """Every rule option of every family, once by key."""
    seen: dict[str, Option] = {}
    for fam in families():
        for opt in fam.options:
            seen.setdefault(opt.key, opt)
    return list(seen.values())


def _command(sub: Any, name: str, help_text: str, description: str,
             examples: str | None = None) -> argparse.ArgumentParser:
    """A sub-command with its description, its examples (``examples``, else
    ``cli_help.EXAMPLES``) and the move numbering."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help_text, description=description,
        epilog=generate_examples() if name == "generate" else examples or EXAMPLES.get(name),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def _option_help(opt: Option) -> str:
    owners = [f.label if opt.expansion is None else f.expansions[opt.expansion].label
              for f in families() if opt in f.options]
    choices = ", ".join(str(c) for c in opt.choices)
    return (f"{opt.help} ({' / '.join(owners)}, rule {opt.rule}; one of {choices}; "
            f"default: {opt.default})")


# each command's one-line help (the list of ``python -m replay --help``)
HELP = {
    "verify": "check logs move by move (exit 0 valid, 1 illegal move or wrong claim, 2 "
              "unreadable)",
    "generate": "write random legal games",
    "import": "convert JCloisterZone saves and Board Game Arena logs to logs v1",
    "render": "draw a position of a log as SVG",
}


@cache
def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line: ``verify``, ``generate``, ``import``, ``render``, ``audit``,
    ``ingest``, ``export``, ``diff``, ``fuzz``, ``play``, ``arena``, ``analyse``, ``balance``,
    ``data`` and ``serve`` (built once); every option says its default, every command shows
    examples.

    ``only`` (one of ``COMMANDS``) builds that command alone, enough to parse a command line
    that starts with it, and leaves the top-level description out: ``verify`` then imports
    neither every game family (``generate``'s choices) nor the web server (``serve``'s
    defaults), and makes no parser it does not use (each costs about a millisecond)."""
    parser = argparse.ArgumentParser(
        prog="python -m replay",
        description=None if only else "Replay, verify, generate and draw recorded games: "
        + ", ".join(f.label for f in families()) + ". " + NUMBERING,
        epilog="Run 'python -m replay COMMAND --help' for a command's options and examples. "
               "Exit codes: 0 valid, 1 an illegal move or a wrong claim, 2 unreadable or bad "
               "arguments, 3 internal error.")
    parser.add_argument("--version", action=VersionAction, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in ("verify", "generate", "import", "render"):
        if only in (None, name):
            {"verify": _add_verify, "generate": _add_generate, "import": _add_import,
             "render": _add_render}[name](sub)
    if only in (None, "audit", "ingest", "export"):
        from .audit.parsers import add_parsers

        add_parsers(sub, _command)  # their code is imported when they run
    if only in (None, "diff"):
        from .lab.diff_command import add_parser as add_diff

        add_diff(sub, _command)  # its machinery is imported when it runs
    if only in (None, "analyse"):
        from .agents.analyse_command import add_parser as add_analyse

        add_analyse(sub, _command)  # the agents are imported when it runs
    if only in (None, "balance"):
        from .agents.balance_command import add_parser as add_balance

        add_balance(sub, _command)  # the games and the figures are imported when it runs
    if only in (None, "fuzz"):
        from .lab.fuzz_command import add_fuzz

        add_fuzz(sub, _command)  # hypothesis and the machines are imported when it runs
    if only in (None, "play", "arena"):
        from .agents.commands import add_parsers as add_agents

        add_agents(sub, _command)  # the agents are imported when a command runs
    if only in (None, "data"):
        from .library.data_command import add_parser as add_data

        add_data(sub, _command)  # Datasette runs in a process of its own
    for name, add in plugin_commands().items():
        if only in (None, name):
            add(sub, _command)
    return parser


COMMAND_GROUP = "carcassonne_replay.commands"  # entry points: more commands (``serve``)


def plugin_commands() -> dict[str, Any]:
    """The commands installed distributions add (entry point group ``COMMAND_GROUP``), by
    name: each a function ``add(sub, command)`` that adds its sub-command (``web.command``
    adds ``serve``). One that cannot be loaded is said once on stderr and left out."""
    return _COMMANDS.loaded()


_COMMANDS = Group(COMMAND_GROUP, object, "command")


def _add_verify(sub: Any) -> None:
    v = _command(sub, "verify", HELP["verify"],
                 "Replay each log (or JCloisterZone save, or Board Game Arena log) and say "
                 "whether every move and every claimed score is right: one line per file, and "
                 "a summary line after several. " + NUMBERING)
    v.add_argument("files", nargs="+", metavar="FILE",
                   help="log files to check; paths are taken from the current directory")
    v.add_argument("--json", action="store_true",
                   help="print one JSON object per file instead of a line (default: off)")
    v.add_argument("--tileset", metavar="FILE", help="a tile-set file to use instead of the "
                   "built-in one of the log's game (default: the built-in set)")
    v.add_argument("--max-bytes", type=int, default=None, metavar="N",
                   help="largest log accepted, in bytes (default: 5 MB)")
    v.add_argument("-v", "--verbose", action="store_true",
                   help="list every wrong claim and every import problem (default: the first "
                        "wrong claim only)")
    v.set_defaults(func=cmd_verify)



def _add_generate(sub: Any) -> None:
    g = _command(sub, "generate", HELP["generate"],
                 "Play random legal games from a seed and write their logs (one JSON "
                 "document each).")
    add_game(g)
    g.add_argument("--players", type=int, default=2, choices=range(2, 7), metavar="N",
                   help="number of players, 2 to 6; a 6th seat needs an expansion that adds "
                        "one (default: 2)")
    g.add_argument("--seed", type=int, default=0, help="seed of the first game; game k of "
                   "--count uses seed + k, so a seed always gives the same game (default: 0)")
    g.add_argument("--count", type=whole_number(1, unit="game"), default=1, metavar="N",
                   help="how many games; more than 1 needs --out (default: 1)")
    g.add_argument("--out", metavar="DIR", help="write DIR/<game>-<players>p-<seed>.json for "
                   "each game (default: the one game to stdout)")
    add_rules(g)
    g.add_argument("--tileset", metavar="FILE", help="a tile-set file replacing the game's "
                   "built-in one, recorded in the log (default: the built-in set)")
    g.set_defaults(func=cmd_generate)


def add_game(parser: argparse.ArgumentParser) -> None:
    """``--game NAME``, an installed family (default: the first), for ``generate``, ``play``
    and ``arena``."""
    names = [f.name for f in families()]
    parser.add_argument("--game", type=_game, metavar="{" + ",".join(names) + "}",
                        default=names[0], help="the game: " + ", ".join(
                            f"{f.name} ({f.label})" for f in families())
                        + f" (default: {names[0]})")


def add_rules(parser: argparse.ArgumentParser) -> None:
    """``--expansions LIST`` and a ``--<option> VALUE`` for every rule option of every family
    (checked against the game by ``cli.game_options``), for ``generate``, ``play`` and
    ``arena``."""
    parser.add_argument("--expansions", type=_expansions, default=(), metavar="LIST",
                        help="comma-separated expansions: " + ", ".join(dict.fromkeys(
                            f"{x} ({e.label})" for f in families()
                            for x, e in f.expansions.items())) + " (default: none)")
    for opt in all_options():
        parser.add_argument(f"--{opt.key.replace('_', '-')}", dest=opt.key,
                            type=type(opt.default), choices=opt.choices, default=None,
                            help=_option_help(opt))


def _add_import(sub: Any) -> None:
    im = _command(sub, "import", HELP["import"], "Convert foreign saved games to logs v1 "
                  "(verify and render read them directly too); problems met go to stderr.")
    im.add_argument("sources", nargs="+", metavar="SRC",
                    help="saved games to convert (JCloisterZone .jcz, Board Game Arena JSON)")
    im.add_argument("-o", "--out", metavar="DIR", help="write DIR/<name>.json for each source "
                    "(default: stdout, one source only)")
    im.set_defaults(func=cmd_import)


def _add_render(sub: Any) -> None:
    r = _command(sub, "render", HELP["render"],
                 "Draw the board of a log at one position as SVG (the picture the web viewer "
                 "shows). " + NUMBERING)
    r.add_argument("file", metavar="FILE", help="the log (or foreign save) to draw")
    r.add_argument("--move", type=int, default=None, metavar="N",
                   help="the board after move N: 1 is the first move, 0 the start (default: "
                        "the last move; for an illegal log, the illegal move, in red)")
    r.add_argument("-o", "--output", metavar="OUT", help="write the SVG here (default: "
                   "stdout)")
    r.add_argument("--size", type=int, default=None, metavar="PX", help="width in pixels "
                   "(default: none, the picture fills its container)")
    r.add_argument("--tileset", metavar="FILE", help="a tile-set file to use instead of the "
                   "built-in one of the log's game (default: the built-in set)")
    r.set_defaults(func=cmd_render)


