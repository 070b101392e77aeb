"""The family interface (issue "Game families behind one interface"): the registry, whole
games played purely through ``legal_moves()`` -> ``apply`` for every family and expansion mix
(seeded and table games), the verifier accepting every game written so, ``check``/``is_legal``
that never change a state, atomic ``apply``, independent ``copy``, and a core that names no
game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import replay
from replay.core.errors import IllegalMove
from replay.core.family import Family, GameConfig, GameState, Player
from replay.core.record import log_json
from replay.core.rng import SeededStream

ROOT = Path(__file__).resolve().parent.parent
MIXES = [(f, mix) for f in replay.families() for mix in f.mixes()]


def _label(case: tuple[Family, tuple[str, ...]]) -> str:
    return "+".join((case[0].name, *case[1]))


def test_registry_lists_every_family() -> None:
    names = [f.name for f in replay.families()]
    assert names == ["base", "hunters-gatherers", "manhattan"]
    assert replay.family("base").label == "Carcassonne"
    assert set(replay.family("base").expansions) == {"inns-cathedrals", "hills-sheep"}
    assert replay.family("hunters-gatherers").mixes() == [()]
    assert len(replay.family("base").mixes()) == 4
    with pytest.raises(replay.LogFormatError) as info:
        replay.family("chess")
    assert info.value.path == "/game" and "'chess'" in info.value.message


def _config(fam: Family, mix: tuple[str, ...], players: int, seed: str | None) -> GameConfig:
    """A game's configuration; a table game (no seed) takes the header a seeded game of seed
    "0" writes (a family may need it: Manhattan's table logs name the deal, M3)."""
    seats = tuple(Player(n, c) for n, c in zip(("Ada", "Ben", "Cleo", "Dan"), fam.colours,
                                               strict=False))[:players]
    header: dict[str, Any] = {"expansions": list(mix)}
    if seed is None:
        header = fam.header_json(fam.configure(header, seats, "0"))
    return fam.configure(header, seats, seed)


def play_through_interface(fam: Family, mix: tuple[str, ...], players: int,
                           seed: str | None, stats: dict[str, int],
                           limit: int | None = None) -> dict[str, Any]:
    """A game chosen among ``legal_moves()`` and played with ``apply``, to its end or stopped
    after ``limit`` moves (``"end": "after-last-move"``); its log."""
    config = _config(fam, mix, players, seed)
    state = fam.new_state(config)
    pick = SeededStream(f"{seed}-{players}", "interface-test")
    moves: list[dict[str, Any]] = []
    while not state.finished and (limit is None or len(moves) < limit):
        legal = list(state.legal_moves())
        assert legal, "a game that is not over has a legal move (G5)"
        stats["positions"] += 1
        stats["moves offered"] += len(legal)
        move = legal[pick.below(len(legal))]
        before = state.state_hash
        state.check(move)  # never raises for a legal move, never changes the state
        assert state.is_legal(move) and state.state_hash == before
        moves.append(fam.encode_move(move))
        assert fam.decode_move(moves[-1], "/moves/-") == move, "encode/decode round trip"
        state.apply(move)
        assert state.state_hash != before
    stopped = not state.finished
    if stopped:
        state.end_now()
    names = [p.name for p in config.players]
    log = log_json(fam, config, moves, claims={
        "final_scores": dict(zip(names, state.scores, strict=True)),
        "winners": [names[p] for p in state.winners()]})
    if stopped:
        log["end"] = "after-last-move"
    return log


@pytest.mark.parametrize("case", MIXES, ids=_label)
def test_random_games_through_the_interface_verify(case: tuple[Family, tuple[str, ...]]) -> None:
    """A whole seeded game and the start of a table game (every tile left may come next, so
    its legal moves are many) of every family and expansion mix, played only through the
    interface: the verifier accepts each with its scores."""
    fam, mix = case
    stats = {"positions": 0, "moves offered": 0}
    for players, seed, limit in ((2, "7", None), (3, None, 16)):
        log = play_through_interface(fam, mix, players, seed, stats, limit)
        report = replay.verify(log)
        assert report.valid and report.finished, report.line()
        assert report.final_scores == log["claims"]["final_scores"]
    assert stats["moves offered"] > 5 * stats["positions"], stats


def _state(fam: Family, mix: tuple[str, ...] = ()) -> GameState:
    return fam.new_state(_config(fam, mix, 2, "3"))


@pytest.mark.parametrize("case", MIXES, ids=_label)
def test_illegal_apply_is_atomic_and_check_never_mutates(
        case: tuple[Family, tuple[str, ...]]) -> None:
    fam, mix = case
    state = _state(fam, mix)
    for _ in range(12):
        state.apply(next(state.legal_moves()))
    # a move legal in another game at the same point is, sooner or later, illegal here
    other = fam.new_state(_config(fam, mix, 2, "4"))
    bad = None
    for _ in range(40):
        bad = next((m for m in other.legal_moves() if not state.is_legal(m)), None)
        if bad is not None:
            break
        other.apply(next(other.legal_moves()))
    assert bad is not None
    before = (state.state_hash, list(state.scores), state.moves_played)
    with pytest.raises(IllegalMove) as info:
        state.check(bad)
    assert info.value.rule.startswith((*fam.rule_prefixes, "G", "L"))
    assert info.value.rule in repr(info.value) and info.value.move == state.moves_played
    with pytest.raises(IllegalMove):
        state.apply(bad)
    assert (state.state_hash, list(state.scores), state.moves_played) == before


@pytest.mark.parametrize("fam", replay.families(), ids=lambda f: f.name)
def test_copy_is_independent(fam: Family) -> None:
    state = _state(fam)
    for _ in range(5):
        state.apply(next(state.legal_moves()))
    twin = state.copy()
    assert twin.state_hash == state.state_hash and twin is not state
    move = next(twin.legal_moves())
    twin.apply(move)
    assert twin.state_hash != state.state_hash and twin.moves_played == state.moves_played + 1
    state.apply(move)
    assert twin.state_hash == state.state_hash


def test_table_state_names_its_missing_tile() -> None:
    """A table log draws no tile by itself: ``legal_placements()`` says so instead of []."""
    state = replay.family("base").new_state(_config(replay.family("base"), (), 2, None))
    with pytest.raises(ValueError, match="name the tile"):
        state.legal_placements()  # type: ignore[attr-defined]
    assert any(m.tile == "D" for m in state.legal_moves())


CORE = ["replay/core", "replay/tiles", "replay/cli.py", "replay/svg.py", "replay/generate.py",
        "replay/__init__.py", "web"]


def test_the_core_names_no_game() -> None:
    """The core, the tile machinery, the CLI and the web app ask the registry: no family or
    expansion name appears in their code (docs/rules: each family owns its names)."""
    names = {f.name for f in replay.families() if f.name != "base"}
    names |= {x for f in replay.families() for x in f.expansions}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names)) + r"|[\"']base[\"']")
    hits = []
    for root in CORE:
        path = ROOT / root
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for f in files:
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    hits.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)
