"""What the tile-laying families share as a ``Family``: the tile set as material, the
``tileset`` header field and the shared move fields; their view (pictures and words) is
``replay.tiles.view.TileView``, named by ``view``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from ..core.errors import LogFormatError, TileSetError
from ..core.family import Family, GameConfig, MoveColumn, Player
from ..core.json_input import text
from .moves import plain_fields
from .sets import builtin_tileset, combine
from .tileset import TileSet


class TileFamily(Family):
    """A family played with tiles (see the module)."""

    tileset: ClassVar[str]  # the id of the built-in tile set of the game itself
    expansion_order: ClassVar[tuple[str, ...]] = ()  # the pile depends on it (G2)
    figure_kinds: ClassVar[frozenset[str]] = frozenset()  # every kind a log may name
    header_fields = frozenset({"expansions", "options", "tileset"})
    move_fields: ClassVar[frozenset[str]] = frozenset(
        {"tile", "discard", "x", "y", "rotation", "figure", "scores"})
    explorer = "replay.tiles.explore:TileExplorer"
    view = "replay.tiles.view:TileView"
    move_columns = (
        MoveColumn("tile", ("tile",), "text", "the tile drawn and placed (its id in the tile set)"),
        MoveColumn("x", ("x",), "integer", "the cell's column (east is +1; the start tile at 0)"),
        MoveColumn("y", ("y",), "integer", "the cell's row (south is +1; the start tile at 0)"),
        MoveColumn("rotation", ("rotation",), "integer", "degrees clockwise: 0, 90, 180, 270"),
        MoveColumn("figure", ("figure", "kind"), "text",
                   "the kind of figure placed (follower, large-follower, shepherd, ...), "
                   "none when no figure was placed", default="follower"),
        MoveColumn("figure_at", ("figure", "at"), "text",
                   "where on the tile the figure stands (a location code: N, NL, C, ...)"),
        MoveColumn("discard", ("discard",), "integer", "1: the tile fit nowhere and was set "
                                                       "aside"),
    )

    def tileset_for(self, expansions: Sequence[str], custom: TileSet | None = None) -> TileSet:
        """The game's tile set with its expansions' (in the fixed order, G2)."""
        ordered = tuple(sorted(expansions, key=self.expansion_order.index))
        extra = [self.expansion_tileset(x) for x in ordered]
        try:
            if custom is None:
                return _builtin_combination(self.tileset, tuple(extra))
            return combine([custom] + [builtin_tileset(x) for x in extra])
        except TileSetError as exc:
            raise LogFormatError(str(exc), "/game") from None

    def expansion_tileset(self, expansion: str) -> str:
        return expansion

    def configure(self, header: Mapping[str, Any], players: tuple[Player, ...],
                  seed: str | None, material: Any = None) -> GameConfig:
        expansions = list(header.get("expansions", []))
        self.check_expansions(expansions)
        self.check_players(len(players), expansions)
        options = self.option_values(header.get("options", {}), expansions)
        if material is not None and material.game != self.name:
            raise LogFormatError(f"tile set {material.id} is for {material.game}, not "
                                 f"{self.name}", "/game")
        tileset = self.tileset_for(expansions, material)
        recorded = header.get("tileset")
        if recorded is not None and recorded["sha256"] != tileset.digest:
            raise LogFormatError(
                f"the log was recorded with tile set {recorded['id']} (sha256 "
                f"{recorded['sha256'][:12]}...), but this replay uses {tileset.id} "
                f"(sha256 {tileset.digest[:12]}...)", "/tileset/sha256")
        return GameConfig(self.name, tuple(expansions), players, options, seed, tileset)

    def header_json(self, config: GameConfig) -> dict[str, Any]:
        out = super().header_json(config)
        out["tileset"] = {"id": config.material.id, "sha256": config.material.digest}
        return out

    def header_surely_valid(self, data: Mapping[str, Any]) -> bool:
        """Expansions, options and tile set as the log schema surely accepts them."""
        expansions = data.get("expansions", [])
        if type(expansions) is not list or len(expansions) > 4:
            return False
        if not all(type(x) is str and x in self.expansions for x in expansions):
            return False
        if len(set(expansions)) != len(expansions):
            return False
        options = data.get("options", {})
        if type(options) is not dict:
            return False
        known = {o.key: o for o in self.options}
        for key, value in options.items():
            opt = known.get(key)
            if opt is None or type(value) is not type(opt.default) or value not in opt.choices:
                return False
        if "tileset" in data:
            tileset = data["tileset"]
            if type(tileset) is not dict or set(tileset) != {"id", "sha256"}:
                return False
            if not text(tileset["id"], 0, 200) or not _sha256(tileset["sha256"]):
                return False
        return True

    def move_surely_valid(self, raw: Any) -> bool:
        return plain_fields(raw, self.move_fields, self.figure_kinds) is not None

    def refuse_foreign_fields(self, raw: Mapping[str, Any], path: str) -> None:
        """A move field the schema knows but this game does not play."""
        if self.move_fields.issuperset(raw):
            return
        for key in raw:
            if key not in self.move_fields:
                raise LogFormatError(f"{key!r} is not a move field of {self.label} "
                                     f"(with the expansions of this log)", f"{path}/{key}")


@cache
def _builtin_combination(main: str, expansions: tuple[str, ...]) -> TileSet:
    return combine([builtin_tileset(main)] + [builtin_tileset(x) for x in expansions])


_HEX = frozenset("0123456789abcdef")


def _sha256(v: Any) -> bool:
    return type(v) is str and len(v) == 64 and _HEX.issuperset(v)
