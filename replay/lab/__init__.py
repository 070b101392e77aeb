"""Tools for exploring the engine rather than replaying logs: ``checker`` and ``machines`` hold
the Hypothesis state machines that play random games of every registered family (a family's
own invariants come from its ``Family.fuzz_machine``), and ``fuzz_command``, ``fuzz_run`` and
``fuzz_recheck`` are ``python -m replay fuzz`` (they need ``hypothesis``, imported only when
fuzzing: no verification imports it); ``diff`` and its modules (``diff_run``, ``diff_report``,
``diff_command``; its formats are written by ``replay.reports``) are ``python -m replay
diff``, what a rule change or an engine change does to a corpus of recorded games."""
