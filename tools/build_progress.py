"""What ``tools/build_native.py`` says while mypyc compiles: the stage it is in, how far, and
the time so far, on stderr.

mypyc prints nothing while it checks the types and writes the C (most of a minute on an idle
machine), then setuptools prints a few lines per extension: ``building 'X' extension``, the
compiler's command lines, ``copying ...``. The build is one shared library holding every
module's code (``<hash>__mypyc``: its C compile is the longest step), then a small extension
per module that imports it. ``BuildProgress`` turns that output into a line when a stage
starts and, while nothing new happens, a line at most every ``every`` seconds: a CI log gets a
dozen lines for a build of several minutes, never one per compiler line.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from queue import Empty, Queue

EXTENSION = re.compile(r"^building '([^']+)' extension")
EVERY = 30.0  # seconds between two lines within a stage


def clock(seconds: float) -> str:
    """``0:07``, ``3:47``: minutes and seconds."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02}"


class BuildProgress:
    """The lines to say about a build of ``modules`` modules started at ``start`` (seconds
    of ``time.monotonic``)."""

    def __init__(self, modules: int, start: float, every: float = EVERY) -> None:
        self.modules = modules
        self.start = start
        self.every = every
        self.stage = ""
        self.done = 0  # modules whose own extension was built
        self.said_at = start

    def _say(self, now: float, text: str) -> str:
        self.said_at = now
        return f"build_native: [{clock(now - self.start)}] {text}"

    def begin(self, now: float) -> str:
        """The first line."""
        self.stage = "check"
        return self._say(now, f"checking the types of {self.modules} modules and writing "
                              "their C (mypyc; nothing is printed during this stage)")

    def _where(self) -> str:
        if self.stage == "check":
            return "still checking types and writing C"
        if self.stage == "library":
            return "still compiling the shared library's C (the longest step)"
        if self.stage == "modules":
            return f"building the modules' extensions: {self.done} of {self.modules}"
        return "still copying the compiled modules"

    def feed(self, line: str, now: float) -> str | None:
        """What to say after a line of the build's output (``""``: no output came, the time
        passed), or None."""
        found = EXTENSION.match(line)
        if found and found.group(1).endswith("__mypyc"):
            self.stage = "library"
            return self._say(now, f"compiling the C of all {self.modules} modules into one "
                                  "shared library (the longest step)")
        if found:
            self.done += 1
            if self.stage != "modules":
                self.stage = "modules"
                return self._say(now, f"building the modules' extensions: {self.done} of "
                                      f"{self.modules}")
        elif line.startswith("copying ") and self.stage != "copy":
            self.stage = "copy"
            return self._say(now, "copying the compiled modules")
        if now - self.said_at >= self.every:
            return self._say(now, self._where())
        return None


def follow(process: subprocess.Popen[str], progress: BuildProgress,
           say: Callable[[str], None] | None = None,
           now: Callable[[], float] = time.monotonic) -> str:
    """Read a build's output (its stdout, stderr joined to it) to its end, saying its
    progress (``say``: a line on stderr); the last hundred lines of the output."""
    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    lines: Queue[str | None] = Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    kept: deque[str] = deque(maxlen=100)
    say(progress.begin(now()))
    while True:
        try:
            line = lines.get(timeout=min(5.0, progress.every))
        except Empty:
            line = ""
        if line is None:
            break
        if line:
            kept.append(line)
        said = progress.feed(line, now())
        if said:
            say(said)
    process.wait()
    reader.join()
    return "".join(kept)
