"""The pages: library, upload, viewer (and the board of a position as an SVG file)."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from replay import svg
from replay.core.colours import seat_marks, text_on
from replay.core.errors import LogFormatError
from replay.core.family import families
from replay.library.provenance import VariationOf, variations_of

from . import analysis, computer, origins, uploads, variations, viewer
from . import db as store
from .errors import respond
from .games import MAX_OFFSET, Entry, cache, check, entry_or_404, log_limit, query_int, save
from .limits import check_rate

bp = Blueprint("pages", __name__)

def game_label(game: str) -> str:
    """The name people know a game by (its family's label)."""
    return next((f.label for f in families() if f.name == game), game)


def expansion_label(expansion: str) -> str:
    """The name people know an expansion by (its label)."""
    return next((f.expansions[expansion].label for f in families()
                 if expansion in f.expansions), expansion)


def figure_word(kind: str, count: int) -> str:
    """``large follower`` / ``large followers``."""
    word = kind.replace("-", " ")
    return word if count == 1 else word + "s"


def ranking(row: store.GameRow) -> list[tuple[str, str, int, bool]]:
    """A stored game's players, best score first: (name, fill, score, won)."""
    seats = [(p["name"], svg.player_colour(p["colour"]), row.scores[i], p["name"] in row.winners)
             for i, p in enumerate(row.players) if i < len(row.scores)]
    return sorted(seats, key=lambda s: -s[2])


@bp.app_context_processor
def template_helpers() -> dict[str, object]:
    """Functions every template can call."""
    return {"player_colour": svg.player_colour, "game_label": game_label,
            "expansion_label": expansion_label, "figure_word": figure_word,
            "ranking": ranking, "seat_marks": seat_marks, "text_on": text_on,
            "marks_by_name": marks_by_name, "origin_url": origin_url}


def origin_url(origin: VariationOf) -> str | None:
    """Where a saved variation's "variation of ..." leads (``origins.origin_url``), as
    this visitor hides results or not."""
    return origins.origin_url(origin, hiding_results())


def marks_by_name(players: list[dict[str, str]]) -> dict[str, str]:
    """Each player's mark (``seat_marks``: drawn on their pieces), by name."""
    return {str(p["name"]): m for p, m in zip(players, seat_marks(players), strict=True)}


bp.add_app_template_filter(expansion_label, "expansion_label")

SPOILER_COOKIE = "cr-spoiler"  # "1" while "hide results" is on: spoiler.js mirrors its switch


def hiding_results() -> bool:
    """Whether the visitor hides the results ("hide results", ``web/static/spoiler.js``: the
    switch lives in the browser's storage, and the script mirrors it in this cookie for the
    pages the server must draw differently: where a game opens, the chart's axis)."""
    return request.cookies.get(SPOILER_COOKIE) == "1"


def opening(entry: Entry) -> int:
    """The position a game opens at: its start while results are hidden, else its default
    (``Entry.default_position``: the failing move, or the last)."""
    return 0 if hiding_results() else entry.default_position()


def _varies(response: BaseResponse) -> BaseResponse:
    """``response``, marked as depending on the spoiler cookie (for any cache on the way)."""
    response.vary.add("Cookie")
    return response


@bp.get("/")
def index() -> ResponseReturnValue:
    """The home page: redirects to the library."""
    return redirect(url_for("pages.library"))


@bp.get("/games")
def library() -> ResponseReturnValue:
    """The stored games, filtered by verdict, player name, game and expansion, a page at a
    time."""
    verdict = request.args.get("verdict", "")
    verdict = verdict if verdict in store.VERDICTS else ""
    player = request.args.get("player", "").strip()[:64]
    game_name = request.args.get("game", "").strip()[:64]
    expansion = request.args.get("expansion", "").strip()[:64]
    size = query_int("size", _page_size(), 1, 200)
    page = query_int("page", 1, 1, MAX_OFFSET // size)
    sort = request.args.get("sort", "date")
    sort = sort if sort in store.SORTS else "date"
    descending = request.args.get("order", "desc" if sort in ("date", "moves") else "asc") \
        != "asc"
    db = store.get_db()
    rows, total = store.search(db, verdict or None, player or None, size,
                               (page - 1) * size, sort, descending, game_name or None,
                               expansion or None)
    pages = max(1, -(-total // size))
    filters = {"verdict": verdict or None, "player": player or None, "game": game_name or None,
               "expansion": expansion or None}
    return _varies(Response(render_template(
        "library.html", rows=rows, total=total, page=page, pages=pages, verdict=verdict,
        player=player, sort=sort, descending=descending, sorts=SORT_LABELS, filters=filters,
        game=game_name, expansion=expansion, choices=filter_choices(game_name),
        origins=variations_of(db, (r.id for r in rows)))))


def filter_choices(game_name: str) -> dict[str, list[tuple[str, str]]]:
    """The library's game and expansion selects: (value, label) of every installed game, and
    of the expansions of the chosen game (of every game when none is chosen)."""
    installed = families()
    chosen = [f for f in installed if f.name == game_name] or installed
    expansions = {x.name: x.label for f in chosen for x in f.expansions.values()}
    return {"games": [(f.name, f.label) for f in installed],
            "expansions": sorted(expansions.items(), key=lambda kv: kv[1])}


SORT_LABELS = {"date": "Date", "players": "Players", "game": "Game", "moves": "Moves",
               "verdict": "Verdict", "source": "Source"}


def _page_size() -> int:
    return int(current_app.config["PAGE_SIZE"])


@bp.route("/upload", methods=["GET", "POST"])
def upload() -> ResponseReturnValue:
    """The upload form; a log posted (a file or pasted text) is checked, stored and opened
    in the viewer (400 with the form again when it is malformed); several files posted at
    once are each checked and stored, and the page lists their verdicts (``web.uploads``:
    200 when one at least was stored, else 400)."""
    if request.method == "GET":
        return _upload_page()
    if request.mimetype == "multipart/form-data":  # files: each is held to log_limit()
        request.max_content_length = uploads.batch_bytes()
    files = [f for f in request.files.getlist("file") if f.filename]
    if len(files) > 1:
        verdicts = uploads.store_files(files)
        return _upload_page(results=verdicts), 200 if any(v.stored for v in verdicts) else 400
    check_rate()
    text = request.form.get("log", "")
    chosen = files[0] if files else None
    if chosen is not None and chosen.filename:
        data = chosen.read()
    elif text.strip():
        data = text.encode("utf-8")
    else:
        return _upload_page(text, LogFormatError("choose a file or paste a log")), 400
    name = chosen.filename if chosen is not None and chosen.filename else ""
    try:
        checked = check(data, log_limit())
    except LogFormatError as exc:
        return _upload_page(text, exc), 400
    db = store.get_db()
    row, _ = save(db, checked, name[:200])
    entry = cache().get(db, row.id)
    assert entry is not None
    return _varies(redirect(url_for("pages.position", game_id=row.id, n=opening(entry)), 303))


def _upload_page(text: str = "", error: LogFormatError | None = None,
                 results: list[uploads.Verdict] | None = None) -> str:
    return render_template("upload.html", limit=log_limit(), text=text, error=error,
                           results=results, files=uploads.batch_files(),
                           batch=uploads.batch_bytes())


@bp.get("/games/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    """A game: redirects to the position the viewer opens at (``opening``: its start while
    results are hidden)."""
    entry = entry_or_404(game_id)
    return _varies(redirect(url_for("pages.position", game_id=game_id, n=opening(entry))))


@bp.get("/games/<game_id>/moves/<int:n>")
def position(game_id: str, n: int) -> ResponseReturnValue:
    """Position ``n`` of a game: its page, or the page its arguments ask for: ``from``/``line``
    (a link of before to a variation), ``play`` (a move tried on the analysis board: the
    redirect of a form that works without a script), ``explore=1`` (the analysis board)."""
    entry = entry_or_404(game_id)
    args = request.args
    if "from" in args or "line" in args:
        return _old_link(entry, n)
    if "play" in args:
        return _play(entry, n, (None, None))
    if args.get("explore") == "1":
        return _explore_page(entry, n)
    return _game_page(entry, n)


def _game_page(entry: Entry, n: int) -> ResponseReturnValue:
    """The viewer at position ``n`` of a game (404 when the game lacks it)."""
    if "pick" in request.args:
        check_rate("analysis")  # a draw picked asks the analysis board, explored or not
    _position_or_404(entry, n)
    return _page(entry, n, analysis.page_context(entry, n, None, explore=False))


def _explore_page(entry: Entry, n: int) -> ResponseReturnValue:
    """The viewer at position ``n`` of a game with the analysis board: the moves the position
    allows (404 when the game lacks it)."""
    check_rate("analysis")
    _position_or_404(entry, n)
    return _page(entry, n, analysis.page_context(entry, n, None, explore=True))


@bp.get("/games/<game_id>/variation/<int:start>/<line>/moves/<int:n>")
def variation(game_id: str, start: int, line: str, n: int) -> ResponseReturnValue:
    """The viewer at position ``n`` of a variation of the game (``web.analysis``; 404 when the
    variation lacks it), or with ``play`` the next position of the line extended by that move
    (a redirect)."""
    entry = entry_or_404(game_id)
    check_rate("analysis")
    try:
        found = variations.read(entry, start, line)
    except LogFormatError as exc:
        return _unplayable(exc)
    if "play" in request.args:
        return _play(entry, n, (found.base, found.line))
    return _variation_page(entry, found, n)


def _variation_page(entry: Entry, found: variations.Variation, n: int) -> ResponseReturnValue:
    """The viewer at position ``n`` of the variation ``found`` of a game, with the analysis
    board (404 when the variation lacks it)."""
    _position_or_404(found.entry, n)
    return _page(entry, n, analysis.page_context(entry, n, found, explore=True))


def _play(entry: Entry, n: int, shown: tuple[int | None, str | None]) -> ResponseReturnValue:
    """The play form's answer at position ``n`` of a game or of the variation ``shown`` (its
    branch and line): a redirect to the next position of the line extended by the move
    (``analysis.play``), or 400 for a token that cannot be read. A move tried counts against
    the analysis budget (on a variation's page, besides reading the variation)."""
    check_rate("analysis")
    try:
        return analysis.play(entry, n, shown, request.args["play"])
    except LogFormatError as exc:
        return _unplayable(exc)


def _old_link(entry: Entry, n: int) -> ResponseReturnValue:
    """A link of before (``from``/``line`` on a game's page): a redirect to the variation's
    page (``analysis.old_link``), or 400 for a variation that cannot be read."""
    try:
        return analysis.old_link(entry, n)
    except LogFormatError as exc:
        return _unplayable(exc)


def _position_or_404(shown: Entry, n: int) -> None:
    """Nothing when ``shown`` (a game or a variation) has position ``n``, else a 404."""
    if not 0 <= n <= shown.last:
        abort(404)


def _unplayable(exc: LogFormatError) -> ResponseReturnValue:
    return respond(400, "Bad Request", f"This link's variation cannot be played: "
                   f"{exc.path or '/'}: {exc.message}")


def _page(entry: Entry, n: int, context: dict[str, Any]) -> ResponseReturnValue:
    """The viewer's page of position ``n`` of ``context["shown"]`` (``entry`` or a variation
    of it), with the analysis board's ``context`` (``analysis.page_context``)."""
    shown: Entry = context["shown"]
    explored = context["explored"]
    own = context["variation"] is None  # the game's own line: its computer analysis applies
    best = computer.best_option(entry, n) if own and explored is None else None
    view = viewer.build(shown, n, found=explored.choices if explored else None, best=best)
    if explored is not None and request.args.get("rank") == "1":
        context["ranked"] = computer.rank(shown, n, explored.choices, explored.key)
    parsed = shown.parsed is not None
    chart = viewer.chart(shown, n, context["step"], context["query"],
                         hiding_results()) if parsed else ""
    return _varies(Response(render_template(
        "viewer.html", view=view, entry=entry, row=entry.row, summary=entry.summary,
        board=Markup(view.board), next_tile=Markup(view.next_tile_svg), chart=Markup(chart),
        standings=viewer.standings(shown, n) if parsed else [], origin=origins.of_entry(entry),
        links=viewer.move_links(entry), variation_links=viewer.move_links(shown),
        best=best, computer=computer.panel(entry, n, context["step"], context["query"],
                                           hiding_results())
        if own and entry.parsed is not None else None,
        **context)))


@bp.get("/games/<game_id>/moves/<int:n>.svg")
def position_svg(game_id: str, n: int) -> ResponseReturnValue:
    """The board at position ``n`` as an SVG file."""
    entry = entry_or_404(game_id)
    if entry.parsed is None or n > entry.parsed.playback.last:
        abort(404)
    picture = svg.render(entry.parsed, n)
    return Response(picture, mimetype="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=3600"})


@bp.get("/games/<game_id>/original")
def original(game_id: str) -> ResponseReturnValue:
    """The foreign file a game was imported from, as uploaded (404 for a log v1)."""
    entry = entry_or_404(game_id)
    if entry.row.original is None:
        abort(404)
    return Response(entry.row.original, mimetype="application/octet-stream", headers={
        "Content-Disposition": f'attachment; filename="{entry.row.id}.original"'})


@bp.get("/games/<game_id>/log.json")
def log(game_id: str) -> ResponseReturnValue:
    """The stored log, as a download."""
    entry = entry_or_404(game_id)
    return Response(entry.row.log, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{entry.row.id}.json"'})
