"""Hunters & Gatherers' features, told to the shared tile layer (``replay.tiles.kinds``) when
the package is imported: the figures' names on its forests, rivers and meadows, how its
segment types are drawn, the drawings of its symbols (fish, gold, mushrooms, the animals,
fire, sacred places, the volcano) and of its hut."""

from __future__ import annotations

from ...tiles import kinds
from ...tiles.tileset import Segment
from ...tiles.words import count_word, plural

ROLES: dict[str, str | None] = {"forest": "gatherer", "river": "fisher", "meadow": "hunter",
                                "lake": None}

# Symbols of a segment's attributes, in the order they are drawn; the counted ones are drawn
# as many times as the attribute counts (up to 4).
SYMBOLS = ("fish", "gold", "mushrooms", "deer", "mammoth", "aurochs", "tiger", "fire", "sacred")
COUNTED = frozenset({"fish", "gold", "mushrooms", "deer", "mammoth", "aurochs", "tiger"})
FLAGS = ("volcano",)  # the tile's flags drawn as symbols

COLOURS = {"meadow": "#b8cf68", "forest": "#2f6b2d", "forest-edge": "#1f4a1d",
           "river": "#5ba8e8", "river-edge": "#2a6aaa", "lake": "#5ba8e8", "spring": "#bfe3ff",
           "spring-edge": "#2a6aaa"}

ANIMALS = ("deer", "mammoth", "aurochs", "tiger")
ANIMAL_PLURALS = {"mammoth": "mammoths", "tiger": "tigers"}

ICONS: dict[str, str] = {
    "fish": (
        '<path d="M-5,0C-3,-3 2,-3 4,0C2,3 -3,3 -5,0ZM3.5,0L7,-2.6V2.6Z" fill="#f08a24" '
        'stroke="#7a3d0a" stroke-width="0.7"/>'),
    "gold": (
        '<path d="M-5.5,2L-3,-3L1,-4.5L5.5,-1L4,3.5L-1,4.5Z" fill="#f2c21b" stroke="#8a6a00" '
        'stroke-width="1.1"/><path d="M-2,-1.5L1,-2.5" stroke="#fff6c2" stroke-width="1.2"/>'),
    "mushrooms": (
        '<path d="M-1.2,1V6H1.2V1Z" fill="#f4ecd8" stroke="#6b5a3a" stroke-width=".7"/>'
        '<path d="M-6,1.5C-6,-5 6,-5 6,1.5Z" fill="#d23b2b" stroke="#6b1d14" stroke-width=".8"/>'
        '<circle cx="-2.5" cy="-1" r="1" fill="#fff"/><circle cx="2" cy="-2" r="1" fill="#fff"/>'),
    "deer": (
        '<g stroke="#4a2e12" stroke-width=".8">'
        '<path d="M-5,3V8M-2.5,3V8M2.5,3V8M5,3V8" stroke-width="1.4"/>'
        '<ellipse cx="0" cy="1" rx="7" ry="3.4" fill="#b0742f"/>'
        '<path d="M4.5,0L7.5,-5L10.5,-4.5L9,-2L6.5,1Z" fill="#b0742f"/>'
        '<path d="M8,-5L6.5,-9.5M7.2,-7.5L5,-8.8M9,-5L10.5,-9.5M9.8,-7.5L12,-8.5" '
        'fill="none"/></g>'),
    "mammoth": (
        '<g stroke="#3b3b3b" stroke-width=".8">'
        '<path d="M-5,3V8.5M-1.5,3V8.5M2.5,3V8.5M5.5,3V8.5" stroke-width="2.2"/>'
        '<path d="M-8.5,3C-9.5,-6 6,-8.5 8,-2C9,1 8,4 6,4H-7Z" fill="#8c7b6b"/>'
        '<path d="M8,-2C11.5,0 11.5,5 9,8.5" fill="none" stroke="#8c7b6b" stroke-width="2.2"/>'
        '<path d="M7,1.5C9,2.5 11.5,1.5 12.5,-1" fill="none" stroke="#f4efe2" '
        'stroke-width="1.4"/></g>'),
    "aurochs": (
        '<g stroke="#2a1a0c" stroke-width=".8">'
        '<path d="M-5.5,3V8M-2.5,3V8M3,3V8M6,3V8" stroke-width="1.7"/>'
        '<path d="M-8,3.5C-8.5,-3 5,-4 7,-2L10.5,-1L9.5,3.5H-8Z" fill="#5a3a1c"/>'
        '<path d="M7,-2C7,-5 9,-6 10.5,-6M8.5,-2C10,-4 12,-4 12.5,-3" fill="none" '
        'stroke="#efe6cf" stroke-width="1.2"/></g>'),
    "tiger": (
        '<g stroke="#3a2208" stroke-width=".8">'
        '<path d="M-5,3V8M-2.5,3V8M2.5,3V8M5,3V8" stroke-width="1.4"/>'
        '<path d="M-7,0C-10,-2 -11,-5 -9,-7" fill="none" stroke="#f08c1e" stroke-width="1.6"/>'
        '<ellipse cx="0" cy="1" rx="7.5" ry="3.3" fill="#f08c1e"/>'
        '<circle cx="8" cy="-1.5" r="3" fill="#f08c1e"/>'
        '<path d="M-4,-2V3.5M-1,-2.3V4M2,-2.3V4" stroke="#222" stroke-width="1.1"/>'
        '<path d="M8.3,1.3L8.8,4.5M9.8,0.8L10.6,3.8" stroke="#fff" stroke-width=".9"/></g>'),
    "fire": (
        '<path d="M0,8C-6,8 -8,3 -5,-2C-4,1 -2,1 -2,-1C-2,-5 1,-7 2,-10C3,-6 7,-4 6,2C6,6 3,8 '
        '0,8Z" fill="#f26b1d" stroke="#9c2b0b" stroke-width="1"/>'
        '<path d="M0,7C-3,7 -3,3 -1,1C0,3 2,3 1.5,0C4,2 4,7 0,7Z" fill="#ffd23f"/>'),
    "sacred": (
        '<g fill="#a3a39a" stroke="#4b4b45" stroke-width=".8">'
        '<rect x="-2" y="-10" width="4" height="8" rx="1"/>'
        '<rect x="-10" y="-4" width="4" height="7" rx="1"/>'
        '<rect x="6" y="-4" width="4" height="7" rx="1"/>'
        '<rect x="-6.5" y="3.5" width="4" height="6" rx="1"/>'
        '<rect x="2.5" y="3.5" width="4" height="6" rx="1"/></g>'),
    "volcano": (
        '<path d="M-0.5,-9C-2.5,-12 0.5,-14 -1.5,-17" fill="none" stroke="#8a8a8a" '
        'stroke-width="1.8"/><path d="M-13,9L-4,-7H4L13,9Z" fill="#6b4a35" stroke="#3a2618" '
        'stroke-width="1"/><path d="M-4,-7C-2,-3.5 2,-3.5 4,-7Z" fill="#e8401c"/>'),
}
ICON_SCALE = {"deer": 1.4, "mammoth": 1.4, "aurochs": 1.4, "tiger": 1.4}

# Its own figure, a hut (HG3), in its player's colour with the seat's mark on its wall.
FIGURES = {"hut": kinds.FigureShape("M-8,9V-1L0,-9L8,-1V9ZM-2.5,9V3H2.5V9Z", mark_dy=-2.5,
                                    mark_size=12, fill_rule="evenodd")}
SOURCES = ("spring",)  # a river may start on its tile, at a spring

# Its features that are completed: their followers go back then (G9, HG6).
COMPLETABLE = frozenset({"forest", "river"})


def nature_parts(by_type: dict[str, list[Segment]]) -> list[str]:
    """Rivers, lakes, forests and meadows, with their fish, gold, mushrooms and animals."""
    parts: list[str] = []
    rivers = by_type.get("river", [])
    lakes = by_type.get("lake", [])
    if rivers:
        word = "a river" if len(rivers) == 1 else f"{count_word(len(rivers))} rivers"
        if any(r.attr("spring") for r in rivers):
            word += " from a spring"
        if lakes:
            word += " into a lake"
        parts.append(word)
    elif lakes:
        parts.append("a lake")
    fish = sum(s.attr("fish") for s in lakes + rivers)
    if fish and parts:
        parts[-1] += " with " + plural(fish, "fish", "fish")
    forests = by_type.get("forest", [])
    if forests:
        word = "a forest" if len(forests) == 1 else f"{count_word(len(forests))} forests"
        gold = sum(f.attr("gold") for f in forests)
        if gold:
            word += " with gold"
        if any(f.attr("mushrooms") for f in forests):
            word += " and mushrooms" if gold else " with mushrooms"
        parts.append(word)
    meadows = by_type.get("meadow", [])
    animals = []
    for animal in ANIMALS:
        n = sum(m.attr(animal) for m in meadows)
        if n:
            animals.append(plural(n, animal, ANIMAL_PLURALS.get(animal, animal)))
    if meadows:
        word = "a meadow" if len(meadows) == 1 else f"{count_word(len(meadows))} meadows"
        if any(m.attr("fire") for m in meadows):
            word += " with a fire"
        if any(m.attr("sacred") for m in meadows):
            word += " with a sacred place"
        if animals:
            word += " (" + ", ".join(animals) + ")"
        if rivers or forests or lakes:
            parts.append(word)
        else:
            parts.insert(0, word)
    return parts


def register() -> None:
    """Tell the tile layer Hunters & Gatherers' features (once per process is enough; again
    changes nothing)."""
    kinds.register(roles=ROLES, prepositions={"river": "on", "lake": "by"}, beside=("hut",),
                   describe=nature_parts, areas=("forest",), lines=("river",), grounds=("meadow",),
                   middles=("lake",), pools={"lake": "river"}, colours=COLOURS, symbols=SYMBOLS,
                   counted=COUNTED, flags=FLAGS, sources=SOURCES, icons=ICONS,
                   icon_scale=ICON_SCALE, figures=FIGURES)


register()
