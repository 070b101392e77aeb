"""The log v1 written from a read BGA game (see ``bga``): players, moves, claims, end, meta."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....core.importing import a_value
from . import bga_tables as T

if TYPE_CHECKING:
    from .bga import _Reader

OPTIONS = {"small_city": 4, "farm_scoring": "per-field"}


def build_log(reader: _Reader, table_id: str | None) -> dict[str, Any]:
    """The table log of a game read to its end."""
    _finish(reader)
    ids = _seating(reader)
    names = _names(reader, ids)
    players: list[dict[str, Any]] = []
    colours = _colours(reader)
    for pid in ids:
        player: dict[str, Any] = {"name": names[pid]}
        if pid in colours:
            player["colour"] = colours[pid]
        players.append(player)
    moves = []
    for m in reader.moves:
        if "scores" in m.log:
            m.log["scores"] = {names[p]: m.log["scores"].get(p, 0) for p in ids}
        moves.append(m.log)
    log: dict[str, Any] = {
        "format": "carcassonne-replay/log", "version": 1, "game": "base", "expansions": [],
        "options": dict(OPTIONS), "players": players, "moves": moves,
    }
    _claims(reader, log, ids, names)
    meta: dict[str, Any] = {"source": "Board Game Arena"}
    if table_id is not None:
        meta["table_id"] = table_id
    meta["bga_player_ids"] = ",".join(ids)
    log["meta"] = meta
    return log


def _finish(reader: _Reader) -> None:
    """The end of the notifications: what the last turn and the end of the game left open."""
    reader.settle()
    if reader.turn_open and reader.result is None and not reader.final_scoring:
        reader.warn("unfinished-turn", f"the log ends inside the turn of move "
                    f"{len(reader.moves)}: its scores are not claimed")
    if reader.result is None:
        if reader.final_scoring:
            reader.warn("unfinished", "the log ends during the final scoring (no result): "
                        "imported as an unfinished game")
        elif reader.moves:
            reader.warn("unfinished", "no result (gameStateChange 99): the game stopped; "
                        "imported as an unfinished game")


def _seating(reader: _Reader) -> list[str]:
    """Turn order: first turns, then result players who never had one; checks the rotation."""
    ids = list(reader.seats)
    for row in reader.result or []:
        pid = reader.player_id(row, "player", "result")
        if pid not in ids:
            reader.warn("players", f"player {pid} of the result never had a turn; seated last")
            ids.append(pid)
    for pid in reader.scores:
        if pid not in ids:
            raise reader.refuse("players", f"winPoints for player {pid}, who neither plays "
                                "nor appears in the result")
    if not 2 <= len(ids) <= 5:
        raise reader.refuse("players", f"{len(ids)} player{'s' * (len(ids) != 1)} found: "
                            "a base game has 2 to 5")
    placed = 0
    for m in reader.moves:
        expected = ids[placed % len(ids)]
        if m.player != expected:
            reader.where = m.where
            raise reader.refuse("turn-order", f"player {m.player} plays where the turn order "
                                f"gives player {expected}; a log cannot carry a skipped turn")
        if "discard" not in m.log:
            placed += 1
    return ids


def _names(reader: _Reader, ids: list[str]) -> dict[str, str]:
    """Distinct names: the result's, else those the notifications give, else the player ids."""
    given = dict(reader.names)
    for k, row in enumerate(reader.result or []):
        _text(reader, row, "name", k)
        if isinstance(row.get("name"), str):
            given[str(reader.player_id(row, "player", "result"))] = row["name"]
    names: dict[str, str] = {}
    for pid in ids:
        name = given.get(pid, "").strip() or pid
        if len(name) > 64:
            reader.warn("name", f"the name of player {pid} is cut to 64 characters")
            name = name[:64]
        if name in names.values():
            reader.warn("name", f"two players are called {name!r}; player {pid} becomes "
                        f"{name[:50]} ({pid})")
            name = f"{name[:50]} ({pid})"
        names[pid] = name
    return names


def _colours(reader: _Reader) -> dict[str, str]:
    colours: dict[str, str] = {}
    for k, row in enumerate(reader.result or []):
        hexa = (_text(reader, row, "color", k) or "").lower().lstrip("#")
        if hexa in T.COLOURS:
            colours[reader.player_id(row, "player", "result")] = T.COLOURS[hexa]
    return colours


def _text(reader: _Reader, row: dict[str, Any], key: str, k: int) -> str | None:
    """``row[key]`` of the result's row ``k``: text or absent, never coerced."""
    value = row.get(key)
    if value is None or isinstance(value, str):
        return value
    raise reader.problems.refuse("type", f"{key} is {a_value(value)}, not text",
                                 f"{reader.result_where}, result[{k}].{key}")


def _claims(reader: _Reader, log: dict[str, Any], ids: list[str],
            names: dict[str, str]) -> None:
    """Final scores and winners from the result; ``end`` when the pile was not used up."""
    if reader.result is None:
        return
    reader.where = reader.result_where
    final: dict[str, int] = {}
    for row in reader.result:
        pid = reader.player_id(row, "player", "result")
        final[pid] = reader.number(row, "score", f"the result of player {pid}")
        summed = reader.scores.get(pid, 0)
        if final[pid] != summed:
            reader.warn("result", f"the result gives player {pid} {final[pid]} points, but "
                        f"winPoints add up to {summed}")
        for flag in ("zombie", "concede"):
            if row.get(flag) not in (None, False, 0, "0"):
                reader.warn("abandoned", f"player {pid} is marked {flag}: an abandoned game")
    missing = [pid for pid in ids if pid not in final]
    if missing:
        reader.warn("result", f"the result lists no score for player(s) {', '.join(missing)}; "
                    "no final claims")
        return
    if not reader.final_scoring:
        reader.warn("unfinished", "a result without final scoring (no gameStateChange 6): "
                    "imported as an unfinished game, the result is not claimed")
        return
    top = max(final.values())
    log["claims"] = {"final_scores": {names[p]: final[p] for p in ids},
                     "winners": [names[p] for p in ids if final[p] == top]}
    ranked = {str(r.get("player")) for r in reader.result if str(r.get("rank")) == "1"}
    if ranked and ranked != {p for p in ids if final[p] == top}:
        reader.warn("result", "the players ranked 1 are not the top scorers")
    tiles = len(reader.moves)
    if tiles < T.pile_size():
        reader.warn("ended-early", f"the game was scored after {tiles} of {T.pile_size()} "
                    "tiles: end after the last move")
        log["end"] = "after-last-move"
