"""Run the HTTP sidecar under uvicorn with bounded request reads and a bounded shutdown.

Two guards that uvicorn 0.54 does not give on its own (issue 18, items 12 and 13):

* **Slow clients are cut off.** uvicorn's ``timeout_keep_alive`` only runs between requests
  (it is armed when a response completes); a client that connects and sends half a request
  line, or headers without the blank line, or a body slower than promised, holds its
  connection open for ever (a Slowloris attack). :func:`timed_protocol` adds two deadlines to
  uvicorn's httptools protocol, measured from the request's first byte (for the first request
  of a connection: from the connection itself) as Go's ``http.Server.ReadHeaderTimeout`` and
  ``ReadTimeout`` are, so trickling a byte at a time does not extend them (unlike nginx's
  ``client_header_timeout``, which is reset by every read): the request head must be complete
  within ``header_timeout_s``, the body within ``body_timeout_s`` after the head. Past either
  the client gets ``408 Request Timeout`` (RFC 9110 §15.5.9) when no response was started,
  and the connection is closed; the app sees a disconnect.
* **Shutdown is bounded.** On SIGTERM (or SIGINT) uvicorn stops accepting, waits up to
  ``shutdown_timeout_s`` for requests in flight (its ``timeout_graceful_shutdown``; without it
  uvicorn waits for ever), cancels the rest and runs the app's shutdown, after which the caller
  closes the store (which stops the embedded Weaviate). Worker threads still inside a store
  call, a batch scan the app waits for, or a Weaviate slow to stop could each still hold the
  process, so the first signal also arms a deadline: ``shutdown_timeout_s +``
  :data:`EXIT_GRACE_S` seconds later the process exits with ``os._exit`` whatever it is doing.
  The embedded Weaviate is then stopped by its watchdog (:mod:`scanner.store.lifecycle`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

DEFAULT_HEADER_TIMEOUT_S = 10.0
"""Seconds a client has to send a request line and headers. Apache's ``mod_reqtimeout``
allows 20-40 s by default on the open Internet; the sidecar's clients are agents on the same
host or network, whose requests arrive in one write."""
DEFAULT_BODY_TIMEOUT_S = 30.0
"""Seconds a client has to send a request body after its headers (2 MB, the default body
limit, in 30 s is ~70 kB/s)."""
DEFAULT_SHUTDOWN_TIMEOUT_S = 10.0
"""Seconds requests in flight get to finish after SIGTERM before they are cancelled (a
read-time scan takes tens of milliseconds; ``docs/benchmarks.md``)."""
EXIT_GRACE_S = 30.0
"""Seconds after the graceful shutdown window for the app's shutdown and closing the store
(stopping the embedded Weaviate takes ~1 s) before the process exits regardless."""

ANSWERED_STATUS = "contrascan.answered_status"
"""ASGI scope key the server sets when it answered the request itself (``408`` past a read
deadline), so that the request metrics count what the client received
(:class:`scanner.api.middleware.RequestMetrics`), not the status of an app that never
answered."""

_TIMEOUT_RESPONSE = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8"
                     b"\r\nconnection: close\r\ncontent-length: 22\r\n\r\nrequest not completed\n")


class _TimedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on reading each request (module doc)."""

    header_timeout_s = DEFAULT_HEADER_TIMEOUT_S
    body_timeout_s = DEFAULT_BODY_TIMEOUT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_deadline: asyncio.TimerHandle | None = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._read_deadline = self.loop.call_later(seconds, self._read_timed_out)

    def _disarm(self) -> None:
        if self._read_deadline is not None:
            self._read_deadline.cancel()
            self._read_deadline = None

    def _read_timed_out(self) -> None:
        self._read_deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete or not cycle.response_started:
            self.transport.write(_TIMEOUT_RESPONSE)
            if cycle is not None and not cycle.response_complete:
                cycle.scope[ANSWERED_STATUS] = 408  # the app's own answer never reaches it
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the app's receive() now answers http.disconnect
            cycle.message_event.set()
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_timeout_s)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._read_deadline is None:  # a later request on a kept-alive connection
            self._arm(self.header_timeout_s)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._arm(self.body_timeout_s)

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()


def timed_protocol(header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S,
                   body_timeout_s: float = DEFAULT_BODY_TIMEOUT_S) -> type[HttpToolsProtocol]:
    """uvicorn's httptools HTTP/1.1 protocol with read deadlines, for ``uvicorn.Config(http=)``.

    Args:
        header_timeout_s: seconds from a request's first byte (the connection, for its first
            request) until its headers must be complete.
        body_timeout_s: seconds from the end of the headers until the body must be complete.

    Returns:
        A protocol class; a request past a deadline gets ``408`` (when no response started)
        and its connection is closed.

    Raises:
        ValueError: a timeout is not positive.
    """
    if header_timeout_s <= 0 or body_timeout_s <= 0:
        raise ValueError("request read timeouts must be positive")
    return type("TimedHttpToolsProtocol", (_TimedHttpToolsProtocol,),
                {"header_timeout_s": header_timeout_s, "body_timeout_s": body_timeout_s})


class _BoundedServer(uvicorn.Server):
    """uvicorn's server whose first exit signal also arms a hard exit deadline."""

    def __init__(self, config: uvicorn.Config, exit_after_s: float) -> None:
        super().__init__(config)
        self._exit_after_s = exit_after_s
        self._deadline: threading.Timer | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._deadline is None:
            self._deadline = threading.Timer(self._exit_after_s, _exit_now,
                                             args=(sig, self._exit_after_s))
            self._deadline.daemon = True
            self._deadline.start()
        super().handle_exit(sig, frame)


def _exit_now(sig: int, waited_s: float) -> None:
    """The deadline passed: leave at once (exit status 128 + signal, as the signal would)."""
    with contextlib.suppress(OSError):
        os.write(2, f"contrascan serve: not stopped {waited_s:.0f} s after "
                    f"{signal.Signals(sig).name}; exiting now\n".encode())
    os._exit(128 + sig)


def run(app: Any, *, host: str, port: int, log_level: str = "info",
        header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S,
        body_timeout_s: float = DEFAULT_BODY_TIMEOUT_S,
        shutdown_timeout_s: float = DEFAULT_SHUTDOWN_TIMEOUT_S,
        exit_grace_s: float = EXIT_GRACE_S, **config: Any) -> None:
    """Serve ``app`` until SIGTERM or SIGINT, with the guards of the module docstring.

    Returns after a graceful shutdown (uvicorn then raises the caught signal again, as
    ``uvicorn.run`` does, so the caller's handler decides the exit status). If the process is
    still running ``shutdown_timeout_s + exit_grace_s`` seconds after the first signal, it
    exits with status ``128 + signal`` without further cleanup.

    Args:
        app: an ASGI app.
        host: interface to listen on.
        port: TCP port.
        log_level: uvicorn's log level.
        header_timeout_s: see :func:`timed_protocol`.
        body_timeout_s: see :func:`timed_protocol`.
        shutdown_timeout_s: uvicorn's ``timeout_graceful_shutdown``, seconds.
        exit_grace_s: seconds after that for the app's shutdown and the caller's cleanup.
        **config: further ``uvicorn.Config`` arguments.
    """
    server_config = uvicorn.Config(
        app, host=host, port=port, log_level=log_level,
        http=timed_protocol(header_timeout_s, body_timeout_s),
        timeout_graceful_shutdown=shutdown_timeout_s, **config)  # type: ignore[arg-type]
    server = _BoundedServer(server_config, exit_after_s=shutdown_timeout_s + exit_grace_s)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(3)  # as uvicorn.run does when start-up failed (e.g. the port is taken)
