"""The words of the command line: the version, each command's examples, and a progress
counter for long runs (on stderr, only on a terminal). The parser that uses them is
``cli_parser.py``."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Any, TextIO


def whole_number(low: int, high: int | None = None,
                 unit: str = "") -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` (to ``high``), refused with a line
    that says why (``unit`` names what is counted: "give 1 game or more")."""

    def convert(text: str) -> int:
        import argparse  # here: a one-file verify imports this module but never argparse

        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not from {low} to {high}")
        if value < low:
            raise argparse.ArgumentTypeError(
                f"{value} is negative" if low == 0 and value < 0
                else f"{value}: give {low}{' ' + unit if unit else ''} or more")
        return value

    return convert


def generate_examples() -> str:
    """The examples of ``generate``, with the games, expansions and options of the registry."""
    from .core.family import families

    fams = families()
    mixed = next((f for f in fams if f.expansions), fams[0])
    options = " ".join(f"--{o.key.replace('_', '-')} {o.choices[-1] if o.choices else o.default}"
                       for o in mixed.options[:2])
    expansions = ",".join(mixed.expansions)
    return f"""examples:
  python -m replay generate > game.json                       # one 2-player game, seed 0
  python -m replay generate --game {mixed.name} --players 4 --seed 7 --expansions {expansions}
  python -m replay generate --game {fams[-1].name} --count 100 --out games/
  python -m replay generate --game {mixed.name} {options} > variant.json"""


NUMBERING = ("Moves are numbered from 1: move N is the N-th move of the log and position N the "
             "board after it (0: the start); the JSON says the same number, \"move\": N, with "
             "its log entry, \"entry\": \"/moves/N-1\" (\"report_version\": 2).")

EXAMPLES: dict[str, str] = {
    "verify": """examples:
  python -m replay verify game.json
  python -m replay verify games/*.json            # one line each, then a summary line
  python -m replay verify --json game.json | jq .valid
  python -m replay verify -v save.jcz             # a JCloisterZone save, with its import notes

  A line "INVALID at move 9 (log entry /moves/8)" names the 9th move of the log.""",
    "import": """examples:
  python -m replay import save.jcz > game.json
  python -m replay import -o logs/ saves/*.jcz bga/*.json""",
    "render": """examples:
  python -m replay render game.json -o end.svg              # the last position
  python -m replay render game.json --move 9 -o move9.svg   # the board after move 9
  python -m replay render game.json --move 0 --size 800     # the start, 800 pixels wide""",
}


def version() -> str:
    """The installed version of the package (the source tree's when it is not installed)."""
    try:
        from importlib import metadata  # slow to import: only for --version

        return metadata.version("carcassonne-replay")
    except metadata.PackageNotFoundError:
        return "0.1.0"


class Progress:
    """``label k/n`` rewritten in place on stderr while a long run goes on, then erased; silent
    when stderr is not a terminal (a pipe, a log file, CI) or ``enabled`` is false."""

    def __init__(self, total: int, label: str, *, enabled: bool = True,
                 stream: TextIO | None = None, every: float = 0.1) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.label = label
        self.done = 0
        self.every = every
        self.shown = 0.0
        self.started = time.monotonic()
        self.on = enabled and total > 1 and self.stream.isatty()

    def tick(self, step: int = 1) -> None:
        """One more item done (redrawn at most every ``every`` seconds, and at the last)."""
        self.done += step
        if not self.on:
            return
        now = time.monotonic()
        if now - self.shown < self.every and self.done < self.total:
            return
        self.shown = now
        rate = self.done / max(now - self.started, 1e-9)
        left = (self.total - self.done) / rate if rate else 0.0
        eta = f", about {left:.0f} s left" if self.done < self.total and left >= 1 else ""
        print(f"\r{self.label} {self.done}/{self.total}{eta}\033[K", end="",
              file=self.stream, flush=True)

    def close(self) -> None:
        """Erase the counter line."""
        if self.on and self.done:
            print("\r\033[K", end="", file=self.stream, flush=True)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def plural(n: int, word: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def open_output(path: str | None, command: str) -> IO[str] | None:
    """The report's stream: ``path`` opened for writing (UTF-8, newlines as written), or
    stdout when None; None after saying on stderr why ``path`` cannot be written (the
    command then exits 2)."""
    if path is None:
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115 (the caller's)
    except OSError as exc:
        print(f"{command}: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return None


def add_dask(parser: Any, files: bool = True) -> None:
    """The options of a command that may run on Dask: ``--dask ADDRESS`` and, for a command
    that reads files (``files``), ``--shared-fs`` (audit, diff and analyse share them)."""
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="run on a Dask cluster: a scheduler's address, or 'local' for a "
                             "LocalCluster of --jobs workers (default: the local process "
                             "pool)")
    if files:
        parser.add_argument("--shared-fs", action="store_true",
                            help="with --dask ADDRESS: the workers see these paths, so paths "
                                 "are sent, not bytes (default: off)")
