"""A move's Hills & Sheep fields (HS2, HS3, HS7): its flock choices, the sheep tokens it draws
and the tile it hides under a hill, as a record of the expansion's own (``SheepFields``) in
the move's ``extras`` (``state.Move``), read from a log and written to one. The rules that
play them are in ``hills_sheep``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from ...core.json_input import plain_int, short_text
from ...core.values import value_type

if TYPE_CHECKING:
    from .state import Move

WOLF = 0  # the wolf token (the others are worth their sheep)
ACTIONS = ("expand", "herd")


class FlockChoice:
    """HS3: for the field holding this player's shepherd that the new tile extends (named by a
    location of the new tile), draw a token ("expand") or score the flock ("herd")."""

    location: str
    action: str

    def __init__(self, location: str, action: str) -> None:
        self.location = location
        self.action = action


value_type(FlockChoice)


class SheepFields:
    """A move's Hills & Sheep fields, kept in its ``extras`` (``state.Move``): its flock
    choices (HS3), the sheep tokens it draws (0 = wolf; required in table logs) and, in a
    table log, the tile put under a hill (HS7) if known."""

    flock: tuple[FlockChoice, ...]
    tokens: tuple[int, ...]
    hidden: str | None

    def __init__(self, flock: tuple[FlockChoice, ...] = (), tokens: tuple[int, ...] = (),
                 hidden: str | None = None) -> None:
        self.flock = flock
        self.tokens = tokens
        self.hidden = hidden


value_type(SheepFields)
NO_SHEEP: Final = SheepFields()  # the fields of a move that has none


def sheep_of(move: Move) -> SheepFields:
    """The Hills & Sheep fields of ``move`` (``NO_SHEEP`` when it has none)."""
    if move.extras:
        found: SheepFields | None = move.extra(SheepFields)
        if found is not None:
            return found
    return NO_SHEEP


def with_sheep(move: Move, flock: tuple[FlockChoice, ...], tokens: tuple[int, ...]) -> Move:
    """``move`` with ``flock`` and ``tokens`` as its flock choices and draws (its hidden tile
    kept; a move without any field holds no record of them)."""
    hidden = sheep_of(move).hidden
    if not flock and not tokens and hidden is None:
        return move.with_extra(SheepFields, None)
    return move.with_extra(SheepFields, SheepFields(flock, tokens, hidden))


def decode_sheep(raw: Mapping[str, Any]) -> SheepFields | None:
    """The Hills & Sheep fields of a schema-valid move object (None: it has none)."""
    return sheep_record({
        "flock": tuple(FlockChoice(c["at"], c["action"]) for c in raw.get("flock", ())),
        "tokens": tuple(0 if t == "wolf" else t for t in raw.get("tokens", ())),
        "hidden": raw.get("hidden"),
    })

def sheep_record(fields: Mapping[str, Any]) -> SheepFields | None:
    """The fields given by name as Python values (``flock``, ``tokens``, ``hidden``), as a
    record (None: they say nothing)."""
    flock, tokens = fields.get("flock", ()), fields.get("tokens", ())
    hidden = fields.get("hidden")
    if not flock and not tokens and hidden is None:
        return None
    return SheepFields(flock, tokens, hidden)

def encode_sheep(move: Move) -> dict[str, Any]:
    """The Hills & Sheep fields of ``move`` as a log writes them."""
    out: dict[str, Any] = {}
    sheep = sheep_of(move)
    if sheep.flock:
        out["flock"] = [{"at": c.location, "action": c.action} for c in sheep.flock]
    if sheep.tokens:
        out["tokens"] = ["wolf" if t == WOLF else t for t in sheep.tokens]
    if sheep.hidden is not None:
        out["hidden"] = sheep.hidden
    return out

def sheep_surely_valid(m: Mapping[str, Any]) -> bool:
    """The Hills & Sheep fields of a move object as the schema surely accepts them."""
    if "flock" in m:
        flock = m["flock"]
        if type(flock) is not list or len(flock) > 4:
            return False
        for c in flock:
            if (type(c) is not dict or c.keys() != {"at", "action"}
                    or short_text(c["at"]) is False
                    or type(c["action"]) is not str or c["action"] not in ACTIONS):
                return False
    if "tokens" in m:
        tokens = m["tokens"]
        if type(tokens) is not list or len(tokens) > 4:
            return False
        if not all(plain_int(t, 1, 4) or (type(t) is str and t == "wolf") for t in tokens):
            return False
    return not ("hidden" in m and not short_text(m["hidden"]))
