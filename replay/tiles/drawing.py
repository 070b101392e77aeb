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
from collections.abc import Sequence
from typing import Any

from ..core.colours import PLAYER_COLOURS, player_colour, text_on
from ..core.events import Event, Score
from ..core.playback import Failure
from ..core.svgtext import esc as _esc
from ..core.svgtext import num as _f
from .art import SIZE, Point, TileArt, rotate_point, tile_art
from .events import FigureReturned, Place
from .features import Feature
from .icons import CROOK, HUT, ICONS, MEEPLE, SHEEP
from .state import Placement, TileState
from .tileset import ROLE, TileType
from .words import figure_words, on_feature

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
ICON_SCALE = {"pennants": 1.6, "cloister": 1.2, "cathedral": 1.2, "deer": 1.4, "mammoth": 1.4,
              "aurochs": 1.4, "tiger": 1.4}
LYING = frozenset({"field", "meadow"})


def _outline(fill: str) -> str:
    return "#f2f2f2" if fill == PLAYER_COLOURS["black"] else "#1b1b1b"





def _sid(tile_id: str) -> str:
    """A tile id as an XML id fragment (tile ids may hold ``/``, ``!``, ``.``, ``+``)."""
    return "".join(ch if ch.isalnum() or ch in "-_" else f"_{ord(ch):x}" for ch in tile_id)


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
        self.icons: set[str] = set()
        self.firsts = [p.first_node for p in game.placements]

    def tile_ref(self, tile: TileType) -> tuple[str, TileArt]:
        sid = f"{self.prefix}t-{_sid(tile.id)}"
        art = self.tiles.get(sid)
        if art is None:
            art = tile_art(tile)
            self.tiles[sid] = art
        return sid, art

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
        out = ["<defs>"]
        for sid, art in self.tiles.items():
            out.append(f'<g id="{sid}">{art.terrain}</g>')
        for name in sorted(self.icons):
            drawing = ICONS.get(name)
            if drawing is not None:
                out.append(f'<g id="{self.prefix}i-{name}" '
                           f'transform="scale({ICON_SCALE.get(name, 1.3)})">{drawing}</g>')
        out.append(f'<path id="{self.prefix}meeple" d="{MEEPLE}"/>')
        out.append(f'<path id="{self.prefix}hut" d="{HUT}" fill-rule="evenodd"/>')
        out.append(f'<g id="{self.prefix}sheep">{SHEEP}</g>')
        out.append("</defs>")
        return "".join(out)


def _transform(x: int, y: int, rot: int) -> str:
    tr = f"translate({_f(x * SIZE)},{_f(y * SIZE)})"
    return tr + (f" rotate({90 * rot} 50 50)" if rot else "")


def board(game: Game, *, events: Sequence[Event] = (), failure: Failure | None = None,
          notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-") -> str:
    """An SVG picture of ``game``.

    ``events`` are the events of the move just played: its placements are outlined, the
    features its score events name are emphasized with their points, and figures that went
    back to their supply are shown faded where they stood. ``failure`` draws an illegal move
    over the board; ``notes`` are written above it. ``size`` sets the width in pixels (the
    default lets the picture fill its container); ``prefix`` makes the ids of the picture
    unique when a page holds several.
    """
    b = _Board(game, prefix)
    cells = list(game.board)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    ghost: tuple[int, int] | None = None
    banner: list[tuple[str, str]] = []
    tile = failed_tile(game, failure.move) if failure is not None else None
    if failure is not None:
        banner.append((FAIL, failure.text()))
        gx, gy = failure.move.x, failure.move.y
        if tile is not None and not failure.move.discard:
            if (min(xs) - GHOST_REACH <= gx <= max(xs) + GHOST_REACH
                    and min(ys) - GHOST_REACH <= gy <= max(ys) + GHOST_REACH):
                ghost = (gx, gy)
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
        bh = _banner(banner, vx, 0.0, vw)[1]
        vy -= bh
        vh += bh
        banner_svg = _banner(banner, vx, vy, vw)[0]

    layers = [f'<rect class="table" x="{_f(vx)}" y="{_f(vy)}" width="{_f(vw)}" '
              f'height="{_f(vh)}" fill="{TABLE}"/>']
    layers.append(_tiles(b))
    layers.append(_symbols(b))
    layers.append(_emphasis(b, events))
    layers.append(_last(events))
    layers.append(_figures(b))
    layers.append(_returned(b, events))
    if ghost is not None and failure is not None and tile is not None:
        layers.append(_ghost(b, failure, tile, ghost))
    layers.append(_popups(b, events))
    layers.append(banner_svg)
    dims = ""
    if size is not None:
        dims = f' width="{size}" height="{round(size * vh / vw)}"'
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="carcassonne-board" '
            f'viewBox="{_f(vx)} {_f(vy)} {_f(vw)} {_f(vh)}"{dims} '
            f'font-family="DejaVu Sans, Verdana, sans-serif">')
    return head + b.defs() + "".join(layers) + "</svg>\n"


def _tiles(b: _Board) -> str:
    out = ['<g class="tiles">']
    for p in b.game.placements:
        sid, _ = b.tile_ref(p.tile)
        x, y = p.cell
        out.append(f'<use class="tile" href="#{sid}" transform="{_transform(x, y, p.rot)}">'
                   f'<title>{_esc(p.tile.words)} at ({x},{y}), turned {90 * p.rot}° '
                   f'(tile {_esc(p.tile.id)})</title></use>')
    out.append("</g>")
    return "".join(out)


def _symbols(b: _Board) -> str:
    out = ['<g class="symbols">']
    for p in b.game.placements:
        _, art = b.tile_ref(p.tile)
        for name, pt in art.icons:
            x, y = rotate_point(pt, p.rot)
            out.append(f'<use href="#{b.icon(name)}" x="{_f(p.cell[0] * SIZE + x)}" '
                       f'y="{_f(p.cell[1] * SIZE + y)}"/>')
    out.append("</g>")
    return "".join(out)


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


def _emphasis(b: _Board, events: Sequence[Event]) -> str:
    scored = _scored(b, events)
    if not scored:
        return ""
    out = [f'<g class="scored" fill="{SCORED}" fill-opacity=".45" stroke="{SCORED}" '
           f'stroke-opacity=".9" stroke-width="4" stroke-linejoin="round">']
    for ev, feats in scored:
        kind = _esc(ev.feature)
        if not feats:
            for c in ev.cells:
                if len(c) == 2:
                    out.append(f'<rect class="scored-{kind}" x="{_f(c[0] * SIZE + 3)}" '
                               f'y="{_f(c[1] * SIZE + 3)}" width="94" height="94"/>')
            continue
        for feat in feats:
            for node in sorted(feat.nodes):
                placement, seg = b.node(node)
                _, art = b.tile_ref(placement.tile)
                shape = art.emphasis[seg] if seg < len(art.emphasis) else ""
                if shape:
                    x, y = placement.cell
                    out.append(f'<g class="scored-{kind}" '
                               f'transform="{_transform(x, y, placement.rot)}">{shape}</g>')
    out.append("</g>")
    return "".join(out)


def _last(events: Sequence[Event]) -> str:
    out = []
    for ev in events:
        if isinstance(ev, Place):
            x, y = ev.x, ev.y
            out.append(f'<rect class="last" x="{_f(x * SIZE + 2.5)}" y="{_f(y * SIZE + 2.5)}" '
                       f'width="95" height="95" fill="none" stroke="{LAST}" stroke-width="5"/>')
    return "".join(out)


def _figure_svg(b: _Board, kind: str, colour: str, x: float, y: float, lying: bool,
                title: str, extra: str = "") -> str:
    fill = player_colour(colour)
    line = _outline(fill)
    tr = f"translate({_f(x)},{_f(y)})"
    tip = f"<title>{_esc(title)}</title>"
    if kind in FOLLOWERS:
        scale = " scale(1.35)" if kind == "large-follower" else ""
        turn = " rotate(-90)" if lying else ""
        return (f'<use class="figure {kind}{" lying" if lying else ""}{extra}" '
                f'href="#{b.prefix}meeple" transform="{tr}{turn}{scale} scale(1.6)" '
                f'fill="{fill}" stroke="{line}" stroke-width="1.2">{tip}</use>')
    if kind == "hut":
        return (f'<use class="figure hut{extra}" href="#{b.prefix}hut" transform="{tr} '
                f'scale(1.6)" fill="{fill}" stroke="{line}" stroke-width="1.2">{tip}</use>')
    if kind == "shepherd":
        return (f'<g class="figure shepherd{extra}" transform="{tr} scale(1.6)">{tip}'
                f'<use href="#{b.prefix}meeple" fill="{fill}" stroke="{line}" '
                f'stroke-width="1.2"/><path d="{CROOK}" fill="none" stroke="#5b3a1a" '
                f'stroke-width="1.8"/></g>')
    return (f'<circle class="figure other{extra}" cx="{_f(x)}" cy="{_f(y)}" r="8" fill="{fill}" '
            f'stroke="{line}" stroke-width="1.5">{tip}</circle>')


def _figures(b: _Board) -> str:
    game = b.game
    out = ['<g class="figures">']
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
        lying = seg_type in LYING and fig.kind in FOLLOWERS
        out.append(_figure_svg(b, fig.kind, player.colour, x, y, lying, title))
        if fig.kind == "shepherd":
            sheep = _flock(game, fig.node)
            if sheep:
                out.append(f'<g class="flock" transform="translate({_f(x + 24)},{_f(y + 6)})">'
                           f'<title>{sheep} sheep</title>'
                           f'<use href="#{b.prefix}sheep" transform="scale(1.6)"/>'
                           f'<text x="15" y="6" font-size="15" font-weight="bold" '
                           f'fill="#1b1b1b" stroke="#ffffff" stroke-width="3" '
                           f'paint-order="stroke">×{sheep}</text></g>')
    out.append("</g>")
    return "".join(out)


def _flock(game: Game, node: int) -> int:
    """Sheep in the flock of a shepherd's field (Hills & Sheep): the feature's sheep tokens."""
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
        out.append(_figure_svg(b, kind, p.colour, x, y, seg_type in LYING and kind in FOLLOWERS,
                               f"{p.name}: {kind.replace('-', ' ')} went back to the supply "
                               f"({ev.location})",
                               " returned"))
    if not out:
        return ""
    return ('<g class="returned" opacity=".5" stroke-dasharray="2 1.5">' + "".join(out)
            + "</g>")


def _ghost(b: _Board, failure: Failure, tile: TileType, cell: tuple[int, int]) -> str:
    move = failure.move
    q = (move.rotation // 90) % 4
    sid, art = b.tile_ref(tile)
    x, y = cell
    out = [f'<g class="ghost"><use href="#{sid}" transform="{_transform(x, y, q)}" '
           f'opacity=".6"><title>illegal: tile {_esc(tile.id)} at ({x},{y}), '
           f'{move.rotation}°</title></use>']
    out.append(f'<rect x="{_f(x * SIZE + 2)}" y="{_f(y * SIZE + 2)}" width="96" height="96" '
               f'fill="{FAIL}" fill-opacity=".15" stroke="{FAIL}" stroke-width="5" '
               f'stroke-dasharray="10 6"/>')
    cx, cy = x * SIZE + 84, y * SIZE + 16
    out.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="11" fill="{FAIL}" stroke="#fff" '
               f'stroke-width="2"/><path d="M{_f(cx - 5)},{_f(cy - 5)}l10,10m0,-10l-10,10" '
               f'stroke="#fff" stroke-width="3"/>')
    if move.figure is not None:
        seg = tile.rotations[q].locations.get(move.figure.location)
        if seg is not None:
            px, py = rotate_point(art.anchors[seg], q)
            who = next((p for p in b.game.players if p.name == failure.player), None)
            colour = who.colour if who is not None else "grey"
            seg_type = tile.segments[seg].type
            out.append(_figure_svg(b, move.figure.kind, colour, x * SIZE + px, y * SIZE + py,
                                   seg_type in LYING and move.figure.kind in FOLLOWERS,
                                   f"the illegal {move.figure.kind.replace('-', ' ')} "
                                   f"{on_feature(seg_type, move.figure.location)} "
                                   f"({move.figure.location})", " ghost-figure"))
    out.append("</g>")
    return "".join(out)


def _popups(b: _Board, events: Sequence[Event]) -> str:
    scored = _scored(b, events)
    if not scored:
        return ""
    game = b.game
    placed = {(ev.x, ev.y) for ev in events if isinstance(ev, Place)}
    used: dict[tuple[int, int], int] = {}
    out = ['<g class="popups" font-weight="bold" text-anchor="middle">']
    for ev, feats in scored:
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
        width = 14 + 9 * len(f"+{points}")
        for j, w in enumerate(winners):
            fill = player_colour(game.players[w].colour)
            bx = x + (j - (len(winners) - 1) / 2) * (width + 3)
            out.append(f'<g class="popup" transform="translate({_f(bx)},{_f(y)})">'
                       f'<rect x="{_f(-width / 2)}" y="-10" width="{_f(width)}" height="20" '
                       f'rx="6" fill="{fill}" stroke="#fff" stroke-width="2"/>'
                       f'<text y="5" font-size="14" fill="{text_on(fill)}">+{_esc(points)}</text>'
                       f'</g>')
    out.append("</g>")
    return "".join(out)


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


def _banner(items: list[tuple[str, str]], vx: float, top: float,
            vw: float) -> tuple[str, float]:
    """Messages written above the board, from ``top`` down: the SVG and its height."""
    fs = max(12.0, vw / 46)
    pad = fs * 0.6
    per_line = max(16, int((vw - 2 * pad) / (fs * 0.58)))
    blocks = []
    y = 0.0
    for colour, text in items:
        lines = _wrap(text, per_line)
        h = len(lines) * fs * 1.25 + pad * 1.2
        spans = "".join(
            f'<tspan x="{_f(vx + pad)}" dy="{_f(fs * 1.25 if k else 0)}">{_esc(line)}'
            f'{" " if k < len(lines) - 1 else ""}</tspan>'
            for k, line in enumerate(lines))
        blocks.append((colour, y, h, spans))
        y += h
    out = ['<g class="banner">']
    for colour, y0, h, spans in blocks:
        out.append(f'<rect x="{_f(vx)}" y="{_f(top + y0)}" width="{_f(vw)}" '
                   f'height="{_f(h)}" fill="{colour}"/>')
        out.append(f'<text x="{_f(vx + pad)}" y="{_f(top + y0 + pad * 0.6 + fs)}" '
                   f'font-size="{_f(fs)}" fill="#ffffff">{spans}</text>')
    out.append("</g>")
    return "".join(out), y


def tile(tile_type: TileType, rotation: int = 0, *, size: int | None = 64,
         prefix: str = "tp-") -> str:
    """One tile on its own (the viewer shows the next tile to draw with it)."""
    art = tile_art(tile_type)
    q = (rotation // 90) % 4
    sid = f"{prefix}t-{_sid(tile_type.id)}"
    icons = sorted({name for name, _ in art.icons})
    defs = "".join(f'<g id="{prefix}i-{name}" transform="scale({ICON_SCALE.get(name, 1.3)})">'
                   f'{ICONS[name]}</g>' for name in icons if name in ICONS)
    uses = "".join(
        f'<use href="#{prefix}i-{name}" x="{_f(rotate_point(pt, q)[0])}" '
        f'y="{_f(rotate_point(pt, q)[1])}"/>' for name, pt in art.icons)
    dims = f' width="{size}" height="{size}"' if size is not None else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="carcassonne-tile" '
            f'viewBox="-2 -2 104 104"{dims}><title>tile {_esc(tile_type.id)}</title>'
            f'<defs><g id="{sid}">{art.terrain}</g>{defs}</defs>'
            f'<use href="#{sid}" transform="{_transform(0, 0, q)}"/>{uses}</svg>')
