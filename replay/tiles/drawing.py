"""Boards of the tile-laying families as SVG: a pure function of a state, like python-chess's
``chess.svg``.

``board(state, events=...)`` draws a ``TileState``: the tiles (drawn from the tile data by
``art``), their symbols, the figures in player colours, the last tile outlined and the features
scored by ``events`` emphasized with their points. A ``Failure`` (an illegal move) is drawn in
red over the board with its rule and reason; notes (wrong claims, L2) are written above it.

Colours are attributes, so the file stands alone; CSS classes name the layers (``tile``, ``last``,
``scored``, ``figure``, ``returned``, ``ghost``, ``popup``, ``banner``). The picture fits its
viewBox to the board, whatever its extent, and scales to any size.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.colours import MARK_STYLE, NOBODY, PLAYER_COLOURS, player_colour, seat_marks, text_on
from ..core.events import Event, Score
from ..core.playback import Failure
from ..core.svgtext import element, esc, open_tag, wrap
from ..core.svgtext import num as _f
from .art import SIZE, Point, TileArt, rotate_point, svg_id, tile_art
from .events import FigureReturned, Place
from .features import Feature
from .icons import CROOK, MEEPLE, SHEEP, icon_def
from .kinds import FIGURES, GROUND_TYPES, ROLE
from .overlays import banner as banner_of
from .overlays import grown, spots_svg
from .state import Placement, TileState
from .tileset import TileType
from .words import figure_words, on_feature, turned

Game = TileState

TABLE = "#ebe5d5"
LAST = "#ff7a00"
SCORED = "#ffd21f"
FAIL = "#c62828"
NOTE = "#8a5a00"
MARGIN = 25.0
MIN_CELLS = 3  # the view shows at least 3 x 3 cells, so the first moves are not huge
GHOST_REACH = 6  # an illegal placement farther than this from the board is only named
FOLLOWERS = ("follower", "large-follower")
# Score events whose "feature" is not a segment type: the segment types they may name.
FEATURE_ALIASES = {"farm": ("city", "field"), "flock": ("field",)}


def _outline(fill: str) -> str:
    return "#f2f2f2" if fill == PLAYER_COLOURS["black"] else "#1b1b1b"


def failed_tile(game: Game, move: Any) -> TileType | None:
    """The tile an illegal move tried to place, when it is known."""
    named = game.tiles_by_id.get(move.tile) if move.tile is not None else None
    return named or game.current


# --------------------------------------------------------------------------- the board

class _Board:
    """Collects the defs a picture uses while its layers are drawn."""

    def __init__(self, game: Game, prefix: str) -> None:
        self.game = game
        self.prefix = prefix
        self.tiles: dict[str, TileArt] = {}
        self.refs: dict[str, tuple[str, TileArt]] = {}  # tile id -> (its def's id, its art)
        self.icons: set[str] = set()
        # the family figure kinds whose shapes it defines: its game's, and any it draws
        self.shapes = {kind for kind in game.figure_kinds if kind in FIGURES}
        self.firsts = [p.first_node for p in game.placements]
        self.marks = seat_marks(p.name for p in game.players)

    def tile_ref(self, tile: TileType) -> tuple[str, TileArt]:
        ref = self.refs.get(tile.id)
        if ref is None:
            sid = f"{self.prefix}t-{svg_id(tile.id)}"
            art = self.tiles.get(sid)
            if art is None:
                art = tile_art(tile)
                self.tiles[sid] = art
            ref = self.refs[tile.id] = (sid, art)
        return ref

    def icon(self, name: str) -> str:
        self.icons.add(name)
        return f"{self.prefix}i-{name}"

    def node(self, node: int) -> tuple[Placement, int]:
        k = bisect.bisect_right(self.firsts, node) - 1
        p = self.game.placements[k]
        return p, node - p.first_node

    def point(self, placement: Placement, seg: int) -> Point:
        _, art = self.tile_ref(placement.tile)
        x, y = rotate_point(art.anchors[seg], placement.rot)
        return (placement.cell[0] * SIZE + x, placement.cell[1] * SIZE + y)

    def defs(self) -> str:
        out = [wrap("g", art.terrain, id=sid) for sid, art in self.tiles.items()]
        out.extend(icon_def(self.prefix, name) for name in sorted(self.icons))
        out.append(element("path", id=f"{self.prefix}meeple", d=MEEPLE))
        out.extend(element("path", id=f"{self.prefix}{kind}", d=shape.d, fill_rule=shape.fill_rule)
                   for kind, shape in FIGURES.items() if kind in self.shapes)
        out.append(wrap("g", SHEEP, id=f"{self.prefix}sheep"))
        return wrap("defs", *out, MARK_STYLE)


def _transform(x: int, y: int, rot: int) -> str:
    tr = f"translate({_f(x * SIZE)},{_f(y * SIZE)})"
    return tr + (f" rotate({90 * rot} 50 50)" if rot else "")


def board(game: Game, *, events: Sequence[Event] = (), failure: Failure | None = None,
          notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-",
          spots: Mapping[str, str] | None = None, spot_names: Mapping[str, str] | None = None,
          linked: bool = False, ghost: Sequence[Any] = ()) -> str:
    """An SVG picture of ``game``.

    ``events`` are the events of the move just played: its placements are outlined, the
    features its score events name are emphasized with their points, and figures that went
    back to their supply are shown faded where they stood. ``failure`` draws an illegal move
    over the board; ``notes`` are written above it. ``size`` sets the width in pixels (the
    default lets the picture fill its container); ``prefix`` makes the ids of the picture
    unique when a page holds several. ``spots`` (cell "x,y" -> "legal" or "illegal") are
    drawn as targets named by ``spot_names``, the view grown to hold them; ``linked`` puts
    each scored feature in a layer of its own in its scorer's colour and names it and its
    badges by their event (``replay.core.view.View.board``). ``ghost`` are the analysis
    board's options (``replay.core.explore.Option``): the tile they place is drawn on each of
    their cells, turned as each turns it, hidden until the page shows one (``previews``).
    """
    b = _Board(game, prefix)
    cells = list(game.board)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    failed_at: tuple[int, int] | None = None
    banner: list[tuple[str, str]] = []
    tile = failed_tile(game, failure.move) if failure is not None else None
    if failure is not None:
        banner.append((FAIL, failure.text()))
        gx, gy = failure.move.x, failure.move.y
        if tile is not None and not failure.move.discard:
            if (min(xs) - GHOST_REACH <= gx <= max(xs) + GHOST_REACH
                    and min(ys) - GHOST_REACH <= gy <= max(ys) + GHOST_REACH):
                failed_at = (gx, gy)
                xs.append(gx)
                ys.append(gy)
            else:
                banner.append((FAIL, f"(the tile, {tile.words}, was placed at ({gx},{gy}), "
                                     f"far off the board)"))
    banner.extend((NOTE, note) for note in notes)
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if x1 - x0 + 1 < MIN_CELLS:
        pad = MIN_CELLS - (x1 - x0 + 1)
        x0, x1 = x0 - pad // 2, x1 + pad - pad // 2
    if y1 - y0 + 1 < MIN_CELLS:
        pad = MIN_CELLS - (y1 - y0 + 1)
        y0, y1 = y0 - pad // 2, y1 + pad - pad // 2
    vx, vy = x0 * SIZE - MARGIN, y0 * SIZE - MARGIN
    vw, vh = (x1 - x0 + 1) * SIZE + 2 * MARGIN, (y1 - y0 + 1) * SIZE + 2 * MARGIN
    banner_svg = ""
    if banner:
        bh = banner_of(banner, vx, 0.0, vw)[1]
        vy -= bh
        vh += bh
        banner_svg = banner_of(banner, vx, vy, vw)[0]
    if spots:
        vx, vy, vw, vh = grown(vx, vy, vw, vh, spots)

    layers = [element("rect", class_="table", x=_f(vx), y=_f(vy), width=_f(vw), height=_f(vh),
                      fill=TABLE)]
    layers.append(_tiles(b))
    layers.append(_symbols(b))
    layers.append(_linked(b, events) if linked else _emphasis(b, events))
    layers.append(_last(events))
    layers.append(_figures(b))
    layers.append(_returned(b, events))
    if failed_at is not None and failure is not None and tile is not None:
        layers.append(_ghost(b, failure, tile, failed_at))
    layers.append(_popups(b, events, linked))
    layers.append(banner_svg)
    if spots:
        layers.append(spots_svg(spots, spot_names or {}))
    if ghost:
        layers.append(previews(b, ghost))
    head = open_tag("svg", xmlns="http://www.w3.org/2000/svg", class_="carcassonne-board",
                    viewBox=f"{_f(vx)} {_f(vy)} {_f(vw)} {_f(vh)}", width=size,
                    height=None if size is None else round(size * vh / vw),
                    font_family="DejaVu Sans, Verdana, sans-serif")
    return head + b.defs() + "".join(layers) + "</svg>\n"


def _tiles(b: _Board) -> str:
    out = []
    for p in b.game.placements:
        sid, _ = b.tile_ref(p.tile)
        x, y = p.cell
        title = f"{p.tile.words} at ({x},{y}), {turned(90 * p.rot)} (tile {p.tile.id})"
        out.append(wrap("use", element("title", title), class_="tile", href=f"#{sid}",
                        transform=_transform(x, y, p.rot)))
    return wrap("g", *out, class_="tiles")


def _symbols(b: _Board) -> str:
    out = []
    for p in b.game.placements:
        _, art = b.tile_ref(p.tile)
        for name, pt in art.icons:
            x, y = rotate_point(pt, p.rot)
            out.append(element("use", href=f"#{b.icon(name)}", x=_f(p.cell[0] * SIZE + x),
                               y=_f(p.cell[1] * SIZE + y)))
    return wrap("g", *out, class_="symbols")


def _feature_index(game: Game) -> dict[tuple[str, frozenset[tuple[int, int]]], list[Feature]]:
    index: dict[tuple[str, frozenset[tuple[int, int]]], list[Feature]] = {}
    for feat in game.features():
        key = (feat.type, frozenset(game.placements[t].cell for t in feat.tiles))
        index.setdefault(key, []).append(feat)
    return index


def _scored(b: _Board, events: Sequence[Event]) -> list[tuple[Score, list[Feature]]]:
    """Score events with the feature they name (by its id; by type and cells for an event
    without one)."""
    out: list[tuple[Score, list[Feature]]] = []
    index: dict[tuple[str, frozenset[tuple[int, int]]], list[Feature]] | None = None
    graph = b.game.graph
    for ev in events:
        if not isinstance(ev, Score):
            continue
        kinds = FEATURE_ALIASES.get(ev.feature, (ev.feature,))
        if ev.feature_id is not None and 0 <= ev.feature_id < len(graph.parent):
            named = graph.of(ev.feature_id)
            if named.type in kinds:
                out.append((ev, [named]))
                continue
        if index is None:
            index = _feature_index(b.game)
        cells = frozenset((int(c[0]), int(c[1])) for c in ev.cells if len(c) == 2)
        feats = [f for k in kinds for f in index.get((k, cells), [])]
        out.append((ev, feats))
    return out


def _shapes(b: _Board, ev: Score, feats: list[Feature]) -> list[str]:
    """The shapes that emphasize the feature ``ev`` scored (its cells when it is not found)."""
    kind = f"scored-{ev.feature}"
    if not feats:
        return [element("rect", class_=kind, x=_f(c[0] * SIZE + 3), y=_f(c[1] * SIZE + 3),
                        width="94", height="94") for c in ev.cells if len(c) == 2]
    out: list[str] = []
    for feat in feats:
        for node in sorted(feat.nodes):
            placement, seg = b.node(node)
            _, art = b.tile_ref(placement.tile)
            shape = art.emphasis[seg] if seg < len(art.emphasis) else ""
            if shape:
                x, y = placement.cell
                out.append(wrap("g", shape, class_=kind,
                                transform=_transform(x, y, placement.rot)))
    return out


def _emphasis(b: _Board, events: Sequence[Event]) -> str:
    """The features scored by ``events`` in one yellow layer."""
    scored = _scored(b, events)
    if not scored:
        return ""
    out = [shape for ev, feats in scored for shape in _shapes(b, ev, feats)]
    return wrap("g", *out, class_="scored", fill=SCORED, fill_opacity=".45", stroke=SCORED,
                stroke_opacity=".9", stroke_width="4", stroke_linejoin="round")


def _linked(b: _Board, events: Sequence[Event]) -> str:
    """Each feature scored by ``events`` in a layer of its own, tinted in its scorer's colour
    (grey for nobody) and named by its event's index (``<g class="hl" data-ev="i">``)."""
    scored = _scored(b, events)
    if not scored:
        return ""
    index = [i for i, e in enumerate(events) if isinstance(e, Score)]
    players = b.game.players
    layers: list[str] = []
    for i, (ev, feats) in zip(index, scored, strict=True):
        won = [w for w in ev.winners if 0 <= w < len(players)]
        fills = [player_colour(players[w].colour) for w in won] or [NOBODY]
        layers.append(wrap("g", *_shapes(b, ev, feats), class_=f"hl hl-{ev.phase}", data_ev=i,
                           fill=fills[0], stroke=fills[-1], stroke_width="4",
                           stroke_linejoin="round"))
    return wrap("g", *layers, class_="scored")


def _last(events: Sequence[Event]) -> str:
    return "".join(element("rect", class_="last", x=_f(ev.x * SIZE + 2.5),
                           y=_f(ev.y * SIZE + 2.5), width="95", height="95", fill="none",
                           stroke=LAST, stroke_width="5")
                   for ev in events if isinstance(ev, Place))


def _figure_svg(b: _Board, kind: str, colour: str, x: float, y: float, lying: bool,
                title: str, extra: str = "", mark: str = "") -> str:
    """A figure in its player's colour, with its seat's ``mark`` on it (``seat_marks``)."""
    fill = player_colour(colour)
    line = _outline(fill)
    tr = f"translate({_f(x)},{_f(y)})"
    tip = element("title", title)
    if kind in FOLLOWERS:
        big = 1.35 if kind == "large-follower" else 1.0
        scale = " scale(1.35)" if kind == "large-follower" else ""
        turn = " rotate(-90)" if lying else ""
        # the trunk's centre: below the anchor, or beside it when lying
        drop = (3.4 if lying else 2.6) * big
        return wrap("use", tip, class_=f"figure {kind}{' lying' if lying else ''}{extra}",
                    href=f"#{b.prefix}meeple", transform=f"{tr}{turn}{scale} scale(1.6)",
                    fill=fill, stroke=line, stroke_width="1.2") \
            + _mark(mark, x + drop * lying, y + drop * (not lying), 13 * big, fill)
    shape = FIGURES.get(kind)
    if shape is not None:  # a family's own figure (``kinds.FIGURES``)
        b.shapes.add(kind)
        return wrap("use", tip, class_=f"figure {kind}{extra}", href=f"#{b.prefix}{kind}",
                    transform=f"{tr} scale(1.6)", fill=fill, stroke=line, stroke_width="1.2") \
            + _mark(mark, x, y + shape.mark_dy, shape.mark_size, fill)
    if kind == "shepherd":
        return wrap("g", tip, element("use", href=f"#{b.prefix}meeple", fill=fill, stroke=line,
                                      stroke_width="1.2"),
                    element("path", d=CROOK, fill="none", stroke="#5b3a1a", stroke_width="1.8"),
                    class_=f"figure shepherd{extra}", transform=f"{tr} scale(1.6)") \
            + _mark(mark, x, y + 2.6, 13, fill)
    return wrap("circle", tip, class_=f"figure other{extra}", cx=_f(x), cy=_f(y), r="8",
                fill=fill, stroke=line, stroke_width="1.5") + _mark(mark, x, y, 11, fill)


# what every seat's mark shares, set once on the group of the figures it marks
MARKED = {"font_size": "13", "font_weight": "bold", "text_anchor": "middle"}


def _mark(mark: str, x: float, y: float, size: float, fill: str) -> str:
    """A seat's mark centred on (``x``, ``y``) of a figure of colour ``fill`` (in a group
    with the attributes ``MARKED``)."""
    if not mark:
        return ""
    return element("text", mark, class_="mark", x=_f(x), y=_f(y + size * 0.36),
                   font_size=None if size == 13 else _f(size), fill=text_on(fill))


def _figures(b: _Board) -> str:
    game = b.game
    out = []
    seen: dict[tuple[int, int], int] = {}
    for fig in game.figures_on_board():
        placement = game.board.get(fig.cell)
        if placement is None:
            continue
        seg = fig.node - placement.first_node
        x, y = b.point(placement, seg)
        key = (round(x), round(y))
        k = seen.get(key, 0)
        seen[key] = k + 1
        x, y = x + 9 * k, y + 7 * k
        seg_type = placement.tile.segments[seg].type
        player = game.players[fig.player]
        role = ROLE.get(seg_type) if fig.kind in FOLLOWERS else None
        title = (f"{player.name}: {figure_words(fig.kind, role)} "
                 f"{on_feature(seg_type, fig.location, fig.kind)} of the tile at "
                 f"({fig.cell[0]},{fig.cell[1]}) ({fig.location})")
        lying = seg_type in GROUND_TYPES and fig.kind in FOLLOWERS
        out.append(_figure_svg(b, fig.kind, player.colour, x, y, lying, title,
                               mark=b.marks[fig.player]))
        if fig.kind == "shepherd":
            sheep = _flock(game, fig.node)
            if sheep:
                out.append(wrap(
                    "g", element("title", f"{sheep} sheep"),
                    element("use", href=f"#{b.prefix}sheep", transform="scale(1.6)"),
                    element("text", f"×{sheep}", x="15", y="6", font_size="15",
                            text_anchor="start", fill="#1b1b1b", stroke="#ffffff",
                            stroke_width="3", paint_order="stroke"),
                    class_="flock", transform=f"translate({_f(x + 24)},{_f(y + 6)})"))
    return wrap("g", *out, class_="figures", **MARKED)


def _flock(game: Game, node: int) -> int:
    """Sheep in the flock of a shepherd's field: the sheep tokens an expansion put on its
    feature."""
    tokens = getattr(game.graph.of(node), "tokens", ())
    return sum(int(t[1]) for t in tokens if isinstance(t, tuple) and len(t) == 2)


def _returned(b: _Board, events: Sequence[Event]) -> str:
    out = []
    game = b.game
    for ev in events:
        if not isinstance(ev, FigureReturned):
            continue
        placement = game.board.get((ev.x, ev.y))
        player = ev.player
        if placement is None or player >= len(game.players):
            continue
        rot = placement.tile.rotations[placement.rot]
        seg = rot.locations.get(ev.location)
        if seg is None:
            continue
        x, y = b.point(placement, seg)
        kind = ev.kind
        seg_type = placement.tile.segments[seg].type
        p = game.players[player]
        lying = seg_type in GROUND_TYPES and kind in FOLLOWERS
        out.append(_figure_svg(b, kind, p.colour, x, y, lying,
                               f"{p.name}: {kind.replace('-', ' ')} went back to the supply "
                               f"({ev.location})",
                               " returned", b.marks[player]))
    if not out:
        return ""
    return wrap("g", *out, class_="returned", opacity=".5", stroke_dasharray="2 1.5", **MARKED)


def _ghost(b: _Board, failure: Failure, tile: TileType, cell: tuple[int, int]) -> str:
    move = failure.move
    q = (move.rotation // 90) % 4
    sid, art = b.tile_ref(tile)
    x, y = cell
    out = [wrap("use", element("title", f"illegal: tile {tile.id} at ({x},{y}), "
                                        f"{turned(move.rotation)}"),
                href=f"#{sid}", transform=_transform(x, y, q), opacity=".6")]
    out.append(element("rect", x=_f(x * SIZE + 2), y=_f(y * SIZE + 2), width="96", height="96",
                       fill=FAIL, fill_opacity=".15", stroke=FAIL, stroke_width="5",
                       stroke_dasharray="10 6"))
    cx, cy = x * SIZE + 84, y * SIZE + 16
    out.append(element("circle", cx=_f(cx), cy=_f(cy), r="11", fill=FAIL, stroke="#fff",
                       stroke_width="2"))
    out.append(element("path", d=f"M{_f(cx - 5)},{_f(cy - 5)}l10,10m0,-10l-10,10",
                       stroke="#fff", stroke_width="3"))
    if move.figure is not None:
        seg = tile.rotations[q].locations.get(move.figure.location)
        if seg is not None:
            px, py = rotate_point(art.anchors[seg], q)
            seat = next((i for i, p in enumerate(b.game.players) if p.name == failure.player),
                        None)
            colour = b.game.players[seat].colour if seat is not None else "grey"
            seg_type = tile.segments[seg].type
            out.append(_figure_svg(b, move.figure.kind, colour, x * SIZE + px, y * SIZE + py,
                                   seg_type in GROUND_TYPES and move.figure.kind in FOLLOWERS,
                                   f"the illegal {move.figure.kind.replace('-', ' ')} "
                                   f"{on_feature(seg_type, move.figure.location)} "
                                   f"({move.figure.location})", " ghost-figure",
                                   b.marks[seat] if seat is not None else ""))
    return wrap("g", *out, class_="ghost", **MARKED)


def previews(b: _Board, options: Sequence[Any]) -> str:
    """The analysis board's ghosts: for each cell and turn at which ``options`` (the
    ``Option`` s of a position) place the tile, a group ``g.preview`` (``data-spot`` its cell,
    ``data-label`` its turn in words, ``data-options`` the indexes of the options that put no
    figure) holding the tile turned so and a target ``g.target`` on each feature a figure may
    go to (``data-options``: its options, every kind of figure; named by the first one's
    figure words, the menu's second step), with each kind of figure drawn there in the mover's
    colour (``g.preview-figure``, its ``data-options``), shown when its option is chosen. The
    page shows one group at a time (``web/static/ghost.js``).

    An explored page of a 6-player game holds a few hundred options: each is read from the
    move as the log records it (``Option.move``) and written with one format string."""
    game = b.game
    seat = game.current_player
    colour = game.players[seat].colour if seat is not None else "grey"
    fill = player_colour(colour)
    figures = _FigureMarks(b, b.marks[seat] if seat is not None else "", text_on(fill))
    # (cell, turn, tile) -> location ("" for no figure) -> kind -> option indexes
    groups: dict[tuple[str, int, str], dict[str, dict[str, list[int]]]] = {}
    words: dict[tuple[str, int, str, str], str] = {}  # the first option's figure words
    current = game.current.id if game.current is not None else None
    for o in options:
        raw = o.move
        tile_id = raw.get("tile", current)
        if not o.spot or tile_id not in game.tiles_by_id or "rotation" not in raw:
            continue
        fig = raw.get("figure")
        where, kind = ("", "") if fig is None else (fig["at"], fig.get("kind", "follower"))
        key = (o.spot, raw["rotation"] // 90 % 4, tile_id)
        groups.setdefault(key, {}).setdefault(where, {}).setdefault(kind, []).append(o.index)
        words.setdefault((*key, where), o.steps[1] if len(o.steps) > 1 else o.text)
    out = []
    for (spot, q, tile_id), targets in sorted(groups.items()):
        tile = game.tiles_by_id[tile_id]
        sid, art = b.tile_ref(tile)
        x, y = (int(v) for v in spot.split(","))
        plain = " ".join(str(k) for kind in targets.get("", {}).values() for k in kind)
        turn = f' transform="rotate({90 * q} 50 50)"' if q else ""
        parts = [f'<g class="preview" data-spot="{spot}" data-label="{turned(90 * q)}" '
                 f'data-options="{plain}" transform="translate({_f(x * SIZE)},{_f(y * SIZE)})">'
                 f'<use class="preview-tile" href="#{sid}"{turn}/>']
        for location, kinds in sorted(targets.items()):
            seg = tile.rotations[q].locations.get(location)
            if not location or seg is None:
                continue
            px, py = rotate_point(art.anchors[seg], q)
            lying = tile.segments[seg].type in GROUND_TYPES
            found = " ".join(str(k) for kind in kinds.values() for k in kind)
            parts.append(
                f'<g class="target" data-options="{found}" role="button" '
                f'aria-label="{esc(words[spot, q, tile_id, location])}" '
                f'transform="translate({_f(px)},{_f(py)})"><circle r="13"/>'
                + "".join(f'<g class="preview-figure" data-options="{" ".join(map(str, ks))}">'
                          f'{figures.of(kind, lying and kind in FOLLOWERS)}</g>'
                          for kind, ks in kinds.items())
                + "</g>")
        parts.append("</g>")
        out.append("".join(parts))
    return wrap("g", *out, class_="previews", fill=fill, stroke=_outline(fill),
                stroke_width="1.2", **MARKED)


class _FigureMarks:
    """The figures of the ghosts (``previews``), each kind drawn once at the origin:
    ``_figure_svg``'s shapes with the seat's ``mark``, their colours their group's."""

    def __init__(self, b: _Board, mark: str, ink: str) -> None:
        self.b = b
        self.text = (element("text", mark, y="4.7", fill=ink, stroke="none") if mark else "")
        self.made: dict[tuple[str, bool], str] = {}

    def of(self, kind: str, lying: bool) -> str:
        found = self.made.get((kind, lying))
        if found is None:
            found = self.made[kind, lying] = self._draw(kind, lying) + self.text
        return found

    def _draw(self, kind: str, lying: bool) -> str:
        prefix = self.b.prefix
        if kind in FOLLOWERS:
            big = " scale(1.35)" if kind == "large-follower" else ""
            return element("use", href=f"#{prefix}meeple",
                           transform=f"{'rotate(-90) ' if lying else ''}{big} scale(1.6)".strip())
        if kind in FIGURES:  # a family's own figure (``kinds.FIGURES``)
            self.b.shapes.add(kind)
            return element("use", href=f"#{prefix}{kind}", transform="scale(1.6)")
        if kind == "shepherd":
            return element("use", href=f"#{prefix}meeple", transform="scale(1.6)")
        return element("circle", r="8")


def _popups(b: _Board, events: Sequence[Event], linked: bool = False) -> str:
    """The "+N" badges of the points scored, named by their event and seat when ``linked``."""
    scored = _scored(b, events)
    index = [i for i, e in enumerate(events) if isinstance(e, Score)]
    if not scored:
        return ""
    game = b.game
    placed = {(ev.x, ev.y) for ev in events if isinstance(ev, Place)}
    used: dict[tuple[int, int], int] = {}
    out = []
    for i, (ev, feats) in zip(index, scored, strict=True):
        winners = [w for w in ev.winners if 0 <= w < len(game.players)]
        points = ev.points
        if not winners or not points:
            continue
        if feats:
            nodes = sorted(n for f in feats for n in f.nodes)
            near = [n for n in nodes if b.node(n)[0].cell in placed]
            placement, seg = b.node((near or nodes)[0])
            x, y = b.point(placement, seg)
        else:
            c = ev.cells[0] if ev.cells else [0, 0]
            x, y = c[0] * SIZE + 50, c[1] * SIZE + 50
        key = (round(x / 20), round(y / 20))
        k = used.get(key, 0)
        used[key] = k + 1
        y -= 18 + 22 * k
        width = 14 + 9 * len(f"{b.marks[winners[0]]} +{points}")
        for j, w in enumerate(winners):
            fill = player_colour(game.players[w].colour)
            bx = x + (j - (len(winners) - 1) / 2) * (width + 3)
            out.append(wrap("g", element("rect", x=_f(-width / 2), y="-10", width=_f(width),
                                         height="20", rx="6", fill=fill, stroke="#fff",
                                         stroke_width="2"),
                            element("text", f"{b.marks[w]} +{points}", y="5", font_size="14",
                                    fill=text_on(fill)),
                            class_="popup", data_ev=i if linked else None,
                            data_seat=w if linked else None,
                            transform=f"translate({_f(bx)},{_f(y)})"))
    return wrap("g", *out, class_="popups", font_weight="bold", text_anchor="middle")
