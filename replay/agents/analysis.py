"""The computer analysis of a game (``python -m replay analyse``): at every position before a
move, each player's win chance, the engine's best move with its value, and the move played
with its value, its loss and a mark.

**The search.** Each position is searched once by an ``mcts`` agent (``MctsAgent.search``:
determinizations of what the mover could not know, the true hidden part never looked at), the
move played tried first at every root (``include``), so that its value comes from the same
search as the best move's whatever its one-ply rank. A table log (no seed) of a tile game
names the tile its player drew: the position is searched as that player saw it, with that tile
in hand (``tiles.hidden.hold`` on a redrawn copy); a tile that fit nowhere (discarded) leaves
nothing to choose, and its position is not searched. Each position has a stream of its own
(``SeededStream("analyse", "position:<n>")``): the same log and agent give the same analysis on
any machine, under any ``PYTHONHASHSEED``, in any process.

**Win chance** of a seat: the mean of its *outcome* (1 for the best score alone, 1/k for a best
score shared by k seats, 0 otherwise; ``base.outcome``) over the search's simulations after
the best move, each simulation valued by the scores if the game ended a short playout later:
how often the engine sees that seat come out on top, not a calibrated probability, and only as
good as the budget. The mover's win chance is the best move's; every seat's is read from the
same simulations (``Searched.wins``). The **value** of a move is the mover's mean value in
the search (in [0, 1]: the chance its lead gives at an unfinished leaf, ``base.lead_value``;
outcome and score margin at the end, ``base.value``); the **loss** of the move played is the
best move's value minus its own (0 when it is the best; never below 0: a move visited less
whose mean came out higher is not counted a gain), and its **drop** the same of the mover's
win chance.

**Marks**, by the drop of the mover's win chance (lichess's thresholds on its 0..1 scale):
an *inaccuracy* from 0.1, a *mistake* from 0.2, a *blunder* from 0.3.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import IllegalMove
from ..core.rng import SeededStream
from .mcts import MctsAgent, Searched, complete, decision_key

if TYPE_CHECKING:
    from ..core.family import GameState
    from ..core.record import GameRecord

DEFAULT_AGENT = "mcts:200:dets=2"  # a 72-move base game in well under a minute (docs/agents.md)
THRESHOLDS = (("blunder", 0.3), ("mistake", 0.2), ("inaccuracy", 0.1))  # worst first
MARKS = ("inaccuracy", "mistake", "blunder")
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
DIGITS = 4  # the rounding of the numbers written (the same on every machine)

Position = dict[str, Any]


def mark(drop: float | None) -> str | None:
    """The mark of a drop of the mover's win chance (see the module), or None."""
    if drop is None:
        return None
    for name, low in THRESHOLDS:
        if drop >= low - 1e-9:
            return name
    return None


def searching_agent(spec: str) -> MctsAgent:
    """The agent of ``spec`` if it searches (``AgentSpecError`` otherwise, saying why)."""
    from . import AgentSpecError, agent

    found = agent(spec)
    if not isinstance(found, MctsAgent):
        raise AgentSpecError(f"{spec!r} does not search: analyse needs an mcts agent "
                             f"(e.g. {DEFAULT_AGENT})")
    if found.ms:
        raise AgentSpecError(f"{spec!r}: a budget in milliseconds depends on the machine's "
                             "speed; analyse needs a count of simulations (mcts:200) so that "
                             "the same log always gives the same analysis")
    return found


def _table_tile(state: GameState, move: Any) -> str | None:
    """The tile a table log's move names, when the position is a tile game's without a seed
    (its player's tile in hand is then to be held), else None."""
    from ..tiles.state import TileState

    if isinstance(state, TileState) and state.config.seed is None and not state.finished:
        tile = getattr(move, "tile", None)
        return tile if isinstance(tile, str) else None
    return None


def as_seen(state: GameState, move: Any, n: int) -> tuple[GameState | None, str | None]:
    """The position before move ``n`` as its player saw it: ``state`` itself, or for a table
    tile game a redrawn copy holding the tile the move names. (None, why) when that tile
    fits nowhere (the move discards it: nothing to choose)."""
    tile = _table_tile(state, move)
    if tile is None:
        return state, None
    if getattr(move, "discard", False):
        return None, f"tile {tile} fits nowhere: discarded, nothing to choose"
    from ..tiles.hidden import hold

    seen = state.copy()
    seat = state.current_player
    assert seat is not None
    seen.redraw_hidden(seat, SeededStream("analyse", f"hold:{n}"))
    try:
        hold(seen, tile)  # type: ignore[arg-type]
    except ValueError as exc:
        return None, str(exc)
    return seen, None


def _told(state: GameState, move: Any) -> dict[str, Any]:
    """A move as the log records it and in words (the family's view), its events got by
    playing it on a copy of ``state``."""
    from ..core.view import view_of

    fam = state.family
    try:
        events: list[Any] | None = state.copy().apply(move)
    except IllegalMove:
        events = None
    told = view_of(fam).describe_move(move, events, state)
    return {"move": fam.encode_move(move), "text": told.text, "codes": told.codes}


def canonical(state: GameState, move: Any) -> Any:
    """``move`` as ``state.legal_moves()`` lists it: a log may write a move another way (a
    figure's location by an alias of its segment, ``S`` for ``SL``), which the search's
    decisions would not match. Itself when its decision is listed; else the listed move that
    leaves the same state hash (itself when none does)."""
    key = decision_key(state, state.decision(move))
    moves = list(state.legal_moves())
    if any(decision_key(state, state.decision(m)) == key for m in moves):
        return move
    after = state.copy()
    try:
        after.apply(state.decision(move))  # (what it drew: what this position draws)
    except IllegalMove:
        return move
    for m in moves:
        other = state.copy()
        other.apply(m)
        if other.hash == after.hash:
            return m
    return move


def _r(x: float) -> float:
    return round(x, DIGITS)


def position(state: GameState, move: Any, n: int, agent: MctsAgent) -> Position:
    """The analysis of the position ``state`` before move ``n`` (0-based) of a log, whose
    move played is ``move`` (legal there; see the module)."""
    seat = state.current_player
    assert seat is not None
    names = [p.name for p in state.players]
    out: Position = {"move": n + 1, "seat": seat, "player": names[seat]}
    seen, why = as_seen(state, move, n)
    if seen is None:
        return {**out, "note": why, "win": None, "best": None, "played": None, "loss": None,
                "drop": None, "mark": None}
    rng = SeededStream("analyse", f"position:{n}")
    played_decision = seen.decision(canonical(seen, move))
    found = agent.search(seen, rng, include=(played_decision,))
    best = found[0]
    key = decision_key(seen, played_decision)
    mine: Searched | None = next(
        (s for s in found if decision_key(seen, s.decision) == key), None)
    best_move = complete(seen, best.decision, rng)
    out["win"] = [_r(w) for w in best.wins]
    out["best"] = {**_told(seen, best_move), "value": _r(best.value), "win": _r(best.win),
                   "visits": best.visits}
    out["played"] = {**_told(state, move), "value": None if mine is None else _r(mine.value),
                     "win": None if mine is None else _r(mine.win),
                     "visits": 0 if mine is None else mine.visits,
                     "best": mine is best}
    if mine is None:  # the search never reached it (a budget below one visit a decision)
        out.update(loss=None, drop=None, mark=None)
        return out
    loss = 0.0 if mine is best else max(0.0, best.value - mine.value)
    drop = 0.0 if mine is best else max(0.0, best.win - mine.win)
    out.update(loss=_r(loss), drop=_r(drop), mark=mark(drop))
    return out


def analyse_record(record: GameRecord, agent: MctsAgent,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The analysis of a log: ``positions`` (``position`` of each one before a legal move),
    and ``illegal`` (the first illegal move, 1-based, with its rule and message: the analysis
    stops there) or None. ``progress(done, total)`` after each position."""
    state = record.new_state()
    names = [p.name for p in record.players]
    positions: list[Position] = []
    illegal: dict[str, Any] | None = None
    total = len(record.moves)
    for n, move in enumerate(record.moves):
        seat = state.current_player
        try:
            state.check(move)  # (a finished game's refuses every move)
            if seat is None:
                raise IllegalMove("G11", "the game is over: no move follows the last one")
        except IllegalMove as exc:
            illegal = {"move": n + 1, "player": None if seat is None else names[seat],
                       "rule": exc.rule, "message": exc.message}
            break
        positions.append(position(state, move, n, agent))
        state.apply(move)
        if progress is not None:
            progress(n + 1, total)
    return {"positions": positions, "illegal": illegal}


def players_summary(names: list[str], positions: list[Position]) -> list[dict[str, Any]]:
    """Per player: the moves analysed, the inaccuracies, mistakes and blunders, and the mean
    loss of its moves (None when none was valued)."""
    out = []
    for seat, name in enumerate(names):
        mine = [p for p in positions if p["seat"] == seat]
        losses = [p["loss"] for p in mine if p["loss"] is not None]
        counts = {m: sum(1 for p in mine if p["mark"] == m) for m in MARKS}
        out.append({"player": name, "moves": len(mine), "inaccuracies": counts["inaccuracy"],
                    "mistakes": counts["mistake"], "blunders": counts["blunder"],
                    "average_loss": _r(sum(losses) / len(losses)) if losses else None})
    return out


# what the runner sends for one game (``audit.work.Task``): index, name, path, bytes, error
Task = tuple[int, str, str | None, bytes | None, str | None]
STATUSES = ("analysed", "illegal", "unreadable", "internal")  # a game's, best first


def analyse_task(spec: str, task: Task, max_bytes: int,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The row of one game of a corpus (read as ``verify`` reads it, imports included):
    ``index``, ``name``, ``agent``, ``status`` (``STATUSES``), ``message``, and for a log
    read ``game``, ``label``, ``players`` (names and colours), ``moves`` (in the log),
    ``positions``, ``illegal`` and ``summary`` (``players_summary``). Never raises."""
    from pathlib import Path

    from ..core.errors import LogFormatError
    from ..core.record import read_game
    from ..core.verify import internal_message

    index, name, path, data, error = task
    row: dict[str, Any] = {"index": index, "name": name, "agent": spec, "status": "unreadable",
                           "message": error}
    if error is not None:
        return row
    try:
        record = read_game(data if data is not None else Path(path or ""), max_bytes=max_bytes)
    except LogFormatError as exc:
        return {**row, "message": str(exc)}
    except IllegalMove as exc:  # a header that breaks a rule: no position to analyse
        return {**row, "status": "illegal", "message": f"header: {exc.rule}: {exc.message}"}
    except Exception as exc:  # a bug of ours: said per game, the others go on
        return {**row, "status": "internal", "message": internal_message(exc)}
    names = [p.name for p in record.players]
    row.update(game=record.family.name, label=record.family.label, moves=len(record.moves),
               players=[{"name": p.name, "colour": p.colour} for p in record.players])
    try:
        found = analyse_record(record, searching_agent(spec), progress)
    except Exception as exc:
        return {**row, "status": "internal", "message": internal_message(exc)}
    illegal = found["illegal"]
    message = None
    if illegal is not None:
        who = f" ({illegal['player']})" if illegal["player"] else ""
        message = (f"move {illegal['move']}{who} is illegal: {illegal['rule']}: "
                   f"{illegal['message']}; analysed up to it")
    row.update(status="analysed" if illegal is None else "illegal", message=message,
               positions=found["positions"], illegal=illegal,
               summary=players_summary(names, found["positions"]))
    return row


def analyse_batch(spec: str, tasks: list[Task], max_bytes: int) -> list[dict[str, Any]]:
    """``analyse_task`` of each task (a worker's batch, ``audit.runner``)."""
    return [analyse_task(spec, t, max_bytes) for t in tasks]
