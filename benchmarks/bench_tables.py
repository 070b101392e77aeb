"""The migration that writes the games as data (issue 38) on a library stored before it.

Usage: ``python benchmarks/bench_tables.py [--games 1000] [--seed 0]``.

Builds a library as the migrations before ``create_game_tables`` left it, stores ``--games``
generated games of every family in turn (a 2-player base game, a 4-player one with both
expansions, Hunters & Gatherers with 3, Manhattan with 3), then applies the pending migration
(``replay.library.store.migrate``, what ``serve`` and ``ingest`` do at start) and prints what
it said, the rows it wrote and their rate. Check the ``engine:`` line: a stale compiled build
runs the pure-Python engine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay import native  # noqa: E402
from replay.core.verify import verify  # noqa: E402
from replay.generate import dumps, generate_log  # noqa: E402
from replay.library import store, tables  # noqa: E402
from replay.library.rows import game_row  # noqa: E402

KINDS = (("base", 2, ()), ("base", 4, ("inns-cathedrals", "hills-sheep")),
         ("hunters-gatherers", 3, ()), ("manhattan", 3, ()))


def old_library(path: str, games: int, seed: int) -> None:
    """A library before the tables, holding ``games`` generated games."""
    db = store.connect(path)
    try:
        with store.write(db):
            store.migrations.apply(db, stop_before="create_game_tables")
        with store.write(db):
            for k in range(seed, seed + games):
                game, players, mix = KINDS[k % len(KINDS)]
                row = game_row(verify(dumps(generate_log(game, players, k, mix)).encode()))
                db.table("games").insert(row.as_row())
    finally:
        db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"engine: {native.engine()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "old.db")
        start = time.perf_counter()
        old_library(path, args.games, args.seed)
        print(f"a library of {args.games} games before the tables: "
              f"{time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        notes = store.migrate(path)
        took = time.perf_counter() - start
        db = store.connect(path)
        try:
            rows = {t: db[t].count for t in tables.TABLES}
        finally:
            db.close()
    for note in notes:
        print(f"migration: {note}")
    total = sum(rows.values())
    print(json.dumps(rows))
    print(f"{total} rows for {args.games} games in {took:.1f} s: {total / took:,.0f} rows/s, "
          f"{args.games / took:.1f} games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
