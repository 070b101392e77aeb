"""What a game family is set up with: its seats (``Player``), rule options (``Option``),
expansions (``Expansion``), a move told two ways (``MoveText``), a column of the moves table
(``MoveColumn``) and the settings of one game (``GameConfig``). Values, defined here and named
through ``replay.core.family``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .values import value_type

COLOURS = ("red", "blue", "green", "yellow", "black", "grey")


class Player:
    """A seat at the table: its name, its colour, and ``also`` the other colours it plays
    (a game where a player takes two colours names them: ``Ben (black and green)``)."""

    __slots__ = ("name", "colour", "also")
    name: str
    colour: str
    also: tuple[str, ...]

    def __init__(self, name: str, colour: str, also: tuple[str, ...] = ()) -> None:
        self.name = name
        self.colour = colour
        self.also = also


class MoveColumn:
    """A column of the library's ``moves`` table that a family declares
    (``Family.move_columns``, ``replay.library.tables``): its ``name``, the ``path`` of keys
    to its value in a move as the log records it (``("figure", "at")``), its SQLite ``kind``
    ("text" or "integer") and what it holds (``help``, for Datasette's metadata). A move
    without the path has no value there (NULL); ``default`` is the value when the path's
    parent is there and its last key is not (a figure without ``kind`` is a follower)."""

    __slots__ = ("name", "path", "kind", "help", "default")
    name: str
    path: tuple[str, ...]
    kind: str
    help: str
    default: Any

    def __init__(self, name: str, path: tuple[str, ...], kind: str, help: str,
                 default: Any = None) -> None:
        self.name = name
        self.path = path
        self.kind = kind
        self.help = help
        self.default = default

    def value(self, move: Mapping[str, Any]) -> Any:
        """This column's value in ``move`` (a log's move), or None."""
        found: Any = move
        for i, key in enumerate(self.path):
            if not isinstance(found, Mapping):
                return None
            if key not in found:
                return self.default if i == len(self.path) - 1 and i > 0 else None
            found = found[key]
        if isinstance(found, bool):
            return int(found)
        return found if isinstance(found, (str, int)) else None


class Option:
    """A rule option of a family: its log key, the values it takes, its default and rule id."""

    __slots__ = ("key", "choices", "default", "rule", "help", "expansion")
    key: str
    choices: tuple[Any, ...]
    default: Any
    rule: str
    help: str
    expansion: str | None  # only with this expansion

    def __init__(self, key: str, choices: tuple[Any, ...], default: Any, rule: str, help: str,
                 expansion: str | None = None) -> None:
        self.key = key
        self.choices = choices
        self.default = default
        self.rule = rule
        self.help = help
        self.expansion = expansion


class Expansion:
    """An expansion a family can be played with."""

    __slots__ = ("name", "label", "rule_prefix", "extra_players")
    name: str  # as in the log's "expansions"
    label: str  # for people
    rule_prefix: str  # the ids of its rules start with this (IC, HS, ...)
    extra_players: int  # seats it adds to the family's limit

    def __init__(self, name: str, label: str, rule_prefix: str, extra_players: int = 0) -> None:
        self.name = name
        self.label = label
        self.rule_prefix = rule_prefix
        self.extra_players = extra_players


class MoveText:
    """One move of a log told two ways (``Family.describe_move``): ``text`` in words for
    people, without the player (``a city cap with a road at (0,1), turned 90° · knight in the
    city to the north``), and ``codes`` in the log's own codes, for a tooltip (``W (0,1) 90°
    follower N``)."""

    __slots__ = ("text", "codes")
    text: str
    codes: str

    def __init__(self, text: str, codes: str = "") -> None:
        self.text = text
        self.codes = codes


class GameConfig:
    """Everything fixed before the first move: the family's settings for one game.

    ``options`` maps each option key of the family to its value (defaults filled in);
    ``material`` is what the family plays with (the tile set of a tile-laying family).
    """

    __slots__ = ("game", "expansions", "players", "options", "seed", "material")
    game: str
    expansions: tuple[str, ...]
    players: tuple[Player, ...]
    options: Mapping[str, Any]
    seed: str | None  # None: a table game, every move names what it draws (L1)
    material: Any

    def __init__(self, game: str, expansions: tuple[str, ...], players: tuple[Player, ...],
                 options: Mapping[str, Any], seed: str | None, material: Any = None) -> None:
        self.game = game
        self.expansions = expansions
        self.players = players
        self.options = options
        self.seed = seed
        self.material = material


value_type(Player, "name colour also")
value_type(Option, "key choices default rule help expansion")
value_type(Expansion, "name label rule_prefix extra_players")
value_type(MoveText, "text codes")
value_type(GameConfig, "game expansions players options seed material")
