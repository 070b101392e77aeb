"""Reading game logs: bytes -> JSON -> schema check -> ``ParsedLog`` (L1).

Every failure is a ``LogFormatError`` with the JSON pointer of the offending value, or an
``IllegalMove`` (move ``None``) when the header is well formed but breaks a rule (B1: too many
players for the chosen game).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .errors import IllegalMove, LogFormatError, TileSetError
from .game import FigureChoice, FlockChoice, GameConfig, Move, Options, Player, supply_for
from .schemas import validator
from .tileset import TileSet, builtin_tileset, combine

MAX_BYTES = 5 * 1024 * 1024
COLOURS = ("red", "blue", "green", "yellow", "black", "grey")
GAME_TILESETS = {"base": "base-1e", "hunters-gatherers": "hunters-gatherers"}
MAX_PLAYERS = {"base": 5, "hunters-gatherers": 5}
EXPANSION_ORDER = ("inns-cathedrals", "hills-sheep")


@dataclass(frozen=True, slots=True)
class ParsedLog:
    config: GameConfig
    moves: tuple[Move, ...]
    move_claims: dict[int, dict[str, int]] = field(default_factory=dict)
    final_claims: dict[str, int] | None = None
    winner_claims: tuple[str, ...] | None = None
    raw: Any = None
    end_after_last_move: bool = False


def decode(data: bytes | str, max_bytes: int = MAX_BYTES) -> Any:
    """Bytes to a JSON value, with size and syntax errors said plainly."""
    size = len(data.encode() if isinstance(data, str) else data)
    if size > max_bytes:
        raise LogFormatError(f"the log is {size} bytes; the limit is {max_bytes} bytes")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise LogFormatError(f"invalid JSON at line {exc.lineno} column {exc.colno}: "
                             f"{exc.msg}") from None
    except RecursionError:
        raise LogFormatError("invalid JSON: nested too deeply") from None
    except ValueError as exc:
        raise LogFormatError(f"invalid JSON: {exc}") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_file(path: str | Path, max_bytes: int = MAX_BYTES) -> Any:
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > max_bytes:
            raise LogFormatError(f"the log is {size} bytes; the limit is {max_bytes} bytes")
        with p.open("rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise LogFormatError(f"cannot read file: {exc.strerror or exc}") from None
    return decode(data, max_bytes)


def pointer(parts: Any) -> str:
    if not parts:
        return ""
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


_MOVE_KEYS = frozenset({"tile", "discard", "x", "y", "rotation", "figure", "scores", "flock",
                        "tokens", "hidden", "bonus"})
_BONUS_KEYS = frozenset({"tile", "discard", "x", "y", "rotation", "figure"})
_FIGURE_KINDS = frozenset({"follower", "large-follower", "shepherd", "hut"})


def _plain_int(v: Any, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


def _short(v: Any) -> bool:
    return type(v) is str and 1 <= len(v) <= 32


def move_surely_valid(m: Any) -> bool:
    """A fast check that accepts only moves the schema accepts (never the other way round).

    Most moves of real logs pass it, so the full JSON Schema validation runs on the header
    only; anything unusual falls back to the schema, which then gives the exact error.
    ``tests/test_properties.py`` checks this function against the schema.
    """
    if type(m) is not dict or not _MOVE_KEYS.issuperset(m):
        return False
    if "discard" in m:
        return False
    if "flock" in m:
        flock = m["flock"]
        if type(flock) is not list or len(flock) > 4:
            return False
        for c in flock:
            if (type(c) is not dict or c.keys() != {"at", "action"} or _short(c["at"]) is False
                    or c["action"] not in ("expand", "herd") or type(c["action"]) is not str):
                return False
    if "tokens" in m:
        tokens = m["tokens"]
        if type(tokens) is not list or len(tokens) > 4:
            return False
        if not all(_plain_int(t, 1, 4) or (type(t) is str and t == "wolf") for t in tokens):
            return False
    if "hidden" in m and not _short(m["hidden"]):
        return False
    if "scores" in m:
        scores = m["scores"]
        if type(scores) is not dict or len(scores) > 6:
            return False
        if not all(_plain_int(v, 0, 100000) for v in scores.values()):
            return False
    if "bonus" in m:
        bonus = m["bonus"]
        if type(bonus) is not dict or not _BONUS_KEYS.issuperset(bonus) or "discard" in bonus:
            return False
        if not _placement_surely_valid(bonus):
            return False
    return _placement_surely_valid(m)


def _placement_surely_valid(m: dict[str, Any]) -> bool:
    if not (_plain_int(m.get("x"), -1000, 1000) and _plain_int(m.get("y"), -1000, 1000)):
        return False
    if m.get("rotation") not in (0, 90, 180, 270) or type(m["rotation"]) is not int:
        return False
    if "tile" in m and not _short(m["tile"]):
        return False
    if "figure" in m:
        fig = m["figure"]
        if type(fig) is not dict or not {"kind", "at"}.issuperset(fig) or not _short(fig.get("at")):
            return False
        if "kind" in fig and (type(fig["kind"]) is not str or fig["kind"] not in _FIGURE_KINDS):
            return False
    return True


def schema_check(data: Any) -> None:
    """Raise the first schema error, in document order, with its JSON pointer."""
    if (type(data) is dict and type(data.get("moves")) is list
            and all(move_surely_valid(m) for m in data["moves"])):
        if len(data["moves"]) > 1000:
            raise LogFormatError("more than 1000 moves", "/moves")
        errors = list(validator("log").iter_errors({**data, "moves": []}))
    else:
        errors = list(validator("log").iter_errors(data))
    if not errors:
        return
    errors.sort(key=lambda e: ([str(p) for p in e.absolute_path], -len(e.absolute_path)))
    best = errors[0]
    # descend into the most specific error of a oneOf/anyOf/if-then
    while best.context:
        best = sorted(best.context, key=lambda e: -len(e.absolute_path))[0]
    raise LogFormatError(_message(best), pointer(best.absolute_path))


def _message(err: Any) -> str:
    msg = str(err.message)
    if len(msg) > 200:
        msg = msg[:200] + "..."
    return msg


def tileset_for(game: str, expansions: list[str], custom: TileSet | None = None) -> TileSet:
    # the pile depends on the tile order, so expansions join in one fixed order (G2)
    expansions = sorted(expansions, key=EXPANSION_ORDER.index)
    try:
        if custom is None:
            return _builtin_combination(GAME_TILESETS[game], tuple(expansions))
        return combine([custom] + [builtin_tileset(x) for x in expansions])
    except TileSetError as exc:
        raise LogFormatError(str(exc), "/game") from None


@cache
def _builtin_combination(main: str, expansions: tuple[str, ...]) -> TileSet:
    return combine([builtin_tileset(main)] + [builtin_tileset(x) for x in expansions])


def parse(data: Any, custom_tileset: TileSet | None = None) -> ParsedLog:
    """A decoded JSON value to a ``ParsedLog``; raises ``LogFormatError``/``IllegalMove``."""
    schema_check(data)
    game = data["game"]
    expansions = list(data.get("expansions", []))
    if game == "hunters-gatherers" and expansions:
        raise LogFormatError("Hunters & Gatherers takes no expansions", "/expansions")
    names = [p["name"] for p in data["players"]]
    for i, name in enumerate(names):
        if names.index(name) != i:
            raise LogFormatError(f"two players are called {name!r}", f"/players/{i}/name")
    colours: list[str] = []
    for i, p in enumerate(data["players"]):
        colour = p.get("colour") or next(c for c in COLOURS if c not in colours
                                          and c not in [q.get("colour") for q in data["players"]])
        if colour in colours:
            raise LogFormatError(f"two players use colour {colour}", f"/players/{i}/colour")
        colours.append(colour)
    limit = MAX_PLAYERS[game] + (1 if "inns-cathedrals" in expansions else 0)
    if len(names) > limit:
        hint = ""
        if game == "base" and "inns-cathedrals" not in expansions and len(names) == 6:
            hint = " (a 6th player needs Inns & Cathedrals, IC1)"
        raise IllegalMove("B1" if game == "base" else "HG1",
                          f"{len(names)} players; this game takes 2 to {limit}{hint}")
    opts = data.get("options", {})
    options = Options(small_city=opts.get("small_city", 2),
                      farm_scoring=opts.get("farm_scoring", "per-city"),
                      hill_tiebreak=opts.get("hill_tiebreak", "presence"),
                      return_timing=opts.get("return_timing", "end-of-turn"))
    tileset = tileset_for(game, expansions, custom_tileset)
    recorded = data.get("tileset")
    if recorded is not None and recorded["sha256"] != tileset.digest:
        raise LogFormatError(
            f"the log was recorded with tile set {recorded['id']} (sha256 "
            f"{recorded['sha256'][:12]}...), but this replay uses {tileset.id} "
            f"(sha256 {tileset.digest[:12]}...)", "/tileset/sha256")
    seed = data.get("seed")
    supply = supply_for(game, expansions)
    config = GameConfig(
        game=game, expansions=tuple(expansions),
        players=tuple(Player(n, c) for n, c in zip(names, colours, strict=True)),
        options=options, tileset=tileset, seed=None if seed is None else str(seed),
        supply=supply,
    )
    moves: list[Move] = []
    move_claims: dict[int, dict[str, int]] = {}
    for i, m in enumerate(data["moves"]):
        moves.append(_move(m))
        if "scores" in m:
            _check_names(m["scores"], names, f"/moves/{i}/scores")
            move_claims[i] = dict(m["scores"])
    claims = data.get("claims", {})
    final = claims.get("final_scores")
    if final is not None:
        _check_names(final, names, "/claims/final_scores")
    winners = claims.get("winners")
    if winners is not None:
        for k, w in enumerate(winners):
            if w not in names:
                raise LogFormatError(f"{w!r} is not a player", f"/claims/winners/{k}")
    return ParsedLog(config, tuple(moves), move_claims, final,
                     None if winners is None else tuple(winners), data,
                     data.get("end") == "after-last-move")


def _move(m: dict[str, Any]) -> Move:
    fig = m.get("figure")
    bonus = m.get("bonus")
    return Move(
        x=m.get("x", 0), y=m.get("y", 0), rotation=m.get("rotation", 0), tile=m.get("tile"),
        figure=None if fig is None else FigureChoice(fig.get("kind", "follower"), fig["at"]),
        discard=bool(m.get("discard")),
        flock=tuple(FlockChoice(c["at"], c["action"]) for c in m.get("flock", ())),
        tokens=tuple(0 if t == "wolf" else t for t in m.get("tokens", ())),
        hidden=m.get("hidden"),
        bonus=None if bonus is None else _move(bonus),
    )


def _check_names(scores: dict[str, int], names: list[str], path: str) -> None:
    for name in scores:
        if name not in names:
            raise LogFormatError(f"{name!r} is not a player", f"{path}/{pointer([name])[1:]}")
