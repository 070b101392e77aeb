"""``python -m replay audit`` and ``ingest``: the same verdicts as ``verify`` file by file,
whatever the container (directory, zip, tar, JSON Lines) and wherever the work runs (the local
pool, a Dask LocalCluster); hostile archives; fail-fast; resume; workers that die."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replay.audit import Limits, audit, walk
from replay.audit import resume as checkpoint
from replay.audit.runner import Stats
from replay.audit.work import Row, Task, verify_batch
from replay.core.family import families
from replay.core.verify import verify
from replay.generate import dumps, generate_log

from .support import FIXTURES, ROOT

JOBS = 2
MANHATTAN_BROKEN = ("mh-takeover-too-few-storeys.json", "mh-deal-not-seeded.json")
TIMINGS = ("seconds", "games_per_second")


def _logs() -> dict[str, bytes]:
    """A small mixed corpus: generated games of every family, broken logs, foreign saves."""
    files: dict[str, bytes] = {}
    for fam in families():
        for k, mix in enumerate(fam.mixes()[:2]):
            players = max(2, fam.min_players)
            files[f"gen/{fam.name}-{k}.json"] = dumps(
                generate_log(fam.name, players, k + 1, mix)).encode()
    for p in sorted((FIXTURES / "invalid").glob("*.json"))[:14]:
        files[f"invalid/{p.name}"] = p.read_bytes()
    for name in MANHATTAN_BROKEN:  # Manhattan's verdicts too (the first 14 are tile games)
        files[f"invalid/{name}"] = (FIXTURES / "invalid" / name).read_bytes()
    for p in sorted((FIXTURES / "import").rglob("*")):
        if p.suffix in (".jcz", ".json") and p.name != "expected.json":
            files[f"foreign/{p.name}"] = p.read_bytes()
            if len([f for f in files if f.startswith("foreign/")]) >= 4:
                break
    return files


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("audit")
    files = _logs()
    d = root / "dir"
    for name, data in files.items():
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        (d / name).write_bytes(data)
    with zipfile.ZipFile(root / "corpus.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(f"inner/{name}", data)
    with tarfile.open(root / "corpus.tar.gz", "w:gz") as t:
        for name, data in files.items():
            info = tarfile.TarInfo(f"inner/{name}")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    lines = [json.dumps(json.loads(data)).encode() for name, data in files.items()
             if name.startswith("gen/")] + [b'{"format": 1}', b"not json"]
    (root / "logs.jsonl").write_bytes(b"\n".join(lines[:3]) + b"\n\n" + b"\n".join(lines[3:]))
    return {"root": root, "files": files, "dir": d}


def run_audit(sources: list[str], fmt: str = "json", **kw: Any) -> tuple[list[Any], Any]:
    out = io.StringIO()
    kw.setdefault("jobs", JOBS)
    summary = audit(sources, out, fmt, progress=False, **kw)
    if fmt != "json":
        return [out.getvalue()], summary
    objs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "summary" in objs[-1]
    return objs, summary


def strip(objs: list[Any]) -> list[Any]:
    """The report without its timings."""
    return [{"summary": {k: v for k, v in o["summary"].items() if k not in TIMINGS}}
            if "summary" in o else o for o in objs]


def test_directory_gives_the_verdicts_of_verify(corpus: dict[str, Any]) -> None:
    objs, summary = run_audit([str(corpus["dir"])])
    names = sorted(str(corpus["dir"] / n) for n in corpus["files"])
    assert [o["file"] for o in objs[:-1]] == names  # every file once, in a stable order
    expected = [verify(n).as_json() for n in names]
    assert objs[:-1] == expected
    worst = max(verify(n).exit_code for n in names)
    assert summary.exit == worst == 2
    s = objs[-1]["summary"]
    assert s["games"] == len(names)
    assert s["valid"] + s["unfinished"] + s["illegal"] + s["unreadable"] == len(names)
    assert sum(s["illegal_by_rule"].values()) == s["illegal"]
    assert {"M3", "M5"} <= set(s["illegal_by_rule"])  # Manhattan's broken logs
    generated = [o for o in objs[:-1] if "/gen/manhattan-" in o["file"]]
    assert generated and all(o["valid"] for o in generated)


@pytest.mark.parametrize("archive", ["corpus.zip", "corpus.tar.gz"])
def test_archives_give_the_verdicts_of_verify(corpus: dict[str, Any], archive: str) -> None:
    src = str(corpus["root"] / archive)
    objs, _ = run_audit([src])
    expected = [verify(data, name=f"{src}!inner/{name}").as_json()
                for name, data in corpus["files"].items()]
    assert objs[:-1] == expected


def test_json_lines_give_the_verdicts_of_verify(corpus: dict[str, Any]) -> None:
    src = corpus["root"] / "logs.jsonl"
    objs, summary = run_audit([str(src)])
    lines = src.read_bytes().split(b"\n")
    expected = [verify(line + b"\n", name=f"{src}#{i + 1}").as_json()
                for i, line in enumerate(lines) if line.strip()]
    assert objs[:-1] == expected
    assert objs[-2]["file"].endswith(f"logs.jsonl#{len(lines)}")  # the blank line 4 counted
    assert summary.verdicts["unreadable"] == 2


def test_exit_codes_and_formats_from_the_command_line(corpus: dict[str, Any],
                                                      tmp_path: Path) -> None:
    valid = tmp_path / "valid"
    valid.mkdir()
    for name, data in corpus["files"].items():
        if name.startswith("gen/"):
            (valid / Path(name).name).write_bytes(data)
    illegal = FIXTURES / "invalid" / "edge-mismatch.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "replay", "audit", "--jobs", "1", *args],
                              capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)

    r = cli(str(valid), str(illegal), str(corpus["root"] / "logs.jsonl"),
            "--format", "csv", "--out", str(tmp_path / "r.csv"))
    assert r.returncode == 2, r.stderr
    assert "games:" in r.stderr and "not read" in r.stderr and "\r" not in r.stderr
    rows = (tmp_path / "r.csv").read_text().splitlines()
    assert rows[0].startswith("name,verdict,exit_code,rule")
    assert any(",illegal,1,G4," in line for line in rows)
    r = cli(str(valid), str(illegal))
    assert r.returncode == 1 and "INVALID at move 9" in r.stdout and "G4 1" in r.stdout
    r = cli(str(valid), "--format", "html", "--out", str(tmp_path / "r.html"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "r.html").read_text().startswith("<!doctype html>")


def test_fail_fast_stops_at_the_first_game_that_is_not_valid(corpus: dict[str, Any]) -> None:
    objs, summary = run_audit([str(corpus["dir"])], fail_fast=True)
    assert [o["valid"] for o in objs[:-1]].count(False) == 1
    assert objs[-2]["valid"] is False and summary.games == len(objs) - 1
    assert summary.games < len(corpus["files"])


# --------------------------------------------------------------------------- hostile archives

def _zip(path: Path, entries: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return path


def test_hostile_archives_are_reported_per_item(corpus: dict[str, Any], tmp_path: Path) -> None:
    log = corpus["files"]["gen/base-0.json"]
    big = b"[" + b" " * (6 * 1024 * 1024) + b"]"
    bomb = _zip(tmp_path / "bomb.zip", {"big.json": big, "ok.json": log})
    # a lying header: the entry says it is small, it inflates to 6 MB
    liar = tmp_path / "liar.zip"
    data = bytearray(_zip(tmp_path / "tmp.zip", {"lie.json": big}).read_bytes())
    size = len(big).to_bytes(4, "little")
    data = data.replace(size, (100).to_bytes(4, "little"))
    liar.write_bytes(bytes(data))
    inner = _zip(tmp_path / "inner.zip", {"a.json": log}).read_bytes()
    nested = _zip(tmp_path / "nested.zip", {"inner.zip": inner, "../../escape.json": log,
                                           "/abs/x\x1b[31m.json": log})
    corrupt = tmp_path / "corrupt.zip"
    corrupt.write_bytes(b"PK\x03\x04" + os.urandom(200))
    truncated = tmp_path / "cut.tar.gz"
    with tarfile.open(tmp_path / "whole.tar.gz", "w:gz") as t:
        for i in range(2):
            info = tarfile.TarInfo(f"g{i}.json")
            info.size = len(log)
            t.addfile(info, io.BytesIO(log))
        link = tarfile.TarInfo("link.json")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        t.addfile(link)
    whole = (tmp_path / "whole.tar.gz").read_bytes()
    truncated.write_bytes(whole[: len(whole) // 2])
    many = _zip(tmp_path / "many.zip", {f"{i}.json": log for i in range(5)})

    items = list(walk([str(bomb), str(liar), str(nested), str(corrupt),
                       str(tmp_path / "whole.tar.gz"), str(truncated), str(many)],
                      Limits(max_entries=3)))
    why = {i.name.split("/")[-1]: i.error for i in items}
    assert "declares" in (why[f"{bomb.name}!big.json"] or "")
    assert why[f"{bomb.name}!ok.json"] is None
    assert "Bad CRC" in (why[f"{liar.name}!lie.json"] or "") or "more than" in (
        why[f"{liar.name}!lie.json"] or "")
    assert "archive inside an archive" in (why[f"{nested.name}!inner.zip"] or "")
    assert why["escape.json"] is None and not (tmp_path.parent / "escape.json").exists()
    assert any(i.name.endswith("!/abs/x\\x1b[31m.json") for i in items)  # escaped, only a name
    assert "not a readable zip" in (why[corrupt.name] or "")
    assert "not a regular file" in (why["whole.tar.gz!link.json"] or "")
    assert any(i.name.startswith(f"{truncated}!") and i.error for i in items)
    assert "more than 3 entries" in (why[f"{many.name}!"] or "")
    assert len([i for i in items if i.name.startswith(str(many))]) == 4
    ratio = list(walk([str(bomb)], Limits(max_bytes=8 << 20)))
    assert "compressed" in (ratio[0].error or "")

    objs, summary = run_audit([str(bomb), str(nested), str(corrupt), str(truncated)])
    assert summary.exit == 2 and summary.verdicts["unreadable"] >= 4
    assert summary.verdicts["valid"] >= 3
    text, _ = run_audit([str(nested), str(corrupt)], fmt="text")
    assert "not read" in text[0] and "archive inside an archive" in text[0]


# --------------------------------------------------------------------------- resume

def test_resume_after_an_interruption_gives_the_same_report(corpus: dict[str, Any],
                                                            tmp_path: Path) -> None:
    sources = [str(corpus["dir"]), str(corpus["root"] / "corpus.zip")]
    whole, _ = run_audit(sources)
    ck = tmp_path / "ck.jsonl"
    first, _ = run_audit(sources, checkpoint=str(ck))
    assert strip(first) == strip(whole)
    lines = ck.read_bytes().splitlines(keepends=True)
    assert len(lines) == 1 + len(whole) - 1
    # interrupted after 9 games, in the middle of writing the 10th
    ck.write_bytes(b"".join(lines[:10]) + lines[10][:25])
    stats = Stats()
    again, _ = run_audit(sources, checkpoint=str(ck), stats=stats)
    assert strip(again) == strip(whole)
    assert len(ck.read_bytes().splitlines()) == len(lines)  # nothing written twice
    with pytest.raises(checkpoint.CheckpointError):
        run_audit([str(corpus["dir"])], checkpoint=str(ck))


# --------------------------------------------------------------------------- dying workers

POISON = "poison"


def dying_batch(tasks: list[Task], max_bytes: int) -> list[Row]:
    """``verify_batch``, but the process dies on an item named like ``POISON`` (always) or
    ``once`` (the first time, marked by a file next to it)."""
    for t in tasks:
        if POISON in t[1]:
            os._exit(9)
        if "once" in t[1] and t[2] is not None:
            try:
                os.close(os.open(t[2] + ".died", os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                continue
            os._exit(9)
    return verify_batch(tasks, max_bytes)


@pytest.fixture
def dying_corpus(corpus: dict[str, Any], tmp_path: Path) -> Iterator[Path]:
    d = tmp_path / "c"
    shutil.copytree(corpus["dir"], d)
    log = corpus["files"]["gen/base-0.json"]
    (d / "gen" / f"{POISON}.json").write_bytes(log)
    (d / "gen" / "once.json").write_bytes(log)
    yield d


def test_a_worker_killed_mid_run_loses_nothing(dying_corpus: Path) -> None:
    plain = {o["file"]: o for o in run_audit([str(dying_corpus)])[0][:-1]}
    names = list(plain)
    stats = Stats()
    objs, summary = run_audit([str(dying_corpus)], worker=dying_batch, batch=4, stats=stats)
    assert [o["file"] for o in objs[:-1]] == names  # each once, in order
    by = {o["file"]: o for o in objs[:-1]}
    poison = by[str(dying_corpus / "gen" / f"{POISON}.json")]
    assert poison["valid"] is None and poison["error"]["rule"] == "internal"
    assert by[str(dying_corpus / "gen" / "once.json")]["valid"] is True
    assert stats.lost == [poison["file"]] and stats.crashes >= 3
    assert summary.verdicts["internal"] == 1 and summary.exit == 3
    assert summary.games == len(names)
    assert all(by[n] == plain[n] for n in names if POISON not in n)


# --------------------------------------------------------------------------- Dask, ingest

def test_a_dask_local_cluster_gives_the_same_report(corpus: dict[str, Any]) -> None:
    pytest.importorskip("dask.distributed")
    sources = [str(corpus["dir"]), str(corpus["root"] / "logs.jsonl")]
    local, _ = run_audit(sources)
    remote, _ = run_audit(sources, dask="local")
    assert strip(remote) == strip(local)


def test_ingest_stores_a_corpus_once(corpus: dict[str, Any], tmp_path: Path) -> None:
    from replay.audit.ingest import ingest
    from web import db as library

    path = str(tmp_path / "games.db")
    first = ingest([str(corpus["root"] / "corpus.zip")], path, JOBS, batch_rows=5)
    readable = first.games - sum(first.unreadable.values())
    assert sum(first.stored.values()) == readable > 0 and first.duplicates == 0
    assert first.exit == 2
    again = ingest([str(corpus["dir"])], path, JOBS)
    assert sum(again.stored.values()) == 0 and again.duplicates == readable
    db = library.connect(path)
    try:
        rows, total = library.search(db, limit=500)
        assert total == readable
        assert {r.verdict for r in rows} == {"valid", "invalid"}
    finally:
        db.close()


def sizing_batch(tasks: list[Task], max_bytes: int) -> list[Row]:
    """``verify_batch``, each row saying how many games its task carried."""
    return [{**row, "batch": len(tasks)} for row in verify_batch(tasks, max_bytes)]


def test_tasks_are_sized_per_backend(corpus: dict[str, Any]) -> None:
    from replay.audit.command import DASK_BATCH, LOCAL_BATCH, default_batch, rows

    assert default_batch(None) == LOCAL_BATCH < DASK_BATCH == default_batch("local")
    assert default_batch("tcp://scheduler:8786") == DASK_BATCH
    src = [str(corpus["dir"])]
    n = len(corpus["files"])
    assert LOCAL_BATCH < n < DASK_BATCH  # the local pool splits this corpus, Dask does not
    local = list(rows(src, JOBS, worker=sizing_batch))
    assert max(r["batch"] for r in local) == LOCAL_BATCH
    assert [r["batch"] for r in rows(src, JOBS, worker=sizing_batch, batch=5)][0] == 5
    pytest.importorskip("dask.distributed")
    remote = list(rows(src, JOBS, dask="local", worker=sizing_batch))
    assert [r["batch"] for r in remote] == [n] * n  # one task: the whole corpus
    assert [r["name"] for r in remote] == [r["name"] for r in local]


def test_the_checkpoint_is_flushed_once_a_second_and_at_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ck.jsonl"
    row = {"index": 0, "name": "a.json", "verdict": "valid"}
    ck = checkpoint.Checkpoint(path, ["a.json"])
    ck.add(row)  # a second has not gone by: still in the buffer
    assert len(path.read_bytes().splitlines()) == 1
    monkeypatch.setattr(checkpoint, "FLUSH_SECONDS", 0.0)
    ck.add({**row, "index": 1})
    assert len(path.read_bytes().splitlines()) == 3
    monkeypatch.setattr(checkpoint, "FLUSH_SECONDS", 3600.0)
    ck.add({**row, "index": 2})
    ck.close()
    assert sorted(checkpoint.load(path, ["a.json"])) == [0, 1, 2]


def test_a_plugin_that_cannot_load_is_said_once_a_run(tmp_path: Path) -> None:
    """Issue 35, item 4: a family whose module is missing is said once by ``audit``, ``diff``
    and ``ingest`` on two workers (each worker said it again), and ``generate --game`` of it
    says why it is missing, not only argparse's "invalid choice"."""
    from .test_registry import run_replay, scratch_distribution, without_stale_note

    site = scratch_distribution(tmp_path / "site", "broken-games",
                                {"broken": "broken_games_missing:FAMILY"})
    games = tmp_path / "games"
    games.mkdir()
    for k in range(6):
        (games / f"g{k}.json").write_text(dumps(generate_log("base", 2, k)), encoding="utf-8")
    common = [str(games), "--jobs", "2", "--batch", "1"]  # six batches: both workers start
    for args in (["audit", *common], ["diff", *common, "--a", "small_city=2"],
                 ["ingest", *common, "--db", str(tmp_path / "games.db")]):
        done = run_replay(*args, pythonpath=site)
        said = [line for line in without_stale_note(done.stderr) if "left out" in line]
        assert len(said) == 1 and "'broken-games'" in said[0], (args[0], done.stderr)
    done = run_replay("generate", "--game", "broken", pythonpath=site)
    assert done.returncode == 2
    assert ("argument --game: the family 'broken' is installed but cannot be loaded: cannot "
            "load 'broken_games_missing:FAMILY': ModuleNotFoundError") in done.stderr


def test_audit_ingest_stores_the_games_its_links_open(
        tmp_path: Path, make_app: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 35, item 8: the report's links to the viewer answered 404 until the games were
    also ingested, and nothing said so. Without --ingest the page and stderr say it (and the
    links do answer 404); with --ingest DB the games are stored as they are verified, in the
    same run, and every link of the page opens its game."""
    import re

    from replay.cli import main

    games = tmp_path / "games"
    games.mkdir()
    for k in range(3):
        (games / f"g{k}.json").write_text(dumps(generate_log("base", 2, k)), encoding="utf-8")
    for name in ("edge-mismatch.json", "wrong-final-claim.json", "not-utf8.json"):
        (games / name).write_bytes((FIXTURES / "invalid" / name).read_bytes())
    db, page = tmp_path / "games.db", tmp_path / "audit.html"
    viewer = "http://viewer.test"
    common = ["audit", str(games), "--format", "html", "--out", str(page), "--viewer", viewer,
              "--jobs", "1"]

    assert main(common) == 2  # not-utf8.json: unreadable
    err = capsys.readouterr().err
    assert "store them with --ingest DB" in err
    html = page.read_text(encoding="utf-8")
    assert "a link answers “not found” until its game is stored there" in html
    links = re.findall(rf'href="{re.escape(viewer)}(/games/[^"]+)"', html)
    assert len(links) == 2
    client = make_app(DATABASE=str(db)).test_client()
    assert [client.get(link).status_code for link in links] == [404, 404]

    assert main([*common, "--ingest", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"library {db}: 5 games stored, 0 there already, 1 not stored" in err
    assert "store them with --ingest" not in err
    html = page.read_text(encoding="utf-8")
    assert "The games were stored in the library" in html and "not found" not in html
    client = make_app(DATABASE=str(db)).test_client()
    answers = [client.get(link, follow_redirects=True) for link in links]
    assert [a.status_code for a in answers] == [200, 200]  # a game's page: its last move
    assert main([*common, "--ingest", str(db)]) == 2  # again: all there already
    assert f"library {db}: 0 games stored, 5 there already" in capsys.readouterr().err
    assert main([*common, "--ingest", str(tmp_path / "no" / "such" / "dir.db")]) == 2
    assert "audit: cannot open the library" in capsys.readouterr().err
