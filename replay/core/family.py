"""The interface every game family implements, and the registry that finds them.

A **family** (``Family``) is a game with its rules, its expansions, its part of the log format
and its drawing; a **state** (``GameState``) is one position of one game of it, advanced move by
move. The split follows OpenSpiel's Game/State; the registry follows python-chess's variants.
The core (log envelope, replay loop, verifier, CLI, web app) talks only to these two classes.

Families register through the entry point group ``carcassonne_replay.families``
(``FAMILY_GROUP``; the name is the log's ``game``, the value a reference ``module:attribute`` to
the ``Family`` instance), the built-in ones in this project's ``pyproject.toml``, others in
their own distributions (``replay.core.plugins``). ``family(name)`` imports only the one it is
asked for, ``families()`` all. A family names the importers of its foreign formats by such
references too (``Family.importer_refs``).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

from . import hashing
from .config import COLOURS as COLOURS
from .config import Expansion as Expansion
from .config import GameConfig as GameConfig
from .config import MoveColumn as MoveColumn
from .config import MoveText as MoveText
from .config import Option as Option
from .config import Player as Player
from .errors import IllegalMove, LogFormatError
from .events import join_words
from .plugins import Group, load_ref

MARGIN_SPREAD = 10.0  # points a lead may still move by default (``GameState.margin_spread``)

if TYPE_CHECKING:
    from .events import Event
    from .importing import Importer
    from .rng import SeededStream


class GameState:
    """One position of one game, advanced by ``apply``.

    ``apply`` is atomic: an illegal move raises ``IllegalMove`` (with the rule id) and leaves
    the state, and its hash, exactly as they were. ``check`` and ``is_legal`` never change it.

    Not an ``ABC``: the states are compiled by mypyc, which makes a class without its
    metaclass's ``__new__``, so under ``ABCMeta`` they would share one ``isinstance`` cache
    (an answer for one family's state given for another's). mypy still holds a subclass to
    the abstract methods.
    """

    config: GameConfig
    scores: list[int]
    finished: bool
    moves_played: int
    hash: int  # the Zobrist state hash (L4); ``state_hash`` is its text
    setup_events: list[Event]  # what happened before the first move

    @property
    @abstractmethod
    def family(self) -> Family:
        """The family this game belongs to."""

    @property
    def players(self) -> tuple[Player, ...]:
        return self.config.players

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to move, or None when the game is over."""

    @property
    def state_hash(self) -> str:
        """The state hash as 16 hex digits (L4): equal states have equal hashes."""
        return hashing.hexdigest(self.hash)

    @abstractmethod
    def legal_moves(self) -> Iterator[Any]:
        """Every complete legal move, in a fixed order (each one ``apply`` accepts)."""

    @abstractmethod
    def check(self, move: Any) -> None:
        """Raise ``IllegalMove`` when ``move`` is illegal here; never changes the state."""

    def is_legal(self, move: Any) -> bool:
        """Whether ``apply(move)`` would succeed."""
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    @abstractmethod
    def apply(self, move: Any) -> list[Event]:
        """Play one move of the log; return its events. Atomic (see the class)."""

    def play(self, move: Any) -> None:
        """``apply`` for a caller that keeps no events (the verifier): a family may skip
        building them. Atomic like ``apply``."""
        self.apply(move)

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy: moves applied to it leave this state alone."""

    def redraw_hidden(self, seat: int, rng: SeededStream) -> None:
        """Replace, in place, everything seat ``seat`` cannot know by a random draw from
        ``rng`` of what it could be, consistent with everything that seat has seen: a
        *determinization*, which game-playing agents search instead of the true state, so that
        they never see the true future of a seeded log. The caller works on a ``copy()``.

        The result depends only on what the seat has seen and on ``rng`` (the hidden pool is
        put in a canonical order before it is shuffled), and it plays on as any state does:
        any randomness still to come (a reshuffle, a bag) comes from ``rng`` too, not from the
        log's seed. A state that named no draw (a table log, no seed) becomes one that draws
        by itself, as a seeded one does.

        By default nothing: a game of perfect information. A family with hidden parts (a draw
        pile, the other players' hands) must override it; plugins included."""

    def decision(self, move: Any) -> Any:
        """The part of legal ``move`` its player decides knowing only what it has seen: the
        whole move by default. A move that also holds what is drawn during the turn (Hunters
        & Gatherers' bonus tile) is decided without it: agents compare the moves of redrawn
        states (``redraw_hidden``) by their decisions, then complete the one chosen among the
        true state's moves."""
        return move

    @abstractmethod
    def end_now(self) -> list[Event]:
        """End the game here and score it (a log ending ``"after-last-move"``)."""

    def scores_if_ended(self) -> list[int]:
        """The scores if the game ended now (``end_now`` on a copy): the state is unchanged."""
        ended = self.copy()
        ended.end_now()
        return list(ended.scores)

    def holding_value(self, seat: int) -> float:
        """What ``seat``'s pieces still in hand are worth, in points, for the rest of the
        game: the game-playing agents value a position by its scores if it ended now plus
        this (``replay.agents.mcts``), so that a search does not spend every piece at once
        for points the end scoring would give anyway. 0 by default (a game whose pieces are
        all used, or with none to keep)."""
        return 0.0

    def margin_spread(self) -> float:
        """How far, in points, the lead of one seat over another may still move before the
        end: the scale of the agents' mid-game value (``replay.agents.base.lead_value``), so
        that a lead counts for more as the end nears. ``MARGIN_SPREAD`` by default; a family
        whose game shortens as it goes (the tile games: the pile) makes it shrink."""
        return MARGIN_SPREAD

    def winners(self) -> list[int]:
        """The seats with the best score (G11: every best score wins)."""
        best = max(self.scores)
        return [p for p, s in enumerate(self.scores) if s == best]

    @abstractmethod
    def supply_of(self, seat: int) -> dict[str, int]:
        """The pieces ``seat`` has left, by kind."""

    @abstractmethod
    def status(self) -> dict[str, Any]:
        """What a viewer shows beside the board (e.g. tiles left, the next tile), as JSON."""

    def playthrough_intro(self) -> list[str]:
        """Lines a playthrough writes about the material before the first move."""
        return []

    def playthrough_before(self, move: Any) -> Any:
        """What a playthrough needs to know before ``move`` is applied."""
        return None

    def playthrough_after(self, before: Any) -> str:
        """The line a playthrough writes after a move (what was drawn, what is left)."""
        return ""

    def draw(self, *, events: Sequence[Event] = (), failure: Any = None,
             notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-") -> str:
        """The position as SVG (see ``replay.svg.board``)."""
        return self.family.draw(self, events=events, failure=failure, notes=notes, size=size,
                                prefix=prefix)

    def next_piece_svg(self, size: int = 56) -> str:
        """The piece the player to move plays next (the tile drawn, say) as SVG ``size`` pixels
        wide, shown beside the board: "" when there is none (nothing drawn, the end), as here."""
        return ""


class Family(ABC):
    """A game family: rules, expansions, log format and drawing."""

    name: ClassVar[str]  # the log's "game"
    label: ClassVar[str]  # for people
    rule_prefixes: ClassVar[tuple[str, ...]]  # its rule ids start with these (with G, L)
    expansions: ClassVar[Mapping[str, Expansion]] = {}
    options: ClassVar[tuple[Option, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    player_rule: ClassVar[str] = "G3"  # the rule that sets the number of players
    colours: ClassVar[tuple[str, ...]] = COLOURS  # the player colours, in the default order
    # the fields of its logs' header and players beyond the envelope's (``log_schema``): the
    # fast header check (``header_check``) refuses any other
    header_fields: ClassVar[frozenset[str]] = frozenset({"expansions", "options"})
    player_fields: ClassVar[frozenset[str]] = frozenset()  # beyond name and colour
    # the importers of foreign saved games that become logs of this family, as references
    # "module:attribute" to ``replay.core.importing.Importer`` instances
    importer_refs: ClassVar[tuple[str, ...]] = ()
    # the machine that fuzzes this family with its own invariants (``python -m replay fuzz``):
    # a reference "module:Class" to a ``replay.lab.machines.GameMachine`` subclass, imported
    # only for fuzzing; None: the generic machine (the invariants every family owes)
    fuzz_machine: ClassVar[str | None] = None
    # how its moves show on the analysis board, and how its positions look: "module:Class"
    # references to ``replay.core.explore.Explorer``, ``replay.core.view.View``; None: defaults
    explorer: ClassVar[str | None] = None
    view: ClassVar[str | None] = None
    # the columns of the library's ``moves`` table read from its moves (``replay.library.
    # tables``); none: its moves are rows of the shared columns only
    move_columns: ClassVar[tuple[MoveColumn, ...]] = ()

    def importers(self) -> tuple[Importer, ...]:
        """The importers of this family's foreign formats (imported on first use)."""
        from .importing import Importer

        return tuple(load_ref(ref, Importer) for ref in self.importer_refs)

    # ------------------------------------------------------------ the header

    def mixes(self) -> list[tuple[str, ...]]:
        """Every combination of expansions this family is played with (the empty one first)."""
        names = list(self.expansions)
        out: list[tuple[str, ...]] = [()]
        for k in range(1, len(names) + 1):
            out += [tuple(names[i] for i in range(len(names)) if mask >> i & 1)
                    for mask in range(1, 1 << len(names)) if bin(mask).count("1") == k]
        return out

    def seat_limit(self, expansions: Sequence[str]) -> int:
        return self.max_players + sum(self.expansions[x].extra_players for x in expansions
                                      if x in self.expansions)

    def check_players(self, count: int, expansions: Sequence[str]) -> None:
        """Raise ``IllegalMove`` (move None) when the game cannot seat ``count`` players."""
        limit = self.seat_limit(expansions)
        if self.min_players <= count <= limit:
            return
        hint = ""
        adds = [x for x in self.expansions.values() if x.extra_players and x.name not in
                expansions]
        if count > limit and adds and count <= self.seat_limit([*expansions, adds[0].name]):
            hint = (f" (a {_ordinal(count)} player needs {adds[0].label}, "
                    f"{adds[0].rule_prefix}1)")
        raise IllegalMove(self.player_rule, f"{count} player{'s' if count != 1 else ''}; "
                          f"{self.label} takes {self.min_players} to {limit}{hint}")

    def check_expansions(self, expansions: Sequence[str], path: str = "/expansions") -> None:
        if expansions and not self.expansions:
            raise LogFormatError(f"{self.label} has no expansions", path)
        for i, x in enumerate(expansions):
            if x not in self.expansions:
                raise LogFormatError(f"{x!r} is not an expansion of {self.label} (choose from "
                                     f"{', '.join(self.expansions)})", f"{path}/{i}")

    def option_values(self, given: Mapping[str, Any], expansions: Sequence[str],
                      path: str = "/options") -> dict[str, Any]:
        """The options of a game: the given ones checked, the others at their default."""
        known = {o.key: o for o in self.options}
        for key, value in given.items():
            opt = known.get(key)
            if opt is None:
                raise LogFormatError(f"{key!r} is not an option of {self.label}",
                                     f"{path}/{key}")
            if value not in opt.choices or type(value) is not type(opt.default):
                raise LogFormatError(f"{value!r} is not a value of {key} (choose from "
                                     f"{', '.join(map(str, opt.choices))})", f"{path}/{key}")
        return {o.key: given.get(o.key, o.default) for o in self.options}

    def options_json(self, options: Mapping[str, Any],
                     expansions: Sequence[str]) -> dict[str, Any]:
        """The ``options`` a log written for this game records."""
        return {o.key: options[o.key] for o in self.options
                if o.expansion is None or options[o.key] != o.default}

    @abstractmethod
    def configure(self, header: Mapping[str, Any], players: tuple[Player, ...],
                  seed: str | None, material: Any = None) -> GameConfig:
        """The configuration of a game from its log header (expansions, options, material),
        checked; raises ``LogFormatError`` (with the JSON path) or ``IllegalMove``."""

    def header_json(self, config: GameConfig) -> dict[str, Any]:
        """The header fields of a log of this game besides format, players, seed, moves."""
        return {"game": self.name, "expansions": list(config.expansions),
                "options": self.options_json(config.options, config.expansions)}

    def log_schema(self) -> dict[str, Any]:
        """This family's part of the JSON Schema (Draft 2020-12) of its logs, which
        ``replay.core.schemas`` puts in the envelope (format, version, game, players' names
        and colours, seed, end, moves, claims, meta)::

            {"header": {field: schema, ...},   # the header fields beyond the envelope's
             "players": {field: schema, ...},  # a player's fields beyond name and colour
             "move": schema,                   # one move
             "$defs": {name: schema, ...}}     # what they refer to as "#/$defs/name"

        Every key may be left out. A schema may refer to the envelope's ``#/$defs/scores``
        (claimed scores by player name). A field of neither the envelope nor the part is
        refused as unknown (``false`` refuses one too, with another message). The header
        fields with a schema other than ``false`` must be ``header_fields`` (and those of a
        player ``player_fields``).

        By default (a family that brings no schema): ``expansions`` a list of at most 4
        distinct names, ``options`` an object, any other of ``header_fields`` and
        ``player_fields`` any JSON value, and a move any JSON object: ``configure`` and
        ``decode_move`` check the rest and raise ``LogFormatError`` with the JSON path."""
        shapes: dict[str, Any] = {
            "expansions": {"type": "array", "uniqueItems": True, "maxItems": 4,
                           "items": {"type": "string", "minLength": 1, "maxLength": 64}},
            "options": {"type": "object"}}
        return {"header": {f: shapes.get(f, True) for f in sorted(self.header_fields)},
                "players": dict.fromkeys(sorted(self.player_fields), True),
                "move": {"type": "object"}, "$defs": {}}

    def header_surely_valid(self, data: Mapping[str, Any]) -> bool:
        """A fast check of this family's header fields (``header_fields``, the players'
        ``player_fields``): True only when its log schema (``log_schema``) surely accepts them;
        False sends the header to the schema (``header_check``)."""
        return False

    def players_json(self, config: GameConfig) -> list[dict[str, Any]]:
        """The ``players`` of a log of this game."""
        return [{"name": p.name, "colour": p.colour} for p in config.players]

    # ------------------------------------------------------------ moves

    @abstractmethod
    def new_state(self, config: GameConfig) -> GameState:
        """The position before the first move."""

    @abstractmethod
    def decode_move(self, raw: Mapping[str, Any], path: str) -> Any:
        """A schema-valid move object of a log as a move; ``LogFormatError`` at ``path``."""

    @abstractmethod
    def encode_move(self, move: Any) -> dict[str, Any]:
        """A move as the object a log records (``decode_move``'s inverse)."""

    def read_moves(self, raws: list[Any]) -> list[Any] | None:
        """All the moves of a log decoded in one pass, when each is surely valid under the
        schema; None otherwise (then each is validated and decoded on its own). A fast path:
        families without one return None."""
        return None

    def move_surely_valid(self, raw: Any) -> bool:
        """A fast check that accepts only moves the schema accepts (see ``record``)."""
        return False

    def describe_move(self, move: Any, events: Sequence[Event] | None,
                      state: GameState) -> MoveText:
        """``move`` told for people and in codes (the default ``View.describe_move`` asks it):
        ``events`` are what the move did, None for an illegal move (told from the move alone).
        ``state`` is a position of the game: for an illegal move, the one it was tried in; for
        a legal one maybe a later one, so read only what a whole game keeps (its
        configuration, seats and material). By default: the object the log records."""
        codes = json.dumps(self.encode_move(move), ensure_ascii=False, separators=(", ", ": "))
        return MoveText(codes, codes)

    @abstractmethod
    def play_random(self, state: GameState, pick: Any) -> Any:
        """Play a random legal move on ``state`` by the family's generator policy (``pick`` is
        a seeded stream) and return it: what ``python -m replay generate`` plays."""

    def play_random_game(self, state: GameState, pick: Any) -> list[dict[str, Any]]:
        """Play ``state`` to its end by ``play_random`` and return the moves as log objects
        (``encode_move``). A family may override it with a loop compiled with its policy:
        the generator's speed."""
        moves: list[dict[str, Any]] = []
        while not state.finished:
            moves.append(self.encode_move(self.play_random(state, pick)))
        return moves

    # ------------------------------------------------------------ drawing

    def draw(self, state: GameState, *, events: Sequence[Event] = (), failure: Any = None,
             notes: Sequence[str] = (), size: int | None = None, prefix: str = "cr-") -> str:
        """The SVG picture of ``state``, drawn by the family's view (``View.board``); a plugin
        written before views overrides it."""
        from .view import view_of

        return view_of(self).board(state, events=events, failure=failure, notes=notes,
                                   size=size, prefix=prefix)

    def __repr__(self) -> str:
        return f"<family {self.name}: {self.label}>"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


FAMILY_GROUP = "carcassonne_replay.families"  # the entry point group of the game families


def _registered_as(name: str, found: Any) -> str | None:
    """Why a loaded family cannot stand for the log's ``game`` ``name`` (None: it can)."""
    if found.name != name:
        return f"it is the family {found.name!r}, registered as {name!r}"
    return None


# every installed family (entry point group ``FAMILY_GROUP``), imported on first use
REGISTRY = Group(FAMILY_GROUP, Family, "family", _registered_as)


def families() -> tuple[Family, ...]:
    """Every installed game family (all their modules imported), sorted by name; a family
    that cannot be loaded is said once on stderr and left out."""
    return tuple(REGISTRY.loaded().values())


def family(name: str, path: str = "/game") -> Family:
    """The family whose log ``game`` is ``name`` (only its module is imported);
    ``LogFormatError`` at ``path`` when none is installed under that name."""
    found: Family | None = REGISTRY.parts.get(name) or REGISTRY.get(name)
    if found is None:
        raise LogFormatError(not_installed(name), path)
    return found


def not_installed(name: str) -> str:
    """What to say of a log whose ``game`` is ``name`` when no family of that name loads."""
    why = REGISTRY.failures.get(name)
    if why is not None:
        return f"the family {name!r} is installed but cannot be loaded: {why}"
    names = [f.name for f in families()]
    if not names:
        return f"this service plays no game {name!r}: {NO_FAMILIES}"
    return f"this service plays no game {name!r} (it plays {join_words(names)})"


# said when no family at all is registered: the project's own distribution, which declares
# the built-in ones, is not installed (its sources run from a bare clone, say)
NO_FAMILIES = ("no game family is registered, so this project is not installed: run ./run, "
               "or pip install -e . in its directory")
