"""Computer analysis in the web app: ask for it, follow it, see it in the viewer.

A stored game's analysis (``replay.agents.analysis``: each player's win chance at every
position, the engine's best move, the move played marked inaccuracy / mistake / blunder) is
asked for on the viewer's page or through the API, and run in the background by
``web.computer_jobs`` (a bounded pool of worker processes; never in a request thread). The
routes:

* ``POST /api/games/<id>/analysis``: queue it (202; 200 with the row when it is already
  queued, running or done; 429 with ``Retry-After`` when the queue, the client's share or the
  client's budget is full; 422 for a game that cannot be replayed; 403 when the server runs
  no analyses, ``ANALYSIS_WORKERS`` 0);
* ``GET /api/games/<id>/analysis``: its status, progress (``done`` of ``total`` positions),
  the agent's spec and the engine, and when done its positions and summary (404 before any
  was asked for);
* ``DELETE /api/games/<id>/analysis``: cancel it (its worker stops at its next position);
* ``POST /games/<id>/analysis`` (the viewer's buttons, without a script): the same ask or
  cancel (``action``), then back to the position (``n``).

The viewer draws a finished analysis (``panel``): the win-chance graph (a line per player,
a dot on each inaccuracy, mistake and blunder, every column a link to its position), the best
move at the position as a ghost on the board with its win chance (``best_option``), the mark
of the move just played, and per player the marks and mean loss. With results hidden
(spoiler-free), nothing of the moves not reached yet shows: the graph stops at the position,
the move to come is not judged, the summary waits for the end. On the analysis board ("try
moves"), ``rank`` orders the position's moves by a short search on request: bounded (one
search at a time per process, ``RANK_AGENT``'s budget, a 429 when busy) and kept
(``RANKED`` positions per app).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import OrderedDict
from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import Forbidden, TooManyRequests, UnprocessableEntity

from replay.agents.analyse_report import win_chart
from replay.agents.analysis import DEFAULT_AGENT, SYMBOLS, as_seen, searching_agent
from replay.agents.mcts import decision_key
from replay.core.errors import LogFormatError
from replay.core.explore import Choices, Option
from replay.core.rng import SeededStream
from replay.core.svgtext import element, open_tag, wrap
from replay.core.view import view_of
from replay.library.store import storage_fault

from . import computer_jobs as jobs
from .db import get_db
from .errors import respond
from .games import Entry, entry_or_404
from .limits import check_rate

bp = Blueprint("computer", __name__)

RANK_AGENT = "mcts:100:dets=2"  # the analysis board's ranking: a few hundred ms, pure Python
RANKED = 32  # ranked positions kept per app
RANK_SHOWN = 8  # moves listed, best first
DONE_KEPT = 16  # finished analyses kept parsed per app


def settings() -> dict[str, Any]:
    """The app's analysis settings (defaults in ``web.app``)."""
    c = current_app.config
    return {"agent": str(c.get("ANALYSIS_AGENT") or DEFAULT_AGENT),
            "workers": int(c.get("ANALYSIS_WORKERS", 1)),
            "queue": int(c.get("ANALYSIS_QUEUE", 16)),
            "per_client": int(c.get("ANALYSIS_PER_CLIENT", 2))}


def _pool() -> jobs.Pool:
    ext = current_app.extensions
    pool = ext.get("computer_pool")
    if pool is None:
        pool = ext["computer_pool"] = jobs.Pool(current_app.config["DATABASE"],
                                                settings()["workers"])
    assert isinstance(pool, jobs.Pool)
    return pool


def _kept() -> OrderedDict[tuple[str, str], jobs.Job]:
    kept = current_app.extensions.setdefault("computer_done", OrderedDict())
    assert isinstance(kept, OrderedDict)
    return kept


def current(game_id: str, fresh: bool = False) -> jobs.Job | None:
    """The analysis of ``game_id`` by the app's agent, as it stands. The viewer asks on every
    page, and a page of a game viewed lately opens no connection to the library: a finished
    analysis is kept parsed (``DONE_KEPT``), what another state was is believed for a few
    seconds (``RECENT``: "none" longer, as asking in this process forgets it), unless
    ``fresh`` (the API). A library that cannot be read says None: the page still shows."""
    agent = settings()["agent"]
    key = (game_id, agent)
    kept = _kept()
    found = kept.get(key)
    if found is not None:
        kept.move_to_end(key)
        return found
    recent = _recent()
    seen = recent.get(key)
    if seen is not None and not fresh and time.monotonic() < seen[0]:
        return seen[1]
    try:
        found = jobs.find(get_db(), game_id, agent, with_result=False)
        if found is not None and found.status == "done":
            found = jobs.find(get_db(), game_id, agent)
    except sqlite3.Error as exc:
        if storage_fault(exc) is None:
            raise
        return None
    if found is not None and found.status == "done":
        kept[key] = found
        while len(kept) > DONE_KEPT:
            kept.popitem(last=False)
        recent.pop(key, None)
        return found
    recent[key] = (time.monotonic() + RECENT[found is None], found)
    while len(recent) > RECENT_KEPT:
        recent.pop(next(iter(recent)))
    return found


RECENT = {False: 2.0, True: 60.0}  # seconds a waiting (False) or absent (True) state is kept
RECENT_KEPT = 256


def _recent() -> dict[tuple[str, str], tuple[float, jobs.Job | None]]:
    found = current_app.extensions.setdefault("computer_recent", {})
    assert isinstance(found, dict)
    return found


def _forget(game_id: str) -> None:
    """What this process believed of ``game_id``'s analysis, forgotten (it was asked for or
    cancelled here)."""
    key = (game_id, settings()["agent"])
    _kept().pop(key, None)
    _recent().pop(key, None)


def _ask(entry: Entry) -> tuple[jobs.Job, bool]:
    """Queue the analysis of ``entry`` (see the module); HTTP errors for what refuses it."""
    if entry.parsed is None:
        raise UnprocessableEntity("This game cannot be replayed, so it cannot be analysed.")
    check_rate("computer")
    s = settings()
    if s["workers"] < 1:
        raise Forbidden("Computer analysis is turned off on this server "
                        "(serve --analysis-workers 0).")
    try:
        job, queued = jobs.ask(get_db(), entry.row.id, s["agent"],
                               request.remote_addr or "unknown", s["queue"], s["per_client"])
    except jobs.Refused as exc:
        raise TooManyRequests(exc.message, retry_after=exc.retry_after) from None
    _forget(entry.row.id)
    if job.waiting:
        _pool().wake()
    return job, queued


@bp.post("/api/games/<game_id>/analysis")
def api_ask(game_id: str) -> ResponseReturnValue:
    """Queue the computer analysis of a stored game (see the module)."""
    job, queued = _ask(entry_or_404(game_id))
    response = jsonify(job.to_json())
    response.status_code = 202 if queued else 200
    response.headers["Location"] = url_for("computer.api_get", game_id=game_id)
    return response


@bp.get("/api/games/<game_id>/analysis")
def api_get(game_id: str) -> ResponseReturnValue:
    """The computer analysis of a stored game as it stands (404 when none was asked for)."""
    entry_or_404(game_id)
    job = current(game_id, fresh=True)
    if job is None:
        return respond(404, "Not Found", "This game has no computer analysis yet: POST to this "
                                         "address to ask for one.")
    if job.waiting:
        _pool().wake()  # (a server restarted meanwhile: someone must work through the queue)
    return jsonify(job.to_json())


@bp.delete("/api/games/<game_id>/analysis")
def api_cancel(game_id: str) -> ResponseReturnValue:
    """Cancel the computer analysis of a stored game (404 when none was asked for)."""
    entry_or_404(game_id)
    job = jobs.cancel(get_db(), game_id, settings()["agent"])
    _forget(game_id)
    if job is None:
        return respond(404, "Not Found", "This game has no computer analysis to cancel.")
    return jsonify(job.to_json())


@bp.post("/games/<game_id>/analysis")
def page_action(game_id: str) -> ResponseReturnValue:
    """The viewer's buttons: ``action`` "ask" or "cancel", then back to position ``n``."""
    entry = entry_or_404(game_id)
    action = request.form.get("action", "")
    raw = request.form.get("n", "0")
    n = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 0
    n = min(n, entry.last)
    if action == "ask":
        _ask(entry)
    elif action == "cancel":
        jobs.cancel(get_db(), game_id, settings()["agent"])
        _forget(game_id)
    else:
        return respond(400, "Bad Request", "'action' is 'ask' or 'cancel'.")
    return redirect(url_for("pages.position", game_id=game_id, n=n), 303)


# ---------------------------------------------------------------- the viewer's panel

def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


def panel(entry: Entry, n: int, step: str, query: str, hide: bool) -> dict[str, Any]:
    """What the viewer's "computer analysis" panel shows at position ``n`` (``hide``: results
    hidden and ``n`` before the end: nothing of the moves to come)."""
    job = current(entry.row.id)
    out: dict[str, Any] = {"job": job, "agent": settings()["agent"], "n": n,
                           "offered": settings()["workers"] > 0}
    if job is None or job.result is None or entry.parsed is None:
        return out
    positions = job.result.get("positions") or []
    by_move = {p["move"]: p for p in positions}
    here = by_move.get(n + 1)  # the position before move n + 1: this one
    played = by_move.get(n)  # the move that led here
    hiding = hide and n < entry.last
    out.update(
        here=here, played=played, hiding=hiding, pct=_pct, symbols=SYMBOLS,
        summary=None if hiding else job.result.get("summary"),
        chart=chart(entry, job, n, step, query, hiding))
    return out


def chart(entry: Entry, job: jobs.Job, n: int, step: str, query: str, hiding: bool) -> str:
    """The win-chance graph as SVG (``analyse_report.win_chart``'s geometry): a line per
    player, a dot per marked move, a cursor at ``n``, a link to each position; ``hiding``:
    the positions after ``n`` and the mark of the move to come left out."""
    assert job.result is not None
    positions = job.result.get("positions") or []
    if hiding:
        positions = [{**p, "mark": p["mark"] if p["move"] <= n else None}
                     for p in positions if p["move"] <= n + 1]
    players = entry.row.players
    geo = win_chart({"positions": positions, "players": players}, plot_w=340,
                    last=entry.last + 1)
    if geo is None:
        return ""
    parts = [open_tag("svg", xmlns="http://www.w3.org/2000/svg", class_="chart win-chart",
                      viewBox=f"0 0 {geo['width']} {geo['height']}", role="img",
                      aria_label="each player's win chance before each move, as the computer "
                                 "sees it; dots: inaccuracies, mistakes and blunders")]
    for v, label in ((geo["top"], "100%"), (geo["mid"], "50%"), (geo["bottom"], "0%")):
        parts.append(element("line", x1=geo["left"], x2=geo["right"], y1=v, y2=v,
                             class_="grid"))
        parts.append(element("text", label, x=geo["left"] - 4, y=f"{v + 4:g}", class_="axis",
                             text_anchor="end"))
    parts.append(element("text", "move", x=geo["centre"], y=geo["caption_y"], class_="label",
                         text_anchor="middle"))
    for k in sorted({0, entry.last // 2, entry.last}):
        parts.append(element("text", k, x=geo["x"](k + 1), y=geo["label_y"], class_="axis",
                             text_anchor="middle"))
    for line in geo["lines"]:
        parts.append(wrap("polyline", element("title", line["name"]), points=line["points"],
                          fill="none", stroke=line["colour"], stroke_width="2",
                          stroke_linejoin="round"))
    for dot in geo["dots"]:
        parts.append(wrap("circle", element("title", dot["title"]), cx=dot["x"], cy=dot["y"],
                          r="4.5", fill=dot["colour"], stroke="#fff", stroke_width="1.2",
                          class_="win-mark"))
    x = geo["x"](n + 1)
    parts.append(element("line", class_="cursor", x1=x, x2=x, y1=geo["top"] - 6,
                         y2=geo["bottom"]))
    width = geo["step"]
    for k in range(entry.last + 1):
        tip = f"move {k}" + (": not reached yet" if hiding and k > n else "")
        parts.append(wrap("a", wrap("rect", element("title", tip),
                                    x=f"{geo['x'](k + 1) - width / 2:.1f}", y="0",
                                    width=f"{width:.1f}", height=geo["label_y"], class_="hit"),
                          href=f"{step}{k}{query}", data_move=k, tabindex="-1"))
    return "".join(parts) + "</svg>"


def best_option(entry: Entry, n: int) -> Option | None:
    """The engine's best move at position ``n`` of a game analysed, as an analysis-board
    option (its ghost drawn on the board), or None (not analysed, or nothing to show)."""
    job = current(entry.row.id)
    if job is None or job.result is None or entry.parsed is None:
        return None
    here = next((p for p in job.result.get("positions") or [] if p["move"] == n + 1), None)
    if here is None or here.get("best") is None:
        return None
    state = entry.parsed.playback.position(n).state
    fam = state.family
    try:
        raw = here["best"]["move"]
        move = fam.decode_move(raw, "/best")
        spot, facet, steps = view_of(fam).menu(state, move)
    except (LogFormatError, KeyError, TypeError, ValueError):
        return None
    return Option(0, spot, facet, steps, here["best"]["text"], "", raw)


# ---------------------------------------------------------------- ranking the board's moves

_ranking = threading.Lock()


def _ranked() -> OrderedDict[Any, list[dict[str, Any]]]:
    kept = current_app.extensions.setdefault("computer_ranked", OrderedDict())
    assert isinstance(kept, OrderedDict)
    return kept


def rank(entry: Entry, n: int, found: Choices, key: Any) -> list[dict[str, Any]]:
    """The analysis board's moves at position ``n`` of ``entry`` (the game or a variation),
    ranked by a short search (``RANK_AGENT``): at most ``RANK_SHOWN``, best first, each its
    option, win chance and visits. Kept under ``key`` (``RANKED`` positions); 429 while this
    process ranks another position."""
    kept = _ranked()
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    if entry.parsed is None or not found.options:
        return []
    if not _ranking.acquire(blocking=False):
        raise TooManyRequests("The computer is ranking another position: try again in a "
                              "second.", retry_after=1)
    try:
        out = _rank(entry, n, found)
    finally:
        _ranking.release()
    kept[key] = out
    while len(kept) > RANKED:
        kept.popitem(last=False)
    return out


def _rank(entry: Entry, n: int, found: Choices) -> list[dict[str, Any]]:
    assert entry.parsed is not None
    state = entry.parsed.playback.position(n).state
    fam = state.family
    options: dict[str, Option] = {}
    first = None
    for o in found.options:
        try:
            move = fam.decode_move(o.move, "/move")
        except LogFormatError:
            continue
        first = move if first is None else first
        options[decision_key(state, state.decision(move))] = o
    if first is None:
        return []
    seen, _ = as_seen(state, first, n)  # a table log's position holds the tile drawn
    if seen is None:
        return []
    agent = searching_agent(RANK_AGENT)
    searched = agent.search(seen, SeededStream("rank", f"position:{n}"))
    out: list[dict[str, Any]] = []
    for s in searched:
        found_option = options.get(decision_key(seen, s.decision))
        if found_option is not None and all(r["option"] is not found_option for r in out):
            out.append({"option": found_option, "win": s.win, "visits": s.visits})
        if len(out) >= RANK_SHOWN:
            break
    return out

