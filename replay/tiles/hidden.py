"""What the player to move cannot know in a tile-laying game, redrawn (``redraw_hidden``).

Every player sees the board, the scores, the supplies, the tiles discarded and the tile in
hand (``current``), so every player knows which tiles are left, kind by kind; nobody knows
their order, nor which of them went unseen out of the game (tiles hidden under others by an
expansion's rule: a family names those by ``TileState._drawn_unseen``). ``redraw_tiles`` puts
those tiles in a canonical order (the tile set's), shuffles them with the caller's stream,
gives the first ones to the unseen places (``TileState._rehide``) and makes the rest the pile;
then the family redraws its own hidden parts (``TileState._redraw_more``: a bonus stack, a
bag's draws).

The tiles already drawn from a seeded pile (``pile[:pile_pos]``) are rewritten in the canonical
order too, so that the unseen ones among them stay unknown. A table game (no seed) names every
draw in its log and so draws nothing by itself: its redrawn state is a seeded-like one (its
configuration's seed drawn from the stream, ``rng.drawn_seed``) whose pile is the tiles left,
and whose player to move then draws its tile from that pile, as a seeded game does. Its legal
moves are therefore those of one tile of the true state's (which lists every tile that may
come); ``hold`` puts in hand the tile the log's next move names, the one its player really
drew.

The state hash counts the tiles drawn, not their order: a redrawn pile leaves it alone, and
the unseen tiles given new ids change their items (``_rehide``). Moves applied after the
redraw rebuild from the redrawn position when they must undo (``TileState.origin``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..core.rng import SeededStream, drawn_seed
from ..core.values import replace

if TYPE_CHECKING:
    from .state import TileState
    from .tileset import TileType


def redraw_tiles(state: TileState, seat: int, rng: SeededStream) -> None:
    """``TileState.redraw_hidden`` (see the module)."""
    if state.finished:
        return
    rank = {t.id: i for i, t in enumerate(state.tileset.tiles)}
    by_id = state.tiles_by_id
    table = state.config.seed is None
    unseen = state._drawn_unseen()
    if table:
        left = [t for t in state.tileset.tiles if not t.bonus
                for _ in range(state.remaining.get(t.id, 0))]
        # the unseen ones a table log did not name ("?") are still counted as left
        pool = left + [by_id[i] for i in unseen if i != "?"]
    else:
        pool = state.pile[state.pile_pos:] + [by_id[i] for i in unseen]
    pool.sort(key=lambda t: rank[t.id])
    rng.shuffle(pool)
    state._rehide([t.id for t in pool[:len(unseen)]])
    rest = pool[len(unseen):]
    if table:
        state.config = replace(state.config, seed=drawn_seed(rng))
        state.remaining = {}
        state.pile, state.pile_pos = rest, 0
    else:
        drawn = Counter(t.id for t in state.pile)  # (the tiles of the pile, in any order)
        drawn.subtract(t.id for t in rest)
        prefix: list[TileType] = [by_id[i] for i in sorted(drawn, key=rank.__getitem__)
                                  for _ in range(drawn[i])]
        state.pile = prefix + rest  # a new list: copies share the old one
    state._redraw_more(seat, rng)
    if table:
        state._draw()
        state.sink.take()  # (a tile it discards is no event of the next move)
    # the position the steps to come start from (``TileState._rewind``)
    state.steps = []
    state.origin = None
    state.origin = state.copy()


def hold(state: TileState, tile_id: str) -> None:
    """Put tile ``tile_id`` in the hand of the player to move of a state that draws (a
    redrawn table state, say, whose log's next move names the tile that player really drew):
    the tile drawn goes back to the pile where the first ``tile_id`` left was. ``ValueError``
    when the state draws nothing by itself, is over, has no such tile left, or the tile fits
    nowhere (a seeded game discards it by itself: there is nothing to choose)."""
    if state.config.seed is None or state.finished or state.current is None:
        raise ValueError("only a state that draws its tiles (seeded or redrawn), not over, "
                         "holds a tile")
    if state.current.id == tile_id:
        return
    rest = state.pile[state.pile_pos:]
    at = next((i for i, t in enumerate(rest) if t.id == tile_id), None)
    if at is None:
        raise ValueError(f"no tile {tile_id!r} is left in the pile")
    tile = rest[at]
    if not state.can_place(tile):
        raise ValueError(f"tile {tile_id} fits nowhere: it would be discarded (G5)")
    rest[at] = state.current
    state.pile = state.pile[:state.pile_pos] + rest  # a new list: copies share the old one
    state.current = tile
