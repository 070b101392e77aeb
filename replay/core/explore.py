"""The analysis board's engine: the moves a position allows, told for a board, and variations.

At any position of a log the user may try a move that was not played, then more: a
*variation*. Its log is the game's own (header, seed, players) with the moves up to the
branching position, then the variation's moves (``variation_log``), so it is replayed, judged
and drawn exactly as a game is, and saved as one through the upload's checks.

``choices(state, explorer, ...)`` lists every legal move of a position (``legal_moves``: the
family's ``Explorer`` says which, for a draw, and what a player would try where nothing is
legal), each told for a board by the family's view (``replay.core.view.View.menu``): the
*spot* it is played at (a cell, a lot; "" for a move played on no spot), an optional *facet* (a
filter of the shading, e.g. the piece to build with), the *steps* of the menu that leads to it
(turned 90°, then the knight in the city) and its text (``View.option_text``); and the spots
where nothing is legal, each with the verifier's own rule and words (``Refusal``); each spot is
named once for people (``View.spot_name``: what it touches, what stands on it;
``Choices.labels``). A line of moves travels in URLs as *tokens*: each move
the compact JSON object a log records, in unpadded base64url, joined by ".": a page extends a
line by appending the token of the option chosen, and never decides anything itself. A move
has one token only (``read_token`` refuses any other spelling, and whatever a log's move could
not be), so a line read is canonical: the same line is the same text.

Table logs (no seed) name what each move draws. A variation follows the log's draws while it
can (``Explorer.draw_of`` of the log's move at the same index); when it cannot (the tile was
drawn in the variation already, it no longer fits...), the choices say so and list the draws
left (``Choices.picks``) for the user to pick.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from .errors import IllegalMove, LogFormatError
from .json_input import check_bounds, decode
from .values import value
from .view import view_of

if TYPE_CHECKING:
    from .family import Family, GameState

MAX_LINE = 200  # moves of one variation
MAX_TOKEN = 2_000  # characters of one move's token
MAX_OPTIONS = 5_000  # legal moves listed for one position (more: the list says it is cut)
MAX_REFUSALS = 400  # spots told why nothing is legal there


@value
class Option:
    """One legal move as the analysis board offers it (see the module)."""

    index: int
    spot: str
    facet: str
    steps: tuple[str, ...]
    text: str
    token: str  # the move as a line token
    move: dict[str, Any]  # the move as the log records it

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "spot": self.spot, "facet": self.facet,
                "steps": list(self.steps), "text": self.text, "token": self.token,
                "move": self.move}


@value
class Refusal:
    """A spot where no move is legal, with the rule that forbids the natural try there."""

    spot: str
    rule: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"spot": self.spot, "rule": self.rule, "message": self.message}


@value
class Choices:
    """What a position allows (see the module): ``draw`` is the draw the options follow (a
    table log's), ``wanted`` the log's own draw at this move, ``picks`` the (draw, label)
    pairs to pick from when the log's draw cannot follow (then ``options`` is empty until one
    is picked), ``note`` says so in words."""

    options: tuple[Option, ...]
    refusals: tuple[Refusal, ...]
    draw: str | None
    wanted: str | None
    picks: tuple[tuple[str, str], ...]
    note: str
    truncated: bool
    labels: Mapping[str, str] = {}  # spot -> its name (``Explorer.spot_name``); never changed

    def label(self, spot: str) -> str:
        """A spot's name (``labels``), the spot itself when it has none."""
        return self.labels.get(spot, spot)

    def spots(self) -> dict[str, str]:
        """Every spot of the board with a class: "legal" or "illegal"."""
        out = {r.spot: "illegal" for r in self.refusals}
        out.update((o.spot, "legal") for o in self.options if o.spot)
        return out

    def spot_names(self, label: Callable[[str], str] | None = None) -> dict[str, str]:
        """Every spot's accessible name, which tells legal from illegal in words (the shading
        is lost on a screen reader): "legal: <spot>, N moves" or "nothing can be played
        here: <spot>: <rule>: <why>"; ``label`` names a spot (its name in ``labels`` when
        not given)."""
        label = label or self.label
        counts: dict[str, int] = {}
        for o in self.options:
            if o.spot:
                counts[o.spot] = counts.get(o.spot, 0) + 1
        out = {r.spot: f"nothing can be played here: {label(r.spot)}: {r.rule}: {r.message}"
               for r in self.refusals}
        out.update((s, f"legal: {label(s)}, {n} move{'s' * (n != 1)}")
                   for s, n in counts.items())
        return out

    def to_json(self) -> dict[str, Any]:
        return {"options": [o.to_json() for o in self.options],
                "refusals": [r.to_json() for r in self.refusals],
                "draw": self.draw, "wanted": self.wanted,
                "picks": [{"draw": d, "label": label} for d, label in self.picks],
                "note": self.note, "truncated": self.truncated,
                "labels": dict(sorted(self.labels.items()))}


class Explorer:
    """What the analysis board offers of a family's positions: the legal moves of a draw, the
    draws a table log may make, the move a player would try on a spot where nothing is legal;
    a family names its own with ``Family.explorer`` (a reference "module:Class", built with
    the family). Its words are the view's (``View.menu``, ``spot_name``, ``draw_label``);
    ``place``, ``spot_label``, ``spot_name`` and ``draw_label`` here are where an explorer
    written before views told them, which the default view still asks. This default offers
    every legal move as one step of a list, told by ``describe_move``; it knows no spot on the
    board and no draw."""

    def __init__(self, family: Family) -> None:
        self.family = family

    def draw_of(self, state: GameState, move: Any) -> str | None:
        """What ``move`` draws by chance in a table log (the tile, the card), or None (a
        seeded game draws by itself; a move that draws nothing)."""
        return None

    def draw_label(self, state: GameState, draw: str) -> str:
        """A draw in words, for the list to pick from."""
        return draw

    def moves(self, state: GameState, draw: str | None) -> Iterator[Any]:
        """The legal moves that draw ``draw`` (all of them when None)."""
        for move in state.legal_moves():
            if draw is None or self.draw_of(state, move) == draw:
                yield move

    def draws(self, state: GameState) -> list[str]:
        """The draws the legal moves of a table log may make, in order."""
        found = {d for m in state.legal_moves() if (d := self.draw_of(state, m)) is not None}
        return sorted(found)

    def place(self, state: GameState, move: Any) -> tuple[str, str, tuple[str, ...]]:
        """Where a legal move goes: its spot ("" for none), its facet ("" for none) and the
        steps of its menu."""
        return "", "", (view_of(self.family).describe_move(move, None, state).text,)

    def spot_label(self, spot: str) -> str:
        """A spot in words, for the menu of the moves played there."""
        return spot

    def spot_name(self, state: GameState, spot: str) -> str:
        """A spot of ``state`` in words as a player names it (what it touches, what stands
        on it), for its menu, its refusal and its accessible name; ``spot_label`` by default
        (an explorer written before this keeps its words)."""
        return self.spot_label(spot)

    def attempts(self, state: GameState, draw: str | None,
                 legal: set[str]) -> Iterator[tuple[str, Any]]:
        """For the spots where no move is legal (not in ``legal``), the move a player would
        try there: its refusal is the verifier's reason. None by default."""
        return iter(())

    def mark(self, state: GameState, board: str, spots: Mapping[str, str],
             prefix: str = "cr-", names: Mapping[str, str] | None = None) -> str:
        """Where a plugin written before views (``replay.core.view``) drew its spots on the
        board's SVG; the default view still calls an override. A family's ``View.board``
        draws them now (``spots=``); unchanged here."""
        return board


@cache
def explorer_of(family: Family) -> Explorer:
    """The family's explorer (``Family.explorer``), or the default one; made once."""
    from .plugins import family_part

    return family_part(family, "explorer", Explorer)


def choices(state: GameState, explorer: Explorer, wanted_move: Any = None,
            pick: str | None = None) -> Choices:
    """The choices of ``state`` (see the module): ``wanted_move`` is the log's move at this
    index (its draw is followed when it can be), ``pick`` a draw the user picked."""
    if state.finished:
        return Choices((), (), None, None, (), "The game is over here.", False)
    told = view_of(explorer.family)  # the words: spots, menus, draws
    wanted = None if wanted_move is None else explorer.draw_of(state, wanted_move)
    draws = explorer.draws(state)
    draw: str | None = None
    note = ""
    picks: tuple[tuple[str, str], ...] = ()
    if draws:
        if pick is not None and pick in draws:
            draw = pick
            if wanted is not None and pick != wanted:
                note = f"Picked: {told.draw_label(state, pick)}."
        elif wanted is not None and wanted in draws:
            draw = wanted
        else:
            why = ("the log has no more moves" if wanted_move is None else
                   f"the log draws {told.draw_label(state, wanted)} here, which cannot "
                   "come now" if wanted is not None else "the log's move draws nothing here")
            note = f"The variation's draws cannot follow the log ({why}): pick what comes next."
            picks = tuple((d, told.draw_label(state, d)) for d in draws)
            return Choices((), (), None, wanted, picks, note, False)
    options: list[Option] = []
    truncated = False
    family = explorer.family
    for move in explorer.moves(state, draw):
        if len(options) >= MAX_OPTIONS:
            truncated = True
            break
        spot, facet, steps = told.menu(state, move)
        raw = family.encode_move(move)
        text = told.option_text(state, move, steps)
        options.append(Option(len(options), spot, facet, steps, text, token(raw), raw))
    legal = {o.spot for o in options if o.spot}
    refusals: list[Refusal] = []
    for spot, attempt in explorer.attempts(state, draw, legal):
        if len(refusals) >= MAX_REFUSALS:
            break
        try:
            state.check(attempt)
        except IllegalMove as exc:
            refusals.append(Refusal(spot, exc.rule, exc.message))
    labels = {spot: told.spot_name(state, spot)
              for spot in dict.fromkeys([*(o.spot for o in options if o.spot),
                                         *(r.spot for r in refusals)])}
    return Choices(tuple(options), tuple(refusals), draw, wanted, picks, note, truncated,
                   labels)


# --------------------------------------------------------------------------- lines

def token(move: Mapping[str, Any]) -> str:
    """A move (the object a log records) as a line token: its compact JSON (keys sorted, no
    spaces, UTF-8) in unpadded base64url. Each move has exactly one token (``read_line``
    refuses any other spelling). Written by orjson, which writes the same bytes as the
    standard library's ``json.dumps(separators=(",", ":"), sort_keys=True,
    ensure_ascii=False)`` in a fifth of the time (a position lists hundreds of moves); that
    one for what orjson refuses (an integer beyond 64 bits)."""
    import orjson  # here: the command line never needs it

    try:
        data = orjson.dumps(move, option=orjson.OPT_SORT_KEYS)
    except (orjson.JSONEncodeError, TypeError):
        data = json.dumps(move, separators=(",", ":"), sort_keys=True,
                          ensure_ascii=False).encode("utf-8", "surrogatepass")
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


TOKEN_CHARS = re.compile(r"[A-Za-z0-9_-]+")  # the base64url alphabet, without padding


def check_move(move: Any, i: int) -> None:
    """Refuse, at ``/line/i/...``, a move of a line (a decoded JSON value) that is not an
    object or that breaks the structural limits of a log's moves (``check_bounds``: nesting,
    sizes, whole numbers): a move is a log's move, and bounded before anything walks it."""
    if not isinstance(move, dict):
        raise LogFormatError(f"move {i + 1} of the variation is not a JSON object", f"/line/{i}")
    check_bounds(move, ("line", i))


def read_token(part: str, i: int) -> dict[str, Any]:
    """The move of token ``part``, the ``i``-th of a line; ``LogFormatError`` at
    ``/line/i/...`` for anything but the one token ``token`` writes for a move: a character
    outside the base64url alphabet, padding, JSON that is not I-JSON
    (``json_input.decode``), or another spelling of the same move (keys in another order,
    spaces, escapes, other trailing bits)."""
    where = f"/line/{i}"
    if (not part or len(part) > MAX_TOKEN or len(part) % 4 == 1
            or not TOKEN_CHARS.fullmatch(part)):
        raise LogFormatError(f"move {i + 1} of the variation is not a move token (unpadded "
                             "base64url: letters, digits, '-' and '_')", where)
    try:
        data = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        raise LogFormatError(f"move {i + 1} of the variation is not a move token",
                             where) from None
    try:
        move = decode(data)
    except LogFormatError as exc:
        raise LogFormatError(f"move {i + 1} of the variation is not a move: {exc.message}",
                             where + (exc.path or "")) from None
    check_move(move, i)
    if token(move) != part:
        raise LogFormatError(f"move {i + 1} of the variation is not written as the board "
                             "writes it (compact JSON, keys sorted, no escapes)", where)
    out: dict[str, Any] = move
    return out


def read_line(text: str) -> list[Any]:
    """The moves of a line (tokens joined by "."), each read by ``read_token``;
    ``LogFormatError`` at ``/line`` or ``/line/i/...`` for a line that is not one."""
    if not text:
        return []
    if len(text) > MAX_LINE * (MAX_TOKEN + 1):
        raise LogFormatError(f"a variation holds at most {MAX_LINE} moves", "/line")
    parts = text.split(".")
    if len(parts) > MAX_LINE:
        raise LogFormatError(f"a variation holds at most {MAX_LINE} moves ({len(parts)} given)",
                             "/line")
    return [read_token(part, i) for i, part in enumerate(parts)]


def line_text(moves: list[Any]) -> str:
    """A line's moves as tokens joined by "." (``read_line``'s inverse); ``LogFormatError``
    at ``/line`` or ``/line/i/...`` (as ``check_move`` says) for a list that is not a line:
    the moves of a request's body are bounded here before they are encoded."""
    if len(moves) > MAX_LINE:
        raise LogFormatError(f"a variation holds at most {MAX_LINE} moves ({len(moves)} given)",
                             "/line")
    for i, m in enumerate(moves):
        check_move(m, i)
    return ".".join(token(m) for m in moves)


def variation_log(log: Mapping[str, Any], base: int, line: list[Any]) -> dict[str, Any]:
    """The log of a variation: ``log``'s header and players with its first ``base`` moves,
    then ``line``. The claims, the end and the meta of the game are not the variation's."""
    out = {k: v for k, v in log.items() if k not in ("claims", "end", "meta", "moves")}
    out["moves"] = list(log.get("moves", []))[:base] + list(line)
    return out


def line_path(path: str, base: int) -> str:
    """A JSON path of a variation's log (``/moves/k/...``) as the path in its line
    (``/line/(k - base)/...``); other paths unchanged."""
    head, _, rest = path.removeprefix("/moves/").partition("/")
    if path.startswith("/moves/") and head.isdigit() and int(head) >= base:
        return f"/line/{int(head) - base}" + (f"/{rest}" if rest else "")
    return path
