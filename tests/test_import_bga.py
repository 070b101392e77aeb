"""The Board Game Arena importer: fixtures, round trips, claims, refusals and warnings."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from replay.core.importing import ImportRefused, convert, sniff
from replay.core.verify import verify
from replay.games.carcassonne.importers import bga_tables as T
from replay.games.carcassonne.importers.bga import BgaImporter
from tests import bga_build

DIR = bga_build.OUT
BGA = BgaImporter()

EXPECTED_2P = [  # the fixture's moves, written by hand from the game played
    {"tile": "E", "x": 0, "y": -1, "rotation": 180, "figure": {"at": "S"},
     "scores": {"Ada": 4, "Ben": 0}},
    {"tile": "U", "x": 1, "y": 0, "rotation": 0, "figure": {"at": "W"},
     "scores": {"Ada": 4, "Ben": 0}},
    {"tile": "A", "x": 0, "y": 1, "rotation": 0, "figure": {"at": "cloister"},
     "scores": {"Ada": 4, "Ben": 0}},
    {"tile": "C", "discard": True, "scores": {"Ada": 4, "Ben": 0}},
    {"tile": "V", "x": 2, "y": 0, "rotation": 0, "figure": {"at": "N"},
     "scores": {"Ada": 4, "Ben": 0}},
    {"tile": "L", "x": -1, "y": 0, "rotation": 0, "figure": {"at": "N"},
     "scores": {"Ada": 4, "Ben": 0}},
    {"tile": "W", "x": 2, "y": 1, "rotation": 90, "scores": {"Ada": 4, "Ben": 5}},
    {"tile": "B", "x": 1, "y": -1, "rotation": 0, "figure": {"at": "cloister"}},
]


def load(name: str = "finished-2p.json") -> Any:
    return json.loads((DIR / name).read_text(encoding="utf-8"))


def notes(value: Any) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(packet, notification) pairs in order."""
    return [(p, n) for p in value["data"]["data"] for n in p["data"]]


def find(value: Any, kind: str, pred: Callable[[dict[str, Any]], bool] = lambda a: True,
         nth: int = 0) -> dict[str, Any]:
    """The args of the ``nth`` notification of ``kind`` whose args satisfy ``pred``."""
    hits = [n for _, n in notes(value) if n["type"] == kind and pred(n["args"] or {})]
    return hits[nth]["args"]  # type: ignore[no-any-return]


def state_args(value: Any, sid: int) -> dict[str, Any]:
    return find(value, "gameStateChange", lambda a: a.get("id") == sid)


def refused(value: Any) -> ImportRefused:
    with pytest.raises(ImportRefused) as info:
        BGA.read(value)
    return info.value


def codes(problems: Any) -> list[str]:
    return [p.code for p in problems]


# -- fixtures ----------------------------------------------------------------------------------

def test_fixtures_are_what_the_builder_writes() -> None:
    for name, value in bga_build.fixtures().items():
        assert (DIR / name).read_text(encoding="utf-8") == bga_build.dumps(value)


def test_finished_game_imports_as_played() -> None:
    imported = convert(load())
    assert imported is not None and imported.format == "Board Game Arena log"
    log = imported.log
    assert log["game"] == "base" and log["expansions"] == [] and "seed" not in log
    assert log["options"] == {"small_city": 4, "farm_scoring": "per-field"}
    assert log["players"] == [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    assert log["moves"] == EXPECTED_2P
    assert log["claims"] == {"final_scores": {"Ada": 14, "Ben": 8}, "winners": ["Ada"]}
    assert log["end"] == "after-last-move"  # scored after 8 of 71 tiles
    assert log["meta"] == {"source": "Board Game Arena", "table_id": "400000001",
                           "bga_player_ids": "84000001,84000002"}
    assert codes(imported.problems) == ["ended-early"]
    assert imported.problems[0].where.startswith("packet 23, notification ")


def test_finished_game_verifies_with_hand_checked_scores() -> None:
    imported = BGA.read(load())
    report = verify(imported.log)
    assert report.valid and report.finished, report.failure
    assert report.final_scores == {"Ada": 14, "Ben": 8}  # 4+4+5+1 and 5+3, by hand
    assert report.winners == ["Ada"] and report.claims == []


def test_round_trip_through_json() -> None:
    log = BGA.read(load()).log
    again = json.loads(json.dumps(log, ensure_ascii=False))
    report = verify(again)
    assert report.valid and report.final_scores == log["claims"]["final_scores"]


def test_fixture_covers_every_notification_kind() -> None:
    value = load()
    kinds = {n["type"] for _, n in notes(value)}
    assert kinds >= {"gameStateChange", "playTile", "playPartisan", "cantPlay", "winPoints",
                     "realizationAchieved", "pickTile", "updateReflexionTime", "simpleNote",
                     "simpleNode", "deck_size"}
    states = {n["args"].get("id") for _, n in notes(value) if n["type"] == "gameStateChange"}
    assert states >= {2, 3, 4, 5, 6, 7, 10, 99}
    targets = {n["args"]["type"] for _, n in notes(value) if n["type"] == "playPartisan"}
    assert targets == {"city", "road", "field", "abbey"}
    oris = {n["args"]["ori"] for _, n in notes(value) if n["type"] == "playTile"}
    assert oris == {"1", "2", "3", "4"}
    assert find(value, "playTile", lambda a: a["type"] == "16")["ori"] == "4"


def test_unfinished_game() -> None:
    imported = BGA.read(load("unfinished-3p.json"))
    log = imported.log
    # seating by first turns, not by player id; no result: names from the notifications
    assert log["players"] == [{"name": "Cleo"}, {"name": "Dan"}, {"name": "Eva"}]
    assert "claims" not in log and "end" not in log
    assert log["moves"][-1]["scores"] == {"Cleo": 4, "Dan": 0, "Eva": 0}
    assert codes(imported.problems) == ["unfinished"]
    report = verify(log)
    assert report.valid and not report.finished
    assert report.final_scores == {"Cleo": 4, "Dan": 0, "Eva": 0}


def test_log_ending_inside_a_turn_claims_no_scores_for_it() -> None:
    value = load("unfinished-3p.json")
    last = value["data"]["data"][-1]["data"]
    del last[last.index(next(n for n in last if n["args"].get("id") == 10)):]
    imported = BGA.read(value)
    assert "scores" not in imported.log["moves"][-1]
    assert codes(imported.problems) == ["unfinished-turn", "unfinished"]


# -- sniffing ----------------------------------------------------------------------------------

def test_sniff() -> None:
    assert BGA.sniff(load()) and BGA.sniff(load("unfinished-3p.json"))
    found = sniff(load())
    assert found is not None and found.name == "bga" and found.label == "Board Game Arena log"
    log = BGA.read(load()).log
    for value in (log, {}, [], "x", None, {"status": 1}, {"status": 1, "data": {"data": []}},
                  {"status": 1, "data": {"data": [{"foo": 1}]}},
                  {"appVersion": "5.7.0", "setup": {}, "replay": [], "players": []}):
        assert not BGA.sniff(value), value
        assert sniff(value) is None
    assert convert(log) is None


# -- claims: the source's arithmetic is audited --------------------------------------------

def test_wrong_win_points_are_caught_as_wrong_claims() -> None:
    value = load()
    ben = "84000002"
    road = find(value, "winPoints", lambda a: str(a["player_id"]) == ben)
    road["points"], road["score"] = 6, "6"  # BGA pays the 5-tile road 6
    farm = find(value, "winPoints", lambda a: str(a["player_id"]) == ben, nth=1)
    farm["score"] = "9"
    result = state_args(value, 99)["args"]["result"]
    next(r for r in result if r["player"] == ben)["score"] = "9"
    imported = BGA.read(value)
    assert codes(imported.problems) == ["realization", "ended-early"]
    assert "announced at 5" in imported.problems[0].message
    report = verify(imported.log)
    assert not report.valid and report.failure is not None and report.failure.rule == "L2"
    wrong = [(c.move, c.player, c.claimed, c.actual) for c in report.claims]
    assert wrong == [(6, "Ben", 6, 5), (None, "Ben", 9, 8)]


def test_running_total_and_result_mismatches_are_warned() -> None:
    value = load()
    find(value, "winPoints")["score"] = "5"
    state_args(value, 99)["args"]["result"][0]["score"] = "15"
    imported = BGA.read(value)
    assert codes(imported.problems) == ["score", "result", "ended-early"]
    score = imported.problems[0]
    assert score.where == "packet 4, notification 5 (move 1)"
    assert "total of 5" in score.message and "add up to 4" in score.message
    assert imported.log["claims"]["final_scores"]["Ada"] == 15  # the claim is BGA's own
    failure = verify(imported.log).failure
    assert failure is not None and failure.rule == "L2"


def test_tie_gives_every_top_scorer() -> None:
    value = load()
    for r in state_args(value, 99)["args"]["result"]:
        r["score"] = "14"
    imported = BGA.read(value)
    assert imported.log["claims"]["winners"] == ["Ada", "Ben"]


def test_result_without_final_scoring_is_unfinished() -> None:
    value = load()
    for _, n in notes(value):
        if n["type"] == "gameStateChange" and n["args"].get("id") in (6, 7):
            n["args"]["id"] = 5
    imported = BGA.read(value)
    assert "claims" not in imported.log and "end" not in imported.log
    assert "unfinished" in codes(imported.problems)
    assert imported.log["moves"][-1]["scores"] == {"Ada": 14, "Ben": 8}


def test_several_problems_are_collected() -> None:
    value = load()
    result = state_args(value, 99)["args"]["result"]
    result[1]["zombie"] = 1
    result[0]["color"] = "ffa500"
    result[1]["name"] = "Ada"
    state_args(value, 2)["args"]["tile_id"] = "23"
    state_args(value, 99)["args"]["table"]["concede"] = True
    imported = BGA.read(value)
    assert codes(imported.problems) == ["turn-tile", "abandoned", "name", "abandoned",
                                        "ended-early"]
    assert imported.log["players"] == [{"name": "Ada"},
                                       {"name": "Ada (84000002)", "colour": "blue"}]
    assert verify(imported.log).valid


def test_names_fall_back_to_player_ids() -> None:
    value = load("unfinished-3p.json")
    for _, n in notes(value):
        n["args"].pop("player_name", None)
    assert [p["name"] for p in BGA.read(value).log["players"]] == \
        ["91000003", "91000001", "91000002"]


# -- discards ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args,warned", [
    ({"tile_id": "68"}, False), ({"id": "68"}, False), ({"type": "22"}, False),
    ({"tile_id": "68", "type": "22"}, False), ({}, True),
])
def test_cant_play_arguments(args: dict[str, Any], warned: bool) -> None:
    value = load()
    cant = find(value, "cantPlay")
    cant.clear()
    cant.update(args, player_id="84000002")
    imported = BGA.read(value)
    assert imported.log["moves"][3] == {"tile": "C", "discard": True,
                                        "scores": {"Ada": 4, "Ben": 0}}
    assert ("discard" in codes(imported.problems)) is warned


def test_cant_play_naming_nothing_without_a_turn_tile_is_refused() -> None:
    value = load()
    find(value, "cantPlay").clear()
    for _, n in notes(value):
        if n["type"] == "gameStateChange" and n["args"].get("id") == 2:
            n["args"]["args"] = None
    exc = refused(value)
    assert codes(exc.problems)[-1] == "discard" and "names no tile" in str(exc)


# -- refusals ----------------------------------------------------------------------------------

def mutated(change: Callable[[Any], None], name: str = "finished-2p.json") -> ImportRefused:
    value = load(name)
    change(value)
    return refused(value)


def test_alien_json_is_refused() -> None:
    exc = refused({"hello": "world"})
    assert exc.problems[-1].code == "not-bga" and "not a Board Game Arena log" in str(exc)


def test_truncated_files_are_refused() -> None:
    exc = refused({"status": 1, "data": {"valid": 1, "data": []}})
    assert "no packets" in str(exc)

    def cut_packet(v: Any) -> None:
        del v["data"]["data"][2]["data"]
    exc = mutated(cut_packet)
    assert exc.problems[-1].code == "truncated" and exc.problems[-1].where == "packet #3"

    def cut_note(v: Any) -> None:
        v["data"]["data"][1]["data"][0] = {"uid": ""}
    exc = mutated(cut_note)
    assert exc.problems[-1].where == "packet 2, notification 1"
    assert "without a type" in str(exc)

    def cut_arg(v: Any) -> None:
        del find(v, "playTile")["x"]
    exc = mutated(cut_arg)
    assert "playTile: no 'x'" in str(exc)
    with pytest.raises(json.JSONDecodeError):  # a file cut in its text never decodes
        json.loads((DIR / "finished-2p.json").read_text()[:-200])


@pytest.mark.parametrize("change,code,words,where", [
    (lambda v: find(v, "playTile").update(type="25"), "tile-type",
     "tile type 25 is not a base-game type", "packet 2, notification 1 (move 1)"),
    (lambda v: find(v, "playTile").update(id="99"), "tile-id", "unknown BGA tile id 99",
     "packet 2, notification 1 (move 1)"),
    (lambda v: find(v, "playTile").update(id="36", type="15"), "tile-id", "(the start tile)",
     "packet 2, notification 1 (move 1)"),
    (lambda v: find(v, "playTile").update(id="40"), "tile-id",
     "tile id 40 is of type 16 (U), not of type 11", "packet 2, notification 1 (move 1)"),
    (lambda v: find(v, "playTile").update(ori="5"), "ori", "ori 5",
     "packet 2, notification 1 (move 1)"),
    (lambda v: find(v, "playTile").update(x="one"), "number",
     "x is the text 'one', not a whole number",
     "packet 2, notification 1 (move 1)"),
    (lambda v: find(v, "playPartisan").update(pos="9"), "spot",
     "tile type 11 (E) has no spot 9", "packet 4, notification 1 (move 1)"),
    (lambda v: find(v, "playPartisan").update(type="road"), "spot",
     "spot 1 of tile type 11 (E) is a city, not a road", "packet 4, notification 1 (move 1)"),
    (lambda v: find(v, "playPartisan").update(type="tower"), "spot", "'tower'",
     "packet 4, notification 1 (move 1)"),
    (lambda v: find(v, "playPartisan").update(ptype="big"), "ptype",
     "ptype 'big' is not 'normal'", "packet 4, notification 1 (move 1)"),
    (lambda v: find(v, "playPartisan").update(portal=1), "portal", "magic portal",
     "packet 4, notification 1 (move 1)"),
    (lambda v: find(v, "playPartisan").update(id="40"), "partisan-tile",
     "not on the tile just placed (id 22 at (0,-1))", "packet 4, notification 1 (move 1)"),
    (lambda v: find(v, "playPartisan").update(player_id="84000002"), "partisan-player",
     "another player", "packet 4, notification 1 (move 1)"),
    (lambda v: v["data"]["data"][3]["data"].insert(1, copy.deepcopy(
        v["data"]["data"][3]["data"][0])), "partisan-twice", "a second playPartisan",
     "packet 4, notification 2 (move 1)"),
    (lambda v: v["data"]["data"][3]["data"].append(
        {"type": "placeDragon", "log": "", "args": {}}), "notification",
     "unknown notification 'placeDragon'", "packet 4, notification 10 (move 1)"),
    (lambda v: v["data"]["data"][4].update(packet_id="3"), "packet-order",
     "packet 3 comes after packet 4", "packet 3"),
    (lambda v: find(v, "playTile", nth=1).update(player_id="84000001"), "turn-order",
     "plays during the turn of 84000002", "packet 5, notification 1 (move 2)"),
    (lambda v: find(v, "playTile", nth=1).update(id="22", type="11"), "tile-id",
     "tile id 22 was already used (move 1)", "packet 5, notification 1 (move 2)"),
])
def test_refusals_name_what_and_where(change: Callable[[Any], None], code: str, words: str,
                                      where: str) -> None:
    exc = mutated(change)
    fatal = exc.problems[-1]
    assert fatal.fatal and fatal.code == code, fatal
    assert words in fatal.message
    assert fatal.where == where
    if code in ("tile-type", "ptype", "portal"):  # expansion content: not a malformed log
        assert exc.unsupported and exc.message.startswith("unsupported: this log uses ")
        assert f"(Board Game Arena log, {where}: " in exc.message
    else:
        assert not exc.unsupported
        assert exc.message.startswith(f"Board Game Arena log: {where}: ")


def test_skipped_turn_is_refused() -> None:
    def skip(v: Any) -> None:  # Ben's turn goes to Ada: state 2 and the tile agree
        for _, n in notes(v):
            a = n["args"]
            if n["type"] == "gameStateChange" and a.get("id") == 2 and a["args"]["tile_id"] \
                    == "40":
                a["active_player"] = "84000001"
            if n["type"] in ("playTile", "playPartisan") and a.get("id") == "40":
                a["player_id"] = "84000001"
    exc = mutated(skip)
    assert exc.problems[-1].code == "turn-order"
    assert "a log cannot carry a skipped turn" in str(exc)
    assert exc.problems[-1].where == "packet 5, notification 1 (move 2)"


def test_refusal_keeps_the_warnings_before_it() -> None:
    def change(v: Any) -> None:
        find(v, "winPoints")["score"] = "7"
        v["data"]["data"][-1]["data"].insert(0, {"type": "placeDragon", "args": {}})
    exc = mutated(change)
    assert codes(exc.problems) == ["score", "notification"]
    assert [p.fatal for p in exc.problems] == [False, True]


# -- the tables --------------------------------------------------------------------------------

def test_tile_ids_match_the_tile_set() -> None:
    counts = {t.id: t.count for t in T.tiles().values()}
    per_letter = {letter: last - first + 1 for letter, first, last in T.TYPES.values()}
    assert per_letter == counts
    assert T.letter_of_id(T.START_ID) == (15, "D") and T.pile_size() == 71


def test_every_spot_lies_on_a_segment_of_its_kind() -> None:
    for bga_type, (letter, _, _) in T.TYPES.items():
        assert letter in T.SPOTS, letter
        for pos, (_, kind) in T.SPOTS[letter].items():
            for ori in (1, 2, 3, 4):
                at, _ = T.spot_at(letter, pos, ori)  # type: ignore[misc]
                rot = T.rotation(bga_type, ori)
                assert T.segment_type(letter, rot, at) == T.SEGMENT_OF_KIND[kind], \
                    (letter, pos, ori)


def test_reference_example() -> None:
    value = load()
    tile = find(value, "playTile")
    tile.update(id="50", type="17", x="1", y="0", ori="3")
    find(value, "playPartisan").update(id="50", x="1", y="0", pos="1", type="road")
    find(value, "realizationAchieved")["winners"] = []
    win = find(value, "winPoints")
    win["points"], win["player_id"] = 0, 84000002
    move = BGA.read(value).log["moves"][0]
    assert {k: move[k] for k in ("tile", "x", "y", "rotation", "figure")} == \
        {"tile": "V", "x": 1, "y": 0, "rotation": 180, "figure": {"at": "N"}}


def test_type_16_is_turned_90_degrees() -> None:
    assert [T.rotation(16, o) for o in (1, 2, 3, 4)] == [90, 180, 270, 0]
    assert [T.rotation(17, o) for o in (1, 2, 3, 4)] == [0, 90, 180, 270]
    assert T.spot_at("U", 1, 1) == ("N", "r") and T.spot_at("U", 1, 4) == ("W", "r")
    assert T.spot_at("B", 1, 3) == ("cloister", "m")


def test_more_refusals() -> None:
    exc = refused({"status": 0, "error": "Replay unavailable"})
    assert "BGA says: Replay unavailable" in exc.message

    def one_player(v: Any) -> None:
        v["data"]["data"][:] = v["data"]["data"][:1]
    exc = mutated(one_player)
    assert exc.problems[-1].code == "players" and "1 player found" in exc.message

    def tile_after_end(v: Any) -> None:
        last = v["data"]["data"][-1]["data"]
        last.append(copy.deepcopy(next(n for _, n in notes(v) if n["type"] == "playTile")))
    exc = mutated(tile_after_end)
    assert "playTile after the final scoring" in exc.message

    def bad_realization(v: Any) -> None:
        find(v, "realizationAchieved")["tile_to_value"] = {"22": 2, "36": 3}
    assert BGA.read(load()).problems[0].code == "ended-early"
    value = load()
    bad_realization(value)
    problems = BGA.read(value).problems
    assert codes(problems)[0] == "realization" and problems[0].where.endswith("(move 1)")


@pytest.mark.parametrize("change,words,where", [
    (lambda v: v["data"]["data"][0].update(table_id=["x"]), "table_id is the list ['x']",
     "packet 1"),
    (lambda v: state_args(v, 99)["args"]["result"][0].update(name=10 ** 30),
     "name is the number 100000000000... (31 digits), not text", "packet"),
    (lambda v: state_args(v, 99)["args"]["result"][0].update(color=255),
     "color is the number 255, not text", "packet"),
    (lambda v: find(v, "playTile").update(player_name=["Ann"]),
     "player_name is the list ['Ann'], not text", "packet 2, notification 1 (move 1)"),
    (lambda v: find(v, "realizationAchieved").update(winners=[["84000001"]]),
     "winner is the list ['84000001'], not a whole number", "packet"),
])
def test_values_of_the_wrong_type_are_refused_not_coerced(
        change: Callable[[Any], None], words: str, where: str) -> None:
    """A list is never kept as its Python repr, a number never becomes a name (issue 29)."""
    exc = mutated(change)
    assert exc.problems[-1].fatal and words in exc.problems[-1].message, exc.problems[-1]
    assert exc.problems[-1].where.startswith(where)
