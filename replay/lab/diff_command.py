"""The arguments of ``python -m replay diff``. Kept apart from its machinery (``diff_run``,
imported when the command runs) so that the command line builds its parser cheaply; a setting
``KEY=VALUE`` is read here against the installed families' options (exit 2 with a clear
message for a key no family has, or a value the option does not take)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..cli_help import add_dask, whole_number
from ..core.json_input import MAX_BYTES

FORMATS = ("text", "json", "csv", "html")
HELP = ("replay a corpus under two rule sets (--a/--b KEY=VALUE) or against an earlier "
        "engine's audit report (--baseline): which games change, where, and the score shifts")
DESCRIPTION = """\
Replay every game of the sources (files, directories, zip and tar archives, JSON Lines: read
as audit reads them) twice, and report the games that come out differently:

  --a/--b KEY=VALUE  under rule set A and under rule set B: KEY is an option of the game's
                     family, or game=NAME to play the log as another family (a house-rule
                     variant); a key not given keeps the log's own value; the logs' claims
                     are ignored (they were made under the log's own rules);
  --baseline REPORT  today's engine against the one that wrote REPORT ('audit --format json'
                     of the same sources; games matched by name): a different state hash
                     after a move counts as a change too.

A game changes when the two replays differ in legality, in the events of a move or in the
scores after it; its first diverging move (counted from 1; 0: the header or the setup) is
reported with what each side did there. The summary gives the mean score change B - A per
seat and per kind of scoring, each with a 95 % Student t-interval."""
EXAMPLES = """examples:
  python -m replay diff corpus/ --a small_city=2 --b small_city=4
  python -m replay diff games.zip --b farm_scoring=per-field --format html --out diff.html \\
      --viewer http://127.0.0.1:5000
  python -m replay diff logs.jsonl --b game=my-variant --format json --out diff.jsonl
  python -m replay diff corpus/ --a small_city=2 --b small_city=4 --jobs 4   # or --dask local

  # an engine change: the audit of the earlier version, then today's engine against it
  python -m replay audit corpus/ --format json --out before.jsonl
  python -m replay diff corpus/ --baseline before.jsonl --format csv --out changes.csv

Exit codes: 0 every game compared and none changed, 1 some game changed, 2 bad arguments
or an unreadable baseline report, or some game not compared (unreadable, not comparable, not
in the baseline report), 3 an internal error on some game (the worst of the games wins, as
audit's verdicts do)."""

GAME = "game"  # as ``diff.GAME`` (not imported: the parser stays light)


def cmd_diff(args: argparse.Namespace) -> int:
    """``python -m replay diff``."""
    if bool(args.a or args.b) == bool(args.baseline):
        print("python -m replay diff: error: give rule sets (--a KEY=VALUE and/or --b "
              "KEY=VALUE) or --baseline REPORT, not both (see --help)"
              if args.baseline else
              "python -m replay diff: error: nothing to compare: give --a KEY=VALUE and/or "
              "--b KEY=VALUE (e.g. --a small_city=2 --b small_city=4), or --baseline REPORT",
              file=sys.stderr)
        return 2
    from .diff_run import cmd_diff as run

    return run(args)


def _as(kind: type, text: str) -> Any:
    """``text`` as a value of the type ``kind`` (an option default's); ValueError if not."""
    if kind is bool:
        low = text.lower()
        if low not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(text)
        return low in ("true", "1", "yes")
    return kind(text)


def setting(text: str) -> tuple[str, Any]:
    """``KEY=VALUE``: ``game`` and an installed family's name, or an option of some
    installed family and a value it takes (converted to the option's type)."""
    from ..core.errors import LogFormatError
    from ..core.family import families, family, not_installed

    key, eq, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not eq or not key or not raw:
        raise argparse.ArgumentTypeError(f"{text!r}: give KEY=VALUE (e.g. small_city=4, or "
                                         "game=NAME)")
    if key == GAME:
        try:
            family(raw)
        except LogFormatError:
            raise argparse.ArgumentTypeError(not_installed(raw)) from None
        return key, raw
    options = [o for f in families() for o in f.options if o.key == key]
    if not options:
        keys = sorted({o.key for f in families() for o in f.options})
        raise argparse.ArgumentTypeError(
            f"{key!r} is not an option of any installed game (options: {', '.join(keys)}; "
            "or game=NAME)")
    for opt in options:
        try:
            value = _as(type(opt.default), raw)
        except ValueError:
            continue
        if value in opt.choices:
            return key, value
    choices = sorted({str(c) for o in options for c in o.choices})
    raise argparse.ArgumentTypeError(f"{raw!r} is not a value of {key} (choose from "
                                     f"{', '.join(choices)})")


class Settings(argparse.Action):
    """``--a KEY=VALUE`` repeated: one rule set, a key at most once."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None,
                 option_string: str | None = None) -> None:
        assert isinstance(values, tuple)  # ``setting`` made it
        key, value = values
        found = dict(getattr(namespace, self.dest) or {})
        if key in found:
            parser.error(f"argument {option_string}: {key} is given twice")
        found[key] = value
        setattr(namespace, self.dest, found)


def add_rule_sets(parser: argparse.ArgumentParser, default: str) -> None:
    """The options ``--a`` and ``--b``: two rule sets as KEY=VALUE settings (``setting``),
    repeated for more (``Settings``); ``default`` says what a rule not given is."""
    for side in ("a", "b"):
        parser.add_argument(f"--{side}", action=Settings, type=setting, default={},
                            metavar="KEY=VALUE",
                            help=f"rule set {side.upper()}: an option of the game's family "
                                 f"(small_city=4) or game=NAME; repeat for more (default: "
                                 f"{default})")


def add_parser(sub: Any, command: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``diff`` command (``command``: ``cli_parser._command``, a sub-command with its
    description and examples)."""
    d = command(sub, "diff", HELP, DESCRIPTION, EXAMPLES)
    d.add_argument("sources", nargs="+", metavar="SRC",
                   help="files, directories, zip and tar archives, JSON Lines files")
    add_rule_sets(d, "the log's own rules")
    d.add_argument("--baseline", metavar="REPORT",
                   help="compare with the engine that wrote REPORT ('audit --format json' of "
                        "the same sources) instead of two rule sets (default: none)")
    d.add_argument("--format", choices=FORMATS, default="text",
                   help="text (a line per changed game, then the summary; default), json "
                        "(JSON Lines: an object per game, then the summary), csv, html (one "
                        "page)")
    d.add_argument("--out", metavar="FILE", help="write the report here (default: stdout)")
    d.add_argument("--viewer", metavar="URL", help="link the HTML report's changed games to "
                   "this web viewer (e.g. http://127.0.0.1:5000; default: no links)")
    d.add_argument("--jobs", type=whole_number(1, 1024), default=None, metavar="N",
                   help="worker processes (default: every core)")
    add_dask(d)
    d.add_argument("--batch", type=whole_number(1, 1024), default=None, metavar="N",
                   help="games sent to a worker at a time (default 16 on the local pool, "
                        "256 on Dask)")
    d.add_argument("--max-bytes", type=int, default=MAX_BYTES, metavar="N",
                   help="largest log read, in bytes (default 5 MB)")
    d.add_argument("-v", "--verbose", action="store_true",
                   help="text: a line for every game, unchanged ones too (default: off)")
    d.set_defaults(func=cmd_diff)
