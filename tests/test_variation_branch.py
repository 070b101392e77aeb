"""A variation replayed from the game's checkpoint at its branch (issue 36 item 3) is the
variation replayed from move 0: ``record.continued`` and ``playback.branch`` against
``parse`` and ``play_through`` of the same log, in every family, at branches on and between
checkpoints, with legal lines, lines that end in an illegal move, and logs that end after
their last move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from replay.core.errors import LogFormatError
from replay.core.explore import line_text, variation_log
from replay.core.outlook import if_ended_now
from replay.core.playback import CHECKPOINT, Playback, branch, play_through
from replay.core.record import GameRecord, continued, parse
from replay.generate import generate_log

GAMES = [("base", 2, ()), ("base", 6, ("inns-cathedrals", "hills-sheep")),
         ("hunters-gatherers", 3, ()), ("manhattan", 4, ())]


def _line(record: GameRecord, base: int, length: int, seed: int) -> list[dict[str, Any]]:
    """``length`` legal moves from position ``base`` of ``record`` (fewer at the end), each
    chosen by a seeded draw among the position's legal moves, as a log records them."""
    rng = random.Random(seed)
    state = record.playback.position(base).state
    out = []
    for _ in range(length):
        if state.finished:
            break
        moves = list(state.legal_moves())
        if not moves:
            break
        move = moves[rng.randrange(len(moves))]
        state.apply(move)
        out.append(record.family.encode_move(move))
    return out


def _same(a: Playback, b: Playback) -> None:
    assert a.hashes == b.hashes
    assert a.scores == b.scores
    assert [[repr(e) for e in ev] for ev in a.events] == [[repr(e) for e in ev] for ev in b.events]
    assert (a.error is None) == (b.error is None)
    if a.error is not None and b.error is not None:
        assert (a.error.move, a.error.rule, a.error.message) == \
            (b.error.move, b.error.rule, b.error.message)
    assert if_ended_now(a) == if_ended_now(b)
    for n in range(0, a.last + 1):
        assert a.position(n).state.state_hash == b.position(n).state.state_hash, n


@pytest.mark.parametrize(("game", "players", "expansions"), GAMES)
def test_a_branch_replays_as_the_whole_log_does(game: str, players: int,
                                                expansions: tuple[str, ...]) -> None:
    log = generate_log(game, players, 11, expansions)
    record = parse(log)
    moves = len(log["moves"])
    bases = sorted({0, 1, CHECKPOINT - 1, CHECKPOINT, CHECKPOINT + 1, moves // 2, moves - 1,
                    moves})
    tried = {"legal": 0, "illegal": 0}
    for base in bases:
        for length, broken in ((0, False), (5, False), (3, True)):
            line = _line(record, base, length, seed=base * 7 + length)
            if broken:  # the game's own next move after a changed one is most often illegal
                line += log["moves"][base + len(line):base + len(line) + 4]
            data = variation_log(log, base, line)
            whole = parse(data)
            made = continued(record, data, base)
            assert "playback" in vars(made)  # branched, not replayed when first read
            assert made.moves == whole.moves and made.move_claims == whole.move_claims
            assert made.final_claims is None and not made.end_after_last_move
            _same(made.playback, play_through(whole))
            tried["illegal" if made.playback.error else "legal"] += 1
    assert tried["legal"] >= len(bases) and tried["illegal"] >= 1, tried


def test_a_branch_at_the_end_of_a_log_ended_after_its_last_move() -> None:
    """The last position of such a log holds the end scoring: a variation branching there
    starts from the state before it, as its own log (no "end") does."""
    log = generate_log("base", 3, 5)
    cut = len(log["moves"]) - 10
    ended = {**{k: v for k, v in log.items() if k != "claims"}, "moves": log["moves"][:cut],
             "end": "after-last-move"}
    record = parse(ended)
    plain = parse({k: v for k, v in ended.items() if k != "end"})
    assert record.playback.scores[-1] != plain.playback.scores[-1]  # the end scoring is there
    for line in ([], _line(plain, cut, 3, 1)):
        data = variation_log(ended, cut, line)
        _same(continued(record, data, cut).playback, play_through(parse(data)))


def test_a_line_move_refused_with_its_path_in_the_log() -> None:
    log = generate_log("base", 2, 3)
    record = parse(log)
    data = variation_log(log, 10, [{"x": 0, "y": "north", "rotation": 0}])
    with pytest.raises(LogFormatError) as caught:
        continued(record, data, 10)
    assert caught.value.path is not None and caught.value.path.startswith("/moves/10")
    with pytest.raises(LogFormatError) as caught:
        parse(data)
    assert caught.value.path is not None and caught.value.path.startswith("/moves/10")


def test_a_branch_starts_at_a_legal_position() -> None:
    record = parse(generate_log("base", 2, 3))
    with pytest.raises(ValueError, match="legal position"):
        branch(record.playback, record, len(record.moves) + 1)


def test_a_variations_page_tells_what_the_whole_log_tells(app: Any, client: Any) -> None:
    """The web app's variation (``web.variations.read``): its summary (move list, scores,
    if-ended scores), taken from the game's up to the branch, is the summary of its log
    read and replayed whole."""
    from web import db as store
    from web import variations
    from web.games import cache, summarise

    log = generate_log("base", 4, 8, ("inns-cathedrals",))
    game_id = client.post("/api/games", data=json.dumps(log),
                          content_type="application/json").get_json()["id"]
    record = parse(log)
    for base, length in ((0, 2), (CHECKPOINT, 0), (len(log["moves"]) // 2, 4),
                         (len(log["moves"]) - 1, 1)):
        line = _line(record, base, length, base)
        data = variation_log(log, base, line)
        whole = parse(data)
        with app.test_request_context():
            game = cache().get(store.get_db(), game_id)
            assert game is not None
            found = variations.read(game, base, line_text(line))
            assert found.entry.summary == summarise(whole, play_through(whole))
        page = client.get(f"/games/{game_id}/variation/{base}/{line_text(line)}/moves/"
                          f"{base + length}" if line else f"/games/{game_id}/moves/{base}")
        assert page.status_code == 200
