"""What ``tools/build_native.py`` says while mypyc compiles (issue 35, item 13): each stage as
it starts, with the time so far, and within a long stage a line every 30 s at most, so that a
build of minutes on a loaded machine tells what it is doing without flooding a CI log. The
build itself is not run here (it takes minutes): its output is fed as mypyc and setuptools
print it."""

from __future__ import annotations

import subprocess
import sys

from .support import ROOT

sys.path.insert(0, str(ROOT / "tools"))

from build_progress import BuildProgress, clock, follow  # noqa: E402

MODULES = 35
GCC = ("gcc -Wsign-compare -DNDEBUG -g -fwrapv -O3 -Wall -fPIC -Ibuild -c build/x.c -o "
       "build/temp/x.o")


def build_output() -> list[tuple[float, str]]:
    """A build of 227 s as mypyc prints it, a line at a time ("" where the reader waited for
    output in vain): 150 s of silence, the shared library, then an extension per module."""
    out: list[tuple[float, str]] = [(float(t), "") for t in range(5, 150, 5)]
    out += [(150.0, "running build_ext"), (150.5, "building 'b1f4c0de__mypyc' extension"),
            (150.6, GCC)]
    out += [(float(t), "") for t in range(155, 200, 5)]
    for k in range(MODULES):
        t = 200.0 + k * 0.7
        out += [(t, f"building 'replay.core.m{k}' extension"), (t + 0.1, GCC),
                (t + 0.2, "gcc -shared ... -o build/lib/replay/core/m.so")]
    out += [(226.0 + k * 0.02, f"copying build/lib/m{k}.so -> replay/core")
            for k in range(MODULES)]
    return out


def said(progress: BuildProgress) -> list[str]:
    lines = [progress.begin(0.0)]
    for now, line in build_output():
        text = progress.feed(line, now)
        if text:
            lines.append(text)
    return lines


def test_each_stage_is_said_as_it_starts_with_the_time_so_far() -> None:
    lines = said(BuildProgress(MODULES, 0.0))
    assert lines[0].startswith("build_native: [0:00] checking the types of 35 modules")
    assert "build_native: [2:30] compiling the C of all 35 modules into one shared library " \
        "(the longest step)" in lines
    assert "build_native: [3:20] building the modules' extensions: 1 of 35" in lines
    assert lines[-1] == "build_native: [3:46] copying the compiled modules"


def test_a_long_stage_says_it_is_still_at_work_at_most_every_30_seconds() -> None:
    lines = said(BuildProgress(MODULES, 0.0))
    assert [x for x in lines if "still checking types" in x] == [
        "build_native: [0:30] still checking types and writing C",
        "build_native: [1:00] still checking types and writing C",
        "build_native: [1:30] still checking types and writing C",
        "build_native: [2:00] still checking types and writing C",
        "build_native: [2:30] still checking types and writing C"]
    assert "build_native: [3:05] still compiling the shared library's C (the longest step)" \
        in lines
    assert len(lines) <= 12  # 227 s, 150 lines of output: a dozen lines, not one per line


def test_the_modules_count_shows_in_a_line_of_a_slow_stage() -> None:
    progress = BuildProgress(3, 0.0, every=10.0)
    progress.begin(0.0)
    assert progress.feed("building 'a' extension", 1.0) == \
        "build_native: [0:01] building the modules' extensions: 1 of 3"
    assert progress.feed("building 'b' extension", 5.0) is None
    assert progress.feed("", 11.5) == \
        "build_native: [0:11] building the modules' extensions: 2 of 3"


def test_clock() -> None:
    assert [clock(s) for s in (0, 7.9, 60, 227)] == ["0:00", "0:07", "1:00", "3:47"]


def test_follow_reads_a_process_to_its_end_and_says_its_stages() -> None:
    script = ("print(\"building 'z__mypyc' extension\", flush=True); print('gcc ...'); "
              "print('copying z.so -> z'); raise SystemExit(3)")
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines: list[str] = []
    output = follow(process, BuildProgress(1, 0.0), lines.append, now=lambda: 1.0)
    assert process.returncode == 3
    assert output == "building 'z__mypyc' extension\ngcc ...\ncopying z.so -> z\n"
    assert [x.split("] ", 1)[1].split(" ")[0] for x in lines] == [
        "checking", "compiling", "copying"]
