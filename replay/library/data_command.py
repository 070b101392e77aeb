"""``python -m replay data`` (``./run data``): the library in Datasette, with the metadata the
project writes (``replay.library.datasette``): described tables, facets and canned queries.

The metadata is made at each start from the installed families (a plugin's move columns are
described too), written to a temporary file for Datasette's ``--metadata`` and removed when it
stops; ``--metadata-out FILE`` writes it for those who run Datasette themselves. The library
is migrated first, as the web app does at start-up, so that a library stored before the tables
has them. Datasette runs in a process of its own (``python -m datasette``), imported only then.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..cli_help import whole_number

HELP = "browse and query the library in Datasette: tables, facets and canned queries"
DESCRIPTION = """\
Serve a library of stored games (the SQLite file of 'serve' and 'ingest') in Datasette, with
the project's metadata: every table and column described, facets (family, expansions,
verdict, winners; players, kinds of scoring and features in the tables of moves, events and
results) and canned queries: first-seat win rate by player count, points by kind of scoring
per player, average game length, the most common illegal-move rules. Any SQL runs too,
read-only. The library is migrated first (a library stored before the tables gets them)."""
EXAMPLES = """examples:
  python -m replay data                       # games.db here, on http://127.0.0.1:8001/
  python -m replay data --db /var/lib/replay/games.db --port 8002
  python -m replay data --metadata-out meta.json  # then: datasette games.db --metadata meta.json"""

HOST = "127.0.0.1"
PORT = 8001  # Datasette's own default; the web app's is 5000
TIME_LIMIT_MS = 5000  # a canned query over a large archive may take more than Datasette's 1 s


def add_parser(sub: Any, command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``data`` to the sub-commands ``sub`` (``command`` makes it as the others are)."""
    d = command(sub, "data", HELP, DESCRIPTION, EXAMPLES)
    d.add_argument("--db", default="games.db", metavar="PATH",
                   help="the library's SQLite file (default: games.db in the current "
                        "directory)")
    d.add_argument("--host", default=HOST,
                   help=f"address to listen on; the library's logs and players' names are "
                        f"all readable there (default: {HOST}, this machine only)")
    d.add_argument("--port", type=whole_number(1, 65535), default=PORT,
                   help=f"TCP port (default: {PORT})")
    d.add_argument("--metadata-out", metavar="FILE", default=None,
                   help="write the metadata (JSON) to FILE and exit, to run 'datasette PATH "
                        "--metadata FILE' yourself (default: serve)")
    d.set_defaults(func=cmd_data)


def _fail(text: str) -> int:
    print(f"python -m replay data: error: {text}", file=sys.stderr)
    return 2


def cmd_data(args: argparse.Namespace) -> int:
    """``python -m replay data``."""
    from . import datasette
    from .store import migrate

    path = Path(args.db)
    meta = datasette.metadata(path.stem)
    if args.metadata_out is not None:
        try:
            Path(args.metadata_out).write_text(json.dumps(meta, indent=2, ensure_ascii=False)
                                               + "\n", encoding="utf-8")
        except OSError as exc:
            return _fail(f"cannot write {args.metadata_out}: {exc.strerror or exc}")
        print(f"wrote {args.metadata_out}: datasette {path} --metadata {args.metadata_out}")
        return 0
    if importlib.util.find_spec("datasette") is None:
        return _fail("Datasette is not installed here: pip install 'datasette>=0.65,<1.0' "
                     "(./run installs it with the project)")
    if not path.is_file():
        return _fail(f"no library at {path}: store games first ('python -m replay serve "
                     f"--db {path}', or 'python -m replay ingest SRC --db {path}')")
    try:
        for note in migrate(str(path)):
            print(note, file=sys.stderr)
    except sqlite3.DatabaseError as exc:
        return _fail(f"cannot open {path} as a library: {exc}")
    with tempfile.TemporaryDirectory(prefix="replay-data-") as tmp:
        meta_path = Path(tmp) / "metadata.json"
        meta_path.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        return serve(path, meta_path, args.host, args.port)


def serve(path: Path, meta_path: Path, host: str, port: int) -> int:
    """Run Datasette on the library ``path`` with the metadata file ``meta_path`` until it
    stops (Ctrl-C); its exit code."""
    print(f"the library {path} in Datasette: http://{host}:{port}/{path.stem} (Ctrl-C stops)",
          file=sys.stderr)
    return subprocess.call([
        sys.executable, "-m", "datasette", "serve", str(path), "--metadata", str(meta_path),
        "--host", host, "--port", str(port),
        "--setting", "sql_time_limit_ms", str(TIME_LIMIT_MS)])
