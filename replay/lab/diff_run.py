"""``python -m replay diff`` put together: the sources walked as ``audit`` walks them, the
games compared on the audit's workers (``audit.runner``: the local pool or Dask, the same
batches, retries and order), the progress bar, the baseline report read, the report written.

**The baseline report** is what ``audit --format json`` wrote (one ``verify --json`` object a
line, then ``{"summary": ...}``). A game is matched to its line by name, the ``file`` of the
line: the name ``audit`` gave the game (``games/a.json``, ``corpus.zip!inner/b.json``,
``logs.jsonl#12``), so run ``diff`` on the same sources, named the same way, as the audit was
(a name that differs only as a path, ``./games/a.json`` for ``games/a.json`` or relative for
absolute, is matched too). The report's JSON Lines carry no digest of each game's bytes, so a
game renamed is not found: it is reported as not comparable, and the report's games that no
source matched are counted (``baseline_only``). The report is held in memory (about 1 KB a
game).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from typing import IO, Any, cast

from ..audit.command import working
from ..audit.runner import Stats
from ..audit.sources import DEFAULT_LIMITS, Limits
from ..cli_help import open_output
from ..reports import writer
from .diff import INTERNAL, DiffSpec, Row, diff_batch
from .diff_report import DIFF, DiffSummary

KEPT = ("report_version", "file", "valid", "finished", "error", "move_hashes", "final_scores",
        "winners")


class BaselineError(Exception):
    """A baseline report that cannot be read (exit 2)."""


def _key(name: str) -> str:
    return os.path.normpath(os.path.abspath(name))


def _misshapen(obj: Mapping[str, Any]) -> str | None:
    """What is wrong with a game's line of a baseline report, or None."""
    scores = obj.get("final_scores") or {}
    if obj.get("valid") not in (True, False, None):
        return "\"valid\" is not true, false or null"
    if not isinstance(scores, dict) or not all(type(v) is int for v in scores.values()):
        return "\"final_scores\" is not an object of whole numbers"
    winners = obj.get("winners") or []
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        return "\"winners\" is not a list of names"
    if not isinstance(obj.get("move_hashes") or "", str):
        return "\"move_hashes\" is not a string"
    if not isinstance(obj.get("error") or {}, dict):
        return "\"error\" is not an object"
    return None


class Baseline:
    """The earlier engine's ``verify --json`` of each game, by name (see the module)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.games: dict[str, dict[str, Any]] = {}
        self.by_path: dict[str, str] = {}
        self.matched: set[str] = set()
        try:
            with open(path, encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    self._line(n, line)
        except OSError as exc:
            raise BaselineError(f"cannot read the baseline report {path!r}: "
                                f"{exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise BaselineError(f"{path}: not a text file (an 'audit --format json' report "
                                "is JSON Lines)") from None
        if not self.games:
            raise BaselineError(f"{path}: no game in it; give the report 'python -m replay "
                                "audit SRC... --format json --out REPORT' wrote")

    def _line(self, n: int, line: str) -> None:
        if not line.strip():
            return
        try:
            obj = json.loads(line)
        except ValueError:
            raise BaselineError(f"{self.path}, line {n}: not JSON (an 'audit --format json' "
                                "report has one JSON object a line)") from None
        if not isinstance(obj, dict) or "summary" in obj:
            return
        name = obj.get("file")
        if not isinstance(name, str) or "valid" not in obj:
            raise BaselineError(f"{self.path}, line {n}: not a game of an 'audit --format "
                                "json' report (no \"file\" and \"valid\")")
        wrong = _misshapen(obj)
        if wrong:
            raise BaselineError(f"{self.path}, line {n}: {wrong} (not the 'verify --json' of "
                                "a game)")
        if name not in self.games:
            self.games[name] = {k: obj.get(k) for k in KEPT}
            self.by_path.setdefault(_key(name), name)

    def find(self, name: str) -> Mapping[str, Any] | None:
        """The report of the game ``name`` (marked as matched), or None."""
        found = name if name in self.games else self.by_path.get(_key(name))
        if found is None:
            return None
        self.matched.add(found)
        return self.games[found]

    @property
    def unmatched(self) -> int:
        return len(self.games) - len(self.matched)


def _public(row: Row) -> Row:
    """A row of the runner: a diff's, or the audit's row of a game whose worker died every
    time (``runner.CRASH_MESSAGE``), made a diff's."""
    if "status" in row:
        return row
    return {"index": row["index"], "source": row["name"], "sha256": None, "status": INTERNAL,
            "message": row.get("message")}


def rows(stream: Iterator[Row]) -> Iterator[Row]:
    """The rows of a diff, from those of the runner (``_public``)."""
    for row in stream:
        yield _public(row)


def describe(settings: Mapping[str, Any]) -> str:
    """A rule set for people: ``small_city=4``, or the log's own rules."""
    return " ".join(f"{k}={v}" for k, v in settings.items()) or "the log's own rules"


def diff(sources: Sequence[str], out: IO[str], spec: DiffSpec, fmt: str = "text",
         baseline: str | Baseline | None = None, jobs: int | None = None, dask: str | None = None,
         shared_fs: bool | None = None, viewer: str | None = None, verbose: bool = False,
         progress: bool | None = None, limits: Limits = DEFAULT_LIMITS,
         batch: int | None = None, stats: Stats | None = None) -> DiffSummary:
    """Compare every game of ``sources`` under ``spec`` (or against the ``baseline`` report),
    writing the report in ``fmt`` to ``out``; the summary. Raises ``BaselineError``."""
    base = Baseline(baseline) if isinstance(baseline, str) else baseline
    if base is not None:
        spec = DiffSpec(baseline=True)
        summary = DiffSummary(f"the baseline report {base.path}", "this engine", True)
    else:
        summary = DiffSummary(describe(spec.a), describe(spec.b))
    report = writer(DIFF, fmt, out, viewer, verbose, "Diff")
    start = time.perf_counter()
    # a diff's task is an audit's with one more field, the baseline report of the game
    find = base.find if base is not None else (lambda name: None)
    worker = cast(Any, partial(diff_batch, spec))
    with working(sources, progress, limits, jobs=jobs, dask=dask, shared_fs=shared_fs,
                 worker=worker, batch=batch, stats=stats, extra=find) as stream:
        for row in rows(stream):
            summary.add(row)
            report.row(row)
    if base is not None:
        summary.baseline_only = base.unmatched
    summary.seconds = time.perf_counter() - start
    report.close(summary)
    return summary


def cmd_diff(args: Any) -> int:
    """``diff``: the report, its summary on stderr unless it is the text on stdout; the exit
    code is the worst of the games' (``diff_report.exit_code``)."""
    spec = DiffSpec(dict(args.a or {}), dict(args.b or {}))
    try:
        base = Baseline(args.baseline) if args.baseline else None
    except BaselineError as exc:
        print(f"diff: {exc}", file=sys.stderr)
        return 2
    out = open_output(args.out, "diff")
    if out is None:
        return 2
    try:
        summary = diff(args.sources, out, spec, args.format, base, args.jobs, args.dask,
                       args.shared_fs, args.viewer, args.verbose,
                       limits=Limits(max_bytes=args.max_bytes), batch=args.batch)
    finally:
        if args.out:
            out.close()
    if args.format != "text" or args.out:
        print("\n".join(summary.lines()), file=sys.stderr)
    return summary.exit
