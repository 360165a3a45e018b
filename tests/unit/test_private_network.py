"""The launcher of scanner.store.private_network, around a stand-in server (no Weaviate): it
forwards the REST and gRPC ports from the host's loopback into a network namespace where
every other port of the server stays out of reach, passes SIGTERM on, and where no namespace
can be made it says why and runs the server in the host's network."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from scanner.store import private_network
from scanner.store.processes import free_ports

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="network namespaces are Linux only")

LAUNCHER = Path(private_network.__file__)

STAND_IN = """
import os, signal, socket, sys, threading
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # taken by sigwait below
args = sys.argv[1:]
port = int(args[args.index("--port") + 1])
me = os.readlink("/proc/self/ns/net").encode()

def serve(listener):
    while True:
        conn, _ = listener.accept()
        conn.sendall(me + b"\\n")
        threading.Thread(target=echo, args=(conn,), daemon=True).start()

def echo(conn):
    while data := conn.recv(4096):
        conn.sendall(data)
    conn.close()

for p in (port, int(os.environ["GRPC_PORT"]), port - 1):  # REST, gRPC, a cluster port
    s = socket.create_server(("127.0.0.1", p))
    threading.Thread(target=serve, args=(s,), daemon=True).start()
signal.sigwait({signal.SIGTERM})
print("stand-in stopped", flush=True)
"""


@pytest.fixture()
def stand_in(tmp_path: Path) -> Path:
    """An executable that listens like the server: ``--port``, ``GRPC_PORT`` and
    ``--port - 1``, greeting each connection with its network namespace, then echoing."""
    (tmp_path / "stand_in.py").write_text(STAND_IN)
    binary = tmp_path / "weaviate-stand-in"
    binary.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -I -S "
                      f"{shlex.quote(str(tmp_path / 'stand_in.py'))} \"$@\"\n")
    binary.chmod(0o755)
    return binary


@contextmanager
def launched(command: list[str], port: int, grpc_port: int) -> Iterator[subprocess.Popen]:
    proc = subprocess.Popen(command, env={**os.environ, "GRPC_PORT": str(grpc_port)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while _greeting(port) is None:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def _greeting(port: int) -> bytes | None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            line = conn.makefile("rb").readline().strip()
            return line or None
    except OSError:
        return None


def _echo(port: int, payload: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        reader = conn.makefile("rb")
        reader.readline()
        conn.sendall(payload)
        conn.shutdown(socket.SHUT_WR)
        return reader.read()


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        return False
    except ConnectionRefusedError:
        return True


def test_only_rest_and_grpc_reach_the_server_and_sigterm_stops_it(stand_in):
    port, grpc_port = free_ports()
    command = [sys.executable, "-I", "-S", str(LAUNCHER), str(stand_in), "--host", "127.0.0.1",
               "--port", str(port)]
    with launched(command, port, grpc_port) as proc:
        inside = _greeting(port)
        if inside == os.readlink("/proc/self/ns/net").encode():
            pytest.skip(f"no network namespace here: {proc.stderr.readline().strip()}")
        assert _greeting(grpc_port) == inside  # the same server, in its own namespace
        assert _refused(port - 1)  # its cluster port is not on the host's loopback
        payload = os.urandom(3 * 1024 * 1024)  # larger than the copy buffer
        assert _echo(port, payload) == payload
        held = [socket.create_connection(("127.0.0.1", grpc_port)) for _ in range(20)]
        answers: list[bytes] = []
        pumps = [threading.Thread(target=lambda: answers.append(_echo(port, b"x" * 1000)))
                 for _ in range(20)]
        for t in pumps:
            t.start()
        for t in pumps:
            t.join()
        assert answers == [b"x" * 1000] * 20
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)  # with forwarding threads running
        assert proc.wait(timeout=20) == 0
        assert time.monotonic() - started < 10
        assert "stand-in stopped" in proc.stdout.read()
        for conn in held:
            conn.close()
    assert _refused(port) and _refused(grpc_port)


@pytest.mark.skipif(os.geteuid() != 0 or not (shutil.which("unshare") and shutil.which("setpriv")),
                    reason="needs root, unshare(1) and setpriv(1) to take namespaces away")
def test_without_namespaces_it_says_why_and_runs_the_server_in_the_hosts_network(stand_in):
    port, grpc_port = free_ports()
    # a user namespace whose root has no capabilities and may make no user namespaces: as an
    # unprivileged user where user.max_user_namespaces is 0
    denied = ("echo 0 > /proc/sys/user/max_user_namespaces && "
              'exec setpriv --bounding-set=-all --inh-caps=-all "$@"')
    command = ["unshare", "--user", "--map-root-user", "sh", "-c", denied, "sh",
               sys.executable, "-I", "-S", str(LAUNCHER), str(stand_in), "--host", "127.0.0.1",
               "--port", str(port)]
    with launched(command, port, grpc_port) as proc:
        assert _greeting(port) == os.readlink("/proc/self/ns/net").encode()
        assert not _refused(port - 1)  # the server's own listeners, on the host
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        warning = proc.stderr.read()
    assert warning.startswith(private_network.WARNING_PREFIX), warning
    assert "unshare(CLONE_NEWUSER|CLONE_NEWNET)" in warning, warning
