"""Sheep tokens of a JCloisterZone 5.7+/6.x save, re-derived (import-formats.md §1.10).

A save stores no tokens. JCZ draws them with a generator holding one double ``r``: it starts
as ``initialRandom``, a message with a ``random`` sets it, and each ``nextInt(bound)`` takes
``floor(r * bound)`` and then steps ``r`` through java.util.Random's LCG (from 5.9.0). Random
tile draws and sheep draws consume it. The bag is the 18 tokens less those on the board, in
the order 1, 2, 3, 4 sheep, wolf.

The fields come from the project's own engine: ``Flocks`` replays the converted moves with
``CarcassonneState`` and reads the flocks on the board before each draw.
"""

from __future__ import annotations

import struct
from collections import Counter
from typing import Any

from ....core.errors import IllegalMove, LogFormatError
from ....core.record import parse
from ..state import CarcassonneState

MASK48 = (1 << 48) - 1
MULTIPLIER = 25214903917
BAG = {1: 4, 2: 5, 3: 5, 4: 2, "wolf": 2}  # JCZ order: 1, 2, 3, 4 sheep, wolf


class Generator:
    """JCZ's ``RandomGenerator``: one double, set by messages, stepped by each draw."""

    def __init__(self, r: float, stepping: bool = True) -> None:
        self.r = float(r)
        self.stepping = stepping

    def set(self, r: float) -> None:
        self.r = float(r)

    def next_int(self, bound: int) -> int:
        """floor(r * bound), then (from 5.9.0) r steps to the LCG's next 48-bit state / 2^48."""
        result = int(self.r * bound)
        if self.stepping:
            bits = struct.unpack(">q", struct.pack(">d", self.r))[0] & MASK48
            self.r = ((MULTIPLIER * bits + 11) & MASK48) / float(1 << 48)
        return result


def is_random(value: Any) -> bool:
    """A JSON number usable as a JCZ random double (not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < 1


def jcz_bag(on_board: Counter[Any]) -> list[Any]:
    """The tokens in the bag, in JCZ's order, given those on the board."""
    out: list[Any] = []
    for token, n in BAG.items():
        out.extend([token] * (n - on_board.get(token, 0)))
    return out


class Flocks:
    """The converted game replayed by the project's engine, to know the flocks on the board."""

    def __init__(self, header: dict[str, Any]) -> None:
        record = parse({**header, "moves": []})
        self.family = record.family
        state = record.new_state()
        assert isinstance(state, CarcassonneState)
        self.state: CarcassonneState | None = state
        self.failure: str | None = None

    def step(self, move: dict[str, Any]) -> str | None:
        """Play one converted move; the engine's objection when it rejects it (the replay then
        stops, and the verifier reports the move)."""
        if self.state is None:
            return None
        try:
            self.state.step(self.family.decode_move(move, "/moves/-"))
        except (IllegalMove, LogFormatError) as exc:
            self.failure = exc.message
            self.state = None
            return exc.message
        return None

    def flock_locations(self, move: dict[str, Any]) -> list[str]:
        """The fields of the player's shepherd that this placement extends (HS3)."""
        assert self.state is not None
        tile = self.state.tiles_by_id[move["tile"]]
        return self.state.flock_required(tile, move["x"], move["y"], move["rotation"])

    def on_board(self) -> Counter[Any]:
        """The tokens in flocks on the board now."""
        assert self.state is not None
        return _tokens(self.state)

    def freed_first(self, move: dict[str, Any]) -> Counter[Any]:
        """The tokens JCZ returns to the bag before a flock choice: those of the closed fields
        with shepherds that are not the pending field (JCZ herds them first, §1.10 step 3)."""
        assert self.state is not None
        trial = self.state.copy()
        graph = trial.graph
        before = {root: list(feat.tokens) for root, feat in _roots(trial) if feat.tokens}
        herd = {**move, "flock": [{"at": c["at"], "action": "herd"} for c in move["flock"]]}
        herd.pop("tokens", None)
        try:
            trial.step(self.family.decode_move(herd, "/moves/-"))
        except (IllegalMove, LogFormatError):
            return Counter()
        placement = trial.board[(move["x"], move["y"])]
        rot = placement.tile.rotations[placement.rot]
        pending = {graph.find(placement.first_node + rot.locations[c["at"]])
                   for c in move["flock"]}
        freed: Counter[Any] = Counter()
        for root, tokens in before.items():
            now = graph.find(root)
            feat = graph.feature[now]
            if now not in pending and feat is not None and not feat.tokens:
                freed.update(_name(v) for _, v in tokens)
        return freed


def _roots(state: CarcassonneState) -> list[tuple[int, Any]]:
    graph = state.graph
    return [(n, graph.feature[n]) for n in range(len(graph.parent))
            if graph.find(n) == n and graph.feature[n] is not None]


def _name(value: int) -> Any:
    return "wolf" if value == 0 else value


def _tokens(state: CarcassonneState) -> Counter[Any]:
    out: Counter[Any] = Counter()
    for _, feat in _roots(state):
        out.update(_name(v) for _, v in feat.tokens)
    return out
