"""Words for people (issue 31, item 4): every message a user sees says what and where in the
game's own terms, the codes after in brackets: the schema's errors (``schema_words``), an
illegal figure's location, the viewer's next tile, an importer's refusals."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from flask.testing import FlaskClient

from replay.cli import main as cli_main
from replay.core.errors import TileSetError
from replay.core.explore import choices, explorer_of
from replay.core.importing import ImportRefused, convert
from replay.core.record import read_game
from replay.core.schema_words import schema_message
from replay.core.verify import verify
from replay.generate import dumps, generate_log
from replay.tiles.sets import parse_tileset

from .support import FIXTURES

BASE = generate_log("base", 2, 1)

# jsonschema's own words, which no message may show any more
JSONSCHEMA_WORDS = re.compile(r"is too long|is too short|is a required property|is not of type|"
                              r"is not one of|Additional properties|less than the minimum|"
                              r"greater than the maximum|was expected|False schema|non-empty")


def _changed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    log = copy.deepcopy(BASE)
    change(log)
    return log


def _seven(log: dict[str, Any]) -> None:
    log["players"] = [{"name": f"P{i}"} for i in range(7)]


def _one(log: dict[str, Any]) -> None:
    log["players"] = [{"name": "Ada"}]


CASES: list[tuple[str, Callable[[dict[str, Any]], object], str, str]] = [
    ("seven players", _seven, "/players", "7 players; Carcassonne takes 2 to 5"),
    ("one player", _one, "/players", "1 player; Carcassonne takes 2 to 5"),
    ("extra move field", lambda g: g["moves"][0].update(x_extra=1), "/moves/0",
     "'x_extra' is not a field of this move"),
    ("extra header field", lambda g: g.update(foo=1), "",
     "'foo' is not a field of a Carcassonne log"),
    ("extra player field", lambda g: g["players"][0].update(age=3), "/players/0",
     "'age' is not a field of a player"),
    ("no rotation", lambda g: g["moves"][0].pop("rotation"), "/moves/0",
     "this move needs 'rotation'"),
    ("no players", lambda g: g.pop("players"), "", "a Carcassonne log needs 'players'"),
    ("x as text", lambda g: g["moves"][0].update(x="a"), "/moves/0/x",
     "must be a whole number, not 'a'"),
    ("move not an object", lambda g: g["moves"].__setitem__(0, [1, 2]), "/moves/0",
     "must be an object, not a list of 2 items"),
    ("rotation 45", lambda g: g["moves"][0].update(rotation=45), "/moves/0/rotation",
     "must be 0, 90, 180 or 270, not 45"),
    ("pink", lambda g: g["players"][0].update(colour="pink"), "/players/0/colour",
     "must be 'red', 'blue', 'green', 'yellow', 'black' or 'grey', not 'pink'"),
    ("version 2", lambda g: g.update(version=2), "/version", "must be 1, not 2"),
    ("negative seed", lambda g: g.update(seed=-1), "/seed", "must be at least 0, not -1"),
    ("far x", lambda g: g["moves"][0].update(x=10 ** 12), "/moves/0/x",
     "must be at most 1000, not 1000000000000"),
    ("empty name", lambda g: g["players"][0].update(name=""), "/players/0/name",
     "must not be empty"),
    ("long name", lambda g: g["players"][0].update(name="x" * 100), "/players/0/name",
     "must be at most 64 characters, not 100"),
    ("bad end", lambda g: g.update(end="later"), "/end",
     "must be 'pile-empty' or 'after-last-move', not 'later'"),
]


@pytest.mark.parametrize(("change", "path", "words"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_schema_errors_in_plain_words(change: Callable[[dict[str, Any]], object], path: str,
                                      words: str) -> None:
    """Each common schema error reads as a sentence, its JSON path beside it; never
    jsonschema's own words, never a Python list or dict."""
    report = verify(_changed(change))
    assert report.exit_code == 2 and report.failure is not None
    assert (report.failure.path, report.failure.message) == (path, words)
    assert not JSONSCHEMA_WORDS.search(report.failure.message)
    assert "[{" not in report.line() and "{'" not in report.line()


def test_the_cli_says_seven_players_without_a_python_list(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          ) -> None:
    path = tmp_path / "seven.json"
    path.write_text(dumps(_changed(_seven)))
    assert cli_main(["verify", str(path)]) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert "/players: 7 players; Carcassonne takes 2 to 5" in text
    assert "'name'" not in text and "[" not in text


# ------------------------------------------------------------------ a log of another game
# (issue 35, items 1, 2 and 9): where, and what in the game's own terms; never "None"

GAMES = ("base", "hunters-gatherers", "manhattan")
RELABELLED = [(a, b) for a in GAMES for b in GAMES if a != b]


def _failure_of(log: dict[str, Any]) -> tuple[str | None, str]:
    report = verify(log)
    assert report.exit_code == 2 and report.failure is not None, report.line()
    return report.failure.path, report.failure.message


@pytest.mark.parametrize(("source", "game"), RELABELLED, ids=[f"{a}-as-{b}" for a, b in RELABELLED])
def test_a_log_relabelled_as_another_game_says_where_and_what(source: str, game: str) -> None:
    log = {**generate_log(source, 2, 1), "game": game}
    path, message = _failure_of(log)
    assert path and path.startswith("/"), (path, message)
    assert "None" not in message and "schema rule" not in message, message
    assert not JSONSCHEMA_WORDS.search(message), message


def test_a_carcassonne_log_called_manhattan_names_its_first_move(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's repro: ``generate --seed 1 | sed 's/"base"/"manhattan"/'``, then ``verify``
    and ``diff --b game=manhattan`` of the log as it was."""
    text = dumps(generate_log("base", 2, 1))
    relabelled = tmp_path / "x.json"
    relabelled.write_text(text.replace('"game": "base"', '"game": "manhattan"'))
    said = ("/moves/0: this move is not a Manhattan move: 'figure', 'rotation', 'tile', 'x' "
            "and 'y' are not fields of one")
    assert cli_main(["verify", str(relabelled)]) == 2
    assert f"{relabelled}: unreadable: {said}\n" == capsys.readouterr().out
    original = tmp_path / "base.json"
    original.write_text(text)
    assert cli_main(["diff", "--b", "game=manhattan", "--jobs", "1", str(original)]) == 1
    out = capsys.readouterr().out
    assert f"B: illegal, L1: {said}" in out and "None" not in out


@pytest.mark.parametrize(("game", "change", "path", "words"), [
    ("manhattan", lambda g: g.update(tileset={"id": "base-1e"}), "/tileset",
     "'tileset' is not a field of a Manhattan log"),
    ("base", lambda g: g.update(deal=[[1]]), "/deal", "'deal' is not a field of a Carcassonne log"),
    ("hunters-gatherers", lambda g: g["players"][0].update(side="north"), "/players/0/side",
     "'side' is not a field of a player of Hunters & Gatherers"),
    ("manhattan", lambda g: g["moves"][0].update(card=1), "/moves/0/card",
     "'card' is not a field of this kind of move"),
    ("manhattan", lambda g: g.update(expansions=["inns-cathedrals"]), "/expansions",
     "Manhattan has no expansions"),
    ("manhattan", lambda g: g.update(options={"small_city": 2}), "/options",
     "Manhattan has no options"),
    ("manhattan", lambda g: g["moves"][0].update(choose={"x" * 33: [1]}), "/moves/0/choose",
     f"the name {'x' * 33!r}: must be at most 32 characters, not 33"),
    ("base", lambda g: g.update(game="catan"), "/game",
     "this service plays no game 'catan' (it plays base, hunters-gatherers and manhattan)"),
])
def test_a_field_of_another_game_is_refused_where_it_is(
        game: str, change: Callable[[dict[str, Any]], object], path: str, words: str) -> None:
    """A field the game refuses (a ``false`` schema: jsonschema gives it no path) is named at
    its path; a field the game does not have at all says so in the game's name."""
    log = copy.deepcopy(generate_log(game, 2, 1))
    change(log)
    assert _failure_of(log) == (path, words)


@pytest.mark.parametrize(("game", "players", "expansions", "words"), [
    ("manhattan", 1, [], "1 player; Manhattan takes 2 to 4"),
    ("manhattan", 7, [], "7 players; Manhattan takes 2 to 4"),
    ("hunters-gatherers", 1, [], "1 player; Hunters & Gatherers takes 2 to 5"),
    ("base", 7, ["inns-cathedrals"], "7 players; Carcassonne takes 2 to 6"),
])
def test_too_few_or_too_many_players_are_counted_by_the_game(game: str, players: int,
                                                             expansions: list[str],
                                                             words: str) -> None:
    """The bounds come from the family (and its expansions), not from the envelope's 2 to 6."""
    log = {**generate_log(game, 2, 1), "players": [{"name": f"P{i}"} for i in range(players)]}
    if expansions:
        log["expansions"] = expansions
    assert _failure_of(log) == ("/players", words)


def test_five_players_of_manhattan_break_its_rule_m1() -> None:
    log = {**generate_log("manhattan", 2, 1), "players": [{"name": f"P{i}"} for i in range(5)]}
    report = verify(log)
    assert report.exit_code == 1 and report.failure is not None
    assert (report.failure.rule, report.failure.message) == ("M1",
                                                              "5 players; Manhattan takes 2 to 4")


def test_a_tile_not_turned_is_said_so_in_refusals_and_menus() -> None:
    """One wording of a rotation of 0 everywhere: "not turned" (never "turned 0°")."""
    assert _failure("discard-placeable.json").endswith(", not turned")
    assert _failure("unknown-location.json").startswith(
        "tile U (a straight road), not turned, has no place 'cloister'")
    assert _failure("edge-mismatch.json").startswith("tile E (a city cap) at (-4,-1), turned 90°: ")
    game = read_game(generate_log("base", 2, 1))
    state = game.playback.position(5).state
    found = choices(state, explorer_of(game.family), game.moves[5])
    refusals = [r.message for r in found.refusals if r.rule == "G4" and " meets " in r.message]
    assert refusals and all("turned 0°" not in m for m in refusals)
    assert any(", not turned: " in m for m in refusals)
    steps = {o.move["rotation"]: o.steps[0] for o in found.options}
    assert steps[0] == "not turned" and steps.get(90, "turned 90°") == "turned 90°"


def _error(schema: dict[str, Any], value: Any) -> Any:
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(value))
    assert len(errors) == 1, errors
    return errors[0]


@pytest.mark.parametrize(("schema", "value", "words"), [
    ({"type": "string", "pattern": "^[A-Z]+$"}, "abc",
     "'abc' does not have the expected form (the pattern ^[A-Z]+$)"),
    ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, 1.5,
     "fits none of the allowed forms, or more than one"),
    ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, None, "fits none of the allowed forms"),
    ({"type": ["integer", "string"]}, [1], "must be a whole number or text, not a list of 1 item"),
    ({"type": "integer", "exclusiveMaximum": 3}, 3, "must be less than 3, not 3"),
    ({"minLength": 3}, "ab", "must be at least 3 characters, not 2"),
    ({"type": "object", "maxProperties": 1}, {"a": 1, "b": 2}, "2 entries; at most 1 are allowed"),
    ({"type": "array", "maxItems": 1}, [1, 2], "a list of 2 items; at most 1 are allowed"),
    ({"uniqueItems": True}, [1, 1], "holds the same value twice"),
    ({"required": ["a", "b"]}, {"b": 1}, "a log needs 'a'"),
    ({"additionalProperties": False, "properties": {"a": {}}}, {"a": 1, "b": 2, "c": 3},
     "'b' and 'c' are not fields of a log"),
    ({"enum": list(range(20))}, 99, "99 is not one of the 20 allowed values"),
    ({"not": {"type": "integer"}}, 3, "is not allowed here"),
    ({"const": "x" * 50}, "y", "must be a text of 50 characters, not 'y'"),
])
def test_schema_words_by_rule(schema: dict[str, Any], value: Any, words: str) -> None:
    """The words come from the failed rule and its value (``validator``/``validator_value``),
    one entry of a table per rule."""
    assert schema_message(_error(schema, value)) == words


def test_schema_words_never_show_a_python_value() -> None:
    error = _error({"type": "integer"}, {"deep": [{"a": 1}]})
    assert schema_message(error) == "must be a whole number, not an object of 1 field"
    error = _error({"maxItems": 1}, [{"name": "P0"}, {"name": "P1"}])
    assert "{" not in schema_message(error) and "[" not in schema_message(error)


def test_a_tile_set_names_itself() -> None:
    with pytest.raises(TileSetError) as info:
        parse_tileset({"id": "x"}, "my.json")
    text = str(info.value)
    assert text.startswith("my.json: /: a tile set needs ") and "required property" not in text


# ------------------------------------------------------------------ figures and tiles


def _failure(name: str) -> str:
    report = verify(FIXTURES / "invalid" / name)
    assert report.failure is not None
    return report.failure.message


@pytest.mark.parametrize(("name", "words"), [
    ("hg3-hut-on-forest.json", "a hut cannot stand on the forest to the north-east (EL)"),
    ("occupied-feature.json", "the city to the east (E) already holds a follower of Ada, on "
     "the tile at (0,-1) to the south (S)"),
    ("hg3-second-hut-in-network.json", "the river network of the river to the south (S) already "
     "holds a hut of Ada, on the tile at (0,-3) to the east (E)"),
    ("hs2-second-shepherd-in-field.json", "the field to the south (S) already holds a shepherd"),
    ("hs3-flock-choice-missing.json", "the tile extends the field to the north-west (NL), where "
     "Ada's shepherd stands"),
    ("hs3-flock-choice-not-allowed.json", "the field to the south (S) holds no shepherd of Ben"),
    ("ic1-large-follower-without-ic.json",
     "the large follower (large-follower) is not a figure of this game"),
    ("ic1-second-large-follower.json", "Ada has no large follower left in supply"),
    ("edge-mismatch.json", "its east side (city) meets field of tile A (a cloister with a road)"),
    ("occupied-cell.json", "cell (0,-1) already holds tile K (a "),
    ("wrong-seeded-tile.json", "the log names tile C (a "),
    ("overdrawn-tile.json", "tile C (a "),
])
def test_illegal_figures_and_tiles_say_where_in_words(name: str, words: str) -> None:
    """A location is a direction with its code after ("to the north-west (NL)"), a figure
    kind is written as people write it, a tile has its description beside its id."""
    assert words in _failure(name)


def test_the_cli_names_the_location_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["verify", str(FIXTURES / "invalid" / "hg3-hut-on-forest.json")]) == 1
    out = capsys.readouterr().out
    assert "HG3: a hut cannot stand on the forest to the north-east (EL)" in out


# ------------------------------------------------------------------ the viewer's next tile


def test_the_viewer_describes_the_next_tile(client: FlaskClient) -> None:
    log = generate_log("base", 2, 1)
    r = client.post("/api/games", data=dumps(log), content_type="application/json")
    game_id = r.get_json()["id"]
    page = client.get(f"/games/{game_id}/moves/3").get_data(as_text=True)
    tile = log["moves"][3]["tile"]
    label = re.search(r'<span class="next">next tile <span class="next-tile" title="([^"]*)">'
                      r'.*?</span> ([^<]*)</span>', page, re.S)
    assert label is not None, page
    title, text = label.groups()
    assert title.startswith(f"tile {tile}: a ") and text.startswith("a ")
    assert text.endswith(f" ({tile})")


# ------------------------------------------------------------------ importers


MIT = FIXTURES / "import" / "jcz-mit"


def _refused(path: Path) -> ImportRefused:
    with pytest.raises(ImportRefused) as info:
        convert(json.loads(path.read_text(encoding="utf-8")))
    return info.value


def test_an_unsupported_tile_is_refused_in_plain_words() -> None:
    refusal = _refused(MIT / "traders_and_builders" / "tradeGoodsScoring.jcz")
    fatal = next(p for p in refusal.problems if p.fatal)
    assert fatal.code == "unsupported-tile"
    assert fatal.message == ("tile TB.CCc.c is a tile of Traders & Builders, an expansion this "
                             "service does not play")
    assert "lacks" not in str(refusal) and "project" not in str(refusal)


def test_no_import_problem_speaks_of_the_project() -> None:
    for path in sorted(MIT.rglob("*.jcz")):
        try:
            problems = convert(json.loads(path.read_text(encoding="utf-8"))).problems
        except ImportRefused as refusal:
            problems = refusal.problems
        for p in problems:
            assert "project" not in p.message and "lacks" not in p.message, p.line()
