"""Write the corpus of broken logs in ``fixtures/invalid/`` with its manifest ``expected.json``.

Each file breaks exactly one thing; the manifest says the exit code and, for illegal moves, the
rule id and move index (or, for unreadable input, the JSON pointer), and for some (Manhattan's)
``message``: words the error message must contain, naming what is involved.
``tests/test_log_rules.py`` verifies every file against it. Run: ``python tools/make_invalid.py``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from replay.core.playback import play_through
from replay.core.record import parse
from replay.generate import dumps, generate_log

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "invalid"


def table(moves: list[dict[str, Any]], players: int = 2, **extra: Any) -> dict[str, Any]:
    log: dict[str, Any] = {
        "format": "carcassonne-replay/log", "version": 1, "game": "base",
        "players": [{"name": n} for n in ("Ada", "Ben", "Cleo", "Dan", "Eva", "Finn")[:players]],
    }
    log.update(extra)
    log["moves"] = moves
    return log


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    good = generate_log("base", 2, 7)
    logs: dict[str, tuple[Any, dict[str, Any]]] = {}

    def mutate(name: str, expect: dict[str, Any], fn: Any) -> None:
        log = copy.deepcopy(good)
        fn(log)
        logs[name] = (log, expect)

    mutate("wrong-type", {"exit": 2, "path": "/moves/2/x"},
           lambda d: d["moves"][2].__setitem__("x", "3"))
    mutate("huge-coordinate", {"exit": 2, "path": "/moves/0/x"},
           lambda d: d["moves"][0].__setitem__("x", 10**12))
    mutate("bad-rotation", {"exit": 2, "path": "/moves/1/rotation"},
           lambda d: d["moves"][1].__setitem__("rotation", 45))
    mutate("unknown-field", {"exit": 2, "path": "/moves/4"},
           lambda d: d["moves"][4].__setitem__("meeple", "yes"))
    mutate("missing-players", {"exit": 2, "path": ""}, lambda d: d.pop("players"))
    mutate("duplicate-names", {"exit": 2, "path": "/players/1/name"},
           lambda d: d["players"][1].__setitem__("name", "Ada"))
    mutate("tileset-mismatch", {"exit": 2, "path": "/tileset/sha256"},
           lambda d: d["tileset"].__setitem__("sha256", "0" * 64))
    mutate("six-players-without-ic", {"exit": 1, "rule": "B1", "move": None},
           lambda d: d.__setitem__("players", [{"name": f"P{i}"} for i in range(6)]))

    # illegal moves in a real seeded game: reuse the placement of an earlier move
    def occupied(d: dict[str, Any]) -> None:
        d["moves"][5].update(x=d["moves"][2]["x"], y=d["moves"][2]["y"])
    mutate("occupied-cell", {"exit": 1, "rule": "G4", "move": 5}, occupied)
    mutate("detached-cell", {"exit": 1, "rule": "G4", "move": 3},
           lambda d: d["moves"][3].update(x=40, y=40))
    mutate("wrong-seeded-tile", {"exit": 1, "rule": "L1", "move": 6},
           lambda d: d["moves"][6].__setitem__("tile", "C" if d["moves"][6]["tile"] != "C"
                                                else "B"))
    mutate("move-after-end", {"exit": 1, "rule": "G11", "move": len(good["moves"])},
           lambda d: d["moves"].append(dict(d["moves"][0])))
    mutate("seeded-discard", {"exit": 1, "rule": "G5", "move": 9},
           lambda d: d["moves"].__setitem__(9, {"tile": d["moves"][9]["tile"],
                                                 "discard": True}))
    mutate("wrong-final-claim", {"exit": 1, "rule": "L2", "move": None},
           lambda d: d["claims"]["final_scores"].__setitem__(
               "Ada", d["claims"]["final_scores"]["Ada"] + 1))
    mutate("wrong-winner-claim", {"exit": 1, "rule": "L2", "move": None},
           lambda d: d["claims"].__setitem__("winners", ["Ada", "Ben"]))
    mutate("wrong-move-claim", {"exit": 1, "rule": "L2", "move": 10},
           lambda d: d["moves"][10].__setitem__("scores", {"Ada": 999, "Ben": 0}))

    # edge mismatch: a legal cell of move 8 but a rotation whose sides do not match
    g: Any = play_through(parse(good), upto=8).state
    x, y, rot = g.legal_placements()[0]
    legal = {r for (a, b, r) in g.legal_placements() if (a, b) == (x, y)}
    bad_rot = next(r for r in (0, 90, 180, 270) if r not in legal)
    mutate("edge-mismatch", {"exit": 1, "rule": "G4", "move": 8},
           lambda d: d["moves"][8].update(x=x, y=y, rotation=bad_rot))

    logs["occupied-feature"] = (table([
        {"tile": "R", "x": 0, "y": -1, "rotation": 180, "figure": {"at": "S"}},
        {"tile": "E", "x": -1, "y": -1, "rotation": 90, "figure": {"at": "E"}}]),
        {"exit": 1, "rule": "G6", "move": 1})
    logs["unknown-location"] = (table([
        {"tile": "U", "x": 1, "y": 0, "rotation": 0, "figure": {"at": "cloister"}}]),
        {"exit": 1, "rule": "G6", "move": 0})
    logs["unknown-tile"] = (table([{"tile": "Z9", "x": 1, "y": 0, "rotation": 0}]),
                            {"exit": 1, "rule": "L1", "move": 0})
    logs["overdrawn-tile"] = (table([
        {"tile": "C", "x": 0, "y": -1, "rotation": 0},
        {"tile": "C", "x": 0, "y": -2, "rotation": 0}]), {"exit": 1, "rule": "L1", "move": 1})
    logs["table-move-without-tile"] = (table([{"x": 1, "y": 0, "rotation": 0}]),
                                       {"exit": 1, "rule": "L1", "move": 0})
    logs["discard-placeable"] = (table([{"tile": "U", "discard": True}]),
                                 {"exit": 1, "rule": "G5", "move": 0})
    logs["final-claim-unfinished"] = (table([{"tile": "U", "x": 1, "y": 0, "rotation": 0}],
                                            claims={"final_scores": {"Ada": 0, "Ben": 0}}),
                                      {"exit": 1, "rule": "L2", "move": None})
    logs["supply-empty"] = (_supply_empty_log(), {"exit": 1, "rule": "G6", "move": 14})
    _expansion_logs(logs)
    _hunters_gatherers_logs(logs)
    _manhattan_logs(logs)

    manifest: dict[str, Any] = {}
    for name, (log, expect) in sorted(logs.items()):
        (OUT / f"{name}.json").write_text(dumps(log) if "moves" in log and "players" in log
                                          else json.dumps(log, indent=1) + "\n", encoding="utf-8")
        manifest[f"{name}.json"] = expect
    (OUT / "malformed-json.json").write_text('{"format": "carcassonne-replay/log", "version": 1,\n'
                                             '  "moves": [ {"x": 1,, } ]\n', encoding="utf-8")
    manifest["malformed-json.json"] = {"exit": 2, "path": ""}
    (OUT / "not-utf8.json").write_bytes(b'{"format": "\xff\xfe"}')
    manifest["not-utf8.json"] = {"exit": 2, "path": ""}
    (OUT / "expected.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n",
                                       encoding="utf-8")
    print(f"wrote {len(manifest)} broken logs to {OUT}")


def _expansion_logs(logs: dict[str, tuple[Any, dict[str, Any]]]) -> None:
    """One broken log per violation the expansions add (IC, HS)."""
    hs, ic = ["hills-sheep"], ["inns-cathedrals"]
    shep = {"tile": "U", "x": 1, "y": 0, "rotation": 0,
            "figure": {"kind": "shepherd", "at": "S"}, "tokens": [3]}
    logs["hs2-second-shepherd-in-field"] = (table([shep, {
        "tile": "U", "x": -1, "y": 0, "rotation": 0, "figure": {"kind": "shepherd", "at": "S"},
        "tokens": [1]}], expansions=hs), {"exit": 1, "rule": "HS2", "move": 1})
    logs["hs3-flock-choice-missing"] = (table([shep, {"tile": "U", "x": -1, "y": 0, "rotation": 0},
                                               {"tile": "B", "x": 0, "y": 1, "rotation": 0}],
                                              expansions=hs), {"exit": 1, "rule": "HS3", "move": 2})
    logs["hs3-flock-choice-not-allowed"] = (table([shep, {
        "tile": "U", "x": -1, "y": 0, "rotation": 0, "flock": [{"at": "S", "action": "herd"}]}],
        expansions=hs), {"exit": 1, "rule": "HS3", "move": 1})
    logs["hs-table-draw-not-listed"] = (table([{k: v for k, v in shep.items() if k != "tokens"}],
                                              expansions=hs), {"exit": 1, "rule": "L1", "move": 0})
    four = {**shep, "tokens": [4]}
    logs["hs-token-not-in-bag"] = (table([four, {
        "tile": "U", "x": -1, "y": 0, "rotation": 0, "figure": {"kind": "shepherd", "at": "N"},
        "tokens": [4]}, {"tile": "A", "x": 2, "y": 0, "rotation": 90,
                         "flock": [{"at": "N", "action": "expand"}], "tokens": [4]}],
        expansions=hs), {"exit": 1, "rule": "L1", "move": 2})
    logs["hs7-hidden-under-no-hill"] = (table([{"tile": "U", "x": 1, "y": 0, "rotation": 0,
                                                "hidden": "B"}], expansions=hs),
                                        {"exit": 1, "rule": "HS7", "move": 0})
    big = {"kind": "large-follower", "at": "N"}
    logs["ic1-second-large-follower"] = (table([
        {"tile": "U", "x": 1, "y": 0, "rotation": 0, "figure": big},
        {"tile": "U", "x": -1, "y": 0, "rotation": 0},
        {"tile": "B", "x": 0, "y": 1, "rotation": 0,
         "figure": {"kind": "large-follower", "at": "cloister"}}], expansions=ic),
        {"exit": 1, "rule": "G6", "move": 2})
    logs["ic1-large-follower-without-ic"] = (table([
        {"tile": "U", "x": 1, "y": 0, "rotation": 0, "figure": big}]),
        {"exit": 1, "rule": "G6", "move": 0})
    logs["ic1-seven-players"] = (table([], players=6, expansions=ic) | {
        "players": [{"name": f"P{i}"} for i in range(7)]}, {"exit": 2, "path": "/players"})
    # a seeded game with both expansions whose first shepherd draw is misreported
    seeded = generate_log("base", 3, 4, ("inns-cathedrals", "hills-sheep"))
    game = play_through(parse(seeded))
    first = next(i for i, ev in enumerate(game.events)
                 if any(e.type == "sheep" for e in ev))
    drawn = next(e.to_json()["sheep"] for e in game.events[first] if e.type == "sheep")
    seeded["moves"][first]["tokens"] = ["wolf" if drawn else 1]
    logs["hs-wrong-seeded-token"] = (seeded, {"exit": 1, "rule": "L1", "move": first})


def _hunters_gatherers_logs(logs: dict[str, tuple[Any, dict[str, Any]]]) -> None:
    """HG violations, cut out of seeded games where the situation arises."""
    from replay.tiles.tileset import location_name

    def seeded(seed: int) -> dict[str, Any]:
        return generate_log("hunters-gatherers", 3, seed)

    # HG3: a hut on a forest
    log = seeded(1)
    parsed = parse(log)
    game: Any = parsed.new_state()
    for i, mv in enumerate(parsed.moves):
        land = game.tiles_by_id[log["moves"][i]["tile"]]
        rot = land.rotations[mv.rotation // 90]
        forest = [location_name(rot, s.index) for s in land.segments if s.type == "forest"]
        if forest and mv.figure is None and mv.bonus is None:
            bad = dict(log["moves"][i], figure={"kind": "hut", "at": forest[0]})
            logs["hg3-hut-on-forest"] = ({**log, "moves": log["moves"][:i] + [bad]},
                                         {"exit": 1, "rule": "HG3", "move": i})
            break
        game.apply(mv)
    # HG3: a second hut in a river network; HG7: a bonus tile when no gold; HG6: a follower
    # recovered this turn put on the bonus tile
    found: set[str] = set()
    for seed in range(200):
        log = seeded(seed)
        parsed = parse(log)
        game = parsed.new_state()
        for i, mv in enumerate(parsed.moves):
            tile = game.current
            assert tile is not None
            p = game.turn
            if "hut" not in found and mv.figure is None and game.supply[p]["hut"] > 0:
                groups, _ = game._groups_for("hut", tile, (mv.x, mv.y), mv.rotation // 90)
                rot = tile.rotations[mv.rotation // 90]
                for seg in tile.segments:
                    if seg.type in ("river", "lake") and game._occupied(
                            groups[seg.index], "hut", game.net):
                        bad = dict(log["moves"][i], figure={
                            "kind": "hut", "at": location_name(rot, seg.index)})
                        bad.pop("bonus", None)
                        logs["hg3-second-hut-in-network"] = (
                            {**log, "moves": log["moves"][:i] + [bad]},
                            {"exit": 1, "rule": "HG3", "move": i})
                        found.add("hut")
                        break
            if "nogold" not in found and mv.bonus is None and i > 5:
                bonus = {"tile": "HG-85", "x": 0, "y": 0, "rotation": 0}
                logs["hg7-bonus-without-gold"] = (
                    {**log, "moves": log["moves"][:i] + [dict(log["moves"][i], bonus=bonus)]},
                    {"exit": 1, "rule": "HG7", "move": i})
                found.add("nogold")
            if "recovered" not in found and mv.bonus is not None:
                trial: Any = play_through(parsed, upto=i).state
                trial.step(replace_bonus(mv))
                if trial.supply[p]["follower"] == 0 and any(
                        f.player == p for _, f in trial.pending_returns):
                    btile = trial.pending_bonus
                    assert btile is not None
                    for x, y, r in trial.legal_placements(btile):
                        brot = btile.rotations[r // 90]
                        for seg in btile.segments:
                            if seg.type in ("forest", "meadow", "river"):
                                loc = location_name(brot, seg.index)
                                bad_bonus = {"tile": btile.id, "x": x, "y": y, "rotation": r,
                                             "figure": {"at": loc}}
                                bad = dict(log["moves"][i], bonus=bad_bonus)
                                logs["hg6-recovered-follower-on-bonus"] = (
                                    {**log, "moves": log["moves"][:i] + [bad]},
                                    {"exit": 1, "rule": "HG6", "move": i})
                                found.add("recovered")
                                break
                        if "recovered" in found:
                            break
            game.apply(mv)
        if found >= {"hut", "nogold", "recovered"}:
            break
    # HG7: a bonus tile drawn as a land tile, and a chained bonus tile
    logs["hg7-bonus-tile-as-land-tile"] = (
        table([{"tile": "HG-85", "x": 0, "y": -1, "rotation": 0}],
              game="hunters-gatherers"), {"exit": 1, "rule": "HG7", "move": 0})
    logs["hg7-bonus-missing"] = (
        table([{"tile": "HG-38", "x": 1, "y": 0, "rotation": 0}, {"tile": "HG-35", "x": 2,
               "y": 0, "rotation": 180}, {"tile": "HG-39", "x": 0, "y": 1, "rotation": 90},
               {"tile": "HG-37", "x": 0, "y": 2, "rotation": 0}],
              game="hunters-gatherers"), {"exit": 1, "rule": "HG7", "move": 3})


def _manhattan_logs(logs: dict[str, tuple[Any, dict[str, Any]]]) -> None:
    """One broken log per Manhattan violation (M1-M8), each a generated game with one edit,
    cut right after the broken move; ``message`` names what is involved."""
    from replay.games.manhattan.material import CITIES, HEIGHTS

    four = generate_log("manhattan", 4, 3)  # Ada blue south, Ben black west, ...
    two = generate_log("manhattan", 2, 5)  # Ada blue and red, Ben black and green
    for log in (four, two):
        log.pop("claims")
        log.pop("meta")

    def edit(name: str, log: dict[str, Any], i: int | None, change: Any,
             expect: dict[str, Any]) -> None:
        """``log`` with ``change`` made to move ``i`` (or to the header for None), cut after
        move ``i`` (after the first move for a header)."""
        out = copy.deepcopy(log)
        out["moves"] = out["moves"][:1 if i is None else i + 1]
        change(out if i is None else out["moves"][i])
        logs[name] = (out, expect)

    def illegal(rule: str, move: int | None, *words: str) -> dict[str, Any]:
        return {"exit": 1, "rule": rule, "move": move, "message": list(words)}

    first = 4  # Ada's first build (after the four choices of round 1)
    game: Any = play_through(parse(four), upto=first).state
    hand = game.hands[0]
    missing = next(c for c in range(9) if c not in hand)
    edit("mh-card-not-in-hand", four, first, lambda m: m.update(card=missing),
         illegal("M3", first, f"Ada holds no card {missing}", f"hand {sorted(hand)}"))
    edit("mh-card-9-no-such-lot", four, first, lambda m: m.update(card=9),
         illegal("M1", first, "card 9", "lots 0 to 8"))
    edit("mh-no-such-city", four, first, lambda m: m.update(city="Paris"),
         illegal("M1", first, "'Paris' is not a city", "Manhattan, Frankfurt"))
    unchosen = next(h for h in HEIGHTS if not game.chosen["blue"][h])
    edit("mh-piece-not-chosen", four, first, lambda m: m.update(storeys=unchosen),
         illegal("M4", first, f"Ada has no blue {unchosen}-storey piece in play",
                 "chosen: blue"))
    edit("mh-choose-too-many", four, 0, lambda m: m["choose"]["blue"].append(1),
         illegal("M4", 0, "Ada takes 7 blue pieces, too many", "each round takes 6"))
    edit("mh-choose-more-than-supply", four, 0,
         lambda m: m["choose"].update(blue=[4, 4, 4, 1, 1, 1]),
         illegal("M4", 0, "Ada takes 3 blue 4-storey pieces; 2 left"))
    edit("mh-another-players-colour", four, first, lambda m: m.update(colour="black"),
         illegal("M2", first, "black is not a colour of Ada", "(blue)"))
    edit("mh-two-player-build-without-colour", two, 2, lambda m: m.pop("colour"),
         illegal("M7", 2, "Ada plays blue and red", "name the colour"))
    edit("mh-side-used-twice", four, None, lambda d: d["players"][1].update(side="south"),
         illegal("M2", None, "Ben and Ada both sit on the south side"))
    wrong_hand = [0, 0, 0, 0] if four["deal"][0] != [0, 0, 0, 0] else [1, 1, 1, 1]
    edit("mh-deal-not-seeded", four, None, lambda d: d["deal"].__setitem__(0, wrong_hand),
         illegal("M3", None, f"Ada's hand is given as {wrong_hand}",
                 f"the seeded deal gives {four['deal'][0]}"))
    drawn = four["moves"][first]["draw"]
    other = (drawn + 1) % 9
    edit("mh-draw-not-seeded", four, first, lambda m: m.update(draw=other),
         illegal("M3", first, f"Ada drew card {other}", f"the seeded pile gives card {drawn}"))
    table = {k: v for k, v in four.items() if k != "seed"}
    edit("mh-table-log-without-deal", table, None, lambda d: d.pop("deal"),
         illegal("M3", None, "without a seed must name the deal"))
    edit("mh-table-build-without-draw", table, first, lambda m: m.pop("draw"),
         illegal("M3", first, "must name the card drawn"))
    build = four["moves"][first]
    edit("mh-discard-while-build-legal", four, first,
         lambda m: (m.clear(), m.update(discard=build["card"], draw=build["draw"])),
         illegal("M5", first, "Ada can build, so may not discard", f"card {build['card']}"))
    # M5: the first build of the game that could instead have taken a building over with
    # too few storeys; that build is replaced by the short take-over
    parsed = parse(four)
    game = parsed.new_state()
    for i, mv in enumerate(parsed.moves):
        seat = game.current_player
        if game.phase == "build" and seat is not None:
            colour = game.colours_of[seat][0]
            short = [(card, city, h) for card in sorted(set(game.hands[seat]))
                     for city in CITIES for h in HEIGHTS if game.chosen[colour][h]
                     and game.takeover_error(seat, card, city, h, colour) is not None]
            if short:
                card, city, h = short[0]
                bad = {"card": card, "city": city, "storeys": h,
                       "draw": game.deck.next_card(card)}
                out = copy.deepcopy(four)
                out["moves"] = out["moves"][:i] + [bad]
                logs["mh-takeover-too-few-storeys"] = (out, illegal(
                    "M5", i, f"of {city}", f"with this {h}-storey piece {colour} would have",
                    "fewer than"))
                break
        game.apply(mv)
    # M8: a move after the end of a whole three-player game
    whole = generate_log("manhattan", 3, 2)
    whole.pop("claims")
    whole.pop("meta")
    end = len(whole["moves"])
    whole["moves"].append(dict(whole["moves"][-1]))
    logs["mh-move-after-end"] = (whole, illegal("M8", end, "the game is over"))
    # schema errors (exit 2, with the JSON path)
    edit("mh-build-without-city", four, first, lambda m: m.pop("city"),
         {"exit": 2, "path": f"/moves/{first}", "message": ["'city' is a required property"]})
    edit("mh-choose-not-an-integer", four, 0,
         lambda m: m["choose"]["blue"].__setitem__(2, "2"),
         {"exit": 2, "path": "/moves/0/choose/blue/2",
          "message": ["'2' is not of type 'integer'"]})


def replace_bonus(move: Any) -> Any:
    from dataclasses import replace
    return replace(move, bonus=None)


def _supply_empty_log() -> dict[str, Any]:
    """Ada puts six monks and a farmer on the board, then tries an eighth figure."""
    def m(tile: str, x: int, y: int, at: str | None = None) -> dict[str, Any]:
        move: dict[str, Any] = {"tile": tile, "x": x, "y": y, "rotation": 0}
        if at:
            move["figure"] = {"at": at}
        return move
    ada = [m("B", 0, 1, "cloister"), m("B", 1, 1, "cloister"), m("B", -1, 1, "cloister"),
           m("B", 2, 1, "cloister"), m("A", -2, 1, "cloister"), m("A", 3, 1, "cloister"),
           m("U", 1, 0, "N"), m("U", -1, 0, "W")]
    ben = [{"tile": "E", "x": 0, "y": -1, "rotation": 180}, m("U", 0, -2), m("U", 1, -2),
           m("U", -1, -2), m("U", 2, -2), m("U", -2, -2), m("V", 3, -2)]
    moves = [mv for pair in zip(ada, ben + [{}], strict=True) for mv in pair if mv]
    return table(moves)


if __name__ == "__main__":
    main()
