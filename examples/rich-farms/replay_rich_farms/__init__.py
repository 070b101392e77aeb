"""Rich farms: Carcassonne with one house rule, the log's ``"game": "rich-farms"`` (an example
of docs/plugins.md: a variant changes one rule of a built-in family without copying it).

The house rule changes B8 (farm scoring), and only it:

- **B8, rich farms.** Farms are counted per field (the option ``farm_scoring``'s ``per-field``,
  the variant's default): for each field, the majority of its farmers scores **4** points per
  complete city the field touches, instead of 3.
- Under ``farm_scoring: per-city`` (the 1st edition's count, still on offer) a complete city
  already scores 4 to the majority of its farmers: the variant plays it unchanged.

Everything else is the built-in family's: its rules (ids B, IC, HS, with G and L), expansions,
options, log format (its part of the log schema included), moves, view (pictures and words)
and fuzz machine (whose farm points come from the same parameter). The farm score events keep
the rule id B8 and say the points: ``field: 2 complete cities × 4 = 8``.

How: ``Carcassonne.farm_points``, the built-in family's rule parameter for B8 (the points of a
complete city to a farm, by ``farm_scoring``), handed to each game's state once by
``new_state``; the variant is a subclass with its own name and that one parameter changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from replay.core.family import Option
from replay.core.values import replace
from replay.games.carcassonne import Carcassonne

__all__ = ["RICH_FARMS", "RichFarms"]


def _per_field_first(option: Option) -> Option:
    """The option ``farm_scoring`` counts per field by default; the others as they are."""
    return replace(option, default="per-field") if option.key == "farm_scoring" else option


class RichFarms(Carcassonne):
    """Carcassonne whose fields score 4 points a complete city (see the module)."""

    name = "rich-farms"
    label = "Carcassonne: rich farms"
    farm_points: ClassVar[Mapping[str, int]] = {**Carcassonne.farm_points, "per-field": 4}
    options = tuple(_per_field_first(o) for o in Carcassonne.options)
    # the importers of foreign saves make logs of the built-in game, not of this variant
    importer_refs: ClassVar[tuple[str, ...]] = ()


RICH_FARMS = RichFarms()
