"""Hidden information stays hidden (issue 37 item 2): ``GameState.redraw_hidden`` replaces what
the player to move cannot know by a draw from the caller's stream, so that game-playing agents
search redrawn states (determinizations), never the true future of a seeded log.

At positions of generated games of every family (Carcassonne with Inns & Cathedrals and Hills
& Sheep, Hunters & Gatherers, Manhattan; seeded and table logs): (a) two states equal in all
the mover has seen and different in the hidden part redraw to the same state for the same
stream, and play on alike; (b) the redrawn future is not the true one; (c) what the mover has
seen is unchanged; (d) a redrawn state has the true state's legal moves and plays to its end.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from replay.core.errors import IllegalMove
from replay.core.family import GameState, family
from replay.core.playback import play_through
from replay.core.record import parse
from replay.core.rng import SeededStream
from replay.core.verify import verify
from replay.games.hunters_gatherers.state import HuntersGatherersState
from replay.games.manhattan import ManhattanState
from replay.games.manhattan.moves import Build, Discard
from replay.generate import generate_log
from replay.tiles.hidden import hold
from replay.tiles.moves import TileMove
from replay.tiles.state import TileState

from .support import fixture_log
from .test_properties import scaled

# (game, expansions, players, seed): every family, the expansions with hidden parts of their own
GAMES = [("base", ("inns-cathedrals", "hills-sheep"), 3, 7), ("base", (), 2, 3),
         ("hunters-gatherers", (), 3, 7), ("manhattan", (), 3, 7), ("manhattan", (), 2, 1)]
TABLE_GAMES = [("base", ("inns-cathedrals",), 3, 7), ("hunters-gatherers", (), 2, 5),
               ("manhattan", (), 3, 7)]
FRACTIONS = (0, 1, 2, 3)  # positions at 0, 1/4, 2/4, 3/4 of the game
SEEDS = 20  # the redraws compared for a leak of the true future (b)
ROOT = Path(__file__).resolve().parent.parent


def _log(game: str, expansions: tuple[str, ...], players: int, seed: int,
         table: bool = False) -> Any:
    log = generate_log(game, players, seed, expansions)
    if table:
        del log["seed"]  # every move names its draw: a valid table log
        report = verify(log)
        assert report.valid, report.failure
    return parse(log)


def _positions(spec: tuple[Any, ...], table: bool = False) -> list[GameState]:
    game, expansions, players, seed = spec
    record = _log(game, expansions, players, seed, table)
    played = record.playback
    return [played.position(len(record.moves) * q // 4).state for q in FRACTIONS]


def redrawn(state: GameState, seed: str) -> GameState:
    """A copy of ``state`` redrawn for its player to move with the stream of ``seed``."""
    seat = state.current_player
    assert seat is not None
    out = state.copy()
    out.redraw_hidden(seat, SeededStream(seed, "redraw"))
    return out


def encoded(state: GameState, moves: Any) -> list[str]:
    return sorted(json.dumps(state.family.encode_move(m), sort_keys=True) for m in moves)


# ------------------------------------------------------------ what the mover sees, what it cannot


def seen(state: GameState) -> tuple[Any, ...]:
    """Everything the player to move has seen (and the multiset of what it has not)."""
    common = (state.current_player, state.moves_played, tuple(state.scores), state.finished,
              tuple(tuple(sorted(state.supply_of(s).items())) for s in range(len(state.scores))))
    if isinstance(state, ManhattanState):
        seat = state.current_player
        assert seat is not None
        others = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
        return (*common, sorted(state.hands[seat]), [len(h) for h in state.hands],
                list(state.played), state.reshuffles, sorted(Counter(state.pile + others).items()),
                sorted((k, tuple(v)) for k, v in state.board.items()), state.phase, state.round)
    assert isinstance(state, TileState)
    return (*common, tuple((p.cell, p.tile.id, p.rot) for p in state.placements),
            list(state.discarded), sorted(tiles_left(state).items()),
            sorted(bonus_left(state).items()))


def tiles_left(state: TileState) -> Counter[str]:
    """The tiles not placed nor discarded, by id: the one in hand, the pile, the unseen ones
    (Hills & Sheep's under hills), known or not."""
    if state.config.seed is None:
        left = Counter({k: n for k, n in state.remaining.items() if n})
    else:
        left = Counter(t.id for t in state.pile[state.pile_pos:])
        left.update([state.current.id] if state.current is not None else [])
    left.update(t for t in state._drawn_unseen() if t != "?")
    return left


def bonus_left(state: TileState) -> Counter[str]:
    """Hunters & Gatherers' bonus tiles not played yet (HG7)."""
    if not isinstance(state, HuntersGatherersState):
        return Counter()
    if state.bonus_remaining:
        return Counter({k: n for k, n in state.bonus_remaining.items() if n})
    return Counter(t.id for t in state.bonus_stack[state.bonus_pos:])


def hidden(state: GameState) -> tuple[Any, ...]:
    """The hidden part as it is (what a redraw replaces), and the hash."""
    if isinstance(state, ManhattanState):
        return state.state_hash, [list(h) for h in state.hands], list(state.pile)
    assert isinstance(state, TileState)
    return (state.state_hash, [t.id for t in state.pile], state._drawn_unseen(),
            [t.id for t in getattr(state, "bonus_stack", [])])


def next_hidden(state: GameState) -> Any:
    """What the true future reveals first: the next card of the pile and the others' hands,
    the next tile of the pile."""
    if isinstance(state, ManhattanState):
        seat = state.current_player
        return (state.pile[:1], [sorted(h) for s, h in enumerate(state.hands) if s != seat])
    assert isinstance(state, TileState)
    rest = state.pile[state.pile_pos:]
    return rest[0].id if rest else None


def permuted(state: GameState) -> GameState:
    """A copy of ``state`` that differs from it only in what its player to move cannot know:
    two tiles of the pile swapped (and a tile under a hill, a bonus tile, the sheep bag's
    stream), or cards swapped between another hand and the pile and the pile reordered."""
    out = state.copy()
    if isinstance(out, ManhattanState):
        seat = out.current_player
        deck = out.deck
        deck.pile = list(reversed(deck.pile))
        other = next(s for s in range(len(deck.hands)) if s != seat)
        for i, card in enumerate(deck.hands[other]):
            j = next((j for j, c in enumerate(deck.pile) if c != card), None)
            if j is not None:
                deck.hands[other][i], deck.pile[j] = deck.pile[j], card
                break
        deck.seed = "another future"  # the reshuffles to come
        return out
    assert isinstance(out, TileState)
    pile = out.pile = list(out.pile)
    pos = out.pile_pos
    for j in range(pos + 1, len(pile)):
        if pile[j].id != pile[pos].id:
            pile[pos], pile[j] = pile[j], pile[pos]
            break
    parts = getattr(out, "parts", {})
    if "hills-sheep" in parts:
        sheep = parts["hills-sheep"]
        sheep.stream = SeededStream("another future", "sheep")
        if sheep.hidden and len(pile) > pos:  # a tile under a hill swapped with the pile's
            old, new = sheep.hidden[0], pile[-1]
            pile[-1] = out.tiles_by_id[old]
            was = max(i for i in range(pos) if pile[i].id == old)  # where it was drawn
            pile[was] = new
            out.flip("hidden", 1, old)
            out.flip("hidden", 1, new.id)
            sheep.hidden[0] = new.id
    if isinstance(out, HuntersGatherersState) and out.bonus_stack:
        stack = out.bonus_stack = list(out.bonus_stack)
        stack[out.bonus_pos:] = reversed(stack[out.bonus_pos:])
    return out


def play_out(state: GameState, seed: str) -> list[str]:
    """Random legal moves (``play``) to the end; the state hashes on the way."""
    pick = SeededStream(seed, "playout")
    hashes = []
    while not state.finished:
        moves = list(state.legal_moves())
        assert moves, "a state not finished has a legal move"
        state.play(moves[pick.below(len(moves))])
        hashes.append(state.state_hash)
    return hashes


def land_moves(state: GameState) -> list[str]:
    """The legal moves as their first decision: a Hunters & Gatherers turn's land tile
    without the bonus tile it earns (drawn only once the land tile is down, HG7)."""
    moves = state.legal_moves()
    if hasattr(state, "bonus_stack"):
        moves = (m.with_bonus(None) for m in moves)
    return sorted(set(encoded(state, moves)))


# ------------------------------------------------------------ the tests


@pytest.mark.parametrize("spec", GAMES, ids=lambda s: f"{s[0]}{'+' if s[1] else ''}"
                         f"{'+'.join(s[1])}-{s[2]}p")
def test_a_redraw_depends_only_on_what_the_mover_has_seen(spec: tuple[Any, ...]) -> None:
    """(a) A state and its copy permuted in the hidden part (different before) are the same
    state after a redraw with the same stream, and play on alike; (c) the redraw leaves what
    the mover has seen alone."""
    differed = 0
    for state in _positions(spec):
        other = permuted(state)
        assert seen(other) == seen(state)
        differed += hidden(other) != hidden(state)
        for seed in ("1", "2"):
            one, two = redrawn(state, seed), redrawn(other, seed)
            assert hidden(one) == hidden(two)
            assert seen(one) == seen(two) == seen(state)
            assert play_out(one.copy(), seed) == play_out(two.copy(), seed)
    assert differed >= len(FRACTIONS) - 1  # (the permutation changed the hidden part)


@pytest.mark.parametrize("spec", GAMES, ids=lambda s: f"{s[0]}-{s[2]}p")
def test_the_true_future_is_not_leaked(spec: tuple[Any, ...]) -> None:
    """(b) Over 20 streams, the redrawn next tile (next card, other hands) is the true one
    about as often as chance allows, and the redraws differ from one another."""
    for state in _positions(spec)[:3]:
        true = next_hidden(state)
        draws = [next_hidden(redrawn(state, str(k))) for k in range(SEEDS)]
        hits = sum(d == true for d in draws)
        if isinstance(state, TileState):
            left = Counter(t.id for t in state.pile[state.pile_pos:])
            left.update(state._drawn_unseen())
            chance = left[true] / sum(left.values())
        else:
            chance = 0.5  # a bound: the next card and every other hand at once
        assert hits <= SEEDS * chance + 3 * math.sqrt(SEEDS * chance * (1 - chance)) + 1
        assert hits < SEEDS
        assert len({json.dumps(d) for d in draws}) > 1


@pytest.mark.parametrize("spec", GAMES, ids=lambda s: f"{s[0]}-{s[2]}p")
def test_a_redrawn_state_has_the_true_moves_and_plays_to_its_end(
        spec: tuple[Any, ...]) -> None:
    """(d) The legal moves now are the true state's (a Hunters & Gatherers turn's bonus tile
    aside: it is drawn after the land tile), and random play from the redrawn state, and
    from a copy of it, reaches the end; the hash stays the state's (a copy made on the way
    has it, and plays on alike)."""
    for q, state in enumerate(_positions(spec)):
        again = redrawn(state, f"d{q}")
        assert land_moves(again) == land_moves(state)
        if not hasattr(state, "bonus_stack"):
            assert encoded(again, again.legal_moves()) == encoded(state, state.legal_moves())
        twin = again.copy()
        assert twin.state_hash == again.state_hash
        assert play_out(again, str(q)) == play_out(twin, str(q))
        assert again.finished and state.moves_played <= again.moves_played


@pytest.mark.parametrize("spec", TABLE_GAMES, ids=lambda s: f"{s[0]}-{s[2]}p")
def test_a_table_state_is_redrawn_into_one_that_draws(spec: tuple[Any, ...]) -> None:
    """A table log names its draws, so its state draws nothing by itself: redrawn, it
    becomes a seeded-like one (a seed drawn from the stream) holding the same tiles or cards,
    its player to move having drawn one of those left; its moves are among the true ones
    (Manhattan: the same builds, with no card named to draw) and it plays to its end. Two
    redraws with the same stream are the same state, the hidden part permuted or not (the
    other hands a Manhattan table log's deal names are hidden from the mover too)."""
    for q, state in enumerate(_positions(spec, table=True)):
        assert state.config.seed is None
        again = redrawn(state, f"t{q}")
        assert again.config.seed is not None and state.config.seed is None
        assert hidden(again) == hidden(redrawn(state, f"t{q}"))
        assert hidden(again) == hidden(redrawn(permuted(state), f"t{q}"))
        if isinstance(state, ManhattanState):
            assert seen(again) == seen(state)
            true = [m.with_draw(None) if isinstance(m, (Build, Discard)) else m
                    for m in state.legal_moves()]
            assert encoded(again, again.legal_moves()) == sorted(set(encoded(state, true)))
        else:
            assert isinstance(again, TileState) and isinstance(state, TileState)
            assert again.current is not None
            assert seen(again) == seen(state)  # (the tiles left count the one in hand)
            assert set(land_moves(again)) <= set(land_moves(state))
        play_out(again, str(q))
        assert again.finished


def test_a_finished_state_and_a_game_without_hidden_parts_are_left_alone() -> None:
    """Nothing is hidden at the end; a family of perfect information keeps the default,
    which changes nothing and draws nothing."""
    record = _log("base", (), 2, 3)
    end = record.playback.position(len(record.moves)).state
    assert end.finished and end.current_player is None
    rng = SeededStream("1", "redraw")
    before = hidden(end)
    end.redraw_hidden(0, rng)
    assert hidden(end) == before
    state = record.playback.position(5).state
    GameState.redraw_hidden(state, 0, rng)  # the default of a game of perfect information
    assert hidden(state) == hidden(record.playback.position(5).state)
    assert rng.below(1 << 20) == SeededStream("1", "redraw").below(1 << 20)


@scaled(10)
@given(spec=st.sampled_from(GAMES), at=st.floats(0, 0.95), seed=st.integers(0, 10 ** 6))
def test_any_position_redraws_alike_from_alike(spec: tuple[Any, ...], at: float,
                                               seed: int) -> None:
    """The property behind (a) and (c) at any position and stream."""
    record = _log(*spec)
    state = record.playback.position(int(len(record.moves) * at)).state
    event(family(spec[0]).label)
    other = permuted(state)
    event("hidden part differed" if hidden(other) != hidden(state) else "nothing to permute")
    one, two = redrawn(state, str(seed)), redrawn(other, str(seed))
    assert hidden(one) == hidden(two) and seen(one) == seen(state)


def test_a_wrong_bonus_tile_leaves_a_redrawn_state_as_it_was() -> None:
    """A Hunters & Gatherers turn whose bonus tile is wrong is undone by rebuilding the game
    from its steps (``TileState._rewind``): on a redrawn state it rebuilds from the redrawn
    position, not from the log's seed, so ``apply`` stays atomic there."""
    record = _log("hunters-gatherers", (), 3, 7)
    tried = 0
    for n in range(0, len(record.moves), 3):
        state = redrawn(record.playback.position(n).state, str(n))
        assert isinstance(state, TileState)
        earning = [m for m in state.legal_moves() if m.bonus is not None
                   and not m.bonus.discard]
        if not earning:
            continue
        before, pile = hidden(state), [t.id for t in state.pile[state.pile_pos:]]
        wrong = earning[0].with_bonus(TileMove(999, 999, 0, earning[0].bonus.tile))
        with pytest.raises(IllegalMove):
            state.apply(wrong)
        assert hidden(state) == before and [t.id for t in state.pile[state.pile_pos:]] == pile
        state.apply(earning[0])  # and it plays on
        tried += 1
    assert tried


def test_a_redrawn_table_state_holds_the_tile_its_log_names_next() -> None:
    """A table log's next move names the tile its player drew: ``hold`` puts it in the hand
    of the redrawn state (the drawn one back in the pile), whose moves are then the true
    state's moves of that tile; refused clearly on a table state, an unknown or absent tile."""
    record = _log("base", ("inns-cathedrals",), 3, 7, table=True)
    swapped = 0
    for n in (0, 20, 40):
        state = record.playback.position(n).state
        assert isinstance(state, TileState)
        named = record.moves[n].tile
        assert named is not None
        with pytest.raises(ValueError, match="draws its tiles"):
            hold(state.copy(), named)
        again = redrawn(state, str(n))
        assert isinstance(again, TileState)
        left = tiles_left(again)
        swapped += again.current is not None and again.current.id != named
        hold(again, named)
        assert again.current is not None and again.current.id == named
        assert tiles_left(again) == left and seen(again) == seen(state)
        true = [m for m in state.legal_moves() if m.tile == named]
        assert encoded(again, again.legal_moves()) == encoded(state, true)
        with pytest.raises(ValueError, match="no tile 'nothing'"):
            hold(again, "nothing")
        play_out(again, str(n))
    assert swapped  # (a tile other than the one drawn was put in hand)


def test_a_tile_under_a_hill_is_redrawn_whether_a_table_log_named_it_or_not() -> None:
    """HS7 in a table log: the tile under a hill is unseen whether the log names it ("C") or
    not ("?"); both states redraw to the same one, which counts the same tiles left, names
    a real tile under the hill and plays to its end."""
    unnamed = fixture_log("expansions", "hs8-hill-breaks-tie")
    named = fixture_log("expansions", "hs8-hill-breaks-tie")
    named["moves"][1]["hidden"] = "C"
    one, two = (play_through(parse(log)).position(2).state for log in (unnamed, named))
    assert isinstance(one, TileState) and isinstance(two, TileState)
    assert one._drawn_unseen() == ["?"] and two._drawn_unseen() == ["C"]
    assert one.tiles_left() == two.tiles_left()
    for seed in ("1", "2", "3"):
        a, b = redrawn(one, seed), redrawn(two, seed)
        assert isinstance(a, TileState) and isinstance(b, TileState)
        assert hidden(a) == hidden(b) and a._drawn_unseen() != ["?"]
        assert a.tiles_left() == one.tiles_left()
        assert tiles_left(a) == tiles_left(b)
        play_out(a, seed)
        assert a.finished


def test_a_redraw_is_the_same_under_any_hash_seed() -> None:
    """The redrawn state (hash, pile, hands) is the same whatever ``PYTHONHASHSEED``."""
    script = ("from tests.test_hidden import _positions, redrawn, hidden\n"
              "print([hidden(redrawn(s, '5')) for spec in "
              "[('base', ('inns-cathedrals', 'hills-sheep'), 3, 7), ('manhattan', (), 3, 7)] "
              "for s in _positions(spec)[1:3]])")
    outs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed}
                           ).stdout for seed in ("1", "2")}
    assert len(outs) == 1 and "[" in outs.pop()
