"""The library of stored games: an embedded SQLite file through sqlite-utils, with its
migrations. The web app (``web.db``) and ``ingest`` (``replay.audit.ingest``) both store here.

Schema changes are sqlite-utils (4.x) migrations: functions registered on ``migrations`` in
order; ``migrate`` applies the pending ones (the web app at start-up) and records them in
``_sqlite_migrations``. A new change is a new function at the end, never an edit of an old one.

One row per game (``games``): a game is its content, not the bytes of its file
(``replay.library.identity``), and is found by its ``content_key``; its id is the start of the
sha256 of the first file that brought it. One row per seat (``game_players``, for the player
filter) and one per file that brought a game (``game_sources``, ``replay.library.spellings``).
The web app opens a connection per request (``web.db.get_db``), as in the Flask tutorial.

Several threads and several server processes write to one file. So that no write ever fails
with "database is locked": the file is in WAL mode (readers never wait for the writer), every
connection waits up to ``BUSY_TIMEOUT`` seconds for the lock, and a transaction that reads
before it writes takes the write lock first (``BEGIN IMMEDIATE``, see ``write``): a deferred
transaction that reads and then asks for the lock fails at once when another commit came in
between, whatever the timeout. Migrations run the same way, so that servers started together
on a new file apply them once.
"""

from __future__ import annotations

import errno
import json
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database, Migrations

migrations = Migrations("carcassonne-replay")

VERDICTS = ("valid", "invalid")


@migrations()
def create_games(db: Database) -> None:
    """Migration: the ``games`` table, one row per distinct log."""
    games = db.table("games")
    games.create({
        "id": str, "sha256": str, "created": str, "size": int, "log": str,
        "game": str, "expansions": str, "players": str, "moves": int, "moves_played": int,
        "finished": int, "verdict": str, "rule": str, "error_move": int, "error_player": str,
        "message": str, "scores": str, "winners": str,
    }, pk="id", not_null=["sha256", "created", "log", "verdict", "players"])
    games.create_index(["sha256"], unique=True)
    games.create_index(["created"])
    games.create_index(["verdict", "created"])


@migrations()
def create_game_players(db: Database) -> None:
    """Migration: the ``game_players`` table, one row per seat (for the player filter)."""
    seats = db.table("game_players")
    seats.create({"game_id": str, "seat": int, "name": str, "colour": str, "score": int},
                 pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")],
                 not_null=["name"])
    seats.create_index(["name"])


@migrations()
def create_rate_counts(db: Database) -> None:
    """Migration: the ``rate_counts`` table (heavy requests per client and window, see
    ``web.limits``)."""
    db.table("rate_counts").create({"client": str, "window": int, "n": int},
                                   pk=("client", "window"))


@migrations()
def add_source_format(db: Database) -> None:
    """Migration: where a game came from (``source_format``: "log v1" or the foreign format it
    was imported from), the foreign file itself (``original``, None for a log v1) and the
    problems met converting it (``import_problems``, a JSON list)."""
    games = db.table("games")
    games.add_column("source_format", str, not_null_default="log v1")
    games.add_column("original", str)
    games.add_column("import_problems", str, not_null_default="[]")


@migrations()
def identify_games(db: Database) -> None:
    """Migration: a game is known by its content, not by the bytes of its file
    (``replay.library.identity``): the ``content_key`` column (unique) and the spellings of
    each game (``game_sources``); the games stored more than once are merged into the oldest
    (``replay.library.spellings.merge_stored``), and ``migrate`` says how many."""
    from .spellings import create_sources, merge_stored

    create_sources(db)
    stored, merged = merge_stored(db)
    if stored:
        note(db, f"{stored} stored game{'s' * (stored != 1)} now known by content: {merged} "
                 f"stored twice merged into the oldest of each (their ids lead to it)")


@migrations()
def create_analyses(db: Database) -> None:
    """Migration: the ``analyses`` table, the computer analyses of stored games asked for in
    the web app (``web.computer_jobs``: the queue, its progress and its results), one row per
    game and agent spec."""
    db.table("analyses").create({
        "game_id": str, "agent": str, "status": str, "done": int, "total": int,
        "client": str, "created": float, "started": float, "heartbeat": float,
        "finished": float, "worker": int, "engine": str, "message": str, "result": str,
    }, pk=("game_id", "agent"), not_null=["status", "client", "created"],
        defaults={"done": 0, "total": 0})
    db.table("analyses").create_index(["status", "created"])
    db.table("analyses").create_index(["client", "status"])


@migrations()
def create_game_tables(db: Database) -> None:
    """Migration: the games as data (``replay.library.tables``: ``moves``, ``events``,
    ``results``, ``result_points``), filled for the games already stored (each replayed from
    its log); ``migrate`` says how many rows it wrote."""
    from ..core.family import families
    from . import tables

    tables.create(db, list(families()))
    games = rows = 0
    for row in db.query("select id, log, players from games order by created, id"):
        found = tables.of_log(row["log"], json.loads(row["players"]))
        rows += tables.write(db, row["id"], found)
        games += 1
    if games:
        note(db, f"the games as data: {rows} rows written for the {games} stored "
                 f"game{'s' * (games != 1)} (moves, events, results, points by kind)")


def note(db: Database, text: str) -> None:
    """Tell the caller of ``migrate`` what a migration did (its ``notes``)."""
    notes = getattr(db, "notes", None)
    if notes is not None:
        notes.append(text)


BUSY_TIMEOUT = 30.0  # seconds a connection waits for another one's write lock


def connect(path: str) -> Database:
    """A connection to the SQLite file at ``path`` (sqlite-utils plugins not run)."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, check_same_thread=False)
    return Database(conn, execute_plugins=False)


def connect_for_reading(path: str,
                        opener: Callable[[str], Database] | None = None) -> Database:
    """``connect``, or, when SQLite cannot open the file as it is (a full or read-only disk
    where it cannot make the WAL's ``-shm``/``-wal`` files), the file opened immutable: what
    the main file holds can still be read (commits still in a WAL are not seen), and any
    write is refused as read-only (a storage fault). ``opener``: ``connect`` by default."""
    db = (opener or connect)(path)
    try:
        db.conn.execute("select 1 from sqlite_master limit 1").fetchall()
    except sqlite3.OperationalError as exc:
        if storage_fault(exc) != "unavailable":
            raise
        db.close()
        conn = sqlite3.connect(f"file:{urllib.parse.quote(path)}?immutable=1", uri=True,
                               timeout=BUSY_TIMEOUT, check_same_thread=False)
        db = Database(conn, execute_plugins=False)
        db.degraded = True  # type: ignore[attr-defined]  # its refused writes: "unavailable"
    return db


@contextmanager
def write(db: Database) -> Iterator[Database]:
    """A transaction holding the write lock from its start (``BEGIN IMMEDIATE``): what it
    reads stays true until it commits. Waits up to ``BUSY_TIMEOUT`` for the lock."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        raise
    db.conn.commit()


def migrate(path: str) -> list[str]:
    """Put the file in WAL mode and apply the pending migrations, once, even when several
    processes start on a new file together, all in one transaction. Returns what they did
    that people should know (one line each: how many games were merged)."""
    db = connect(path)
    notes: list[str] = []
    db.notes = notes  # type: ignore[attr-defined]  # see ``note``
    try:
        if db.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.conn.execute("PRAGMA journal_mode=wal")
        if not migrations.pending(db):  # nothing to write: a read-only library still reads
            return notes
        with write(db):
            migrations.apply(db)
    finally:
        db.close()
    return notes


STORAGE_FAULTS = {  # what SQLite and the system say, and what we tell the user
    "readonly database": "read-only", "disk is full": "disk full",
    # a real full or read-only disk: SQLite cannot make or open the WAL's -wal / -shm files,
    # and then even a read fails (tools/drill.py --storage)
    "disk I/O error": "unavailable", "unable to open database file": "unavailable",
    errno.EROFS: "read-only", errno.ENOSPC: "disk full", errno.EDQUOT: "disk full",
}


def storage_fault(exc: BaseException) -> str | None:
    """"read-only" or "disk full" when ``exc`` says the library's disk cannot take a write
    (SQLite's "attempt to write a readonly database", "database or disk is full", or the
    system's EROFS / ENOSPC / EDQUOT); "unavailable" when SQLite cannot open or read it at all
    ("disk I/O error", "unable to open database file"); None for any other error (a bug)."""
    if isinstance(exc, sqlite3.OperationalError):
        text = str(exc)
        return next((why for key, why in STORAGE_FAULTS.items()
                     if isinstance(key, str) and key in text), None)
    if isinstance(exc, OSError):
        return STORAGE_FAULTS.get(exc.errno) if exc.errno is not None else None
    return None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game as the pages and the API read it."""

    id: str
    sha256: str
    created: str
    size: int
    log: str
    game: str
    expansions: list[str]
    players: list[dict[str, str]]  # name, colour
    moves: int
    moves_played: int
    finished: bool
    verdict: str  # "valid" | "invalid"
    rule: str | None
    error_move: int | None  # 0-based index of the failing move (None: header or final claim)
    error_player: str | None
    message: str | None
    scores: list[int]
    winners: list[str]
    source_format: str = "log v1"
    original: str | None = None  # the foreign file an import was made from
    import_problems: list[dict[str, Any]] = field(default_factory=list)
    content_key: str = ""  # the sha256 of its canonical form (``replay.library.identity``)
    # its rows as data (``replay.library.tables.GameTables``), when made with the game; not a
    # column: ``add_game`` writes them to their tables
    tables: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> GameRow:
        return cls(
            id=row["id"], sha256=row["sha256"], created=row["created"], size=row["size"],
            log=row["log"], game=row["game"], expansions=json.loads(row["expansions"]),
            players=json.loads(row["players"]), moves=row["moves"],
            moves_played=row["moves_played"], finished=bool(row["finished"]),
            verdict=row["verdict"], rule=row["rule"], error_move=row["error_move"],
            error_player=row["error_player"], message=row["message"],
            scores=json.loads(row["scores"]), winners=json.loads(row["winners"]),
            source_format=row.get("source_format") or "log v1", original=row.get("original"),
            import_problems=json.loads(row.get("import_problems") or "[]"),
            content_key=row.get("content_key") or "",
        )

    def as_row(self) -> dict[str, Any]:
        return {
            "id": self.id, "sha256": self.sha256, "created": self.created, "size": self.size,
            "log": self.log, "game": self.game, "expansions": json.dumps(self.expansions),
            "players": json.dumps(self.players, ensure_ascii=False), "moves": self.moves,
            "moves_played": self.moves_played, "finished": int(self.finished),
            "verdict": self.verdict, "rule": self.rule, "error_move": self.error_move,
            "error_player": self.error_player, "message": self.message,
            "scores": json.dumps(self.scores),
            "winners": json.dumps(self.winners, ensure_ascii=False),
            "source_format": self.source_format, "original": self.original,
            "import_problems": json.dumps(self.import_problems, ensure_ascii=False),
            "content_key": self.content_key or None,
        }


def find(db: Database, game_id: str) -> GameRow | None:
    """The stored game ``game_id``, or None."""
    rows = list(db.query("select * from games where id = ?", [game_id]))
    return GameRow.from_row(rows[0]) if rows else None


def find_content(db: Database, content_key: str) -> GameRow | None:
    """The stored game whose content key is ``content_key``, or None."""
    rows = list(db.query("select * from games where content_key = ?", [content_key]))
    return GameRow.from_row(rows[0]) if rows else None


def insert(db: Database, game: GameRow) -> bool:
    """Store a game unless a game with its id is there already; True when it was stored."""
    with write(db):
        if find(db, game.id) is not None:
            return False
        add_game(db, game)
    return True


def add_game(db: Database, game: GameRow) -> None:
    """Insert a game's row, its seats and its rows as data (``replay.library.tables``: the
    ones it carries, else made from its log) inside the caller's transaction: all of them or
    none."""
    from . import tables

    db.table("games").insert(game.as_row())
    db.table("game_players").insert_all([
        {"game_id": game.id, "seat": i, "name": p["name"], "colour": p["colour"],
         "score": game.scores[i] if i < len(game.scores) else None}
        for i, p in enumerate(game.players)])
    found = game.tables if game.tables is not None else tables.of_log(game.log, game.players)
    tables.write(db, game.id, found)


# the library never needs the log text itself
LIST_COLUMNS = ("id, sha256, created, size, '' as log, game, expansions, players, moves, "
                "moves_played, finished, verdict, rule, error_move, error_player, message, "
                "scores, winners, source_format, null as original, import_problems, content_key")


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


SORTS = {  # the library's orders: name -> SQL (always ending in a unique key)
    "date": "created {d}, id {d}",
    "moves": "moves_played {d}, created desc, id",
    "game": "game {d}, expansions {d}, created desc, id",
    "verdict": "verdict {d}, finished {d}, created desc, id",
    "players": "json_array_length(players) {d}, players {d}, created desc, id",
    "source": "source_format {d}, created desc, id",
}


def filter_clause(verdict: str | None = None, player: str | None = None,
                  game: str | None = None, expansion: str | None = None
                  ) -> tuple[str, dict[str, Any]]:
    """The library's filters on ``games`` (see ``search``) as a SQL condition (``1`` when
    none) and its parameters; the statistics pages (``replay.library.statistics``) use them."""
    where = []
    params: dict[str, Any] = {}
    if verdict in VERDICTS:
        where.append("verdict = :verdict")
        params["verdict"] = verdict
    if player:
        where.append("id in (select game_id from game_players "
                     "where name like :player escape '\\')")
        params["player"] = _like(player)
    if game:
        where.append("game = :game")
        params["game"] = game
    if expansion:
        where.append("exists (select 1 from json_each(games.expansions) "
                     "where json_each.value = :expansion)")
        params["expansion"] = expansion
    return " and ".join(where) or "1", params


def search(db: Database, verdict: str | None = None, player: str | None = None,
           limit: int = 50, offset: int = 0, sort: str = "date",
           descending: bool = True, game: str | None = None,
           expansion: str | None = None) -> tuple[list[GameRow], int]:
    """Games filtered by verdict, by (part of) a player's name, by game (its family's name)
    and by an expansion it is played with, in the order ``sort`` names (one of ``SORTS``; by
    default newest first); and how many games match in all."""
    condition, params = filter_clause(verdict, player, game, expansion)
    params.update(limit=limit, offset=offset)
    clause = f" where {condition}" if condition != "1" else ""
    total = next(db.query(f"select count(*) as n from games{clause}", params))["n"]
    order = SORTS.get(sort, SORTS["date"]).format(d="desc" if descending else "asc")
    rows = db.query(f"select {LIST_COLUMNS} from games{clause} order by {order} "
                    f"limit :limit offset :offset", params)
    return [GameRow.from_row(r) for r in rows], int(total)
