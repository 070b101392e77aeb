"""What every agent shares: the interface, the value of a position, and agent specs.

An agent chooses a move for the player to move (``Agent.choose(state, rng)``) through the
family interface alone (``legal_moves``, ``copy``, ``play``, ``scores_if_ended``,
``redraw_hidden``), so it plays every family, a plugin's included. It is named by a short
*spec*, the same everywhere (the command line, the web app, the reports): its name, then its
parameters after colons, positional or ``key=value`` (``random``, ``greedy``, ``mcts:800``,
``mcts:800:dets=4``); a list of agents is comma-separated. The same spec and seed always give
the same moves (a budget in milliseconds, ``mcts:ms=500``, is the one exception: said so).

**The value of a position** for each seat (``value``), in [0, 1], from the scores if the game
ended now (``GameState.scores_if_ended``: the family's end-of-game scoring applied to the
position; a finished game's own scores): half the *outcome* (1 for the best score alone, 1/k
for a best score shared by k seats, 0 otherwise) and half the *margin* (the seat's score minus
the best other score, divided by ``MARGIN`` points and clipped to [-1, 1], mapped to [0, 1]).
The outcome decides, the margin breaks the plateaus between outcomes (a lead of 20 is worth
more than a lead of 1). ``greedy`` values positions so, and ``mcts`` finished games.

**The value of an unfinished position** in a search (``lead_value``) is the chance of winning
a lead gives: the logistic of the seat's lead over the best other seat in units of how far a
lead may still move (``GameState.margin_spread``), 1/2 for level scores: mid-game, who would
win if the game ended now is noise, and a lead counts for more the nearer the end.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.family import GameState
    from ..core.rng import SeededStream

MARGIN = 20.0  # points of lead that count as a full margin (``value``)


class AgentSpecError(ValueError):
    """A spec that names no agent, or gives it a parameter it does not take."""


def value(scores: Sequence[float]) -> list[float]:
    """Each seat's value of a position whose scores if it ended now are ``scores`` (see the
    module)."""
    best = max(scores)
    top = sum(1 for s in scores if s == best)
    out = []
    for i, s in enumerate(scores):
        others = max((t for j, t in enumerate(scores) if j != i), default=s)
        outcome = 1.0 / top if s == best else 0.0
        margin = max(-1.0, min(1.0, (s - others) / MARGIN))
        out.append(0.5 * outcome + 0.25 * (1.0 + margin))
    return out


def lead_value(scores: Sequence[float], spread: float) -> list[float]:
    """Each seat's value of an unfinished position whose scores (if it ended now, plus what
    is still in hand) are ``scores``: the logistic of its lead over the best other seat, in
    units of ``spread`` points (``GameState.margin_spread``: how far a lead may still move).
    Level scores are worth 1/2, a lead of one spread 0.73, of two 0.88."""
    out = []
    for i, s in enumerate(scores):
        others = max((t for j, t in enumerate(scores) if j != i), default=s)
        out.append(1.0 / (1.0 + math.exp(-(s - others) / spread)))
    return out


def outcome(scores: Sequence[float]) -> list[float]:
    """Each seat's share of the win at ``scores``: 1 for the best score alone, 1/k for a best
    score shared by k seats, 0 otherwise (``value``'s outcome; a *win chance* is its mean)."""
    best = max(scores)
    top = sum(1 for s in scores if s == best)
    return [1.0 / top if s == best else 0.0 for s in scores]


def position_value(state: GameState) -> list[float]:
    """``value`` of ``state``: its scores if it ended now (its own when finished)."""
    return value(state.scores if state.finished else state.scores_if_ended())


class Agent(ABC):
    """A player (see the module): ``choose`` the move of the seat to move."""

    spec: str  # the spec it was made from, written back in full (``mcts:500:dets=3``)

    @abstractmethod
    def choose(self, state: GameState, rng: SeededStream) -> Any:
        """The move the player to move of ``state`` plays (one of ``state.legal_moves()``);
        ``state`` is left as it was. ``rng`` is the agent's own seeded stream: the same
        stream gives the same move. The state is the true one: an agent that looks ahead
        must look at redrawn copies only (``GameState.redraw_hidden``)."""


Param = tuple[str, Callable[[str], Any], Any, str]  # name, parse, default, help


def parse_spec(text: str, params: Sequence[Param], name: str) -> dict[str, Any]:
    """The parameters of ``name:a:b:key=value`` after its name, read against ``params`` (in
    their positional order); ``AgentSpecError`` saying which part is wrong."""
    values = {p[0]: p[2] for p in params}
    known = {p[0]: p for p in params}
    parts = text.split(":")[1:]
    for k, part in enumerate(parts):
        key, eq, raw = part.partition("=")
        if not eq:
            if k >= len(params):
                named = f" ({', '.join(p[0] for p in params)})" if params else ""
                raise AgentSpecError(f"{text!r}: {name} takes at most {len(params)} "
                                     f"positional parameter{'s' * (len(params) != 1)}{named}")
            key, raw = params[k][0], part
        if key not in known:
            raise AgentSpecError(f"{text!r}: {name} has no parameter {key!r} (it takes "
                                 f"{', '.join(known) or 'none'})")
        try:
            values[key] = known[key][1](raw)
        except ValueError as exc:
            raise AgentSpecError(f"{text!r}: {key}={raw!r}: {exc}") from None
    return values


def whole(limit: int, low: int = 0) -> Callable[[str], int]:
    """A parser of whole numbers from ``low`` to ``limit``."""
    def parse(raw: str) -> int:
        if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= limit:
            raise ValueError(f"a whole number from {low} to {limit}")
        return int(raw)
    return parse


def positive_int(limit: int) -> Callable[[str], int]:
    """A parser of whole numbers from 1 to ``limit``."""
    return whole(limit, 1)


def number(low: float, high: float) -> Callable[[str], float]:
    """A parser of decimal numbers from ``low`` to ``high``."""
    def parse(raw: str) -> float:
        try:
            found = float(raw)
        except ValueError:
            raise ValueError(f"a number from {low:g} to {high:g}") from None
        if not low <= found <= high:  # NaN fails too
            raise ValueError(f"a number from {low:g} to {high:g}")
        return found
    return parse


def spec_text(name: str, params: Sequence[Param], values: dict[str, Any]) -> str:
    """A spec in full: the name, then every parameter that differs from its default as
    ``key=value`` (the first positional one bare), so equal agents have equal specs."""
    parts = [name]
    for k, (key, _, default, _) in enumerate(params):
        if values[key] != default:
            shown = f"{values[key]:g}" if isinstance(values[key], float) else str(values[key])
            parts.append(shown if k == 0 and len(parts) == 1 else f"{key}={shown}")
    return ":".join(parts)
