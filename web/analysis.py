"""The analysis board: try moves from any position of a stored game (pages and API).

The viewer's page of position ``n`` explores with ``?explore=1`` (the spots of the moves the
position allows are drawn on the board, and their menus listed); a variation (``web.variations``)
is shown at ``/games/<id>/variation/<b>/<line>/moves/<n>``: its positions are pages like the
game's, numbered as in the game (``n`` from ``b`` to ``b`` + its length). The line is in the
path, so a variation's pages link to one another by position alone (relative links: a page
holds its line a few times, never once per link), and its URL opens exactly what it shows; a
line is read once into canonical tokens (``replay.core.explore.read_line``: any other spelling
is refused). The links of before (``?from=b&line=...`` on a game's page) redirect there.
A menu's button submits ``play`` (a move token): the page of the next position of the line
extended by it is a redirect away, so every control works without a script; the viewer's
script goes there directly. The server decides every rule: a page only ever chooses among the
moves it is given. Every page that explores or shows a variation counts against the client's
analysis budget, as the API does.

The API: ``GET /api/games/<id>/moves/<n>/choices`` (with ``from``/``line``/``pick``: in a
variation) the moves a position allows; ``POST /api/games/<id>/variation`` plays a line (a
JSON body ``{"from": b, "line": [moves as the log records them], "at": n, "pick": draw}``)
and answers the position reached (as ``GET /api/games/<id>/moves/<n>``), its choices and the
line's moves, or 422 with the rule and the verifier's words for an illegal move;
``POST /api/games/<id>/variations`` saves a variation as a new game, through the checks of an
upload. Each counts against the client's analysis budget (``ANALYSIS_RATE_LIMIT``).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue

from replay.core.errors import LogFormatError
from replay.core.explore import MAX_LINE, Choices, line_text, read_line, read_token
from replay.core.json_input import decode

from . import db as store
from . import variations, viewer
from .errors import respond
from .games import Entry, cache, check, entry_or_404, log_limit, save
from .limits import check_rate
from .variations import Variation

bp = Blueprint("analysis", __name__)
MARK = "~"  # a token of no line (not base64url), to cut a variation's URL where a token goes


def variation_url(game_id: str, start: int, line: str, n: int, external: bool = False) -> str:
    """The page of position ``n`` of the variation ``start``/``line`` (its line in the path,
    so that its pages link to one another by position alone); for an empty line, the game's
    page exploring ``n``."""
    if not line:
        return url_for("pages.position", game_id=game_id, n=n, _external=external) \
            + "?explore=1"
    return url_for("pages.variation", game_id=game_id, start=start, line=line, n=n,
                   _external=external)


def tried(entry: Entry, n: int, start: int | None, line: str | None) -> tuple[int, str]:
    """Where a move tried at position ``n`` goes, as (branch, the line's tokens before it):
    after the moves of the line shown (``start``/``line``) that lead to ``n``; on a game's
    page, or before the line's branch, a new line at ``n`` (``variations.branch_point``)."""
    if start is None or line is None or n < start:
        return variations.branch_point(entry, n), ""
    return start, ".".join(line.split(".")[:n - start]) if line else ""


def old_link(entry: Entry, n: int) -> ResponseReturnValue:
    """A link of before lines moved into the path: ``from``/``line`` on a game's page name a
    variation: its page (308; 404 for a position beyond it), or with ``play`` the next position
    of the line extended by that move (``play``). ``LogFormatError`` with the path for a branch,
    a line or a token that cannot be read."""
    args = request.args
    check_rate("analysis")
    start, line = variations.read_base(entry, args.get("from")), args.get("line") or ""
    count = len(read_line(line))  # refused here, with its path, not on the next page
    token = args.get("play")
    if token is not None:
        return play(entry, n, (start, line), token)
    if not 0 <= n <= start + count:
        abort(404)
    pick = args.get("pick")
    url = variation_url(entry.row.id, start, line, n)
    return redirect(url + (("&" if "?" in url else "?")
                           + urlencode({"pick": pick[:64]}) if pick else ""), 308)


def play(entry: Entry, n: int, shown: tuple[int | None, str | None],
         token: str) -> ResponseReturnValue:
    """A menu's button (``play``: a move token) at position ``n``: the page of the next
    position of the line shown (``shown``: its branch and line, or None on a game's page)
    extended by it, or of a new line at ``n`` (303). ``LogFormatError`` at ``/play`` for a
    token that cannot be read or a line grown too long."""
    start, prefix = tried(entry, n, *shown)
    tokens = prefix.split(".") if prefix else []
    try:
        read_token(token, len(tokens))
    except LogFormatError as exc:
        raise LogFormatError(f"'play' is not a move token: {exc.message}", "/play") from None
    tokens.append(token)
    if len(tokens) > MAX_LINE:
        raise LogFormatError(f"a variation holds at most {MAX_LINE} moves", "/play")
    return redirect(variation_url(entry.row.id, start, ".".join(tokens), start + len(tokens)),
                    303)


def page_context(entry: Entry, n: int, variation: Variation | None,
                 explore: bool) -> dict[str, Any]:
    """What the viewer's page of position ``n`` shows of the analysis board (``explore``: the
    moves it allows; always on a variation's page): the entry to view (the game or
    ``variation`` of it) and the template's names. ``n`` is a position of that entry (the
    views answer 404 for any other before asking).

    The links to the positions of the line shown are written once each: ``step`` and a
    position, with ``query``: the game's URL prefix (``base``) on its pages, and "" on a
    variation's (a relative link: the page's own URL holds the line); ``here`` is the same
    prefix in full, for the script."""
    shown = variation.entry if variation is not None else entry
    found: variations.Explored | None = None
    if explore:
        pick = request.args.get("pick")
        found = variations.choices_at(shown, entry, n, pick[:64] if pick else None)
    game_id = entry.row.id
    base = url_for("pages.position", game_id=game_id, n=0)[:-1]
    if variation is not None:
        try_from, prefix = tried(entry, n, variation.base, variation.line)
        step, query = "", ""
        here = variation_url(game_id, variation.base, variation.line, 0)[:-1]
    else:
        try_from, prefix = tried(entry, n, None, None)
        step, query = base, "?explore=1" if explore else ""
        here = base
    tokens = len(prefix.split(".")) if prefix else 0
    head, _, tail = variation_url(game_id, try_from, f"{prefix}.{MARK}" if prefix else MARK,
                                  try_from + tokens + 1).partition(MARK)
    label = found[0].label if found else str
    return dict(shown=shown, variation=variation, choices=found[0] if found else None,
                explored=found, base=base, step=step, here=here, query=query,
                spot_label=label, try_head=head, try_tail=tail, explore=explore,
                menus=menus(shown, found[0] if found else None),
                facets=facets(found[0] if found else None))


def menus(shown: Entry, found: Choices | None) -> list[tuple[str, str, list[Any]]]:
    """The menus of a position's moves: (spot, its name (``Choices.labels``), [(the first
    step, [(option, the other steps in words)])]) per spot, the moves of no spot first."""
    if found is None or shown.parsed is None:
        return []
    label = found.label
    spots: dict[str, dict[str, list[Any]]] = {}
    for o in found.options:
        head = o.steps[0] if o.steps else o.text
        rest = " · ".join(o.steps[1:]) if len(o.steps) > 1 else o.text
        spots.setdefault(o.spot, {}).setdefault(head, []).append((o, rest))
    order = sorted(spots, key=lambda s: (s != "", s))
    return [(s, label(s) if s else "moves played on no spot", list(spots[s].items()))
            for s in order]


def facets(found: Choices | None) -> list[str]:
    """The facets of a position's moves, in order of first appearance."""
    if found is None:
        return []
    return list(dict.fromkeys(o.facet for o in found.options if o.facet))


# --------------------------------------------------------------------------- saving

def save_variation(entry: Entry, base: int, line: str) -> tuple[store.GameRow, bool]:
    """Store a variation as a game, through the upload's checks; its meta names the game
    and the position it branched from."""
    if not line:
        raise LogFormatError("a variation to save holds at least one move", "/line")
    found = variations.read(entry, base, line)
    log = decode(found.entry.row.log)
    log["meta"] = {"variation_of": entry.row.id, "from": base}
    data = json.dumps(log, ensure_ascii=False).encode("utf-8")
    return save(store.get_db(), check(data, log_limit(), source=f"variation of {entry.row.id}"))


@bp.post("/games/<game_id>/variations")
def save_page(game_id: str) -> ResponseReturnValue:
    """The form of a variation page: save it as a new game and open it."""
    entry = entry_or_404(game_id)
    check_rate()
    base = request.form.get("from", "")
    line = request.form.get("line", "")
    try:
        if not (base.isascii() and base.isdigit()) or len(base) > 6:
            raise LogFormatError("'from' must be a whole number", "/from")
        row, _ = save_variation(entry, int(base), line)
    except LogFormatError as exc:
        return respond(400, "Bad Request", f"This variation cannot be saved: "
                       f"{exc.path or '/'}: {exc.message}")
    saved = cache().get(store.get_db(), row.id)
    n = saved.default_position() if saved is not None else 0
    return redirect(url_for("pages.position", game_id=row.id, n=n), 303)


# --------------------------------------------------------------------------- the API

def _body() -> dict[str, Any]:
    """The JSON object of a request body; ``LogFormatError`` at "/" when it is not one."""
    data = request.get_data(cache=False)
    value = decode(data) if data else None
    if not isinstance(value, dict):
        raise LogFormatError("the body must be a JSON object", "/")
    return value


def _line_of(body: dict[str, Any], fields: tuple[str, ...]) -> tuple[int, str]:
    for key in body:
        if key not in fields:
            raise LogFormatError(f"{key[:40]!r} is not a field here (choose from "
                                 f"{', '.join(fields)})", f"/{key[:40]}")
    base = body.get("from")
    if type(base) is not int:
        raise LogFormatError("'from' must be the position the variation branches at (a whole "
                             "number)", "/from")
    moves = body.get("line", [])
    if not isinstance(moves, list):
        raise LogFormatError("'line' must be a list of moves as a log records them", "/line")
    return base, line_text(moves)


def _bad(exc: LogFormatError) -> ResponseReturnValue:
    return jsonify(error=exc.as_json()), 400


@bp.get("/api/games/<game_id>/moves/<int:n>/choices")
def api_choices(game_id: str, n: int) -> ResponseReturnValue:
    """The moves position ``n`` allows (of the variation ``from``/``line`` when given)."""
    entry = entry_or_404(game_id)
    check_rate("analysis")
    try:
        variation = variations.read_args(entry, request.args.get("from"),
                                         request.args.get("line"))
    except LogFormatError as exc:
        return _bad(exc)
    shown = variation.entry if variation is not None else entry
    if not 0 <= n <= shown.last:
        return respond(404, "Not Found", f"position {n} is not in this game (0 to "
                       f"{shown.last})")
    pick = request.args.get("pick")
    found = variations.choices_at(shown, entry, n, pick[:64] if pick else None)
    return jsonify(id=entry.row.id, move=n, choices=found[0].to_json() if found else None)


@bp.post("/api/games/<game_id>/variation")
def api_play(game_id: str) -> ResponseReturnValue:
    """Play a line from a position of the game (see the module)."""
    entry = entry_or_404(game_id)
    check_rate("analysis")
    try:
        body = _body()
        base, line = _line_of(body, ("from", "line", "at", "pick"))
        variation = variations.read(entry, base, line)
    except LogFormatError as exc:
        return _bad(exc)
    failure = variations.failure_json(variation)
    if failure is not None:
        return jsonify(error={"code": 422, "title": "Illegal move", **failure}), 422
    at = body.get("at", variation.last)
    if type(at) is not int or not 0 <= at <= variation.last:
        return _bad(LogFormatError(f"'at' must be a position of the variation (0 to "
                                   f"{variation.last})", "/at"))
    pick = body.get("pick")
    if pick is not None and (type(pick) is not str or len(pick) > 64):
        return _bad(LogFormatError("'pick' must be a draw the choices list", "/pick"))
    view = viewer.build(variation.entry, at, draw=False)
    position = viewer.as_json(view, {})
    position["id"] = entry.row.id
    found = variations.choices_at(variation.entry, entry, at, pick)
    summary = variation.entry.summary
    told = [{"number": m.number, "player": entry.row.players[m.player]["name"],
             "text": m.text, "codes": m.codes, "points": list(m.points)}
            for m in summary.moves[base:]]
    return jsonify(id=entry.row.id, **{"from": base}, line=line, last=variation.last,
                   moves=told, position=position,
                   choices=found[0].to_json() if found else None,
                   url=variation_url(game_id, base, line, at, external=True))


@bp.post("/api/games/<game_id>/variations")
def api_save(game_id: str) -> ResponseReturnValue:
    """Save a variation (``{"from": b, "line": [...]}``) as a new game: 201 with its id
    (200 when the same game is stored already)."""
    entry = entry_or_404(game_id)
    check_rate()
    try:
        base, line = _line_of(_body(), ("from", "line"))
        row, created = save_variation(entry, base, line)
    except LogFormatError as exc:
        return _bad(exc)
    url = url_for("pages.game", game_id=row.id, _external=True)
    response = jsonify(id=row.id, url=url, new=created, verdict=row.verdict)
    response.status_code = 201 if created else 200
    response.headers["Location"] = url
    return response
