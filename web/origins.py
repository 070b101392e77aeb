"""A saved variation's origin, as its pages, the library and the API tell it: "variation of
<game> from move N" (``replay.library.provenance`` reads and checks the claim its log makes)."""

from __future__ import annotations

from flask import url_for

from replay.library.provenance import VariationOf, check, claim_in

from . import db as store
from .games import Entry


def of_entry(entry: Entry) -> VariationOf | None:
    """The origin of a stored game, or None when it is no variation (or its log's claim does
    not hold). Kept with the game: its pages ask the library once, and a log without a claim
    never does (``claim_in`` looks for the claim's text before reading the log)."""
    def find() -> VariationOf | None:
        claim = claim_in(entry.row.log)
        return check(store.get_db(), entry.row.id, *claim) if claim is not None else None

    found: VariationOf | None = entry.keep(("variation_of",), find)
    return found


def origin_url(origin: VariationOf, hiding: bool) -> str | None:
    """Where "variation of ..." leads: the original game at the branch, or None when the
    original is not stored here. While results are hidden (``hiding``) a branch at the
    original's last move would show its end: the link opens the original at its start
    instead (``pages.game``: its start while results are hidden)."""
    original = origin.original
    if original is None:
        return None
    if hiding and origin.base >= original.moves_played:
        return url_for("pages.game", game_id=original.id)
    return url_for("pages.position", game_id=original.id, n=origin.base)
