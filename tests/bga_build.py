"""Build small Board Game Arena logs from legal games, for the importer's fixtures and tests.

A game is given as table-log moves (checked by the project's engine, which also gives the
scorings); this writes the notifications BGA would archive for it: turns (state 2), tiles,
partisans, discards, realizations and winPoints, final scoring (states 6 and 7) and the result
(state 99), with some noise BGA also sends (pickTile, deck_size, reflexion time, notes).

``python -m tests.bga_build`` rewrites ``fixtures/import/bga/*.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from replay.core.playback import play_through
from replay.core.record import parse
from replay.games.carcassonne.importers import bga_tables as T

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "import" / "bga"
PENNANT_LETTERS = set("SMOFCQ")
TYPE_OF = {letter: t for t, (letter, _, _) in T.TYPES.items()}
LETTER_OF_ID = {i: letter for letter, first, last in T.TYPES.values()
                for i in range(first, last + 1)}
TARGET_OF = {"r": "road", "c": "city", "f": "field", "m": "abbey"}


def note(kind: str, args: dict[str, Any] | None, log: str = "") -> dict[str, Any]:
    """One notification."""
    return {"uid": "", "type": kind, "log": log, "args": args}


def state(sid: int, active: str, args: Any = None) -> dict[str, Any]:
    """A gameStateChange."""
    return note("gameStateChange", {"id": sid, "active_player": active, "args": args,
                                    "type": "game" if sid != 2 else "activeplayer"})


def bga_ori(letter: str, rotation: int) -> int:
    """The BGA ori of a project rotation."""
    return (rotation - T.ROTATION_OFFSET.get(TYPE_OF[letter], 0)) % 360 // 90 + 1


def bga_spot(letter: str, rotation: int, at: str) -> tuple[int, str]:
    """The BGA spot and partisan type of ``figure.at`` (a spot on the same segment)."""
    tile = T.tiles()[letter]
    locations = tile.rotations[rotation // 90].locations
    ori = bga_ori(letter, rotation)
    for pos in sorted(T.SPOTS[letter]):
        spot = T.spot_at(letter, pos, ori)
        assert spot is not None
        if locations[spot[0]] == locations[at]:
            return pos, TARGET_OF[spot[1]]
    raise ValueError(f"no BGA spot for {at} on {letter}")


class Builder:
    """The packets of one game, built as it is played."""

    def __init__(self, table: int, seats: list[tuple[str, str, str]]) -> None:
        self.table = table
        self.seats = seats  # (player id, name, hex colour) in turn order
        self.packets: list[dict[str, Any]] = []
        self.totals = {pid: 0 for pid, _, _ in seats}
        self.pools = {letter: list(range(first, last + 1))
                      for letter, first, last in T.TYPES.values()}
        self.pools["D"].remove(T.START_ID)
        self.cells: dict[tuple[int, int], int] = {(0, 0): T.START_ID}

    def packet(self, notes: list[dict[str, Any]], player: str | None = None) -> None:
        channel = f"/player/p{player}" if player else f"/table/t{self.table}"
        n = len(self.packets) + 1
        self.packets.append({"channel": channel, "table_id": str(self.table),
                             "packet_id": str(n), "packet_type": "resend", "move_id": str(n),
                             "time": str(1_700_000_000 + 60 * n), "data": notes})

    def name(self, pid: str) -> str:
        return next(n for p, n, _ in self.seats if p == pid)

    def scoring(self, event: dict[str, Any], final: bool) -> list[dict[str, Any]]:
        """realizationAchieved and the winPoints of one scoring event of the engine."""
        ids = [self.cells[(x, y)] for x, y in event["cells"]]
        points, feature = event["points"], event["feature"]
        winners = [self.seats[w][0] for w in event["winners"]]
        args: dict[str, Any] = {"i18n": ["real_type"], "real_type": feature, "winners":
                                [int(w) for w in winners], "partisans": []}
        if feature == "farm":
            args.update(real_type="草原", tile_to_value={str(ids[0]): points},
                        city_nbr=points // 3, points=points)
            text = "This fields is feeding ${city_nbr} cities and worth ${points} points"
        else:
            if feature == "city":
                pennant = [LETTER_OF_ID[i] in PENNANT_LETTERS for i in ids]
                values = [(1 if final else 2) * (2 if p else 1) for p in pennant]
            elif feature == "road":
                values = [1] * len(ids)
            else:
                values = []
            if sum(values) != points:
                values = [points] + [0] * (len(ids) - 1)
            args["real_type"] = "abbey" if feature == "cloister" else feature
            args["tile_to_value"] = {str(i): v for i, v in zip(ids, values, strict=True)}
            text = ("Counting unachieved ${real_type}" if final
                    else "${player_name} achieved a ${real_type}")
        notes = [note("realizationAchieved", args, text)]
        for pid in winners:
            self.totals[pid] += points
            win = {"player_name": self.name(pid), "player_id": int(pid), "points": points,
                   "score": str(self.totals[pid])}
            if feature == "farm":
                win["nbr"] = 1
            notes.append(note("winPoints", win, "${player_name} wins ${points} points"))
        return notes

    def turn(self, pid: str, letter: str) -> dict[str, Any]:
        tile_id = self.pools[letter][0]
        return state(2, pid, {"tile_type": str(TYPE_OF[letter]), "tile_id": str(tile_id)})


def build(table: int, seats: list[tuple[str, str, str]], moves: list[dict[str, Any]],
          finished: bool) -> dict[str, Any]:
    """The BGA log of a game of ``moves`` (table-log moves), with its result when finished."""
    log = {"format": "carcassonne-replay/log", "version": 1, "game": "base",
           "options": {"small_city": 4, "farm_scoring": "per-field"},
           "players": [{"name": n} for _, n, _ in seats], "moves": moves}
    if finished:
        log["end"] = "after-last-move"
    played = play_through(parse(log), keep_events=True, checkpoints=False)
    assert played.error is None, played.error
    b = Builder(table, seats)
    ids = [p for p, _, _ in seats]
    colours = ", ".join(f'<span style="color:#{c}">{n}</span>' for _, n, c in seats)
    b.packet([note("simpleNote", {"players": colours},
                   "Colors of ${players} have been chosen according to their preferences."),
              note("gameStateChange", {"name": "gameSetup", "active_player": 0, "args": None}),
              state(10, "0"), b.turn(ids[0], moves[0]["tile"])])
    seat = 0
    for k, (move, events) in enumerate(zip(moves, played.events, strict=True)):
        pid, letter = ids[seat], move["tile"]
        tile_id = b.pools[letter].pop(0)
        base = {"player_name": b.name(pid), "player_id": pid}
        if move.get("discard"):
            first = [note("cantPlay", {**base, "tile_id": str(tile_id),
                                       "type": str(TYPE_OF[letter])},
                          "${player_name} cannot play this tile: it is discarded")]
        else:
            b.cells[(move["x"], move["y"])] = tile_id
            ori = bga_ori(letter, move["rotation"])
            first = [note("playTile", {**base, "id": str(tile_id), "x": str(move["x"]),
                                       "y": str(move["y"]), "type": str(TYPE_OF[letter]),
                                       "ori": str(ori)}, "${player_name} plays a tile"),
                     state(3, pid)]
        b.packet(first)
        later = moves[k + 1:]
        mine = [m for j, m in enumerate(later) if (seat + 1 + j) % len(ids) == seat]
        if mine:
            nxt = mine[0]["tile"]
            b.packet([note("pickTile", {"id": str(b.pools[nxt][0]),
                                        "type": str(TYPE_OF[nxt])})], player=pid)
        notes: list[dict[str, Any]] = []
        if "figure" in move:
            pos, target = bga_spot(letter, move["rotation"], move["figure"]["at"])
            notes.append(note("playPartisan", {
                **base, "id": str(tile_id), "piece": "partisan", "ptype": "normal",
                "x": str(move["x"]), "y": str(move["y"]), "pos": str(pos), "ori": str(ori),
                "type": target, "target": target, "portal": 0},
                "${player_name} place un partisan sur ${target}"))
        notes += [note("deck_size", {"deck_size": str(70 - k)}), state(4, pid)]
        final_events = []
        for e in (ev.to_json() for ev in events):
            if e["type"] != "score":
                continue
            if e["phase"] == "final":
                final_events.append(e)
            else:
                notes += b.scoring(e, final=False)
        notes.append(state(5, pid))
        if not move.get("discard"):
            seat = (seat + 1) % len(ids)
        if later:
            notes += [state(10, pid), b.turn(ids[seat], later[0]["tile"]),
                      note("updateReflexionTime", {"player_id": ids[seat], "delta": 2592000})]
        elif not finished:  # the next turn starts, then the log stops
            notes += [state(10, pid), b.turn(ids[seat], "V")]
        else:
            notes.append(state(6, pid))
            notes += [n for e in final_events if e["feature"] != "farm"
                      for n in b.scoring(e, final=True)]
            notes.append(state(7, pid))
            notes += [n for e in final_events if e["feature"] == "farm"
                      for n in b.scoring(e, final=True)]
            top = max(b.totals.values())
            result = [{"name": n, "color": c, "score": str(b.totals[p]), "score_aux": "0",
                       "zombie": 0, "player": p, "tie": False, "concede": 0,
                       "rank": 1 + sum(v > b.totals[p] for v in b.totals.values())}
                      for p, n, c in seats]
            notes.append(state(99, pid, {"table": {"concede": False}, "result": result}))
            winners = [n for p, n, _ in seats if b.totals[p] == top]
            notes.append(note("simpleNode", {"player_name": winners[0]},
                              "End of game : ${player_name} wins!"))
        b.packet(notes)
    return {"status": 1, "data": {"valid": 1, "data": b.packets}}


def dumps(value: dict[str, Any]) -> str:
    """Readable: one packet header and one notification per line."""
    lines = ['{"status": 1, "data": {"valid": 1, "data": [']
    packets = value["data"]["data"]
    for i, p in enumerate(packets):
        head = {k: v for k, v in p.items() if k != "data"}
        lines.append("  " + json.dumps(head, ensure_ascii=False)[:-1] + ', "data": [')
        notes = [f"    {json.dumps(n, ensure_ascii=False)}" for n in p["data"]]
        lines.append(",\n".join(notes))
        lines.append("  ]}" + ("," if i < len(packets) - 1 else ""))
    lines.append("]}}")
    return "\n".join(lines) + "\n"


SEATS_2P = [("84000001", "Ada", "ff0000"), ("84000002", "Ben", "0000ff")]
FINISHED_2P = [  # hand-played; hand-scored Ada 4 + 4 + 5 + 1 = 14, Ben 5 + 3 = 8
    {"tile": "E", "x": 0, "y": -1, "rotation": 180, "figure": {"at": "S"}},
    {"tile": "U", "x": 1, "y": 0, "rotation": 0, "figure": {"at": "W"}},
    {"tile": "A", "x": 0, "y": 1, "rotation": 0, "figure": {"at": "cloister"}},
    {"tile": "C", "discard": True},
    {"tile": "V", "x": 2, "y": 0, "rotation": 0, "figure": {"at": "N"}},
    {"tile": "L", "x": -1, "y": 0, "rotation": 0, "figure": {"at": "N"}},
    {"tile": "W", "x": 2, "y": 1, "rotation": 90},
    {"tile": "B", "x": 1, "y": -1, "rotation": 0, "figure": {"at": "cloister"}},
]
SEATS_3P = [("91000003", "Cleo", "008000"), ("91000001", "Dan", "ffa500"),
            ("91000002", "Eva", "000000")]
UNFINISHED_3P = [  # hand-played: Eva's cloister closes Cleo's road (4 points); a city stays open
    {"tile": "U", "x": -1, "y": 0, "rotation": 180, "figure": {"at": "E"}},
    {"tile": "L", "x": 1, "y": 0, "rotation": 0, "figure": {"at": "N"}},
    {"tile": "A", "x": -2, "y": 0, "rotation": 270, "figure": {"at": "cloister"}},
    {"tile": "N", "x": 0, "y": -1, "rotation": 180, "figure": {"at": "S"}},
]


def fixtures() -> dict[str, dict[str, Any]]:
    """The fixture files by name."""
    return {"finished-2p.json": build(400000001, SEATS_2P, FINISHED_2P, finished=True),
            "unfinished-3p.json": build(400000002, SEATS_3P, UNFINISHED_3P, finished=False)}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, value in fixtures().items():
        (OUT / name).write_text(dumps(value), encoding="utf-8")


if __name__ == "__main__":
    main()
