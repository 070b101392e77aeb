"""JCloisterZone replay messages -> turns (import-formats.md §1.6, §1.8).

``undo`` drops the messages an ``UNDO`` takes back; ``turns`` groups the rest as
``PLACE_TILE`` -> ``DEPLOY_MEEPLE``/``PASS`` -> ``SHEPHERD_CONFIRM`` -> ``FLOCK_EXPAND_OR_SCORE``*
-> ``COMMIT``, refusing anything out of that order and every message type of another expansion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....core.importing import Problems
from . import uses_jcz

KNOWN = frozenset({"PLACE_TILE", "DEPLOY_MEEPLE", "PASS", "SHEPHERD_CONFIRM",
                   "FLOCK_EXPAND_OR_SCORE", "COMMIT", "UNDO", "GAME_OVER"})
# the turn player's own choices: another player's index on them is refused. JCZ picks the
# handler of any other message by its type alone (a SHEPHERD_CONFIRM, a COMMIT, a flock choice
# sent with another index is replayed): those are accepted whoever sends them, and a meeple's
# owner is checked through its id.
CHOICES = frozenset({"PLACE_TILE", "DEPLOY_MEEPLE", "PASS"})
FOREIGN = {
    "PLACE_TOKEN": "tokens (Tunnel, Bridges, Castles & Bazaars, ...)",
    "MOVE_NEUTRAL_FIGURE": "neutral figures (dragon, fairy, count, ...)",
    "RETURN_MEEPLE": "returning a meeple (princess, festival, ...)",
    "CAPTURE_FOLLOWER": "capturing followers (The Tower)", "PAY_RANSOM": "ransom (The Tower)",
    "EXCHANGE_FOLLOWER": "follower exchange (The Tower)",
    "CIRCLE_REMOVE_OR_DEPLOY": "crop circles", "SCORE_ACROBATS": "acrobats",
    "TILE_CONFIRM": "tile confirmation (Bazaar)", "DEPLOY_FLIER": "flying machines",
    "AI": "an AI player's message",
}


@dataclass
class Message:
    """One replay message: its index in ``replay``, type, payload and sender."""

    index: int
    type: str
    payload: dict[str, Any]
    player: int | None


@dataclass
class Turn:
    """One turn's messages."""

    number: int  # 1-based
    place: Message
    action: Message | None = None
    confirm: Message | None = None
    flocks: list[Message] = field(default_factory=list)
    commit: Message | None = None

    def where(self, msg: Message | None = None) -> str:
        return f"replay message {(msg or self.place).index} (turn {self.number})"


def messages(replay: Any, problems: Problems) -> list[Message]:
    """The replay as ``Message``s; an alien or truncated entry is refused."""
    if not isinstance(replay, list):
        raise problems.refuse("truncated", "replay is not a list of messages", "replay")
    out: list[Message] = []
    for i, m in enumerate(replay):
        if not isinstance(m, dict) or not isinstance(m.get("type"), str):
            raise problems.refuse("bad-message", "not a message (no type)", f"replay message {i}")
        payload = m.get("payload", {})
        if not isinstance(payload, dict):
            raise problems.refuse("bad-message", f"{m['type']}: payload is not an object",
                                  f"replay message {i}")
        player = m.get("player")
        out.append(Message(i, m["type"], payload,
                           player if isinstance(player, int) and not isinstance(player, bool)
                           else None))
    return out


def _undoable(msg: Message) -> bool:
    if "random" in msg.payload or "salt" in msg.payload:
        return False
    if msg.type == "DEPLOY_MEEPLE":
        return ".shepherd." not in str(msg.payload.get("meepleId", ""))
    return msg.type in ("PLACE_TILE", "DEPLOY_MEEPLE", "PASS")


def undo(msgs: list[Message], problems: Problems) -> list[Message]:
    """The messages left once every ``UNDO`` has taken back the latest undoable message."""
    out: list[Message] = []
    stack: list[Message] = []
    for msg in msgs:
        if msg.type == "UNDO":
            if not stack:
                raise problems.refuse("undo", "UNDO with nothing to undo",
                                      f"replay message {msg.index}")
            out.remove(stack.pop())
            continue
        out.append(msg)
        if _undoable(msg):
            stack.append(msg)
        else:
            stack.clear()
    if any(m.type == "UNDO" for m in msgs):
        problems.warn("undo", "the save holds UNDO messages: the undone messages are dropped",
                      "replay")
    return out


def turns(msgs: list[Message], players: int, problems: Problems) -> tuple[list[Turn], bool]:
    """The turns (a last one without ``COMMIT`` dropped) and whether ``GAME_OVER`` was seen."""
    out: list[Turn] = []
    cur: Turn | None = None
    over = False
    for msg in msgs:
        t = msg.type
        where = f"replay message {msg.index} (turn {len(out) + (cur is not None)})"
        if t not in KNOWN:
            what = FOREIGN.get(t, "an expansion this service does not play")
            raise problems.unsupported("unsupported-message", f"the save uses {what} (its "
                                       f"{t} messages), which this service does not play",
                                       where, uses_jcz(f"{what} ({t} messages)"))
        if over:
            raise problems.refuse("order", f"{t} after GAME_OVER", where)
        if t == "GAME_OVER":
            if cur is not None:
                raise problems.refuse("order", "GAME_OVER inside a turn", where)
            over = True
            continue
        if t == "PLACE_TILE":
            if cur is not None:
                raise problems.refuse("order", "PLACE_TILE before the previous turn's COMMIT",
                                      where)
            cur = Turn(len(out) + 1, msg)
            where = cur.where(msg)
        elif cur is None:
            raise problems.refuse("order", f"{t} outside a turn (no PLACE_TILE before it)",
                                  where)
        elif t in ("DEPLOY_MEEPLE", "PASS"):
            if cur.action is not None or cur.confirm or cur.flocks:
                raise problems.refuse("order", f"a second action ({t}) in one turn", where)
            cur.action = msg
        elif t == "SHEPHERD_CONFIRM":
            if cur.action is None or cur.action.type != "DEPLOY_MEEPLE" or cur.confirm \
                    or cur.flocks or ".shepherd." not in str(cur.action.payload.get("meepleId")):
                raise problems.refuse("order", "SHEPHERD_CONFIRM not right after a new "
                                      "shepherd", where)
            cur.confirm = msg
        elif t == "FLOCK_EXPAND_OR_SCORE":
            cur.flocks.append(msg)
        else:  # COMMIT
            cur.commit = msg
            out.append(cur)
            cur = None
        if t in CHOICES and msg.player is not None \
                and msg.player != (len(out) - (cur is None)) % players:
            raise problems.refuse("order", f"{t} sent by player {msg.player} in another "
                                  "player's turn", where)
    if cur is not None:
        problems.warn("no-commit", "the last turn has no COMMIT (still in progress): dropped",
                      cur.where())
    return out, over
