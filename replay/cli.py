"""``python -m replay`` / ``carcassonne-replay``: generate, verify, render, serve."""

from __future__ import annotations

import argparse
import json
import os
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cli_help import (
    EXAMPLES,
    NUMBERING,
    Progress,
    VersionAction,
    generate_examples,
    plural,
)
from .core.errors import IllegalMove, LogFormatError, ReplayError, TileSetError
from .core.family import Option, families, family
from .core.verify import (
    EXIT_BROKEN_PIPE,
    EXIT_ILLEGAL,
    EXIT_INTERNAL,
    EXIT_UNREADABLE,
    EXIT_VALID,
    verify_file,
)

if TYPE_CHECKING:
    from .tiles.tileset import TileSet

# the commands, in the order the help lists them; a command line starting with one of them
# builds only that command's arguments (``build_parser(only=...)``)
COMMANDS = ("verify", "generate", "import", "render", "audit", "ingest", "serve")


def _expansions(text: str) -> tuple[str, ...]:
    known = [x for f in families() for x in f.expansions]
    items = tuple(x.strip() for x in text.split(",") if x.strip())
    for x in items:
        if x not in known:
            raise argparse.ArgumentTypeError(
                f"unknown expansion {x!r} (choose from {', '.join(known)})")
    return items


def _all_options() -> list[Option]:
    """Every rule option of every family, once by key."""
    seen: dict[str, Option] = {}
    for fam in families():
        for opt in fam.options:
            seen.setdefault(opt.key, opt)
    return list(seen.values())


def _tileset(path: str | None) -> TileSet | None:
    if path is None:
        return None
    from .tiles.sets import load_tileset_file

    return load_tileset_file(path)


def cmd_verify(args: argparse.Namespace) -> int:
    """``verify``: print each log's report, then after several files a summary line
    (``N files: X valid, Y invalid, Z unreadable``); the exit code is the worst of them."""
    tileset = _tileset(args.tileset)
    worst = EXIT_VALID
    counts = {"valid": 0, "invalid": 0, "unreadable": 0, "internal error": 0}
    # a counter on stderr only when the lines do not go to the same terminal
    progress = Progress(len(args.files), "verified", enabled=not sys.stdout.isatty())
    with progress:
        for name in args.files:
            code = _verify_one(args, name, tileset)
            counts[{EXIT_VALID: "valid", EXIT_ILLEGAL: "invalid",
                    EXIT_UNREADABLE: "unreadable"}.get(code, "internal error")] += 1
            worst = max(worst, code)
            progress.tick()
    if len(args.files) > 1:
        parts = [f"{counts['valid']} valid", f"{counts['invalid']} invalid",
                 f"{counts['unreadable']} unreadable"]
        if counts["internal error"]:
            parts.append(plural(counts["internal error"], "internal error"))
        print(f"{plural(len(args.files), 'file')}: {', '.join(parts)}",
              file=sys.stderr if args.json else sys.stdout)
    return worst


def _verify_one(args: argparse.Namespace, name: str, tileset: TileSet | None) -> int:
    """Verify one file and print its report; its exit code."""
    try:
        report = verify_file(name, tileset, args.max_bytes)
    except Exception as exc:  # a bug of ours: say so, and go on with the next file
        message = internal_error(exc)
        if args.json:
            print(json.dumps({"file": name, "valid": None, "error": {
                "rule": "internal", "message": message}}, ensure_ascii=False))
        print(f"{name}: {message}", file=sys.stderr)
        return EXIT_INTERNAL
    if args.json:
        print(json.dumps(report.as_json(), ensure_ascii=False))
        return report.exit_code
    print(report.line())
    if args.verbose and report.claims:
        for c in report.claims[1:]:
            print(f"    also: {c['message']}")
    if args.verbose:
        for p in report.problems:
            print(f"    import: {p['where'] + ': ' if p['where'] else ''}"
                  f"{p['message']} [{p['code']}]")
    return report.exit_code


def cmd_import(args: argparse.Namespace) -> int:
    """``import``: convert foreign saved games to logs v1 (stdout for one source without
    ``-o``, else one file each in ``-o DIR``); their problems go to stderr. 2 when a source
    is unreadable, not a foreign format, or refused."""
    from .core.record import foreign, read_file
    from .generate import dumps
    from .importers import ImportRefused, importers

    if len(args.sources) > 1 and not args.out:
        print("import: several sources need -o DIR", file=sys.stderr)
        return EXIT_UNREADABLE
    out_dir = Path(args.out) if args.out else None
    worst = EXIT_VALID
    for name in args.sources:
        try:
            imported = foreign(read_file(name))
        except ImportRefused as exc:
            print(f"{name}: refused: {exc.message}", file=sys.stderr)
            for p in exc.problems:
                if not p.fatal:
                    print(f"    {p.line()}", file=sys.stderr)
            worst = EXIT_UNREADABLE
            continue
        except LogFormatError as exc:
            print(f"{name}: unreadable: {exc}", file=sys.stderr)
            worst = EXIT_UNREADABLE
            continue
        if imported is None:
            known = ", ".join(i.label for i in importers())
            print(f"{name}: not a format this command imports (a log v1 needs no import; "
                  f"known: {known})", file=sys.stderr)
            worst = EXIT_UNREADABLE
            continue
        for p in imported.problems:
            print(f"{name}: {p.line()}", file=sys.stderr)
        text = dumps(imported.log)
        if out_dir is None:
            sys.stdout.write(text)
        else:
            out_dir.mkdir(parents=True, exist_ok=True)
            target = out_dir / (Path(name).stem + ".json")
            target.write_text(text, encoding="utf-8")
            print(f"{name}: {imported.format} -> {target}", file=sys.stderr)
    return worst


def cmd_generate(args: argparse.Namespace) -> int:
    """``generate``: write random legal games, to stdout or one file each in ``--out``; 2 for
    arguments the game does not accept."""
    from .generate import dumps, generate_log

    fam = family(args.game)
    known = {o.key for o in fam.options}
    options: dict[str, Any] = {}
    for opt in _all_options():
        value = getattr(args, opt.key)
        if value is None:
            continue
        if opt.key not in known:
            print(f"generate: --{opt.key.replace('_', '-')} is not an option of {fam.label}",
                  file=sys.stderr)
            return EXIT_UNREADABLE
        options[opt.key] = value
    tileset = _tileset(args.tileset)
    try:
        fam.check_expansions(list(args.expansions))
        fam.check_players(args.players, list(args.expansions))
        fam.option_values(options, list(args.expansions))
        if tileset is not None and tileset.game != fam.name:
            raise LogFormatError(f"tile set {tileset.id} is for {tileset.game}, not {fam.name}")
    except (LogFormatError, IllegalMove) as exc:
        rule = f" ({exc.rule})" if isinstance(exc, IllegalMove) else ""
        print(f"generate: {exc.message}{rule}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.count > 1 and not args.out:
        print("generate: --count above 1 needs --out DIR", file=sys.stderr)
        return EXIT_UNREADABLE
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    with Progress(args.count, "generated", enabled=out_dir is not None) as progress:
        for k in range(args.count):
            seed = args.seed + k
            log = generate_log(fam.name, args.players, seed, args.expansions, options, tileset)
            text = dumps(log)
            if out_dir is None:
                sys.stdout.write(text)
            else:
                path = out_dir / f"{args.game}-{args.players}p-{seed}.json"
                path.write_text(text, encoding="utf-8")
            progress.tick()
    if out_dir is not None:
        print(f"wrote {plural(args.count, 'game')} to {out_dir}", file=sys.stderr)
    return EXIT_VALID


def cmd_render(args: argparse.Namespace) -> int:
    """Draw one position of a log as SVG (the picture the web viewer shows)."""
    from . import svg
    from .core.record import read_game

    try:
        log = read_game(Path(args.file), _tileset(args.tileset))
    except LogFormatError as exc:
        print(f"{args.file}: unreadable: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except IllegalMove as exc:
        print(f"{args.file}: INVALID at header: {exc.rule}: {exc.message}", file=sys.stderr)
        return EXIT_ILLEGAL
    try:
        picture = svg.render(log, args.move, size=args.size)
    except IndexError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.output in (None, "-"):
        sys.stdout.write(picture)
    else:
        Path(args.output).write_text(picture, encoding="utf-8")
    return EXIT_VALID


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the web app (SQLite file ``--db``): waitress, or Werkzeug's development server
    with ``--debug``."""
    from web.server import Settings, serve

    config: dict[str, Any] = {"DATABASE": args.db, "RATE_LIMIT": args.rate_limit}
    if args.debug:
        from web.app import create_app

        app = create_app(config)
        app.run(host=args.host, port=args.port, debug=True, use_reloader=False, threaded=True)
        return EXIT_VALID
    return serve(config, Settings(host=args.host, port=args.port, processes=args.processes,
                                  threads=args.threads, channel_timeout=args.timeout))


def _rate(text: str) -> str | None:
    from web.limits import parse_rate

    if text.strip().lower() in ("off", "none", "0"):
        return None
    try:
        parse_rate(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"{value} is not from 1 to 64")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} games: give 1 or more")
    return value


def _command(sub: Any, name: str, help_text: str, description: str) -> argparse.ArgumentParser:
    """A sub-command with its description, its examples (``cli_help.EXAMPLES``) and the move
    numbering."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help_text, description=description,
        epilog=generate_examples() if name == "generate" else EXAMPLES.get(name),
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
    "serve": "serve the web viewer and the JSON API",
}


@cache
def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line: ``verify``, ``generate``, ``import``, ``render``, ``audit``,
    ``ingest`` and ``serve`` (built once); every option says its default, every command shows
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
    if only in (None, "audit", "ingest"):
        from .audit.parsers import add_parsers

        add_parsers(sub)  # their code is imported when they run
    if only in (None, "serve"):
        _add_serve(sub)
    return parser


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
    names = [f.name for f in families()]
    g.add_argument("--game", choices=names, default=names[0],
                   help="the game: " + ", ".join(f"{f.name} ({f.label})" for f in families())
                   + f" (default: {names[0]})")
    g.add_argument("--players", type=int, default=2, choices=range(2, 7), metavar="N",
                   help="number of players, 2 to 6; a 6th seat needs an expansion that adds "
                        "one (default: 2)")
    g.add_argument("--seed", type=int, default=0, help="seed of the first game; game k of "
                   "--count uses seed + k, so a seed always gives the same game (default: 0)")
    g.add_argument("--count", type=_count, default=1, metavar="N",
                   help="how many games; more than 1 needs --out (default: 1)")
    g.add_argument("--out", metavar="DIR", help="write DIR/<game>-<players>p-<seed>.json for "
                   "each game (default: the one game to stdout)")
    g.add_argument("--expansions", type=_expansions, default=(), metavar="LIST",
                   help="comma-separated expansions: " + ", ".join(
                       f"{x} ({e.label})" for f in families() for x, e in f.expansions.items())
                   + " (default: none)")
    for opt in _all_options():
        g.add_argument(f"--{opt.key.replace('_', '-')}", dest=opt.key,
                       type=type(opt.default), choices=opt.choices, default=None,
                       help=_option_help(opt))
    g.add_argument("--tileset", metavar="FILE", help="a tile-set file replacing the game's "
                   "built-in one, recorded in the log (default: the built-in set)")
    g.set_defaults(func=cmd_generate)


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


def _add_serve(sub: Any) -> None:
    from web.server import Settings

    defaults = Settings()
    s = _command(sub, "serve", HELP["serve"],
                 "Serve the upload page, the viewer and the JSON API (waitress; Werkzeug with "
                 "--debug).")
    s.add_argument("--host", default=defaults.host, help="address to listen on; 0.0.0.0 for "
                   f"every interface (default: {defaults.host})")
    s.add_argument("--port", type=int, default=defaults.port,
                   help=f"TCP port (default: {defaults.port})")
    s.add_argument("--db", default="games.db", metavar="PATH",
                   help="SQLite file holding the games, made when missing (default: games.db "
                        "in the current directory)")
    s.add_argument("--processes", type=_positive, default=defaults.processes, metavar="N",
                   help=f"server processes sharing the port (default: {defaults.processes})")
    s.add_argument("--threads", type=_positive, default=defaults.threads, metavar="N",
                   help="requests handled at once per process; more wait their turn "
                        f"(default: {defaults.threads})")
    s.add_argument("--timeout", type=_positive, default=defaults.channel_timeout,
                   metavar="S", help="close a connection silent this many seconds "
                                     f"(default: {defaults.channel_timeout})")
    s.add_argument("--rate-limit", type=_rate, default="60/60", metavar="N/S",
                   help="uploads and verifications a client may make in S seconds, or "
                        "'off'; above it: 429 with Retry-After (default: 60/60)")
    s.add_argument("--debug", action="store_true",
                   help="Werkzeug's development server: one process, reloads nothing "
                        "(default: off)")
    s.set_defaults(func=cmd_serve)


def internal_error(exc: BaseException) -> str:
    """The one line said of an exception that is a bug of ours, not a fault of the input."""
    return (f"internal error ({type(exc).__name__}: {str(exc)[:200]}); this is a bug of the "
            "verifier, not a verdict on the log: please report it with the log")


def main(argv: list[str] | None = None) -> int:
    """Run the command line. Exit codes: 0 valid, 1 illegal, 2 unreadable or bad arguments,
    3 internal error (a bug, never a verdict), 130 on Ctrl-C, 141 when the reader of the
    output went away (``... | head -1``: quietly)."""
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a player's name
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(words)
    try:
        code: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit: point it at nothing
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except TileSetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except ReplayError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ILLEGAL
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(f"{args.command}: {internal_error(exc)}", file=sys.stderr)
        return EXIT_INTERNAL
    return code


if __name__ == "__main__":
    sys.exit(main())
