"""Who is really ahead (issue 30, part 2): the scores if the game ended at each position.

``replay.core.outlook.if_ended_now`` against ``end_now()`` on a copy of the state, for every
family (a property test: unfinished and ``"after-last-move"`` logs too), leaving the states it
reads as they were; the failing position of an illegal log; the API's ``if_ended_now``; and
the viewer's dashed lines and the values beside the scores.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import event, given, settings
from hypothesis import strategies as st

from replay.core.family import GameState, families
from replay.core.outlook import if_ended_now
from replay.core.playback import Playback, play_through
from replay.core.record import parse
from replay.generate import dumps, generate_log
from replay.lab.machines import FUZZ

from .test_properties import ALL_FAMILIES, ROOT, game_specs, generated, state_fingerprint

FIXTURES = ROOT / "fixtures" / "invalid"
FAMILY_NAMES = sorted(f.name for f in families())


def ended_on_a_copy(state: GameState) -> list[int]:
    """What the issue holds the value to: ``end_now()`` on a copy, its scores."""
    ended = state.copy()
    ended.end_now()
    return list(ended.scores)


def kept_states(playback: Playback) -> list[tuple[Any, ...]]:
    """Everything of the states a playback keeps (its last one and its checkpoints)."""
    return [state_fingerprint(s) for s in (playback.state, *playback.checkpoints.values())]


def cut_log(log: dict[str, Any], keep: int, end_now: bool) -> dict[str, Any]:
    """The first ``keep`` moves of ``log``, ended there (``"after-last-move"``) or not."""
    cut = copy.deepcopy(log)
    if keep < len(cut["moves"]):
        cut["moves"] = cut["moves"][:keep]
        cut.pop("claims", None)
        if end_now:
            cut["end"] = "after-last-move"
    return cut


# ---------------------------------------------------------------------------- the property

@pytest.mark.parametrize("name", FAMILY_NAMES)
@settings(FUZZ, max_examples=6)
@given(data=st.data())
def test_if_ended_now_is_end_now_on_a_copy_and_changes_nothing(name: str,
                                                               data: st.DataObject) -> None:
    spec = data.draw(game_specs(tuple(f for f in ALL_FAMILIES if f[0] == name)), label="game")
    log, _ = generated(spec)
    keep = data.draw(st.integers(1, len(log["moves"])), label="moves kept")
    log = cut_log(log, keep, data.draw(st.booleans(), label="after-last-move"))
    playback = play_through(parse(log))
    before = kept_states(playback)
    curve = if_ended_now(playback)
    assert kept_states(playback) == before
    assert len(curve) == playback.last + 1
    for n in data.draw(st.lists(st.integers(0, playback.last), min_size=1, max_size=3,
                                unique=True), label="positions"):
        state = playback.position(n).state
        was, hash_, scores = state_fingerprint(state), state.hash, list(state.scores)
        assert curve[n] == ended_on_a_copy(state) == state.scores_if_ended()
        assert (state_fingerprint(state), state.hash, state.scores) == (was, hash_, scores)
        event(f"{name}: " + ("ahead differs from the score" if curve[n] != scores
                             else "the same as the score"))
        if state.finished:
            event(f"{name}: a finished position")
            assert curve[n] == scores


# ---------------------------------------------------------------------------- the engine

def test_a_finished_game_ends_on_its_final_scores_and_the_curve_starts_at_zero() -> None:
    log = generate_log("base", 3, 4, ("inns-cathedrals",))
    curve = if_ended_now(play_through(parse(log)))
    assert curve[0] == [0, 0, 0]
    assert curve[-1] == list(log["claims"]["final_scores"].values())
    # the end scores what play had not: somewhere the outlook is ahead of the score
    scores = play_through(parse(log)).scores
    assert any(c != s for c, s in zip(curve[1:], scores, strict=True))


def test_a_failing_position_shows_the_state_before_its_move() -> None:
    log = copy.deepcopy(generate_log("base", 2, 1))
    log["moves"][20].update({"x": 0, "y": 0})  # on the start tile: G4
    log.pop("claims")
    playback = play_through(parse(log))
    assert playback.error is not None and playback.last == 21
    curve = if_ended_now(playback)
    assert len(curve) == 22
    assert curve[21] == curve[20] == ended_on_a_copy(playback.position(20).state)


def test_manhattan_counts_the_round_under_way_and_nothing_between_rounds() -> None:
    """Manhattan's ``end_now`` scores a round in which pieces were built as it stands, and an
    unstarted round not at all: so the outlook differs from the score while building only."""
    log = generate_log("manhattan", 3, 2)
    playback = play_through(parse(log), keep_events=False)
    curve = if_ended_now(playback)
    phases = {"build": 0, "other": 0}
    for n in range(0, playback.last + 1, 3):
        state = playback.position(n).state
        status = state.status()
        building = status["phase"] == "build" and curve[n] != state.scores
        phases["build" if building else "other"] += 1
        if status["phase"] == "choose":
            assert curve[n] == state.scores
    assert phases["build"] > 0


# ---------------------------------------------------------------------------- the web app

def stored(client: FlaskClient, log: dict[str, Any]) -> str:
    r = client.post("/api/games", data=dumps(log), content_type="application/json")
    assert r.status_code in (200, 201), r.get_json()
    game_id: str = r.get_json()["id"]
    return game_id


def test_the_api_serves_if_ended_now_at_every_position(client: FlaskClient) -> None:
    log = generate_log("hunters-gatherers", 2, 3)
    game_id = stored(client, log)
    curve = if_ended_now(play_through(parse(log)))
    names = [p["name"] for p in log["players"]]
    for n in (0, 10, len(curve) // 2, len(curve) - 1):
        body = client.get(f"/api/games/{game_id}/moves/{n}").get_json()
        assert body["if_ended_now"] == dict(zip(names, curve[n], strict=True))
        assert [p["if_ended_now"] for p in body["players"]] == curve[n]
    assert body["if_ended_now"] == body["scores"] == log["claims"]["final_scores"]


def test_the_api_at_a_failing_position(client: FlaskClient) -> None:
    log = copy.deepcopy(generate_log("base", 2, 1))
    log["moves"][20].update({"x": 0, "y": 0})
    log.pop("claims")
    game_id = stored(client, log)
    before = client.get(f"/api/games/{game_id}/moves/20").get_json()
    failing = client.get(f"/api/games/{game_id}/moves/21").get_json()
    assert failing["failure"] is not None
    assert failing["if_ended_now"] == before["if_ended_now"]
    assert failing["scores"] == before["scores"]


def test_the_viewer_draws_a_dashed_line_per_player_and_shows_the_values(
        client: FlaskClient) -> None:
    log = generate_log("base", 3, 5, ("hills-sheep",))
    game_id = stored(client, log)
    curve = if_ended_now(play_through(parse(log)))
    n = len(curve) // 2
    html = client.get(f"/games/{game_id}/moves/{n}").get_data(as_text=True)
    dashed = re.findall(r'<polyline [^>]*class="if-ended"[^>]*>', html)
    assert len(dashed) == 3
    assert all('stroke-dasharray="5 3"' in d for d in dashed)
    assert "dashed: the score if the game ended now" in html
    values = re.findall(r'<small class="if-ended" title="(\d+) if the game ended now[^"]*">'
                        r'→&nbsp;(\d+)</small>', html)
    assert [int(v) for _, v in values] == curve[n]
    assert "→ the score if the game ended now" in html
    # the y axis reaches the highest value of either line
    top = max(max(s) for s in curve)
    axis = [int(v) for v in re.findall(r'<text class="axis" text-anchor="end"[^>]*>(\d+)<', html)
            or re.findall(r'<text[^>]*class="axis"[^>]*text-anchor="end"[^>]*>(\d+)<', html)]
    assert axis and max(axis) >= top
    # at the end the values beside the scores would say the same again: not shown
    last = client.get(f"/games/{game_id}/moves/{len(curve) - 1}").get_data(as_text=True)
    assert 'class="if-ended"' in last and '<small class="if-ended"' not in last


def test_a_header_that_breaks_a_rule_has_zeros(client: FlaskClient) -> None:
    """B1: six players without Inns & Cathedrals: nothing to replay, everyone at 0."""
    body = (FIXTURES / "six-players-without-ic.json").read_bytes()
    r = client.post("/api/games", data=body, content_type="application/json")
    state = client.get(f"/api/games/{r.get_json()['id']}/moves/0").get_json()
    assert state["failure"]["rule"] == "B1"
    assert set(state["if_ended_now"].values()) == {0}
    assert [p["if_ended_now"] for p in state["players"]] == [0] * 6
