"""The features a tile family brings to the shared tile layer, which names none of them.

The tile layer knows the features every tile family shares (road, city, field, cloister); a
family with more tells them here when its package is imported (``register``): what a follower
standing on each is called, its words for them, the shape each segment type is drawn as, its
colours and symbols. A family is imported before any of its tiles is played, drawn or told (a
tile set read alone brings in the family it names: ``sets.parse_tileset``), so the tables are
whole by the time they are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .tileset import Segment

# A family's words for its own segments of a tile (by segment type): parts of the tile's words.
Describer = Callable[[dict[str, list["Segment"]]], list[str]]

# What a follower is called on a feature of each segment type (None: a follower has no name
# there); a type not named here gives no word either.
ROLE: dict[str, str | None] = {"road": "thief", "city": "knight", "field": "farmer",
                               "cloister": "monk"}

# How a figure stands on a feature of each type: "on the road", "in the city" (the default).
PREPOSITION: dict[str, str] = {"road": "on"}
BESIDE: set[str] = set()  # figure kinds that stand by their feature, not on it
DESCRIBERS: list[Describer] = []  # the families' words for their own segments of a tile

# How each segment type is drawn (``geometry``, ``art``): an area hugging the sides it covers,
# a line from the middle of each side it reaches, the ground under everything.
AREA_TYPES: set[str] = {"city"}
LINE_TYPES: set[str] = {"road"}
GROUND_TYPES: set[str] = {"field"}
MIDDLE_TYPES: set[str] = {"cloister"}  # touching no side: drawn in the middle of the tile

# Segment types drawn as a pool in the middle of the tile, each with the line type that ends
# in it; the colours of the terrain (``art``), a ``-edge`` for the outline of a type.
POOLS: dict[str, str] = {}
COLOURS: dict[str, str] = {"field": "#8dbb4c", "city": "#d3ad6f", "wall": "#7b5a2e",
                           "road": "#f4f0e2", "road-edge": "#7c7a70", "grid": "#57583f",
                           "unknown": "#b9b2a3"}

# Symbols (``icons``) a segment's attributes stand for, in the order they are drawn; the counted
# ones are drawn as many times as the attribute counts (up to 4); the tile's flags drawn so.
SYMBOLS: list[str] = ["pennants", "cathedral", "inn"]
COUNTED: set[str] = {"pennants"}
FLAGS: list[str] = ["hill", "vineyard"]
# Segment attributes of a line feeding a pool that make it start on the tile (a source), away
# from the pool: drawn there as a round mark in the colour of that name (with its ``-edge``).
SOURCES: list[str] = []


class FigureShape(NamedTuple):
    """How a family's own figure kind is drawn (``drawing``): a path centred on (0, 0) in tile
    units, left unfilled so that the figure takes its player's colour, and where its seat's
    mark sits on it (``mark_dy`` below the centre, at ``mark_size``)."""

    d: str
    mark_dy: float = 0.0
    mark_size: float = 13.0
    fill_rule: str | None = None


# The figure kinds of a family drawn as a shape of their own, beside the followers that every
# tile family shares; a picture defines the shapes of its game's figure kinds.
FIGURES: dict[str, FigureShape] = {}


def register(*, roles: Mapping[str, str | None] | None = None,
             prepositions: Mapping[str, str] | None = None, beside: Iterable[str] = (),
             describe: Describer | None = None, areas: Iterable[str] = (),
             lines: Iterable[str] = (), grounds: Iterable[str] = (), middles: Iterable[str] = (),
             pools: Mapping[str, str] | None = None, colours: Mapping[str, str] | None = None,
             symbols: Iterable[str] = (), counted: Iterable[str] = (), flags: Iterable[str] = (),
             sources: Iterable[str] = (), icons: Mapping[str, str] | None = None,
             icon_scale: Mapping[str, float] | None = None,
             figures: Mapping[str, FigureShape] | None = None) -> None:
    """Add a family's features: ``roles`` (segment type → what a follower there is called),
    ``prepositions`` (how a figure stands on a segment type), the figure kinds that stand
    ``beside`` their feature, ``describe`` (its words for its own segments of a tile),
    the segment types drawn as ``areas``, ``lines``, ``grounds``, ``middles`` and ``pools``
    (pool type → the line type ending in it), the terrain's ``colours``, the segment
    attributes drawn as ``symbols`` (after those known, in order; the ``counted`` ones once per
    unit), the tile's ``flags`` drawn as symbols, the attributes of a line that starts at a
    source on the tile (``sources``, drawn in their ``colours``), the drawings of its symbols
    (``icons``, centred on (0, 0) in tile units, ``icon_scale`` when not 1.3) and of its own
    figure kinds (``figures``). Registering again changes nothing."""
    from . import icons as drawings

    ROLE.update(roles or {})
    PREPOSITION.update(prepositions or {})
    BESIDE.update(beside)
    if describe is not None and describe not in DESCRIBERS:
        DESCRIBERS.append(describe)
    AREA_TYPES.update(areas)
    LINE_TYPES.update(lines)
    GROUND_TYPES.update(grounds)
    MIDDLE_TYPES.update(middles)
    POOLS.update(pools or {})
    COLOURS.update(colours or {})
    SYMBOLS.extend(s for s in symbols if s not in SYMBOLS)
    COUNTED.update(counted)
    FLAGS.extend(f for f in flags if f not in FLAGS)
    SOURCES.extend(s for s in sources if s not in SOURCES)
    FIGURES.update(figures or {})
    drawings.ICONS.update(icons or {})
    drawings.ICON_SCALE.update(icon_scale or {})
