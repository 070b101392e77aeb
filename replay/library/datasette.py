"""The library as Datasette shows it (``python -m replay data``, ``./run data``): the metadata
the project writes for a library file, titles, descriptions of every table and column, facets,
and the canned queries (``QUERIES``) that answer what organisers ask of an archive.

The tables are the library's (``replay.library.store``, ``replay.library.tables``). The
columns a family adds to ``moves`` are described by the family itself (``Family.move_columns``,
their ``help``), a plugin's included: nothing here names a game.

Units are said in the descriptions ("points", "moves"), not with Datasette's ``units`` key:
that key hands the value to Pint, for which a "point" is the typographic point (1/72 inch) and
a filter such as ``score__gt=10 points`` would convert lengths.

The statistics queries count the finished legal games only (``results.valid`` and
``results.finished``): a game that stops early or breaks a rule has no winner and a partial
score; the illegal-move query counts the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.family import Family

TITLE = "Replay library: games, moves, events and results"
DESCRIPTION = (
    "Every game stored by the replay service (upload, API, ingest) with its verdict, and the "
    "games as data: a row per move, per event of the replay, per seat's result and per kind of "
    "scoring. Scores and points are in game points; lengths in moves. The canned queries "
    "below answer the usual questions; any SQL runs read-only.")

# a game's columns, shared by the library's tables
GAME_ID = "the game (games.id)"
SEAT = "the seat, 0 for the first player"
PLAYER = "the player's name as the log gives it"

GAMES = {
    "id": "the game's id: the start of the sha256 of the first file that brought it",
    "sha256": "the sha256 of that file's bytes",
    "created": "when it was stored (UTC, ISO 8601)",
    "size": "the file's size in bytes",
    "log": "the log (schema v1) as stored",
    "game": "the game family (the log's \"game\")",
    "expansions": "the expansions played (a JSON list)",
    "players": "the seats in order: name and colour (a JSON list)",
    "moves": "the moves the log records (moves)",
    "moves_played": "the moves that replayed legally (moves)",
    "finished": "1 when the game reached its end",
    "verdict": "valid, or invalid: an illegal move, a header that breaks a rule or a wrong "
               "claim",
    "rule": "the rule an invalid game broke (its id in docs/rules.md)",
    "error_move": "the illegal move's index, 0 for the first; empty for a header or a claim",
    "error_player": "who made the illegal move",
    "message": "what the verifier said of the invalid game",
    "scores": "the final scores in seat order (points, a JSON list)",
    "winners": "the winners' names (a JSON list; several on a tie)",
    "source_format": "log v1, or the foreign format it was imported from",
    "original": "the foreign file an import was made from",
    "import_problems": "what converting the foreign file met (a JSON list)",
    "content_key": "the sha256 of the game's canonical form: the same game whatever the file's "
                   "spelling",
}

TABLES: dict[str, dict[str, Any]] = {
    "games": {
        "description": "A row per game stored (a game is its content, not its file's bytes), "
                       "valid or not.",
        "columns": GAMES,
        "facets": ["game", {"array": "expansions"}, "verdict", {"array": "winners"}, "finished",
                   "rule"],
        "sort_desc": "created",
    },
    "game_players": {
        "description": "A row per seat of a game, as its header names it.",
        "columns": {"game_id": GAME_ID, "seat": SEAT, "name": PLAYER,
                    "colour": "the seat's colour", "score": "the final score (points)"},
        "facets": ["name", "seat", "colour"],
    },
    "game_sources": {
        "description": "A row per file that brought a game (the same game spelled otherwise "
                       "is one game).",
        "columns": {"sha256": "the file's sha256", "name": "its name when uploaded",
                    "game_id": GAME_ID, "meta": "the log's meta block (JSON)",
                    "created": "when it came (UTC)"},
    },
    "moves": {
        "description": "A row per move of a log as far as it replays; an illegal move is the "
                       "last row of its game (legal 0, with the rule it broke).",
        "columns": {
            "game_id": GAME_ID, "number": "the move's number, 1 for the first",
            "seat": "the mover's seat (0 first)", "player": "the mover",
            "points": "what the mover scored with this move (points; the final scoring counts "
                      "with the last move)",
            "scored": "every seat's points of this move together (points)",
            "legal": "1 legal, 0 the illegal move that ended the replay",
            "rule": "the rule the illegal move broke"},
        "facets": ["player", "seat", "legal", "rule"],
    },
    "events": {
        "description": "A row per event of the replay (a score, a placement, a figure placed "
                       "or returned, a building, the end, ...), in order.",
        "columns": {
            "game_id": GAME_ID, "seq": "its order in the game, 0 first",
            "number": "the move that made it (1 for the first)",
            "kind": "what happened: score, place, figure, return, build, end, ...",
            "seats": "the seats it concerns (a JSON list: a score's winners, else who acted)",
            "players": "their names, joined by \", \"",
            "points": "each winner's points, for a score (points)",
            "feature": "the kind of feature scored or stood on (city, road, cloister, farm, "
                       "...)",
            "figure": "a placed or returned figure's kind",
            "phase": "play, or final (the end-of-game scoring)",
            "rule": "the rule the event applies, when it says"},
        "facets": ["kind", "feature", "phase", "players", "figure"],
    },
    "results": {
        "description": "A row per seat of a game: its final score, rank and points by kind of "
                       "scoring.",
        "columns": {
            "game_id": GAME_ID, "seat": SEAT, "player": PLAYER, "colour": "the seat's colour",
            "score": "the final score, or the last legal position's for a game that stopped "
                     "(points); empty for a header that broke a rule",
            "rank": "1 the best; equal scores share a rank", "winner": "1 for a winner",
            "finished": "1 when the game reached its end",
            "valid": "1 when the game is legal to its end",
            "points_by_kind": "points by kind of scoring (JSON: kind -> points)"},
        "facets": ["player", "seat", "winner", "rank", "valid"],
    },
    "result_points": {
        "description": "A row per seat and kind of scoring it scored in a game.",
        "columns": {"game_id": GAME_ID, "seat": SEAT, "player": PLAYER,
                    "kind": "the kind of scoring: city, road, cloister, farm, flock, meadow, "
                            "...",
                    "points": "the seat's points of that kind in the game (points)"},
        "facets": ["player", "kind", "seat"],
    },
    "analyses": {
        "description": "The computer analyses asked for in the web app, one per game and "
                       "agent.",
    },
    "rate_counts": {"hidden": True},
    "_sqlite_migrations": {"hidden": True},
}

# only finished legal games count towards the statistics (the module's docstring says why)
COUNTED = "r.valid = 1 and r.finished = 1"

QUERIES: dict[str, dict[str, str]] = {
    "first_seat_win_rate": {
        "title": "First-seat win rate by player count",
        "description": "Finished legal games by family and number of players: how often the "
                       "first seat (seat 0) wins, against an even share (1 / players). A tie "
                       "for first counts as a win for each tied seat.",
        "sql": f"""with seats as (
  select r.game_id, g.game, count(*) as players,
    max(case when r.seat = 0 then r.winner end) as first_wins
  from results r join games g on g.id = r.game_id
  where {COUNTED}
  group by r.game_id
)
select game, players, count(*) as games, sum(first_wins) as first_seat_wins,
  round(1.0 * sum(first_wins) / count(*), 3) as first_seat_win_rate,
  round(1.0 / players, 3) as even_share
from seats
group by game, players
order by game, players""",
    },
    "points_by_kind": {
        "title": "Points by kind of scoring per player",
        "description": "Each player's points (in finished legal games) by family and kind of "
                       "scoring: the total, the share of all their points, and the average "
                       "per game played (games where they scored none of a kind count too).",
        "sql": f"""with counted as (
  select r.game_id, r.seat, r.player, r.score, g.game
  from results r join games g on g.id = r.game_id
  where {COUNTED}
), played as (
  select player, game, count(*) as games, sum(score) as total
  from counted group by player, game
)
select c.player, c.game, rp.kind, sum(rp.points) as points,
  round(1.0 * sum(rp.points) / nullif(p.total, 0), 3) as share,
  p.games, round(1.0 * sum(rp.points) / p.games, 2) as per_game
from counted c
join result_points rp on rp.game_id = c.game_id and rp.seat = c.seat
join played p on p.player = c.player and p.game = c.game
group by c.player, c.game, rp.kind
order by c.player, c.game, points desc, rp.kind""",
    },
    "game_length": {
        "title": "Average game length",
        "description": "Finished legal games by family, expansions and number of players: "
                       "their length in moves (average, shortest, longest).",
        "sql": f"""with counted as (
  select g.id, g.game, g.expansions, g.moves_played, count(*) as players
  from games g join results r on r.game_id = g.id
  where {COUNTED}
  group by g.id
)
select game, expansions, players, count(*) as games,
  round(avg(moves_played), 2) as average_moves,
  min(moves_played) as fewest_moves, max(moves_played) as most_moves
from counted
group by game, expansions, players
order by game, expansions, players""",
    },
    "player_games": {
        "title": "A player's games",
        "description": "Every stored game of a player (give the name as the logs spell it), "
                       "the newest first: family, expansions, seat, score, rank, winner and "
                       "verdict.",
        "sql": """select r.game_id, g.game, g.expansions, r.seat, r.score, r.rank, r.winner,
  g.verdict, g.finished, g.created
from results r join games g on g.id = r.game_id
where r.player = :player
order by g.created desc, r.game_id""",
    },
    "illegal_rules": {
        "title": "The most common illegal-move rules",
        "description": "The rules invalid games broke, most often first: an illegal move, or "
                       "a header or final claim that breaks a rule (a move's number is empty "
                       "then), with an example game.",
        "sql": """select g.rule, g.game, count(*) as games,
  sum(g.error_move is not null) as illegal_moves,
  sum(g.error_move is null) as header_or_claim,
  min(g.id) as example
from games g
where g.verdict = 'invalid' and g.rule is not null
group by g.rule, g.game
order by games desc, g.rule, g.game""",
    },
}


def move_columns(families: Iterable[Family]) -> dict[str, str]:
    """The descriptions of the ``moves`` columns the families declare, each with the families
    that have it (one declared by several with different meanings says each)."""
    helps: dict[str, dict[str, list[str]]] = {}
    for family in families:
        for column in family.move_columns:
            helps.setdefault(column.name, {}).setdefault(column.help, []).append(family.label)
    return {name: "; ".join(f"{help} ({', '.join(labels)})" for help, labels in said.items())
            for name, said in helps.items()}


def metadata(database: str, families: Iterable[Family] | None = None) -> dict[str, Any]:
    """Datasette's metadata for the library file whose database is named ``database`` (its
    file name without ``.db``), describing the installed families' move columns (or those of
    ``families``)."""
    if families is None:
        from ..core.family import families as installed

        families = installed()
    tables = {name: dict(table) for name, table in TABLES.items()}
    tables["moves"]["columns"] = {**TABLES["moves"]["columns"], **move_columns(families)}
    return {
        "title": TITLE,
        "description": DESCRIPTION,
        "databases": {database: {
            "title": TITLE,
            "description": DESCRIPTION,
            "tables": tables,
            "queries": {name: dict(query) for name, query in QUERIES.items()},
        }},
    }
