"""Typed errors. Every error a user can see names what, where and (for rules) the RULES.md id."""

from __future__ import annotations


class ReplayError(Exception):
    """Base class of every error the engine raises on purpose."""


class LogFormatError(ReplayError):
    """The input is not a readable, schema-valid log (exit code 2).

    ``path`` is a JSON pointer to the offending value ("" for the whole document).
    """

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        """``/moves/3/x: message``; the message alone for the whole document (a file that
        cannot be read names itself)."""
        return f"{self.path}: {self.message}" if self.path else self.message

    def __repr__(self) -> str:
        return f"LogFormatError(message={self.message!r}, path={self.path!r})"

    def as_json(self) -> dict[str, str]:
        """The error as the API answers it (rule L1, the message, the JSON pointer)."""
        return {"rule": "L1", "message": self.message, "path": self.path}


class TileSetError(ReplayError):
    """A tile-set file is unreadable, schema-invalid or inconsistent."""


class IllegalMove(ReplayError):
    """A move breaks a rule. The game state is left exactly as it was before the move."""

    def __init__(self, rule: str, message: str, move: int | None = None,
                 player: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.move = move
        self.player = player

    def __str__(self) -> str:
        where = f"move {self.move}" if self.move is not None else "move"
        who = f" ({self.player})" if self.player else ""
        return f"{where}{who}: {self.rule}: {self.message}"

    def __repr__(self) -> str:
        return (f"IllegalMove(rule={self.rule!r}, message={self.message!r}, move={self.move!r}, "
                f"player={self.player!r})")
