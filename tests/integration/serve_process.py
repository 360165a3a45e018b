"""A real `contrascan serve` started by a test on its own embedded Weaviate, waited for until
its /healthz answers 200, and stopped with every server it started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from scanner.store import server


@dataclass(frozen=True)
class Serve:
    """The serve process, its HTTP port, its embedded Weaviate's REST port, its data folder
    and the file its output goes to."""

    proc: subprocess.Popen[bytes]
    http_port: int
    weaviate_port: int
    data_dir: Path
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"


def healthy(url: str) -> bool:
    """Whether ``url``'s /healthz answers 200."""
    try:
        return httpx.get(url + "/healthz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def running_serve(tmp_path: Path, *args: str, ready_within_s: float = 600,
                  stop_grace_s: float | None = None) -> Iterator[Serve]:
    """``contrascan serve`` with ``args`` besides its ports and data folder (under
    ``tmp_path``), no API key, log level warning.

    Args:
        ready_within_s: seconds to wait for /healthz 200; a test fails past them, or when
            the process exits, with the server's output.
        stop_grace_s: seconds a SIGTERM has to end the process at the end; None = SIGKILL.
    """
    data_dir, log = tmp_path / "data", tmp_path / "serve.log"
    port, grpc_port = server.free_ports()
    http_port = server.free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("CONTRASCAN_API_KEY", None)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "scanner.cli", "serve", "--port", str(http_port),
             "--data-dir", str(data_dir), "--weaviate-port", str(port),
             "--weaviate-grpc-port", str(grpc_port), "--log-level", "warning", *args],
            stdout=out, stderr=subprocess.STDOUT, env=env)
    running = Serve(proc, http_port, port, data_dir, log)
    try:
        deadline = time.monotonic() + ready_within_s
        while not healthy(running.url):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "contrascan serve did not become ready"
            time.sleep(0.5)
        yield running
    finally:
        if proc.poll() is None:
            if stop_grace_s is None:
                proc.kill()
            else:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=stop_grace_s)
                except subprocess.TimeoutExpired:
                    proc.kill()
            proc.wait()
        for pid in server.server_pids(data_dir):  # never leave a server behind a failed test
            os.kill(pid, signal.SIGKILL)


@contextmanager
def app_in_thread(app) -> Iterator[str]:
    """``app`` under uvicorn on a free loopback port, in a thread (as ``contrascan serve``
    runs it), until the block ends; yields its base URL."""
    import threading

    import uvicorn

    port = server.free_port()
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws="none",
                                            lifespan="on", log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not running.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(timeout=30)

