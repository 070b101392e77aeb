"""The JCloisterZone (.jcz) importer: the engine's MIT saves, hand-made saves, refusals."""

from __future__ import annotations

import copy
import hashlib
import json
import struct
from pathlib import Path
from typing import Any

import pytest

from replay.core.importing import ImportRefused, convert, sniff
from replay.core.verify import verify
from replay.games.carcassonne.importers.jcz import JczImporter
from replay.games.carcassonne.importers.jcz_sheep import Generator

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "import"
MIT = ROOT / "jcz-mit"
OWN = ROOT / "jcz"

MIT_EXPECTED = {
    "basic/scoring.jcz": (True, {"Alice": 14, "Bob": 11}),
    "basic/scoringFarms.jcz": (True, {"Alice": 9, "Bob": 15}),
    "basic/scoringMultiTiles.jcz": (False, {"Alice": 28, "Bob": 13}),
    "inns_and_cathedrals/innsScoring.jcz": (True, {"Alice": 8, "Bob": 0}),
    "inns_and_cathedrals/cathedralsScoring.jcz": (True, {"Alice": 15, "Bob": 0}),
    "hills_and_sheep/multi_city_merge.jcz": (False, {"Alice": 20, "Bob": 0}),
    "hills_and_sheep/multi_city_merge2.jcz": (False, {"Alice": 8, "Bob": 8}),
    "hills_and_sheep/multi_city_merge3.jcz": (False, {"Alice": 8, "Bob": 0}),
    "hills_and_sheep/multi_city_merge_open.jcz": (False, {"Alice": 0, "Bob": 0}),
}
MIT_REFUSED = {
    "hills_and_sheep/multi_city_merge_abbey.jcz": "Abbey & Mayor",
    "hills_and_sheep/multi_city_merge_abbey2.jcz": "Abbey & Mayor",
    "traders_and_builders/tradeGoodsScoring.jcz": "Traders & Builders",
}


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def imported(value: Any) -> Any:
    result = convert(value)
    assert result is not None
    return result


def refused(value: Any, *words: str) -> ImportRefused:
    with pytest.raises(ImportRefused) as info:
        convert(value)
    text = str(info.value)
    for w in words:
        assert w in text, text
    return info.value


# ------------------------------------------------------------------ the engine's saves


@pytest.mark.parametrize("name", sorted(MIT_EXPECTED))
def test_mit_saves_import_and_verify(name: str) -> None:
    finished, scores = MIT_EXPECTED[name]
    result = imported(load(MIT / name))
    assert result.log["meta"]["source"] == "JCloisterZone"
    report = verify(result.log)
    assert report.valid, report.line()
    assert report.finished is finished
    assert report.final_scores == scores
    assert ("end" in result.log) is finished


@pytest.mark.parametrize("name", sorted(MIT_REFUSED))
def test_mit_saves_refused(name: str) -> None:
    refused(load(MIT / name), MIT_REFUSED[name])


# the sha256 (its first 32 hex digits) of each file of the shared folder's fixtures/jcz-mit
# (the saves as JCloisterZone ships them, its LICENSE, the README of their expected scores),
# taken when they were copied
MIT_SHA256 = """
455dffddf4a7fcd184390abd63ef1b4b LICENSE
30e39c4d22aea29f8fe708c62531de7a README.md
7997696796a32ca6bc865a5f51814395 basic/scoring.jcz
e8541ea9fd7d0a6d368f32e63fea8480 basic/scoringFarms.jcz
d75359dc02213e5b49160afb47572231 basic/scoringMultiTiles.jcz
277023b88af822c6bcc1c40d20961da7 hills_and_sheep/multi_city_merge.jcz
2ff451e3ef99524b557a35b5855719dc hills_and_sheep/multi_city_merge2.jcz
1621e5b3a917bf0b4da1a56288df5616 hills_and_sheep/multi_city_merge3.jcz
943efb929680407f1dfd81cef9ccd356 hills_and_sheep/multi_city_merge_abbey.jcz
d0329a02123bc6d232c73d0eaa9f5ad5 hills_and_sheep/multi_city_merge_abbey2.jcz
859ecc041b371cae570b3d931809727a hills_and_sheep/multi_city_merge_open.jcz
5c11db293d23827dd722164e28642632 inns_and_cathedrals/cathedralsScoring.jcz
38127d4b59a5f97a4db12ac7dce81c15 inns_and_cathedrals/innsScoring.jcz
1e978d3578da397f43d11237f38ecbb3 traders_and_builders/tradeGoodsScoring.jcz
"""


def test_mit_fixtures_are_unchanged_copies() -> None:
    """fixtures/import/jcz-mit holds the MIT saves with their licence, byte for byte as they
    were copied (no file added, none missing, none changed)."""
    expected = {name: digest for digest, name in
                (line.split(" ", 1) for line in MIT_SHA256.strip().splitlines())}
    found = {f.relative_to(MIT).as_posix(): hashlib.sha256(f.read_bytes()).hexdigest()[:32]
             for f in sorted(MIT.rglob("*")) if f.is_file()}
    assert found == expected


def test_masks_and_ids_of_4x() -> None:
    log = imported(load(MIT / "basic" / "scoring.jcz")).log
    assert log["moves"][0] == {"tile": "V", "x": 1, "y": 0, "rotation": 90,
                               "figure": {"at": "N"}}
    assert log["moves"][2]["figure"] == {"at": "EL"}  # EL.SR: one field
    assert log["moves"][6]["figure"] == {"at": "cloister"}
    assert log["options"] == {"small_city": 4, "farm_scoring": "per-field"}


# ------------------------------------------------------------------ hand-made saves


@pytest.mark.parametrize("name", sorted(load(OWN / "expected.json")))
def test_own_saves_import_verify_and_round_trip(name: str) -> None:
    expected = load(OWN / "expected.json")[name]
    result = imported(load(OWN / name))
    report = verify(result.log)
    assert report.valid, report.line()
    assert report.finished is expected["finished"]
    assert report.final_scores == expected["scores"]
    again = verify(json.loads(json.dumps(result.log)))
    assert again.valid and again.final_scores == expected["scores"]
    assert again.state_hash == report.state_hash
    for move, tokens in expected.get("tokens", []):
        assert result.log["moves"][move]["tokens"] == tokens


def test_6x_save_in_detail() -> None:
    result = imported(load(OWN / "hs-6x-flock.jcz"))
    moves = result.log["moves"]
    assert moves[0]["figure"] == {"kind": "shepherd", "at": "NL"}
    assert moves[0]["tokens"] == [3]  # SHEPHERD_CONFIRM 0.5 x 18 = 9: the 3 sheep
    assert moves[1]["x"] == 0 and moves[1]["y"] == -1  # the UNDO took back (0, 2)
    assert moves[2] == {"tile": "C", "discard": True}
    assert moves[3]["flock"] == [{"at": "NL", "action": "expand"}]
    assert moves[3]["tokens"] == [2]  # 0.3 x 17 = 5: the 2 sheep
    assert moves[4]["figure"] == {"at": "SL"} and "hidden" not in moves[4]
    assert moves[5]["flock"][0]["action"] == "herd"
    assert result.log["end"] == "after-last-move"
    assert result.log["claims"] == {"final_scores": {"Alice": 5, "Bob": 5}}
    assert result.log["options"]["hill_tiebreak"] == "presence"
    assert result.log["meta"]["gameId"] == "fixture-hs-6x"


def test_generator_steps_like_java_random() -> None:
    g = Generator(0.25)
    assert g.next_int(18) == 4
    assert g.r == 11 / 2 ** 48  # the bits of 0.25 have no low mantissa: x = 11
    bits = struct.unpack(">q", struct.pack(">d", 0.7))[0] & (2 ** 48 - 1)
    g = Generator(0.7)
    g.next_int(2)
    assert g.r == ((25214903917 * bits + 11) % 2 ** 48) / 2 ** 48


def test_last_turn_without_commit_is_dropped() -> None:
    result = imported(load(OWN / "ic-hs-510-random.jcz"))
    assert len(result.log["moves"]) == 4
    assert any(p.code == "no-commit" for p in result.problems)
    assert result.log["moves"][-1]["scores"] == {"Alice": 8, "Bob": 1}


# ------------------------------------------------------------------ sniffing


def test_sniff() -> None:
    jcz = JczImporter()
    assert jcz.sniff(load(MIT / "basic" / "scoring.jcz"))
    assert jcz.sniff(load(OWN / "hs-6x-flock.jcz"))
    assert not jcz.sniff({"format": "carcassonne-replay/log", "version": 1})
    assert not jcz.sniff({"status": 1, "data": {"setup": {}, "initialSeed": 1, "replay": []}})
    assert not jcz.sniff([1, 2])
    assert not jcz.sniff({"replay": []})
    assert isinstance(sniff(load(OWN / "base-54-end-turn.jcz")), JczImporter)


# ------------------------------------------------------------------ refusals


def own(name: str = "hs-6x-flock.jcz") -> Any:
    return copy.deepcopy(load(OWN / name))


def test_truncated_and_alien_files() -> None:
    save = own()
    del save["replay"]
    refused(save, "saved setup")
    save = own()
    save["replay"] = save["replay"][:3] + [{"payload": {}}]
    refused(save, "not a message")
    save = own()
    save["initialRandom"] = "x"
    refused(save, "initialRandom")
    assert JczImporter().sniff({"setup": {}, "initialSeed": 1.5, "replay": []})
    refused({"setup": {}, "initialSeed": 1.5, "replay": []}, "not a JCloisterZone save")
    save = own()
    del save["setup"]["sets"]
    refused(save, "setup.sets")


def test_unknown_tile_id() -> None:
    save = own()
    save["replay"][0]["payload"]["tileId"] = "BA/Nope"
    save["gameAnnotations"]["drawOrder"][0] = "BA/Nope"
    err = refused(save, "unknown tile id", "replay message 0 (turn 1)")
    assert err.problems[-1].code == "unknown-tile"


def test_bad_masks() -> None:
    save = own("base-54-end-turn.jcz")
    save["replay"][1]["payload"]["pointer"]["location"] = "N"  # the field side of BA/C R180
    refused(save, "location 'N'", "replay message 1 (turn 1)")
    save = own("base-54-end-turn.jcz")
    save["replay"][4]["payload"]["pointer"].update(location="NL.SR", feature="Field")
    refused(save, "spans two segments")
    save = own("base-54-end-turn.jcz")
    save["replay"][4]["payload"]["pointer"]["location"] = "I"
    refused(save, "location 'I'")


def test_another_players_meeple() -> None:
    save = own("base-54-end-turn.jcz")
    save["replay"][4]["payload"]["meepleId"] = "0.small.2"
    refused(save, "meeple 0.small.2", "Bob")


def test_undo_with_nothing_to_undo() -> None:
    save = own()
    save["replay"].insert(0, {"type": "UNDO", "payload": {}, "player": 0})
    refused(save, "UNDO with nothing to undo", "replay message 0")
    save = own()  # a new shepherd cannot be taken back
    save["replay"].insert(2, {"type": "UNDO", "payload": {}, "player": 0})
    refused(save, "UNDO with nothing to undo")


def test_messages_out_of_order() -> None:
    save = own()
    save["replay"].insert(4, {"type": "PASS", "payload": {}, "player": 1})
    refused(save, "outside a turn", "replay message 4")
    save = own()
    save["replay"].pop(3)  # turn 1 without COMMIT, then turn 2's PLACE_TILE
    refused(save, "PLACE_TILE before the previous turn's COMMIT")
    save = own()
    save["replay"][1]["player"] = 1  # the turn player's own choice, sent by another
    refused(save, "DEPLOY_MEEPLE sent by player 1 in another player's turn")
    save = own()
    save["replay"][6]["player"] = 0
    refused(save, "PLACE_TILE sent by player 0")
    save = own()
    save["replay"][7]["payload"]["pointer"]["position"] = [5, 5]
    refused(save, "not put on the tile just placed")


def test_messages_of_no_players_choice_are_accepted_from_anyone() -> None:
    """JCZ picks a handler by message type: a confirmation, a commit or a flock choice sent
    with another player's index is replayed (6.x saves hold such SHEPHERD_CONFIRMs)."""
    expected = imported(own()).log
    save = own()
    for k in (2, 3, 11, 20):  # SHEPHERD_CONFIRM, COMMIT, FLOCK_EXPAND_OR_SCORE x2
        save["replay"][k]["player"] = 1
    save["replay"][8]["player"] = 0  # Bob's COMMIT
    assert imported(save).log == expected
    save["replay"][1]["payload"]["meepleId"] = "1.shepherd.1"  # ownership: by the meeple id
    refused(save, "meeple 1.shepherd.1 of player 1 deployed in Alice's turn")


def test_unsupported_expansion_content() -> None:
    save = own()
    save["replay"].insert(4, {"type": "PLACE_TOKEN", "payload": {}, "player": 1})
    plays = "; this service plays Carcassonne: the base game, "
    assert refused(save, "unsupported: this save uses tokens (Tunnel", plays,
                   "PLACE_TOKEN").unsupported
    save = own("base-54-end-turn.jcz")
    save["replay"][1]["payload"]["meepleId"] = "0.abbot.1"
    assert refused(save, "unsupported: this save uses the figure 'abbot' of an expansion",
                   plays, "figure 'abbot'").unsupported
    save = own("base-54-end-turn.jcz")
    save["setup"]["sets"]["basic:2"] = 1
    del save["setup"]["sets"]["basic"]
    assert refused(save, "unsupported: this save uses edition 2 of the set basic",
                   "edition 2").unsupported
    save = own("base-54-end-turn.jcz")
    save["setup"]["elements"]["king"] = True
    assert refused(save, "unsupported: this save uses the king", "king").unsupported
    save = own("base-54-end-turn.jcz")
    save["setup"]["start"][0]["tile"] = "BA/RFr"
    assert not refused(save, "start").unsupported  # a malformed save, not an expansion
    save = own("base-54-end-turn.jcz")
    save["gameAnnotations"]["drawOrder"][0] = "IC/Cccc.c"
    save["replay"][0]["payload"]["tileId"] = "IC/Cccc.c"
    refused(save, "which the save's setup does not play")


def test_rules_switched_off() -> None:
    save = own("base-54-end-turn.jcz")
    save["setup"]["rules"]["inn-and-cathedral-final-scoring"] = "ignore"
    result = imported(save)  # without Inns & Cathedrals the rule has no effect
    assert any(p.code == "ignored-rule" for p in result.problems)
    save["setup"]["sets"]["inns-and-cathedrals:1"] = 1
    save["setup"]["elements"].update({"inn": True, "cathedral": True})
    refused(save, "inn-and-cathedral-final-scoring")
    save = own("base-54-end-turn.jcz")
    del save["setup"]["elements"]["small-follower"]
    refused(save, "without small followers")
    save = own("base-54-end-turn.jcz")
    save["setup"]["elements"]["big-follower"] = 2
    refused(save, "2 big-followers")
    save = own()
    del save["setup"]["elements"]["hill"]
    refused(save, "hill", "switched off", "turn 4")
    save = own("ic-hs-510-random.jcz")
    del save["setup"]["elements"]["inn"]
    refused(save, "tile IC/RFr.i has an inn, which the source plays switched off")  # not "a inn"
    save = own()
    del save["setup"]["elements"]["farmers"]
    assert any(p.code == "farmers-off" for p in imported(save).problems)


def test_player_counts() -> None:
    save = own()
    save["players"] = save["players"][:1]
    refused(save, "logs need 2 to 6")
    save = own()
    save["players"] = [{"name": f"P{i}", "slot": i} for i in range(6)]
    refused(save, "6 players")
    save = own()
    save["players"][1]["name"] = "Alice"
    result = imported(save)
    assert [p["name"] for p in result.log["players"]] == ["Alice", "Alice (2)"]


def test_shepherd_before_57_refused() -> None:
    save = own("base-54-end-turn.jcz")
    save["setup"]["sets"]["hills-and-sheep:1"] = 1
    save["setup"]["elements"].update({"shepherd": 1, "hill": True, "vineyard": True})
    save["replay"][1]["payload"]["meepleId"] = "0.shepherd.1"
    save["replay"][1]["payload"]["pointer"].update(feature="Field", location="NL.NR.EL.ER")
    refused(save, "shepherd in a 5.0-5.6 save", "before 5.7")
    save = load(MIT / "hills_and_sheep" / "multi_city_merge2.jcz")
    save["replay"][7]["payload"]["meepleId"] = "0.shepherd.1"
    refused(save, "shepherd in a 4.x save")


def test_forced_order_mismatch() -> None:
    save = own("base-54-end-turn.jcz")
    save["gameAnnotations"]["drawOrder"] = ["BA/RFr", "BA/Rr"]
    refused(save, "not in the rest of the forced draw order")
    save = own("base-54-end-turn.jcz")
    save["gameAnnotations"] = {"drawOrder": ["BA/C", "#END"]}
    refused(save, "after the end of the forced draw order")


def _retyped(change: Any, name: str = "hs-6x-flock.jcz", path: Path = OWN) -> Any:
    save = copy.deepcopy(load(path / name))
    change(save)
    return save


@pytest.mark.parametrize("change,words", [
    (lambda s: s["players"][1].update(name=10 ** 30),
     "players[1].name: the player name is the number 100000000000... (31 digits), not text"),
    (lambda s: s["players"][0].update(name=["Alice"]), "players[0].name: the player name is "
     "the list ['Alice'], not text"),
    (lambda s: s.update(gameId=7), "gameId: gameId is the number 7, not text"),
    (lambda s: s["setup"]["rules"].update({"tiny-city-scoring": 2}),
     "rule tiny-city-scoring 2 is not understood"),
    (lambda s: s["replay"][7]["payload"].update(meepleId=0), "the meepleId is the number 0"),
    (lambda s: s["replay"][1]["payload"]["pointer"].update(location=5),
     "the pointer's location is the number 5, not text"),
    (lambda s: s.update(test={"assertions": [5]}),
     "test.assertions[0]: the assertion is the number 5, not text"),
])
def test_values_of_the_wrong_type_are_refused_not_coerced(change: Any, words: str) -> None:
    """A number is never a name, nor a list kept as its repr (issue 29): refused, where."""
    refused(_retyped(change), words)


def test_4x_slots_of_the_wrong_type_are_refused() -> None:
    def nickname(save: Any) -> None:
        save["slots"][0]["nickname"] = 42
    refused(_retyped(nickname, "basic/scoring.jcz", MIT), "slots[0].nickname: the player "
            "name is the number 42, not text")

    def serial(save: Any) -> None:
        save["slots"][1]["serial"] = "2"
    refused(_retyped(serial, "basic/scoring.jcz", MIT), "slots[1].serial: the serial is the "
            "text '2', not a whole number")

    def capability(save: Any) -> None:
        save["setup"]["capabilities"].append(["Inn"])
    refused(_retyped(capability, "basic/scoring.jcz", MIT), "setup.capabilities[",
            "the capability is the list ['Inn'], not text")


def test_an_assertion_of_5000_digits_is_no_claim() -> None:
    save = own()
    save["test"] = {"assertions": ["Alice has " + "9" * 5000 + " points"]}
    result = imported(save)
    assert "claims" not in result.log and result.problems[-1].code == "assertion"
