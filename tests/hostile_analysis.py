"""Hostile input for the analysis board (issue 35): Hypothesis strategies of requests to its
pages and API, for the drill (``tools/drill.py``) and the tests (``tests/test_analysis_attacks``).

``analysis_attacks()`` draws an ``Attack``: which endpoint (a viewer page with ``from``,
``line``, ``play``, ``pick``, ``explore`` and ``rank`` in its query; a variation's page, its
line in the path; the choices; ``POST`` a variation to play or to save; the computer analysis
API with any method and body, and the viewer's buttons with any form), at which position, from which
branch, and a line built of real move tokens of a stored game mixed with hostile pieces:
tokens padded with the characters ``b64decode`` drops, backslashes, CR LF, other spellings of a
real move (spaces, keys out of order, escapes), lone surrogates, deep nesting, junk, too many
moves. A posted line holds real moves, arbitrary JSON values, moves nested 975 to 1,020 deep
and strings with lone surrogates. ``render(attack, target)`` fills in a stored game's id and
moves (a ``Target``) and gives the request: method, path (percent-encoded) and body.

Whatever is drawn, the server answers without a 5xx: 200, a redirect (303, 308), 400 with the
path, 404, 422 with the rule, 202 (an analysis queued), 405 (a method not taken), or 429
over the budget.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import quote

from hypothesis import event
from hypothesis import strategies as st

from .hostile import json_values

KINDS = ["page", "path", "choices", "variation", "variations", "computer", "computer-form"]
METHODS = ["GET", "POST", "DELETE", "PUT"]  # the computer analysis API's, and one it refuses
JUNK = ['"', "'", "<", ">", "\\", "\r\n", " ", "%", "+", "/", "=", "\x00", "é", "\ud800"]


@dataclass(frozen=True)
class Target:
    """A stored game to attack: its id, a branching position and a legal line from it (the
    moves as a log records them, and their tokens)."""

    game_id: str
    base: int
    moves: tuple[dict[str, Any], ...]
    tokens: tuple[str, ...]


@dataclass(frozen=True)
class Attack:
    """A request to the analysis board (see the module); pieces of its line are ``("real",
    None)`` (the target's token or move at that place of the line), ``("raw", text)`` (JSON
    text in a body), or a real token spoilt (``padded``, ``respelled``)."""

    kind: str
    game: int
    n: str
    base: str
    line: tuple[tuple[str, Any], ...]
    params: tuple[tuple[str, str], ...]
    method: str = "GET"  # the computer analysis API's (``computer``)


def _b64(text: str) -> str:
    data = text.encode("utf-8", "surrogatepass")
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


@st.composite
def _token_piece(draw: st.DrawFn) -> tuple[str, Any]:
    """A piece of a line in a URL: a real token, or a hostile one."""
    kind = draw(st.sampled_from(["real"] * 6 + ["padded", "junk", "respelled", "surrogate",
                                                "deep", "alphabet", "empty", "long"]))
    event(f"analysis line piece: {kind}")
    k = draw(st.integers(0, 2))
    if kind == "real":
        return ("real", None)  # the target's move at this place of the line
    if kind == "padded":
        return ("padded", (k, draw(st.sampled_from(JUNK)) * draw(st.integers(1, 40))))
    if kind == "junk":
        return ("raw", draw(st.text(max_size=30)))
    if kind == "respelled":
        return ("respelled", (k, draw(st.sampled_from(["spaces", "order", "escape"]))))
    if kind == "surrogate":
        return ("raw", _b64('{"rotation":0,"tile":"\\ud800","x":1,"y":0}'))
    if kind == "deep":
        depth = draw(st.integers(8, 700))
        return ("raw", _b64("[" * depth + "]" * depth))
    if kind == "alphabet":
        return ("raw", draw(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                    "0123456789-_", min_size=1, max_size=60)))
    if kind == "empty":
        return ("raw", "")
    return ("raw", "e30." * draw(st.integers(50, 300)) + "e30")


@st.composite
def _body_piece(draw: st.DrawFn) -> tuple[str, Any]:
    """A move of a posted line: a real one, arbitrary JSON, deep nesting, a lone surrogate."""
    kind = draw(st.sampled_from(["real"] * 4 + ["value", "deep", "surrogate"]))
    event(f"analysis body move: {kind}")
    if kind == "real":
        return ("real", None)
    if kind == "value":
        return ("raw", json.dumps(draw(json_values(6))))
    if kind == "deep":
        depth = draw(st.integers(975, 1_020))
        return ("raw", '{"a":' * depth + "1" + "}" * depth)
    return ("raw", '{"rotation":0,"tile":"\\ud800","x":1,"y":0}')


POSITIONS = ["5", "6", "7", "8"] * 3 + ["0", "99999", "-1", "x", "", "6.0", "\r\n"]


@cache
def analysis_attacks() -> st.SearchStrategy[Attack]:
    """Requests to the analysis board (see the module)."""
    return _attacks()


@st.composite
def _attacks(draw: st.DrawFn) -> Attack:
    kind = draw(st.sampled_from(KINDS))
    event(f"analysis attack: {kind}")
    posts = kind in ("variation", "variations")
    pieces = draw(st.lists(_body_piece() if posts else _token_piece(), max_size=4))
    names = (["play", "pick", "explore", "rank"] if not posts else ["at", "pick"]) + \
        ["action", "n"] * (kind == "computer-form")
    params = draw(st.lists(st.tuples(st.sampled_from(names), st.one_of(
        st.sampled_from(["1", "0", "e30", "real", "ask", "cancel"]), st.text(max_size=20))),
        max_size=3))
    return Attack(kind, draw(st.integers(0, 7)), draw(st.sampled_from(POSITIONS)),
                  draw(st.sampled_from(["5"] * 5 + ["0", "99999", "x", "", "-1", "\\"])),
                  tuple(pieces), tuple(params), draw(st.sampled_from(METHODS)))


def _respell(move: dict[str, Any], how: str) -> str:
    if how == "spaces":
        return _b64(json.dumps(move, sort_keys=True))
    if how == "order":
        return _b64(json.dumps(dict(reversed(list(move.items()))), separators=(",", ":")))
    return _b64(json.dumps(move, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
                .replace("a", "\\u0061", 1))


def _token(piece: tuple[str, Any], i: int, target: Target) -> str:
    kind, value = piece
    if kind == "real":
        return target.tokens[i % len(target.tokens)]
    if kind == "padded":
        k, junk = value
        token = target.tokens[k % len(target.tokens)]
        return f"{token[:4]}{junk}{token[4:]}"
    if kind == "respelled":
        k, how = value
        return _respell(target.moves[k % len(target.moves)], how)
    return str(value)


def _q(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def content_type(attack: Attack) -> dict[str, str]:
    """The headers ``render``'s body goes with: a form for the viewer's buttons."""
    if attack.kind == "computer-form":
        return {"Content-Type": "application/x-www-form-urlencoded"}
    return {}


def render(attack: Attack, targets: list[Target]) -> tuple[str, str, bytes | None]:
    """The request of ``attack`` on one of ``targets``: method, path and body."""
    target = targets[attack.game % len(targets)]
    base = str(target.base) if attack.base == "5" else attack.base
    n = attack.n
    real = {"real": target.tokens[0], "e30": "e30"}
    query = "&".join(f"{k}={_q(real.get(v, v))}" for k, v in attack.params)
    if attack.kind in ("variation", "variations"):
        moves = [json.dumps(target.moves[i % len(target.moves)]) if kind == "real" else v
                 for i, (kind, v) in enumerate(attack.line)]
        extra = "".join(f', "{k}": {json.dumps(v) if k == "pick" else (v if v.isdigit() else 0)}'
                        for k, v in attack.params if k in ("at", "pick"))
        first = base if base.isdigit() else json.dumps(base)
        body = f'{{"from": {first}, "line": [{", ".join(moves)}]{extra}}}'
        return "POST", f"/api/games/{target.game_id}/{attack.kind}", \
            body.encode("utf-8", "surrogatepass")
    if attack.kind == "computer":  # the API: ask, read, cancel, with any body
        text = "".join(str(v) for _, v in attack.line) if attack.line else None
        game = target.game_id if attack.n != "x" else _q(attack.base) or "-"
        return attack.method, f"/api/games/{game}/analysis" + (f"?{query}" if query else ""), \
            None if text is None else text.encode("utf-8", "surrogatepass")
    if attack.kind == "computer-form":  # the viewer's buttons
        form = "&".join(f"{_q(k)}={_q(v)}" for k, v in attack.params)
        return "POST", f"/games/{target.game_id}/analysis", form.encode()
    line = ".".join(_token(p, i, target) for i, p in enumerate(attack.line))
    if attack.kind == "path":
        path = (f"/games/{target.game_id}/variation/{_q(base)}/{_q(line) or '-'}/moves/"
                f"{_q(n)}")
        return "GET", path + (f"?{query}" if query else ""), None
    if attack.kind == "choices":
        return "GET", (f"/api/games/{target.game_id}/moves/{_q(n)}/choices?from={_q(base)}"
                       f"&line={_q(line)}" + (f"&{query}" if query else "")), None
    if not attack.line and not attack.base:  # a game's page: explore, pick, play
        return "GET", f"/games/{target.game_id}/moves/{_q(n)}" + (f"?{query}" if query else ""), \
            None
    return "GET", (f"/games/{target.game_id}/moves/{_q(n)}?from={_q(base)}&line={_q(line)}"
                   + (f"&{query}" if query else "")), None
