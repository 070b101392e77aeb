"""The importers of Carcassonne's foreign saved games: JCloisterZone saves (``jcz``) and Board
Game Arena logs (``bga``). The family declares them (``Carcassonne.importer_refs``); the
interface they implement is ``replay.core.importing``.
"""
