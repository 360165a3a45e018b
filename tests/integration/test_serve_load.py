"""`contrascan serve` under abuse and load (issue 18, items 12-13), each against a real
`contrascan serve` process on its own embedded Weaviate: slow clients are cut off while others
are served; SIGTERM stops the sidecar and its Weaviate within a bound under load; after a
SIGKILL the Weaviate is not left running and the data dir is reused (a Weaviate whose
watchdog was killed too is reclaimed on the next start: tests/integration/test_server.py)."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest

from scanner.serving import EXIT_GRACE_S
from scanner.store import lifecycle, server
from scanner.store.memories import MemoryStore
from tests.integration.serve_process import running_serve

pytestmark = pytest.mark.integration

HEADER_TIMEOUT_S = 2.0
BODY_TIMEOUT_S = 2.0
SHUTDOWN_TIMEOUT_S = 5.0


class Sidecar:
    """A running `contrascan serve` process and what the tests read from it."""

    def __init__(self, proc: subprocess.Popen[bytes], port: int, data_dir: Path, log: Path):
        self.proc, self.port, self.data_dir, self.log = proc, port, data_dir, log
        self.url = f"http://127.0.0.1:{port}"

    def state(self) -> dict:
        return json.loads((self.data_dir / server.STATE_FILE_NAME).read_text())


@contextmanager
def sidecar(tmp_path: Path) -> Iterator[Sidecar]:
    with running_serve(tmp_path, "--header-timeout", str(HEADER_TIMEOUT_S),
                       "--body-timeout", str(BODY_TIMEOUT_S),
                       "--shutdown-timeout", str(SHUTDOWN_TIMEOUT_S),
                       ready_within_s=300) as serve:
        yield Sidecar(serve.proc, serve.http_port, serve.data_dir, serve.log)


def _healthy(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def _wait_gone(pid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while _running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _closed_by_server(conn: socket.socket, timeout_s: float) -> bytes:
    """Everything the server sends until it closes the connection; fails the test if it is
    still open after ``timeout_s`` seconds."""
    conn.settimeout(timeout_s)
    received = b""
    try:
        while chunk := conn.recv(4096):
            received += chunk
    except socket.timeout:
        pytest.fail(f"the server kept the connection open for {timeout_s} s: {received!r}")
    except ConnectionResetError:
        pass
    return received


def _read_response(conn: socket.socket) -> bytes:
    """One whole response (head and a ``content-length`` body) from a kept-alive connection."""
    conn.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += conn.recv(4096)
    return head


def _slow_head(port: int) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: sidecar\r\nX-Slow: ")  # never finished
    return conn


def _slow_body(port: int) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(b"POST /v1/scan HTTP/1.1\r\nHost: sidecar\r\ncontent-type: application/json"
                 b"\r\ncontent-length: 1000\r\n\r\n{\"user_id\": ")  # 12 of 1000 bytes
    return conn


# --------------------------------------------------------------------------- slow clients


def test_slow_clients_are_cut_off_while_others_are_served(tmp_path):
    with sidecar(tmp_path) as running, ExitStack() as sockets:
        heads = [sockets.enter_context(_slow_head(running.port)) for _ in range(10)]
        bodies = [sockets.enter_context(_slow_body(running.port)) for _ in range(10)]
        trickle = sockets.enter_context(socket.create_connection(("127.0.0.1", running.port)))
        trickle.sendall(b"GET /healthz HTTP/1.1\r\n")
        started = time.monotonic()
        # served while the slow connections are open (slow bodies hold no place in flight)
        with httpx.Client(base_url=running.url, timeout=5) as http:
            assert http.get("/healthz").status_code == 200
            assert http.post("/v1/scan", json={"user_id": "u1", "query": "glaze"}
                             ).status_code == 200
        # a byte every 0.5 s does not extend the header deadline
        while time.monotonic() - started < HEADER_TIMEOUT_S + 1:
            try:
                trickle.sendall(b"X")
            except OSError:
                break
            time.sleep(0.5)
        bound = HEADER_TIMEOUT_S + 10
        for conn in heads:
            assert _closed_by_server(conn, bound).startswith(b"HTTP/1.1 408 ")
        for conn in bodies:
            assert _closed_by_server(conn, bound).startswith(b"HTTP/1.1 408 ")
        assert _closed_by_server(trickle, bound).startswith(b"HTTP/1.1 408 ")
        with httpx.Client(base_url=running.url, timeout=5) as http:
            assert http.get("/healthz").status_code == 200
        # a kept-alive connection gets a fresh deadline per request
        with socket.create_connection(("127.0.0.1", running.port)) as conn:
            for _ in range(3):  # each request well within its deadline, together beyond it
                time.sleep(HEADER_TIMEOUT_S * 0.6)
                conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: sidecar\r\n\r\n")
                assert _read_response(conn).startswith(b"HTTP/1.1 200 ")
        # the metrics count what the clients received: 408s, never a 500 (issue 38, item 5)
        time.sleep(1.5)  # past the exposition's cache
        with httpx.Client(base_url=running.url, timeout=5) as http:
            exposition = http.get("/metrics").text
        counted = [line for line in exposition.splitlines()
                   if line.startswith("contrascan_http_request_duration_seconds_count")]
        assert any('status="408"' in line for line in counted), counted
        assert not any('status="500"' in line for line in counted), counted


# --------------------------------------------------------------------------- SIGTERM, SIGKILL


def test_sigterm_under_load_stops_the_sidecar_and_its_weaviate_within_the_bound(tmp_path):
    with sidecar(tmp_path) as running:
        records = [{"id": f"m{i}", "text": f"On rack {i % 5} the preferred glaze is "
                    f"{['celadon', 'tenmoku', 'shino'][i % 3]}.", "user_id": "potter-1",
                    "source": "chat", "observed_at": f"2026-03-{1 + i % 28:02d}T10:00:00Z",
                    "epoch": "v1"} for i in range(60)]
        answer = httpx.post(running.url + "/v1/memories", timeout=120,
                            json={"user_id": "potter-1", "records": records, "check": True})
        assert answer.status_code == 200, answer.text
        weaviate_pid, watchdog_pid = running.state()["server_pid"], running.state()["watchdog_pid"]

        stop = threading.Event()
        answered: list[int] = []

        def scrape() -> None:
            with httpx.Client(base_url=running.url, timeout=30) as http:
                while not stop.is_set():
                    try:
                        answered.append(http.get("/metrics").status_code)
                    except httpx.HTTPError:
                        return

        def scan() -> None:
            with httpx.Client(base_url=running.url, timeout=30) as http:
                while not stop.is_set():
                    try:
                        answered.append(http.post("/v1/scan", json={
                            "user_id": "potter-1", "query": "preferred glaze on rack 3",
                            "apply": True}).status_code)
                    except httpx.HTTPError:
                        return

        load = [threading.Thread(target=scrape) for _ in range(42)]
        load += [threading.Thread(target=scan) for _ in range(20)]
        slow = [_slow_body(running.port) for _ in range(5)]
        for t in load:
            t.start()
        try:
            time.sleep(5)
            assert 200 in answered
            signalled = time.monotonic()
            running.proc.send_signal(signal.SIGTERM)
            bound = SHUTDOWN_TIMEOUT_S + EXIT_GRACE_S + 10
            try:
                code = running.proc.wait(timeout=bound)
            except subprocess.TimeoutExpired:
                pytest.fail(f"contrascan serve still running {bound} s after SIGTERM")
            waited = time.monotonic() - signalled
        finally:
            stop.set()
            for t in load:
                t.join(timeout=60)
            for conn in slow:
                conn.close()
        assert code == 128 + signal.SIGTERM
        assert _wait_gone(weaviate_pid, lifecycle.KILL_WAIT_S + 35), "Weaviate left running"
        assert _wait_gone(watchdog_pid, 10)
        assert server.server_pids(running.data_dir) == []
        print(f"stopped {waited:.1f} s after SIGTERM under load")


def test_after_sigkill_of_the_sidecar_its_weaviate_stops_and_the_data_dir_is_reusable(
        tmp_path):
    with sidecar(tmp_path) as running:
        weaviate_pid = running.state()["server_pid"]
        assert httpx.post(running.url + "/v1/memories", timeout=60, json={
            "user_id": "potter-1", "records": [{"id": "m1", "text": "The glaze is celadon.",
                                                "user_id": "potter-1"}]}).status_code == 200
        running.proc.send_signal(signal.SIGKILL)
        running.proc.wait()
        assert _wait_gone(weaviate_pid, 60), "Weaviate orphaned by the killed sidecar"
        assert server.server_pids(running.data_dir) == []
    port, grpc_port = server.free_ports()
    with server.connect_embedded(running.data_dir, port=port, grpc_port=grpc_port) as client:
        assert MemoryStore(client).count("potter-1") == 1  # nothing lost


def test_the_watchdog_names_the_servers_lock_and_state_files():
    assert lifecycle.GUESTS_LOCK_FILE_NAME == server.GUESTS_LOCK_FILE_NAME
    assert lifecycle.STATE_FILE_NAME == server.STATE_FILE_NAME
