"""The log and verification contract (L1-L4), the broken-log corpus and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.cli import main
from replay.core.family import families
from replay.core.playback import play_through
from replay.core.record import parse
from replay.core.verify import verify
from replay.generate import dumps, generate_log
from replay.tiles.state import TileState

from .support import FIXTURES, ROOT, load

INVALID = FIXTURES / "invalid"
MANIFEST: dict[str, dict[str, Any]] = json.loads((INVALID / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_L3_broken_log_corpus(name: str) -> None:
    """Every broken log stops at the expected place with the expected rule (or JSON path), and
    its message names what is involved (the words of the manifest's ``message``, if any)."""
    expect = MANIFEST[name]
    report = verify(INVALID / name)
    assert report.exit_code == expect["exit"]
    assert report.failure is not None and not report.valid
    if expect["exit"] == 2:
        assert report.failure.path == expect["path"]
    else:
        assert report.failure.rule == expect["rule"]
        assert report.failure.move == expect["move"]
    for words in expect.get("message", []):
        assert words in report.failure.message, (words, report.failure.message)
    line = report.line()
    assert "\n" not in line and "Traceback" not in line and name in line


def test_L3_corpus_covers_every_kind_of_violation() -> None:
    rules = {e.get("rule") for e in MANIFEST.values()}
    assert {"G4", "G5", "G6", "G11", "L1", "L2", "B1"} <= rules
    assert sum(1 for e in MANIFEST.values() if e["exit"] == 2) >= 8


def _game_of(path: Path) -> str | None:
    """The ``game`` of a log file that is a JSON object naming one (None otherwise)."""
    try:
        data = json.loads(path.read_bytes())
    except ValueError:  # not JSON, or not UTF-8: broken on purpose
        return None
    game = data.get("game") if isinstance(data, dict) else None
    return game if isinstance(game, str) else None


def test_L3_corpus_covers_every_family() -> None:
    """Every family of the registry has a broken log in the corpus: a new family joins the
    corpus test by registering (and needs its broken logs in fixtures/invalid/)."""
    assert all((INVALID / name).is_file() for name in MANIFEST)
    covered = {_game_of(INVALID / name) for name in MANIFEST}
    missing = sorted(f.name for f in families() if f.name not in covered)
    assert not missing, f"no broken log in fixtures/invalid/ for {missing}"
    assert len(families()) >= 2


def test_L3_manhattan_corpus_covers_its_rules() -> None:
    """Manhattan's broken logs break M1-M5, M7 and M8 (moves and header) and the schema of
    its moves; each names in its message what is involved."""
    manhattan = {name: e for name, e in MANIFEST.items()
                 if _game_of(INVALID / name) == "manhattan"}
    assert all(e.get("message") for e in manhattan.values())
    rules = Counter(e.get("rule") for e in manhattan.values() if e["exit"] == 1)
    assert set(rules) == {"M1", "M2", "M3", "M4", "M5", "M7", "M8"}
    assert rules["M3"] >= 5 and rules["M4"] >= 3 and rules["M5"] >= 2
    assert any(e["exit"] == 1 and e["move"] is None for e in manhattan.values())  # header
    assert sum(e["exit"] == 2 for e in manhattan.values()) >= 2
    for name in manhattan:  # cut right after the broken move
        moves = load(INVALID / name)["moves"]
        move = manhattan[name].get("move")
        assert move is None or len(moves) == move + 1, name


def test_L1_header_names_version_game_players_seed() -> None:
    log = generate_log("base", 3, 9)
    parsed = parse(log)
    assert parsed.config.seed == "9" and [p.name for p in parsed.config.players] == \
        ["Ada", "Ben", "Cleo"]
    assert log["version"] == 1 and log["format"] == "carcassonne-replay/log"


def test_L1_seeded_move_may_omit_its_tile() -> None:
    log = generate_log("base", 2, 13)
    bare = {**log, "moves": [{k: v for k, v in m.items() if k != "tile"} for m in log["moves"]]}
    a, b = verify(log), verify(bare)
    assert a.valid and b.valid and a.hashes == b.hashes


def test_L1_table_log_is_checked_against_the_tile_set() -> None:
    report = verify(INVALID / "overdrawn-tile.json")
    assert report.failure is not None and report.failure.rule == "L1"
    assert "more often than the set holds" in report.failure.message


def test_L2_claims_per_move_and_final_are_checked() -> None:
    log = generate_log("base", 2, 17)
    ok = verify(log)
    assert ok.valid and ok.claims == []
    bad = json.loads(json.dumps(log))
    bad["claims"]["final_scores"]["Ben"] += 5
    bad["moves"][20]["scores"] = {"Ada": 1000}
    report = verify(bad)
    assert not report.valid and report.exit_code == 1
    assert [c.move for c in report.claims] == [20, None]
    assert report.failure is not None and report.failure.rule == "L2"


def test_L3_stops_at_the_first_illegal_move() -> None:
    log = generate_log("base", 2, 19)
    log["moves"][12].update(x=99, y=99)
    log["moves"][30].update(x=99, y=99)
    report = verify(log)
    assert report.failure is not None and report.failure.move == 12
    assert report.moves_played == 12 and len(report.hashes) == 12


def test_L4_same_log_same_hashes_and_result() -> None:
    log = generate_log("base", 4, 23)
    a, b = verify(log), verify(json.loads(dumps(log)))
    assert a.hashes == b.hashes and a.final_scores == b.final_scores
    assert len(set(a.hashes)) == len(a.hashes)  # every move changes the state


def test_L4_hashes_do_not_depend_on_PYTHONHASHSEED(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(dumps(generate_log("base", 3, 29)))
    out = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        res = subprocess.run([sys.executable, "-m", "replay", "verify", "--json", str(path)],
                             env=env, capture_output=True, text=True, cwd=ROOT, check=True)
        out.append(json.loads(res.stdout)["state_hash"])
    assert out[0] == out[1]


def test_generate_is_byte_identical_for_a_seed(tmp_path: Path, capsys: Any) -> None:
    assert main(["generate", "--seed", "5", "--players", "3"]) == 0
    first = capsys.readouterr().out
    assert main(["generate", "--seed", "5", "--players", "3"]) == 0
    assert capsys.readouterr().out == first
    assert main(["generate", "--seed", "0", "--count", "5", "--out", str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 5
    assert main(["verify", *map(str, files)]) == 0


def test_generate_then_verify_round_trips_for_many_seeds() -> None:
    for seed in range(40):
        for players in (2, 3, 5):
            report = verify(json.loads(dumps(generate_log("base", players, seed))))
            assert report.valid and report.finished, report.line()


def test_cli_exit_codes_and_json(capsys: Any) -> None:
    files = [str(FIXTURES / "rulebook" / "b9-final-scoring.json"),
             str(INVALID / "occupied-cell.json"), str(INVALID / "malformed-json.json")]
    assert main(["verify", files[0]]) == 0
    assert main(["verify", files[0], files[1]]) == 1
    assert main(["verify", *files]) == 2
    capsys.readouterr()
    assert main(["verify", "--json", *files]) == 2
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["valid"] for r in rows] == [True, False, False]
    assert rows[0]["winners"] == ["Vert"] and rows[0]["final_scores"]["Jaune"] == 5
    assert rows[1]["error"]["rule"] == "G4" and rows[1]["error"]["move"] == 6  # from 1
    assert rows[1]["error"]["entry"] == "/moves/5" and rows[1]["report_version"] == 2
    assert rows[2]["error"]["path"] == ""
    for key in ("valid", "final_scores", "winners", "state_hash", "error"):
        assert key in rows[0]


def test_cli_missing_file_is_exit_2(capsys: Any) -> None:
    assert main(["verify", "/nonexistent/game.json"]) == 2
    assert "cannot read file '/nonexistent/game.json'" in capsys.readouterr().out


# ---------------------------------------------------------------- bad input


def test_bad_input_giant_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as fh:
        fh.write(b'{"moves": [' + b" " * (50 * 1024 * 1024) + b"]}")
    report = verify(path)
    assert report.exit_code == 2 and report.failure is not None
    assert "limit" in report.failure.message


def test_bad_input_hundred_thousand_moves() -> None:
    log = generate_log("base", 2, 3)
    log["moves"] = log["moves"] * 1500
    report = verify(log)
    assert report.exit_code == 2 and report.failure is not None
    assert report.failure.path == "/moves"


def test_bad_input_deep_nesting_and_odd_json() -> None:
    for text in ("[" * 100000 + "]" * 100000, "NaN", '{"a": Infinity}', "", "null", "[]",
                 '"text"', "{" * 5):
        report = verify(text.encode())
        assert report.exit_code == 2 and report.failure is not None
        assert report.failure.rule == "L1" and report.failure.message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**15, 10**15) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.fixed_dictionaries({}, optional={
    "format": st.just("carcassonne-replay/log"), "version": st.just(1), "game": st.just("base"),
    "players": st.just([{"name": "A"}, {"name": "B"}]), "moves": st.lists(json_values,
                                                                          max_size=4),
    "seed": json_values, "claims": json_values}))
def test_L3_verifier_never_crashes_on_arbitrary_json(data: dict[str, Any]) -> None:
    report = verify(data)
    assert report.exit_code in (0, 1, 2)
    if report.exit_code:
        assert report.failure is not None and report.failure.message


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 70), st.sampled_from(["x", "y", "rotation", "tile", "figure"]),
       json_values)
def test_L3_mutated_generated_logs_never_crash(index: int, key: str, value: Any) -> None:
    log = generate_log("base", 2, 31)
    log["moves"][index][key] = value
    report = verify(log)
    assert report.exit_code in (0, 1, 2)
    if report.failure is not None and report.failure.move is not None:
        assert report.failure.move >= index


def test_rulebook_fixtures_are_valid_and_their_claims_hold() -> None:
    for path in sorted((FIXTURES / "rulebook").glob("*.json")):
        report = verify(path)
        assert report.valid, report.line()
        assert load(path)["meta"]["caption"]


def test_replay_upto_gives_intermediate_states() -> None:
    parsed = parse(generate_log("base", 2, 37))
    full = play_through(parsed)
    half = play_through(parsed, upto=30)
    assert isinstance(half.state, TileState)
    assert half.hashes == full.hashes[:30] and len(half.state.placements) == 31


def test_L1_a_move_field_of_another_game_is_refused_with_its_path() -> None:
    """A Carcassonne move with a Hunters & Gatherers bonus tile, or a Hunters & Gatherers move
    with Hills & Sheep fields, is unreadable (exit 2) at the JSON path of the field."""
    base = generate_log("base", 2, 3)
    base["moves"][2]["bonus"] = {"x": 0, "y": 0, "rotation": 0}
    report = verify(base)
    assert report.exit_code == 2 and report.failure is not None
    assert report.failure.path == "/moves/2/bonus"
    assert "'bonus' is not a move field of Carcassonne" in report.failure.message
    hg = generate_log("hunters-gatherers", 2, 3)
    hg["moves"][4]["flock"] = [{"at": "N", "action": "herd"}]
    report = verify(hg)
    assert report.exit_code == 2 and report.failure is not None
    assert report.failure.path == "/moves/4/flock"
