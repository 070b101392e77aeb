"""Hills & Sheep (HS1-HS10): shepherds, the sheep bag, wolves, flocks, hidden tiles, the hill
tie-break and vineyards.

Hills, vineyards and the special city tiles (HS10) are data (``hills-sheep`` tile set). The
bag (HS1) holds 18 tokens: 4x1, 5x2, 5x3, 2x4 sheep and 2 wolves (written 0). A draw from a
seeded game takes ``below(len(bag))`` of the stream ``(seed, "sheep")`` as an index into the
bag's tokens sorted in increasing order (wolves first). A table log lists its draws instead.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from ...core.errors import IllegalMove
from ...core.family import Expansion, Option
from ...core.rng import SeededStream, drawn_seed
from ...tiles.features import Feature, Figure
from ...tiles.scoring import FOLLOWERS, score_event
from ...tiles.scoring import plural as _n
from ...tiles.state import FigureKind
from ...tiles.tileset import SIDE_DELTA, location_name
from ...tiles.words import where_code
from .rules import ExpansionRules, Points
from .sheep_events import HiddenTile, TokenDraw, Wolf
from .sheep_moves import (
    ACTIONS,
    WOLF,
    FlockChoice,
    SheepFields,
    decode_sheep,
    encode_sheep,
    sheep_of,
    sheep_record,
    sheep_surely_valid,
    with_sheep,
)

if TYPE_CHECKING:
    from ...tiles.state import Placement
    from ...tiles.tileset import TileType
    from .state import CarcassonneState as Game
    from .state import Move

BAG = (0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4)


def token_name(value: int) -> str:
    return "wolf" if value == WOLF else f"{value} sheep"


def shepherd_fields(game: Game, tile: TileType, q: int,
                    groups: list[list[int]]) -> dict[str, list[int]]:
    """HS3: the fields holding the active player's shepherd that this tile would extend.

    Returns location (of a field segment of the new tile) -> the roots it joins; one entry per
    distinct field, keyed by the tile's first field segment in that field.
    """
    p = game.turn
    out: dict[str, list[int]] = {}
    if game.supply[p]["shepherd"] >= SHEPHERD.count:  # the player's shepherd is not out
        return out
    seen: set[int] = set()
    for seg in tile.segments:
        if seg.type != "field":
            continue
        roots = groups[seg.index]
        owned = [r for r in roots if _has_shepherd_of(game, r, p)]
        if not owned or owned[0] in seen:
            continue
        seen.update(roots)
        out[location_name(tile.rotations[q], seg.index)] = roots
    return out


def shepherd_beside(game: Game, cell: tuple[int, int]) -> bool:
    """Whether the active player's shepherd is out, in a field that spans a tile beside
    ``cell``. False proves that a tile put there extends no field of that shepherd (HS3), so
    the fields it joins need not be worked out (``shepherd_fields``)."""
    node = bag_of(game).shepherds.get(game.turn)
    if node is None:
        return False
    tiles = game.graph.of(node).tiles
    x, y = cell
    board = game.board
    for dx, dy in SIDE_DELTA:
        nb = board.get((x + dx, y + dy))
        if nb is not None and nb.index in tiles:
            return True
    return False


def _has_shepherd_of(game: Game, root: int, player: int) -> bool:
    feat = game.graph.feature[root]
    assert feat is not None
    return any(f.kind == "shepherd" and f.player == player for f in feat.figures)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # see tiles/snapshot.py
class SheepBag:
    """The per-game state of Hills & Sheep: the bag (HS1), its seeded stream, the number of
    draws so far, and the tiles hidden under hills (HS7; "?" when a table log did not say)."""

    def __init__(self, seed: str | None) -> None:
        self.bag: list[int] = sorted(BAG)
        self.token_draws = 0
        self.stream = SeededStream(seed, "sheep") if seed is not None else None
        self.hidden: list[str] = []
        # seat -> the node its shepherd stands on, while it is out (``shepherd_beside``)
        self.shepherds: dict[int, int] = {}

    def copy(self) -> SheepBag:
        """An independent copy (the state's ``copy``)."""
        new = SheepBag(None)
        new.bag = list(self.bag)
        new.token_draws = self.token_draws
        new.stream = None if self.stream is None else self.stream.copy()
        new.hidden = list(self.hidden)
        new.shepherds = dict(self.shepherds)
        return new

    def draw(self) -> int:
        assert self.stream is not None
        return self.bag[self.stream.below(len(self.bag))]

    def peek(self, n: int) -> list[int] | None:
        """The next ``n`` seeded draws, assuming no token comes back in between (None: table)."""
        if self.stream is None:
            return None
        stream = self.stream.copy()
        bag = list(self.bag)
        return [bag.pop(stream.below(len(bag))) for _ in range(n)]

    def take(self, game: Game, value: int) -> None:
        self.bag.remove(value)
        game.flip("draws", self.token_draws)
        self.token_draws += 1
        game.flip("draws", self.token_draws)

    def put_back(self, value: int) -> None:
        self.bag.append(value)
        self.bag.sort()

    def flock_required(self, game: Game, tile: TileType, x: int, y: int,
                       rotation: int) -> list[str]:
        """``flock_required`` (for ``CarcassonneState.flock_required``)."""
        return flock_required(game, tile, x, y, rotation)


def flock_required(game: Game, tile: TileType, x: int, y: int, rotation: int) -> list[str]:
    """HS3: locations of the fields needing an expand-or-herd choice after this placement."""
    if not shepherd_beside(game, (x, y)):
        return []
    q = rotation // 90
    groups = game._prospective(tile, (x, y), q)
    return list(shepherd_fields(game, tile, q, groups))


def bag_of(game: Game) -> SheepBag:
    found: SheepBag = game.parts["hills-sheep"]
    return found


SHEPHERD = FigureKind("shepherd", "shepherd", 0, frozenset({"field"}), "HS2", 1)


class HillsSheep(ExpansionRules):
    info = Expansion("hills-sheep", "Hills & Sheep", "HS")
    tileset = "hills-sheep"
    figures = {"shepherd": SHEPHERD}
    options = (Option("hill_tiebreak", ("presence", "count"), "presence", "HS8",
                      "tied players with a follower on a hill win (presence), or those with "
                      "the most followers on hills (count)", expansion="hills-sheep"),)
    move_fields = frozenset({"flock", "tokens", "hidden"})

    def setup(self, state: Game) -> None:
        state.parts["hills-sheep"] = SheepBag(state.config.seed)

    def needs_groups(self, state: Game, move: Move) -> bool:
        sheep = sheep_of(move)
        return bool(sheep.flock or sheep.tokens) or shepherd_beside(state, (move.x, move.y))

    def check(self, state: Game, tile: TileType, q: int, move: Move,
              groups: list[list[int]]) -> None:
        sheep = sheep_of(move)
        check(state, tile, q, move, sheep, groups)
        if sheep.hidden is not None:
            _check_hidden(state, tile, sheep.hidden)

    def check_absent(self, state: Game, tile: TileType, move: Move) -> None:
        if not move.extras:
            return
        sheep = sheep_of(move)
        if sheep.flock or sheep.tokens:
            raise IllegalMove("HS3", "this game is played without Hills & Sheep")
        if sheep.hidden is not None:
            raise IllegalMove("HS7", f"tile {tile.id} ({tile.words}) has no hill: nothing goes "
                              "under it")

    def on_figure(self, state: Game, placement: Placement, move: Move) -> None:
        sheep = sheep_of(move)
        after_figure(state, placement, move, sheep)
        if placement.tile.hill:
            _hide_under_hill(state, sheep.hidden)

    def completed_points(self, state: Game, feat: Feature) -> Points | None:
        if feat.type != "cloister":
            return None
        assert feat.cell is not None
        vines = vineyards_around(state, feat.cell)
        if not vines:
            return None
        pts = 9 + 3 * vines
        return pts, f"cloister: complete = 9 + {_n(vines, 'vineyard')} × 3 = {pts}", "HS9"

    def tiebreak(self, state: Game, tied: list[int], figures: list[Figure]) -> list[int]:
        """HS8: among tied players, those with a follower on a hill tile of the feature win
        alone (option ``count``: those with the most followers on hills). Without hills, all
        tied win."""
        on_hills: dict[int, int] = {}
        for f in figures:
            if f.hill and f.kind in FOLLOWERS and f.player in tied:
                on_hills[f.player] = on_hills.get(f.player, 0) + 1
        if not on_hills:
            return tied
        if state.options["hill_tiebreak"] == "count":
            best = max(on_hills.values())
            return sorted(p for p, n in on_hills.items() if n == best)
        return sorted(on_hills)

    def unknown_gone(self, state: Game) -> int:
        return bag_of(state).hidden.count("?")

    def drawn_unseen(self, state: Game) -> list[str]:
        """HS7: the tiles under hills, which nobody saw."""
        return list(bag_of(state).hidden)

    def rehide(self, state: Game, tiles: list[str]) -> None:
        sheep = bag_of(state)
        for i, (old, new) in enumerate(zip(sheep.hidden, tiles, strict=True)):
            state.flip("hidden", i + 1, old)
            state.flip("hidden", i + 1, new)
        sheep.hidden = list(tiles)

    def redraw_hidden(self, state: Game, seat: int, rng: SeededStream) -> None:
        """HS1: the tokens in the bag are known (the others lie on the board), the draws to
        come are not: they come from a stream drawn from ``rng``."""
        bag_of(state).stream = SeededStream(drawn_seed(rng), "sheep")

    def complete_moves(self, state: Game, tile: TileType, move: Move) -> Iterator[Move]:
        """HS3: every expand-or-herd combination; a table log lists its draws (HS2, L1)."""
        locations = flock_required(state, tile, move.x, move.y, move.rotation)
        tokens_given = sheep_of(move).tokens
        for actions in itertools.product(ACTIONS, repeat=len(locations)):
            flock = tuple(FlockChoice(loc, a) for loc, a in zip(locations, actions,
                                                                strict=True))
            choice = with_sheep(move, flock, tokens_given)
            draws = actions.count("expand") + (
                1 if move.figure is not None and move.figure.kind == "shepherd" else 0)
            if not draws or state.config.seed is not None:
                yield choice
                continue
            for tokens in _possible_draws(bag_of(state).bag, draws):
                yield with_sheep(choice, flock, tokens)

    def random_choices(self, state: Game, tile: TileType, move: Move, pick: Any) -> Move:
        flock: list[FlockChoice] = []
        for loc in flock_required(state, tile, move.x, move.y, move.rotation):
            flock.append(FlockChoice(loc, ACTIONS[pick.below(2)]))
        return with_sheep(move, tuple(flock), sheep_of(move).tokens) if flock else move

    def decode(self, raw: Mapping[str, Any], path: str) -> SheepFields | None:
        return decode_sheep(raw)

    def record(self, fields: Mapping[str, Any]) -> SheepFields | None:
        return sheep_record(fields)

    def encode(self, move: Move) -> dict[str, Any]:
        return encode_sheep(move)

    def surely_valid(self, m: Mapping[str, Any]) -> bool:
        return sheep_surely_valid(m)


def _possible_draws(bag: Sequence[int], n: int) -> Iterator[tuple[int, ...]]:
    """Every sequence of ``n`` tokens the bag can give (a drawn wolf goes back at once)."""
    if n == 0:
        yield ()
        return
    for value in sorted(set(bag)):
        rest = list(bag)
        if value != WOLF:
            rest.remove(value)
        for tail in _possible_draws(rest, n - 1):
            yield (value, *tail)


def vineyards_around(game: Game, cell: tuple[int, int]) -> int:
    """HS9: vineyard tiles among the 8 neighbours of a cloister."""
    x, y = cell
    board = game.board
    n = 0
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            nb = board.get((x + dx, y + dy))
            if (dx or dy) and nb is not None and nb.tile.vineyard:
                n += 1
    return n


def check(game: Game, tile: TileType, q: int, move: Move, sheep: SheepFields,
          groups: list[list[int]]) -> None:
    """Everything about the move's flock choices and token draws, before anything changes.
    No ``groups``: the move asked for none, as it has no figure, flock choice or token and
    ``shepherd_beside`` found the tile away from the mover's shepherd."""
    required = shepherd_fields(game, tile, q, groups) if groups else {}
    rot = tile.rotations[q]
    given: dict[int, str] = {}
    for choice in sheep.flock:
        if choice.action not in ACTIONS:
            raise IllegalMove("HS3", f"flock action {choice.action!r} is not expand or herd")
        seg = rot.locations.get(choice.location)
        if seg is None or tile.segments[seg].type != "field":
            raise IllegalMove("HS3", f"tile {tile.id} has no field {where_code(choice.location)}")
        key = _match(required, groups[seg])
        if key is None:
            raise IllegalMove("HS3", f"the field {where_code(choice.location)} holds no "
                              f"shepherd of "
                              f"{game.players[game.turn].name} that this tile extends: "
                              "no expand-or-herd choice is allowed there")
        if key in given.values():
            raise IllegalMove("HS3", "two choices for the same field (the second "
                              f"{where_code(choice.location)})")
        given[seg] = key
    missing = [loc for loc in required if loc not in given.values()]
    if missing:
        raise IllegalMove("HS3", f"the tile extends the field {where_code(missing[0])}, where "
                          f"{game.players[game.turn].name}'s shepherd stands: the move must "
                          "choose expand or herd")
    draws = sum(1 for c in sheep.flock if c.action == "expand")
    if move.figure is not None and move.figure.kind == "shepherd":
        draws += 1
    tokens = sheep.tokens
    if tokens:
        if len(tokens) != draws:
            raise IllegalMove("HS2", f"the move lists {len(tokens)} token draw(s) but makes "
                              f"{draws}")
        expected = bag_of(game).peek(draws)
        if expected is not None:
            if list(tokens) != expected:
                raise IllegalMove("L1", f"the log draws {_names(tokens)} but the seeded "
                                  f"bag gives {_names(expected)}")
        else:
            bag = list(bag_of(game).bag)
            for value in tokens:
                if value not in bag:
                    raise IllegalMove("L1", f"no {token_name(value)} token is left in the bag")
                bag.remove(value)
    elif draws and game.config.seed is None:
        raise IllegalMove("L1", "a log without a seed must list the sheep tokens it draws")


def _check_hidden(game: Game, tile: TileType, hidden: str) -> None:
    if not tile.hill:
        raise IllegalMove("HS7", f"tile {tile.id} ({tile.words}) has no hill: nothing goes "
                          "under it")
    if game.config.seed is not None:
        nxt = game.pile[game.pile_pos].id if game.pile_pos < len(game.pile) else None
        if hidden != nxt:
            raise IllegalMove("HS7", f"the log hides {hidden} under the hill but the pile "
                              f"gives {nxt or 'nothing (it is empty)'}")
        return
    left = game.remaining.get(hidden, 0) - (1 if hidden == tile.id else 0)
    if hidden not in game.tiles_by_id or left <= 0:
        raise IllegalMove("L1", f"tile {hidden} cannot go under the hill: none is left")


def _hide_under_hill(game: Game, named: str | None) -> None:
    """HS7: the next tile of the pile goes under the hill, unseen and out of the game."""
    if game.config.seed is not None:
        under = game.take_from_pile()
        if under is None:
            return
        hidden = under.id
    else:
        if game.tiles_left() == 0:
            return
        hidden = named or "?"
        if named is not None:
            game.remaining[named] -= 1
    sheep = bag_of(game)
    sheep.hidden.append(hidden)
    game.flip("hidden", len(sheep.hidden), hidden)
    game.sink.add(HiddenTile(game.turn, hidden, "HS7"))


def _names(values: tuple[int, ...] | list[int]) -> str:
    return ", ".join(token_name(v) for v in values) or "nothing"


def _match(required: dict[str, list[int]], roots: list[int]) -> str | None:
    for loc, req in required.items():
        if set(req) & set(roots):
            return loc
    return None


def after_figure(game: Game, placement: Placement, move: Move, sheep: SheepFields) -> None:
    """HS2 draw for a new shepherd, HS3 choices, HS5 closed fields: in that order."""
    tokens = list(sheep.tokens)
    if move.figure is not None and move.figure.kind == "shepherd":
        rot = placement.tile.rotations[placement.rot]
        node = placement.first_node + rot.locations[move.figure.location]
        bag_of(game).shepherds[game.turn] = node
        _expand(game, game.graph.of(node), tokens, "HS2")
    rot = placement.tile.rotations[placement.rot]
    for choice in sheep.flock:
        feat = game.graph.of(placement.first_node + rot.locations[choice.location])
        if choice.action == "expand":
            _expand(game, feat, tokens, "HS3")
        else:
            herd(game, feat, "HS3")
    # HS5: a field with shepherds that can no longer grow is herded at once
    if all(supply["shepherd"] >= SHEPHERD.count for supply in game.supply):
        return  # no shepherd is out
    done: set[int] = set()
    for seg in placement.tile.segments:
        if seg.type != "field":
            continue
        root = game.graph.find(placement.first_node + seg.index)
        field = game.graph.of(root)
        if root in done or field.open != 0:
            continue
        done.add(root)
        if any(f.kind == "shepherd" for f in field.figures):
            herd(game, field, "HS5")


def _expand(game: Game, feat: Feature, tokens: list[int], rule: str) -> None:
    sheep = bag_of(game)
    value = tokens.pop(0) if tokens else sheep.draw()
    sheep.take(game, value)
    seq = sheep.token_draws
    if game.sink.keeps:
        game.sink.add(TokenDraw(game.turn, token_name(value), value, rule,
                                game.cells_of(feat), feat.first))
    if value == WOLF:
        sheep.put_back(value)
        _clear(game, feat, "wolf")
        return
    feat.add_token((seq, value))
    game.flip("tok", seq, value)


def herd(game: Game, feat: Feature, rule: str) -> None:
    """Every shepherd in the field scores 1 per sheep; tokens back to the bag (HS3, HS4)."""
    sheep = sum(v for _, v in feat.tokens)
    owners = sorted({f.player for f in feat.figures if f.kind == "shepherd"})
    for p in owners:
        game.add_score(p, sheep)
    if game.sink.keeps:
        game.sink.add(score_event(
            "flock", "play", sheep, owners, {p: 1 for p in owners},
            f"flock: {sheep} sheep × 1 = {sheep}" + (" (shared flock)" if len(owners) > 1
                                                      else ""),
            rule, game.cells_of(feat), feat.first))
    _clear(game, feat, "herd")


def _clear(game: Game, feat: Feature, why: str) -> None:
    bag = bag_of(game)
    for seq, value in feat.tokens:
        game.flip("tok", seq, value)
        bag.put_back(value)
    if why == "wolf" and game.sink.keeps:
        game.sink.add(Wolf(game.turn, tuple(token_name(v) for _, v in feat.tokens), "HS3",
                           game.cells_of(feat), feat.first))
    feat.tokens = []
    for fig in list(feat.figures):
        if fig.kind == "shepherd":
            game.return_figure(feat, fig)
            del bag.shepherds[fig.player]
