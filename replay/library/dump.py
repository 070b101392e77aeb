"""A library file's games as flat files: ``games``, ``moves``, ``events``, ``results`` and
``result_points`` (``replay.library.tables``), one CSV file each (with a header) or one
Parquet file each (pyarrow), for ``python -m replay export``.

``games`` is the library's row of each game without the log texts (``log``, ``original``: the
sources are the logs) and with ``source``, the name of the file that first brought it; the
JSON-valued columns (``players``, ``expansions``, ``scores``, ``winners``,
``import_problems``) stay JSON text. ``moves`` has every column a family declares, the union
of the families' (a cell of another family's column is empty). Rows come in the order the
games were stored (the order of the walk), a table a file, read in chunks: memory stays flat.
"""

from __future__ import annotations

import csv
import importlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FILES = ("games", "moves", "events", "results", "result_points")
LEFT_OUT = ("log", "original")  # the games' columns a flat file does not carry
CHUNK = 5000  # rows read at a time
PYARROW_MISSING = ("Parquet needs pyarrow, which is not installed: pip install pyarrow "
                   "(or export --format sqlite or csv)")


def names(fmt: str) -> list[str]:
    """The files an export in ``fmt`` ("csv" or "parquet") writes."""
    return [f"{table}.{fmt}" for table in FILES]


def pyarrow_missing() -> str | None:
    """Why Parquet cannot be written here (``PYARROW_MISSING``), or None."""
    try:
        importlib.import_module("pyarrow")
        importlib.import_module("pyarrow.parquet")
    except ImportError:
        return PYARROW_MISSING
    return None


def _columns(conn: sqlite3.Connection, table: str) -> list[tuple[str, str]]:
    """(name, declared type) of ``table``'s columns, as the flat file has them."""
    cols = [(r[1], str(r[2]).upper()) for r in conn.execute(f"pragma table_info([{table}])")]
    if table == "games":
        cols = [c for c in cols if c[0] not in LEFT_OUT] + [("source", "TEXT")]
    return cols


def _query(table: str, cols: list[tuple[str, str]]) -> str:
    if table != "games":
        listed = ", ".join(f"[{name}]" for name, _ in cols)
        return f"select {listed} from [{table}] order by rowid"
    listed = ", ".join(f"g.[{name}]" for name, _ in cols if name != "source")
    return (f"select {listed}, (select s.name from game_sources s where s.game_id = g.id "
            "order by s.rowid limit 1) as source from games g order by g.rowid")


def _chunks(conn: sqlite3.Connection, sql: str) -> Iterator[list[tuple[Any, ...]]]:
    cursor = conn.execute(sql)
    while chunk := cursor.fetchmany(CHUNK):
        yield chunk


def dump(db_path: str | Path, directory: str | Path, fmt: str) -> dict[str, int]:
    """Write the five files of the library at ``db_path`` into ``directory`` (which exists)
    in ``fmt``, "csv" or "parquet"; the rows written, by table."""
    conn = sqlite3.connect(str(db_path))
    try:
        written = {}
        for table in FILES:
            cols = _columns(conn, table)
            path = Path(directory) / f"{table}.{fmt}"
            chunks = _chunks(conn, _query(table, cols))
            written[table] = (_csv if fmt == "csv" else _parquet)(path, cols, chunks)
        return written
    finally:
        conn.close()


def _csv(path: Path, cols: list[tuple[str, str]],
         chunks: Iterator[list[tuple[Any, ...]]]) -> int:
    n = 0
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow([name for name, _ in cols])
        for chunk in chunks:
            out.writerows(chunk)  # NULL: an empty cell
            n += len(chunk)
    return n


def _parquet(path: Path, cols: list[tuple[str, str]],
             chunks: Iterator[list[tuple[Any, ...]]]) -> int:
    pa = importlib.import_module("pyarrow")  # optional: not a dependency of the project
    pq = importlib.import_module("pyarrow.parquet")

    def kind(declared: str) -> Any:
        if "INT" in declared:
            return pa.int64()
        if "REAL" in declared or "FLOA" in declared or "DOUB" in declared:
            return pa.float64()
        return pa.string()

    schema = pa.schema([(name, kind(declared)) for name, declared in cols])
    n = 0
    with pq.ParquetWriter(str(path), schema) as writer:
        for chunk in chunks:
            columns = list(zip(*chunk, strict=True))
            writer.write_table(pa.Table.from_arrays(
                [pa.array(list(c), type=f.type) for c, f in zip(columns, schema, strict=True)],
                schema=schema))
            n += len(chunk)
    return n
