"""``python -m replay`` / ``carcassonne-replay``: generate, verify, render, serve."""

from __future__ import annotations

import json
import os
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from .cli_help import Progress, plural
from .core.errors import IllegalMove, LogFormatError, ReplayError, TileSetError
from .core.json_input import MAX_BYTES
from .core.printable import printable
from .core.verify import (
    EXIT_BROKEN_PIPE,
    EXIT_ILLEGAL,
    EXIT_INTERNAL,
    EXIT_UNREADABLE,
    EXIT_VALID,
    internal_message,
    internal_report,
    verify,
)

if TYPE_CHECKING:
    from argparse import Namespace
    from pathlib import Path

    from .tiles.tileset import TileSet

# the commands, in the order the help lists them; a command line starting with one of them
# builds only that command's arguments (``cli_parser.build_parser(only=...)``)
COMMANDS = ("verify", "generate", "import", "render", "audit", "ingest", "export", "diff",
            "fuzz", "play", "arena", "analyse", "balance", "data", "serve")


def _tileset(path: str | None) -> TileSet | None:
    if path is None:
        return None
    from .tiles.sets import load_tileset_file

    return load_tileset_file(path)


def cmd_verify(args: Namespace) -> int:
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


def _verify_one(args: Namespace, name: str, tileset: TileSet | None) -> int:
    """Verify one file and print its report; its exit code."""
    try:
        report = verify(name, tileset, args.max_bytes or MAX_BYTES)
    except Exception as exc:  # a bug of ours: say so, and go on with the next file
        report = internal_report(name, exc)
    if args.json:
        print(json.dumps(report.as_json(), ensure_ascii=False))
        if report.internal:
            print(report.line(), file=sys.stderr)
        return report.exit_code
    print(report.line(), file=sys.stderr if report.internal else sys.stdout)
    if args.verbose:
        for c in report.claims[1:]:
            print(printable(f"    also: {c.message}"))
        for p in report.problems:
            print(printable(f"    import: {p.line()}"))
    return report.exit_code


class OutputNames:
    """The file each source of ``import -o DIR`` is written to: ``DIR/<its name>.json``, or,
    when an earlier source of the same run took that name (saves of one name in several
    folders, or ``a.jcz`` and ``a.json``), ``DIR/<its name>-2.json``, ``-3``...: every output
    is kept, and the renaming said (names compared ignoring case, as some file systems do)."""

    def __init__(self) -> None:
        self.taken: dict[str, str] = {}  # a file name written, case-folded -> its source
        self.written = 0
        self.renamed = 0

    def take(self, source: str, out_dir: Path) -> tuple[Path, str | None]:
        """The file for ``source``, and the earlier source that has its plain name (None:
        it has it)."""
        stem = os.path.splitext(os.path.basename(source))[0]
        name = f"{stem}.json"
        earlier = self.taken.get(name.casefold())
        k = 1
        while name.casefold() in self.taken:
            k += 1
            name = f"{stem}-{k}.json"
        self.taken[name.casefold()] = source
        self.written += 1
        self.renamed += earlier is not None
        return out_dir / name, earlier

    def summary(self, out_dir: Path) -> str:
        """What was written, in a line."""
        line = (f"import: {plural(self.written, 'save')} converted, "
                f"{plural(self.written, 'file')} written in {out_dir}")
        if self.renamed:
            line += (f"; {self.renamed} with a suffix (-2, -3, ...) because an earlier save "
                     "had the same name")
        return line


def cmd_import(args: Namespace) -> int:
    """``import``: convert foreign saved games to logs v1 (stdout for one source without
    ``-o``, else one file each in ``-o DIR``); their problems go to stderr. 2 when a source
    is unreadable, not a foreign format, or refused."""
    from pathlib import Path

    from .core.importing import ImportRefused, importers
    from .core.record import foreign, read_file
    from .generate import dumps

    if len(args.sources) > 1 and not args.out:
        print("import: several sources need -o DIR", file=sys.stderr)
        return EXIT_UNREADABLE
    out_dir = Path(args.out) if args.out else None
    worst = EXIT_VALID
    names = OutputNames()
    for name in args.sources:
        try:
            imported = foreign(read_file(name))
        except ImportRefused as exc:
            label = "" if exc.unsupported else "refused: "  # "unsupported: ..." says it
            print(printable(f"{name}: {label}{exc.message}"), file=sys.stderr)
            for p in exc.problems:
                if not p.fatal:
                    print(printable(f"    {p.line()}"), file=sys.stderr)
            worst = EXIT_UNREADABLE
            continue
        except LogFormatError as exc:
            print(printable(f"{name}: unreadable: {exc}"), file=sys.stderr)
            worst = EXIT_UNREADABLE
            continue
        if imported is None:
            known = ", ".join(i.label for i in importers())
            print(printable(f"{name}: not a format this command imports (a log v1 needs no "
                            f"import; known: {known})"), file=sys.stderr)
            worst = EXIT_UNREADABLE
            continue
        for p in imported.problems:
            print(printable(f"{name}: {p.line()}"), file=sys.stderr)
        text = dumps(imported.log)
        if out_dir is None:
            sys.stdout.write(text)
        else:
            out_dir.mkdir(parents=True, exist_ok=True)
            target, earlier = names.take(name, out_dir)
            target.write_text(text, encoding="utf-8")
            also = f" ({Path(name).stem}.json is {earlier}'s)" if earlier else ""
            print(printable(f"{name}: {imported.format} -> {target}{also}"), file=sys.stderr)
    if out_dir is not None and names.written:
        print(printable(names.summary(out_dir)), file=sys.stderr)
    return worst


def game_options(args: Namespace, command: str, players: int) -> dict[str, Any] | None:
    """The rule options given as ``--<option> VALUE`` (``cli_parser.all_options``) for
    ``args.game`` with ``args.expansions`` and ``players`` seats, checked against the family;
    None after a line on stderr saying what is wrong (``generate``, ``play``, ``arena``)."""
    from .cli_parser import all_options
    from .core.family import family

    fam = family(args.game)
    known = {o.key for o in fam.options}
    options: dict[str, Any] = {}
    for opt in all_options():
        value = getattr(args, opt.key)
        if value is None:
            continue
        if opt.key not in known:
            print(f"{command}: --{opt.key.replace('_', '-')} is not an option of {fam.label}",
                  file=sys.stderr)
            return None
        options[opt.key] = value
    try:
        fam.check_expansions(list(args.expansions))
        fam.check_players(players, list(args.expansions))
        fam.option_values(options, list(args.expansions))
    except (LogFormatError, IllegalMove) as exc:
        rule = f" ({exc.rule})" if isinstance(exc, IllegalMove) else ""
        print(f"{command}: {exc.message}{rule}", file=sys.stderr)
        return None
    return options


def cmd_generate(args: Namespace) -> int:
    """``generate``: write random legal games, to stdout or one file each in ``--out``; 2 for
    arguments the game does not accept."""
    from pathlib import Path

    from .core.family import family
    from .generate import dumps, generate_log

    options = game_options(args, "generate", args.players)
    if options is None:
        return EXIT_UNREADABLE
    fam = family(args.game)
    tileset = _tileset(args.tileset)
    if tileset is not None and tileset.game != fam.name:
        print(f"generate: tile set {tileset.id} is for {tileset.game}, not {fam.name}",
              file=sys.stderr)
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


def cmd_render(args: Namespace) -> int:
    """Draw one position of a log as SVG (the picture the web viewer shows)."""
    from pathlib import Path

    from . import svg
    from .core.record import read_game

    try:
        log = read_game(Path(args.file), _tileset(args.tileset))
    except LogFormatError as exc:
        print(printable(f"{args.file}: unreadable: {exc}"), file=sys.stderr)
        return EXIT_UNREADABLE
    except IllegalMove as exc:
        print(printable(f"{args.file}: INVALID at header: {exc.rule}: {exc.message}"),
              file=sys.stderr)
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


def _plain_verify(words: list[str]) -> SimpleNamespace | None:
    """The arguments of ``verify FILE...`` with no option, as the parser would give them
    (``cli_parser._add_verify``); None for any other command line, which the parser reads."""
    if len(words) < 2 or words[0] != "verify" or any(w.startswith("-") for w in words[1:]):
        return None
    return SimpleNamespace(command="verify", files=words[1:], json=False, tileset=None,
                           max_bytes=None, verbose=False, func=cmd_verify)


def main(argv: list[str] | None = None) -> int:
    """Run the command line. Exit codes: 0 valid, 1 illegal, 2 unreadable or bad arguments,
    3 internal error (a bug, never a verdict), 130 on Ctrl-C, 141 when the reader of the
    output went away (``... | head -1``: quietly)."""
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a player's name
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    words = sys.argv[1:] if argv is None else argv
    args: Any = _plain_verify(words)
    if args is None:
        from .core.family import FAMILY_GROUP, NO_FAMILIES
        from .core.plugins import entry_point

        if entry_point(FAMILY_GROUP) is None:
            print(f"python -m replay: {NO_FAMILIES}", file=sys.stderr)
            return EXIT_UNREADABLE
        from .cli_parser import build_parser  # argparse and its help: about 8 ms of a start

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
        print(printable(f"error: {exc}"), file=sys.stderr)
        return EXIT_UNREADABLE
    except ReplayError as exc:
        print(printable(f"error: {exc}"), file=sys.stderr)
        return EXIT_ILLEGAL
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(f"{args.command}: {internal_message(exc)}", file=sys.stderr)
        return EXIT_INTERNAL
    return code


if __name__ == "__main__":
    sys.exit(main())
