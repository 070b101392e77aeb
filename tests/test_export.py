"""``python -m replay export`` (issue 38 item 2): a corpus of every family, an illegal game and
an unreadable file exported to SQLite, CSV and Parquet, each format's rows checked against
``tables.of_record`` of each log; a resumed export gives the export of an uninterrupted one;
hostile arguments exit 2 with a message and leave what was there alone."""

from __future__ import annotations

import csv
import hashlib
import importlib
import json
import sqlite3
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

from replay.audit import export as export_module
from replay.audit.command import Interrupted
from replay.audit.export import export
from replay.audit.ingest import Library
from replay.cli import main
from replay.core.family import families
from replay.core.record import read_game
from replay.generate import dumps, generate_log
from replay.library import dump, tables
from replay.library.tables import GameTables

ROOT = Path(__file__).resolve().parent.parent
ILLEGAL = ROOT / "fixtures" / "invalid" / "edge-mismatch.json"
FORMATS = ["sqlite", "csv", "parquet"]  # pyarrow is a dev dependency: parquet is tested
TABLES = {"moves": "moves", "events": "events", "results": "results",
          "result_points": "points"}  # file -> GameTables field
ORDER = {"moves": ("number",), "events": ("seq",), "results": ("seat",),
         "result_points": ("seat", "kind")}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games of every family (one with expansions when it has some), the illegal
    fixture, an unreadable file, and a game inside a zip archive."""
    d = tmp_path_factory.mktemp("export") / "corpus"
    d.mkdir()
    for fam in families():
        (d / f"{fam.name}-a.json").write_text(dumps(generate_log(fam.name, 2, 1)),
                                              encoding="utf-8")
        mix = fam.mixes()[-1]
        (d / f"{fam.name}-b.json").write_text(dumps(generate_log(fam.name, 3, 2, mix)),
                                              encoding="utf-8")
    (d / "illegal.json").write_bytes(ILLEGAL.read_bytes())
    (d / "broken.json").write_text("{ not json", encoding="utf-8")
    with zipfile.ZipFile(d / "more.zip", "w") as z:
        z.writestr("inner.json", dumps(generate_log(families()[0].name, 4, 9)))
    return d


def _logs(corpus: Path) -> dict[str, bytes]:
    """The readable logs of the corpus by their library id (the start of their sha256)."""
    found = {p.name: p.read_bytes() for p in corpus.glob("*.json") if p.name != "broken.json"}
    with zipfile.ZipFile(corpus / "more.zip") as z:
        found["more.zip!inner.json"] = z.read("inner.json")
    return {hashlib.sha256(data).hexdigest()[:16]: data for data in found.values()}


def _read(out: Path, fmt: str, table: str) -> list[dict[str, Any]]:
    """A table of an export, as dicts (CSV: strings, an empty cell for NULL)."""
    if fmt == "sqlite":
        conn = sqlite3.connect(out)
        conn.row_factory = sqlite3.Row
        try:
            return [dict(r) for r in conn.execute(f"select * from [{table}] order by rowid")]
        finally:
            conn.close()
    if fmt == "csv":
        with (out / f"{table}.csv").open(encoding="utf-8", newline="") as fh:
            return list(csv.DictReader(fh))
    pq = importlib.import_module("pyarrow.parquet")
    rows: list[dict[str, Any]] = pq.read_table(out / f"{table}.parquet").to_pylist()
    return rows


def _cell(value: Any, fmt: str) -> Any:
    if fmt != "csv":
        return value
    return "" if value is None else str(value)


def _check(out: Path, fmt: str, corpus: Path) -> None:
    logs = _logs(corpus)
    games = _read(out, fmt, "games")
    assert sorted(g["id"] for g in games) == sorted(logs)
    verdicts = {g["id"]: g["verdict"] for g in games}
    illegal = hashlib.sha256(ILLEGAL.read_bytes()).hexdigest()[:16]
    assert verdicts.pop(illegal) == "invalid"
    assert set(verdicts.values()) == {"valid"}
    if fmt != "sqlite":
        assert "log" not in games[0] and "original" not in games[0]
        sources = {g["id"]: g["source"] for g in games}
        assert sources[illegal] == str(corpus / "illegal.json")
        assert any(s.endswith("more.zip!inner.json") for s in sources.values())
    move_columns = {c.name for fam in families() for c in fam.move_columns}
    for table, name in TABLES.items():
        got: dict[str, list[dict[str, Any]]] = {}
        for row in _read(out, fmt, table):
            got.setdefault(row.pop("game_id"), []).append(row)
        if table == "moves":  # the union of the families' columns
            assert move_columns <= set(next(iter(got.values()))[0])
        for game_id, data in logs.items():
            want: list[dict[str, Any]] = getattr(tables.of_record(read_game(data)), name)
            key = ORDER[table]
            mine = sorted(got.get(game_id, []), key=lambda r: tuple(str(r[k]) for k in key))
            want = sorted(want, key=lambda r: tuple(str(r[k]) for k in key))
            assert len(mine) == len(want), (fmt, table, game_id)
            for m, w in zip(mine, want, strict=True):
                assert {k: m[k] for k in w} == {k: _cell(v, fmt) for k, v in w.items()}, \
                    (fmt, table, game_id)
                assert all(m[k] in (None, "") for k in set(m) - set(w)), (fmt, table)
            if table == "moves" and game_id == illegal:
                assert mine[-1]["legal"] == _cell(0, fmt) and mine[-1]["rule"] == "G4"


@pytest.fixture(scope="module")
def exported(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The corpus exported once in each format (one worker: the machine is shared)."""
    base = tmp_path_factory.mktemp("out")
    made = {}
    for fmt in FORMATS:
        out = base / ("games.db" if fmt == "sqlite" else fmt)
        made[fmt] = (out, export([str(corpus)], str(out), fmt, jobs=1, progress=False))
    return made


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_has_the_rows_of_each_log(exported: dict[str, Any], corpus: Path,
                                               fmt: str) -> None:
    out, result = exported[fmt]
    _check(out, fmt, corpus)
    n = len(_logs(corpus))
    assert result.summary.games == n + 1 and result.summary.verdicts["unreadable"] == 1
    assert result.exit == 2  # the worst verdict, as audit's: an unreadable game
    assert result.rows["games"] == n
    assert result.rows["moves"] == len(_read(out, fmt, "moves"))
    assert not [p.name for p in out.parent.iterdir() if p.name.startswith(".export-")]


def test_the_sqlite_export_is_a_library(exported: dict[str, Any], corpus: Path) -> None:
    """One file (no WAL beside it) with the games, their seats and the four tables: the web
    app serves it as it is."""
    out, _ = exported["sqlite"]
    assert not Path(f"{out}-wal").exists()
    seats = _read(out, "sqlite", "game_players")
    logs = _logs(corpus)
    assert len(seats) == sum(len(read_game(d).players) for d in logs.values())
    games = {g["id"]: g for g in _read(out, "sqlite", "games")}
    assert all(games[i]["log"] for i in logs)
    from replay.library.store import migrate

    assert migrate(str(out)) == []  # nothing pending: a library of the current schema


def test_the_command_says_the_games_it_left_out(corpus: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tables.csv"
    code = main(["export", str(corpus), "--out", str(out), "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "broken.json: unreadable" in err and "illegal.json: INVALID at move" in err
    assert f"exported {len(_logs(corpus))} games to {out} (csv)" in err
    assert sorted(p.name for p in out.iterdir()) == sorted(dump.names("csv"))
    _check(out, "csv", corpus)


def _same(a: Path, b: Path) -> None:
    for table in ("games", *TABLES):
        rows_a, rows_b = _read(a, "sqlite", table), _read(b, "sqlite", table)
        for r in rows_a + rows_b:
            r.pop("created", None)  # the time it was stored
        assert rows_a == rows_b, table


def test_a_resumed_export_is_the_uninterrupted_one(exported: dict[str, Any], corpus: Path,
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    ckpt = tmp_path / "export.ckpt"
    out = tmp_path / "games.db"
    stop_at = 4

    class Stopping(Library):
        def add(self, row: dict[str, Any]) -> None:
            if self.result.games == stop_at:
                raise KeyboardInterrupt
            super().add(row)

    monkeypatch.setattr(export_module, "Library", Stopping)
    with pytest.raises(Interrupted) as stop:
        export([str(corpus)], str(out), jobs=1, checkpoint=str(ckpt), progress=False)
    assert stop.value.games == stop_at
    assert not out.exists() and ckpt.exists()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".export-")]
    monkeypatch.undo()
    result = export([str(corpus)], str(out), jobs=1, checkpoint=str(ckpt), progress=False)
    # the rows before the one Ctrl-C stopped, and that one: in the checkpoint already
    assert result.summary.resumed == stop_at + 1
    _same(out, exported["sqlite"][0])


def test_an_audit_checkpoint_is_refused(corpus: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    ckpt = tmp_path / "audit.ckpt"
    main(["audit", str(corpus), "--jobs", "1", "--resume", str(ckpt), "--out",
          str(tmp_path / "a.txt")])
    capsys.readouterr()
    out = tmp_path / "games.db"
    assert main(["export", str(corpus), "--out", str(out), "--resume", str(ckpt)]) == 2
    assert "checkpoint of an audit, not of an export" in capsys.readouterr().err
    assert not out.exists()


def test_parquet_without_pyarrow_says_how_to_get_it(corpus: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, name, None)  # import pyarrow: ImportError
    out = tmp_path / "games.parquet"
    assert main(["export", str(corpus), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "export: Parquet needs pyarrow, which is not installed: pip install pyarrow" in err
    assert "Traceback" not in err and not out.exists()


@pytest.fixture
def little(tmp_path: Path) -> Path:
    """A corpus of one game."""
    src = tmp_path / "one.json"
    src.write_text(dumps(generate_log(families()[0].name, 2, 3)), encoding="utf-8")
    return src


def _refused(capsys: pytest.CaptureFixture[str], words: list[str], said: str) -> None:
    assert main(["export", *words]) == 2
    err = capsys.readouterr().err
    assert said in err, err
    assert "Traceback" not in err


def test_an_existing_out_is_kept_unless_forced(little: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.db"
    out.write_text("mine", encoding="utf-8")
    _refused(capsys, [str(little), "--out", str(out)], "exists: give --force to replace it")
    assert out.read_text(encoding="utf-8") == "mine"
    assert main(["export", str(little), "--out", str(out), "--jobs", "1", "--force"]) == 0
    assert len(_read(out, "sqlite", "games")) == 1
    folder = tmp_path / "tables"
    assert main(["export", str(little), "--out", str(folder), "--format", "csv",
                 "--jobs", "1"]) == 0
    _refused(capsys, [str(little), "--out", str(folder), "--format", "csv"],
             "holds an export already: give --force")
    assert main(["export", str(little), "--out", str(folder), "--format", "csv", "--jobs", "1",
                 "--force"]) == 0
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    _refused(capsys, [str(little), "--out", str(folder), "--format", "csv", "--force"],
             "holds files an export did not write (notes.txt)")
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (folder / "games.csv").exists()


def test_hostile_outs_exit_2_with_a_message(little: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    src = str(little)
    _refused(capsys, [src, "--out", str(tmp_path / "nowhere" / "g.db")],
             f"the directory {tmp_path / 'nowhere'} does not exist")
    _refused(capsys, [src, "--out", str(little / "g.db")], f"{little} is not a directory")
    _refused(capsys, [src, "--out", str(tmp_path / "g.xlsx")],
             "cannot tell the format of")
    _refused(capsys, [src, "--out", str(tmp_path)], "cannot tell the format of")
    _refused(capsys, [src, "--out", str(tmp_path), "--format", "sqlite", "--force"],
             "is a directory: a SQLite export is one file")
    _refused(capsys, [src, "--out", str(little), "--format", "csv", "--force"],
             "exists and is not a directory")

    def denied(*args: Any, **kw: Any) -> str:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkdtemp", denied)
    _refused(capsys, [src, "--out", str(tmp_path / "g.db")],
             f"cannot write {tmp_path / 'g.db'}: Permission denied")
    assert not (tmp_path / "g.db").exists()


def test_bad_arguments_and_sources(little: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    for words in ([str(little)], [str(little), "--out", "g.db", "--jobs", "0"],
                  [str(little), "--out", "g.db", "--format", "xml"]):
        with pytest.raises(SystemExit) as exc:
            main(["export", *words])
        assert exc.value.code == 2
        assert "error:" in capsys.readouterr().err
    out = tmp_path / "g.db"
    missing = tmp_path / "missing.json"
    assert main(["export", str(missing), str(little), "--out", str(out), "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "missing.json" in err and "exported 1 game to" in err
    assert json.loads(_read(out, "sqlite", "games")[0]["players"])


def test_the_same_game_twice_is_exported_once(little: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    again = tmp_path / "again.json"
    again.write_text(json.dumps(json.loads(little.read_text(encoding="utf-8"))),
                     encoding="utf-8")  # another spelling of the same game
    out = tmp_path / "t"
    assert main(["export", str(little), str(again), "--out", str(out), "--format", "csv",
                 "--jobs", "1"]) == 0
    assert "1 duplicate exported once" in capsys.readouterr().err
    assert len(_read(out, "csv", "games")) == 1
    want = tables.of_record(read_game(little.read_bytes()))
    assert len(_read(out, "csv", "moves")) == len(want.moves)
    assert isinstance(want, GameTables)


def test_a_moves_table_without_a_family_s_columns_gets_them(tmp_path: Path) -> None:
    """``tables.write`` (plain inserts, for speed) adds the move columns a table made before
    a family was installed lacks, with their type, as the rows come."""
    from sqlite_utils import Database

    db = Database(str(tmp_path / "t.db"))
    db.table("games").create({"id": str}, pk="id")
    tables.create(db, [])  # no family's columns
    log = generate_log(families()[0].name, 2, 4)
    rows = tables.of_record(read_game(dumps(log).encode()))
    assert tables.write(db, "g1", rows) == rows.count()
    types = {c.name: c.type for c in db.table("moves").columns}
    declared = families()[0].move_columns
    assert all(types[c.name] == ("INTEGER" if c.kind == "integer" else "TEXT") for c in declared
               if any(m.get(c.name) is not None for m in rows.moves))
    stored = [dict(r) for r in db.query("select * from moves order by number")]
    assert [{k: s[k] for k in m} for s, m in zip(stored, rows.moves, strict=True)] == rows.moves


def test_on_a_dask_cluster_the_same_export(exported: dict[str, Any], corpus: Path,
                                           tmp_path: Path) -> None:
    """``--dask local`` (the files' bytes shipped to the workers) exports what the local
    pool does."""
    out = tmp_path / "games.db"
    result = export([str(corpus)], str(out), jobs=1, dask="local", progress=False)
    assert result.rows == exported["sqlite"][1].rows
    _same(out, exported["sqlite"][0])


def test_what_came_to_out_meanwhile_is_kept(little: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """An ``--out`` made by someone else while the export ran is not overwritten."""
    out = tmp_path / "games.db"

    class Racing(Library):
        def add(self, row: dict[str, Any]) -> None:
            out.write_text("theirs", encoding="utf-8")
            super().add(row)

    monkeypatch.setattr(export_module, "Library", Racing)
    _refused(capsys, [str(little), "--out", str(out), "--jobs", "1"], "exists: give --force")
    assert out.read_text(encoding="utf-8") == "theirs"
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".export-")]


def test_ctrl_c_says_how_to_go_on(corpus: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C: exit 130, the games done, ``--out`` untouched, and the command that keeps the
    work (``--resume export.ckpt``), which then runs to the end."""
    import shlex

    monkeypatch.chdir(tmp_path)

    class Stopping(Library):
        def add(self, row: dict[str, Any]) -> None:
            if self.result.games == 2:
                raise KeyboardInterrupt
            super().add(row)

    monkeypatch.setattr(export_module, "Library", Stopping)
    assert main(["export", str(corpus), "--out", "t", "--format", "csv", "--jobs", "1"]) == 130
    err = capsys.readouterr().err
    assert "export: interrupted after 2 games, not kept (no --resume)" in err
    assert "t is untouched" in err and "Traceback" not in err and not Path("t").exists()
    words = shlex.split(err.strip().splitlines()[-1])
    assert words[:4] == ["python", "-m", "replay", "export"]
    assert words[-2:] == ["--resume", "export.ckpt"] and "--format" in words
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert main(words[3:]) == 2  # the unreadable file of the corpus
    assert "exported" in capsys.readouterr().err
    _check(tmp_path / "t", "csv", corpus)
