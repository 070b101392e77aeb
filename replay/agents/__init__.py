"""Agents that play any family (issue 37): ``random``, ``greedy`` and ``mcts``, named by specs.

``agent("mcts:800:dets=4")`` makes one (``AgentSpecError`` for a spec that names none, or a
parameter it does not take); ``agents("mcts:800,greedy")`` a comma-separated list;
``play_game`` plays a seeded game with one agent per seat and returns its log
(``replay.agents.games``). See ``base`` for the interface and the value of a position,
``mcts`` for the search.
"""

from __future__ import annotations

from .base import Agent, AgentSpecError, parse_spec, position_value, value

NAMES = ("random", "greedy", "mcts")
MAX_AGENTS = 6  # a list names one agent per seat at most


def agent(spec: str) -> Agent:
    """The agent of ``spec`` (see ``base``)."""
    name = spec.split(":", 1)[0].strip()
    if name == "random" or name == "greedy":
        parse_spec(spec, (), name)  # neither takes a parameter
        from .simple import GreedyAgent, RandomAgent

        return RandomAgent() if name == "random" else GreedyAgent()
    if name == "mcts":
        from .mcts import MctsAgent

        return MctsAgent(spec.strip())
    raise AgentSpecError(f"{spec[:60]!r} is not an agent: give one of {', '.join(NAMES)} "
                         "(parameters after colons: mcts:800:dets=4)")


def agents(specs: str) -> list[Agent]:
    """The agents of a comma-separated list of specs (at most ``MAX_AGENTS``)."""
    parts = [p.strip() for p in specs.split(",")]
    if not specs.strip() or any(not p for p in parts):
        raise AgentSpecError(f"{specs[:60]!r}: give agents separated by commas, e.g. "
                             "mcts:500,greedy")
    if len(parts) > MAX_AGENTS:
        raise AgentSpecError(f"at most {MAX_AGENTS} agents (one per seat), not {len(parts)}")
    return [agent(p) for p in parts]


__all__ = ["NAMES", "Agent", "AgentSpecError", "agent", "agents", "position_value", "value"]
