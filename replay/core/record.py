"""Reading game logs (L1): a source -> JSON -> schema check -> ``GameRecord``.

``read_game`` takes what a user has at hand (a path, an open file, bytes, text or a decoded
JSON value). Every failure is a ``LogFormatError`` with the JSON pointer of the offending value,
or an ``IllegalMove`` (move ``None``) when the header is well formed but breaks a rule (too many
players for the chosen game). The envelope (format, version, players, seed, moves, claims, end,
meta) is the same for every game; the family reads its own header fields and moves.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cached_property
from itertools import islice
from typing import IO, TYPE_CHECKING, Any

from . import header_check
from .errors import LogFormatError
from .family import Family, GameConfig, Player, family, not_installed
from .json_input import (
    MAX_BYTES,
    MAX_MOVES,
    check_bounds,
    check_strings,
    decode,
    pointer,
    read_bounded,
)
from .schema_words import schema_message
from .values import replace, value_type

if TYPE_CHECKING:
    from .playback import Playback


class GameRecord:
    """A log, read and checked: the game's configuration, its moves and what it claims."""

    family: Family
    config: GameConfig
    moves: tuple[Any, ...]
    move_claims: dict[int, dict[str, int]]
    final_claims: dict[str, int] | None
    winner_claims: tuple[str, ...] | None
    raw: Any
    end_after_last_move: bool
    imported: Any  # the ``replay.core.importing.Imported`` this log was converted from

    def __init__(self, family: Family, config: GameConfig, moves: tuple[Any, ...],
                 move_claims: dict[int, dict[str, int]] | None = None,
                 final_claims: dict[str, int] | None = None,
                 winner_claims: tuple[str, ...] | None = None, raw: Any = None,
                 end_after_last_move: bool = False, imported: Any = None) -> None:
        self.family = family
        self.config = config
        self.moves = moves
        self.move_claims = {} if move_claims is None else move_claims
        self.final_claims = final_claims
        self.winner_claims = winner_claims
        self.raw = raw
        self.end_after_last_move = end_after_last_move
        self.imported = imported

    @property
    def players(self) -> tuple[Player, ...]:
        return self.config.players

    def new_state(self) -> Any:
        """The position before the first move."""
        return self.family.new_state(self.config)

    @cached_property
    def playback(self) -> Playback:
        """The whole log replayed once (kept): events, hashes and scores of every move."""
        from .playback import play_through
        return play_through(self)


# no slots: ``playback`` is cached in the object's ``__dict__``
value_type(GameRecord, "family config moves move_claims final_claims winner_claims raw "
           "end_after_last_move imported")


def read_file(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> Any:
    """The decoded JSON of a log file (``LogFormatError`` naming the path when unreadable)."""
    return decode(read_bounded(path, max_bytes), max_bytes)


Source = str | os.PathLike[str] | bytes | bytearray | IO[bytes] | IO[str] | Mapping[str, Any]


def load(source: Source, max_bytes: int = MAX_BYTES) -> Any:
    """The decoded JSON of a log given as a path, an open file, bytes, or a decoded value.

    A ``str`` is a path unless it starts with ``{`` (then it is the log's text)."""
    if isinstance(source, Mapping):
        check_strings(source)
        return source
    if isinstance(source, bytes | bytearray):
        return decode(bytes(source), max_bytes)
    if isinstance(source, str):
        if source.lstrip().startswith("{"):
            return decode(source, max_bytes)
        return read_file(source, max_bytes)
    if isinstance(source, os.PathLike):
        return read_file(source, max_bytes)
    if hasattr(source, "read"):
        data = source.read(max_bytes + 1)
        return decode(data, max_bytes)
    raise TypeError(f"cannot read a game from {type(source).__name__}: give a path, a file, "
                    "bytes, text or a decoded JSON object")


def schema_check(data: Any, moves_checked: bool = False) -> None:
    """Raise the first schema error, in document order, with its JSON pointer.

    The structural limits (``json_input.check_bounds``) come first, so no schema keyword ever
    sees a large value. Then the header is validated with its family's JSON Schema
    (``schemas.family_schema``: the envelope and the family's part) unless ``header_check`` is
    sure it is valid, and each move the family's fast check (``Family.move_surely_valid``)
    does not accept on its own: that is most of the cost saved on real logs. A log of no
    installed family is checked against the envelope alone, and refused at ``/game``. At most
    a handful of errors are collected: those of the header and of the first move that has
    any. ``moves_checked``: the moves were read by the family's fast reader
    (``Family.read_moves``), which accepts only valid ones."""
    if type(data) is not dict:
        check_bounds(data)
        _raise_first(list(islice(_checker(None).iter_errors(data), MAX_ERRORS)), None, data)
        return
    moves = data.get("moves")
    for key, value in data.items():
        if key != "moves" or type(value) is not list:
            check_bounds(value, (key,), key == "meta")
    found = _family_of(data)
    errors: list[Any] = []
    if found is None and type(data.get("game")) is str:  # no such family is installed
        errors.append(_Plain(not_installed(data["game"]), ("game",)))
    if type(moves) is not list:
        _raise_first(errors + list(islice(_checker(found).iter_errors(data), MAX_ERRORS)), found,
                     data)
        return
    if len(moves) > MAX_MOVES:
        raise LogFormatError(f"{len(moves)} moves; at most {MAX_MOVES} are read", "/moves")
    if found is None or not header_check.surely_valid(data, found):
        errors += islice(_checker(found).iter_errors({**data, "moves": []}), MAX_ERRORS)
    if found is not None and not moves_checked:
        errors += _move_errors(found, moves)
    _raise_first(errors, found, data)


def _checker(found: Family | None) -> Any:
    """The validator of a log of ``found``, or of the envelope alone (no family), built on
    first use: a log the fast checks accept never needs one (nor ``schemas``)."""
    from . import schemas

    return schemas.envelope_validator() if found is None else schemas.header_validator(found)


def _move_errors(found: Family, moves: list[Any], first: int = 0) -> list[Any]:
    """The schema errors of the first move with any (that the fast check does not accept);
    ``moves`` are the log's from its move ``first`` on."""
    surely_valid = found.move_surely_valid
    for i, move in enumerate(moves, first):
        if not surely_valid(move):
            check_bounds(move, ("moves", i))
            from .schemas import move_validator

            wrong = list(islice(move_validator(found).iter_errors(move), MAX_ERRORS))
            if wrong:
                return [_Located(e, ("moves", i)) for e in wrong]
    return []


MAX_ERRORS = 8  # schema errors collected per part (the header, a move) before choosing one


class _Located:
    """A schema error of a move, with its path in the whole log."""

    def __init__(self, error: Any, parts: tuple[Any, ...]) -> None:
        self.error = error
        self.absolute_path = (*parts, *error.absolute_path)
        self.context = [_Located(c, parts) for c in error.context or ()]
        self.message = error.message
        self.validator = error.validator
        self.validator_value = error.validator_value
        self.instance = error.instance
        self.schema = error.schema
        self.relative_schema_path = error.relative_schema_path


class _Plain:
    """An error of ours among the schema's (the game no family plays), at ``parts``."""

    def __init__(self, message: str, parts: tuple[Any, ...]) -> None:
        self.absolute_path = parts
        self.context: list[Any] = []
        self.message = message


def _raise_first(errors: list[Any], found: Family | None, data: Any) -> None:
    """Raise the first of ``errors`` (in path order), told in the words of the game ``found``
    of the log ``data`` (None: a log of no installed family)."""
    if not errors:
        return
    errors.sort(key=lambda e: ([str(p) for p in e.absolute_path], -len(e.absolute_path)))
    best = errors[0]
    # descend into the most specific error of a oneOf/anyOf/if-then
    while best.context:
        best = sorted(best.context, key=lambda e: -len(e.absolute_path))[0]
    raise LogFormatError(_message(best, found, data), pointer(best.absolute_path))


def _read_moves(data: Any) -> list[Any] | None:
    """The moves of a log read by its family's fast reader, or None (not sure they are
    valid: the schema and ``decode_move`` take them one by one)."""
    if type(data) is not dict:
        return None
    moves = data.get("moves")
    if type(moves) is not list or len(moves) > MAX_MOVES:
        return None
    found = _family_of(data)
    return None if found is None else found.read_moves(moves)


def _family_of(data: Any) -> Family | None:
    if type(data) is not dict or type(data.get("game")) is not str:
        return None
    try:
        return family(data["game"])
    except LogFormatError:
        return None


def _message(err: Any, found: Family | None, data: Any) -> str:
    """The words of a schema error (``schema_words``, in the game's terms), or of one of ours
    (``_Plain``)."""
    if isinstance(err, _Plain):
        msg = str(err.message)
    else:
        named = data.get("expansions") if type(data) is dict else None
        expansions = [x for x in named if type(x) is str] if type(named) is list else []
        msg = schema_message(err, game=found, expansions=expansions)
    if len(msg) > 200:
        msg = msg[:200] + "..."
    return msg


def parse(data: Any, material: Any = None) -> GameRecord:
    """A decoded JSON value to a ``GameRecord``; raises ``LogFormatError``/``IllegalMove``.

    ``material`` replaces the family's built-in material (a tile-set file, HG13)."""
    fast = _read_moves(data)
    schema_check(data, moves_checked=fast is not None)
    fam = family(data["game"])
    names = [p["name"] for p in data["players"]]
    for i, name in enumerate(names):
        if names.index(name) != i:
            raise LogFormatError(f"two players are called {name!r}", f"/players/{i}/name")
    fam.check_players(len(names), data.get("expansions") or ())  # before seats get colours
    colours: list[str] = []
    for i, p in enumerate(data["players"]):
        colour = p.get("colour") or next(c for c in fam.colours if c not in colours
                                          and c not in [q.get("colour") for q in data["players"]])
        if colour in colours:
            raise LogFormatError(f"two players use colour {colour}", f"/players/{i}/colour")
        colours.append(colour)
    players = tuple(Player(n, c) for n, c in zip(names, colours, strict=True))
    seed = data.get("seed")
    config = fam.configure(data, players, None if seed is None else str(seed), material)
    moves, move_claims = _moves_of(fam, data["moves"], fast, names)
    return _record(fam, config, moves, move_claims, data, names)


def continued(record: GameRecord, data: dict[str, Any], base: int) -> GameRecord:
    """The record of the log ``data``, whose header and players are ``record``'s and whose
    first ``base`` moves are ``record``'s first ``base`` (a variation's log:
    ``replay.core.explore.variation_log``), read as ``parse`` reads it but reading only the
    moves after ``base``: the others are ``record``'s, read already. Its playback is
    replayed from ``record``'s checkpoint at ``base`` (``playback.branch``; ``base`` at most
    the legal moves of ``record``). Raises ``LogFormatError`` with the path in ``data``
    (``/moves/k/...``)."""
    moves = data.get("moves")
    if type(moves) is not list or len(moves) > MAX_MOVES or base > len(moves):
        raise LogFormatError(f"the moves must be a list of {base} to {MAX_MOVES} moves",
                             "/moves")
    fam = record.family
    new = moves[base:]
    fast = fam.read_moves(new)
    if fast is None:
        _raise_first(_move_errors(fam, new, base), fam, data)
    names = [p.name for p in record.players]
    read, claims = _moves_of(fam, new, fast, names, base)
    claims.update((k, v) for k, v in record.move_claims.items() if k < base)
    out = _record(fam, record.config, list(record.moves[:base]) + read, claims, data, names)
    from .playback import branch

    # the cached property's value, set before anything reads it (a frozen value refuses
    # assignment, and asking whether it is set would replay the whole log)
    object.__setattr__(out, "playback", branch(record.playback, out, base))
    return out


def _moves_of(fam: Family, raws: list[Any], fast: list[Any] | None, names: list[str],
              first: int = 0) -> tuple[list[Any], dict[int, dict[str, int]]]:
    """A log's moves from its move ``first`` on, decoded by the family (``fast``: read
    already by its fast reader), and the scores they claim, by move index."""
    decode_move = fam.decode_move
    moves: list[Any] = [] if fast is None else fast
    move_claims: dict[int, dict[str, int]] = {}
    for i, m in enumerate(raws, first):
        if fast is None:
            moves.append(decode_move(m, f"/moves/{i}"))
        if "scores" in m:
            _check_names(m["scores"], names, f"/moves/{i}/scores")
            move_claims[i] = dict(m["scores"])
    return moves, move_claims


def _record(fam: Family, config: GameConfig, moves: list[Any],
            move_claims: dict[int, dict[str, int]], data: Any, names: list[str]) -> GameRecord:
    """The record of a log read (``data``), with its claims checked."""
    claims = data.get("claims", {})
    final = claims.get("final_scores")
    if final is not None:
        _check_names(final, names, "/claims/final_scores")
    winners = claims.get("winners")
    if winners is not None:
        for k, w in enumerate(winners):
            if w not in names:
                raise LogFormatError(f"{w!r} is not a player", f"/claims/winners/{k}")
    return GameRecord(fam, config, tuple(moves), move_claims, final,
                      None if winners is None else tuple(winners), data,
                      data.get("end") == "after-last-move")


def foreign(data: Any) -> Any:
    """A foreign saved game (a JCloisterZone save, a Board Game Arena log...) converted by the
    importer of its format (``replay.core.importing``); None when ``data`` is not foreign. Raises
    ``ImportRefused`` (a ``LogFormatError``) for a game the importer cannot carry."""
    if type(data) is dict and data.get("format") == "carcassonne-replay/log":
        return None  # the common case, without loading the importers
    from .importing import convert

    return convert(data)


def read_game(source: Source, material: Any = None, max_bytes: int = MAX_BYTES) -> GameRecord:
    """Read a log from a path, an open file, bytes, text or a decoded JSON value; a foreign
    saved game (``replay.core.importing``) is converted first (``GameRecord.imported`` says how).

    Raises ``LogFormatError`` (unreadable, schema-invalid or not importable, with the JSON
    path) or ``IllegalMove`` (a header that breaks a rule)."""
    data = load(source, max_bytes)
    imported = foreign(data)
    if imported is None:
        return parse(data, material)
    record = parse(imported.log, material)
    return replace(record, imported=imported)


def _check_names(scores: dict[str, int], names: list[str], path: str) -> None:
    for name in scores:
        if name not in names:
            raise LogFormatError(f"{name!r} is not a player", f"{path}/{pointer([name])[1:]}")


def log_json(record_family: Family, config: GameConfig, moves: list[dict[str, Any]],
             claims: dict[str, Any] | None = None,
             meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """A log (schema v1) of a game: the envelope around the family's header and moves."""
    out: dict[str, Any] = {"format": "carcassonne-replay/log", "version": 1}
    out.update(record_family.header_json(config))
    out["players"] = record_family.players_json(config)
    if config.seed is not None:
        out["seed"] = config.seed
    out["moves"] = moves
    if claims is not None:
        out["claims"] = claims
    if meta is not None:
        out["meta"] = meta
    return out
