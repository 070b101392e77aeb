"""docs/events.md lists every registered event kind with exactly its fields, and its example
is what the engine emits."""

from __future__ import annotations

import json
import re
from pathlib import Path

import replay
from replay.core.events import KINDS

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| `([\w-]+)` \| `(?:[\w.]+\.)?(\w+)` \| (.*?) \| (.*?) \|$", re.M)


def test_every_event_kind_is_documented_with_its_fields() -> None:
    replay.families()  # registers every family and so its event kinds
    rows = {m.group(1): m for m in ROW.finditer(DOC)}
    assert set(rows) == set(KINDS), (set(rows) ^ set(KINDS))
    for kind, cls in KINDS.items():
        row = rows[kind]
        assert row.group(2) == cls.__name__, (kind, row.group(2))
        named = set(re.findall(r"^`(\w+)`|[;,] `(\w+)`", row.group(3)))
        fields = {a or b for a, b in named}
        assert set(cls._fields) <= fields, (kind, set(cls._fields) - fields)


def test_the_example_is_what_the_engine_emits() -> None:
    block = DOC.split("```json")[1].split("```")[0]
    game = replay.read_game(ROOT / "fixtures" / "rulebook" / "b9-tied-knights.json")
    assert json.loads(block) == [e.to_json() for e in game.playback.events[3]]
