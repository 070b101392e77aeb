"""The importer interface: foreign saved games in, table logs (schema v1) out.

A family declares the importers of the foreign formats that produce its games
(``Family.importer_refs``); ``sniff`` and ``convert`` ask every family's importers.

An ``Importer`` knows one foreign format. ``sniff`` says from the decoded JSON whether a file is
its format (cheap, never raises); ``read`` converts it into a log v1 dict plus the conversion
``Problem``s it met, each with where it happened (a message index, a packet id). Problems are
collected, not raised, as python-chess's PGN reader collects errors; only a problem after
which the game cannot go on (an unknown tile, an unsupported expansion in use) ends the import,
as an ``ImportRefused`` carrying everything collected so far.

Importers write **table logs** (every move names its tile, discards are moves of their own),
set the rule options from the source, and carry the source's own scores as claims, so that
verifying an import also audits the source's arithmetic.
"""

from __future__ import annotations

import reprlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from .errors import LogFormatError


@dataclass(frozen=True)
class Problem:
    """One conversion problem: a short ``code``, a message, and where it happened."""

    code: str
    message: str
    where: str = ""
    fatal: bool = False

    def line(self) -> str:
        """``where: message [code]``."""
        return f"{self.where + ': ' if self.where else ''}{self.message} [{self.code}]"

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "where": self.where,
                "fatal": self.fatal}


UNSUPPORTED = "unsupported: "
"""How the message of a game the service does not play begins (an expansion the importer
cannot carry): not a malformed file. ``verify`` and the upload page show it as it is."""


class ImportRefused(LogFormatError):
    """A foreign file that cannot become a log: the fatal problem first, then the others.

    ``unsupported`` (e.g. "this save uses X; this service plays Y") marks a well-formed game of
    something the service does not play; the message then starts with ``UNSUPPORTED``."""

    def __init__(self, fmt: str, problems: list[Problem], unsupported: str | None = None) -> None:
        fatal = next((p for p in problems if p.fatal), problems[0])
        message = f"{fmt}: {fatal.line()}" if unsupported is None else \
            f"{UNSUPPORTED}{unsupported} ({fmt}, {fatal.line()})"
        super().__init__(message, "")
        self.format = fmt
        self.problems = problems
        self.unsupported = unsupported is not None

    def __str__(self) -> str:
        return self.message  # the whole file is refused: no JSON path to show


@dataclass
class Imported:
    """A foreign file converted: the format read, the log (schema v1) and the problems."""

    format: str  # e.g. "JCloisterZone 5.7+ save", "Board Game Arena log"
    log: dict[str, Any]
    problems: list[Problem] = field(default_factory=list)


class Problems:
    """The problems of one import, collected as the importer goes."""

    def __init__(self, fmt: str) -> None:
        self.format = fmt
        self.items: list[Problem] = []

    def warn(self, code: str, message: str, where: str = "") -> None:
        """A problem the import survives (the log says what it could)."""
        self.items.append(Problem(code, message, where))

    def refuse(self, code: str, message: str, where: str = "") -> ImportRefused:
        """A problem the import cannot go past: ``raise problems.refuse(...)``."""
        self.items.append(Problem(code, message, where, fatal=True))
        return ImportRefused(self.format, self.items)

    def unsupported(self, code: str, message: str, where: str, headline: str) -> ImportRefused:
        """A game the service does not play (an expansion): ``raise problems.unsupported(...)``
        with the ``headline`` people read first ("this save uses X; this service plays Y")."""
        self.items.append(Problem(code, message, where, fatal=True))
        return ImportRefused(self.format, self.items, headline)


class Importer(ABC):
    """One foreign format."""

    name: str  # a short id: "jcz", "bga"
    label: str  # what people call the format

    @abstractmethod
    def sniff(self, value: Any) -> bool:
        """Whether the decoded JSON ``value`` is this format (cheap; never raises)."""

    @abstractmethod
    def read(self, value: Any) -> Imported:
        """Convert; raises ``ImportRefused`` when the game cannot be carried."""


# What a value of an unexpected type raises deep in an importer; caught per message (with
# where) by each importer, and for the whole file by ``convert`` as a last resort.
SHAPE_ERRORS = (TypeError, KeyError, AttributeError, ValueError, IndexError)


def shape_error(exc: Exception) -> str:
    """A refusal's message for a value of the wrong shape."""
    return (f"a value does not have the shape the format gives it "
            f"({type(exc).__name__}: {str(exc)[:120]})")


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict = \
    2, 40, 40, 4, 4


def a_value(value: Any) -> str:
    """A JSON value as a refusal names it: its type and a short view of it ("the number
    10000000000... (31 digits)", "the list ['x']")."""
    kinds = {bool: "the boolean", int: "the number", float: "the number", str: "the text",
             list: "the list", dict: "the object", type(None): "null"}
    kind = kinds.get(type(value), type(value).__name__)
    if value is None:
        return kind
    if type(value) is int and abs(value) >= 10 ** 30:
        if abs(value) >= 10 ** 4000:  # str() refuses beyond 4,300 digits
            return f"{kind} with more than 4000 digits"
        return f"{kind} {str(value)[:12]}... ({len(str(abs(value)))} digits)"
    return f"{kind} {_SHORT.repr(value)}"


def importers() -> list[Importer]:
    """Every importer of every family, in the order of ``families()`` and of each family's
    ``importer_refs``."""
    from .family import families

    return [imp for fam in families() for imp in fam.importers()]


def sniff(value: Any) -> Importer | None:
    """The importer whose format ``value`` (decoded JSON) is, or None (a log, or unknown)."""
    if isinstance(value, dict) and value.get("format") == "carcassonne-replay/log":
        return None
    return next((imp for imp in importers() if imp.sniff(value)), None)


def convert(value: Any) -> Imported | None:
    """``value`` converted by the importer of its format; None when it is not foreign.

    Raises ``ImportRefused`` for a file the importer cannot carry, a damaged one included."""
    importer = sniff(value)
    if importer is None:
        return None
    try:
        return importer.read(value)
    except SHAPE_ERRORS as exc:
        raise ImportRefused(importer.label, [Problem("malformed", shape_error(exc),
                                                     fatal=True)]) from None
