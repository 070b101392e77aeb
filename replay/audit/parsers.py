"""The ``audit`` and ``ingest`` commands' arguments. Kept apart from ``command`` so that the
command line builds its parser without importing the audit machinery (start-up time): each
command's code is imported when it runs."""

from __future__ import annotations

import argparse
from typing import Any

from ..cli_help import whole_number
from ..core.json_input import MAX_BYTES

FORMATS = ("text", "json", "csv", "html")


def cmd_audit(args: argparse.Namespace) -> int:
    """``python -m replay audit``."""
    from .command import cmd_audit as run

    return run(args)


def cmd_ingest(args: argparse.Namespace) -> int:
    """``python -m replay ingest``."""
    from .command import cmd_ingest as run

    return run(args)


def add_parsers(sub: Any) -> None:
    """The ``audit`` and ``ingest`` commands of the command line."""
    a = sub.add_parser("audit", help="verify a corpus (files, directories, zip and tar "
                                     "archives, JSON Lines) on every core; one report")
    a.add_argument("sources", nargs="+", metavar="SRC")
    a.add_argument("--jobs", type=whole_number(1, 1024), default=None, metavar="N",
                   help="worker processes (default: every core)")
    a.add_argument("--format", choices=FORMATS, default="text",
                   help="text (non-valid games and the summary), json (JSON Lines: verify "
                        "--json per game, then the summary), csv, html (one page)")
    a.add_argument("--out", metavar="FILE", help="write the report here (default: stdout)")
    a.add_argument("--fail-fast", action="store_true",
                   help="stop at the first game that is not valid")
    a.add_argument("--resume", metavar="FILE",
                   help="checkpoint: rows finished are appended here, and an audit started "
                        "again with it continues where it stopped")
    a.add_argument("--viewer", metavar="URL", help="link the HTML report's games to this web "
                                                   "viewer (e.g. http://127.0.0.1:5000)")
    a.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster (a scheduler's "
                                                     "address, or 'local' for a LocalCluster)")
    a.add_argument("--shared-fs", action="store_true",
                   help="with --dask ADDRESS: the workers see these paths (send paths, not "
                        "bytes)")
    a.add_argument("--batch", type=whole_number(1, 1024), default=None, metavar="N",
                   help="games sent to a worker at a time (default 16 on the local pool, "
                        "256 on Dask)")
    a.add_argument("--max-bytes", type=int, default=MAX_BYTES, help="largest log read "
                                                                    "(default 5 MB)")
    a.add_argument("-v", "--verbose", action="store_true",
                   help="text: a line for every game, valid ones too")
    a.set_defaults(func=cmd_audit)

    i = sub.add_parser("ingest", help="store a corpus in the web app's SQLite library "
                                      "(deduplicated, in batches)")
    i.add_argument("sources", nargs="+", metavar="SRC")
    i.add_argument("--db", default="games.db", metavar="PATH",
                   help="SQLite file of the library (default: games.db here)")
    i.add_argument("--jobs", type=whole_number(1, 1024), default=None, metavar="N",
                   help="worker processes (default: every core)")
    i.add_argument("--batch", type=whole_number(1, 1024), default=500, metavar="N",
                   help="games stored per transaction (default 500)")
    i.add_argument("--max-bytes", type=int, default=MAX_BYTES, help="largest log read "
                                                                    "(default 5 MB)")
    i.set_defaults(func=cmd_ingest)
