"""A game's identity in the library: what the game is, never how its file is spelled.

Two logs are the same game when their **canonical forms** are equal; the library stores a
game once and finds it by its ``content_key``, the SHA-256 of its canonical form. The
canonical form of a readable log is the log its family writes for it (``record.log_json``:
``Family.header_json``, ``players_json`` and ``encode_move``), so that it holds

* the game, its expansions and options (defaults filled in), its material (the tile set's id
  and digest, a card game's cards and deal), the players with their colours (the colours a log
  leaves out filled in as the verifier fills them), the seed and every move;
* what the log claims (the scores after a move, the final scores and winners, ``end``): a
  claim changes the verdict, and a game answered "valid" must be the game that was sent;

and never whitespace, key order, the ``meta`` block, a spelling of a number the reader takes
as the same value, or the format the game came in: a game imported from JCloisterZone or Board
Game Arena is the log its importer made of it, so it is the same game as that log uploaded.

A log whose header breaks a rule (too many players for its game) has no family form: its
identity is its decoded JSON without ``meta``, keys sorted, compact (``canonical_json``).
Unreadable input is never stored and needs no identity. A stored log that a newer check
refuses is known by its decoded JSON the same way, and one that is not even JSON any more by
its text.

``IDENTITY`` names this definition: a change of the canonical form is a new name and a new
library migration that computes every stored game's key again.
"""

from __future__ import annotations

import json
from typing import Any

from ..core.digests import sha256_hex
from ..core.errors import LogFormatError
from ..core.json_input import MAX_BYTES, decode
from ..core.record import GameRecord, log_json, parse
from ..core.verify import Report

IDENTITY = "carcassonne-replay/identity 1"


def canonical_log(record: GameRecord) -> dict[str, Any]:
    """The canonical form of a read log: the log its family writes for it, its claims kept,
    its ``meta`` left out."""
    fam = record.family
    moves = [fam.encode_move(m) for m in record.moves]
    for i, scores in record.move_claims.items():
        moves[i] = {**moves[i], "scores": dict(scores)}
    claims: dict[str, Any] = {}
    if record.final_claims is not None:
        claims["final_scores"] = dict(record.final_claims)
    if record.winner_claims is not None:
        claims["winners"] = list(record.winner_claims)
    out = log_json(fam, record.config, moves, claims or None)
    if record.end_after_last_move:
        out["end"] = "after-last-move"
    return out


def without_meta(value: Any) -> Any:
    """A decoded log without its ``meta`` block (any other value as it is)."""
    if isinstance(value, dict) and "meta" in value:
        return {k: v for k, v in value.items() if k != "meta"}
    return value


def canonical_json(value: Any) -> str:
    """``value`` as JSON with sorted keys and no whitespace (the text its key hashes)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def key_of(canonical: Any) -> str:
    """The content key of a canonical form: the SHA-256 (64 hex digits) of ``IDENTITY`` and
    the form's canonical JSON."""
    return sha256_hex(f"{IDENTITY}\n{canonical_json(canonical)}".encode())


def content_key(report: Report) -> str:
    """The content key of a log ``verify`` read (readable: a ``Report`` with its ``log``)."""
    if report.record is not None:
        return key_of(canonical_log(report.record))
    return key_of(without_meta(report.log))


def stored_identity(text: str) -> tuple[str, dict[str, Any] | None]:
    """The content key and the ``meta`` of a log stored as ``text`` (the log v1 of a stored
    row): the key its upload got, read again with the current code."""
    try:
        value = decode(text, max(MAX_BYTES, 4 * len(text)))
    except LogFormatError:
        return key_of(text), None
    try:
        return key_of(canonical_log(parse(value))), meta_of(value)
    except Exception:  # a header that breaks a rule, a log a newer check refuses, or a bug
        return key_of(without_meta(value)), meta_of(value)  # of a family's reader


def meta_of(value: Any) -> dict[str, Any] | None:
    """The ``meta`` block of a decoded log, or None."""
    meta = value.get("meta") if isinstance(value, dict) else None
    return meta if isinstance(meta, dict) else None
