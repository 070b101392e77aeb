"""Golden playthroughs (OpenSpiel style, issue 6): replay the moves recorded in
``fixtures/golden/*.txt`` and compare the per-move dump line by line (events, scores, supplies,
state hashes: L4). After an intended rule change, regenerate with
``.venv/bin/python tools/golden.py`` and review ``git diff fixtures/golden``.
"""

from __future__ import annotations

import pytest

from replay.verify import verify_data
from tools import golden

SPECS = {spec.name: spec for spec in golden.GOLDEN}


def test_golden_set_covers_every_implemented_family() -> None:
    """Each game family the engine plays has a golden game, and the directory holds exactly the
    files of the implemented families (a family that just landed needs its file generated)."""
    active = golden.active_golden()
    assert {g.family for g in active} == set(golden.implemented_families())
    present = sorted(p.name for p in golden.GOLDEN_DIR.glob("*.txt"))
    expected = sorted(g.path.name for g in active)
    assert present == expected, (
        "fixtures/golden/ does not match the implemented families; run "
        ".venv/bin/python tools/golden.py and review the new files")


@pytest.mark.parametrize("name", sorted(SPECS))
def test_golden_playthrough_L4(name: str) -> None:
    spec = SPECS[name]
    reason = golden.unimplemented_reason(spec.family)
    if reason is not None:
        pytest.skip(reason)
    assert spec.path.is_file(), f"{spec.path} is missing: run .venv/bin/python tools/golden.py"
    expected = spec.path.read_text(encoding="utf-8")
    header, moves = golden.read_golden(expected)
    assert header == golden.header_of(spec), f"{spec.path}: header differs from tools/golden.py"
    actual = golden.dump(header, moves, spec.name)
    exp_lines, act_lines = expected.splitlines(), actual.splitlines()
    for n, (e, a) in enumerate(zip(exp_lines, act_lines, strict=False), 1):
        if e != a:
            diff = "\n".join(golden.diff_lines(expected, actual)[:40])
            pytest.fail(
                f"{spec.path.name} line {n} differs:\n  golden: {e}\n  replay: {a}\n\n{diff}\n\n"
                "If the rule change is intended: .venv/bin/python tools/golden.py and review "
                "the diff.", pytrace=False)
    assert len(exp_lines) == len(act_lines), (
        f"{spec.path.name}: golden has {len(exp_lines)} lines, replay {len(act_lines)}")


@pytest.mark.parametrize("name", sorted(SPECS))
def test_golden_game_is_complete_and_verifies(name: str) -> None:
    """The recorded moves make a whole, valid game for the verifier too (G11, L3)."""
    spec = SPECS[name]
    reason = golden.unimplemented_reason(spec.family)
    if reason is not None:
        pytest.skip(reason)
    header, moves = golden.read_golden(spec.path.read_text(encoding="utf-8"))
    report = verify_data(golden.log_of(header, moves))
    assert report.valid and report.finished, report.error
    assert report.moves_played == len(moves)


def test_golden_dump_shows_a_change_where_it_happens() -> None:
    """A changed consequence shows up as a local, readable diff: every line before the changed
    move stays the same, and the move's own block is where the first difference is."""
    spec = golden.active_golden()[0]
    text = spec.path.read_text(encoding="utf-8")
    header, moves = golden.read_golden(text)
    k = next(i for i, m in enumerate(moves) if "figure" in m and i > 0)
    changed = [dict(m) for m in moves]
    del changed[k]["figure"]  # fewer figures on the board never makes a later move illegal (G6)
    other = golden.dump(header, changed, spec.name).splitlines()
    lines = text.splitlines()
    first = next(n for n, (a, b) in enumerate(zip(lines, other, strict=False)) if a != b)
    start = next(n for n, line in enumerate(lines) if line.startswith(f"move {k} "))
    assert first == start, (lines[first], other[first])
    assert any(line.startswith("-  figure ") for line in golden.diff_lines(text, "\n".join(other)))
