"""Events in words, for people: "city: 4 tiles × 2 + 1 pennant × 2 = 10; Ada (red) and
Ben (blue) tie 1–1, both score 10 (B4)".

The engine's score events already say how the points were computed (``detail``); this module
adds who won the majority and why (G8). Event types it does not know are still shown, as
``type: key value, ...``. The text is plain: templates escape it, JSON carries it as is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.game import Event, Player

ROLE_WORDS = {"farm": "farmer", "flock": "shepherd"}


def _name(players: Sequence[Player], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        p = players[seat]
        return f"{p.name} ({p.colour})"
    return "someone"


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def majority(event: Event, players: Sequence[Player]) -> str:
    """Who wins a scored feature and why (G8, with HS8's hill tie-break when it applied)."""
    raw = event.get("strengths") or {}
    strengths = {int(k): int(v) for k, v in raw.items() if str(k).lstrip("-").isdigit()}
    winners = [w for w in event.get("winners", []) if isinstance(w, int)]
    points = event.get("points", 0)
    if not winners:
        return "nobody scores"
    order = sorted(strengths, key=lambda p: (-strengths[p], p))
    counts = "–".join(str(strengths[p]) for p in order)
    losers = [p for p in order if p not in winners]
    nothing = f"; {_join([_name(players, p) for p in losers])} score nothing" if losers else ""
    if len(strengths) <= 1 and len(winners) == 1:
        return f"{_name(players, winners[0])} scores {points}"
    top = max(strengths.values(), default=0)
    tied = [p for p in order if strengths[p] == top]
    if len(winners) > 1:
        both = "both" if len(winners) == 2 else "all"
        return (f"{_join([_name(players, w) for w in winners])} tie {counts}, {both} score "
                f"{points}{nothing}")
    if len(tied) > 1:
        return (f"{_join([_name(players, p) for p in tied])} tie {counts}; the tie goes to "
                f"{_name(players, winners[0])} (hill), who scores {points}{nothing}")
    return f"{_name(players, winners[0])} wins {counts} and scores {points}{nothing}"


def explain(event: Event, players: Sequence[Player]) -> str:
    kind = event.get("type")
    who = _name(players, event.get("player"))
    if kind == "place":
        return (f"{who} placed tile {event.get('tile')} at ({event.get('x')},{event.get('y')}), "
                f"rotated {event.get('rotation')}°")
    if kind == "figure":
        figure = str(event.get("kind", "follower")).replace("-", " ")
        role = event.get("role")
        as_role = f" as {role}" if role else ""
        return (f"{who} put a {figure} on the {event.get('feature')} at "
                f"{event.get('location')}{as_role}")
    if kind == "return":
        figure = str(event.get("kind", "follower")).replace("-", " ")
        return (f"{who}'s {figure} at ({event.get('x')},{event.get('y')}) "
                f"{event.get('location')} went back to the supply")
    if kind == "discard":
        return (f"tile {event.get('tile')} could not be placed anywhere and was discarded "
                f"({event.get('rule', 'G5')})")
    if kind == "score":
        end = "end of game: " if event.get("phase") == "final" else ""
        detail = event.get("detail") or f"{event.get('feature')}: {event.get('points')}"
        return f"{end}{detail}; {majority(event, players)} ({event.get('rule')})"
    if kind == "end":
        scores = event.get("scores", [])
        table = ", ".join(f"{p.name} {s}" for p, s in zip(players, scores, strict=False))
        winners = [_name(players, w) for w in event.get("winners", [])]
        won = "wins" if len(winners) == 1 else "win"
        return f"game over: {table}; {_join(winners)} {won}"
    if kind == "sheep":
        return (f"{who} drew {event.get('token')} for the flock ({event.get('rule')})")
    rest = ", ".join(f"{k} {_name(players, v) if k == 'player' else v}"
                     for k, v in event.items() if k != "type")
    return f"{kind}: {rest}" if rest else str(kind)

