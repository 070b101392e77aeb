"""Variations of a stored game, as the analysis board's pages and API read them.

A variation is named by its branching position ``from`` (``b``: the state after the game's
first ``b`` moves) and its ``line`` (``replay.core.explore`` tokens joined by "."). Its log is
the game's own header with the game's first ``b`` moves and the line's, so its moves are checked
as an upload's are (schema, fields, sizes), and it is judged and drawn as a game is, and saved
as one; nothing of it is stored unless the user saves it. Only the line is read and replayed:
from the game's record and its checkpoint at ``b`` (``replay.core.record.continued``,
``replay.core.playback.branch``), the game's summary telling its first ``b`` moves. Recently
used variations are kept in memory (their replay with its checkpoints), so stepping through
one costs a copied checkpoint; what is kept is bounded by bytes (``VARIATION_BYTES``,
``EXPLORED_BYTES``: estimated weights), not only by count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import NamedTuple

from flask import current_app

from replay.core.errors import LogFormatError
from replay.core.explore import (
    Choices,
    choices,
    explorer_of,
    line_path,
    read_line,
    variation_log,
)
from replay.core.family import GameState
from replay.core.json_input import MAX_MOVES
from replay.core.record import continued

from .games import LRU, Entry, weigh


@dataclass(frozen=True, slots=True)
class Variation:
    """A variation of ``game`` (see the module), replayed as the game ``entry``."""

    game: Entry
    base: int
    line: str  # tokens joined by "."
    moves: tuple[object, ...]  # the line's moves, as the log records them
    entry: Entry

    @property
    def last(self) -> int:
        """Its last position."""
        return self.entry.last


def branch_point(game: Entry, n: int) -> int:
    """Where a variation tried at position ``n`` of ``game`` branches: ``n``, or the state
    before the illegal move at a failing position."""
    legal = len(game.parsed.playback.hashes) if game.parsed is not None else 0
    return min(n, legal)


def read(game: Entry, base: int, line: str) -> Variation:
    """The variation of ``game`` from ``base`` along ``line``; ``LogFormatError`` with the path
    (``/from``, ``/line/i/...``) for one that cannot be read."""
    check_base(game, base)
    key = (game.row.id, base, line)
    kept = _kept()
    found = kept.get(key)
    if found is not None:
        return found
    moves = read_line(line)
    if base + len(moves) > MAX_MOVES:
        raise LogFormatError(f"a variation's game holds at most {MAX_MOVES} moves", "/line")
    played = game.parsed
    assert played is not None  # check_base
    log = variation_log(played.raw, base, moves)
    try:  # the line's moves checked as an upload's, replayed from the game's checkpoint
        record = continued(played, log, base)
    except LogFormatError as exc:
        raise LogFormatError(exc.message, line_path(exc.path or "/", base)) from None
    text = json.dumps(log, ensure_ascii=False, separators=(",", ":"))
    entry = Entry(replace(game.row, log=text, size=len(text.encode("utf-8")),
                          moves=len(log["moves"])), record, (game, base))
    entry.line = (base, line)
    made = Variation(game, base, line, tuple(moves), entry)
    kept.put(key, made)
    return made


def check_base(game: Entry, base: int) -> None:
    """Refuse (``LogFormatError`` at ``/from``) a branching position ``game`` lacks."""
    if game.parsed is None:
        raise LogFormatError("this game cannot be replayed, so it has no variations", "/from")
    legal = len(game.parsed.playback.hashes)
    if not 0 <= base <= legal:
        raise LogFormatError(f"a variation branches at a legal position of the game (0 to "
                             f"{legal}), not {base}", "/from")


def read_base(game: Entry, text: str | None) -> int:
    """A variation's branching position from a request's text argument ``from``."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise LogFormatError("'from' must be the position the variation branches at (a whole "
                             "number)", "/from")
    check_base(game, int(text))
    return int(text)


def read_args(game: Entry, base: str | None, line: str | None) -> Variation | None:
    """``read`` from a request's text arguments; None when it names no variation."""
    if base is None and line is None:
        return None
    return read(game, read_base(game, base), line or "")


def failure_json(variation: Variation) -> dict[str, object] | None:
    """The illegal move of a variation (its number in the game, its place in the line, the
    rule and the verifier's words), or None."""
    error = variation.entry.parsed.playback.error if variation.entry.parsed else None
    if error is None or error.move is None:
        return None
    k = error.move - variation.base
    return {"move": error.move + 1, "path": f"/line/{k}", "rule": error.rule,
            "message": error.message, "player": error.player,
            "text": f"Move {error.move + 1} of the variation is illegal: {error.rule}: "
                    f"{error.message}"}


ExploredKey = tuple[str, tuple[int, str] | None, int, str | None]


class Explored(NamedTuple):
    """What a position allows (``choices``), with the state it was read from (None when the
    choices were kept from an earlier request) and what it is kept under (``key``: the game,
    the variation's branch and line or None, the position, the pick)."""

    choices: Choices
    state: GameState | None
    key: ExploredKey


@dataclass(frozen=True, slots=True)
class _Kept:
    """An explored position kept (``EXPLORED`` of them per app): its choices."""

    choices: Choices


EXPLORED = 16  # explored positions kept per app


def choices_at(entry: Entry, game: Entry, n: int, pick: str | None = None) -> Explored | None:
    """What position ``n`` of ``entry`` (the game, or a variation of ``game``) allows, with
    the state it was read from; the log's own move at that index (for its draw) comes from
    ``game``. None where nothing can be tried (a game that cannot be replayed). The choices
    of the positions explored last are kept (``EXPLORED``): listing them costs a copy of the
    state and every legal move (about 10 ms on a 6-player board, pure Python)."""
    if entry.parsed is None or game.parsed is None:
        return None
    key: ExploredKey = (game.row.id, entry.line, n, pick)
    kept = _explored().get(key)
    if kept is not None:
        return Explored(kept.choices, None, key)
    pos = entry.parsed.playback.position(n)
    index = pos.failure.index if pos.failure is not None else n
    wanted = game.parsed.moves[index] if index < len(game.parsed.moves) else None
    found = choices(pos.state, explorer_of(entry.parsed.family), wanted, pick)
    _explored().put(key, _Kept(found))
    return Explored(found, pos.state, key)


# an explored position's bytes: an option (its move, token, steps and words) and a refusal,
# measured on 6-player boards with tracemalloc
BYTES_PER_OPTION = 1_200
BYTES_PER_REFUSAL = 400


def _weigh_explored(kept: _Kept) -> int:
    found = kept.choices
    return len(found.options) * BYTES_PER_OPTION + len(found.refusals) * BYTES_PER_REFUSAL


def _explored() -> LRU[ExploredKey, _Kept]:
    """The positions explored last (``EXPLORED``, ``EXPLORED_BYTES`` in all), per app."""
    kept: LRU[ExploredKey, _Kept] | None = current_app.extensions.get("replay_explored")
    if kept is None:
        kept = current_app.extensions.setdefault("replay_explored", LRU(
            EXPLORED, _budget("EXPLORED_BYTES"), _weigh_explored))
    return kept


def _kept() -> LRU[tuple[str, int, str], Variation]:
    """The variations used last (32, ``VARIATION_BYTES`` in all: ``games.weigh``), per
    app."""
    kept: LRU[tuple[str, int, str], Variation] | None = \
        current_app.extensions.get("replay_variations")
    if kept is None:
        kept = current_app.extensions.setdefault("replay_variations", LRU(
            32, _budget("VARIATION_BYTES"), lambda v: weigh(v.entry)))
    return kept


def _budget(name: str) -> int | None:
    value = current_app.config.get(name)
    return None if value is None else int(value)
