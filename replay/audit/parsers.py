"""The ``audit`` and ``ingest`` commands' arguments. Kept apart from ``command`` so that the
command line builds its parser without importing the audit machinery (start-up time): each
command's code is imported when it runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..cli_help import add_dask, whole_number
from ..core.json_input import MAX_BYTES

FORMATS = ("text", "json", "csv", "html")
SOURCES = ("files, directories (read recursively), zip and tar archives (.zip, .tar, .tar.gz, "
           ".tgz, .tar.bz2, .tar.xz) and JSON Lines files (.jsonl, .ndjson: a log a line); "
           "paths from the current directory")
AUDIT_DESCRIPTION = """\
Verify every game of a corpus on every core (or a Dask cluster) and write one report: the
verdicts are those of 'verify', game by game, in the order of the walk whatever the number of
workers. Games are named where they came from (games.zip!inner/a.json, logs.jsonl#12).
Archives are read in memory, never extracted; an entry that cannot be read (too large, a bomb,
an archive inside an archive, a cut archive) is reported as unreadable and the audit goes on.
The summary (games, verdicts, illegal by rule, what could not be read and why, games per
second) ends the text report and goes to stderr otherwise; on a terminal a progress bar shows
the rate and ETA. Ctrl-C stops it: with --resume FILE the games done are kept and the same
command goes on from there.

Exit codes: the worst verdict: 0 every game valid or unfinished, 1 an illegal move or a wrong
claim, 2 an unreadable game, a cut archive or bad arguments, 3 an internal error; 130 after
Ctrl-C."""
AUDIT_EXAMPLES = """examples:
  python -m replay audit corpus/ games.zip logs.tar.gz logs.jsonl
  python -m replay audit corpus/ --format html --out audit.html --viewer http://127.0.0.1:5000 \
      --ingest games.db                                      # then: python -m replay serve
  python -m replay audit corpus/ --format json --out audit.jsonl   # verify --json per game
  python -m replay audit corpus/ --format csv --out audit.csv --jobs 4 --fail-fast
  python -m replay audit big.tar.gz --resume audit.ckpt   # again after Ctrl-C: goes on from there
  python -m replay audit corpus/ --dask local              # on a Dask LocalCluster
  python -m replay audit /shared/corpus --dask tcp://scheduler:8786 --shared-fs"""
INGEST_DESCRIPTION = """\
Store the games of a corpus (read as 'audit' reads them) in the web app's SQLite library:
each game is checked as an upload is, and the new ones, valid or not, are stored in batches
(one transaction per --batch games). A game is stored once whatever the spelling of its file
(re-indented, another 'meta', a line of a .jsonl): a game already there is a duplicate, its
file's name and meta noted with it. A library made before games were known by their content is
merged first (the games stored twice, into the oldest; the first line says how many). The
counts (stored, duplicates, not stored and why) go to stderr. Exit codes: 0 every game stored
or there already, 2 some game not stored (unreadable) or bad arguments, 3 an internal error."""
INGEST_EXAMPLES = """examples:
  python -m replay ingest corpus/ games.zip --db games.db
  python -m replay ingest logs.jsonl --db /var/lib/replay/games.db --jobs 4 --batch 1000
  python -m replay serve --db games.db           # then browse them"""


EXPORT_DESCRIPTION = """\
Write the games of a corpus (read and verified as 'audit' reads them: archives, JSON Lines,
JCloisterZone and Board Game Arena saves, on every core or a Dask cluster) as data, outside
the web app: every game's row, its moves, the events of its replay, its results per seat and
its points by kind of scoring, the tables the library keeps (docs/auditing.md, "The games as
data"). Illegal games are exported with their verdict and the moves up to the illegal one; a
file that cannot be read is said on stderr and left out; a game met twice is exported once.

Formats (--format, else --out's suffix): sqlite (.db, .sqlite: one library file, the tables
with the games and their players; 'serve --db FILE' serves it, Datasette opens it), csv (a
directory: games.csv, moves.csv, events.csv, results.csv, result_points.csv, with headers),
parquet (the same five as .parquet files; needs pyarrow: pip install pyarrow).

--out is written whole or not at all: an existing --out is refused unless --force is given (a
directory then only when it holds nothing but an export's files), and is left as it was when
the export fails or is stopped. Ctrl-C stops it: with --resume FILE the games done are kept
and the same command goes on from there.

Exit codes: as audit's, the worst verdict: 0 every game valid or unfinished, 1 an illegal move
or a wrong claim, 2 an unreadable game (left out, the rest written) or bad arguments (nothing
written), 3 an internal error; 130 after Ctrl-C."""
EXPORT_EXAMPLES = """examples:
  python -m replay export corpus/ games.zip --out games.db        # SQLite
  python -m replay export logs.jsonl --out tables/ --format csv   # five CSV files
  python -m replay export corpus/ --out tables.parquet            # five Parquet files
  python -m replay export big.tar.gz --out big.db --jobs 4 --resume export.ckpt  # again: goes on
  python -m replay export corpus/ --out games.db --force          # replace games.db
  datasette games.db                                             # browse it"""


def cmd_audit(args: argparse.Namespace) -> int:
    """``python -m replay audit``."""
    from .command import cmd_audit as run

    return run(args)


def cmd_export(args: argparse.Namespace) -> int:
    """``python -m replay export``."""
    from .export import cmd_export as run

    return run(args)


def cmd_ingest(args: argparse.Namespace) -> int:
    """``python -m replay ingest``."""
    from .command import cmd_ingest as run

    return run(args)


def add_parsers(sub: Any, command: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``audit``, ``ingest`` and ``export`` commands of the command line; ``command(sub,
    name, help, description, examples)`` makes a sub-command as the others are made."""
    a = command(sub, "audit", "verify a corpus (files, directories, zip and tar archives, JSON "
                              "Lines) on every core; one report", AUDIT_DESCRIPTION,
                AUDIT_EXAMPLES)
    a.add_argument("sources", nargs="+", metavar="SRC", help="what to verify: " + SOURCES)
    a.add_argument("--jobs", type=whole_number(1, 1024), default=None, metavar="N",
                   help="worker processes (default: every core)")
    a.add_argument("--format", choices=FORMATS, default="text",
                   help="text (the games that are not valid, then the summary), json (JSON "
                        "Lines: verify --json per game, then the summary), csv, html (one "
                        "page) (default: text)")
    a.add_argument("--out", metavar="FILE", help="write the report here (default: stdout)")
    a.add_argument("--fail-fast", action="store_true",
                   help="stop at the first game that is not valid (default: off)")
    a.add_argument("--resume", metavar="FILE",
                   help="checkpoint: each finished game is appended here, and the same audit "
                        "started again with it goes on where it stopped, with the same report "
                        "(default: none, an interrupted audit starts over)")
    a.add_argument("--viewer", metavar="URL", help="link the HTML report's games to this web "
                   "viewer, e.g. http://127.0.0.1:5000; a link answers once its game is in "
                   "the viewer's library: see --ingest (default: no links)")
    a.add_argument("--ingest", metavar="DB", help="also store the games in the web library at "
                   "DB (the file 'serve --db' serves), as 'ingest' does, so that the viewer "
                   "shows them (default: nothing stored)")
    add_dask(a)
    a.add_argument("--batch", type=whole_number(1, 1024), default=None, metavar="N",
                   help="games sent to a worker at a time (default: 16 on the local pool, "
                        "256 on Dask)")
    a.add_argument("--max-bytes", type=int, default=MAX_BYTES, metavar="N",
                   help="largest log read, in bytes (default: 5 MB)")
    a.add_argument("-v", "--verbose", action="store_true",
                   help="text: a line for every game, valid ones too (default: off)")
    a.set_defaults(func=cmd_audit)

    i = command(sub, "ingest", "store a corpus in the web app's SQLite library "
                               "(deduplicated, in batches)", INGEST_DESCRIPTION, INGEST_EXAMPLES)
    i.add_argument("sources", nargs="+", metavar="SRC", help="what to store: " + SOURCES)
    i.add_argument("--db", default="games.db", metavar="PATH",
                   help="SQLite file of the library, made when missing (default: games.db "
                        "in the current directory)")
    i.add_argument("--jobs", type=whole_number(1, 1024), default=None, metavar="N",
                   help="worker processes (default: every core)")
    i.add_argument("--batch", type=whole_number(1, 1024), default=500, metavar="N",
                   help="games stored per transaction (default: 500)")
    i.add_argument("--max-bytes", type=int, default=MAX_BYTES, metavar="N",
                   help="largest log read, in bytes (default: 5 MB)")
    i.set_defaults(func=cmd_ingest)

    e = command(sub, "export", "write a corpus's games, moves, events and results as data: "
                               "SQLite, CSV or Parquet", EXPORT_DESCRIPTION, EXPORT_EXAMPLES)
    e.add_argument("sources", nargs="+", metavar="SRC", help="what to export: " + SOURCES)
    e.add_argument("--out", required=True, metavar="FILE",
                   help="required: the SQLite file, or the directory of CSV or Parquet files, "
                        "to write (refused when it exists, unless --force)")
    e.add_argument("--format", choices=("sqlite", "csv", "parquet"), default=None,
                   help="sqlite, csv or parquet (default: from --out's suffix: .db, .sqlite, "
                        ".sqlite3, .csv, .parquet)")
    e.add_argument("--force", action="store_true",
                   help="replace an existing --out (a directory only if it holds nothing but "
                        "an export's files) (default: off, refused)")
    e.add_argument("--jobs", type=whole_number(1, 1024), default=None, metavar="N",
                   help="worker processes (default: every core)")
    e.add_argument("--resume", metavar="FILE",
                   help="checkpoint: each finished game is appended here, and the same export "
                        "started again with it goes on where it stopped (default: none)")
    add_dask(e)
    e.add_argument("--batch", type=whole_number(1, 1024), default=None, metavar="N",
                   help="games sent to a worker at a time (default: 16 on the local pool, "
                        "256 on Dask)")
    e.add_argument("--max-bytes", type=whole_number(1, unit="byte"), default=MAX_BYTES,
                   metavar="N", help="largest log read, in bytes (default: 5 MB)")
    e.set_defaults(func=cmd_export)
