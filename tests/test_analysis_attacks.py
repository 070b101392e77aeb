"""The analysis board under attack (issue 35, items B to E): lines read once into canonical
tokens, pages that hold their line a few times whatever its length, nothing from a request
written unescaped, every malformed input a 400 with its path, and the budgets and bounds of
exploring and of a game's spellings."""

from __future__ import annotations

import base64
import json
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import orjson
import pytest
from hypothesis import HealthCheck, Phase, event, given, settings

from replay.core.errors import LogFormatError
from replay.core.explore import read_line, token
from replay.generate import generate_log
from replay.library.spellings import MAX_META, MAX_SOURCES
from web import viewer
from web.db import get_db
from web.games import Entry, cache

from .hostile_analysis import Attack, Target, analysis_attacks, content_type, render

LOG = generate_log("base", 3, 7)


def _store(client: Any, log: dict[str, Any]) -> str:
    response = client.post("/api/games", data=json.dumps(log))
    assert response.status_code in (200, 201)
    game_id: str = response.get_json()["id"]
    return game_id


def _tokens(client: Any, gid: str, start: int, count: int) -> list[str]:
    """A line of ``count`` legal moves from ``start`` (each the last option offered)."""
    out: list[str] = []
    for i in range(count):
        query = f"?from={start}&line={'.'.join(out)}" if out else ""
        got = client.get(f"/api/games/{gid}/moves/{start + i}/choices{query}").get_json()
        options = (got["choices"] or {}).get("options") or []
        if not options:
            break
        out.append(options[-1]["token"])
    return out


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode("utf-8", "surrogatepass")).decode().rstrip("=")


MOVE = {"rotation": 90, "tile": "V", "x": 1, "y": 0}
GOOD = token(MOVE)


# --------------------------------------------------------------------------- B: tokens

@pytest.mark.parametrize("what,line,path", [
    ("padded", GOOD + "==", "/line/0"),
    ("characters b64decode drops", GOOD[:4] + '"><' + GOOD[4:], "/line/0"),
    ("a space", GOOD[:4] + " " + GOOD[4:], "/line/0"),
    ("CR LF", GOOD + "\r\n", "/line/0"),
    ("a backslash", GOOD + "\\x", "/line/0"),
    ("the other alphabet", base64.b64encode(json.dumps(MOVE, separators=(",", ":"),
                                                        sort_keys=True).encode()).decode()
     .replace("-", "+").rstrip("=") + "+/", "/line/0"),
    ("keys out of order", _b64('{"x":1,"y":0,"rotation":90,"tile":"V"}'), "/line/0"),
    ("spaces in the JSON", _b64('{"rotation": 90, "tile": "V", "x": 1, "y": 0}'), "/line/0"),
    ("an escape", _b64('{"rotation":90,"tile":"\\u0056","x":1,"y":0}'), "/line/0"),
    ("other trailing bits", GOOD[:-1] + chr(ord(GOOD[-1]) + 1), "/line/0"),
    ("a lone surrogate", _b64('{"rotation":90,"tile":"\\ud800","x":1,"y":0}'), "/line/0/tile"),
    ("a duplicate key", _b64('{"x":1,"x":2}'), "/line/0/x"),
    ("nested deep", _b64("[" * 700 + "]" * 700), "/line/0"),
    ("nested past a log's bounds", _b64('{"a":' * 9 + "1" + "}" * 9), "/line/0/a/a/a/a/a/a"),
    ("a float", _b64('{"x":1.5}'), "/line/0/x"),
    ("the second token", f"{GOOD}.{GOOD}=", "/line/1"),
])
def test_a_line_is_read_once_into_canonical_tokens(what: str, line: str, path: str) -> None:
    """Each move has one token: any other spelling of it, and any character outside unpadded
    base64url, is refused with the path of the move (issue 35 B, D)."""
    assert read_line(f"{GOOD}.{GOOD}") == [MOVE, MOVE]
    with pytest.raises(LogFormatError) as caught:
        read_line(line)
    assert (caught.value.path or "").startswith(path), (what, caught.value.path)
    assert caught.value.message


def test_a_variation_page_holds_its_line_a_few_times(client: Any) -> None:
    """A page's size does not grow with the line times the positions: a variation's links
    are relative, so its page is about the game's page and a few copies of its URL (issue 35
    B: a 99-move line made a 1.8 MB page before, 0.22 MB now; padded, 5.2 MB)."""
    gid = _store(client, LOG)
    line = _tokens(client, gid, 0, 60)
    assert len(line) == 60
    url = f"/games/{gid}/variation/0/{'.'.join(line)}/moves/60"
    page = client.get(url)
    assert page.status_code == 200
    game_page = client.get(f"/games/{gid}/moves/60?explore=1")
    assert len(page.data) <= 1.5 * len(game_page.data) + 4 * len(url), \
        (len(page.data), len(game_page.data), len(url))
    assert page.get_data(as_text=True).count(".".join(line)) <= 3  # the script's, the save's
    # the links of before lead to the same page; padded, they are refused, and small
    old = client.get(f"/games/{gid}/moves/60?from=0&line={'.'.join(line)}")
    assert old.status_code == 308 and old.headers["Location"] == url
    padded = ".".join(t + "%22%3E%3C" * 20 for t in line)
    for bad in (f"/games/{gid}/moves/60?from=0&line={padded}",
                f"/games/{gid}/variation/0/{padded}/moves/60"):
        refused = client.get(bad)
        assert refused.status_code == 400 and len(refused.data) < 4000
        assert b"/line/0" in refused.data


def test_a_move_tried_before_a_variations_branch_starts_a_line_there(client: Any) -> None:
    """On a variation's page at a position before its branch (the game's, the variation kept
    in the move list), a move tried is a move of that position: a new line branches there
    (its menu, its form and the script's URL agree); after the branch, it follows the
    variation's moves up to the position."""
    gid = _store(client, LOG)
    line = _tokens(client, gid, 5, 2)
    url = f"/games/{gid}/variation/5/{'.'.join(line)}/moves/3"
    page = client.get(url).get_data(as_text=True)
    tried = _tokens(client, gid, 3, 1)[0]
    assert f'name="play" value="{tried}"' in page
    moved = client.get(f"{url}?play={tried}")
    assert moved.headers["Location"] == f"/games/{gid}/variation/3/{tried}/moves/4"
    assert f'data-head="/games/{gid}/variation/3/" data-tail="/moves/4"' in page
    # at the variation's first move: the line's first token, then the move tried
    after = client.get(f"/games/{gid}/variation/5/{'.'.join(line)}/moves/6")
    nxt = _tokens(client, gid, 5, 2)[1]
    assert f'name="play" value="{nxt}"' in after.get_data(as_text=True)
    moved = client.get(f"/games/{gid}/variation/5/{'.'.join(line)}/moves/6?play={nxt}")
    assert moved.headers["Location"] == f"/games/{gid}/variation/5/{line[0]}.{nxt}/moves/7"
    # a link of before with ``play`` too
    old = client.get(f"/games/{gid}/moves/3?from=5&line={'.'.join(line)}&play={tried}")
    assert old.headers["Location"] == f"/games/{gid}/variation/3/{tried}/moves/4"


# --------------------------------------------------------------------------- C: markup

class _Tags(HTMLParser):
    """Every start tag's name and attribute names of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}


PAYLOADS = ['"C><iAJ>', "'><iAJ onmouseover=alert(1)>", '"><iaj data-evil=">',
            "</svg><iAJ data-evil=1>", "\\<iAJ>", "\r\n<iAJ>", '" data-evil="1']


def _injected(html: str) -> list[str]:
    found = _Tags()
    found.feed(html)
    return sorted({t for t in found.tags if t == "iaj"}
                  | {a for a in found.attributes if a in ("onmouseover", "data-evil")})


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_values_never_reach_a_page_unescaped(client: Any, payload: str) -> None:
    """A hostile line, position, pick or move in a request: a 400 or a page, never an
    element or an attribute of its own (issue 35 C: the chart's links took the raw line)."""
    gid = _store(client, LOG)
    line = ".".join(_tokens(client, gid, 5, 2))
    bad = quote(payload)
    urls = [f"/games/{gid}/moves/6?from=5&line={line[:60]}{bad}",
            f"/games/{gid}/moves/7?from=5&line={line}{bad}&play={GOOD}",
            f"/games/{gid}/moves/6?from={bad}&line={line}",
            f"/games/{gid}/moves/6?explore=1&pick={bad}",
            f"/games/{gid}/moves/6?explore={bad}",
            f"/games/{gid}/moves/6?play={GOOD}{bad}",
            f"/games/{gid}/variation/5/{line}{bad}/moves/7",
            f"/games/{gid}/variation/5/{line}/moves/7?pick={bad}&explore={bad}",
            f"/api/games/{gid}/moves/6/choices?from=5&line={line}{bad}"]
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 400, 404), (url, response.status_code)
        html = response.get_data(as_text=True)
        assert not _injected(html), (url, _injected(html))
        assert payload not in html, url


def test_the_chart_escapes_its_links(client: Any) -> None:
    """The chart writes its links' suffix itself, escaped as every attribute is (the page's
    regex rewriting of its links is gone)."""
    gid = _store(client, LOG)
    with client.application.app_context():
        entry = cache().get(get_db(), gid)
    assert isinstance(entry, Entry)
    picture = viewer.chart(entry, 3, "/g/", '"><iAJ data-evil=1>')
    assert not _injected(picture)
    assert 'href="/g/3&#34;&gt;&lt;iAJ data-evil=1&gt;"' in picture \
        or 'href="/g/3&quot;&gt;&lt;iAJ data-evil=1&gt;"' in picture


# --------------------------------------------------------------------------- D: no 500

def test_backslashes_cr_lf_and_lone_surrogates_are_400_with_the_path(client: Any) -> None:
    """What made 500s (issue 35 D): a backslash in a line (the chart's regex), CR LF in a line
    then ``play`` (a header with a newline), a token whose JSON holds a lone surrogate (the
    log text could not be encoded)."""
    gid = _store(client, LOG)
    line = _tokens(client, gid, 5, 1)[0]
    surrogate = json.loads(base64.urlsafe_b64decode(line + "=" * (-len(line) % 4)))
    surrogate = _b64(json.dumps({**surrogate, "tile": "@@"}, separators=(",", ":"),
                                sort_keys=True).replace('"@@"', '"\\ud800"'))
    cases = [(f"/games/{gid}/moves/6?from=5&line={line}%5Cx", "/line/0"),
             (f"/games/{gid}/moves/6?from=5&line=%5C{line}", "/line/0"),
             (f"/games/{gid}/variation/5/{line}%5Cw/moves/6", "/line/0"),
             (f"/games/{gid}/moves/7?from=5&line={line}%0D%0A&play={GOOD}", "/line/0"),
             (f"/games/{gid}/moves/6?from=5&line={line}&play={GOOD}%0D%0A", "/play"),
             (f"/games/{gid}/moves/6?from=5&line={surrogate}", "/line/0/tile"),
             (f"/games/{gid}/variation/5/{surrogate}/moves/6", "/line/0/tile"),
             (f"/api/games/{gid}/moves/6/choices?from=5&line={surrogate}", "/line/0/tile")]
    for url, path in cases:
        response = client.get(url)
        assert response.status_code == 400, (url, response.status_code)
        assert path in response.get_data(as_text=True), url


@pytest.mark.parametrize("depth", [975, 1000, 1020])
def test_a_deeply_nested_move_is_400_with_its_path(client: Any, depth: int) -> None:
    """A move nested 975 to 1,020 deep in a posted line (the body decoder takes 1,024 levels
    with orjson): refused at its path, never a RecursionError (issue 35 D)."""
    gid = _store(client, LOG)
    body = b'{"from": 0, "line": [' + b'{"a":' * depth + b"1" + b"}" * depth + b"]}"
    assert orjson.loads(body)  # the fast decoder takes it
    for url in (f"/api/games/{gid}/variation", f"/api/games/{gid}/variations"):
        response = client.post(url, data=body)
        assert response.status_code == 400, (url, response.status_code)
        error = response.get_json()["error"]
        assert error["path"].startswith("/line/0/a/a/a/a/a/a"), error
        assert "nested" in error["message"]


# --------------------------------------------------------------------------- E: bounds

@pytest.mark.app_config(ANALYSIS_RATE_LIMIT="3/60")
def test_explored_pages_count_against_the_analysis_budget(client: Any) -> None:
    """An explored page costs as much as the API's choices (issue 35 E): it counts."""
    gid = _store(client, LOG)
    codes = [client.get(f"/games/{gid}/moves/{n}?explore=1").status_code for n in (1, 2, 3, 4)]
    assert codes == [200, 200, 200, 429]
    assert client.get(f"/games/{gid}/moves/1").status_code == 200  # viewing is not counted


@pytest.mark.app_config(RATE_LIMIT=None)
def test_a_game_sent_again_with_new_metas_keeps_its_sources_bounded(client: Any) -> None:
    """One game uploaded 60 times, each with another ``meta`` (a large one too): the game
    notes at most ``MAX_SOURCES`` files, each meta at most ``MAX_META`` bytes, and one answer
    lists no more (issue 35 E: 1.6 MB after 50 uploads before)."""
    ids = set()
    for i in range(60):
        meta = {"event": f"night {i}", "notes": "x" * (900 if i % 2 else 10)}
        if i == 3:
            meta = {f"k{j}": "y" * 900 for j in range(20)}  # 18 KB of meta
        response = client.post(f"/api/games?name=copy{i}.json",
                               data=json.dumps({**LOG, "meta": meta}))
        assert response.status_code in (200, 201)
        ids.add(response.get_json()["id"])
    assert len(ids) == 1
    answer = client.get(f"/api/games/{ids.pop()}")
    sources = answer.get_json()["sources"]
    assert len(sources) == MAX_SOURCES
    assert [s["name"] for s in sources[:3]] == ["copy0.json", "copy1.json", "copy2.json"]
    big = sources[3]
    assert big["meta"] is None and big["meta_omitted"] > MAX_META
    assert sources[4]["meta"] == {"event": "night 4", "notes": "x" * 10}
    assert len(answer.data) < MAX_SOURCES * (MAX_META + 400)


# --------------------------------------------------------------------------- the drill

ANSWERS = {200, 201, 303, 308, 400, 404, 422}
COMPUTER = {202, 405, 429}  # the computer analysis's too: queued, a method it takes not, busy


@pytest.mark.app_config(RATE_LIMIT=None, ANALYSIS_RATE_LIMIT=None,
                        ANALYSIS_AGENT="mcts:1:dets=1", COMPUTER_RATE_LIMIT="3/3600")
@settings(derandomize=True, database=None, deadline=None, max_examples=250,
          phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(attack=analysis_attacks())
def test_the_drills_analysis_attacks_never_crash(client: Any, attack: Attack) -> None:
    """The drill's attacks on the analysis board (``tests/hostile_analysis.py``), in process:
    an answer among 200, 201, 303, 308, 400 (with the path), 404 and 422, never a 5xx, and no
    markup of theirs on a page."""
    found: list[Target] = client.application.extensions.setdefault("drill_targets", [])
    if not found:  # the same app for every example: its games stored once
        for log in (LOG, generate_log("manhattan", 3, 3)):
            gid = _store(client, log)
            tokens = _tokens(client, gid, 5, 3)
            found.append(Target(gid, 5, tuple(read_line(".".join(tokens))), tuple(tokens)))
    method, path, body = render(attack, found)
    response = client.open(path, method=method, data=body, headers=content_type(attack))
    event(f"{attack.kind}: {response.status_code}")
    allowed = ANSWERS | (COMPUTER if attack.kind.startswith("computer") else set())
    assert response.status_code in allowed, (method, path[:200], response.status_code)
    if response.status_code == 400 and response.is_json:
        assert isinstance(response.get_json()["error"]["path"], str)
    if response.mimetype == "text/html":
        assert not _injected(response.get_data(as_text=True)), path[:200]
