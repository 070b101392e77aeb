"""The JSON API: store and read games, positions, and verify without storing."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from replay.core.errors import LogFormatError
from replay.core.verify import verify as verify_report
from replay.library.provenance import VariationOf, variations_of
from replay.library.spellings import sources

from . import db as store
from . import origins, viewer
from .games import (
    MAX_OFFSET,
    Entry,
    cache,
    check,
    entry_or_404,
    log_limit,
    query_int,
    save,
)
from .limits import check_rate

bp = Blueprint("api", __name__, url_prefix="/api")


def game_json(row: store.GameRow, entry: Entry | None = None,
              origin: VariationOf | None = None) -> dict[str, Any]:
    """A stored game as the API returns it; with ``entry``, also its last move and where the
    viewer opens. A saved variation (``origin``, or ``entry``'s: ``web.origins``) says of
    which game and from which position: ``variation_of``, ``{"id": ..., "from": b}``, with
    the ``url`` of that position when the game is stored here."""
    out: dict[str, Any] = {
        "id": row.id,
        "url": url_for("pages.game", game_id=row.id, _external=True),
        "api_url": url_for("api.get_game", game_id=row.id, _external=True),
        "log_url": url_for("pages.log", game_id=row.id, _external=True),
        "sha256": row.sha256, "created": row.created, "game": row.game,
        "expansions": row.expansions,
        "players": [{"name": p["name"], "colour": p["colour"],
                     "score": row.scores[i] if i < len(row.scores) else None}
                    for i, p in enumerate(row.players)],
        "moves": row.moves, "moves_played": row.moves_played, "finished": row.finished,
        "verdict": viewer.row_verdict(row),
        "winners": row.winners,
        "source_format": row.source_format,
        "import_problems": row.import_problems,
    }
    if row.original is not None or entry is not None and entry.row.original is not None:
        out["original_url"] = url_for("pages.original", game_id=row.id, _external=True)
    if origin is None and entry is not None:
        origin = origins.of_entry(entry)
    if origin is not None:
        out["variation_of"] = origin.as_json()
        if origin.original is not None:
            out["variation_of"]["url"] = url_for("pages.position", game_id=origin.id,
                                                 n=origin.base, _external=True)
    if entry is not None:
        out["sources"] = sources(store.get_db(), row.id)
        out["last_move"] = entry.last
        out["open_at"] = entry.default_position()
        out["viewer_url"] = url_for("pages.position", game_id=row.id,
                                    n=entry.default_position(), _external=True)
    return out


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    """Stored games, newest first, filtered by ``verdict``, (part of) a ``player``'s name,
    ``game`` (its name in the logs) and ``expansion``, ``limit`` (at most 200) from
    ``offset``; with how many match in all."""
    verdict = request.args.get("verdict") or None
    player = (request.args.get("player") or "").strip()[:64] or None
    game = (request.args.get("game") or "").strip()[:64] or None
    expansion = (request.args.get("expansion") or "").strip()[:64] or None
    limit = query_int("limit", 50, 1, 200)
    offset = query_int("offset", 0, 0, MAX_OFFSET)
    db = store.get_db()
    rows, total = store.search(db, verdict, player, limit, offset, game=game,
                               expansion=expansion)
    found = variations_of(db, (r.id for r in rows))
    return jsonify(total=total, games=[game_json(r, origin=found.get(r.id)) for r in rows])


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    """Store a log (the request body; ``?name=`` the name of its file). 201 with its id and
    url; 200 with the id it has when the same game is already stored, however its file is
    spelled (``replay.library.identity``); 400 with the JSON path for malformed input; 413 when the
    body is over the size limit; 429 when the client is over its rate limit."""
    check_rate()
    data = request.get_data(cache=False)
    name = (request.args.get("name") or "")[:200]
    try:
        checked = check(data, log_limit(), source=name or "request")
    except LogFormatError as exc:
        return jsonify(error=exc.as_json()), 400
    db = store.get_db()
    row, created = save(db, checked, name)
    entry = cache().get(db, row.id)
    body = game_json(row, entry)
    body["new"] = created
    body["report"] = checked.report.as_json()
    response = jsonify(body)
    response.status_code = 201 if created else 200
    response.headers["Location"] = body["url"]
    return response


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> ResponseReturnValue:
    """One stored game (404 when there is none)."""
    entry = entry_or_404(game_id)
    return jsonify(game_json(entry.row, entry))


@bp.get("/games/<game_id>/moves/<int:n>")
def get_position(game_id: str, n: int) -> ResponseReturnValue:
    """The state at position ``n`` of a stored game (404 when the game lacks it)."""
    entry = entry_or_404(game_id)
    if not 0 <= n <= entry.last:
        abort(404)
    view = viewer.build(entry, n, draw=False)
    urls = {
        "url": url_for("pages.position", game_id=game_id, n=n, _external=True),
        "svg_url": url_for("pages.position_svg", game_id=game_id, n=n, _external=True),
    }
    return jsonify(viewer.as_json(view, urls))


@bp.post("/verify")
def verify() -> ResponseReturnValue:
    """The verifier's JSON report on the request body (what ``verify --json`` prints);
    nothing is stored; 429 when the client is over its rate limit."""
    check_rate()
    source = (request.args.get("name") or "<request>")[:200]
    data = request.get_data(cache=False)
    report = verify_report(data, max_bytes=log_limit(), name=source)  # imports a foreign file
    return jsonify(report.as_json())
