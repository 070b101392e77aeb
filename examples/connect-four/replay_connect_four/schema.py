"""Connect Four's part of the log schema (``ConnectFour.log_schema``), as JSON Schema (Draft
2020-12): its header fields (no expansions; the option ``board``), no fields of its own on a
player, and one move. The core puts it in the log envelope (format, version, game, players,
seed, moves, claims, end, meta) and reports an error of either with its JSON path.
"""

from __future__ import annotations

from typing import Any

MOVE: dict[str, Any] = {
    "type": "object",
    "description": "Connect Four: a disc dropped into a column (CF2)",
    "required": ["column"],
    "additionalProperties": False,
    "properties": {
        # the schema bounds it loosely; a column off this game's board is an illegal move
        # (CF2), which the rules report with the move number and player, not a format error
        "column": {"type": "integer", "minimum": 1, "maximum": 16,
                   "description": "the column, 1 = the leftmost"},
        "scores": {"$ref": "#/$defs/scores", "description": "L2: claimed scores after this move"},
    },
}

PART: dict[str, Any] = {
    "header": {
        "expansions": {"type": "array", "maxItems": 0},
        "options": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"board": {"enum": ["7x6", "8x7", "9x7"],
                                     "description": "CF1: columns x rows"}},
        },
    },
    "players": {},
    "move": {"$ref": "#/$defs/connect-four-move"},
    "$defs": {"connect-four-move": MOVE},
}
