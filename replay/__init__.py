"""Deterministic replay and verification of Carcassonne-family game logs.

The public API: ``parse``/``decode`` a log, ``replay`` it (a ``Game`` with events and hashes),
``verify_data``/``verify_file`` for a verdict, ``generate_log`` for random legal games.
"""

from .errors import IllegalMove, LogFormatError, ReplayError, TileSetError
from .game import FigureChoice, Game, GameConfig, Move, Options, Player
from .generate import generate_log
from .logfile import decode, parse
from .verify import Replay, Report, replay, verify_data, verify_file

__all__ = [
    "FigureChoice", "Game", "GameConfig", "IllegalMove", "LogFormatError", "Move", "Options",
    "Player", "Replay", "ReplayError", "Report", "TileSetError", "decode", "generate_log", "parse",
    "replay", "verify_data", "verify_file",
]
