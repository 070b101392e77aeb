"""Golden playthroughs (OpenSpiel style): replay the moves recorded in
``fixtures/golden/*.txt`` and compare the per-move dump line by line (events, scores, supplies,
state hashes: L4). After an intended rule change, regenerate with
``.venv/bin/python tools/golden.py`` and review ``git diff fixtures/golden``.

Every file says in its header which game it records, so the set is read from the folder; it
must cover every family and expansion mix of the registry (a new family joins by registering
and getting a golden game).
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from replay.core.family import families
from replay.core.playthrough import dump, log_of, read_playthrough
from replay.core.verify import verify

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "golden"
FILES = sorted(p.name for p in GOLDEN_DIR.glob("*.txt"))


def _diff(expected: str, actual: str) -> list[str]:
    return list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "golden",
                                     "replay", lineterm="", n=2))


def test_golden_set_covers_every_family_and_expansion_mix() -> None:
    """Each game family of the registry, with each combination of its expansions, has a golden
    game (tools/golden.py writes them)."""
    covered = set()
    for name in FILES:
        header, _ = read_playthrough((GOLDEN_DIR / name).read_text(encoding="utf-8"))
        covered.add((header["game"], tuple(sorted(header["expansions"]))))
    wanted = {(f.name, tuple(sorted(mix))) for f in families() for mix in f.mixes()}
    assert wanted <= covered, f"no golden game for {sorted(wanted - covered)}"
    assert len(wanted) >= 5


@pytest.mark.parametrize("name", FILES)
def test_golden_playthrough_L4(name: str) -> None:
    path = GOLDEN_DIR / name
    expected = path.read_text(encoding="utf-8")
    header, moves = read_playthrough(expected)
    actual = dump(header, moves, name[:-4])
    exp_lines, act_lines = expected.splitlines(), actual.splitlines()
    for n, (e, a) in enumerate(zip(exp_lines, act_lines, strict=False), 1):
        if e != a:
            diff = "\n".join(_diff(expected, actual)[:40])
            pytest.fail(
                f"{name} line {n} differs:\n  golden: {e}\n  replay: {a}\n\n{diff}\n\n"
                "If the rule change is intended: .venv/bin/python tools/golden.py and review "
                "the diff.", pytrace=False)
    assert len(exp_lines) == len(act_lines), (
        f"{name}: golden has {len(exp_lines)} lines, replay {len(act_lines)}")


@pytest.mark.parametrize("name", FILES)
def test_golden_game_is_complete_and_verifies(name: str) -> None:
    """The recorded moves make a whole, valid game for the verifier too (G11, L3)."""
    header, moves = read_playthrough((GOLDEN_DIR / name).read_text(encoding="utf-8"))
    report = verify(log_of(header, moves))
    assert report.valid and report.finished, report.failure
    assert report.moves_played == len(moves)


def test_golden_dump_shows_a_change_where_it_happens() -> None:
    """A changed consequence shows up as a local, readable diff: every line before the changed
    move stays the same, and the move's own block is where the first difference is."""
    text = (GOLDEN_DIR / FILES[0]).read_text(encoding="utf-8")
    header, moves = read_playthrough(text)
    k = next(i for i, m in enumerate(moves) if "figure" in m and i > 0)
    changed = [dict(m) for m in moves]
    del changed[k]["figure"]  # fewer figures on the board never makes a later move illegal (G6)
    other = dump(header, changed, FILES[0][:-4]).splitlines()
    lines = text.splitlines()
    first = next(n for n, (a, b) in enumerate(zip(lines, other, strict=False)) if a != b)
    start = next(n for n, line in enumerate(lines) if line.startswith(f"move {k} "))
    assert first == start, (lines[first], other[first])
    assert any(line.startswith("-  figure ") for line in _diff(text, "\n".join(other)))
