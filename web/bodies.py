"""Bodies over the limit, as waitress reads them: the app's own 413, and an answer the client
reads.

Left alone, waitress refuses a body over its ``max_request_body_size`` itself (a plain-text
413, "exceeds max_body of ...") and closes the socket at once; a client that sends its whole
body before it reads (Python's ``urllib``, many HTTP libraries) then meets "connection reset"
instead of any answer. ``BodyParser`` (installed in each server process by ``install``) keeps
at most the app's limit plus one byte of a body, reads and discards the rest up to ``discard``
bytes, and hands the request to the app, which answers with its 413 (JSON under ``/api``, the
HTML page elsewhere). A body longer than ``discard`` is cut there and the connection closed
after the answer (``Connection: close``; ``cut`` says so): the bound on what one request may
make us read, though not on what the client sends (``web.connections`` reads and drops the rest
for a bounded time after the answer, so that the client still reads it).
A post to the upload page (``batch_path``) may hold several logs: it is kept up to ``batch``.
"""

from __future__ import annotations

from typing import Any

from waitress.buffers import OverflowableBuffer
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.receiver import FixedStreamReceiver
from waitress.utilities import RequestEntityTooLarge

from .uploads import UPLOAD_PATH


class CappedBuffer(OverflowableBuffer):  # type: ignore[misc]
    """A body buffer keeping its first ``keep`` bytes and dropping the rest."""

    def __init__(self, overflow: int, keep: int) -> None:
        super().__init__(overflow)
        self.keep = keep

    def append(self, s: bytes) -> None:
        room = self.keep - len(self)
        if room > 0:
            super().append(s[:room])


class BodyParser(HTTPRequestParser):  # type: ignore[misc]
    """Waitress's request parser, reading a body over ``limit`` up to ``discard`` bytes into
    ``CappedBuffer`` (see the module)."""

    limit = 5 * 1024 * 1024
    discard = 32 * 1024 * 1024
    cut = False  # the body was cut at ``discard``: the client may still be sending it
    batch = limit
    batch_path = UPLOAD_PATH
    # waitress's attributes (untyped there)
    body_rcv: Any
    content_length: int
    error: Any
    chunked: bool
    headers: dict[str, str]
    adj: Any
    connection_close: bool
    path: str

    def parse_header(self, header_plus: bytes) -> None:
        super().parse_header(header_plus)
        limit = self.batch if self.path == self.batch_path else self.limit
        keep = limit + 1
        if self.chunked:
            self.body_rcv.buf = CappedBuffer(self.adj.inbuf_overflow, keep)
        elif self.content_length > limit:
            # the app sees the length sent (over its limit) and answers 413 without reading
            self.body_rcv = FixedStreamReceiver(min(self.content_length, self.discard),
                                                CappedBuffer(self.adj.inbuf_overflow, 0))
            if self.content_length > self.discard:
                self._close_after()
            self.content_length = min(self.content_length, self.discard)

    def received(self, data: bytes) -> int:
        consumed: int = super().received(data)
        if self.chunked and isinstance(self.error, RequestEntityTooLarge):
            # a chunked body past the bound: the app answers for what was kept, then we close
            self.error = None
            self._close_after()
            self.headers["CONTENT_LENGTH"] = str(len(self.body_rcv))
        return consumed

    def _close_after(self) -> None:
        self.cut = True
        self.connection_close = True
        self.headers["CONNECTION"] = "close"


def install(limit: int, discard: int, batch: int = 0) -> dict[str, Any]:
    """Make this process's waitress read bodies with ``BodyParser`` (the app's ``limit``,
    ``batch`` for a post of the upload page, ``discard`` bytes read at most); the keyword
    arguments of ``waitress.serve`` that go with it."""
    BodyParser.limit = limit
    BodyParser.discard = discard
    BodyParser.batch = min(max(limit, batch), discard)
    HTTPChannel.parser_class = BodyParser
    return {"max_request_body_size": discard + 1}
