"""Manhattan's part of the log format: header fields and moves (docs/log-format.md).

Header: ``players[i].side`` (M2) and ``players[i].second_colour`` (M7), ``material`` (M1,
when not the default) and ``deal`` (M3: required without a seed, checked with one). Moves:

* ``{"choose": {"blue": [1, 1, 2, 3]}}``: the pieces taken into play (M4), per colour;
* ``{"card": 4, "city": "Sydney", "storeys": 2, "colour": "blue", "draw": 7}``: a build
  (M5); ``colour`` only for a player with two, ``draw`` the card drawn after it;
* ``{"discard": 5, "draw": 2}``: a card given up when no build is legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.errors import IllegalMove, LogFormatError
from ...core.family import GameConfig, Player
from ...core.json_input import plain_int
from ...core.scan import scores_object
from .material import COLOURS, DEFAULT_MATERIAL, HEIGHTS, SIDES, Material, default_sides
from .moves import Build, Choose, Discard, Move

MATERIAL_FIELDS = frozenset({"cards_per_lot", "pieces", "hand_size"})
ALL_COLOURS = frozenset({"red", "blue", "green", "yellow", "black", "grey"})  # the schema's


def material_from(raw: Mapping[str, Any] | None) -> Material:
    """The ``material`` header field as a ``Material`` (the default where it is silent)."""
    if not raw:
        return DEFAULT_MATERIAL
    d = DEFAULT_MATERIAL
    pieces = raw.get("pieces")
    return Material(
        tuple(raw.get("cards_per_lot", d.cards_per_lot)),
        d.pieces if pieces is None else dict(zip(HEIGHTS, pieces, strict=True)),
        raw.get("hand_size", d.hand_size))


def material_json(material: Material) -> dict[str, Any]:
    """The ``material`` header field of a game (only what differs from the default)."""
    d = DEFAULT_MATERIAL
    out: dict[str, Any] = {}
    if material.cards_per_lot != d.cards_per_lot:
        out["cards_per_lot"] = list(material.cards_per_lot)
    if dict(material.pieces) != dict(d.pieces):
        out["pieces"] = [material.pieces[h] for h in HEIGHTS]
    if material.hand_size != d.hand_size:
        out["hand_size"] = material.hand_size
    return out


def options_from(header: Mapping[str, Any], players: tuple[Player, ...],
                 material: Material) -> dict[str, Any]:
    """Seats, second colours and the deal from a schema-valid header, checked (M1, M2, M3,
    M7); raises ``LogFormatError`` with the JSON path or ``IllegalMove`` (move None)."""
    raw = header.get("players") or [{} for _ in players]
    n = len(players)
    for p in players:
        if p.colour not in COLOURS:
            raise IllegalMove("M1", f"{p.name} plays {p.colour}; Manhattan's colours are "
                              f"{', '.join(COLOURS)}")
    sides = _sides(raw, players)
    second_colours = _second_colours([p.get("second_colour") for p in raw], players)
    deal = header.get("deal")
    if deal is not None and len(deal) != n:
        raise LogFormatError(f"the deal gives {len(deal)} hands for {n} players", "/deal")
    if material.cards < n * material.hand_size + 1:
        raise IllegalMove("M1", f"{material.cards} cards cannot deal {material.hand_size} "
                          f"to each of {n} players and leave a pile")
    return {"sides": sides, "second_colours": second_colours,
            "deal": None if deal is None else tuple(tuple(h) for h in deal)}


def _sides(raw: Sequence[Any], players: tuple[Player, ...]) -> tuple[str, ...]:
    """The side of the table each player sits on: as given for all, or the default (M2)."""
    n = len(players)
    given = [p.get("side") for p in raw]
    if any(s is not None for s in given) and None in given:
        raise LogFormatError(f"give every player's side or none (by default "
                             f"{', '.join(default_sides(n))})",
                             f"/players/{given.index(None)}/side")
    sides = tuple(given) if None not in given else default_sides(n)
    for i, side in enumerate(sides):
        if sides.index(side) != i:
            raise IllegalMove("M2", f"{players[i].name} and {players[sides.index(side)].name} "
                              f"both sit on the {side} side: one player a side")
    return sides


def _second_colours(seconds: Sequence[Any], players: tuple[Player, ...]) -> tuple[str, ...] | None:
    """The second colour of each player of a two-player game, given or the first spare one
    (M7); None in a game of more players, where none may be given."""
    if len(players) != 2:
        if any(s is not None for s in seconds):
            k = next(i for i, s in enumerate(seconds) if s is not None)
            raise IllegalMove("M7", f"{players[k].name} has a second colour, "
                              f"{seconds[k]}; only the two-player game gives players two")
        return None
    taken = [p.colour for p in players] + [s for s in seconds if s is not None]
    spare = iter(c for c in COLOURS if c not in taken)
    second_colours = tuple(s if s is not None else next(spare, "none") for s in seconds)
    for i, colour in enumerate(second_colours):
        if colour not in COLOURS:
            raise IllegalMove("M1", f"{players[i].name}'s second colour is {colour}; "
                              f"Manhattan's colours are {', '.join(COLOURS)}")
    everyone = [p.colour for p in players] + list(second_colours)
    for i, colour in enumerate(everyone):
        if everyone.index(colour) != i:
            raise IllegalMove("M2", f"{colour} is played twice: every colour belongs to "
                              "one player")
    return second_colours


def players_json(config: GameConfig) -> list[dict[str, Any]]:
    """The ``players`` of a Manhattan log: name, colour, side, and the second colour of the
    two-player game."""
    out: list[dict[str, Any]] = []
    seconds = config.options.get("second_colours")
    for i, p in enumerate(config.players):
        entry: dict[str, Any] = {"name": p.name, "colour": p.colour,
                                 "side": config.options["sides"][i]}
        if seconds:
            entry["second_colour"] = seconds[i]
        out.append(entry)
    return out


def decode_move(raw: Mapping[str, Any], path: str) -> Move:
    """A schema-valid move object as a move."""
    choose = raw.get("choose")
    if choose is not None:
        return Choose(tuple((colour, h) for colour, hs in choose.items() for h in hs))
    if "discard" in raw:
        return Discard(raw["discard"], raw.get("draw"))
    return Build(raw["card"], raw["city"], raw["storeys"], raw.get("colour"), raw.get("draw"))


def encode_move(move: Move) -> dict[str, Any]:
    """A move as a log records it (``decode_move``'s inverse)."""
    if type(move) is Build:
        out: dict[str, Any] = {"card": move.card, "city": move.city, "storeys": move.storeys}
        if move.colour is not None:
            out["colour"] = move.colour
        if move.draw is not None:
            out["draw"] = move.draw
        return out
    if type(move) is Choose:
        by_colour: dict[str, list[int]] = {}
        for colour, h in move.pieces:
            by_colour.setdefault(colour, []).append(h)
        return {"choose": by_colour}
    assert isinstance(move, Discard)
    return {"discard": move.card} if move.draw is None else {"discard": move.card,
                                                              "draw": move.draw}


def header_surely_valid(data: Mapping[str, Any]) -> bool:
    """Manhattan's header fields as the log schema surely accepts them."""
    if "expansions" in data and data["expansions"] != []:
        return False
    if "options" in data and data["options"] != {}:
        return False
    for p in data["players"]:
        if "side" in p and not (type(p["side"]) is str and p["side"] in SIDES):
            return False
        if "second_colour" in p and not (type(p["second_colour"]) is str
                                         and p["second_colour"] in ALL_COLOURS):
            return False
    if "material" in data:
        material = data["material"]
        if type(material) is not dict or not MATERIAL_FIELDS.issuperset(material):
            return False
        if not _int_list(material.get("cards_per_lot", [0] * 9), 9, 9, 0, 20):
            return False
        if not _int_list(material.get("pieces", [0] * 4), 4, 4, 0, 48):
            return False
        if "hand_size" in material and not plain_int(material["hand_size"], 1, 8):
            return False
    if "deal" in data:
        deal = data["deal"]
        if type(deal) is not list or len(deal) > 6:
            return False
        if not all(_int_list(hand, 0, 16, -1000, 1000) for hand in deal):
            return False
    return True


def _int_list(v: Any, least: int, most: int, lo: int, hi: int) -> bool:
    return (type(v) is list and least <= len(v) <= most
            and all(plain_int(x, lo, hi) for x in v))


def read_moves(raws: list[Any]) -> list[Move] | None:
    """Every move of a log in one pass when each is surely valid under the schema's
    ``manhattan-move`` (the checks of ``move_surely_valid``), else None."""
    out: list[Move] = []
    append = out.append
    for m in raws:
        if type(m) is not dict:
            return None
        move: Move | None = _build(m) if "card" in m else _choose(m) if "choose" in m else None
        if move is None:
            return None
        append(move)
    return out


def _build(m: dict[str, Any]) -> Build | None:
    """A build move object as a ``Build`` when the schema surely accepts it, else None
    (written out: it is most of a log)."""
    card, city, storeys = m.get("card"), m.get("city"), m.get("storeys")
    if not (type(card) is int and -1000 <= card <= 1000 and type(city) is str
            and 0 < len(city) <= 32 and type(storeys) is int and -1000 <= storeys <= 1000):
        return None
    fields = 3
    colour = m.get("colour")
    if colour is not None:
        if not (type(colour) is str and 0 < len(colour) <= 32):
            return None
        fields += 1
    draw = m.get("draw")
    if draw is not None:
        if not (type(draw) is int and -1000 <= draw <= 1000):
            return None
        fields += 1
    if "scores" in m:
        if not scores_object(m["scores"]):
            return None
        fields += 1
    if len(m) != fields:  # another field, or a field set to null
        return None
    return Build(card, city, storeys, colour, draw)


def _choose(m: dict[str, Any]) -> Choose | None:
    """A choice move object as a ``Choose`` when the schema surely accepts it, else None."""
    choose = m.get("choose")
    if type(choose) is not dict or not 1 <= len(choose) <= 2:
        return None
    fields = 1
    if "scores" in m:
        if not scores_object(m["scores"]):
            return None
        fields += 1
    if len(m) != fields:  # another field
        return None
    pieces: list[tuple[str, int]] = []
    for colour, hs in choose.items():
        if not (type(colour) is str and 1 <= len(colour) <= 32 and type(hs) is list
                and 1 <= len(hs) <= 24):
            return None
        for h in hs:
            # ``json_input.plain_int`` written out: a call into the interpreted module per
            # value costs more than the test
            if not (type(h) is int and -1000 <= h <= 1000):
                return None
            pieces.append((colour, h))
    return Choose(tuple(pieces))


def move_surely_valid(raw: Any) -> bool:
    """Accepts only move objects the schema's ``manhattan-move`` accepts (fast path)."""
    if type(raw) is not dict:
        return False
    if "card" in raw:
        return _build(raw) is not None
    if "choose" in raw:
        return _choose(raw) is not None
    return False

