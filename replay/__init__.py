"""Deterministic replay and verification of recorded board games.

A first session::

    import replay
    game = replay.read_game("game.json")          # a path, file, bytes, text or dict
    report = replay.verify("game.json")           # valid? where does it fail? (never raises)
    for step in replay.steps(game):                # each move, its events, the state after it
        print(step.index, [e.to_json() for e in step.events], step.state.scores)
    state = game.new_state()                       # play by hand
    move = next(state.legal_moves())
    state.apply(move)
    svg_text = replay.svg.board(state)

``replay.families()`` lists the game families (each a ``Family``: rules, expansions, log
format, drawing); see ``docs/api.md``.
"""

from . import native  # noqa: F401 I001 (first: it may put compiled modules before the sources)
import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import svg
    from .core.errors import IllegalMove, LogFormatError, ReplayError, TileSetError
    from .core.events import Event, GameEnd, Score
    from .core.family import Family, GameConfig, GameState, Player, families, family
    from .core.playback import Failure, Playback, Position, Step, play_through, steps
    from .core.record import GameRecord, read_game
    from .core.values import replace
    from .core.verify import Report, verify
    from .generate import dumps, generate_log
    from .tiles.sets import load_tileset_file as load_tileset

__all__ = [
    "Event", "Failure", "Family", "GameConfig", "GameEnd", "GameRecord", "GameState",
    "IllegalMove", "LogFormatError", "Playback", "Player", "Position", "Report", "ReplayError",
    "Score", "Step", "TileSetError", "dumps", "families", "family", "generate_log",
    "load_tileset", "play_through", "read_game", "replace", "steps", "svg", "verify",
]

# every public name is imported on first use (PEP 562), so that ``python -m replay verify``
# loads only what a verification needs (not the playback, the drawing, the generator, ...):
# name -> (module, attribute)
_LAZY: dict[str, tuple[str, str | None]] = {
    **{n: (".core.errors", n) for n in ("IllegalMove", "LogFormatError", "ReplayError",
                                        "TileSetError")},
    **{n: (".core.events", n) for n in ("Event", "GameEnd", "Score")},
    **{n: (".core.family", n) for n in ("Family", "GameConfig", "GameState", "Player",
                                        "families", "family")},
    **{n: (".core.playback", n) for n in ("Failure", "Playback", "Position", "Step",
                                          "play_through", "steps")},
    **{n: (".core.record", n) for n in ("GameRecord", "read_game")},
    "replace": (".core.values", "replace"),
    **{n: (".core.verify", n) for n in ("Report", "verify")},
    "svg": (".svg", None),
    "dumps": (".generate", "dumps"),
    "generate_log": (".generate", "generate_log"),
    "load_tileset": (".tiles.sets", "load_tileset_file"),
}


def __getattr__(name: str) -> Any:
    """The public names imported on first use (``_LAZY``)."""
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(where[0], __name__)
    value = module if where[1] is None else getattr(module, where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
