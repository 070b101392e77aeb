"""JCloisterZone saved games (``.jcz``) -> table logs (import-formats.md §1, §3).

Three generations: 4.x (``initialSeed`` integer, ``slots``), 5.0-5.6 (``initialSeed`` string,
``players``) and 5.7+/Fan 6.x (``initialRandom`` double). The base game, Inns & Cathedrals and
Hills & Sheep are read; anything else is refused where it is used. Sheep tokens, which a save
does not store, are re-derived for 5.7+/6.x (``jcz_sheep``) and refused before.
"""

from __future__ import annotations

import re
from typing import Any

from ....core.events import article
from ....core.importing import SHAPE_ERRORS, Imported, Importer, Problems, a_value, shape_error
from . import jcz_replay, jcz_setup, uses_jcz
from .jcz_sheep import Flocks, Generator, is_random, jcz_bag
from .jcz_tiles import JczTile, MaskError, foreign_set, location_at, normalise_id, tile_map

KINDS = {"small": "follower", "big": "large-follower", "shepherd": "shepherd"}
ROTATIONS = {"R0": 0, "R90": 90, "R180": 180, "R270": 270}
END_MARKS = ("#END", ".")
ASSERTION = re.compile(r"^\s*(.+?)\s+has\s+(\d{1,9})\s+points?\s*\.?\s*$")


class JczImporter(Importer):
    """JCloisterZone ``.jcz`` saves, all three generations."""

    name = "jcz"
    label = "JCloisterZone save (.jcz)"

    def sniff(self, value: Any) -> bool:
        if not isinstance(value, dict) or "format" in value:
            return False
        if "status" in value and "data" in value:  # Board Game Arena
            return False
        return ("setup" in value and ("initialSeed" in value or "initialRandom" in value)
                and ("replay" in value or "slots" in value or "players" in value))

    def read(self, value: Any) -> Imported:
        return _Reader(value).run()


def _generation(value: dict[str, Any]) -> str:
    if "initialRandom" in value:
        return "5.7+"
    seed = value.get("initialSeed")
    if isinstance(seed, str) and "players" in value:
        return "5.0-5.6"
    if isinstance(seed, int) and not isinstance(seed, bool) and "slots" in value:
        return "4.x"
    return "unknown"


def _version(app: Any) -> tuple[int, int]:
    m = re.match(r"(\d+)\.(\d+)", app) if isinstance(app, str) else None
    return (0, 0) if m is None else (int(m.group(1)), int(m.group(2)))


class _Reader:
    """One import: the save, the problems, and the log as it is built."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.gen = _generation(value) if isinstance(value, dict) else "unknown"
        fmt = "JCloisterZone save" if self.gen == "unknown" else \
            f"JCloisterZone {self.gen}{'/6.x' if self.gen == '5.7+' else ''} save"
        self.problems = Problems(fmt)
        self.moves: list[dict[str, Any]] = []
        self.cells: dict[tuple[int, int], JczTile] = {}
        self.vine_off: set[tuple[int, int]] = set()
        self.hidden = 0  # tiles under hills, as the project counts them
        self.random_draws = 0  # random tile draws since a message last set r

    # ------------------------------------------------------------ the whole file

    def run(self) -> Imported:
        v, problems = self.value, self.problems
        if not isinstance(v, dict) or self.gen == "unknown":
            raise problems.refuse("alien", "not a JCloisterZone save (no initialSeed with slots "
                                  "or players, and no initialRandom)", "file")
        if "replay" not in v:
            raise problems.refuse("setup-only", "a saved setup, not a game (no replay)", "file")
        old = self.gen == "4.x"
        version = _version(v.get("appVersion"))
        if self.gen == "5.7+":
            if not is_random(v["initialRandom"]):
                raise problems.refuse("truncated", "initialRandom is not a number in [0,1)",
                                      "initialRandom")
            if version < (5, 7):
                problems.warn("version", f"appVersion {v.get('appVersion')!r} but the layout "
                              "of 5.7+", "appVersion")
        if not v.get("gameId"):
            problems.warn("no-game-id", "the save has no gameId", "gameId")
        self.setup = jcz_setup.header_4x(v, problems) if old else \
            jcz_setup.header_5x(v, problems)
        self.names = jcz_setup.players(v, old, self.setup, problems)
        header: dict[str, Any] = {
            "format": "carcassonne-replay/log", "version": 1, "game": "base",
            "expansions": self.setup.expansions, "options": self.setup.options,
            "players": [{"name": n} for n in self.names],
        }
        self.order, self.limit = self._draw_order(v, old)
        self.pos = 0  # next entry of the forced order
        self.rng = Generator(v["initialRandom"]) if self.gen == "5.7+" else None
        self.early_rng = version < (5, 9)
        self.flocks = Flocks(header) if "hills-sheep" in self.setup.expansions \
            and self.setup.shepherd and self.rng is not None else None
        msgs = jcz_replay.undo(jcz_replay.messages(v["replay"], problems), problems)
        turns, over = jcz_replay.turns(msgs, len(self.names), problems)
        for turn in turns:
            try:
                self._turn(turn)
            except SHAPE_ERRORS as exc:  # a value of another type than the format's
                raise problems.refuse("malformed", shape_error(exc), turn.where()) from None
        log = {**header, "moves": self.moves}
        finished = self._end(log, over, turns)
        self._claims(log, finished)
        log["meta"] = self._meta()
        return Imported(problems.format, log, problems.items)

    def _draw_order(self, v: dict[str, Any], old: bool) -> tuple[list[str] | None, int | None]:
        problems = self.problems
        if old:
            pack = (v.get("annotations") or {}).get("tilePack") or {}
            name = pack.get("className", "")
            if pack and not (isinstance(name, str) and name.endswith("ForcedDrawTilePack")):
                raise problems.refuse("tile-pack", f"tile pack {pack.get('className')!r} is "
                                      "not understood", "annotations.tilePack")
            params = pack.get("params") or {}
            order, limit = params.get("drawOrder"), params.get("drawLimit")
        else:
            ann = v.get("gameAnnotations") or {}
            order, limit = ann.get("drawOrder"), ann.get("endTurn")
        if order is not None and not (isinstance(order, list)
                                      and all(isinstance(t, str) for t in order)):
            raise problems.refuse("truncated", "the forced draw order is not a list of tile ids",
                                  "drawOrder")
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)):
            raise problems.refuse("truncated", "the draw limit is not an integer", "drawOrder")
        return order, limit

    # ------------------------------------------------------------ one turn

    def _tile(self, raw: Any, where: str) -> JczTile:
        if not isinstance(raw, str):
            raise self.problems.refuse("bad-message", "PLACE_TILE without a tileId", where)
        jid = normalise_id(raw, self.gen == "4.x")
        found = tile_map().get(jid)
        if found is None:
            other = foreign_set(jid)
            if other is not None:
                raise self.problems.unsupported("unsupported-tile", f"tile {raw} is a tile of "
                                                f"{other}, an expansion this service does not "
                                                "play", where,
                                                uses_jcz(other))
            raise self.problems.refuse("unknown-tile", f"unknown tile id {raw!r}", where)
        if found.expansion and found.expansion not in self.setup.expansions:
            raise self.problems.refuse("unsupported-tile", f"tile {raw} belongs to "
                                       f"{found.expansion}, which the save's setup does not "
                                       "play", where)
        return found

    def _forced(self, tile: JczTile, turn: jcz_replay.Turn) -> bool:
        """Consume the forced order up to the placed tile (emitting discards); True when the
        turn's tile came from the order (no randomness)."""
        order, problems = self.order, self.problems
        if order is None or self.pos >= len(order):
            return False
        skipped: list[JczTile] = []
        for k in range(self.pos, len(order)):
            entry = order[k]
            if entry in END_MARKS:
                raise problems.refuse("order", f"tile {tile.jcz_id} is placed after the end of "
                                      "the forced draw order", turn.where())
            got = self._tile(entry, f"drawOrder[{k}]")
            if got.jcz_id == tile.jcz_id:
                self.pos = k + 1
                for d in skipped:
                    self.moves.append({"tile": d.tile.id, "discard": True})
                    self._step(self.moves[-1])
                return True
            skipped.append(got)
        raise problems.refuse("draw-order", f"tile {tile.jcz_id} is not in the rest of the "
                              "forced draw order", turn.where())

    def _turn(self, turn: jcz_replay.Turn) -> None:
        problems, p = self.problems, (turn.number - 1) % len(self.names)
        pay, where = turn.place.payload, turn.where()
        tile = self._tile(pay.get("tileId"), where)
        rot, pos = pay.get("rotation"), pay.get("position")
        if rot not in ROTATIONS or not (isinstance(pos, list) and len(pos) == 2
                                        and all(type(c) is int for c in pos)):
            raise problems.refuse("bad-message", "PLACE_TILE without a rotation R0..R270 and "
                                  "a position [x, y]", where)
        forced = self._forced(tile, turn)
        if not forced and self.rng is not None:
            self.rng.next_int(1)  # the random tile draw
            self.random_draws += 1
        self._elements(tile, (pos[0], pos[1]), where)
        move: dict[str, Any] = {"tile": tile.tile.id, "x": pos[0], "y": pos[1],
                                "rotation": ROTATIONS[rot]}
        if turn.action is not None and turn.action.type == "DEPLOY_MEEPLE":
            move["figure"] = self._figure(turn, tile, move, p)
        self._sheep(turn, move)
        if turn.commit is not None:
            self._set_random(turn.commit)
        if tile.tile.hill and self._pile_left() > 1:
            self.hidden += 1
        self.moves.append(move)
        self._step(move)

    def _set_random(self, msg: jcz_replay.Message) -> None:
        r = msg.payload.get("random")
        if self.rng is None:
            return
        if not isinstance(r, int | float) or not is_random(r):
            raise self.problems.refuse("bad-message", f"{msg.type} without a random number",
                                       f"replay message {msg.index}")
        self.rng.set(r)
        self.random_draws = 0

    def _elements(self, tile: JczTile, cell: tuple[int, int], where: str) -> None:
        """Refuse a tile whose inn, cathedral or hill the source played as plain; a vineyard
        only matters next to a cloister."""
        off, t = self.setup.off, tile.tile
        used = {"hill"} if t.hill else set()
        used |= {k for s in t.segments for k in ("inn", "cathedral") if s.attr(k)}
        for element in sorted(used & off):
            raise self.problems.refuse("element-off", f"tile {tile.jcz_id} has {article(element)}, "
                                       "which the source plays switched off", where)
        if t.vineyard and "vineyard" in off:
            self.vine_off.add(cell)
        near = [(cell[0] + dx, cell[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        cloister = t.has_cloister() and any(c in self.vine_off for c in near)
        vine = cell in self.vine_off and any(
            c in self.cells and self.cells[c].tile.has_cloister() for c in near)
        if cloister or vine:
            raise self.problems.refuse("element-off", "a cloister next to a vineyard, which "
                                       "the source plays switched off", where)
        self.cells[cell] = tile

    def _figure(self, turn: jcz_replay.Turn, tile: JczTile, move: dict[str, Any],
                p: int) -> dict[str, Any]:
        problems = self.problems
        assert turn.action is not None
        pay, where = turn.action.payload, turn.where(turn.action)
        meeple = pay.get("meepleId")
        if not isinstance(meeple, str):
            raise problems.refuse("type", f"the meepleId is {a_value(meeple)}, not text",
                                  where)
        parts = meeple.split(".")
        if len(parts) != 3 or not parts[0].isdigit() or len(parts[0]) > 3:
            raise problems.refuse("bad-message", f"meepleId {pay.get('meepleId')!r} is not "
                                  "<player>.<kind>.<n>", where)
        kind = KINDS.get(parts[1])
        if kind is None:
            raise problems.unsupported("unsupported-figure", f"figure {parts[1]!r} is not "
                                       "supported (only small, big and shepherd)", where,
                                       uses_jcz(f"the figure {parts[1]!r} of an expansion"))
        if int(parts[0]) != p:
            raise problems.refuse("other-meeple", f"meeple {pay['meepleId']} of player "
                                  f"{parts[0]} deployed in {self.names[p]}'s turn", where)
        if kind == "large-follower" and not self.setup.big_follower:
            raise problems.refuse("unsupported-figure", "a big follower, which the setup does "
                                  "not play", where)
        if kind == "shepherd":
            if self.rng is None:
                raise problems.refuse("shepherd-old", f"a shepherd in a {self.gen} save: its "
                                      "sheep tokens cannot be re-derived before 5.7", where)
            if not self.setup.shepherd:
                raise problems.refuse("unsupported-figure", "a shepherd, which the setup does "
                                      "not play", where)
        ptr = pay.get("pointer")
        if not isinstance(ptr, dict) or ptr.get("position") != [move["x"], move["y"]]:
            raise problems.refuse("bad-pointer", "the meeple is not put on the tile just "
                                  "placed", where)
        feature, location = ptr.get("feature"), ptr.get("location", "")
        for key, given in (("feature", feature), ("location", location)):
            if given is not None and not isinstance(given, str):
                raise problems.refuse("type", f"the pointer's {key} is {a_value(given)}, not "
                                      "text", where)
        try:
            at = location_at(tile.tile, move["rotation"], location or "", feature)
        except MaskError as exc:
            raise problems.refuse("bad-mask", str(exc), where) from None
        return {"at": at} if kind == "follower" else {"kind": kind, "at": at}

    # ------------------------------------------------------------ sheep (5.7+/6.x)

    def _sheep(self, turn: jcz_replay.Turn, move: dict[str, Any]) -> None:
        problems, rng = self.problems, self.rng
        for msg in turn.flocks:
            if rng is None or self.flocks is None:
                raise problems.refuse("shepherd-old", f"{msg.type} in a {self.gen} save without "
                                      "shepherds that can be derived", turn.where(msg))
        if self.flocks is None or rng is None:
            return
        new = move.get("figure", {}).get("kind") == "shepherd"
        if not new and not turn.flocks and not self._has_shepherd(turn):
            return
        if self.flocks.state is None:
            raise problems.refuse("sheep", "sheep tokens cannot be derived after a move the "
                                  f"rules refuse ({self.flocks.failure})", turn.where())
        tokens: list[Any] = []
        if new:
            if turn.confirm is not None:
                self._set_random(turn.confirm)
            elif self.early_rng and self.random_draws:
                problems.warn("token-rule", "a 5.7/5.8 game drew this turn's tile at random: "
                              "the token follows the stepping generator of 5.9+, which "
                              "the players may not have seen", turn.where(turn.action))
            bag = jcz_bag(self.flocks.on_board())
            tokens.append(bag[rng.next_int(len(bag))])
        locations = self.flocks.flock_locations(move)
        if len(locations) != len(turn.flocks):
            raise problems.refuse("flock", f"the tile extends {len(locations)} field(s) of the "
                                  f"player's shepherd but the save has {len(turn.flocks)} "
                                  "FLOCK_EXPAND_OR_SCORE", turn.where())
        flock = []
        for at, msg in zip(locations, turn.flocks, strict=True):
            value = msg.payload.get("value")
            if value not in ("EXPAND", "SCORE"):
                raise problems.refuse("bad-message", f"flock value {value!r} is not EXPAND or "
                                      "SCORE", turn.where(msg))
            flock.append({"at": at, "action": "expand" if value == "EXPAND" else "herd"})
        if flock:
            move["flock"] = flock
        for msg, choice in zip(turn.flocks, flock, strict=True):
            self._set_random(msg)
            if choice["action"] != "expand":
                continue
            board = self.flocks.on_board()
            jcz = board - self.flocks.freed_first(move)
            jcz.update(t for t in tokens if t != "wolf")
            bag = jcz_bag(jcz)
            token = bag[rng.next_int(len(bag))]
            if token not in jcz_bag(board):
                raise problems.refuse("sheep-order", f"JCZ draws {token} with tokens it has "
                                      "just herded back; this service draws before herding",
                                      turn.where(msg))
            tokens.append(token)
        if tokens:
            move["tokens"] = tokens

    def _has_shepherd(self, turn: jcz_replay.Turn) -> bool:
        state = self.flocks.state if self.flocks is not None else None
        if state is None:
            return False
        p = (turn.number - 1) % len(self.names)
        return state.supply[p].get("shepherd", 1) == 0

    def _step(self, move: dict[str, Any]) -> None:
        failure = self.flocks.step(move) if self.flocks is not None else None
        if failure is not None:
            self.problems.warn("illegal", f"the rules refuse this move: {failure}",
                               f"move {len(self.moves) - 1}")

    # ------------------------------------------------------------ end, claims, meta

    def _pile_left(self) -> int:
        total = sum(t.tile.count for t in tile_map().values()
                    if t.expansion == "" or t.expansion in self.setup.expansions) - 1
        return total - len(self.moves) - self.hidden

    def _end(self, log: dict[str, Any], over: bool, turns: list[jcz_replay.Turn]) -> bool:
        order = self.order or []
        rest = order[self.pos:]
        marked = bool(rest) and rest[0] in END_MARKS
        limited = self.limit is not None and len(self.moves) >= self.limit
        if self.pos < len(order) and not marked and not limited and over:
            self.problems.warn("game-over", "GAME_OVER before the forced draw order ran out",
                               "replay")
        natural = self._pile_left() <= 0
        if (over or marked or limited) and not natural:
            log["end"] = "after-last-move"
            return True
        if not natural and self.order is None and self.gen != "4.x":
            self.problems.warn("unfinished", "a 5.x/6.x save without a forced draw order "
                               "does not say whether the game ended: the log is unfinished",
                               "replay")
        return natural

    def _claims(self, log: dict[str, Any], finished: bool) -> None:
        test = self.value.get("test")
        if not isinstance(test, dict):
            return
        scores: dict[str, int] = {}
        assertions = test.get("assertions") or []
        if not isinstance(assertions, list):
            raise self.problems.refuse("type", f"the assertions are {a_value(assertions)}, "
                                       "not a list", "test.assertions")
        for k, text in enumerate(assertions):
            if not isinstance(text, str):
                raise self.problems.refuse("type", f"the assertion is {a_value(text)}, not "
                                           "text", f"test.assertions[{k}]")
            m = ASSERTION.match(text)
            if m is None or m.group(1) not in self.names:
                self.problems.warn("assertion", f"assertion {text!r} has no log counterpart",
                                   f"test.assertions[{k}]")
                continue
            scores[m.group(1)] = int(m.group(2))
        if not scores:
            return
        if finished:
            log["claims"] = {"final_scores": scores}
        elif self.moves:
            self.moves[-1]["scores"] = scores
        else:
            self.problems.warn("assertion", "scores asserted before any move", "test")

    def _meta(self) -> dict[str, Any]:
        v = self.value
        meta: dict[str, Any] = {"source": "JCloisterZone", "source_format": self.problems.format}
        for key in ("appVersion", "gameId", "name", "created"):
            value = v.get(key)
            if value is not None and not isinstance(value, str):
                raise self.problems.refuse("type", f"{key} is {a_value(value)}, not text", key)
            if value is not None:
                meta[key] = value[:1000]
        return meta


JCZ = JczImporter()
