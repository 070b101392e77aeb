"""``mcts``: information-set Monte Carlo tree search with determinizations.

The mover cannot know what is hidden (the order of the tiles not drawn yet; the deck and the
other hands), so the agent never searches the true state: it makes ``dets`` *determinizations*,
copies of the position with the hidden part redrawn from what the mover has seen
(``GameState.redraw_hidden``), searches each with UCT for ``sims`` simulations, and plays the
move the searches visited most in all (ties: the better mean value, then the first found).
The determinizations are independent, so they may run in parallel processes (``jobs``): the
result is the same.

One simulation walks down the tree of a determinization from its root, at each node to the
child best for the seat to move there (UCT: its mean value for that seat plus
``c·√(ln N / n)``), and adds one child where the node may have more: **progressive widening**
lets a node visited N times have ``⌈widen·√N⌉`` children, so a position with a hundred legal
moves is not spread thin; the tree goes ``plies`` moves deep at most (a node there is valued
again when it is reached again). The root's moves are tried in the order of their one-ply
value (the ``greedy`` agent's ranking), the others' in an order drawn from the seed. A new
leaf is valued, one value per seat added up the path, by the chance of winning its lead gives
(``base.lead_value``: the logistic of the seat's lead over the best other seat, over how far a
lead may still move, ``GameState.margin_spread``) in the scores if the game ended there plus
what each seat's pieces in hand are worth for the rest of the game
(``GameState.holding_value``: a tile game's figures in supply); a finished game by
``base.value`` of its scores (half the outcome, half the margin). The mover's win chance is
the mean of the outcomes of the same scores (``base.outcome``). The leaf is valued after a
**truncated playout** of ``depth`` moves of the family's generator policy on a copy when
``depth`` is not 0 (measured on 2-player base games: two moves of playout did not play better
against ``greedy`` at the same simulations and took twice as long, so the default values the
leaf itself; its value is then kept in the node). Against
``greedy`` (200 2-player base games, seeds ``2026-k``): 58.8 % when a leaf's value was
``base.value`` of the scores if ended (the outcome of which is noise mid-game), 67.0 % (Wilson
95 %: 60.2 % to 73.1 %) with the lead's chance (docs/agents.md).

Parameters (``mcts:800:dets=4``): ``sims`` simulations per determinization (default 500),
``dets`` determinizations (3: meeple_cat's 500 × 3), ``c`` the exploration constant (0.7),
``widen`` (1: against ``greedy``, 200 games of seed 2026, 72.5 % at 1 and 67.0 % at 2, in
half the time: docs/agents.md), ``plies`` the tree's depth (2: the mover's move and the next
player's answer),
``depth`` the playout's length in moves (0), ``jobs`` processes (1), ``ms`` a budget in
milliseconds for the whole move instead of a count (0: none; the moves then depend on the
machine's speed: not reproducible).
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core.rng import SeededStream
from .base import (
    Agent,
    Param,
    lead_value,
    number,
    outcome,
    parse_spec,
    positive_int,
    spec_text,
    value,
    whole,
)
from .simple import ranked

if TYPE_CHECKING:
    from ..core.family import GameState

PARAMS: tuple[Param, ...] = (
    ("sims", positive_int(1_000_000), 500, "simulations per determinization"),
    ("dets", positive_int(64), 3, "determinizations"),
    ("c", number(0.0, 10.0), 0.7, "UCT exploration constant"),
    ("widen", number(0.1, 100.0), 1.0, "progressive widening: children <= widen * sqrt(N)"),
    ("depth", whole(200), 0, "playout moves before the leaf is valued"),
    ("jobs", positive_int(64), 1, "processes for the determinizations"),
    ("ms", whole(3_600_000), 0, "a time budget for the move, in ms (0: none)"),
    ("plies", whole(1_000), 2, "the tree's depth in moves (0: no limit)"),
)


class Searched(NamedTuple):
    """A root decision as a search found it: its visits in all determinizations, the
    decision (``GameState.decision`` of a move), the mover's mean value and win chance (the
    mean of the outcomes, ``base.outcome``), and every seat's win chance after it (``wins``,
    by seat: the mover's is ``win``)."""

    visits: int
    decision: Any
    value: float
    win: float
    wins: tuple[float, ...] = ()


class Node:
    """A node of one determinization's tree: the position after ``move`` (``state``, kept:
    a copy costs about two moves), its untried moves, children, visits and the value summed
    per seat."""

    __slots__ = ("children", "leaf", "move", "mover", "state", "totals", "untried", "visits",
                 "wins")

    def __init__(self, state: GameState, move: Any, seats: int) -> None:
        self.state = state
        self.move = move
        self.mover = None if state.finished else state.current_player
        self.untried: list[Any] | None = None
        self.children: list[Node] = []
        self.visits = 0
        self.totals = [0.0] * seats
        self.wins = [0.0] * seats  # the outcomes' part of the values (``base.outcome``)
        self.leaf: tuple[list[float], list[float]] | None = None  # its value, without playout


class MctsAgent(Agent):
    """See the module."""

    def __init__(self, text: str = "mcts") -> None:
        values = parse_spec(text, PARAMS, "mcts")
        self.sims: int = values["sims"]
        self.dets: int = values["dets"]
        self.c: float = values["c"]
        self.widen: float = values["widen"]
        self.depth: int = values["depth"]
        self.jobs: int = values["jobs"]
        self.ms: int = values["ms"]
        self.plies: int = values["plies"]
        self.spec = spec_text("mcts", PARAMS, values)

    def choose(self, state: GameState, rng: SeededStream) -> Any:
        return complete(state, self.search(state, rng)[0].decision, rng)

    def search(self, state: GameState, rng: SeededStream,
               include: tuple[Any, ...] = ()) -> list[Searched]:
        """Every root decision searched (``GameState.decision`` of the moves of the redrawn
        roots), most visited first (ties: the better mean value, then the first found).
        ``include``: decisions tried first at every root, so that they are searched whatever
        their one-ply rank (``analyse`` values the move played; none by default)."""
        seat = state.current_player
        assert seat is not None, "a finished game has no move to choose"
        seeds = [str(rng.word()) for _ in range(self.dets)]
        keys = tuple(decision_key(state, d) for d in include)
        with paused_collector():
            return self._search(state, seat, seeds, keys)

    def _search(self, state: GameState, seat: int, seeds: list[str],
                keys: tuple[str, ...]) -> list[Searched]:
        deadline = 0.0 if not self.ms else time.perf_counter() + self.ms / 1000 / self.dets
        if self.jobs > 1 and self.dets > 1:
            with ProcessPoolExecutor(min(self.jobs, self.dets)) as pool:
                trees = list(pool.map(_search_one, [(self, state, seat, s, 0.0, keys)
                                                    for s in seeds]))
        else:
            trees = [_search_one((self, state, seat, s, deadline, keys)) for s in seeds]
        seats = len(state.players)
        found: dict[str, list[Any]] = {}
        for tree in trees:
            for key, visits, total, wins, move, all_wins in tree:
                kept = found.setdefault(key, [0, 0.0, 0.0, move, [0.0] * seats])
                kept[0] += visits
                kept[1] += total
                kept[2] += wins
                kept[4] = [a + b for a, b in zip(kept[4], all_wins, strict=True)]
        out = [Searched(v, m, t / max(1, v), w / max(1, v), tuple(x / max(1, v) for x in ws))
               for v, t, w, m, ws in found.values()]
        out.sort(key=lambda t: (-t.visits, -t.value))  # stable: the first found wins a tie
        return out

    def run(self, root: Node, seat: int, rng: SeededStream, deadline: float,
            first: tuple[str, ...] = ()) -> None:
        """``sims`` simulations on ``root`` (fewer when ``deadline`` passes); the root's
        moves whose decisions have the keys ``first`` are tried first."""
        family = root.state.family
        seats = len(root.totals)
        for k in range(self.sims if not deadline else 1 << 30):
            if deadline and k % 16 == 0 and time.perf_counter() > deadline:
                break
            node = root
            path = [root]
            while not node.state.finished:
                if self.plies and len(path) > self.plies:
                    break  # as deep as the tree goes: the node is valued again
                if node.untried is None:
                    node.untried = self._moves(node, seat, rng, node is root)
                    if first and node is root:
                        node.untried = _first(node.state, node.untried, first)
                if node.untried and len(node.children) < math.ceil(
                        self.widen * math.sqrt(node.visits + 1)):
                    move = node.untried.pop()
                    after = node.state.copy()
                    after.play(move)
                    node = Node(after, move, seats)
                    path[-1].children.append(node)
                    path.append(node)
                    break
                if not node.children:
                    break
                node = self._select(node)
                path.append(node)
            if node.leaf is not None:  # valued before, without a playout: the same value
                values, won = node.leaf
            else:
                leaf = self._leaf(node.state, family, rng)
                if leaf.finished:
                    values, won = value(leaf.scores), outcome(leaf.scores)
                else:
                    scores = [s + leaf.holding_value(i)
                              for i, s in enumerate(leaf.scores_if_ended())]
                    values = lead_value(scores, leaf.margin_spread())
                    won = outcome(scores)
                if not self.depth:
                    node.leaf = (values, won)
            for n in path:
                n.visits += 1
                totals, wins = n.totals, n.wins
                for i in range(seats):
                    totals[i] += values[i]
                    wins[i] += won[i]

    def _moves(self, node: Node, seat: int, rng: SeededStream, root: bool) -> list[Any]:
        """A node's moves in the order they are added (the last first): the root's by their
        one-ply value, the others' drawn from the seed."""
        if root:
            return [m for _, m in reversed(ranked(node.state, rng))]
        moves = list(node.state.legal_moves())
        rng.shuffle(moves)
        return moves

    def _select(self, node: Node) -> Node:
        mover = node.mover
        log_n = math.log(node.visits + 1)
        c = self.c
        best = node.children[0]
        best_score = -1.0
        for child in node.children:
            n = child.visits
            mean = child.totals[mover] / n if mover is not None and n else 0.5
            score = mean + c * math.sqrt(log_n / (n + 1))
            if score > best_score:
                best, best_score = child, score
        return best

    def _leaf(self, state: GameState, family: Any, rng: SeededStream) -> GameState:
        """The position a new leaf is valued at: ``depth`` moves of the family's policy
        later (on a copy)."""
        if self.depth and not state.finished:
            state = state.copy()
            for _ in range(self.depth):
                if state.finished:
                    break
                family.play_random(state, rng)
        return state


Found = tuple[str, int, float, float, Any, list[float]]


def _search_one(job: tuple[MctsAgent, GameState, int, str, float, tuple[str, ...]]) -> list[
        Found]:
    """One determinization searched: its root decisions as (key, visits, the mover's summed
    value and outcome, decision, every seat's summed outcome). A function of its own, so that
    a process pool can run it."""
    agent, state, seat, seed, deadline, first = job
    rng = SeededStream(seed, "mcts")
    root_state = state.copy()
    root_state.redraw_hidden(seat, rng)
    root = Node(root_state, None, len(state.players))
    agent.run(root, seat, rng, deadline, first)
    out: dict[str, Found] = {}
    for c in root.children:  # moves of one decision (another bonus tile) counted together
        part = root_state.decision(c.move)
        key = decision_key(state, part)
        _, visits, total, wins, _, every = out.get(
            key, (key, 0, 0.0, 0.0, part, [0.0] * len(c.wins)))
        out[key] = (key, visits + c.visits, total + c.totals[seat], wins + c.wins[seat], part,
                    [a + b for a, b in zip(every, c.wins, strict=True)])
    return list(out.values())


@contextmanager
def paused_collector() -> Iterator[None]:
    """CPython's cycle collector paused for a search: the trees hold thousands of states,
    each of many objects, and every collection would walk them all (it made a copy cost 12x
    its own time); the nodes make no cycles, so what a search leaves is freed by reference
    counts, and the collector runs again after it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _first(state: GameState, untried: list[Any], keys: tuple[str, ...]) -> list[Any]:
    """``untried`` (the last tried first) with the moves whose decisions have ``keys`` moved
    to its end, in the order of ``keys``."""
    wanted = set(keys)
    rest: list[Any] = []
    forced: list[Any] = []
    for m in untried:
        (forced if decision_key(state, state.decision(m)) in wanted else rest).append(m)
    rank = {k: i for i, k in enumerate(keys)}
    forced.sort(key=lambda m: -rank[decision_key(state, state.decision(m))])
    return rest + forced


def decision_key(state: GameState, decision: Any) -> str:
    """A decision as text, equal for equal decisions of any determinization."""
    import json

    return json.dumps(state.family.encode_move(decision), sort_keys=True, separators=(",", ":"))


def complete(state: GameState, decision: Any, rng: SeededStream) -> Any:
    """The true state's move of ``decision``: itself when legal, else the best (``greedy``'s
    ranking) of the legal moves that decide it (a land tile, with the bonus tile the true pile
    gives), else the best legal move."""
    key = decision_key(state, decision)
    moves = list(state.legal_moves())
    found = [m for m in moves if decision_key(state, state.decision(m)) == key]
    if len(found) == 1:
        return found[0]
    from .simple import ranked_among

    return ranked_among(state, found or moves, rng)[0][1]
