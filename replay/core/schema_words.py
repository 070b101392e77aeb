"""A JSON Schema error in words for people: which rule failed (``error.validator``) and its
value (``error.validator_value``) make the sentence, never jsonschema's own text, so no
Python ``repr`` of a list or an object reaches a user.

The JSON path is given beside the message (``/moves/3/rotation: must be 0, 90, 180 or 270,
not 45``), so a message says what is wrong with the value found there, and what it should be.
A log's errors are told in its game's terms (``Reading``; a game called Hive here): ``1
player; Hive takes 2 to 2``, ``Hive has no expansions``, ``'tileset' is not a field of a Hive
log``, ``this move is not a Hive move: ...``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .errors import IllegalMove
from .events import article, join_words

if TYPE_CHECKING:
    from .family import Family

# JSON Schema type names as people say them
TYPES = {"integer": "a whole number", "number": "a number", "string": "text",
         "boolean": "true or false", "array": "a list", "object": "an object",
         "null": "null"}


class Reading:
    """What is read: the document (``a log``, ``a tile set``), and for a log its game
    (``Family``) and the expansions its header names, which the words of some errors need."""

    __slots__ = ("document", "game", "expansions")

    def __init__(self, document: str = "a log", game: Family | None = None,
                 expansions: Sequence[str] = ()) -> None:
        self.game = game
        self.expansions = tuple(expansions)
        self.document = article(f"{game.label} log") if game is not None else document


def shown(value: Any) -> str:
    """A JSON value named briefly: ``45``, ``'x'``, ``true``, ``a list of 7 items``."""
    if value is None:
        return "null"
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is str:
        return repr(value) if len(value) <= 40 else f"a text of {len(value)} characters"
    if type(value) is int:
        return str(value) if abs(value) < 10 ** 30 else "a number of more than 30 digits"
    if type(value) is float:
        return repr(value)
    if type(value) is list:
        return f"a list of {_count(len(value), 'item')}"
    if type(value) is dict:
        return f"an object of {_count(len(value), 'field')}"
    return type(value).__name__


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _choices(values: Sequence[Any]) -> str:
    """``0, 90, 180 or 270``."""
    words = [shown(v) for v in values]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _names(names: Sequence[Any]) -> str:
    return join_words([repr(str(n)) for n in names])


def _path(err: Any) -> list[Any]:
    return list(getattr(err, "absolute_path", ()))


def _owner(err: Any, reading: Reading) -> str:
    """What holds the fields at the error's path: ``a log`` (the document: ``ROOT``), ``this
    move``, ``a player``, ``an item of 'tiles'``, ``'figure'``."""
    path = _path(err)
    if not path:
        return reading.document
    if len(path) == 2 and path[0] == "moves":
        return "this move"
    if len(path) == 2 and path[0] == "players":
        return "a player"
    if type(path[-1]) is int and len(path) >= 2:
        return f"an item of {str(path[-2])!r}"
    return repr(str(path[-1]))


def _type(err: Any, reading: Reading) -> str:
    want = err.validator_value
    kinds = [want] if isinstance(want, str) else list(want)
    words = [TYPES.get(k, k) for k in kinds]
    return f"must be {' or '.join(words)}, not {shown(err.instance)}"


def _enum(err: Any, reading: Reading) -> str:
    values = list(err.validator_value)
    if len(values) > 12:
        return f"{shown(err.instance)} is not one of the {len(values)} allowed values"
    return f"must be {_choices(values)}, not {shown(err.instance)}"


def _none_allowed(err: Any, reading: Reading) -> str | None:
    """A header field the game does not have at all (``maxItems``/``maxProperties`` 0):
    ``Hive has no expansions``; else ``must be empty``; None for another bound."""
    if err.validator_value != 0:
        return None
    path = _path(err)
    if reading.game is not None and len(path) == 1:
        return f"{reading.game.label} has no {path[0]}"
    return f"must be empty, not {shown(err.instance)}"


def _items(err: Any, reading: Reading, most: bool) -> str:
    n = len(err.instance) if isinstance(err.instance, list) else 0
    path = _path(err)
    if path == ["players"]:
        if reading.game is not None:  # the game's own words (its seats, with expansions)
            known = [x for x in reading.expansions if x in reading.game.expansions]
            try:
                reading.game.check_players(n, known)
            except IllegalMove as said:
                return said.message
        low = err.schema.get("minItems", 0) if isinstance(err.schema, dict) else 0
        high = err.schema.get("maxItems") if isinstance(err.schema, dict) else None
        takes = f"{low} to {high}" if high is not None else f"at least {low}"
        return f"{_count(n, 'player')}; this game takes {takes}"
    if most:
        empty = _none_allowed(err, reading)
        if empty is not None:
            return empty
    bound = "at most" if most else "at least"
    return f"a list of {_count(n, 'item')}; {bound} {err.validator_value} are allowed"


def _additional(err: Any, reading: Reading) -> str:
    inst = err.instance if isinstance(err.instance, dict) else {}
    known = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
    extra = sorted((str(k) for k in inst if k not in known), key=str) or ["?"]
    path = _path(err)
    game = reading.game
    if (game is not None and len(path) == 2 and path[0] == "moves"
            and not any(k in known for k in inst if k != "scores")):
        # nothing of it is a field of this game's moves: a move of another game
        return (f"this move is not {article(game.label)} move: {_names(extra)} "
                f"{'is not a field' if len(extra) == 1 else 'are not fields'} of one")
    owner = _owner(err, reading)
    if len(extra) == 1:
        return f"{extra[0]!r} is not a field of {owner}"
    return f"{_names(extra)} are not fields of {owner}"


def _refused(err: Any, reading: Reading) -> str:
    """A value refused whatever it is (``{"not": {}}``, a ``false`` field of the schema:
    ``schemas.REFUSED``): a field this game, this kind of move or this player lacks."""
    path = _path(err)
    if err.validator_value not in ({}, True) or not path or type(path[-1]) is not str:
        return "is not allowed here"
    field = repr(path[-1])
    if len(path) == 1:
        return f"{field} is not a field of {reading.document}"
    if len(path) == 3 and path[0] == "moves":
        return f"{field} is not a field of this kind of move"
    if len(path) == 3 and path[0] == "players":
        game = reading.game
        return f"{field} is not a field of a player" + (
            f" of {game.label}" if game is not None else "")
    return f"{field} is not allowed in {_owner(err, reading)}"


def _required(err: Any, reading: Reading) -> str:
    inst = err.instance if isinstance(err.instance, dict) else {}
    missing = [str(k) for k in err.validator_value if k not in inst]
    return f"{_owner(err, reading)} needs {_names(missing)}"


def _dependent(err: Any, reading: Reading) -> str:
    inst = err.instance if isinstance(err.instance, dict) else {}
    needs = {str(k): [str(v) for v in vs if v not in inst]
             for k, vs in err.validator_value.items() if k in inst}
    key, missing = next((k, m) for k, m in needs.items() if m)
    return f"{key!r} needs {_names(missing)} beside it in {_owner(err, reading)}"


def _length(err: Any, reading: Reading, most: bool) -> str:
    v = err.validator_value
    n = len(err.instance) if isinstance(err.instance, str) else 0
    if not most and v == 1:
        return "must not be empty"
    bound = "at most" if most else "at least"
    return f"must be {bound} {_count(v, 'character')}, not {n}"


def _properties(err: Any, reading: Reading, most: bool) -> str:
    if most:
        empty = _none_allowed(err, reading)
        if empty is not None:
            return empty
    n = len(err.instance) if isinstance(err.instance, dict) else 0
    bound = "at most" if most else "at least"
    entries = "1 entry" if n == 1 else f"{n} entries"
    return f"{entries}; {bound} {err.validator_value} are allowed"


def _extra_items(err: Any, reading: Reading) -> str:
    """``items: false`` after ``prefixItems``: a list longer than its fixed items."""
    prefix = err.schema.get("prefixItems", []) if isinstance(err.schema, dict) else []
    n = len(err.instance) if isinstance(err.instance, list) else 0
    return f"a list of {_count(n, 'item')}; at most {len(prefix)} are allowed"


def _plain(text: str) -> Callable[[Any, Reading], str]:
    return lambda err, reading: text


RULES: dict[str, Callable[[Any, Reading], str]] = {
    "type": _type,
    "enum": _enum,
    "const": lambda err, r: f"must be {shown(err.validator_value)}, not {shown(err.instance)}",
    "minimum": lambda err, r: f"must be at least {err.validator_value}, not "
                              f"{shown(err.instance)}",
    "maximum": lambda err, r: f"must be at most {err.validator_value}, not "
                              f"{shown(err.instance)}",
    "exclusiveMinimum": lambda err, r: (f"must be more than {err.validator_value}, not "
                                        f"{shown(err.instance)}"),
    "exclusiveMaximum": lambda err, r: (f"must be less than {err.validator_value}, not "
                                        f"{shown(err.instance)}"),
    "minItems": lambda err, r: _items(err, r, False),
    "maxItems": lambda err, r: _items(err, r, True),
    "items": _extra_items,
    "minLength": lambda err, r: _length(err, r, False),
    "maxLength": lambda err, r: _length(err, r, True),
    "minProperties": lambda err, r: _properties(err, r, False),
    "maxProperties": lambda err, r: _properties(err, r, True),
    "pattern": lambda err, r: (f"{shown(err.instance)} does not have the expected form (the "
                               f"pattern {err.validator_value})"),
    "uniqueItems": _plain("holds the same value twice"),
    "oneOf": _plain("fits none of the allowed forms, or more than one"),
    "anyOf": _plain("fits none of the allowed forms"),
    "not": _refused,
    "contains": _plain("holds none of the values it needs"),
    "multipleOf": lambda err, r: (f"must be a multiple of {err.validator_value}, not "
                                  f"{shown(err.instance)}"),
    # the fields of an object, which name what holds them
    "additionalProperties": _additional,
    "unevaluatedProperties": _additional,
    "required": _required,
    "dependentRequired": _dependent,
}


def schema_message(err: Any, document: str = "a log", game: Family | None = None,
                   expansions: Sequence[str] = ()) -> str:
    """The words of a jsonschema error (its path goes beside them, not in them);
    ``document``: what the whole document is (``a log``, ``a tile set``); ``game``: the
    family of a log (then ``a Hive log``) and ``expansions`` those its header names."""
    reading = Reading(document, game, expansions)
    kind = getattr(err, "validator", None)
    rule = RULES.get(str(kind))
    words = None
    if rule is not None:
        try:
            words = rule(err, reading)
        except (TypeError, ValueError, AttributeError, StopIteration):  # an odd schema
            words = None
    path = _path(err)
    if words is None and kind is None and path:  # a ``false`` schema jsonschema gave a path
        words = _refused(_Refusal(path), reading)
    if words is None:
        words = f"{shown(getattr(err, 'instance', None))} is not allowed here"
    if "propertyNames" in list(getattr(err, "relative_schema_path", ())):
        words = f"the name {shown(err.instance)}: {words}"
    return words


class _Refusal:
    """A refused value at ``absolute_path`` (for ``_refused``)."""

    validator_value: dict[str, Any] = {}

    def __init__(self, path: list[Any]) -> None:
        self.absolute_path = path
