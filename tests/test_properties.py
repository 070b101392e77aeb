"""Whole-game properties (issue 6): generated logs validate against the schema; replay is
deterministic (twice in one process, and under two ``PYTHONHASHSEED``s through the CLI: L4);
serialise -> parse -> replay is the identity; mutation testing of the verifier (L3); and the
fast move pre-check ``move_surely_valid`` never accepts a move the schema refuses. Every family
of the registry takes part (Manhattan's moves are mutated by their own fields, in seeded and
table logs).

Settings come from the profiles of ``replay.lab.machines`` (``CARCASSONNE_FUZZ=heavy`` for many
more examples).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from replay.core.errors import IllegalMove
from replay.core.family import families, family
from replay.core.playback import play_through
from replay.core.record import decode, parse, schema_check
from replay.core.schemas import validator
from replay.core.verify import verify
from replay.games.manhattan import ManhattanState
from replay.games.manhattan.material import CITIES, COLOURS
from replay.generate import dumps, generate_log
from replay.lab.machines import FUZZ, HEAVY, SEEDS
from replay.tiles.features import group_links, link
from replay.tiles.moves import TileMove
from replay.tiles.tileset import POSITIONS

from .test_fuzz import (
    FAMILIES,
    RULE_ID,
    Family,
    family_label,
    fingerprint,
    max_players,
    new_game,
    options_for,
)
from .test_fuzz_manhattan import fingerprint as manhattan_fingerprint

Options = tuple[tuple[str, Any], ...]  # a game's options as hashable items (for the cache)
ALL_FAMILIES: list[Family] = [(f.name, mix) for f in families() for mix in f.mixes()]
MANHATTAN: Family = ("manhattan", ())

ROOT = Path(__file__).resolve().parent.parent


def scaled(n: int) -> settings:
    """``n`` examples in the CI profile, 20 times as many in the heavy one."""
    return settings(FUZZ, max_examples=n * (20 if HEAVY else 1))


def state_fingerprint(state: Any) -> tuple[Any, ...]:
    """Everything of a state a move could change, whatever its family (the hash first)."""
    if isinstance(state, ManhattanState):
        return manhattan_fingerprint(state)[:1] + manhattan_fingerprint(state)[2:]
    return fingerprint(state)


@st.composite
def game_specs(draw: st.DrawFn, among: tuple[Family, ...] = tuple(ALL_FAMILIES)
               ) -> tuple[Family, int, int | str, Options]:
    fam = draw(st.sampled_from(among), label="family")
    players = draw(st.integers(2, max_players(fam)), label="players")
    options = tuple(sorted(draw(options_for(fam), label="options").items()))
    return fam, players, draw(SEEDS, label="seed"), options


@cache
def _generated(fam: Family, players: int, seed: int | str,
               options: Options) -> tuple[str, tuple[str, ...]]:
    log = generate_log(fam[0], players, seed, fam[1], dict(options))
    report = verify(log)
    assert report.valid and report.finished, report.failure
    return dumps(log), tuple(report.hashes)


def generated(spec: tuple[Family, int, int | str, Options]) -> tuple[Any, list[str]]:
    """A fresh copy of a generated log (cached by its spec) and its per-move state hashes."""
    text, hashes = _generated(*spec)
    return json.loads(text), list(hashes)


# ---------------------------------------------------------------------------- whole games


@scaled(15)
@given(game_specs())
@example((MANHATTAN, 2, 1, ()))
@example((MANHATTAN, 4, "m", ()))
def test_generated_logs_validate_against_the_schema_L1(spec: Any) -> None:
    log, _ = generated(spec)
    errors = list(validator("log").iter_errors(log))  # the full schema, no fast path
    assert not errors, errors[0].message
    schema_check(log)
    event(family_label(spec[0]))


@scaled(15)
@given(game_specs())
@example((MANHATTAN, 2, 1, ()))
@example((MANHATTAN, 3, "m", ()))
def test_serialise_parse_replay_is_the_identity_L4(spec: Any) -> None:
    """dumps -> decode gives back the same JSON; parsing and replaying it twice gives the
    same events and hashes as the verifier, and the same final state as the generating game."""
    log, hashes = generated(spec)
    text = dumps(log)
    again = decode(text.encode())
    assert again == log
    assert dumps(again) == text
    first = play_through(parse(again))
    second = play_through(parse(decode(text)))
    assert first.error is None and second.error is None
    assert first.hashes == second.hashes == hashes
    assert first.events == second.events
    assert state_fingerprint(first.state) == state_fingerprint(second.state)
    assert first.state.finished
    assert first.state.scores == [log["claims"]["final_scores"][p["name"]]
                                 for p in log["players"]]


# ---------------------------------------------------------------------------- PYTHONHASHSEED


def _cli(args: list[str], hashseed: int, **kw: Any) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": str(hashseed)}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=False, **kw)


_HASHES = ("import json, sys\nfrom replay import verify\n"
           "print(json.dumps([verify(f).hashes for f in sys.argv[1:]]))")


def test_same_bytes_and_hashes_under_two_PYTHONHASHSEEDs_L4(tmp_path: Path) -> None:
    """The CLI generates the same bytes, and the verifier the same per-move hashes, whatever
    Python's string hashing (so no hash-ordered container reaches a result: G2, L4)."""
    games = [(FAMILIES[0], 3, 7)] + [(f, 2 + k, 11 + k) for k, f in
                                           enumerate(FAMILIES) if f[1]][:2] + [(MANHATTAN, 2, 31)]
    outputs: dict[int, tuple[list[str], list[Any], list[list[str]]]] = {}
    for hashseed in (1, 4242):
        texts, files = [], []
        for (game, expansions), players, seed in games:
            args = ["-m", "replay", "generate", "--game", game, "--players", str(players),
                    "--seed", str(seed)]
            if expansions:
                args += ["--expansions", ",".join(expansions)]
            gen = _cli(args, hashseed)
            assert gen.returncode == 0, gen.stderr
            path = tmp_path / f"{hashseed}-{game}-{seed}.json"
            path.write_text(gen.stdout, encoding="utf-8")
            texts.append(gen.stdout)
            files.append(str(path))
        ver = _cli(["-m", "replay", "verify", "--json", *files], hashseed)
        assert ver.returncode == 0, ver.stdout + ver.stderr
        reports = [json.loads(line) for line in ver.stdout.splitlines()]
        per_move = _cli(["-c", _HASHES, *files], hashseed)
        assert per_move.returncode == 0, per_move.stderr
        outputs[hashseed] = (texts, [(r["state_hash"], r["final_scores"]) for r in reports],
                             json.loads(per_move.stdout))
    a, b = outputs.values()
    assert a == b
    # and the same as in this process
    for text, hashes in zip(a[0], a[2], strict=True):
        assert verify(decode(text)).hashes == hashes


# ---------------------------------------------------------------------------- mutation testing

MUTATIONS = ("x", "y", "rotation", "tile", "figure-at", "figure-kind", "figure-remove",
             "figure-add", "out-of-schema", "flock-action", "flock-remove")
KINDS = ("follower", "large-follower", "shepherd", "hut")


def _state_at(log: Any, upto: int) -> tuple[Any, ...] | None:
    r = play_through(parse(log), upto=upto)
    return None if r.error is not None else state_fingerprint(r.state)[1:]


def check_mutated_verdict(log: Any, original: Any, i: int, hashes: list[str],
                          rule_ok: Callable[[str], bool]) -> Any:
    """L3 for a log whose move ``i`` was changed: refused by the schema at that move, or by a
    rule (``rule_ok``) at that move or later, never earlier; a legal changed move changes the
    state hash exactly when it changes the state. Returns the report."""
    report = verify(log)
    if not report.readable:
        assert report.failure is not None
        path = report.failure.path
        assert path == f"/moves/{i}" or path.startswith(f"/moves/{i}/"), report.failure
        event("rejected by the schema at the mutated move")
        return report
    played = len(report.hashes)
    if report.failure is not None and report.failure.move is not None:
        assert report.failure.move >= i, f"rejected at move {report.failure.move} < {i}"
        assert report.failure.move == played
    assert played >= i and report.hashes[:i] == hashes[:i], "an earlier move's hash changed"
    if played == i:
        assert report.failure is not None and report.failure.move == i
        assert rule_ok(report.failure.rule), report.failure
        event(f"rejected at the mutated move ({report.failure.rule})")
        return report
    same_state = _state_at(log, i + 1) == _state_at(original, i + 1)
    assert (report.hashes[i] == hashes[i]) == same_state, (
        "the state hash after the mutated move must differ exactly when the state does")
    event("mutated move legal, same state" if same_state else "mutated move legal, new state")
    return report


@scaled(60)
@given(spec=game_specs(tuple(FAMILIES)), data=st.data())
def test_verifier_rejects_a_mutated_move_never_earlier_L3(spec: Any, data: st.DataObject) -> None:
    """Change one field of one move of a valid log. The verifier must reject at that move or
    later, never earlier; if it accepts the move, the state hash after it differs from the
    original's exactly when the state does (the same state may be reached, e.g. a figure moved
    to another name of the same segment; then the hash must be the same too)."""
    log, hashes = generated(spec)
    moves = log["moves"]
    what = data.draw(st.sampled_from(MUTATIONS), label="mutation")
    fits = [k for k, m in enumerate(moves) if _applies(what, m)]
    if not fits:
        what, fits = "x", list(range(len(moves)))
    i = data.draw(st.sampled_from(fits), label="move")
    _mutate(moves[i], what, data, log)
    event(f"mutation: {what}")
    report = check_mutated_verdict(log, _original(spec), i, hashes,
                                   lambda rule: bool(RULE_ID.match(rule)))
    if report.readable and report.failure is not None and len(report.hashes) > i:
        event("rejected later" + (" (claims, L2)" if report.failure.rule == "L2" else ""))


def _original(spec: Any) -> Any:
    return generated(spec)[0]


def _applies(what: str, move: dict[str, Any]) -> bool:
    if what.startswith("figure-"):
        return ("figure" in move) != (what == "figure-add")
    if what.startswith("flock-"):
        return bool(move.get("flock"))
    return True


def _mutate(move: dict[str, Any], what: str, data: st.DataObject, log: Any) -> None:
    """Change one field of ``move`` in place."""
    fig = move.get("figure")
    if what == "figure-at":
        others = [p for p in (*POSITIONS, "cloister", "inner-field") if p != fig["at"]]
        fig["at"] = data.draw(st.sampled_from(others), label="at")
    elif what == "figure-kind":
        kind = fig.get("kind", "follower")
        fig["kind"] = data.draw(st.sampled_from([k for k in KINDS if k != kind]), label="kind")
    elif what == "figure-remove":
        del move["figure"]
    elif what == "figure-add":
        move["figure"] = {"at": data.draw(st.sampled_from(POSITIONS), label="at")}
    elif what == "flock-remove":
        del move["flock"]
    elif what == "flock-action":
        choice = move["flock"][data.draw(st.integers(0, len(move["flock"]) - 1))]
        choice["action"] = "herd" if choice["action"] == "expand" else "expand"
    elif what == "tile":
        ids = sorted(t.id for t in parse(log).config.material.tiles if t.id != move["tile"])
        move["tile"] = data.draw(st.sampled_from(ids), label="tile")
    elif what == "out-of-schema":
        field = data.draw(st.sampled_from(["x", "rotation", "tile", "extra"]), label="field")
        move[field] = {"x": 1001, "rotation": 45, "tile": "", "extra": True}[field]
    elif what == "rotation":
        move["rotation"] = data.draw(
            st.sampled_from([r for r in (0, 90, 180, 270) if r != move["rotation"]]))
    else:
        move[what] += data.draw(st.sampled_from([-2, -1, 1, 2]), label="delta")


MANHATTAN_MUTATIONS = ("card", "city", "storeys", "colour", "draw", "choose-height",
                       "choose-order", "build-to-discard", "out-of-schema")


def _manhattan_applies(what: str, move: dict[str, Any]) -> bool:
    if what.startswith("choose-"):
        return "choose" in move
    if what == "colour":
        return "colour" in move
    if what == "draw":
        return "draw" in move
    return "card" in move


@scaled(60)
@given(spec=game_specs((MANHATTAN,)), table=st.booleans(), data=st.data())
@example(spec=(MANHATTAN, 2, 5, ()), table=False, data=None)
def test_verifier_rejects_a_mutated_manhattan_move_never_earlier_L3(
        spec: Any, table: bool, data: Any) -> None:
    """The mutation property for Manhattan: change one field of one move of a valid log
    (seeded, or a table log: the same log without its seed, its deal and draws stated). The
    verifier rejects at that move or later, never earlier; if it accepts the move, the state
    hash after it differs exactly when the state does (the heights of a choice in another
    order are the same choice: same state, same hash)."""
    log, hashes = generated(spec)
    if table:
        del log["seed"]
        original = json.loads(json.dumps(log))
        assert verify(log).hashes == hashes  # a table log replays the seeded game
    else:
        original = _original(spec)
    moves = log["moves"]
    if data is None:  # the explicit example: a two-player build given the other's colour
        what, i = "colour", next(k for k, m in enumerate(moves) if "colour" in m)
        moves[i]["colour"] = "black" if moves[i]["colour"] in ("blue", "red") else "blue"
    else:
        what = data.draw(st.sampled_from(MANHATTAN_MUTATIONS), label="mutation")
        fits = [k for k, m in enumerate(moves) if _manhattan_applies(what, m)]
        if not fits:
            what, fits = "card", [k for k, m in enumerate(moves) if "card" in m]
        i = data.draw(st.sampled_from(fits), label="move")
        _mutate_manhattan(moves[i], what, data)
    event(f"mutation: {what}" + (" (table log)" if table else ""))
    check_mutated_verdict(log, original, i, hashes,
                          lambda rule: rule in {f"M{k}" for k in range(1, 11)})


def _mutate_manhattan(move: dict[str, Any], what: str, data: st.DataObject) -> None:
    """Change one field of a Manhattan ``move`` in place."""
    if what == "card":
        move["card"] = data.draw(st.sampled_from([c for c in range(-1, 10) if c != move["card"]]))
    elif what == "city":
        move["city"] = data.draw(st.sampled_from([c for c in CITIES if c != move["city"]]))
    elif what == "storeys":
        move["storeys"] = data.draw(st.sampled_from([h for h in range(0, 6)
                                                     if h != move["storeys"]]))
    elif what == "colour":
        move["colour"] = data.draw(st.sampled_from([c for c in COLOURS if c != move["colour"]]))
    elif what == "draw":
        move["draw"] = data.draw(st.sampled_from([c for c in range(-1, 10) if c != move["draw"]]))
    elif what == "choose-height":
        colour = data.draw(st.sampled_from(sorted(move["choose"])))
        heights = move["choose"][colour]
        k = data.draw(st.integers(0, len(heights) - 1))
        heights[k] = data.draw(st.sampled_from([h for h in range(0, 6) if h != heights[k]]))
    elif what == "choose-order":
        for heights in move["choose"].values():
            heights.reverse()
    elif what == "build-to-discard":
        card, draw = move["card"], move.get("draw")
        move.clear()
        move.update({"discard": card} if draw is None else {"discard": card, "draw": draw})
    else:
        field = data.draw(st.sampled_from(["card", "city", "storeys", "extra"]))
        move[field] = {"card": 1001, "city": "", "storeys": "2", "extra": True}[field]


def test_mutation_of_a_figure_name_to_the_same_segment_keeps_the_hash_L4() -> None:
    """The other side of the mutation property, made certain: naming the same segment by
    another of its half-sides is the same move (same state, same hash)."""
    spec: tuple[Family, int, int | str, Options] = (FAMILIES[0], 2, 1, ())
    log, hashes = generated(spec)
    tiles = parse(log).config.material.by_id()
    for i, m in enumerate(log["moves"]):
        fig = m.get("figure")
        if fig is None:
            continue
        locations = tiles[m["tile"]].rotations[m["rotation"] // 90].locations
        twins = [p for p in POSITIONS if p in locations and p != fig["at"]
                 and locations[p] == locations[fig["at"]]]
        if twins:
            mutated = copy.deepcopy(log)
            mutated["moves"][i]["figure"]["at"] = twins[0]
            report = verify(mutated)
            assert report.valid and report.hashes == hashes
            return
    pytest.fail("no figure with a second name in this game")


# ---------------------------------------------------------------------------- move_surely_valid

_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-2000, 2000), st.integers(),
                  st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=40))
_JSON = st.recursive(_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)
_COORD = st.one_of(st.integers(-1001, 1001), st.sampled_from([-1000, 1000, True, False, 1.0]),
                   _JSON)
_TEXT = st.one_of(st.text(min_size=0, max_size=34), st.sampled_from(["N", "NL", "cloister"]),
                  st.text(min_size=31, max_size=34), _JSON)
_FIGURE = st.one_of(
    st.fixed_dictionaries({}, optional={
        "at": _TEXT,
        "kind": st.one_of(st.sampled_from([*KINDS, "Follower", "abbot", ""]), _JSON),
        "extra": _JSON}),
    _JSON)
_FLOCK = st.one_of(st.lists(st.fixed_dictionaries(
    {"at": _TEXT, "action": st.one_of(st.sampled_from(["expand", "herd", "Herd"]), _JSON)},
    optional={"extra": _JSON}), max_size=5), _JSON)
_TOKENS = st.one_of(st.lists(st.one_of(st.integers(-1, 5),
                                       st.sampled_from(["wolf", "Wolf", True, 1.0])),
                             max_size=5), _JSON)
_SCORES = st.one_of(st.dictionaries(st.text(max_size=5), st.one_of(
    st.integers(-1, 100001), st.sampled_from([True, 1.0, 100000])), max_size=7), _JSON)
_MOVE_LIKE = st.fixed_dictionaries({}, optional={
    "tile": _TEXT, "x": _COORD, "y": _COORD,
    "rotation": st.one_of(st.sampled_from([0, 90, 180, 270, 45, 360, -90, 0.0, 90.0, True,
                                           False]), _JSON),
    "figure": _FIGURE, "discard": st.one_of(st.just(True), _JSON), "scores": _SCORES,
    "flock": _FLOCK, "tokens": _TOKENS, "hidden": _TEXT, "unknown": _JSON})
_VALID_ISH = st.fixed_dictionaries(
    {"x": st.integers(-1000, 1000), "y": st.integers(-1000, 1000),
     "rotation": st.sampled_from([0, 90, 180, 270])},
    optional={"tile": st.text(min_size=1, max_size=32),
              "figure": st.fixed_dictionaries({"at": st.text(min_size=1, max_size=32)},
                                              optional={"kind": st.sampled_from(KINDS)}),
              "flock": st.lists(st.fixed_dictionaries(
                  {"at": st.text(min_size=1, max_size=32),
                   "action": st.sampled_from(["expand", "herd"])}), max_size=4),
              "tokens": st.lists(st.one_of(st.integers(1, 4), st.just("wolf")), max_size=4),
              "hidden": st.text(min_size=1, max_size=32),
              "scores": st.dictionaries(st.text(max_size=8), st.integers(0, 100000),
                                        max_size=6)})
_HEADER = {"format": "carcassonne-replay/log", "version": 1,
           "players": [{"name": "Ada"}, {"name": "Ben"}], "seed": 1}
GAMES = [f.name for f in families()]
# Manhattan's moves (choices, builds, discards): near the schema's edges, and valid ones
_MH_INT = st.one_of(st.integers(-1001, 1001), st.sampled_from([True, False, 1.0, 2**63]), _JSON)
_MH_HEIGHTS = st.one_of(st.lists(_MH_INT, max_size=25), _JSON)
_MH_LIKE = st.fixed_dictionaries({}, optional={
    "choose": st.one_of(st.dictionaries(st.text(max_size=34), _MH_HEIGHTS, max_size=3), _JSON),
    "card": _MH_INT, "city": _TEXT, "storeys": _MH_INT, "colour": _TEXT, "draw": _MH_INT,
    "discard": _MH_INT, "scores": _SCORES, "unknown": _JSON})
_MH_VALID_ISH = st.one_of(
    st.fixed_dictionaries({"card": st.integers(-1000, 1000),
                           "city": st.text(min_size=1, max_size=32),
                           "storeys": st.integers(-1000, 1000)},
                          optional={"colour": st.text(min_size=1, max_size=32),
                                    "draw": st.integers(-1000, 1000),
                                    "scores": st.dictionaries(st.text(max_size=8),
                                                              st.integers(0, 100000),
                                                              max_size=6)}),
    st.fixed_dictionaries({"choose": st.dictionaries(
        st.text(min_size=1, max_size=32), st.lists(st.integers(-1000, 1000), min_size=1,
                                                   max_size=24), min_size=1, max_size=2)}),
    st.fixed_dictionaries({"discard": st.integers(-1000, 1000)},
                          optional={"draw": st.integers(-1000, 1000)}))


@scaled(300)
@given(st.sampled_from(GAMES), st.one_of(_VALID_ISH, _MOVE_LIKE, _JSON, _MH_VALID_ISH, _MH_LIKE))
@example("base", {"x": 0, "y": 1, "rotation": 90, "tile": "A", "figure": {"at": "N"}})
@example("base", {"x": True, "y": 1, "rotation": 90})
@example("base", {"x": 0, "y": 1, "rotation": False})
@example("base", {"x": 0, "y": 1, "rotation": 0, "figure": {"at": "N", "kind": "follower"}})
@example("hunters-gatherers", {"x": 0, "y": 1, "rotation": 0,
                               "bonus": {"x": 0, "y": 2, "rotation": 0, "tile": "HG-80"}})
@example("manhattan", {"card": 4, "city": "Cairo", "storeys": 2, "colour": "red", "draw": 7})
@example("manhattan", {"choose": {"blue": [1, 1, 2, 4], "red": [1, 1, 1, 3]}})
@example("manhattan", {"card": True, "city": "Cairo", "storeys": 1})
@example("manhattan", {"card": 4, "city": "x" * 33, "storeys": 1})
@example("manhattan", {"card": 4, "city": "Cairo", "storeys": 1.0})
@example("manhattan", {"card": 4, "city": "Cairo"})
@example("manhattan", {"card": 4, "city": "Cairo", "storeys": 1, "discard": 4})
@example("manhattan", {"card": 4, "city": "Cairo", "storeys": 1, "scores": {"Ada": -1}})
@example("manhattan", {"choose": {}})
@example("manhattan", {"choose": {"blue": []}})
@example("manhattan", {"choose": {"blue": [1], "red": [1], "green": [1]}})
@example("manhattan", {"choose": {"": [1]}})
@example("manhattan", {"choose": {"blue": [1]}, "card": 4})
@example("manhattan", {"discard": 4, "draw": 2})
@example("manhattan", {"x": 0, "y": 1, "rotation": 90})
@example("base", {"card": 4, "city": "Cairo", "storeys": 2})
def test_move_surely_valid_accepts_only_schema_valid_moves_L1(game: str, move: Any) -> None:
    """Each family's ``move_surely_valid`` lets the schema check skip the moves; it must
    never accept a move that the full schema refuses."""
    surely = family(game).move_surely_valid(move)
    event(f"{game}: surely valid: {surely}")
    if surely:
        errors = list(validator("log").iter_errors({**_HEADER, "game": game, "moves": [move]}))
        assert not errors, f"move_surely_valid accepted {move!r}: {errors[0].message}"


# tile placements of the shared fields only, mostly valid; and Hunters & Gatherers moves with
# a bonus tile
_PLACEMENT_ISH = st.fixed_dictionaries(
    {"x": st.integers(-1000, 1000), "y": st.integers(-1000, 1000),
     "rotation": st.sampled_from([0, 90, 180, 270])},
    optional={"tile": st.text(min_size=1, max_size=32),
              "figure": st.fixed_dictionaries({"at": st.text(min_size=1, max_size=32)},
                                              optional={"kind": st.sampled_from(KINDS)})})
_BONUS_ISH = st.tuples(_PLACEMENT_ISH, st.one_of(_PLACEMENT_ISH, _MOVE_LIKE, _JSON)).map(
    lambda t: {**t[0], "bonus": t[1]})


@scaled(300)
@given(st.sampled_from(GAMES),
       st.one_of(_PLACEMENT_ISH, _VALID_ISH, _MOVE_LIKE, _JSON, _MH_VALID_ISH, _MH_LIKE,
                 _BONUS_ISH))
@example("hunters-gatherers", {"x": 0, "y": 1, "rotation": 0, "tile": "HG-1",
                               "bonus": {"x": 0, "y": 2, "rotation": 90, "tile": "HG-80",
                                         "figure": {"at": "N", "kind": "hut"}}})
@example("hunters-gatherers", {"x": 0, "y": 1, "rotation": 0, "bonus": None})
@example("hunters-gatherers", {"x": 0, "y": 1, "rotation": 0, "bonus": {"discard": True}})
@example("base", {"x": 0, "y": 1, "rotation": 90, "figure": {"at": "N"}, "scores": {"A": 1}})
def test_a_fast_move_reader_decodes_as_the_slow_path_L1(game: str, move: Any) -> None:
    """``Family.read_moves`` (compiled, no schema) reads only moves the schema accepts, and
    each as ``decode_move`` would."""
    fam = family(game)
    fast = fam.read_moves([move])
    event(f"{game}: fast reader took it: {fast is not None}")
    if fast is None:
        return
    errors = list(validator("log").iter_errors({**_HEADER, "game": game, "moves": [move]}))
    assert not errors, f"read_moves accepted {move!r}: {errors[0].message}"
    assert fast == [fam.decode_move(move, "/moves/0")]


def test_move_surely_valid_takes_the_moves_of_generated_games() -> None:
    """The fast path is taken for ordinary moves of every family (else it would be
    pointless)."""
    for fam in families():
        for seed, mix in enumerate(fam.mixes()):
            log = generate_log(fam.name, 2 + seed % 3, seed, mix)
            assert all(fam.move_surely_valid(m) for m in log["moves"]), (fam.name, mix)


# ---------------------------------------------------------------------------- engine API

def test_illegal_move_names_its_rule_and_keeps_the_state_G4() -> None:
    """A deterministic example of the machine's illegal-move invariant, for readers."""
    log, _ = generated((FAMILIES[0], 2, 3, ()))
    game = new_game(parse(log).config)
    before = fingerprint(game)
    with pytest.raises(IllegalMove) as info:
        game.apply(TileMove(0, 0, 0, game.current.id if game.current else None))
    assert info.value.rule == "G4" and info.value.move == 0
    assert fingerprint(game) == before


@settings(FUZZ, max_examples=200)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(100, 106)), max_size=12),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))))
def test_group_links_joins_the_segments_that_meet_G7(case: Any) -> None:
    """G7: a new tile's segments that reach one feature, or are joined on the tile, join one
    feature; ``group_links`` (fed by ``link``) gives each segment every root its feature
    reaches, as a plain closure over the segments works it out."""
    n, links, on_tile = case
    by_root: dict[int, int] = {}
    joined = list(on_tile)
    for seg, root in links:
        link(by_root, joined, seg, root)
    groups = group_links(n, by_root, joined)
    comp = list(range(n))  # the reference: merge until nothing changes
    pairs = on_tile + [(a, b) for a, ra in links for b, rb in links if ra == rb]
    changed = True
    while changed:
        changed = False
        for a, b in pairs:
            ca, cb = comp[a], comp[b]
            if ca != cb:
                comp = [min(ca, cb) if c in (ca, cb) else c for c in comp]
                changed = True
    for i in range(n):
        reached = {r for seg, r in links if comp[seg] == comp[i]}
        assert sorted(groups[i]) == sorted(reached) and len(groups[i]) == len(reached)
    event("segments meet" if joined else "no two segments meet")
