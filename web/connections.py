"""Connections as waitress holds them, bounded: slow readers, one client's share, lingering close.

Waitress left three holes (issue 35, items A and 17), closed here by subclassing its server and
its channel (``make_server`` builds them; ``web.server.run_child`` runs one per process):

* **A client that never reads.** Waitress closes a connection silent for ``channel_timeout``
  by marking it and closing it the next time its socket is writable; a client that asks for a
  large answer and never reads keeps its socket unwritable, so the mark never takes effect:
  the connection, its slot under the connection limit and its unsent answer (in a temporary
  file past 1 MB) stay for ever. ``Server.maintenance`` (every second) closes at once every
  connection that made no progress for ``channel_timeout`` seconds and has nothing running,
  or has an answer waiting for the client, whatever its socket says. A thread blocked
  writing to such a client is released by the close.
* **One client's share.** A client (an IPv4 address, or an IPv6 /64) may hold at most
  ``client_connections`` connections of a process (more are answered 429 and closed at
  once), and while its unsent answers hold more than ``client_queued`` bytes, its further
  requests are not read (they wait; a connection left waiting is closed at the timeout), and
  those read already are answered 429 instead of being run (a burst of requests is read
  before any answer is made). Waitress itself reads no new request on a connection until its
  answer is sent, so a connection holds at most one answer, and a client at most
  ``client_queued`` bytes and the answers of the threads at work.
* **Lingering close.** After the 413 of a body cut at the discard bound (``web.bodies``), or
  the error answer to a malformed request, closing the socket while the client is still
  sending makes the kernel reset the connection, and a client that sends its whole body
  before reading (``urllib``, a browser's form) meets "connection reset" instead of the
  answer. As nginx's lingering close does, the connection is shut for writing once the
  answer is flushed, and what the client still sends is read and dropped until it closes, at
  most ``linger_seconds`` (5 s of silence) and ``linger_bytes``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import time
from collections import Counter
from collections.abc import Callable
from socket import socket as Socket
from typing import TYPE_CHECKING, Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher
from waitress.utilities import Error

if TYPE_CHECKING:
    from .server import Settings

LINGER_SILENCE = 5.0  # seconds a lingering client may send nothing (nginx's lingering_timeout)
LINGER_READ = 256 * 1024  # bytes read at a time while lingering


def client_of(addr: Any) -> str:
    """Who a connection's peer address counts as: its IPv4 address, or the /64 network of an
    IPv6 address (one subscriber's share: a host may pick any address of its /64)."""
    host = str(addr[0] if isinstance(addr, tuple) else addr)
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def too_many(limit: int) -> bytes:
    """The answer to a connection over a client's share (sent before its request is read)."""
    body = (f"Too many open connections from your address (at most {limit} at once): close "
            "some and try again.\n").encode()
    return (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"X-Content-Type-Options: nosniff\r\nRetry-After: 5\r\nConnection: close\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def refuse(conn: Socket, answer: bytes) -> None:
    """Answer ``answer`` on a fresh connection and close it, without waiting: what the
    client has sent already is read first, so that closing does not reset the connection
    before the client reads the answer (what it sends later may still be met by a reset)."""
    with contextlib.suppress(OSError):
        conn.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            conn.recv(65536)
        conn.send(answer)
        conn.shutdown(socket.SHUT_WR)
    conn.close()


class Unread(Error):  # type: ignore[misc]
    """The answer to a request of a client whose unsent answers are over its budget."""

    code = 429
    reason = "Too Many Requests"

    def to_response(self, ident: str | None = None) -> tuple[str, list[tuple[str, str]], bytes]:
        status, headers, body = super().to_response(ident)
        return status, [*headers, ("Retry-After", "5")], body


class Channel(HTTPChannel):  # type: ignore[misc]
    """Waitress's connection, counted under its client and able to linger (see the module)."""

    server: Server
    # waitress's attributes (untyped there)
    socket: Socket | None
    requests: list[Any]
    total_outbufs_len: int
    will_close: bool
    close_when_flushed: bool
    last_activity: float

    counted = False
    linger_wanted = False  # the answer being written ends a request the client may still send
    lingering = False
    linger_until = 0.0
    lingered = 0

    def __init__(self, server: Server, sock: Socket, addr: Any, adj: Adjustments,
                 map: dict[int, Any] | None = None) -> None:
        self.client = client_of(addr)
        super().__init__(server, sock, addr, adj, map)

    def add_channel(self, map: dict[int, Any] | None = None) -> None:
        super().add_channel(map)
        self.server.clients[self.client] += 1
        self.counted = True

    def del_channel(self, map: dict[int, Any] | None = None) -> None:
        super().del_channel(map)
        if self.counted:
            self.counted = False
            clients = self.server.clients
            clients[self.client] -= 1
            if clients[self.client] <= 0:
                del clients[self.client]

    def readable(self) -> bool:
        if self.lingering:
            return True
        return bool(super().readable()) and self.client not in self.server.over_budget

    def writable(self) -> bool:
        return not self.lingering and bool(super().writable())

    def service(self) -> None:
        request = self.requests[0]
        budget = self.server.settings.client_queued
        if request.error is None and budget and self.server.queued(self.client) > budget:
            request.error = Unread(
                f"Your address has more than {budget / 2**20:g} MB of answers it has not read "
                "yet: read them before asking for more.")
        # after a request cut short or unreadable, the client may still be sending it
        self.linger_wanted = getattr(request, "cut", False) or (
            request.error is not None and not isinstance(request.error, Unread))
        super().service()

    def handle_read(self) -> None:
        if not self.lingering:
            super().handle_read()
            return
        assert self.socket is not None
        try:
            data = self.socket.recv(LINGER_READ)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        self.lingered += len(data)
        if data and self.lingered < self.server.settings.linger_bytes:
            self.last_activity = time.time()
            return
        self.close_now()

    def handle_close(self) -> None:
        # will_close with the output flushed: the close that follows an answer (an end of
        # input, a timeout or a socket error closes at once)
        if (self.linger_wanted and self.will_close and not self.lingering
                and not self.total_outbufs_len and self.socket is not None):
            try:
                self.socket.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            else:
                now = time.time()
                self.lingering = True
                self.will_close = self.close_when_flushed = False
                self.linger_until = now + self.server.settings.linger_seconds
                self.last_activity = now
                return
        self.close_now()

    def close_now(self) -> None:
        """Close the connection, lingering or not."""
        self.lingering = self.linger_wanted = False
        super().handle_close()

    def overdue(self, now: float, timeout: float) -> bool:
        """Whether the connection is to be closed now: a lingering one past its bounds, any
        other silent for ``timeout`` seconds with nothing running or an answer unsent."""
        if self.lingering:
            return now >= self.linger_until or self.last_activity < now - LINGER_SILENCE
        return (self.last_activity < now - timeout
                and (not self.requests or bool(self.total_outbufs_len)))


class Server(TcpWSGIServer):  # type: ignore[misc]
    """Waitress's server on one listening socket, with the bounds of ``settings`` (see the
    module)."""

    channel_class = Channel
    # waitress's attributes (untyped there)
    active_channels: dict[int, Channel]
    adj: Adjustments
    trigger: Any

    def __init__(self, application: Callable[..., Any], settings: Settings,
                 **kw: Any) -> None:
        self.settings = settings
        self.clients: Counter[str] = Counter()
        self.over_budget: frozenset[str] = frozenset()
        super().__init__(application, **kw)

    def readable(self) -> bool:
        # once a turn of the event loop, before the channels are asked whether they read
        budget = self.settings.client_queued
        if budget:
            queued: Counter[str] = Counter()
            for channel in self.active_channels.values():
                if channel.total_outbufs_len:
                    queued[channel.client] += channel.total_outbufs_len
            self.over_budget = frozenset(c for c, n in queued.items() if n > budget)
        return bool(super().readable())

    def queued(self, client: str) -> int:
        """The bytes of answers not yet sent to ``client`` (read from any thread)."""
        return sum(ch.total_outbufs_len for ch in list(self.active_channels.values())
                   if ch.client == client)

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:  # a peer gone before it was accepted (as waitress does)
            return
        addr = self.fix_addr(addr)
        limit = self.settings.client_connections
        if limit and self.clients[client_of(addr)] >= limit:
            refuse(conn, too_many(limit))
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def maintenance(self, now: float) -> None:
        """Close the connections that are overdue (``Channel.overdue``). Called while the
        event loop asks its sockets what they wait for, so the closing itself runs at the
        loop's next turn (a socket closed now would be polled closed)."""
        timeout = self.adj.channel_timeout
        if any(ch.overdue(now, timeout) for ch in self.active_channels.values()):
            self.trigger.pull_trigger(self.close_overdue)

    def close_overdue(self) -> None:
        """Close every overdue connection (run by the event loop)."""
        now = time.time()
        for channel in list(self.active_channels.values()):
            if channel.overdue(now, self.adj.channel_timeout):
                channel.close_now()


def make_server(app: Callable[..., Any], sock: Socket, settings: Settings,
                **adjustments: Any) -> Server:
    """The server of one process, serving ``app`` on the listening socket ``sock``
    (``adjustments``: waitress's settings)."""
    adj = Adjustments(sockets=[sock], cleanup_interval=1, **adjustments)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    return Server(app, settings, map={}, _sock=sock, dispatcher=dispatcher, adj=adj,
                  bind_socket=False,
                  sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()))
