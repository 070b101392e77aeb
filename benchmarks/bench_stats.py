"""What the statistics pages cost on a large library (issue 38 item 4).

Usage: ``.venv/bin/python benchmarks/bench_stats.py [--games N] [--rounds R] [--db FILE]``.

A library of N games (default 20,000: ``statistics.CAP``, the most a page counts) is made
from 30 generated games of each family stored as the web app stores them
(``web.games.save``), their rows copied under new ids and dates (every table: ``games``,
``game_players``, ``moves``, ``events``, ``results``, ``result_points``); the player "Ada"
sits in every game. Then each query of a player's page (``statistics.player_queries``: all
of their games, and the newest ``PLAYER_CAP``) and the corpus's (``of_corpus`` unfiltered
and by game) is timed, the median of R rounds in ms, with SQLite's plan of each
(``EXPLAIN QUERY PLAN``). Target: a player's page and the corpus's each under a second
at N = 20,000 (exit 1 when missed).
"""

from __future__ import annotations

import argparse
import statistics as stats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.core.family import families  # noqa: E402
from replay.library import statistics, store  # noqa: E402
from replay.library.store import connect, migrate  # noqa: E402

TABLES = ("game_players", "moves", "events", "results", "result_points")


def build(path: str, games: int) -> None:
    """The library of ``games`` games at ``path`` (see the module)."""
    import json

    from web.games import check

    migrate(path)
    db = connect(path)
    seeds = []
    for family in families():
        for k in range(30):
            from replay.generate import generate_log

            log = generate_log(family.name, 2 + k % 3, k)
            checked = check(json.dumps(log).encode(), 10**7)
            seeds.append(checked)
    from web.games import save

    for checked in seeds:
        save(db, checked, "")
    ids = [r["id"] for r in db.query("select id from games")]
    with store.write(db):
        for copy in range(1, -(-games // len(ids))):
            for gid in ids:
                new = f"{gid[:10]}{copy:06d}"
                if copy * len(ids) + ids.index(gid) >= games:
                    break
                db.execute("insert into games select :new, :new || sha256, "
                           "printf('2020-%06d', :n), size, log, game, expansions, players, "
                           "moves, moves_played, finished, verdict, rule, error_move, "
                           "error_player, message, scores, winners, source_format, original, "
                           "import_problems, null from games where id = :id",
                           {"new": new, "id": gid, "n": copy * len(ids) + ids.index(gid)})
                for table in TABLES:
                    columns = [c.name for c in db.table(table).columns if c.name != "game_id"]
                    listed = ", ".join(columns)
                    db.execute(f"insert into {table} (game_id, {listed}) select :new, {listed} "
                               f"from {table} where game_id = :id", {"new": new, "id": gid})
    db.close()


def timed(fn: object, rounds: int) -> float:
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append((time.perf_counter() - start) * 1000)
    return stats.median(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=statistics.CAP)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--db", help="an existing library to time (not built)")
    args = parser.parse_args()
    path = args.db or str(Path(tempfile.mkdtemp()) / "games.db")
    if not args.db:
        start = time.perf_counter()
        build(path, args.games)
        print(f"built {args.games} games in {time.perf_counter() - start:.0f} s: {path}")
    db = connect(path)
    n = next(db.query("select count(*) as n from games"))["n"]
    print(f"{n} games, {next(db.query('select count(*) as n from events'))['n']} events")
    p = statistics.player_params("Ada")
    worst = 0.0
    for capped in (False, True):
        for name, sql in statistics.player_queries(capped).items():
            ms = timed(lambda sql=sql: list(db.query(sql, p)), args.rounds)
            plan = "; ".join(r[3] for r in db.execute("explain query plan " + sql, p))
            print(f"player {'capped ' if capped else ''}{name:8} {ms:8.1f} ms  {plan}")
    page = timed(lambda: statistics.of_player(db, "Ada"), args.rounds)
    print(f"a player's page: {page:.0f} ms")
    worst = max(worst, page)
    for game in (None, "base"):
        ms = timed(lambda game=game: statistics.of_corpus(db, game=game), args.rounds)
        print(f"the corpus's page (game={game}): {ms:.0f} ms")
        worst = max(worst, ms)
    return 0 if worst < 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
