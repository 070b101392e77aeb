"""The importers of Carcassonne's foreign saved games: JCloisterZone saves (``jcz``) and Board
Game Arena logs (``bga``). The family declares them (``Carcassonne.importer_refs``); the
interface they implement is ``replay.core.importing``.
"""


def plays() -> str:
    """What the service plays of what these formats hold, for a refusal of a game it does not
    ("Carcassonne: the base game, Inns & Cathedrals and Hills & Sheep")."""
    from .. import CARCASSONNE

    parts = ["the base game", *(e.label for e in CARCASSONNE.expansions.values())]
    return f"{CARCASSONNE.label}: {', '.join(parts[:-1])} and {parts[-1]}"


def uses_jcz(what: str) -> str:
    """The headline of a JCloisterZone save refused for ``what`` it uses."""
    return f"this save uses {what}; this service plays {plays()}"


def uses_bga(what: str) -> str:
    """The headline of a Board Game Arena log refused for ``what`` it uses."""
    return (f"this log uses {what}; this service plays {plays()}, and reads Board Game Arena "
            "logs of the base game")
