"""``python -m replay`` / ``carcassonne-replay``: generate, verify, render, serve."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .core.errors import IllegalMove, LogFormatError, ReplayError, TileSetError
from .core.family import Option, families, family
from .core.verify import EXIT_ILLEGAL, EXIT_UNREADABLE, EXIT_VALID, verify_file
from .generate import dumps, generate_log
from .tiles.tileset import TileSet, load_tileset_file


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
    return None if path is None else load_tileset_file(path)


def cmd_verify(args: argparse.Namespace) -> int:
    """``verify``: print each log's report; the exit code is the worst of them."""
    tileset = _tileset(args.tileset)
    worst = EXIT_VALID
    for name in args.files:
        report = verify_file(name, tileset, args.max_bytes)
        if args.json:
            print(json.dumps(report.as_json(), ensure_ascii=False))
        else:
            print(report.line())
            if args.verbose and report.claims:
                for c in report.claims[1:]:
                    print(f"    also: {c['message']}")
        worst = max(worst, report.exit_code)
    return worst


def cmd_generate(args: argparse.Namespace) -> int:
    """``generate``: write random legal games, to stdout or one file each in ``--out``; 2 for
    arguments the game does not accept."""
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
    for k in range(args.count):
        seed = args.seed + k
        log = generate_log(fam.name, args.players, seed, args.expansions, options, tileset)
        text = dumps(log)
        if out_dir is None:
            sys.stdout.write(text)
        else:
            path = out_dir / f"{args.game}-{args.players}p-{seed}.json"
            path.write_text(text, encoding="utf-8")
            if args.count > 1 and sys.stderr.isatty():
                print(f"\r{k + 1}/{args.count} games", end="", file=sys.stderr, flush=True)
    if out_dir is not None:
        if args.count > 1 and sys.stderr.isatty():
            print(file=sys.stderr)
        print(f"wrote {args.count} game{'s' if args.count > 1 else ''} to {out_dir}",
              file=sys.stderr)
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
    """Serve the web app (Flask, SQLite file ``--db``)."""
    from web.app import create_app

    app = create_app({"DATABASE": args.db})
    print(f"serving http://{args.host}:{args.port}/ (games in {Path(args.db).resolve()})",
          file=sys.stderr)
    app.run(host=args.host, port=args.port, debug=False, use_reloader=False, threaded=True)
    return EXIT_VALID


def build_parser() -> argparse.ArgumentParser:
    """The command line: ``verify``, ``generate``, ``render`` and ``serve``."""
    parser = argparse.ArgumentParser(
        prog="python -m replay",
        description="Replay, verify, generate and draw recorded games: "
        + ", ".join(f.label for f in families()) + ".")
    sub = parser.add_subparsers(dest="command", required=True)

    v = sub.add_parser("verify", help="verify logs: exit 0 valid, 1 illegal move or wrong claim, "
                                      "2 unreadable or schema-invalid")
    v.add_argument("files", nargs="+", metavar="FILE")
    v.add_argument("--json", action="store_true", help="one JSON object per file")
    v.add_argument("--tileset", metavar="FILE", help="a tile-set file to use instead of the "
                                                     "built-in one of the log's game")
    v.add_argument("--max-bytes", type=int, default=None, help="largest log accepted "
                                                               "(default 5 MB)")
    v.add_argument("-v", "--verbose", action="store_true", help="list every wrong claim")
    v.set_defaults(func=cmd_verify)

    g = sub.add_parser("generate", help="write random legal games")
    names = [f.name for f in families()]
    g.add_argument("--game", choices=names, default=names[0])
    g.add_argument("--players", type=int, default=2, choices=range(2, 7), metavar="N")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--count", type=int, default=1)
    g.add_argument("--out", metavar="DIR", help="write files here (default: stdout)")
    g.add_argument("--expansions", type=_expansions, default=(),
                   help="comma-separated: " + ",".join(x for f in families()
                                                       for x in f.expansions))
    for opt in _all_options():
        g.add_argument(f"--{opt.key.replace('_', '-')}", dest=opt.key,
                       type=type(opt.default), choices=opt.choices, default=None,
                       help=f"{opt.rule}: {opt.help} (default {opt.default})")
    g.add_argument("--tileset", metavar="FILE", help="a tile-set file replacing the game's "
                                                     "built-in one (recorded in the log)")
    g.set_defaults(func=cmd_generate)

    r = sub.add_parser("render", help="draw a position of a log as SVG")
    r.add_argument("file", metavar="FILE")
    r.add_argument("--move", type=int, default=None, metavar="N",
                   help="the position after N moves (default: the last; for an illegal log, "
                        "its failing move)")
    r.add_argument("-o", "--output", metavar="OUT", help="write here (default: stdout)")
    r.add_argument("--size", type=int, default=None, metavar="PX", help="width in pixels "
                   "(default: none, the picture fills its container)")
    r.add_argument("--tileset", metavar="FILE", help="a tile-set file to use instead of the "
                                                     "built-in one of the log's game")
    r.set_defaults(func=cmd_render)

    s = sub.add_parser("serve", help="serve the web viewer")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=5000)
    s.add_argument("--db", default="games.db", metavar="PATH",
                   help="SQLite file holding the games (default: games.db here)")
    s.set_defaults(func=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the exit code: 0 valid, 1 illegal, 2 unreadable (130 on Ctrl-C)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except TileSetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except ReplayError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ILLEGAL
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
