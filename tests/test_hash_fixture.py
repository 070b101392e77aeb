"""Speed work changes no result: 2,160 generated games, of every family and of several player
counts and mixes, give the same log bytes and the same per-move state hashes (L4) as the
engine that wrote ``fixtures/hashes/generated.json`` (``tools/hash_fixture.py``).

The tile-laying configurations of the first 120 seeds of each configuration were checked
against the engine as it stood before the work of this fixture's commit (da14ee2): all 720
games identical. The whole fixture (240 seeds a configuration) was then written by the
pure-Python engine of e9315be, before the compiled core and the other speed work of issue
15; its first 120 seeds a configuration were the stored ones, byte for byte."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import hash_fixture  # noqa: E402

STORED = json.loads(hash_fixture.FIXTURE.read_text(encoding="utf-8"))


def test_the_fixture_covers_every_family() -> None:
    from replay.core.family import families
    games = {label.split()[0].split("+")[0] for label in STORED}
    assert games == {f.name for f in families()}
    assert sum(len(v) for v in STORED.values()) >= 2000


@pytest.mark.parametrize("label", [c[0] for c in hash_fixture.CONFIGS])
def test_generated_games_keep_their_hashes_L4(label: str) -> None:
    fresh = hash_fixture.config_records(label)
    stored = STORED[label]
    assert set(fresh) == set(stored)
    wrong = [seed for seed in fresh if fresh[seed] != stored[seed]]
    assert not wrong, (f"{label}: {len(wrong)} of {len(fresh)} games differ (seeds "
                       f"{', '.join(wrong[:5])}): the log bytes or the state hashes changed")
