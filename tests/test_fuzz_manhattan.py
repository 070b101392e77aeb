"""Property-based fuzzing of the Manhattan engine (M1-M10), in the style of ``test_fuzz``: the
family's own machine (``Manhattan.fuzz_machine``: ``replay.games.manhattan.fuzz``, its checker
``fuzz_checker`` and the rules it restates ``fuzz_rules``; ``python -m replay fuzz --game
manhattan`` runs the same) plays whole games of 2, 3 and 4 players, seeded and table games,
sometimes with other material and seats, and checks after every step, besides what every
family owes (``replay.lab.machines``): pieces and cards conserved, a shadow model of the board,
M2's reading of a card, M5's take-overs and the legal builds (brute force), turn order and
rounds (M4, M7, M8), each round's scores recomputed (M6, M10), the log's header read back, and
20 kinds of illegal move refused with their rule and nothing changed.

Profiles: those of ``replay.lab.machines`` (``fuzz-ci`` by default, ``fuzz-heavy`` with
``CARCASSONNE_FUZZ=heavy``). ``--hypothesis-show-statistics`` shows how often the interesting
states were reached; ``test_fuzz_reaches_interesting_states`` checks the claim on fixed seeds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from replay.core.rng import SeededStream
from replay.games.manhattan.fuzz import ManhattanMachine
from replay.games.manhattan.fuzz_checker import ManhattanChecker, pick_move
from replay.games.manhattan.fuzz_rules import (
    COLOURS,
    MAJORITY,
    SIDES,
    TALLEST,
    Setup,
    deck_of,
    fingerprint,
    lot_from,
    may_build,
    new_game,
    ownership_problems,
    round_scores,
)
from replay.games.manhattan.material import Material
from replay.generate import config_for
from replay.lab.machines import check_game, fuzz_case, generated, play_out

__all__ = ["fingerprint"]  # test_properties reads Manhattan's positions with it


def play_checked(setup: Setup, policy_seed: str, spread: int,
                 takeover: int) -> ManhattanChecker:
    """A whole game chosen by a seeded stream with the machine's policy, every move checked."""
    checker = ManhattanChecker(new_game(setup.config()))
    play_out(checker, lambda choose, roll: pick_move(checker, choose, roll, spread, takeover),
             SeededStream(policy_seed, "fuzz-manhattan"))
    return checker


def play_generated(players: int, seed: int) -> ManhattanChecker:
    """A game of the engine's own generator (``python -m replay generate``), checked."""
    state, moves = generated(config_for("manhattan", players, seed))
    checker = ManhattanChecker(state)
    for _ in check_game(checker, moves):
        pass
    assert checker.finished
    checker.check_log()
    return checker


TestFuzzManhattan = fuzz_case(ManhattanMachine)


# ---------------------------------------------------------------------------- fixed seeds

INTERESTING = ("take-over", "tied tallest building (M10)", "tied city majority (M10)",
               "reshuffle", "discard (no legal build)")


def fixed_games() -> Iterator[ManhattanChecker]:
    """36 games: 12 of the engine's generator (2, 3 and 4 players), 12 of the machine's policy
    (seeded and table, several styles of play) and 12 with a hand of one card and a spread
    style, so that discards (no legal build) happen."""
    for k in range(12):
        yield play_generated(2 + k % 3, 500 + k)
    for k in range(12):
        players = 2 + k % 3
        if k % 2:
            order = list(deck_of(Material()))
            SeededStream(str(k), "fuzz-deal").shuffle(order)
            setup = Setup(players, None, deal_order=tuple(order))
        else:
            setup = Setup(players, str(700 + k), sides=tuple(SIDES[-players:]))
        yield play_checked(setup, f"policy-{k}", spread=25 * (k % 4), takeover=30 * (k % 3))
    one_card = Material(hand_size=1)
    for k in range(12):
        yield play_checked(Setup(2 + k % 3, str(900 + k), material=one_card), f"spread-{k}",
                           spread=90, takeover=0)


def test_fuzz_reaches_interesting_states(capsys: pytest.CaptureFixture[str]) -> None:
    """The fixed-seed games, every move checked, reach take-overs, tied tallest buildings,
    tied majorities, reshuffles and discards (so the claim of the statistics is checked by CI,
    not only shown)."""
    reached: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for checker in fixed_games():
        reached.update(checker.seen)
        games.update(label for label in checker.seen if label in INTERESTING)
    with capsys.disabled():
        print("\nManhattan fixed-seed games (36): " + ", ".join(
            f"{label}: {reached[label]} in {games[label]} games" for label in INTERESTING))
    missing = [label for label in INTERESTING if not reached[label]]
    assert not missing, f"never reached in 36 fixed games: {missing}; reached {dict(reached)}"
    assert reached["game finished"] == 36


# ---------------------------------------------------------------------------- the checker itself


def test_lot_from_restates_M2() -> None:
    """The restated reading of a card (far and left edges) on the corners and the centre."""
    assert [lot_from(0, s) for s in SIDES] == [0, 2, 8, 6]
    assert [lot_from(1, s) for s in SIDES] == [1, 5, 7, 3]
    assert all(lot_from(4, s) == 4 for s in SIDES)
    assert all(sorted(lot_from(c, s) for c in range(9)) == list(range(9)) for s in SIDES)


def test_round_scores_restates_M6_and_M10_on_the_rulebook_example() -> None:
    """The checker's own scoring gives the totals of the rulebook example (M9), and nobody
    the points of a tie (M10)."""
    from .test_manhattan import m9_board

    points: Counter[str] = Counter()
    for _, _, p, colour in round_scores(m9_board(), COLOURS):
        if colour is not None:
            points[colour] += p
    assert [points[c] for c in COLOURS] == [8, 9, 6, 4]
    tie = {(0, 0): [("blue", 2)], (0, 1): [("black", 2)]}
    assert round_scores(tie, COLOURS) == [
        ("tallest building", None, TALLEST, None), ("city majority", 0, MAJORITY, None),
        ("building", None, 1, "blue"), ("building", None, 1, "black")]


def test_the_checker_restates_M5() -> None:
    """The checker's take-over rule and ownership invariant refuse what M5 refuses (so a
    wrong take-over the engine let through would be caught)."""
    stack = [("black", 2), ("black", 2)]
    assert not may_build(stack, "blue", 3) and may_build(stack, "blue", 4)
    assert may_build([("black", 2), ("blue", 1)], "blue", 1)  # own building: no limit
    assert may_build([("blue", 1), ("black", 2)], "blue", 1)  # 2 >= 2: as many is enough
    assert not may_build([("blue", 1), ("black", 3)], "blue", 1)
    assert may_build(None, "red", 1) and may_build([], "red", 1)
    assert ownership_problems({(0, 4): [*stack, ("blue", 4)], (1, 0): [("red", 1)]}) == []
    (problem,) = ownership_problems({(0, 4): [*stack, ("red", 3)]})
    assert problem.startswith("M5: (0, 4) is red's with 3 storeys")
