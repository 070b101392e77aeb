"""The name of each rule id, as docs/rules.md titles it (``G5`` "Unplaceable tile"), for the
reports that show a rule id to people (``rule_label``: "G5 · Unplaceable tile").

docs/rules.md opens most rules with a bold title (``- **G5 Unplaceable tile.**``); its titles
are copied here without their closing stop, a first lower-case letter raised. L1-L4 have no
title there (the rule text starts at once): their names sum up their text.
``tests/test_rules_doc.py`` keeps this table equal to the titles of docs/rules.md, id by id
(a rule added there without a name here fails it).
"""

from __future__ import annotations

RULE_NAMES: dict[str, str] = {
    "G1": "Board", "G2": "Deck", "G3": "Turn order", "G4": "Placement",
    "G5": "Unplaceable tile", "G6": "Figures", "G7": "Shared features",
    "G8": "Majority and ties", "G9": "Return", "G10": "Several completions", "G11": "End",
    "G12": "Scores never decrease",
    "B1": "Material", "B2": "Segments", "B3": "Road complete", "B4": "City complete",
    "B4a": "Small city (option)", "B5": "Cloister complete", "B6": "Farmers",
    "B7": "Final scoring of incomplete features", "B8": "Farm scoring (option)",
    "B9": "Rulebook examples",
    "IC1": "Material", "IC2": "Inn", "IC3": "Cathedral", "IC4": "Special tiles",
    "HS1": "Material", "HS2": "Shepherd placement", "HS3": "Expand or herd",
    "HS4": "Shared flock", "HS5": "Closed field", "HS6": "End", "HS7": "Hill tile",
    "HS8": "Hill tie-break", "HS9": "Vineyard", "HS10": "Special city tiles",
    "HG1": "Material", "HG2": "Terrain", "HG3": "Figures", "HG4": "River complete",
    "HG5": "Forest complete", "HG6": "Return (option)", "HG7": "Gold and bonus tile",
    "HG8": "River network", "HG9": "End", "HG10": "Hut scoring", "HG11": "Hunter scoring",
    "HG12": "Rulebook examples", "HG13": "Tile set",
    "M1": "Material", "M2": "Seats", "M3": "Cards", "M4": "Round", "M5": "Building",
    "M6": "Scoring after every round", "M7": "Player counts", "M8": "End",
    "M9": "Rulebook example", "M10": "Tie-score rules",
    # no title in docs/rules.md: what the rule asks
    "L1": "What a log names", "L2": "Claimed scores", "L3": "The first illegal move",
    "L4": "Same log, same hashes",
}
UNTITLED = frozenset({"L1", "L2", "L3", "L4"})  # named here, not titled in docs/rules.md


def rule_name(rule: str | None) -> str | None:
    """The name of a rule id (None for an id without one, or for what is not a rule id)."""
    return RULE_NAMES.get(rule) if isinstance(rule, str) else None


def rule_label(rule: str | None) -> str:
    """A rule id with its name, ``"G5 · Unplaceable tile"``; anything else as it is
    (``""`` for None)."""
    if rule is None:
        return ""
    name = rule_name(rule)
    return f"{rule} · {name}" if name else str(rule)
