"""JCloisterZone setup and players -> the log header (import-formats.md §1.3, §1.4).

4.x saves describe the game as ``{expansions: {"BASIC": 1}, rules: {NAME: bool},
capabilities: [...]}``; 5.x/6.x as ``{sets, elements, rules, start, ...}``. What the project
plays differently is refused; what is declared but has no effect unless used (another set, an
element whose figures or messages never appear) is a warning, and its first use is refused
where it happens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ....core.events import article
from ....core.importing import Problems, a_value
from .. import CARCASSONNE
from . import uses_jcz

SET_NAMES = {"basic": "", "inns-and-cathedrals": "inns-cathedrals",
             "hills-and-sheep": "hills-sheep"}
OLD_EXPANSIONS = {"BASIC": "", "INNS_AND_CATHEDRALS": "inns-cathedrals",
                  "HILLS_AND_SHEEP": "hills-sheep"}
# elements (5.x) / capabilities (4.x) that carry a rule of a supported set
SET_ELEMENTS = {"inns-cathedrals": ("inn", "cathedral"), "hills-sheep": ("hill", "vineyard")}
OLD_CAPABILITIES = {"Inn": "inn", "Cathedral": "cathedral", "Hill": "hill",
                    "Vineyard": "vineyard", "Sheep": "shepherd", "StandardGame": ""}
KNOWN_ELEMENTS = frozenset({"small-follower", "big-follower", "shepherd", "farmers", "inn",
                            "cathedral", "hill", "vineyard"})
# elements that change scores without any message of their own
SILENT_ELEMENTS = {"king": "the king (end-game bonus)", "robber": "the robber baron (end-game "
                   "bonus)"}
START = {"tile": "BA/RCr", "x": 0, "y": 0}

# 5.x rules (client src/renderer/models/rules.js): id -> (default, elements it depends on)
RULES: dict[str, tuple[Any, tuple[str, ...]]] = {
    "princess-action": ("may", ("princess",)),
    "fairy-placement": ("next-follower", ("fairy",)),
    "dragon-move": ("before-scoring", ("dragon",)),
    "barn-placement": ("not-occupied", ("barn",)),
    "wagon-move": ("C2", ("wagon",)),
    "bazaar-no-auction": (False, ("bazaar",)),
    "espace-variant": ("any-tile", ("escape",)),
    "gq11-pig-herd": ("pig", ("gq11",)),
    "tunnelize-other-expansions": (True, ("tunnel",)),
    "more-tunnel-tokens": ("3/2", ("tunnel",)),
    "festival-return": ("meeple", ("festival",)),
    "keep-monasteries": ("replace", ("monasteries",)),
    "labyrinth-variant": ("advanced", ("labyrinth",)),
    "little-buildings-scoring": ("1/1/1", ("little-buildings",)),
    "king-and-robber-scoring": ("default", ("king", "robber")),
    "inn-and-cathedral-final-scoring": ("zero", ("inn", "cathedral")),
}
# 4.x rule names of other expansions (harmless while those are absent) and of the client
OLD_HARMLESS = frozenset({
    "MORE_TUNNEL_TOKENS", "TUNNELIZE_ALL_EXPANSIONS", "PIG_HERD_ON_GQ_FARM",
    "PRINCESS_MUST_REMOVE_KNIGHT", "DRAGON_MOVE_AFTER_SCORING", "MULTI_BARN_ALLOWED",
    "ESCAPE_RGG", "FESTIVAL_FOLLOWER_ONLY", "KEEP_CLOISTERS", "BAZAAR_NO_AUCTION",
    "FAIRY_ON_TILE", "WAGON_MOVE_C2", "BULIDING_SCORE_321", "KING_AND_ROBBER_SCORING",
    "CLOCK_PLAYER_TIME", "RANDOM_SEATING_ORDER", "LABYRINTH_VARIANT", "SHOW_TILE_POSITIONS",
})


@dataclass
class Header:
    """What the setup says: the log's expansions and options, and what the moves must not
    use (elements switched off, figures absent)."""

    expansions: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    off: set[str] = field(default_factory=set)  # inn/cathedral/hill/vineyard off, set on
    shepherd: bool = False
    big_follower: bool = False
    declared: list[str] = field(default_factory=list)  # unsupported things declared, unused


def _version(app: Any) -> tuple[int, ...] | None:
    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", app) if isinstance(app, str) else None
    return None if m is None else tuple(int(g or 0) for g in m.groups())


def header_4x(value: dict[str, Any], problems: Problems) -> Header:
    """The header of a 4.x save (``setup.expansions/rules/capabilities``)."""
    setup = value.get("setup")
    if not isinstance(setup, dict) or not isinstance(setup.get("expansions"), dict):
        raise problems.refuse("truncated", "the 4.x save has no setup.expansions", "setup")
    h = Header()
    sets: dict[str, int] = {}
    for name, count in setup["expansions"].items():
        if name in OLD_EXPANSIONS:
            if count != 1:
                raise problems.refuse("set-count", f"expansion {name} is played {count} times; "
                                      "this service plays each set once", "setup.expansions")
            sets[OLD_EXPANSIONS[name]] = 1
        elif count:
            h.declared.append(name)
            problems.warn("unused-expansion", f"the save declares the expansion {name}, which "
                          "this service does not play: the import is refused if its tiles or "
                          "figures appear", "setup.expansions")
    if "" not in sets:
        raise problems.refuse("no-base", "the game is played without the base set (BASIC)",
                              "setup.expansions")
    caps = setup.get("capabilities") or []
    if not isinstance(caps, list):
        raise problems.refuse("truncated", "setup.capabilities is not a list", "setup")
    for k, c in enumerate(caps):
        if not isinstance(c, str):
            raise problems.refuse("type", f"the capability is {a_value(c)}, not text",
                                  f"setup.capabilities[{k}]")
    on = {OLD_CAPABILITIES[c] for c in caps if c in OLD_CAPABILITIES}
    for c in caps:
        if c not in OLD_CAPABILITIES:
            h.declared.append(c)
            problems.warn("unused-element", f"the save turns on {c}, which this service does "
                          "not play: the import is refused if it is used", "setup.capabilities")
    rules = setup.get("rules") or {}
    if not isinstance(rules, dict):
        raise problems.refuse("truncated", "setup.rules is not an object", "setup")
    for name, v in rules.items():
        if name in ("TINY_CITY_2_POINTS", "ON_HILL_NUMBER_TIEBREAKER", "FARMERS") or not v:
            continue
        if name in OLD_HARMLESS:
            problems.warn("ignored-rule", f"rule {name} belongs to an absent expansion or the "
                          "client: ignored", "setup.rules")
        else:
            raise problems.refuse("rule", f"rule {name} is not understood", "setup.rules")
    app = value.get("appVersion")
    ver = _version(app)
    farmers = bool(rules.get("FARMERS")) or (app != "dev-snapshot" and ver is not None
                                             and ver < (4, 6, 0))
    if not farmers:
        _farmers_off(problems)
    _finish(h, sets, on | {"small-follower"}, problems, "setup.capabilities")
    h.shepherd = "hills-sheep" in sets and "shepherd" in on
    h.big_follower = "inns-cathedrals" in sets
    h.options["small_city"] = 2 if rules.get("TINY_CITY_2_POINTS") else 4
    h.options["farm_scoring"] = "per-field"
    if "hills-sheep" in h.expansions:
        h.options["hill_tiebreak"] = "count" if rules.get("ON_HILL_NUMBER_TIEBREAKER") \
            else "presence"
    return h


def header_5x(value: dict[str, Any], problems: Problems) -> Header:
    """The header of a 5.x/6.x save (``setup.sets/elements/rules/start``)."""
    setup = value.get("setup")
    if not isinstance(setup, dict) or not isinstance(setup.get("sets"), dict):
        raise problems.refuse("truncated", "the save has no setup.sets", "setup")
    elements = setup.get("elements") or {}
    rules = setup.get("rules") or {}
    if not isinstance(elements, dict) or not isinstance(rules, dict):
        raise problems.refuse("truncated", "setup.elements or setup.rules is not an object",
                              "setup")
    h = Header()
    sets = _sets_5x(h, setup["sets"], elements, problems)
    _check_start(setup.get("start"), problems)
    for extra in ("addons",):
        if setup.get(extra):
            h.declared.append(extra)
            problems.warn("unused-element", f"the save uses {extra}, which this service does "
                          "not play: the import is refused if they are used", f"setup.{extra}")
    _elements_5x(h, elements, problems)
    if elements.get("shepherd") and "hills-sheep" not in sets:
        sets["hills-sheep"] = 1
        problems.warn("shepherd-without-set", "shepherds without the Hills & Sheep set: the log "
                      "plays hills-sheep, whose tiles never appear (sound only if the game is "
                      "scored after its last move)", "setup.elements")
    on = {k for k, v in elements.items() if v}
    _finish(h, sets, on, problems, "setup.elements")
    h.shepherd = bool(elements.get("shepherd"))
    h.big_follower = bool(elements.get("big-follower"))
    _rules_5x(h, rules, on, problems)
    return h


def _sets_5x(h: Header, given: dict[str, Any], elements: dict[str, Any],
             problems: Problems) -> dict[str, int]:
    """The sets a 5.x/6.x save plays (``setup.sets``), by our expansion name ("" the base)."""
    sets: dict[str, int] = {}
    for key, count in given.items():
        name, _, edition = str(key).partition(":")
        ed = edition or ("2" if elements.get("garden") else "1")
        if name in SET_NAMES:
            if ed != "1":
                raise problems.unsupported("edition", f"set {key} (edition {ed}) adds tiles "
                                           "this service does not have", "setup.sets",
                                           uses_jcz(f"edition {ed} of the set {name}"))
            if count != 1:
                raise problems.refuse("set-count", f"set {key} is played {count} times; "
                                      "this service plays each set once", "setup.sets")
            sets[SET_NAMES[name]] = 1
        elif count:
            h.declared.append(str(key))
            problems.warn("unused-expansion", f"the save declares the set {key}, which this "
                          "service does not play: the import is refused if its tiles appear",
                          "setup.sets")
    if "" not in sets:
        raise problems.refuse("no-base", "the game is played without the basic set",
                              "setup.sets")
    return sets


def _elements_5x(h: Header, elements: dict[str, Any], problems: Problems) -> None:
    """The figures and elements of a 5.x/6.x save (``setup.elements``), checked."""
    small = elements.get("small-follower")
    if not small:
        raise problems.refuse("rule-off", "the game is played without small followers",
                              "setup.elements")
    if small != 7:
        problems.warn("supply", f"{small} small followers per player; this service's "
                      "supply is 7", "setup.elements")
    for name in ("big-follower", "shepherd"):
        n = elements.get(name)
        if n and (not isinstance(n, int) or n > 1):
            raise problems.refuse("supply", f"{n} {name}s per player; this service's "
                                  "supply is 1", "setup.elements")
    if "farmers" not in elements:
        _farmers_off(problems)
    for name, v in elements.items():
        if name in KNOWN_ELEMENTS or not v:
            continue
        if name in SILENT_ELEMENTS:
            raise problems.unsupported("element", f"the save turns on {name} "
                                       f"({SILENT_ELEMENTS[name]}), which this service does "
                                       "not play", "setup.elements",
                                       uses_jcz(SILENT_ELEMENTS[name]))
        h.declared.append(name)
        problems.warn("unused-element", f"the save turns on {name}, which this service does "
                      "not play: the import is refused if it is used", "setup.elements")


def _rules_5x(h: Header, rules: dict[str, Any], on: set[str], problems: Problems) -> None:
    tiny = rules.get("tiny-city-scoring", "4")  # text in JCZ: the number 2 is refused
    if tiny not in ("2", "4"):
        raise problems.refuse("rule", f"rule tiny-city-scoring {tiny!r} is not understood",
                              "setup.rules")
    h.options["small_city"] = 2 if tiny == "2" else 4
    h.options["farm_scoring"] = "per-field"
    hill = rules.get("hill-tiebreaker", "at-least-one-follower")
    if hill not in ("at-least-one-follower", "number-of-followers"):
        raise problems.refuse("rule", f"rule hill-tiebreaker {hill!r} is not understood",
                              "setup.rules")
    if "hills-sheep" in h.expansions:
        h.options["hill_tiebreak"] = "count" if hill == "number-of-followers" else "presence"
    for name, v in rules.items():
        if name in ("tiny-city-scoring", "hill-tiebreaker"):
            continue
        default, deps = RULES.get(name, (None, ()))
        if name in RULES and v == default:
            continue
        if deps and not (set(deps) & on):
            problems.warn("ignored-rule", f"rule {name} = {v!r} concerns an absent element "
                          f"({', '.join(deps)}): ignored", "setup.rules")
            continue
        if name not in RULES and not v:
            continue
        raise problems.refuse("rule", f"rule {name} = {v!r} changes a rule this service "
                              "plays otherwise", "setup.rules")


def _check_start(start: Any, problems: Problems) -> None:
    if start is None:
        return
    ok = (isinstance(start, list) and len(start) == 1 and isinstance(start[0], dict)
          and {k: start[0].get(k) for k in START} == START
          and start[0].get("rotation", 0) in (0, "R0"))
    if not ok:
        raise problems.refuse("start", f"start {start!r} is not BA/RCr at (0,0) rotation 0",
                              "setup.start")


def _farmers_off(problems: Problems) -> None:
    problems.warn("farmers-off", "farmers are off in the source: this service always allows "
                  "them (the moves replay alike and no field scores)", "setup")


def _finish(h: Header, sets: dict[str, int], on: set[str], problems: Problems,
            where: str) -> None:
    h.expansions = [x for x in ("inns-cathedrals", "hills-sheep") if x in sets]
    for x in h.expansions:
        for element in SET_ELEMENTS[x]:
            if element not in on:
                h.off.add(element)
                when = ("a cloister is placed next to a vineyard" if element == "vineyard"
                        else f"a tile with {article(element)} is placed")
                problems.warn("element-off", f"{element} is off in the source: the import is "
                              f"refused if {when}", where)


def _name(value: Any, where: str, problems: Problems) -> str:
    """A player's name: text, or "" when absent; any other type is refused, not coerced."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise problems.refuse("type", f"the player name is {a_value(value)}, not text",
                              where)
    return value


def _slots(slots: list[Any], problems: Problems) -> list[str]:
    """4.x: the nicknames of the seated slots, by ``serial``."""
    seated: list[tuple[int, str]] = []
    for i, slot in enumerate(slots):
        if not isinstance(slot, dict) or slot.get("nickname") is None:
            continue
        serial = slot.get("serial") or 0
        if type(serial) is not int:
            raise problems.refuse("type", f"the serial is {a_value(serial)}, not a whole "
                                  "number", f"slots[{i}].serial")
        seated.append((serial, _name(slot["nickname"], f"slots[{i}].nickname", problems)))
    seated.sort(key=lambda s: s[0])
    return [name for _, name in seated]


def players(value: dict[str, Any], old: bool, header: Header,
            problems: Problems) -> list[str]:
    """The player names in turn order (made distinct), checked against the player limits."""
    if old:
        slots = value.get("slots")
        if not isinstance(slots, list):
            raise problems.refuse("truncated", "the save lists no slots", "slots")
        names = _slots(slots, problems)
    else:
        raw = value.get("players")
        if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
            raise problems.refuse("truncated", "the save lists no players", "players")
        names = [_name(p.get("name"), f"players[{i}].name", problems)
                 for i, p in enumerate(raw)]
    game = CARCASSONNE
    if len(names) < game.min_players:
        raise problems.refuse("solo", f"a game of {len(names)} player(s): logs need "
                              f"{game.min_players} to {game.seat_limit(list(game.expansions))}",
                              "players")
    limit = game.seat_limit(header.expansions)
    if len(names) > limit:
        raise problems.refuse("too-many-players", f"{len(names)} players: at most {limit} "
                              "with these expansions", "players")
    out: list[str] = []
    for i, name in enumerate(names):
        name = name.strip()[:60] or f"Player {i + 1}"
        base, k = name, 2
        while name in out:
            name, k = f"{base} ({k})", k + 1
        if name != names[i]:
            problems.warn("player-name", f"player {i + 1} {names[i]!r} is called {name!r}",
                          "players")
        out.append(name)
    return out
