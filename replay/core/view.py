"""How a family's positions look and read: its ``View`` (issue 36), named by reference like
its explorer.

A family names its view with ``Family.view`` (a reference "module:Class" to a ``View``
subclass, built with the family, imported only when something is drawn); ``view_of(family)``
makes it once. The view draws the finished picture of a position in one pass, in the shape of
python-chess's ``chess.svg.board(fill=, arrows=, squares=, lastmove=)``: what is shown over the
board (the events of the move just played, an illegal move, the notes, the analysis board's
spots, the links of the scored features to their explanations) are arguments of ``board``,
never patches of its text, so no module outside a family reads or edits the SVG it returns.

The view also tells a position for people: its status beside the board, each move in words
(``describe_move``), the playthrough's lines, the piece to play next, drawn on its own, and the
analysis board's words (``menu``: a legal move's spot and menu; ``spot_name``; ``draw_label``;
``option_text``). The family's explorer (``replay.core.explore.Explorer``) keeps what the
board offers: the moves of a draw, the draws a table log may make, the move tried on a spot
where nothing is legal.
``Family`` and ``GameState`` keep the rules and the log.

A family without a view of its own gets this plain default, which asks the family and the
state (``Family.draw`` when the family overrides it, ``Family.describe_move``,
``GameState.status``, the ``GameState.playthrough_*`` lines, ``GameState.next_piece_svg``), so a
plugin written before views keeps working; the spots of the analysis board are drawn by its
explorer's ``mark`` when it has one. A family that draws nothing at all gets a plain picture:
its seats and scores, the illegal move and the notes, as text.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .events import Event
    from .family import Family, GameState, MoveText


class View:
    """The presentation of a family's positions (see the module): this default draws with
    ``Family.draw`` and adds nothing of its own."""

    def __init__(self, family: Family) -> None:
        self.family = family

    def board(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
              notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-",
              spots: Mapping[str, str] | None = None,
              spot_names: Mapping[str, str] | None = None, linked: bool = False,
              ghost: Sequence[Any] = ()) -> str:
        """The finished SVG picture of ``state``, drawn in one pass.

        ``events`` are those of the move just played (emphasized), ``failure`` an illegal
        move (drawn over the board), ``notes`` lines written above it; ``size`` its width in
        pixels (None: it fills its container), ``prefix`` keeps the ids of several pictures
        on one page apart. ``spots`` are the analysis board's targets, spot -> "legal" or
        "illegal" (``Choices.spots``), each drawn as ``<g class="spot legal|illegal"
        data-spot="...">`` named by ``spot_names`` (``Choices.spot_names``); ``linked``
        names each scored feature and badge by its event (``data-ev``, ``data-seat``) so that
        a page links them to the explanations, where the family's drawing can. ``ghost``
        are the analysis board's options (``replay.core.explore.Option``) to preview: a
        family's view draws the piece each places where it goes, hidden until the page shows
        it (the tiles' ``g.preview`` per cell and turn, with ``g.target`` s for the figures;
        a card game's piece on its lot), each naming its options by their index
        (``data-options``, ``Option.index``); this default draws none (the menus still play
        every move)."""
        from .family import Family

        if type(self.family).draw is Family.draw:  # the family draws nothing: a plain picture
            return plain_board(state, failure=failure, notes=notes, size=size)
        board = self.family.draw(state, events=events, failure=failure, notes=notes,
                                 size=size, prefix=prefix)
        if spots:
            board = _legacy_mark(self.family, state, board, spots, spot_names)
        return board

    def next_piece(self, state: GameState, size: int = 56) -> str:
        """The piece the player to move plays next drawn on its own, ``size`` pixels wide
        ("" when there is none to show): ``GameState.next_piece_svg`` by default."""
        return state.next_piece_svg(size)

    def next_piece_words(self, state: GameState) -> str:
        """That piece in words (``a city cap``), beside its id; "" when it has none (here)."""
        return ""

    def status(self, state: GameState) -> dict[str, Any]:
        """What the viewer shows beside the board, as JSON (``GameState.status`` by default;
        ``web.viewer.facts`` writes the keys it knows)."""
        return state.status()

    def describe_move(self, move: Any, events: Sequence[Event] | None,
                      state: GameState) -> MoveText:
        """``move`` told for people and in codes, one entry of the viewer's move list (see
        ``Family.describe_move``, which this default asks)."""
        return self.family.describe_move(move, events, state)

    # ---------------------------------------------------------------- the analysis board

    def menu(self, state: GameState, move: Any) -> tuple[str, str, tuple[str, ...]]:
        """Where a legal move goes on the analysis board and its menu, in words: its spot
        ("" for a move played on no spot), its facet (a filter of the shading, "" for none)
        and the steps of its menu (``turned 90°``, then ``knight in the city``). By default
        the family's explorer's ``place`` (an explorer written before views: every move one
        step of a list, told by ``describe_move``)."""
        from .explore import explorer_of

        return explorer_of(self.family).place(state, move)

    def spot_name(self, state: GameState, spot: str) -> str:
        """A spot of ``state`` named as a player points at it (what it touches, what stands
        on it), for its menu, its refusal and its accessible name: by default the explorer's
        ``spot_name`` (its ``spot_label``: a plugin's words of before views)."""
        from .explore import explorer_of

        return explorer_of(self.family).spot_name(state, spot)

    def draw_label(self, state: GameState, draw: str) -> str:
        """A draw of a table log in words, for the list to pick from (the explorer's by
        default)."""
        from .explore import explorer_of

        return explorer_of(self.family).draw_label(state, draw)

    def option_text(self, state: GameState, move: Any, steps: tuple[str, ...]) -> str:
        """A legal move in one line, as the move list would tell it once played, for its
        button's title and the choices' JSON (``steps``: its menu's, ``menu``):
        ``describe_move`` of the move not played by default."""
        return self.describe_move(move, None, state).text

    def playthrough_intro(self, state: GameState) -> list[str]:
        """The lines a playthrough writes about the material before the first move."""
        return state.playthrough_intro()

    def playthrough_before(self, state: GameState, move: Any) -> Any:
        """What the playthrough's line after ``move`` needs to know before it is applied."""
        return state.playthrough_before(move)

    def playthrough_after(self, state: GameState, before: Any) -> str:
        """The line a playthrough writes after a move (what was drawn, what is left)."""
        return state.playthrough_after(before)


def plain_board(state: GameState, *, failure: Any = None, notes: Sequence[str] = (),
                size: int | None = None) -> str:
    """The picture of a family that draws nothing: one line per seat (its name, colour and
    score, the seat to move marked), then the illegal move and the notes, as text."""
    from .colours import player_colour
    from .svgtext import element, wrap

    lines = [(f"{'▶ ' if state.current_player == i else ''}{p.name}: {state.scores[i]}",
              player_colour(p.colour)) for i, p in enumerate(state.players)]
    lines.append((f"{state.family.label}, move {state.moves_played}"
                  f"{' (over)' if state.finished else ''}", "#1b1b1b"))
    if failure is not None:
        lines.append((str(failure.text()), "#c62828"))
    lines += [(str(note), "#8a5a00") for note in notes]
    height = 24 * len(lines) + 16
    texts = [element("text", text, x="12", y=str(28 + 24 * k), fill=fill)
             for k, (text, fill) in enumerate(lines)]
    return wrap("svg", element("rect", width="100%", height="100%", fill="#ebe5d5"), *texts,
                xmlns="http://www.w3.org/2000/svg", class_="plain-board",
                viewBox=f"0 0 480 {height}", width=size, font_size="16",
                font_family="DejaVu Sans, Verdana, sans-serif") + "\n"


def _legacy_mark(family: Family, state: GameState, board: str, spots: Mapping[str, str],
                 names: Mapping[str, str] | None) -> str:
    """``board`` with the spots drawn by the family's explorer's ``mark``: a plugin written
    before views drew its spots there (one written before spot names, without ``names``)."""
    from .explore import Explorer, explorer_of

    explorer = explorer_of(family)
    mark = getattr(type(explorer), "mark", None)
    if mark is None or mark is Explorer.mark:
        return board
    if "names" not in inspect.signature(mark).parameters:
        return str(explorer.mark(state, board, spots))
    return str(explorer.mark(state, board, spots, names=names))


def draw_board(view: View, state: GameState, **overlays: Any) -> str:
    """``view.board(state, **overlays)``, leaving out the overlays a view's ``board`` does not
    take when they are empty (``ghost=()`` for a view written before ghosts), so a plugin's
    view keeps working as overlays are added; a non-empty one it does not take is left out
    too (the menus still offer every move)."""
    taken = _overlays(type(view).board)
    if taken is not None:
        overlays = {k: v for k, v in overlays.items() if k in taken}
    return view.board(state, **overlays)


@cache
def _overlays(board: Callable[..., str]) -> frozenset[str] | None:
    """The keyword arguments a view's ``board`` takes (None: any, it has ``**kwargs``)."""
    params = inspect.signature(board).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params)


@cache
def view_of(family: Family) -> View:
    """The family's view (``Family.view``), or the default one; made once."""
    from .plugins import family_part

    return family_part(family, "view", View)
