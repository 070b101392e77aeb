"""The viewer's board links and the library's orders (no browser needed)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from replay import svg
from replay.core.events import Score
from replay.core.playback import play_through
from replay.core.record import parse
from replay.core.view import view_of
from replay.generate import dumps, generate_log


@pytest.mark.parametrize("args", [("base", 4, 3, ()),
                                  ("base", 3, 5, ("inns-cathedrals", "hills-sheep")),
                                  ("hunters-gatherers", 4, 3, ())])
def test_every_scored_feature_has_its_own_layer_and_badges(args: tuple[object, ...]) -> None:
    record = parse(generate_log(*args))
    last = len(record.moves)
    pos = svg.position(record, last)
    board = view_of(record.family).board(pos.state, events=pos.events, linked=True)
    scores = [i for i, e in enumerate(pos.events) if isinstance(e, Score)]
    assert scores
    layers = [int(i) for i in re.findall(r'<g class="hl hl-\w+" data-ev="(\d+)"', board)]
    assert layers == scores
    assert 'fill="#ffd21f"' not in board  # no single yellow for every feature
    badges = re.findall(r'<g class="popup"( data-ev="(\d+)" data-seat="(\d+)")?', board)
    assert badges and all(b[0] for b in badges)
    for _, ev, seat in badges:
        event = pos.events[int(ev)]
        assert isinstance(event, Score) and int(seat) in event.winners


def test_a_move_without_scores_is_drawn_as_it_was() -> None:
    record = parse(generate_log("base", 2, 1))
    game = play_through(record, upto=1)
    plain = svg.board(game.state, events=game.events[0])
    assert view_of(record.family).board(game.state, events=game.events[0], linked=True) == plain


def test_library_sorts(client: FlaskClient) -> None:
    lengths = {}
    for seed, game in ((1, "base"), (2, "hunters-gatherers")):
        log = generate_log(game, 2, seed)
        client.post("/api/games", data=dumps(log), content_type="application/json")
        lengths[game] = len(log["moves"])
    for order in ("asc", "desc"):
        page = client.get(f"/games?sort=moves&order={order}").get_data(as_text=True)
        shown = [int(m.split()[-1]) for m in re.findall(r'<td class="num">([^<]+)</td>', page)]
        assert shown == sorted(lengths.values(), reverse=order == "desc")
    page = client.get("/games?sort=game").get_data(as_text=True)
    table = page[page.index("<tbody"):]  # the game filter above lists the games too
    assert table.index("Carcassonne</td>") < table.index("Hunters")
    assert client.get("/games?sort=bogus&order=up").status_code == 200
