"""Manhattan's part of the log schema (``Manhattan.log_schema``): its header fields (``material``,
``deal``; ``expansions`` and ``options`` written empty), its players' fields (``side``,
``second_colour``) and one move, as JSON Schema (Draft 2020-12). ``replay.core.schemas`` puts
it in the log envelope; ``log`` is the fast path that accepts only what it accepts. Imported
only when a log is not surely valid by that fast path.
"""

from __future__ import annotations

from typing import Any

COLOURS = ["red", "blue", "green", "yellow", "black", "grey"]
_NUMBER: dict[str, Any] = {"type": "integer", "minimum": -1000, "maximum": 1000}

MOVE: dict[str, Any] = {
    "type": "object",
    "description": "Manhattan: a choice of pieces (M4), a build (M5) or, when no build is "
                   "legal, a discard",
    "additionalProperties": False,
    "properties": {
        "choose": {
            "type": "object", "minProperties": 1, "maxProperties": 2,
            "description": "M4: the storeys of the pieces taken into play this round, per "
                           "colour",
            "propertyNames": {"minLength": 1, "maxLength": 32},
            "additionalProperties": {"type": "array", "minItems": 1, "maxItems": 24,
                                     "items": _NUMBER},
        },
        "card": {**_NUMBER, "description": "M3: the card played, named by the lot it marks as "
                                           "printed (0-8, row by row from the north-west)"},
        "city": {"type": "string", "minLength": 1, "maxLength": 32},
        "storeys": _NUMBER,
        "colour": {"type": "string", "minLength": 1, "maxLength": 32,
                   "description": "M7: the colour of the piece, for a player with two"},
        "discard": {**_NUMBER, "description": "the card discarded when no build is legal"},
        "draw": {**_NUMBER, "description": "M3: the card drawn (required without a seed; "
                                           "checked with one)"},
        "scores": {"$ref": "#/$defs/scores", "description": "L2: claimed scores after this move"},
    },
    "if": {"required": ["choose"]},
    "then": {"properties": {"card": False, "city": False, "storeys": False, "colour": False,
                            "discard": False, "draw": False}},
    "else": {
        "if": {"required": ["discard"]},
        "then": {"properties": {"card": False, "city": False, "storeys": False,
                                "colour": False}},
        "else": {"required": ["card", "city", "storeys"]},
    },
}

HEADER: dict[str, Any] = {
    "expansions": {"type": "array", "uniqueItems": True, "maxItems": 0},
    "options": {"type": "object", "maxProperties": 0},
    "tileset": False,  # the tile-laying families'
    "material": {
        "type": "object",
        "description": "Manhattan (M1): the material when it is not the default (5 cards per "
                       "lot; pieces 12, 6, 4, 2 of 1-4 storeys; 4 cards in hand)",
        "additionalProperties": False,
        "properties": {
            "cards_per_lot": {"type": "array", "minItems": 9, "maxItems": 9,
                              "items": {"type": "integer", "minimum": 0, "maximum": 20}},
            "pieces": {"type": "array", "minItems": 4, "maxItems": 4,
                       "description": "pieces per colour of 1, 2, 3 and 4 storeys",
                       "items": {"type": "integer", "minimum": 0, "maximum": 48}},
            "hand_size": {"type": "integer", "minimum": 1, "maximum": 8},
        },
    },
    "deal": {
        "type": "array", "maxItems": 6,
        "description": "Manhattan (M3): each player's cards at the start, in player order "
                       "(required without a seed; checked with one)",
        "items": {"type": "array", "maxItems": 16, "items": _NUMBER},
    },
}

PLAYERS: dict[str, Any] = {
    "side": {"enum": ["south", "west", "north", "east"],
             "description": "Manhattan (M2): the side of the board the player plays from"},
    "second_colour": {"enum": COLOURS, "description": "Manhattan (M7): the second colour of a "
                                                      "player in the two-player game"},
}

PART: dict[str, Any] = {
    "header": HEADER,
    "players": PLAYERS,
    "move": {"$ref": "#/$defs/manhattan-move"},
    "$defs": {"manhattan-move": MOVE},
}
