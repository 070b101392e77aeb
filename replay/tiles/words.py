"""Words for people: a tile type described (``a city cap with a road curve``), a location on a
tile (``to the north-west``), a figure put somewhere (``a knight in the city to the north``)
and a whole move (``describe_move``: an entry of the viewer's move list).

The codes (tile ids such as ``W``, half-side locations such as ``NL``) stay in the JSON of the
events and in tooltips; what a person reads is built here. A tile is told from its segment
types and attributes (tile data, like its art), so a new tile set needs no words of its own; what
a family adds to a turn (``TileView.turn_words``) it tells itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.events import article
from ..core.family import MoveText
from .kinds import BESIDE, DESCRIBERS, PREPOSITION

if TYPE_CHECKING:
    from ..core.events import Event
    from ..core.family import GameState
    from .events import FigurePlaced, Place
    from .tileset import Segment, TileType

# A half side (or a side) of a tile, as the direction it lies in from the tile's centre. "NL"
# is the left half of the north side seen from the centre: its western half.
DIRECTION = {
    "N": "north", "E": "east", "S": "south", "W": "west",
    "NL": "north-west", "NR": "north-east", "EL": "north-east", "ER": "south-east",
    "SL": "south-east", "SR": "south-west", "WL": "south-west", "WR": "north-west",
}


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 tile``, ``2 tiles``; ``words`` when the plural is not ``word + "s"``."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def count_word(n: int) -> str:
    """``one``, ``two`` ... (digits above eight)."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def where(location: str) -> str:
    """A location of a tile in words: ``to the north-west`` (half sides), ``in the middle``
    for a named place (a cloister...), the code itself when it is unknown."""
    direction = DIRECTION.get(location)
    if direction is not None:
        return f"to the {direction}"
    return "in the middle"


def where_code(location: str) -> str:
    """A location in words with its code after, for messages: ``to the north-west (NL)``,
    ``in the middle (cloister)``."""
    return f"{where(location)} ({location})"


def on_feature(feature: str, location: str, kind: str = "") -> str:
    """Where a figure stands: ``in the city to the north``, ``on the road``, ``in the
    cloister`` (``kinds.PREPOSITION``; a figure of ``kinds.BESIDE`` stands by its feature)."""
    prep = "by" if kind in BESIDE else PREPOSITION.get(feature, "in")
    if location in DIRECTION:
        return f"{prep} the {feature} {where(location)}"
    return f"{prep} the {feature}"


def figure_words(kind: str, role: str | None) -> str:
    """A figure as people call it: ``knight``, ``knight (large follower)``, ``shepherd``."""
    label = kind.replace("-", " ")
    if kind == "follower" and role:
        return role
    if role and role != kind:
        return f"{role} ({label})"
    return label


# --------------------------------------------------------------------------- tiles

_CITY_SHAPES = {1: "city cap", 2: "city", 3: "three-sided city", 4: "city on every side"}


def describe_tile(segments: tuple[Segment, ...], open_sides: tuple[int, ...], edges: str, *,
                  hill: bool = False, flags: Sequence[str] = (), bonus: bool = False) -> str:
    """A tile type in a few words, from its segments: ``a city cap with a road curve``,
    ``a cloister with a road``; a family's own segments told by its ``kinds.DESCRIBERS``
    after ``;``, the tile's ``flags`` (``vineyard``...) after ``with``."""
    by_type: dict[str, list[Segment]] = {}
    for seg in segments:
        by_type.setdefault(seg.type, []).append(seg)
    base = _built_parts(by_type, open_sides, edges)
    land = [part for tell in DESCRIBERS for part in tell(by_type)]
    texts = []
    if base:
        texts.append(base[0] if len(base) == 1
                     else base[0] + " with " + " and ".join(base[1:]))
    if land:
        texts.append(", ".join(land[:-1]) + " and " + land[-1] if len(land) > 1 else land[0])
    out = "; ".join(texts) or "a tile"
    extras = [article(flag) for flag in flags]
    if extras:
        out += (" and " if " with " in out else " with ") + " and ".join(extras)
    if hill:
        out += " on a hill"
    return ("a bonus tile: " if bonus else "") + out


def _built_parts(by_type: dict[str, list[Segment]], open_sides: tuple[int, ...],
                 edges: str) -> list[str]:
    """Cities, cloisters, roads and fields, with their pennants, cathedrals and inns."""
    parts: list[str] = []
    cities = by_type.get("city", [])
    if cities:
        if len(cities) > 1:
            parts.append(f"{count_word(len(cities))} city caps")
        else:
            c = cities[0]
            n = open_sides[c.index]
            shape = _CITY_SHAPES.get(n, "city")
            if n == 2:
                sides = [i for i, e in enumerate(edges) if e == "C"]
                shape = "city across the tile" if sides in ([0, 2], [1, 3]) else "city corner"
            parts.append(article(shape))
        pennants = sum(c.attr("pennants") for c in cities)
        if pennants:
            parts.append("a pennant" if pennants == 1 else f"{count_word(pennants)} pennants")
        if any(c.attr("cathedral") for c in cities):
            parts.append("a cathedral")
    if by_type.get("cloister"):
        parts.insert(0, "a cloister")
    roads = by_type.get("road", [])
    if roads:
        ends = [r for r in roads if open_sides[r.index] == 1]
        if len(roads) == 1 and open_sides[roads[0].index] == 2:
            sides = [i for i, e in enumerate(edges) if e == "R"]
            parts.append("a straight road" if sides in ([0, 2], [1, 3]) else "a road curve")
        elif len(ends) >= 3 and not by_type.get("cloister"):
            parts.append(f"a crossroads of {count_word(len(ends))} roads")
        elif len(roads) == 1:
            parts.append("a road")
        else:
            parts.append(f"{count_word(len(roads))} roads")
        if any(r.attr("inn") for r in roads):
            parts.append("an inn")
    if not parts and by_type.get("field"):
        parts.append("a field")
    return parts


# --------------------------------------------------------------------------- moves

def turned(degrees: int) -> str:
    """How a tile lies, in the same words in every message and menu: ``not turned``,
    ``turned 90°``."""
    return f"turned {degrees}°" if degrees else "not turned"


def describe_move(move: Any, events: Sequence[Event] | None, state: GameState,
                  more_words: Sequence[str] = (), more_codes: Sequence[str] = ()) -> MoveText:
    """A tile move told for people and in codes (``Family.describe_move``): the tile in words
    with where it went and how it was turned, then the figure put on it, then ``more_words``:
    what else the turn did, as its family tells it (``TileView.turn_words``), ``more_codes``
    in codes (``a city cap with a road at (0,1), turned 90° · knight in the city to the
    north``; in codes ``W (0,1) 90° follower N``). An illegal move (``events`` None) is told
    from the move, its tile from the move or else the tile ``state`` (where it was tried) has
    drawn."""
    tried = move if events is None else None  # an illegal move: what it tried
    land, figure = _placed(events or ())
    tile_id, words = _tile_told(move, land, tried, state)
    x, y, rotation = (getattr(move, k, 0) for k in ("x", "y", "rotation"))
    discard = getattr(move, "discard", False)
    head = _head(move, words)
    told = move_figure(tried, state) if tried is not None else figure_text(figure, None)
    extra = "; ".join(w for w in (told, ", ".join(more_words)) if w)
    text = head + (f" · {extra}" if extra else "")
    tile_code = ""
    if tile_id is not None:
        tile_code = f"discard {tile_id}" if discard else f"{tile_id} ({x},{y}) {rotation}°"
    codes = " ".join(c for c in (tile_code, figure_code(figure, tried),
                                 " ".join(c for c in more_codes if c)) if c)
    return MoveText(text, codes)


def _head(move: Any, words: str | None) -> str:
    """The tile of a move and where it went: ``a city cap at (0,1), turned 90°``."""
    if getattr(move, "discard", False):
        return f"discards {words or 'a tile'}"
    x, y, rotation = (getattr(move, k, 0) for k in ("x", "y", "rotation"))
    how = f", turned {rotation}°" if rotation else ""
    return f"{words or 'a tile'} at ({x},{y}){how}"


def tried_text(move: Any, state: GameState, figure: str | None) -> str:
    """``describe_move``'s text of a move not played whose figure is told already
    (``figure``: ``move_figure``'s words, None for none): the analysis board's options."""
    _, words = _tile_told(move, None, move, state)
    return _head(move, words) + (f" · {figure}" if figure else "")


def _placed(events: Sequence[Event]) -> tuple[Place | None, FigurePlaced | None]:
    """The tile a turn placed and the figure put on it: the first ``Place`` and the first
    figure after it, before a second tile of the turn (a ``Place`` with ``bonus``)."""
    from .events import FigurePlaced, Place

    land: Place | None = None
    figure: FigurePlaced | None = None
    for e in events:
        if isinstance(e, Place):
            if e.bonus:
                break
            if land is None:
                land = e
        elif isinstance(e, FigurePlaced) and figure is None:
            figure = e
    return land, figure


def _tile_told(move: Any, land: Place | None, tried: Any,
               state: GameState) -> tuple[str | None, str | None]:
    """The id of the tile a move played and its words: from its event, else from the move
    or (an illegal move that names none) the tile ``state`` has drawn."""
    if land is not None:
        return land.tile, land.words or None
    tile_id: str | None = getattr(move, "tile", None)
    if tile_id is None and tried is not None:
        tile_id = state.status().get("next_tile")
    tiles: dict[str, Any] = getattr(state, "tiles_by_id", {})
    found = tiles.get(tile_id) if tile_id else None
    words = str(found.words) if found is not None else f"tile {tile_id}" if tile_id else None
    return tile_id, words


def figure_text(event: FigurePlaced | None, move: Any, tile: TileType | None = None,
                rotation: int | None = None) -> str | None:
    """The figure of a move in words, as a player says it (``told_figure``: ``tile`` turned
    ``rotation`` is the tile it stands on) from its event; from the move's choice when it has
    none (``follower to the north-west``)."""
    if event is not None:
        return told_figure(event, tile, rotation)
    fig = getattr(move, "figure", None)
    if fig is None:
        return None
    return f"{fig.kind.replace('-', ' ')} {where(fig.location)}"


def told_figure(event: FigurePlaced, tile: TileType | None = None,
                rotation: int | None = None) -> str:
    """A figure put on ``tile`` (turned ``rotation`` degrees) as a player says it: ``farmer in
    the field``, ``thief on the road``, ``monk in the cloister``, ``shepherd in the field``,
    ``large follower: knight in the city``, a figure of ``kinds.BESIDE`` ``by`` its feature,
    ``... on the hill`` on a hill tile; the side only when the tile holds two features of that
    kind (``knight in the city to the north``, ``farmer in the field to the south and west``:
    ``feature_side``). The event says where in words (``place``, ``figure_place``); an event
    without it is told from ``tile``, else by the location's direction."""
    if event.place:
        place = event.place
    elif tile is not None:
        place = figure_place(tile, rotation, event.location, event.feature, event.kind)
    else:
        place = on_feature(event.feature, event.location, event.kind)
    label = event.kind.replace("-", " ")
    if event.role and event.role != event.kind:
        who = event.role if event.kind == "follower" else f"{label}: {event.role}"
    else:
        who = label
    return f"{who} {place}"


def figure_place(tile: TileType, rotation: int | None, location: str, feature: str,
                 kind: str) -> str:
    """Where a figure at ``location`` of ``tile`` turned ``rotation`` degrees stands, as
    ``told_figure`` says it: ``in the field``, ``on the road to the east``, ``in the city on
    the hill``."""
    place = _place_on(tile, rotation, location, feature, kind)
    return place + " on the hill" if tile.hill else place


# (id of the tile, rotation, location, feature, figure kind) -> (the tile, its words): the
# analysis board tells every legal move's figure twice (menu and text), the same few places
# of one tile; the tile is kept to tell a reused id apart
_PLACES: dict[tuple[int, int | None, str, str, str], tuple[TileType, str]] = {}
MAX_PLACES = 20_000


def _place_on(tile: TileType, rotation: int | None, location: str, feature: str,
              kind: str) -> str:
    """Where a figure stands on ``tile`` (``told_figure``), worked out once per place."""
    key = (id(tile), rotation, location, feature, kind)
    hit = _PLACES.get(key)
    if hit is not None and hit[0] is tile:
        return hit[1]
    alone = sum(s.type == feature for s in tile.segments) == 1
    if rotation is None or alone:
        place = on_feature(feature, "" if alone else location, kind)
    else:
        side = feature_side(tile, rotation, location)
        place = on_feature(feature, "", kind) + (f" {side}" if side else "")
    if len(_PLACES) >= MAX_PLACES:
        _PLACES.clear()
    _PLACES[key] = (tile, place)
    return place


def feature_side(tile: TileType, rotation: int, location: str) -> str:
    """Where the feature at ``location`` of ``tile`` turned ``rotation`` lies, as a player
    points at it: the whole sides it covers (``to the west``, ``to the south and west``), else
    the direction of the location (``to the north-west``: a field in a corner, a road's
    side); "" for a named place (a cloister)."""
    if location not in DIRECTION:
        return ""
    rot = tile.rotations[rotation // 90 % 4]
    index = rot.locations.get(location)
    whole = [word for s, word in enumerate(("north", "east", "south", "west"))
             if index is not None and all(rot.pos[3 * s + j] == index for j in range(3))]
    return f"to the {and_list(whole)}" if whole else where(location)


def move_figure(move: Any, state: GameState, tile: TileType | None = None) -> str | None:
    """The figure of a move not played (a legal move of the analysis board, an illegal one)
    told as it would be once played: from the event the state would make
    (``Figures.figure_event``) on ``tile`` (the move's own, else the one drawn); from the
    move's choice when the state cannot tell (``figure_text``)."""
    fig = getattr(move, "figure", None)
    if fig is None:
        return None
    tiles: dict[str, Any] = getattr(state, "tiles_by_id", {})
    if tile is None:
        tile_id = getattr(move, "tile", None)
        tile = tiles.get(tile_id) if tile_id else getattr(state, "current", None)
    make = getattr(state, "figure_event", None)
    rotation = getattr(move, "rotation", 0)
    if tile is None or make is None or rotation not in (0, 90, 180, 270):
        return figure_text(None, move)
    event = make(tile, (getattr(move, "x", 0), getattr(move, "y", 0)), rotation // 90, fig)
    return figure_text(event, move, tile, rotation)


def figure_code(event: FigurePlaced | None, move: Any) -> str | None:
    """The figure of a move in the log's codes: ``follower NL``."""
    if event is not None:
        return f"{event.kind} {event.location}"
    fig = getattr(move, "figure", None)
    return None if fig is None else f"{fig.kind} {fig.location}"
