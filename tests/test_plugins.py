"""The example plugins (``examples/``, docs/plugins.md) installed as distributions and driven
like any family: found through the entry point group, generated, verified, drawn, fuzzed,
audited and viewed in the web app; and the house-rule variant's games differ from the built-in
game's exactly where its rule applies.

Each example is installed once per test session with pip into a scratch directory (no network,
no build isolation, no file of the project touched: pip builds a copy of its source), then put
on ``PYTHONPATH`` for the command line and on ``sys.path`` (with the registry told to read it
again, ``replay.core.plugins.forget``) for the in-process tests, and taken away after them.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from replay import read_game, steps
from replay.core import plugins
from replay.core.family import families, family
from replay.generate import dumps, generate_log

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ("connect-four", "rich-farms")
GAME = "connect-four"
VARIANT = "rich-farms"


# ---------------------------------------------------------------------------- the install


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scratch directory both examples are installed into (once for all the test
    workers of a session: the first one installs, under a lock, the others wait for it)."""
    shared = tmp_path_factory.getbasetemp()  # this session's; with xdist, its workers' parent
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    target = shared / "plugins-site"
    with open(shared / "plugins-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (target / "done").exists():
            _install(shared / "plugins-src", target)
            (target / "done").write_text("ok")
    return target


def _install(src: Path, target: Path) -> None:
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(target, ignore_errors=True)
    for name in EXAMPLES:  # pip builds in the source tree: a copy of it, never the project's
        shutil.copytree(ROOT / "examples" / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--no-index", "--no-build-isolation", "--target", str(target),
         *(str(src / name) for name in EXAMPLES)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, (
        "pip could not install the examples (setuptools and wheel must be in the venv: "
        f"pip install -e .[dev]):\n{done.stderr[-3000:]}")


@pytest.fixture
def installed(site: Path) -> Iterator[Path]:
    """The examples registered in this process for one test (and forgotten after it, so that
    no other test sees them)."""
    sys.path.insert(0, str(site))
    plugins.forget()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        plugins.forget()


def cli(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m replay ARGS`` with the examples on ``PYTHONPATH``."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "replay", *args], capture_output=True,
                          text=True, env=env, cwd=cwd or ROOT, check=False, timeout=120)


# ---------------------------------------------------------------------------- the game


def test_the_examples_are_found_through_their_entry_points(installed: Path) -> None:
    names = [f.name for f in families()]
    assert {GAME, VARIANT} <= set(names) and names == sorted(names)
    c4 = family(GAME)
    assert c4.label == "Connect Four" and type(c4).__module__ == "replay_connect_four"
    assert str(installed) in sys.modules["replay_connect_four"].__file__  # type: ignore[operator]
    variant = family(VARIANT)
    assert variant.expansions == family("base").expansions
    assert [o.key for o in variant.options] == [o.key for o in family("base").options]


def test_connect_four_through_the_command_line(site: Path, tmp_path: Path) -> None:
    """generate, verify (valid; a hand-made illegal log exits 1 naming the rule), render and
    audit of a directory of its logs."""
    games = tmp_path / "games"
    done = cli(site, "generate", "--game", GAME, "--seed", "3", "--count", "4", "--out",
               str(games))
    assert done.returncode == 0, done.stderr
    logs = sorted(games.glob("*.json"))
    assert len(logs) == 4
    one = json.loads(logs[0].read_text())
    assert one["game"] == GAME and one["options"] == {"board": "7x6"}
    done = cli(site, "verify", *map(str, logs))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 files: 4 valid" in done.stdout + done.stderr
    # a column filled (six discs, alternating, so no line) and a seventh disc in it
    illegal = {**one, "moves": [{"column": 1}] * 7}
    illegal.pop("claims", None)
    bad = tmp_path / "full-column.json"
    bad.write_text(json.dumps(illegal))
    done = cli(site, "verify", str(bad))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "CF2" in done.stdout and "column 1 is full" in done.stdout and "move 7" in done.stdout
    picture = tmp_path / "board.svg"
    done = cli(site, "render", str(bad), "-o", str(picture))
    assert done.returncode == 0, done.stderr
    svg = picture.read_text()
    assert svg.startswith("<svg") and "connect-four-board" in svg and 'class="failed"' in svg
    done = cli(site, "audit", str(games), "--jobs", "1", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows[-1]["summary"]["games"] == 4 and rows[-1]["summary"]["valid"] == 4


def test_a_game_that_is_not_installed_is_named(tmp_path: Path) -> None:
    """Without the examples on the path, their logs name the game and what is installed."""
    log = tmp_path / "c4.json"
    log.write_text(dumps({"format": "carcassonne-replay/log", "version": 1, "game": GAME,
                          "players": [{"name": "A"}, {"name": "B"}], "moves": []}))
    done = subprocess.run([sys.executable, "-m", "replay", "verify", str(log)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 2
    said = f"this service plays no game '{GAME}' (it plays base, hunters-gatherers and manhattan)"
    assert said in done.stdout + done.stderr


@pytest.mark.parametrize("game", [GAME, VARIANT])
def test_the_examples_fuzz(site: Path, tmp_path: Path, game: str) -> None:
    """``fuzz`` plays them through the generic machine and the family's own hook."""
    args = ["--examples", "3"] if game == GAME else ["--examples", "1", "--players", "2"]
    done = cli(site, "fuzz", "--game", game, *args, "--seed", "1", "--out", str(tmp_path))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_a_failing_connect_four_game_shrinks_to_the_smallest_board(
        installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An author who lists the largest board first, and a check that fails on every board
    after five drops: the failing game ``fuzz`` reports is on the smallest board, 7x6, not
    on the first one listed (issue 35, item 6)."""
    from replay_connect_four.fuzz import ConnectFourChecker, ConnectFourMachine

    from replay.core.family import Option
    from replay.lab import fuzz_run
    from replay.lab.fuzz_command import Plan

    c4 = family(GAME)
    board = c4.options[0]
    monkeypatch.setattr(c4, "options", (Option(board.key, ("9x7", "8x7", "7x6"), "9x7",
                                               board.rule, board.help),))

    class FiveDrops(ConnectFourChecker):
        def check_position(self) -> None:
            super().check_position()
            assert self.state.moves_played < 5, "five drops"

    class Machine(ConnectFourMachine):
        CHECKER = FiveDrops

    plan = Plan(c4, [((), 10)], None, {}, 3, str(tmp_path), 0)
    failure = fuzz_run.play(plan, Machine, (), 10, fuzz_run.Recorder(10, plan))
    assert failure is not None and failure.config is not None
    assert failure.message.startswith("five drops") and len(failure.moves) == 5
    assert failure.config.options == {"board": "7x6"}


def test_connect_four_in_the_web_viewer(installed: Path, make_app: Callable[..., Flask]) -> None:
    """A log uploaded, its viewer page and its SVG boards, with the family's label and
    the players' names escaped."""
    client = make_app(RATE_LIMIT=None).test_client()
    log = generate_log(GAME, 2, 5)
    log["players"][0]["name"] = "<b>Ada</b>"
    log.pop("claims")
    r = client.post("/api/games", data=dumps(log), content_type="application/json")
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["verdict"]["valid"] and body["finished"]
    last = len(log["moves"])
    page = client.get(f"/games/{body['id']}/moves/{last}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Connect Four" in text and "<b>Ada</b>" not in text and "game over" in text
    assert re.search(r"disc in column \d, row \d", text)
    for n in (0, 1, last):
        svg = client.get(f"/games/{body['id']}/moves/{n}.svg")
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        assert "connect-four-board" in svg.get_data(as_text=True)
    api = client.get(f"/api/games/{body['id']}/moves/{last}").get_json()
    assert api["finished"] and api["played"]["text"].startswith("disc in column")
    variant = client.post("/api/games", data=dumps(generate_log(VARIANT, 2, 1)),
                          content_type="application/json").get_json()
    page = client.get(f"/games/{variant['id']}/moves/0")
    assert page.status_code == 200 and "Carcassonne: rich farms" in page.get_data(as_text=True)


# ---------------------------------------------------------------------------- the variant


def _replayed(log: dict[str, Any], game: str) -> list[list[dict[str, Any]]]:
    """The events of every move of ``log`` replayed as ``game``, as JSON."""
    return [[e.to_json() for e in step.events] for step in steps(read_game({**log, "game": game}))]


# (seed, players, expansions, farm_scoring) of the generated logs replayed both ways
CASES = [(1, 2, (), "per-field"), (2, 3, (), "per-field"), (3, 4, (), "per-field"),
         (4, 2, ("inns-cathedrals",), "per-field"), (5, 3, ("hills-sheep",), "per-field"),
         (12, 2, (), "per-field"),  # no farmer beside a complete city
         (6, 2, (), "per-city"), (7, 3, ("inns-cathedrals", "hills-sheep"), "per-city")]


@pytest.mark.parametrize(("seed", "players", "mix", "farms"), CASES)
def test_B8_the_variant_differs_exactly_where_its_farm_rule_applies(
        installed: Path, seed: int, players: int, mix: tuple[str, ...], farms: str) -> None:
    """The same logs replayed as the built-in game and as the variant: every event is the
    same but the final farm scores per field, which the variant pays 4 a city instead of 3
    (so exactly 4/3 of the built-in points), and the end event's scores, which differ by the
    farm-city counts of each player; per city, and in games with no farm next to a complete
    city, the two replays are the same."""
    log = generate_log("base", players, seed, mix, {"farm_scoring": farms})
    base, rich = _replayed(log, "base"), _replayed(log, VARIANT)
    assert len(base) == len(rich) == len(log["moves"])
    assert base[:-1] == rich[:-1]  # no farm scores during play (B6)
    if farms == "per-city":
        assert base == rich
        return
    extra, farmed = _farm_difference(base[-1], rich[-1], players)
    assert (base == rich) == (farmed == 0) and any(extra) == (farmed > 0)
    assert (farmed > 0) == (seed != 12)  # each case does its part


def _farm_difference(base: list[dict[str, Any]], rich: list[dict[str, Any]],
                     players: int) -> tuple[list[int], int]:
    """The events of the last move of a game with farms per field, replayed as the built-in
    game and as the variant, compared: the farm-city counts each seat scored, and how many
    farms scored."""
    assert len(base) == len(rich)
    extra = [0] * players
    farmed = 0
    for a, b in zip(base, rich, strict=True):
        if a["type"] == "score" and a["feature"] == "farm":
            cities = a["points"] // 3
            assert a["points"] == 3 * cities and b["points"] == 4 * cities
            assert b["detail"] == a["detail"].replace(f"× 3 = {a['points']}",
                                                      f"× 4 = {b['points']}")
            assert {**b, "points": 0, "detail": ""} == {**a, "points": 0, "detail": ""}
            for seat in a["winners"]:
                extra[seat] += cities
            farmed += bool(cities and a["winners"])
        elif a["type"] == "end":
            assert b["scores"] == [s + x for s, x in zip(a["scores"], extra, strict=True)]
            best = max(b["scores"])
            assert b["winners"] == [p for p, s in enumerate(b["scores"]) if s == best]
        else:
            assert a == b
    return extra, farmed


def test_B8_the_variant_plays_per_field_by_default(installed: Path) -> None:
    """Its own games: the option defaults to per field, and farms are worth 4 a city."""
    log = generate_log(VARIANT, 3, 11)
    assert log["game"] == VARIANT and log["options"]["farm_scoring"] == "per-field"
    farms = [e for step in steps(read_game(log)) for e in step.events
             if e.type == "score" and e.to_json()["feature"] == "farm"]
    assert farms and all(e.to_json()["points"] % 4 == 0 for e in farms)


# ---------------------------------------------------------------------------- the guide


def test_the_plugin_guide_documents_the_whole_interface() -> None:
    """docs/plugins.md's reference names every public attribute and method of ``Family``
    and ``GameState`` (abstract or not), so that a newcomer needs no source."""
    from replay.core.family import Family, GameState

    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    reference = text[text.index("## 3. The interface"):text.index("## 4. What the core")]
    for cls in (Family, GameState):
        names = {n for klass in cls.__mro__ if klass.__module__ == "replay.core.family"
                 for n in (*vars(klass), *getattr(klass, "__annotations__", {}))
                 if not n.startswith("_")}
        missing = [n for n in sorted(names) if not re.search(rf"`{n}[`(]", reference)]
        assert not missing, f"docs/plugins.md does not document {cls.__name__}.{missing}"


def _guide_block(containing: str) -> str:
    """The Python block of docs/plugins.md that holds ``containing``."""
    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    found = [b for b in blocks if containing in b]
    assert len(found) == 1, f"one python block of docs/plugins.md holds {containing!r}"
    return found[0]


def test_the_guide_s_svg_example_runs_as_it_says() -> None:
    """Issue 35, item 6: the picture's elements as the guide writes them (optional text,
    ``stroke_width`` written ``stroke-width``, ``class_`` ``class``, the text escaped)."""
    from replay.core.family import Player

    scope: dict[str, Any] = {"player": Player("Ada & <Ben>", "red"), "prefix": "cr-"}
    exec(_guide_block("stroke_width"), scope)
    assert scope["disc"] == ('<circle cx="30" cy="30" r="12" fill="red" stroke-width="2" '
                             'class="disc"/>')
    assert scope["label"] == ('<text x="30" y="60" text-anchor="middle">Ada &amp; &lt;Ben&gt;'
                              '</text>')
    assert scope["picture"].startswith('<g id="cr-board"><circle ')


def test_the_guide_s_facts_of_events_and_hashes_hold(installed: Path) -> None:
    """Issue 35, item 6: what the guide says of the events (tuples; ``cells`` a sorted list of
    ``[x, y]`` lists, Connect Four's from 1) and of ``seat_item`` (``item(name, seat, n)``,
    the score's facts XORed out and in) holds for the example."""
    from replay.core import hashing
    from replay.core.events import GameEnd, Score

    assert _guide_block("seat_item").strip().startswith("self.hash ^= hashing.seat_item(")
    assert hashing.seat_item("s", 1, 3) == hashing.item("s", 1, 3)
    game = read_game(generate_log(GAME, 2, 7))
    events = [e for step in steps(game) for e in step.events]
    scores = [e for e in events if isinstance(e, Score)]
    (end,) = [e for e in events if isinstance(e, GameEnd)]
    assert scores and type(end.scores) is tuple and type(end.winners) is tuple
    for e in scores:
        assert type(e.winners) is tuple and all(type(s) is int for s in e.winners)
        assert type(e.strengths) is tuple and all(type(p) is tuple for p in e.strengths)
        assert type(e.cells) is list and e.cells == sorted(e.cells)
        assert all(type(c) is list and len(c) == 2 and min(c) >= 1 for c in e.cells)


def test_threads_read_the_entry_points_at_once() -> None:
    """A server's threads ask for the families at once on its first requests: the scan of
    the distributions is read by one at a time ("generator already executing" made a 500 in
    the soak, issue 35)."""
    import threading

    errors: list[str] = []
    for _ in range(30):
        plugins.forget()
        barrier = threading.Barrier(8)

        def ask(barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                assert plugins.entry_points("carcassonne_replay.families")
            except Exception as exc:  # any error is the failure
                errors.append(repr(exc))

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    plugins.forget()
    assert not errors, errors[:3]
