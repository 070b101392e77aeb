"""A JSON Schema error in words for people: which rule failed (``error.validator``) and its
value (``error.validator_value``) make the sentence, never jsonschema's own text, so no
Python ``repr`` of a list or an object reaches a user.

The JSON path is given beside the message (``/moves/3/rotation: must be 0, 90, 180 or 270,
not 45``), so a message says what is wrong with the value found there, and what it should be.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .events import join_words

# JSON Schema type names as people say them
TYPES = {"integer": "a whole number", "number": "a number", "string": "text",
         "boolean": "true or false", "array": "a list", "object": "an object",
         "null": "null"}


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


def _owner(err: Any, document: str) -> str:
    """What holds the fields at the error's path: ``a log`` (the document: ``ROOT``), ``this
    move``, ``a player``, ``an item of 'tiles'``, ``'figure'``."""
    path = list(err.absolute_path)
    if not path:
        return document
    if len(path) == 2 and path[0] == "moves":
        return "this move"
    if len(path) == 2 and path[0] == "players":
        return "a player"
    if type(path[-1]) is int and len(path) >= 2:
        return f"an item of {str(path[-2])!r}"
    return repr(str(path[-1]))


def _type(err: Any) -> str:
    want = err.validator_value
    kinds = [want] if isinstance(want, str) else list(want)
    words = [TYPES.get(k, k) for k in kinds]
    return f"must be {' or '.join(words)}, not {shown(err.instance)}"


def _enum(err: Any) -> str:
    values = list(err.validator_value)
    if len(values) > 12:
        return f"{shown(err.instance)} is not one of the {len(values)} allowed values"
    return f"must be {_choices(values)}, not {shown(err.instance)}"


def _items(err: Any, most: bool) -> str:
    n = len(err.instance) if isinstance(err.instance, list) else 0
    path = list(err.absolute_path)
    if path and path[-1] == "players":
        low = err.schema.get("minItems", 0) if isinstance(err.schema, dict) else 0
        high = err.schema.get("maxItems") if isinstance(err.schema, dict) else None
        takes = f"{low} to {high}" if high is not None else f"at least {low}"
        return f"{_count(n, 'player')}; this game takes {takes}"
    bound = "at most" if most else "at least"
    return f"a list of {_count(n, 'item')}; {bound} {err.validator_value} are allowed"


def _additional(err: Any, document: str) -> str:
    inst = err.instance if isinstance(err.instance, dict) else {}
    known = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
    extra = sorted((str(k) for k in inst if k not in known), key=str) or ["?"]
    owner = _owner(err, document)
    if len(extra) == 1:
        return f"{extra[0]!r} is not a field of {owner}"
    return f"{_names(extra)} are not fields of {owner}"


def _required(err: Any, document: str) -> str:
    inst = err.instance if isinstance(err.instance, dict) else {}
    missing = [str(k) for k in err.validator_value if k not in inst]
    owner = _owner(err, document)
    return f"{owner} needs {_names(missing)}"


def _length(err: Any, most: bool) -> str:
    v = err.validator_value
    n = len(err.instance) if isinstance(err.instance, str) else 0
    if not most and v == 1:
        return "must not be empty"
    bound = "at most" if most else "at least"
    return f"must be {bound} {_count(v, 'character')}, not {n}"


def _properties(err: Any, most: bool) -> str:
    n = len(err.instance) if isinstance(err.instance, dict) else 0
    bound = "at most" if most else "at least"
    entries = "1 entry" if n == 1 else f"{n} entries"
    return f"{entries}; {bound} {err.validator_value} are allowed"


def _plain(text: str) -> Callable[[Any], str]:
    return lambda err: text


RULES: dict[str, Callable[[Any], str]] = {
    "type": _type,
    "enum": _enum,
    "const": lambda err: f"must be {shown(err.validator_value)}, not {shown(err.instance)}",
    "minimum": lambda err: f"must be at least {err.validator_value}, not {shown(err.instance)}",
    "maximum": lambda err: f"must be at most {err.validator_value}, not {shown(err.instance)}",
    "exclusiveMinimum": lambda err: (f"must be more than {err.validator_value}, not "
                                     f"{shown(err.instance)}"),
    "exclusiveMaximum": lambda err: (f"must be less than {err.validator_value}, not "
                                     f"{shown(err.instance)}"),
    "minItems": lambda err: _items(err, False),
    "maxItems": lambda err: _items(err, True),
    "minLength": lambda err: _length(err, False),
    "maxLength": lambda err: _length(err, True),
    "minProperties": lambda err: _properties(err, False),
    "maxProperties": lambda err: _properties(err, True),
    "pattern": lambda err: (f"{shown(err.instance)} does not have the expected form (the "
                            f"pattern {err.validator_value})"),
    "uniqueItems": _plain("holds the same value twice"),
    "oneOf": _plain("fits none of the allowed forms, or more than one"),
    "anyOf": _plain("fits none of the allowed forms"),
    "not": _plain("is not allowed here"),
    "multipleOf": lambda err: (f"must be a multiple of {err.validator_value}, not "
                               f"{shown(err.instance)}"),
}


# the rules about the fields of an object, which name what holds them
FIELD_RULES: dict[str, Callable[[Any, str], str]] = {
    "additionalProperties": _additional,
    "unevaluatedProperties": _additional,
    "required": _required,
}


def schema_message(err: Any, document: str = "a log") -> str:
    """The words of a jsonschema error (its path goes beside them, not in them);
    ``document``: what the whole document is (``a log``, ``a tile set``)."""
    kind = str(getattr(err, "validator", None))
    rule = RULES.get(kind)
    try:
        if rule is not None:
            return rule(err)
        if kind in FIELD_RULES:
            return FIELD_RULES[kind](err, document)
    except (TypeError, ValueError, AttributeError):  # an odd schema: the general words
        pass
    path = list(getattr(err, "absolute_path", ()))
    if getattr(err, "validator", None) is None and path:  # a ``false`` schema: a refused field
        return f"{str(path[-1])!r} is not a field of this game's logs (or of this kind of move)"
    return f"{shown(getattr(err, 'instance', None))} is not allowed here (schema rule " \
           f"{getattr(err, 'validator', None)})"
