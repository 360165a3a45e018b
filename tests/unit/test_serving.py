"""Request read deadlines of the sidecar's HTTP server (scanner.serving, issue 18 item 13),
on a real uvicorn server in a thread with a small ASGI app; the same against
`contrascan serve`: tests/integration/test_serve_load.py."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

from scanner.serving import ANSWERED_STATUS, timed_protocol

HEADER_S, BODY_S = 0.5, 0.5


async def echo_length(scope, receive, send):
    """Answers 200 with the body's length, or records a disconnect."""
    if scope["type"] != "http":
        return
    size, more = 0, True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            DISCONNECTS.append(scope["path"])
            ANSWERED[scope["path"]] = scope.get(ANSWERED_STATUS)
            return
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    body = str(size).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


DISCONNECTS: list[str] = []
ANSWERED: dict[str, int | None] = {}


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(echo_length, host="127.0.0.1", port=free,
                                           http=timed_protocol(HEADER_S, BODY_S),
                                           lifespan="off", log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive()
        time.sleep(0.05)
    yield free
    server.should_exit = True
    thread.join(timeout=30)


def _until_closed(conn: socket.socket, timeout_s: float = 10.0) -> bytes:
    conn.settimeout(timeout_s)
    data = b""
    try:
        while chunk := conn.recv(4096):
            data += chunk
    except socket.timeout:
        pytest.fail(f"connection still open after {timeout_s} s: {data!r}")
    return data


def _head_and_body(conn: socket.socket) -> tuple[bytes, bytes]:
    conn.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += conn.recv(4096)
    return head, body


def test_unfinished_headers_get_408_and_a_closed_connection(port):
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        assert _until_closed(conn).startswith(b"HTTP/1.1 408 Request Timeout\r\n")


def test_a_connection_that_sends_nothing_is_closed(port):
    with socket.create_connection(("127.0.0.1", port)) as conn:
        assert _until_closed(conn).startswith(b"HTTP/1.1 408 ")


def test_trickled_headers_do_not_extend_the_deadline(port):
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\n")
        started = time.monotonic()
        try:
            while time.monotonic() - started < 4 * HEADER_S:
                conn.sendall(b"X")  # one header byte every tenth of the deadline
                time.sleep(HEADER_S / 10)
        except OSError:
            pass  # closed while trickling
        assert _until_closed(conn).startswith(b"HTTP/1.1 408 ")


def test_an_unfinished_body_gets_408_and_the_app_sees_a_disconnect(port):
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(b"POST /slow-body HTTP/1.1\r\nHost: x\r\ncontent-length: 100\r\n\r\nabc")
        assert _until_closed(conn).startswith(b"HTTP/1.1 408 ")
    deadline = time.monotonic() + 5
    while "/slow-body" not in DISCONNECTS and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "/slow-body" in DISCONNECTS
    assert ANSWERED["/slow-body"] == 408  # what the client received, for the metrics


def test_complete_requests_on_a_kept_alive_connection_each_get_a_fresh_deadline(port):
    with socket.create_connection(("127.0.0.1", port)) as conn:
        for _ in range(4):  # together well past one deadline
            time.sleep(HEADER_S * 0.6)
            conn.sendall(b"POST / HTTP/1.1\r\nHost: x\r\ncontent-length: 5\r\n\r\nhello")
            head, body = _head_and_body(conn)
            assert head.startswith(b"HTTP/1.1 200 ") and body == b"5"


def test_timeouts_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        timed_protocol(0, 1)


def test_the_request_metrics_count_the_servers_own_answer():
    """A request the server cut off (408) is counted as the 408 the client received, never
    as a 500 of an app that did not answer (issue 38, item 5)."""
    import asyncio

    from scanner.api.middleware import RequestMetrics
    from scanner.metrics import SidecarMetrics

    async def gone(scope, receive, send):
        await receive()  # the server answered 408 and the app sees a disconnect

    metrics = SidecarMetrics()
    scope = {"type": "http", "method": "POST", "path": "/v1/scan", ANSWERED_STATUS: 408}

    async def receive():
        return {"type": "http.disconnect"}

    async def send(message):
        raise AssertionError("nothing is sent after the server answered")

    asyncio.run(RequestMetrics(gone, metrics)(scope, receive, send))
    statuses = {s.labels["status"] for m in metrics.requests.collect() for s in m.samples
                if s.name.endswith("_count")}
    assert statuses == {"408"}
