"""The agents' commands on Dask (issue 37 item 3, ``--dask``): ``arena``, ``balance`` and
``analyse`` give the same report on a LocalCluster as on the local process pool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.cli import main
from replay.generate import dumps, generate_log

pytest.importorskip("dask.distributed")


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> object:
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_arena_on_dask_is_the_local_arena(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["arena", "--game", "base", "--a", "greedy", "--b", "random", "--games", "4",
            "--seed", "8", "--format", "json"]
    local = _json([*base, "--jobs", "1"], capsys)
    dask = _json([*base, "--jobs", "2", "--dask", "local"], capsys)
    assert isinstance(local, dict) and isinstance(dask, dict)
    local.pop("seconds", None)
    dask.pop("seconds", None)
    assert dask == local and local["games"] == 4


def test_balance_on_dask_is_the_local_balance(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["balance", "--game", "base", "--a", "small_city=2", "--b", "small_city=4",
            "--agent", "random", "--games", "3", "--seed", "4", "--format", "json"]
    local = _json([*base, "--jobs", "1"], capsys)
    dask = _json([*base, "--jobs", "2", "--dask", "local"], capsys)
    assert dask == local


def test_analyse_on_dask_is_the_local_analysis(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for seed in (1, 2):
        (tmp_path / f"g{seed}.json").write_text(dumps(generate_log("base", 2, seed)))
    base = ["analyse", str(tmp_path), "--agent", "mcts:3:dets=1", "--format", "jsonl"]
    assert main([*base, "--jobs", "1"]) == 0
    local = capsys.readouterr().out
    assert main([*base, "--jobs", "2", "--dask", "local"]) == 0
    dask = capsys.readouterr().out

    def rows(text: str) -> list[object]:
        out = [json.loads(line) for line in text.splitlines()]
        for row in out:
            if isinstance(row, dict) and isinstance(row.get("summary"), dict):
                row["summary"].pop("seconds", None)  # the only thing that may differ
        return out

    assert rows(dask) == rows(local) and len(rows(local)) > 2
