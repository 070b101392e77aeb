"""Tools for exploring the engine rather than replaying logs: ``machines`` holds the Hypothesis
state machines that play random games of every registered family (it needs ``hypothesis``, a
development dependency; nothing else in ``replay`` imports it)."""
