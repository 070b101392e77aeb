"""Tools for exploring the engine rather than replaying logs: ``machines`` holds the Hypothesis
state machines that play random games of every registered family (it needs ``hypothesis``, a
development dependency; nothing else in ``replay`` imports it); ``diff`` and its modules
(``diff_run``, ``diff_report``, ``diff_html``, ``diff_command``) are ``python -m replay diff``,
what a rule change or an engine change does to a corpus of recorded games."""
