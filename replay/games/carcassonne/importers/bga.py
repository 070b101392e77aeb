"""Board Game Arena (BGA) Carcassonne logs -> table logs (schema v1).

A BGA replay is the archived list of notifications of a table:
``{status, data: {valid, data: [packet…]}}``, each packet
``{packet_id, packet_type, channel, table_id, data: [notification…]}`` and each notification
``{type, log, args}`` (``docs/reference/import-formats.md`` §2). Read in order:

* ``gameStateChange`` id 2 starts a turn (first appearances of ``active_player`` give the
  seating order); 6 and 7 are the final scoring; 99 carries the result;
* ``playTile`` is a move, ``playPartisan`` its follower, ``cantPlay`` a discard;
* ``winPoints`` changes a running score (its ``score`` is checked against the sum);
* ``realizationAchieved`` announces a scoring (its values are checked against the points).

The game is the base game, 1st edition, with BGA's rules: ``small_city`` 4 and
``farm_scoring`` "per-field". Expansion content is refused. Each move but the last carries the
running ``scores``; the result becomes ``claims``. Where: ``packet P, notification N (move M)``,
N counting from 1 inside the packet and M the move it belongs to (a tile or discard starts one).

How a game ends (a decision, the reference leaves it open):

* result (state 99) after final scoring (state 6): claims ``final_scores`` and ``winners``; when
  the pile was not used up (a conceded game), ``end: "after-last-move"`` and a warning;
* result without final scoring, or no result at all: the game simply stopped; the log is left
  unfinished (no ``end``, no final claims), with a warning, and its last move keeps its scores
  when the turn was seen to end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from ....core.events import article
from ....core.importing import SHAPE_ERRORS, Imported, Importer, Problems, a_value, shape_error
from . import bga_tables as T
from . import uses_bga
from .bga_output import build_log

FORMAT = "Board Game Arena log"
IGNORED = {"pickTile", "updateReflexionTime", "simpleNote", "simpleNode", "deck_size"}
IGNORED_STATES = {1, 3, 4, 5, 10}
HANDLED = {"gameStateChange", "playTile", "playPartisan", "cantPlay", "winPoints",
           "realizationAchieved"}


def _is_int_text(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value.lstrip("-").isdigit() and len(value) < 19


@dataclass
class _Move:
    """A move being written, with what the checks need."""

    log: dict[str, Any]
    player: str
    where: str
    tile_id: int | None = None
    bga_type: int = 0
    ori: int = 1
    x: int = 0
    y: int = 0
    partisan: bool = False


@dataclass
class _Reader:
    """One import: the state of the walk through the notifications."""

    problems: Problems
    where: str = ""
    seats: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    moves: list[_Move] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    turn_open: bool = False  # a move was written and its turn not seen to end
    turn_tile: tuple[int | None, int | None] = (None, None)  # state 2's tile_type, tile_id
    active: str | None = None
    used_ids: dict[int, str] = field(default_factory=dict)
    final_scoring: bool = False
    result: list[dict[str, Any]] | None = None
    result_where: str = ""
    pending: list[tuple[set[str], int, str]] = field(default_factory=list)

    # -- helpers ---------------------------------------------------------------------------

    def refuse(self, code: str, message: str) -> Exception:
        return self.problems.refuse(code, message, self.where)

    def warn(self, code: str, message: str) -> None:
        self.problems.warn(code, message, self.where)

    def number(self, args: dict[str, Any], key: str, what: str) -> int:
        """``args[key]`` as an integer (BGA writes most numbers as strings)."""
        value = args.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if _is_int_text(value):
            return int(value)
        if value is None:
            raise self.refuse("truncated", f"{what}: no {key!r}")
        raise self.refuse("number", f"{what}: {key} is {a_value(value)}, not a whole number")

    def player_id(self, args: dict[str, Any], key: str, what: str) -> str:
        return str(self.number(args, key, what))

    def tile_of(self, bga_type: int | None, tile_id: int | None, what: str) -> tuple[int, str]:
        """(type, letter) of a tile named by type and/or id; refuses unknown or mismatched."""
        if bga_type is not None and bga_type not in T.TYPES:
            raise self.problems.unsupported(
                "tile-type", f"{what}: tile type {bga_type} is not a base-game type (1-24): "
                "expansion tiles cannot be imported", self.where,
                uses_bga(f"a tile of an expansion (tile type {bga_type})"))
        by_id = None
        if tile_id is not None:
            by_id = T.letter_of_id(tile_id)
            if by_id is None or tile_id == T.START_ID:
                raise self.refuse("tile-id", f"{what}: unknown BGA tile id {tile_id}"
                                  + (" (the start tile)" if tile_id == T.START_ID else ""))
            if bga_type is not None and by_id[0] != bga_type:
                raise self.refuse("tile-id", f"{what}: tile id {tile_id} is of type {by_id[0]} "
                                  f"({by_id[1]}), not of type {bga_type}")
        if by_id is not None:
            return by_id
        assert bga_type is not None
        return bga_type, T.TYPES[bga_type][0]

    def mark_used(self, tile_id: int, what: str) -> None:
        if tile_id in self.used_ids:
            raise self.refuse("tile-id", f"{what}: tile id {tile_id} was already used "
                              f"({self.used_ids[tile_id]})")
        self.used_ids[tile_id] = f"move {len(self.moves) + 1}"

    def seat(self, player: str) -> None:
        if player not in self.seats:
            self.seats.append(player)

    def close_turn(self) -> None:
        """The current totals become the last move's claimed scores."""
        self.settle()
        if self.turn_open and self.moves:
            self.moves[-1].log["scores"] = dict(self.scores)
        self.turn_open = False

    def settle(self) -> None:
        """Warn about announced scorings whose points never came."""
        for owed, points, where in self.pending:
            if owed:
                self.problems.warn("realization", f"a scoring of {points} points announced "
                                   f"for {', '.join(sorted(owed))} was never paid", where)
        self.pending = []

    def start_move(self, player: str, what: str) -> None:
        """Checks common to a tile and a discard: the player whose turn it is plays."""
        if self.final_scoring or self.result is not None:
            raise self.refuse("order", f"{what} after the final scoring")
        self.close_turn()
        self.seat(player)
        if self.active is not None and player != self.active:
            raise self.refuse("turn-order", f"{what}: player {player} plays during the turn "
                              f"of {self.active}; a log cannot carry that")

    # -- notifications ---------------------------------------------------------------------

    def state(self, args: dict[str, Any]) -> None:
        if args.get("id") is None and args.get("name") == "gameSetup":
            return
        sid = self.number(args, "id", "gameStateChange")
        if sid in IGNORED_STATES:
            return
        if sid == 2:
            self.close_turn()
            player = self.player_id(args, "active_player", "gameStateChange 2")
            self.seat(player)
            self.active = player
            inner = args.get("args") if isinstance(args.get("args"), dict) else {}
            assert isinstance(inner, dict)
            self.turn_tile = (
                self.number(inner, "tile_type", "state 2") if "tile_type" in inner else None,
                self.number(inner, "tile_id", "state 2") if "tile_id" in inner else None)
        elif sid == 6:
            self.close_turn()
            self.final_scoring = True
            self.turn_open = False
            if self.moves:
                self.moves[-1].log.pop("scores", None)
        elif sid == 7:
            self.settle()
        elif sid == 99:
            self.settle()
            if not self.final_scoring:
                self.close_turn()
            inner = args.get("args")
            result = inner.get("result") if isinstance(inner, dict) else None
            if not isinstance(result, list) or not all(isinstance(r, dict) for r in result):
                raise self.refuse("truncated", "gameStateChange 99 without a result list")
            self.result = result
            self.result_where = self.where
            table = inner.get("table") if isinstance(inner, dict) else None
            if isinstance(table, dict) and table.get("concede") not in (None, False, 0, "0"):
                self.warn("abandoned", "the game was conceded")
        else:
            self.warn("state", f"gameStateChange {sid} is not a state of the base game; "
                      "ignored")

    def play_tile(self, args: dict[str, Any]) -> None:
        player = self.player_id(args, "player_id", "playTile")
        self.start_move(player, "playTile")
        bga_type, letter = self.tile_of(self.number(args, "type", "playTile"),
                                        self.number(args, "id", "playTile"), "playTile")
        tile_id = self.number(args, "id", "playTile")
        if self.turn_tile[1] is not None and self.turn_tile[1] != tile_id:
            self.warn("turn-tile", f"playTile places tile id {tile_id}, but the turn was "
                      f"announced with tile id {self.turn_tile[1]}")
        ori = self.number(args, "ori", "playTile")
        if ori not in (1, 2, 3, 4):
            raise self.refuse("ori", f"playTile: ori {ori} is not 1, 2, 3 or 4")
        self.mark_used(tile_id, "playTile")
        x, y = self.number(args, "x", "playTile"), self.number(args, "y", "playTile")
        log = {"tile": letter, "x": x, "y": y, "rotation": T.rotation(bga_type, ori)}
        self.moves.append(_Move(log, player, self.where, tile_id, bga_type, ori, x, y))
        self.turn_open = True

    def cant_play(self, args: dict[str, Any]) -> None:
        player = (self.player_id(args, "player_id", "cantPlay") if "player_id" in args
                  else self.active)
        if player is None:
            raise self.refuse("turn-order", "cantPlay before any turn started")
        self.start_move(player, "cantPlay")
        key = next((k for k in ("tile_id", "id") if k in args), None)
        tile_id = self.number(args, key, "cantPlay") if key else None
        bga_type = self.number(args, "type", "cantPlay") if "type" in args else None
        if tile_id is None and bga_type is None:
            bga_type, tile_id = self.turn_tile
            if tile_id is None and bga_type is None:
                raise self.refuse("discard", "cantPlay names no tile (no tile_id, id or type) "
                                  "and the turn announced none")
            self.warn("discard", "cantPlay names no tile (no tile_id, id or type); the tile "
                      "announced at the start of the turn is taken")
        _, letter = self.tile_of(bga_type, tile_id, "cantPlay")
        if tile_id is not None:
            self.mark_used(tile_id, "cantPlay")
        self.moves.append(_Move({"tile": letter, "discard": True}, player, self.where, tile_id))
        self.turn_open = True

    def play_partisan(self, args: dict[str, Any]) -> None:
        if not self.moves or not self.turn_open or "discard" in self.moves[-1].log:
            raise self.refuse("partisan-tile", "playPartisan with no tile placed this turn")
        move = self.moves[-1]
        if move.partisan:
            raise self.refuse("partisan-twice", "a second playPartisan in one turn")
        tile_id = self.number(args, "id", "playPartisan")
        x = self.number(args, "x", "playPartisan") if "x" in args else move.x
        y = self.number(args, "y", "playPartisan") if "y" in args else move.y
        if (tile_id, x, y) != (move.tile_id, move.x, move.y):
            raise self.refuse("partisan-tile", f"playPartisan on tile id {tile_id} at ({x},{y}), "
                              f"not on the tile just placed (id {move.tile_id} at "
                              f"({move.x},{move.y}))")
        if "player_id" in args and self.player_id(args, "player_id", "playPartisan") != \
                move.player:
            raise self.refuse("partisan-player", "playPartisan by another player than the one "
                              "who placed the tile")
        ptype = args.get("ptype", "normal")
        if not isinstance(ptype, str):
            raise self.refuse("type", f"playPartisan: ptype is {a_value(ptype)}, not text")
        if ptype != "normal":
            raise self.problems.unsupported(
                "ptype", f"playPartisan: ptype {ptype[:40]!r} is not 'normal' (an expansion "
                "figure)", self.where, uses_bga(f"an expansion figure (ptype {ptype[:40]!r})"))
        if args.get("portal") not in (None, 0, "0", False, ""):
            raise self.problems.unsupported(
                "portal", "playPartisan through a magic portal (expansion)", self.where,
                uses_bga("a magic portal (Princess & Dragon)"))
        target = args.get("type")
        if target not in T.KIND_OF_TARGET:
            raise self.refuse("spot", f"playPartisan: type {target!r} is not city, road, "
                              "field or abbey")
        pos = self.number(args, "pos", "playPartisan")
        letter, rotation = move.log["tile"], move.log["rotation"]
        spot = T.spot_at(letter, pos, move.ori)
        name = f"tile type {move.bga_type} ({letter})"
        if spot is None:
            raise self.refuse("spot", f"playPartisan: {name} has no spot {pos}")
        at, kind = spot
        if T.KIND_OF_TARGET[target] != kind:
            raise self.refuse("spot", f"playPartisan: spot {pos} of {name} is "
                              f"{article(T.SEGMENT_OF_KIND[kind])}, not {article(target)}")
        if T.segment_type(letter, rotation, at) != T.SEGMENT_OF_KIND[kind]:
            raise self.refuse("spot", f"playPartisan: {at} of tile {letter} at rotation "
                              f"{rotation} is no {T.SEGMENT_OF_KIND[kind]}")
        move.log["figure"] = {"at": at}
        move.partisan = True

    def win_points(self, args: dict[str, Any]) -> None:
        player = self.player_id(args, "player_id", "winPoints")
        points = self.number(args, "points", "winPoints")
        if points < 0:
            self.warn("score", f"winPoints takes {-points} points from player {player}")
        total = self.scores.get(player, 0) + points
        self.scores[player] = total
        if "score" in args:
            score = self.number(args, "score", "winPoints")
            if score != total:
                self.warn("score", f"winPoints gives player {player} a total of {score}, but "
                          f"the points so far add up to {total}")
        for owed, value, _ in self.pending:
            if player in owed:
                owed.discard(player)
                if value != points:
                    self.warn("realization", f"player {player} wins {points} points for a "
                              f"scoring announced at {value}")
                break

    def realization(self, args: dict[str, Any]) -> None:
        """Cross-check: the winners of an announced scoring are each paid its value."""
        if "points" in args:
            value = self.number(args, "points", "realizationAchieved")
        else:
            values = args.get("tile_to_value")
            items = values.values() if isinstance(values, dict) else []
            if not all(isinstance(v, int) or _is_int_text(v) for v in items):
                self.warn("realization", "realizationAchieved with unreadable tile values")
                return
            value = sum(int(v) for v in items)
        winners = args.get("winners")
        owed = {self.player_id({"winner": w}, "winner", "realizationAchieved")
                for w in winners} if isinstance(winners, list) else set()
        self.pending.append((owed, value, self.where))


def _packets(value: Any) -> list[Any] | None:
    if not isinstance(value, dict) or "status" not in value or "format" in value:
        return None
    data = value.get("data")
    packets = data.get("data") if isinstance(data, dict) else None
    return packets if isinstance(packets, list) else None


class BgaImporter(Importer):
    """Board Game Arena Carcassonne replay logs (base game)."""

    name = "bga"
    label = FORMAT

    def sniff(self, value: Any) -> bool:
        """A ``{status, data: {data: [packet…]}}`` whose first packet has a ``packet_type``
        and a list of notifications."""
        packets = _packets(value)
        if not packets or not isinstance(packets[0], dict):
            return False
        return "packet_type" in packets[0] and isinstance(packets[0].get("data"), list)

    def read(self, value: Any) -> Imported:
        """Convert; raises ``ImportRefused`` for expansion content or a damaged file."""
        problems = Problems(FORMAT)
        packets = _packets(value)
        if packets is None:
            error = value.get("error") if isinstance(value, dict) else None
            said = f" (BGA says: {str(error)[:200]})" if error else ""
            raise problems.refuse("not-bga", "not a Board Game Arena log: expected "
                                  f"{{status, data: {{data: [packets]}}}}{said}")
        if isinstance(value.get("data"), dict) and value["data"].get("valid") in (0, "0", False):
            problems.warn("envelope", "BGA marks this replay as not valid")
        reader = _Reader(problems)
        table_id = walk(reader, packets)
        return Imported(FORMAT, build_log(reader, table_id), problems.items)


def walk(reader: _Reader, packets: list[Any]) -> str | None:
    """Read every notification of every packet in order; return the table id."""
    if not packets:
        raise reader.refuse("truncated", "the log holds no packets")
    last_id: int | None = None
    table_id: str | None = None
    handlers = {"playTile": reader.play_tile, "playPartisan": reader.play_partisan,
                "cantPlay": reader.cant_play, "winPoints": reader.win_points,
                "realizationAchieved": reader.realization, "gameStateChange": reader.state}
    for k, packet in enumerate(packets):
        reader.where = f"packet #{k + 1}"
        if not isinstance(packet, dict) or not isinstance(packet.get("data"), list):
            raise reader.refuse("truncated", "a packet without its list of notifications")
        pid = reader.number(packet, "packet_id", "packet")
        reader.where = f"packet {pid}"
        if last_id is not None and pid < last_id:
            raise reader.refuse("packet-order", f"packet {pid} comes after packet {last_id}: "
                                "packets out of order")
        if pid == last_id:
            reader.warn("packet-order", f"packet id {pid} appears twice")
        last_id = pid
        if table_id is None and packet.get("table_id") is not None:
            table_id = _table_id(reader, packet["table_id"])
        for n, note in enumerate(packet["data"], 1):
            reader.where = f"packet {pid}, notification {n}"
            if not isinstance(note, dict) or not isinstance(note.get("type"), str):
                raise reader.refuse("truncated", "a notification without a type")
            move = len(reader.moves) + (note["type"] in ("playTile", "cantPlay"))
            if move:
                reader.where += f" (move {move})"
            args = note.get("args")
            if args is None or args == []:
                args = {}
            if not isinstance(args, dict):
                raise reader.refuse("truncated", f"{note['type']}: args is not an object")
            kind = note["type"]
            _remember_name(reader, args)
            if kind in IGNORED:
                continue
            handler = handlers.get(kind)
            if handler is None:
                raise reader.refuse("notification", f"unknown notification {kind!r} "
                                    "(expansion content or another game): cannot import")
            try:
                handler(args)
            except SHAPE_ERRORS as exc:  # a value of another type than the format's
                raise reader.refuse("malformed", f"{kind}: {shape_error(exc)}") from None
    reader.where = "the end of the log"
    return table_id


def _table_id(reader: _Reader, value: Any) -> str:
    """A packet's ``table_id``: text or a whole number (BGA writes both), never coerced."""
    if isinstance(value, str) and value.strip():
        return value[:100]
    if type(value) is int and abs(value) < 10 ** 30:
        return str(value)
    raise reader.refuse("type", f"table_id is {a_value(value)}, not a table number")


def _remember_name(reader: _Reader, args: dict[str, Any]) -> None:
    """The first ``player_name`` a notification gives with a ``player_id``."""
    pid, name = args.get("player_id"), args.get("player_name")
    if name is not None and not isinstance(name, str):
        raise reader.refuse("type", f"player_name is {a_value(name)}, not text")
    if isinstance(name, str) and (_is_int_text(pid) or type(pid) is int):
        reader.names.setdefault(str(int(pid)), name)


BGA = BgaImporter()
