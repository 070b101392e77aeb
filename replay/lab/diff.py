"""One game compared under two rule sets, or against an earlier engine's report: the work of
``python -m replay diff`` (its workers run ``diff_batch``; the command is ``diff_command``).

**Rule sets (``--a``/``--b``).** A game is read as ``verify`` reads it (bounded, I-JSON, a
foreign save imported by its family's importer), then replayed twice: under rule set A and
under rule set B, each the log with its ``claims`` removed (they were made under the log's own
rules, and move claims are never compared here) and its ``game`` and ``options`` replaced by
the side's settings (a key not given keeps the log's value). The two replays go in lockstep,
each as ``playback.play_through`` replays a log; they *differ at a move* when one refuses it and
the other does not (or both refuse it under different rules), when its events differ, or when
the scores after it differ. The state hash is not compared: another family may hash the same
position differently, and the options are not part of it. A log that one side refuses before
its first move (its header) differs at move 0.

**Baseline (``--baseline``).** A game is verified by today's engine exactly as ``audit`` does
(claims included, as the earlier report was made) and compared with the earlier engine's
``verify --json`` of the same game: its verdict (valid, the failing rule and move), its state
hash after every move (``move_hashes``), its final scores and winners. The first diverging move
is the first whose state hash differs, or where one side stops (its move is illegal).

Each game is one row (a plain dict that pickles): ``status`` is ``compared``, ``unreadable``
(neither side can read the log), ``not comparable`` (a setting that is not an option of the
game's family, or no earlier report of the game), or ``internal`` (a bug of ours). Per side,
a replay costs what a verification costs, plus the events of every move (A/B).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import IllegalMove, LogFormatError
from ..core.events import Score
from ..core.family import family
from ..core.json_input import MAX_BYTES, decode, read_bounded
from ..core.playback import play_through
from ..core.record import GameRecord, foreign, parse
from ..core.values import replace
from ..core.verify import internal_message, move_index, upgrade, verify

if TYPE_CHECKING:
    from ..core.events import Event

Row = dict[str, Any]
# a diff's task: an audit's task (index, name, path, bytes, error) and the earlier engine's
# ``verify --json`` of the game (--baseline; None otherwise). The runner reads only the first
# four: tasks travel and are retried as the audit's do.
DiffTask = tuple[int, str, str | None, bytes | None, str | None, Mapping[str, Any] | None]

GAME = "game"  # the setting that names the family (a variant) instead of an option
COMPARED, UNREADABLE, NOT_COMPARABLE, INTERNAL = ("compared", "unreadable", "not comparable",
                                                  "internal")
HASH_DIGITS = 16  # one move's state hash in ``move_hashes``


@dataclass(frozen=True)
class DiffSpec:
    """What a diff compares: rule set A and rule set B (option key -> value, and ``game`` ->
    a family), or an earlier engine (``baseline``: each task carries its report)."""

    a: Mapping[str, Any] = field(default_factory=dict)
    b: Mapping[str, Any] = field(default_factory=dict)
    baseline: bool = False


class NotComparable(Exception):
    """A setting the game's family does not have (said per game; the diff goes on)."""


def refusal(rule: str, message: str, move: int | None = None, player: str | None = None,
            path: str | None = None) -> dict[str, Any]:
    """Why one side does not replay a game: the move (``move`` the 0-based index; written as
    its number, counted from 1, and its log entry ``entry``, ``/moves/N-1``, which is also
    ``path`` unless an unreadable value's path is given; None: the header), the player, the
    rule and message."""
    entry = None if move is None else f"/moves/{move}"
    return {"move": None if move is None else move + 1, "entry": entry, "player": player,
            "rule": rule, "message": message, "path": entry if path is None else path}


def with_settings(value: Any, settings: Mapping[str, Any]) -> Any:
    """The decoded log ``value`` under ``settings``: its claims removed, its ``game`` and the
    options given replaced. Raises ``NotComparable`` for an option that the family does not
    have or a value it does not take; a log too broken to tell is left for ``parse`` to
    refuse."""
    if type(value) is not dict:
        return value
    log = {k: v for k, v in value.items() if k != "claims"}
    if GAME in settings:
        log[GAME] = settings[GAME]
    options = {k: v for k, v in settings.items() if k != GAME}
    given = log.get("options", {})
    if not options or type(log.get(GAME)) is not str or type(given) is not dict:
        return log
    try:
        fam = family(log[GAME])
    except LogFormatError:
        return log  # parse says it, with its path
    known = {o.key: o for o in fam.options}
    for key, v in options.items():
        opt = known.get(key)
        if opt is None:
            raise NotComparable(f"{key} is not an option of {fam.label} (its options: "
                                f"{', '.join(known) or 'none'})")
        if type(v) is not type(opt.default) or v not in opt.choices:
            raise NotComparable(f"{v!r} is not a value of {key} in {fam.label} (choose from "
                                f"{', '.join(map(str, opt.choices))})")
    log["options"] = {**given, **options}
    return log


def read_side(log: Any, like: GameRecord | None = None) -> tuple[GameRecord | None,
                                                                   dict[str, Any] | None]:
    """The record of one side's log, or why its header is refused. ``like``: the other
    side's record of the same log in the same family, whose moves are reused (only the
    configuration is read again: the options were checked by ``with_settings``)."""
    try:
        if like is not None and type(log) is dict and log.get(GAME) == like.family.name:
            config = like.family.configure(log, like.config.players, like.config.seed)
            return replace(like, config=config, raw=log, move_claims={}, final_claims=None,
                           winner_claims=None), None
        return parse(log), None
    except LogFormatError as exc:
        return None, refusal("L1", exc.message, path=exc.path)
    except IllegalMove as exc:
        return None, refusal(exc.rule, exc.message)


class Walk:
    """One side's replay, a move at a time, as ``playback.play_through`` replays a log (a
    log ending ``after-last-move`` is ended after its last move), with the points of its
    score events by kind (the event's ``feature``: city, road, farm, ...)."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.names = [p.name for p in record.config.players]
        self.state: Any = record.new_state()
        self.error: dict[str, Any] | None = None
        self.points: Counter[str] = Counter()

    def step(self, k: int) -> list[Event] | None:
        """The events of move ``k`` (0-based); None when it is refused (``error``) or an
        earlier one was."""
        if self.error is not None:
            return None
        state, record = self.state, self.record
        n = len(record.moves)
        try:
            events: list[Event] = state.apply(record.moves[k])
        except IllegalMove as exc:
            move = exc.move if exc.move is not None else k
            self.error = refusal(exc.rule, exc.message, move, exc.player)
            return None
        if (k == n - 1 and record.end_after_last_move and not state.finished
                and state.moves_played == n):
            events = events + state.end_now()
        for e in events:
            if type(e) is Score:
                self.points[e.feature] += e.points * len(e.winners)
        return events

    def player(self) -> str | None:
        """Who plays the next move."""
        seat = self.state.current_player if self.error is None else None
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) \
            else None

    def shown(self, events: list[Event] | None, new_error: bool) -> dict[str, Any]:
        """What this side did at a diverging move: its events and the scores after it, or
        its refusal."""
        if events is None:
            return {"refusal": self.error if new_error else None}
        return {"events": [e.to_json() for e in events],
                "scores": dict(zip(self.names, self.state.scores, strict=True))}

    def result(self) -> dict[str, Any]:
        """The side's end: final scores, winners (of a finished legal game), refusal."""
        state = self.state
        won = state.finished and self.error is None
        return {"final_scores": dict(zip(self.names, state.scores, strict=True)),
                "winners": [self.names[p] for p in state.winners()] if won else [],
                "finished": bool(state.finished), "refusal": self.error,
                "replayed": self.error is None,
                "points_by_kind": dict(sorted(self.points.items()))}


def same_events(ea: Sequence[Event], eb: Sequence[Event]) -> bool:
    """Whether two moves did the same (every event of the same kind, with the same fields)."""
    return ea == eb and list(map(type, ea)) == list(map(type, eb))  # (tuples compare alike)


def _differ(a: Walk, b: Walk, ea: list[Event] | None, eb: list[Event] | None,
            fresh: tuple[bool, bool]) -> bool:
    if ea is None or eb is None:
        if ea is not None or eb is not None:
            return True  # one side refused the move
        if fresh[0] and fresh[1]:  # both refused it: under the same rule?
            return bool(a.error and b.error and a.error["rule"] != b.error["rule"])
        return False
    return not same_events(ea, eb) or a.state.scores != b.state.scores


def lockstep(a: Walk, b: Walk) -> tuple[int | None, dict[str, Any] | None]:
    """Replay both sides to their end; the first move where they differ (its number, 0 for
    the setup) and what each side did there."""
    first: int | None = None
    there: dict[str, Any] | None = None
    sa, sb = a.state.setup_events, b.state.setup_events
    if not same_events(sa, sb):
        first, there = 0, {"player": None, "a": {"events": [e.to_json() for e in sa]},
                           "b": {"events": [e.to_json() for e in sb]}}
    for k in range(len(a.record.moves)):
        had = (a.error is not None, b.error is not None)
        if had[0] and had[1]:
            break
        who = a.player() if first is None else None
        ea, eb = a.step(k), b.step(k)
        fresh = (not had[0] and a.error is not None, not had[1] and b.error is not None)
        if first is None and _differ(a, b, ea, eb, fresh):
            first = k + 1
            there = {"player": who, "a": a.shown(ea, fresh[0]), "b": b.shown(eb, fresh[1])}
    return first, there


def compare_rule_sets(value: Any, spec: DiffSpec) -> Row:
    """The row of a decoded log under ``spec.a`` and ``spec.b`` (without index and name)."""
    try:
        log_a, log_b = with_settings(value, spec.a), with_settings(value, spec.b)
    except NotComparable as exc:
        return {"status": NOT_COMPARABLE, "message": str(exc)}
    rec_a, ref_a = read_side(log_a)
    rec_b, ref_b = read_side(log_b, rec_a)
    game = log_a.get(GAME) if type(log_a) is dict and type(log_a.get(GAME)) is str else None
    if rec_a is None and rec_b is None:
        assert ref_a is not None and ref_b is not None
        if ref_a["rule"] == "L1" and ref_b["rule"] == "L1":
            return {"status": UNREADABLE, "game": game, "message": _said(ref_a)}
        same = ref_a["rule"] == ref_b["rule"]
        return {"status": COMPARED, "game": game, "changed": not same,
                "first_divergence": None if same else 0,
                "divergence": None if same else {"a": {"refusal": ref_a},
                                                 "b": {"refusal": ref_b}},
                **_side("a", _refused(ref_a)), **_side("b", _refused(ref_b))}
    if rec_a is None or rec_b is None:  # one side refuses the header: the other is played
        walk = Walk(rec_a if rec_a is not None else rec_b)  # type: ignore[arg-type]
        for k in range(len(walk.record.moves)):
            if walk.step(k) is None:
                break
        return {"status": COMPARED, "game": game, "changed": True, "first_divergence": 0,
                "divergence": {"player": None, "a": {"refusal": ref_a},
                               "b": {"refusal": ref_b}},
                **_side("a", _refused(ref_a) if rec_a is None else walk.result()),
                **_side("b", _refused(ref_b) if rec_b is None else walk.result())}
    a, b = Walk(rec_a), Walk(rec_b)
    first, there = lockstep(a, b)
    return {"status": COMPARED, "game": game, "changed": first is not None,
            "first_divergence": first, "divergence": there, "moves": len(rec_a.moves),
            **_side("a", a.result()), **_side("b", b.result())}


def _refused(ref: dict[str, Any] | None) -> dict[str, Any]:
    return {"final_scores": {}, "winners": [], "finished": False, "refusal": ref,
            "replayed": False, "points_by_kind": {}}


def _side(s: str, end: dict[str, Any]) -> dict[str, Any]:
    return {f"{k}_{s}": v for k, v in end.items()}


def _said(ref: Mapping[str, Any]) -> str:
    path = ref.get("path")
    return f"{path}: {ref['message']}" if path else str(ref["message"])


# ------------------------------------------------------------------ against a baseline


def hashes_of(report: Mapping[str, Any]) -> list[str]:
    """The state hash after each move of a ``verify --json`` report."""
    text = report.get("move_hashes")
    if not isinstance(text, str):
        return []
    return [text[i:i + HASH_DIGITS] for i in range(0, len(text), HASH_DIGITS)]


def _verdict(report: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    error = report.get("error")
    error = error if isinstance(error, dict) else {}
    return report.get("valid"), error.get("rule"), error.get("move")


def _first_hash_difference(old: list[str], new: list[str]) -> int | None:
    """The 0-based index of the first move whose hash differs, or where one side stops."""
    for i, (x, y) in enumerate(zip(old, new, strict=False)):
        if x != y:
            return i
    return None if len(old) == len(new) else min(len(old), len(new))


def _baseline_refusal(report: Mapping[str, Any]) -> dict[str, Any] | None:
    error = report.get("error")
    if not isinstance(error, dict):
        return None
    return refusal(str(error.get("rule")), str(error.get("message")), move_index(report),
                   error.get("player"), error.get("path"))


def _played_through(report: Mapping[str, Any]) -> bool:
    """Whether the replay went through every move (valid, or only a claim is wrong)."""
    error = report.get("error")
    return report.get("valid") is not None and (
        not isinstance(error, dict) or error.get("rule") == "L2")


def _baseline_first(old: Mapping[str, Any], new: Mapping[str, Any], ha: list[str],
                    hb: list[str]) -> int:
    """The 0-based index of the first move where a changed game diverges (-1: the header):
    the first whose state hash differs, or the move one side refuses, whichever comes first;
    the last move when only a claim checked at the end, the final scores or winners differ."""
    first = _first_hash_difference(ha, hb)
    last = max(len(hb), 1) - 1
    if _verdict(old) != _verdict(new):
        moves = [m for m in (move_index(old), move_index(new)) if m is not None]
        header = not moves and "L2" not in (_verdict(old)[1], _verdict(new)[1])
        at = min(moves) if moves else (-1 if header else last)
        first = at if first is None else min(first, at)
    return last if first is None else first


def compare_baseline(old: Mapping[str, Any], data: Any, name: str, max_bytes: int) -> Row:
    """The row of a game verified today against ``old``, the earlier ``verify --json`` of it
    (without index and name; of any ``report_version``: ``upgrade``)."""
    old = upgrade(dict(old))
    now = verify(data, max_bytes=max_bytes, name=name)
    new = now.as_json()
    if now.internal:
        return {"status": INTERNAL, "message": now.failure.message if now.failure else ""}
    unreadable = not now.readable and old.get("valid") is False and _verdict(old)[1] == "L1"
    if unreadable:
        f = now.failure
        return {"status": UNREADABLE, "game": now.game,
                "message": _said({"path": f.path, "message": f.message}) if f else ""}
    ha, hb = hashes_of(old), now.hashes
    changed = (_verdict(old) != _verdict(new) or ha != hb
               or old.get("final_scores") != new["final_scores"]
               or old.get("winners") != new["winners"])
    first = _baseline_first(old, new, ha, hb) if changed else None
    ends = {"a": {"final_scores": old.get("final_scores") or {},
                  "winners": old.get("winners") or [], "finished": bool(old.get("finished")),
                  "refusal": _baseline_refusal(old), "points_by_kind": None,
                  "replayed": _played_through(old)},
            "b": {"final_scores": new["final_scores"], "winners": new["winners"],
                  "finished": bool(new["finished"]), "refusal": _baseline_refusal(new),
                  "points_by_kind": None, "replayed": _played_through(new)}}
    there = _baseline_there(now, first, ha, ends) if first is not None else None
    return {"status": COMPARED, "game": now.game, "changed": changed,
            "first_divergence": None if first is None else first + 1,
            "divergence": there, "moves": now.moves,
            **_side("a", ends["a"]), **_side("b", ends["b"])}


def _baseline_there(now: Any, first: int, old_hashes: list[str],
                    ends: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each side at the first diverging move (0-based ``first``; -1: the header): the state
    hash after it, or the refusal of it; today's events there (replayed again: only a game
    that changed pays for it)."""
    out: dict[str, Any] = {}
    number = first + 1
    for s, hashes in (("a", old_hashes), ("b", list(now.hashes))):
        ref = ends[s]["refusal"]
        if ref is not None and ref["move"] in (number, None) and ref["rule"] != "L2":
            out[s] = {"refusal": ref}
        else:
            out[s] = {"hash": hashes[first] if 0 <= first < len(hashes) else None}
    record = now.record
    if record is not None and 0 <= first < len(now.hashes):
        played = play_through(record, upto=first + 1, checkpoints=False)
        if len(played.events) > first:
            out["b"]["events"] = [e.to_json() for e in played.events[first]]
            names = [p.name for p in record.config.players]
            out["b"]["scores"] = dict(zip(names, played.scores[first], strict=True))
    return out


# ------------------------------------------------------------------ the workers


def read_value(path: str | None, data: bytes | None, max_bytes: int) -> tuple[bytes, Any]:
    """The bytes of an item and its log (a foreign save imported), as ``verify`` reads
    them; ``LogFormatError`` when they cannot be read."""
    raw = data if data is not None else read_bounded(path or "", max_bytes)
    value = decode(raw, max_bytes)
    imported = foreign(value)
    return raw, (value if imported is None else imported.log)


def diff_task(task: DiffTask, spec: DiffSpec, max_bytes: int = MAX_BYTES) -> Row:
    """The row of one game; never raises (a bug of ours is an ``internal`` row)."""
    index, name, path, data, error, old = task
    row: Row = {"index": index, "source": name, "sha256": None}
    if error is not None:
        return {**row, "status": UNREADABLE, "message": error}
    try:
        if spec.baseline:
            if old is None:
                return {**row, "status": NOT_COMPARABLE,
                        "message": "no game of this name in the baseline report"}
            source: Any = path or ""
            try:
                source = data if data is not None else read_bounded(source, max_bytes)
                row["sha256"] = hashlib.sha256(source).hexdigest()
            except LogFormatError:
                pass  # verify says it, as audit did
            return {**row, **compare_baseline(old, source, name, max_bytes)}
        try:
            raw, value = read_value(path, data, max_bytes)
        except LogFormatError as exc:
            return {**row, "status": UNREADABLE, "message": str(exc)}
        row["sha256"] = hashlib.sha256(raw).hexdigest()
        return {**row, **compare_rule_sets(value, spec)}
    except Exception as exc:  # a bug of ours: said per game, the diff goes on
        return {**row, "status": INTERNAL, "message": internal_message(exc)}


def diff_batch(spec: DiffSpec, tasks: list[DiffTask], max_bytes: int = MAX_BYTES) -> list[Row]:
    """The rows of a batch (the worker function, bound to ``spec``: ``functools.partial``)."""
    from ..audit.work import warm

    warm()
    return [diff_task(t, spec, max_bytes) for t in tasks]
