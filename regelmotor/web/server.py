"""Serving the card table so that no client can hold the server: every request's headers within a bound.

uvicorn closes an idle kept-alive connection, but a connection that sends its request headers a
byte at a time (or never) is kept for ever: fifty such clients hold fifty connections and, with
``limit_concurrency``, every slot. Here a connection has ``HEADER_SECONDS`` from its start (and from
the end of each response) to send a whole request head; a body has ``BODY_SECONDS``
(``app.read_json``); the server answers at most ``MAX_CONNECTIONS`` connections at once (503 beyond).
"""

from __future__ import annotations

import asyncio
import errno
import os
import secrets
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from regelmotor.errors import RegelmotorError

HEADER_SECONDS = 10.0
"""A request head is a few hundred bytes: ten seconds is generous on the slowest phone line."""
MAX_CONNECTIONS = 200
SHUTDOWN_SECONDS = 3
"""On Ctrl-C, how long the server waits for open connections (each page following a table holds one)."""


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request head."""

    header_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._seen_cycle: object = None
        self._head_deadline: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._seen_cycle = self.cycle
        self._head_deadline = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not self._seen_cycle:  # a whole request head arrived
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._head_deadline = None
        if self.cycle is self._seen_cycle and not self.transport.is_closing():
            self.transport.close()


class ServeError(RegelmotorError):
    """The server cannot start where it was asked to (said before it says its address)."""


def bind(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound before the address is printed: a port in use (another
    ``serve``) or one the user may not take is said in Danish, not as uvicorn's English and exit 3."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise ServeError.said("serve_host", host=host) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        if os.name != "nt":  # as uvicorn does: a restart may take the port its last run left in TIME_WAIT
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeError.said("serve_port_in_use", port=port, other=port + 1) from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise ServeError.said("serve_port_denied", port=port) from None
        raise ServeError.said("serve_cannot", host=host, port=port, reason=exc.strerror or str(exc)) from None
    sock.set_inheritable(True)
    return sock


def admin_secret() -> str:
    """The secret of the club's admin link, as a seat's (``tables.SECRET``): only it saves the club's file."""
    return secrets.token_urlsafe(16)


def admin_link(host: str, port: int, secret: str) -> str:
    """The club's admin link, as ``serve`` prints it: ``http://HOST:PORT/klub?admin=SECRET``."""
    return f"http://{host}:{port}/klub?admin={secret}"


def serve(app: Any, listening: socket.socket) -> None:
    """The app served on a socket ``bind`` made."""
    config = uvicorn.Config(
        app,
        log_level="warning",
        http=TimedH11Protocol,
        limit_concurrency=MAX_CONNECTIONS,
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,  # a table's pushed pages never end by themselves
    )
    uvicorn.Server(config).run(sockets=[listening])


__all__ = [
    "HEADER_SECONDS",
    "MAX_CONNECTIONS",
    "ServeError",
    "TimedH11Protocol",
    "admin_link",
    "admin_secret",
    "bind",
    "serve",
]
