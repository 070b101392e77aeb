"""The part of the log schema the two tile-laying families (Carcassonne, ``"game": "base"``,
and Hunters & Gatherers) share: their header fields (``expansions``, ``options``, ``tileset``)
and one move, as JSON Schema (Draft 2020-12). Each family returns ``PART`` from
``Family.log_schema`` (``replay.core.schemas`` puts it in the log envelope).

The two have shared one header and move schema since log v1: it knows the expansions and
options of both (read from their ``Family.expansions`` and ``options``) and the move fields of
both, and the family refuses what is not its own, naming the rule and the
field (``Family.check_expansions``, ``option_values``,
``TileFamily.refuse_foreign_fields``).
Manhattan's fields are ``false`` here, as they were in the one log schema of v1 (the same
errors, at the same JSON paths). Nothing here is imported by a verification whose log passes
the fast checks (``Family.header_surely_valid``, ``move_surely_valid``).
"""

from __future__ import annotations

from typing import Any

COORDINATE: dict[str, Any] = {"type": "integer", "minimum": -1000, "maximum": 1000}

FIGURE: dict[str, Any] = {
    "type": "object",
    "required": ["at"],
    "additionalProperties": False,
    "properties": {
        "kind": {"enum": ["follower", "large-follower", "shepherd", "hut"],
                 "default": "follower"},
        "at": {"type": "string", "minLength": 1, "maxLength": 32,
               "description": "a half-side NL N NR EL E ER SL S SR WL W WR of the placed tile "
                              "as it lies on the board, or the name of a segment that touches "
                              "no side (cloister, inner-field, lake, ...)"},
    },
}

# a discarded tile names its tile and nothing of a placement; a placed one its place
_DISCARD_OR_PLACE: dict[str, Any] = {
    "if": {"required": ["discard"]},
    "then": {"required": ["tile"], "not": {"anyOf": [{"required": ["x"]},
                                                     {"required": ["figure"]}]}},
    "else": {"required": ["x", "y", "rotation"]},
}

BONUS: dict[str, Any] = {
    "type": "object",
    "description": "Hunters & Gatherers (HG7): the bonus tile played in the same turn, after "
                   "the land tile completed a forest with gold",
    "additionalProperties": False,
    "properties": {
        "tile": {"type": "string", "minLength": 1, "maxLength": 32},
        "discard": {"const": True,
                    "description": "table logs only: the bonus tile could not be placed"},
        "x": {"$ref": "#/$defs/coordinate"},
        "y": {"$ref": "#/$defs/coordinate"},
        "rotation": {"enum": [0, 90, 180, 270]},
        "figure": {"$ref": "#/$defs/figure"},
    },
    **_DISCARD_OR_PLACE,
}

MOVE: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "tile": {"type": "string", "minLength": 1, "maxLength": 32},
        "discard": {"const": True, "description": "table logs only: the named tile could not "
                                                  "be placed (G5)"},
        "x": {"$ref": "#/$defs/coordinate"},
        "y": {"$ref": "#/$defs/coordinate"},
        "rotation": {"enum": [0, 90, 180, 270]},
        "figure": {"$ref": "#/$defs/figure"},
        "scores": {"$ref": "#/$defs/scores", "description": "L2: claimed scores after this move"},
        "flock": {
            "type": "array", "maxItems": 4,
            "description": "Hills & Sheep (HS3): the choice for each field holding the player's "
                           "shepherd that the tile extends",
            "items": {
                "type": "object", "required": ["at", "action"], "additionalProperties": False,
                "properties": {
                    "at": {"type": "string", "minLength": 1, "maxLength": 32,
                           "description": "a location of the placed tile lying in that field"},
                    "action": {"enum": ["expand", "herd"]},
                },
            },
        },
        "tokens": {
            "type": "array", "maxItems": 4,
            "description": "Hills & Sheep: the tokens drawn from the bag during this move, in "
                           "order (required without a seed; checked with one)",
            "items": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 4},
                                {"const": "wolf"}]},
        },
        "hidden": {"type": "string", "minLength": 1, "maxLength": 32,
                   "description": "Hills & Sheep (HS7): the tile put under the hill, when known"},
        "bonus": {"$ref": "#/$defs/bonus"},
    },
    **_DISCARD_OR_PLACE,
}

def _options() -> dict[str, Any]:
    """The rule options of both families, as their ``Family.options`` say (key, values, rule
    and help): Carcassonne's, then Hunters & Gatherers'."""
    from .carcassonne import CARCASSONNE
    from .hunters_gatherers import HUNTERS_GATHERERS

    return {o.key: {"enum": list(o.choices), "description": f"{o.rule}: {o.help}"}
            for fam in (CARCASSONNE, HUNTERS_GATHERERS) for o in fam.options}


def _expansions() -> list[str]:
    """The expansions a tile log may name (``Family.expansions``: Carcassonne's)."""
    from .carcassonne import CARCASSONNE
    from .hunters_gatherers import HUNTERS_GATHERERS

    return [name for fam in (CARCASSONNE, HUNTERS_GATHERERS) for name in fam.expansions]


HEADER: dict[str, Any] = {
    "expansions": {"type": "array", "uniqueItems": True, "maxItems": 4,
                   "items": {"enum": _expansions()}},
    "options": {
        "type": "object",
        "additionalProperties": False,
        "properties": _options(),
    },
    "tileset": {
        "type": "object",
        "description": "Which tile set the game used (recorded by the generator; checked when "
                       "present).",
        "required": ["id", "sha256"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "maxLength": 200},
            "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        },
    },
    "material": False,  # Manhattan's
    "deal": False,
}

PART: dict[str, Any] = {
    "header": HEADER,
    "players": {"side": False, "second_colour": False},  # Manhattan's
    "move": {"$ref": "#/$defs/move"},
    "$defs": {"coordinate": COORDINATE, "bonus": BONUS, "figure": FIGURE, "move": MOVE},
}
