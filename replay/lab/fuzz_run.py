"""The run of ``python -m replay fuzz`` (``fuzz_command`` checks its arguments): each expansion
mix's machine (``machines.family_machine``: the family's own invariants, or the generic ones)
played by Hypothesis with the run's seed, shrinking a failure to a small game; then a sample of
the games verified again in another process with another ``PYTHONHASHSEED``
(``fuzz_recheck``); the statistics of the states the games reached.

A failing game is written as a log (``record.log_json``: its set-up and the moves played up to
the failure, the move being checked last) that ``python -m replay verify`` reads.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, configuration, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Flaky, HypothesisException
from hypothesis.reporting import with_reporter
from hypothesis.stateful import rule, run_state_machine_as_test
from hypothesis.statistics import collector

from ..cli_help import Progress, plural
from ..core.family import GameConfig, family
from ..core.plugins import PluginError
from ..core.record import log_json
from ..core.verify import verify
from .checker import Checker, label
from .fuzz_command import Plan
from .machines import GameMachine, family_machine, machine_for

EXIT_HELD, EXIT_BROKEN, EXIT_BAD = 0, 1, 2
SAMPLE = 256  # games kept (evenly spread) for the check in another process
# events Hypothesis records of its own draws (a filter retried), not states of a game
HYPOTHESIS_OWN = ("Retried draw from ", "Aborted test because ")


@dataclass
class Game:
    """A finished game of the run: what ``fuzz_recheck`` verifies again."""

    config: GameConfig
    moves: list[dict[str, Any]]
    hashes: list[str]


@dataclass
class Failure:
    """What broke: the invariant (its message), the check that says so, and the game."""

    message: str
    check: str = ""
    config: GameConfig | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""  # how the last move of the log came to be checked
    steps: list[str] = field(default_factory=list)  # Hypothesis's program (--verbose)
    trace: str = ""


class Recorder:
    """What the machines of a run report: each game started (the progress), the last failing
    one, a spread sample of the finished ones, and Hypothesis's statistics."""

    def __init__(self, total: int, plan: Plan) -> None:
        self.progress = Progress(total, "fuzz: games played")
        self.plan = plan
        self.unpinned = 0  # games whose set-up ignored --players or --option
        self.started = 0
        self.failing: GameMachine | None = None
        self.kept: list[Game] = []
        self.stride = 1
        self.finished = 0
        self.stats: list[dict[str, Any]] = []

    def begin(self, machine: GameMachine) -> None:
        self.started += 1
        if self.started <= self.progress.total:
            self.progress.tick()

    def end(self, machine: GameMachine) -> None:
        failed = machine.failed
        if isinstance(failed, Exception) and not isinstance(failed, HypothesisException):
            self.failing = machine
            return
        checker = machine.checker
        if failed is not None or checker is None or not checker.state.finished:
            return
        config, plan = checker.config, self.plan
        if plan.players not in (None, len(config.players)) or any(
                config.options.get(k, v) != v for k, v in plan.options.items()):
            self.unpinned += 1
        if self.finished % self.stride == 0:
            self.kept.append(Game(checker.config, list(checker.moves), list(checker.hashes)))
            if len(self.kept) >= 2 * SAMPLE:
                self.kept, self.stride = self.kept[::2], self.stride * 2
        self.finished += 1

    def events(self) -> tuple[int, Counter[str]]:
        """The games of the generate phases and how many reached each event."""
        games, reached = 0, Counter[str]()
        for stats in self.stats:
            for case in stats.get("generate-phase", {}).get("test-cases", []):
                if case.get("status") in ("valid", "interesting"):
                    games += 1
                    reached.update({e for e in case.get("events", ())
                                    if not e.startswith(HYPOTHESIS_OWN)})
        return games, reached


def recording(base: type[GameMachine], recorder: Recorder) -> type[GameMachine]:
    """``base`` telling ``recorder`` of each game it plays, and trying illegal moves in its
    first rule: Hypothesis orders the rules by name, and its first game and the games it
    shrinks to take the first rule, so that an illegal move that breaks an invariant shows in
    a game of a few moves. (The test suite's machines keep their rule names, and with them the
    games of their derandomized profile.)"""

    def illegal_then_play(self: GameMachine, data: st.DataObject) -> None:
        with self.guard():
            self.step(data, illegal_first=True)

    def __init__(self: GameMachine) -> None:
        base.__init__(self)
        recorder.begin(self)

    def teardown(self: GameMachine) -> None:
        try:
            base.teardown(self)
        finally:
            recorder.end(self)

    return type(base.__name__, (base,), {
        "__init__": __init__, "teardown": teardown, "try_illegal_then_play": None,
        "illegal_then_play": rule(data=st.data())(illegal_then_play)})


def run(plan: Plan) -> int:
    """Play the plan's games; print the verdict and the statistics; the exit code."""
    fam = plan.family
    total = sum(n for _, n in plan.mixes)
    print(f"fuzz {fam.name}: {plural(total, 'game')}"
          + (f", {len(plan.mixes)} expansion mixes" if len(plan.mixes) > 1 else "")
          + f", seed {plan.seed}")
    try:
        base = family_machine(fam)
    except PluginError as exc:
        print(f"fuzz: the fuzz machine of {fam.name} cannot be loaded: {exc}", file=sys.stderr)
        return EXIT_BAD
    recorder = Recorder(total, plan)
    failure = None
    with recorder.progress, hypothesis_home():
        for mix, count in plan.mixes:
            failure = play(plan, base, mix, count, recorder)
            if failure is not None:
                break
    if failure is None and plan.replays:
        from .fuzz_recheck import recheck

        failure, said = recheck(recorder.kept, plan.replays)
        if failure is None:
            print(said)
    if recorder.unpinned:
        print(f"note: the fuzz machine of {fam.name} ({base.__module__}.{base.__name__}) set up "
              f"{plural(recorder.unpinned, 'game')} without --players or --option: its new_game "
              "does not honour PLAYERS and OPTIONS")
    if failure is None:
        print("every invariant held")
    else:
        report_failure(plan, failure)
    print_statistics(recorder)
    return EXIT_HELD if failure is None else EXIT_BROKEN


@contextmanager
def hypothesis_home() -> Iterator[None]:
    """Hypothesis's files (its Unicode tables) in the user's cache, not a ``.hypothesis``
    directory where the command runs (``HYPOTHESIS_STORAGE_DIRECTORY`` decides when set)."""
    before = getattr(configuration, "__hypothesis_home_directory", None)
    if before is None and not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        configuration.set_hypothesis_home_dir(os.path.join(cache, "carcassonne-replay",
                                                           "hypothesis"))
    try:
        yield
    finally:
        configuration.set_hypothesis_home_dir(before)


def play(plan: Plan, base: type[GameMachine], mix: tuple[str, ...], count: int,
         recorder: Recorder) -> Failure | None:
    """``count`` games of one mix; the failure Hypothesis shrank, if one broke."""
    machine = recording(machine_for(plan.family.name, mix, base, plan.players, plan.options),
                        recorder)
    hypothesis_seed(plan.seed)(machine)
    run_settings = settings(
        max_examples=count, derandomize=False, database=None, deadline=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink), print_blob=False,
        report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
        stateful_step_count=machine.step_count())
    steps: list[str] = []
    statistics: Any = collector  # Hypothesis's runs report their statistics to it
    try:
        with statistics.with_value(recorder.stats.append), \
                with_reporter(lambda line: steps.append(str(line))):
            run_state_machine_as_test(machine, settings=run_settings)
    except Exception as exc:
        failure = failure_of(exc, recorder.failing)
        failure.steps = steps
        return failure
    return None


def failure_of(exc: BaseException, machine: GameMachine | None) -> Failure:
    """The failure ``exc`` of the smallest failing game (``machine``, the last that failed)."""
    if isinstance(exc, Flaky):
        found = Failure("the failure did not happen again when the same game was played "
                        f"again: the engine or its checks are not deterministic ({exc})")
        if machine is not None and machine.failed is not None:
            found.check = describe(machine.failed)[1]
    else:
        found = Failure(*describe(exc))
    found.trace = "".join(traceback.format_exception(exc))
    if machine is not None:
        found.config, found.moves, found.note = game_of(machine)
    return found


def describe(exc: BaseException) -> tuple[str, str]:
    """The invariant ``exc`` says is broken (its message, or the failing line) and the check
    that raised it: the innermost method of a checker or machine, with the machine's step."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    owned = [t for t in frames if isinstance(t.tb_frame.f_locals.get("self"),
                                             Checker | GameMachine)]
    message = str(exc).strip()
    if not message and frames:
        line = traceback.extract_tb(exc.__traceback__)[-1].line
        message = line or type(exc).__name__
    if not isinstance(exc, AssertionError):
        message = f"{type(exc).__name__}: {message}"
    if not owned:
        return message, ""
    inner = owned[-1]
    steps = [t.tb_frame.f_code.co_name for t in owned
             if isinstance(t.tb_frame.f_locals.get("self"), GameMachine)]
    code = inner.tb_frame.f_code
    where = f"{code.co_qualname} ({_short(code.co_filename)}:{inner.tb_lineno})"
    step = next((s for s in steps if s in ("set_up", "play", "illegal_then_play",
                                           "try_illegal_then_play",
                                           "state_invariants", "teardown")), "")
    return message, where + (f", in the machine's step {step}" if step else "")


def _short(path: str) -> str:
    for root in sys.path:
        if root and path.startswith(root.rstrip("/") + "/"):
            return path[len(root.rstrip("/")) + 1:]
    return path


def game_of(machine: GameMachine) -> tuple[GameConfig | None, list[dict[str, Any]], str]:
    """The failing game: its configuration, the moves played up to the failure and, last,
    the move being checked when it broke (when it can be written), and a word on it."""
    checker = machine.checker
    started = machine.started
    if checker is None:
        return (None if started is None else started.config), [], ""
    moves = list(checker.moves)
    if checker.trying is None:
        return checker.config, moves, ""
    kind, move = checker.trying
    how = "a legal move being played" if kind == "played" else f"an illegal move tried: {kind}"
    try:
        moves.append(checker.family.encode_move(move))
    except Exception:
        return checker.config, moves, (f"the move being checked ({how}: {move!r}) cannot be "
                                       "written to a log; the log stops before it")
    return checker.config, moves, f"move {len(moves)}, the last of the log, is {how}"


def report_failure(plan: Plan, failure: Failure) -> None:
    """The invariant, the check, the game and where its log went."""
    print("FAILED: an invariant does not hold (the smallest failing game Hypothesis found)")
    print(f"  invariant: {failure.message}")
    if failure.check:
        print(f"  check:     {failure.check}")
    config = failure.config
    if config is not None:
        path = write_log(plan, config, failure.moves)
        recorded = family(config.game).options_json(config.options, config.expansions)
        options = ", ".join(f"{k}={v}" for k, v in sorted(recorded.items())
                            if isinstance(v, str | int))
        seed = "a table game" if config.seed is None else f"seed {config.seed!r}"
        print(f"  game:      {label(config.game, config.expansions)}, "
              f"{plural(len(config.players), 'player')}, {seed}"
              + (f", options {options}" if options else ""))
        print(f"  moves:     {len(failure.moves)}" + (f" ({failure.note})" if failure.note
                                                        else ""))
        print(f"  log:       {path}")
        print(f"  verify:    {verify(str(path)).line()}")
    print("  again:     python -m replay fuzz " + " ".join(_quoted(plan.command)))
    if plan.verbose:
        print("\nHypothesis's steps of the failing game:")
        for line in failure.steps:
            print(f"  {line}")
        print(failure.trace)


def _quoted(words: list[str]) -> list[str]:
    import shlex

    return [shlex.quote(w) for w in words]


def write_log(plan: Plan, config: GameConfig, moves: list[dict[str, Any]]) -> Path:
    """The failing game as a log in ``plan.out``; its path."""
    from ..generate import dumps

    out = Path(plan.out)
    out.mkdir(parents=True, exist_ok=True)
    name = f"{label(config.game, config.expansions)}-{len(config.players)}p-seed{plan.seed}"
    path = out / f"{name}.json"
    path.write_text(dumps(log_json(family(config.game), config, moves)), encoding="utf-8")
    return path


def print_statistics(recorder: Recorder) -> None:
    """The share of the games that reached each state the machines record (``event()``)."""
    games, reached = recorder.events()
    if not games:
        return
    print(f"\nstates reached (share of the {plural(games, 'game')} played):")
    for name, count in sorted(reached.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {100 * count / games:5.1f}%  {name}")
