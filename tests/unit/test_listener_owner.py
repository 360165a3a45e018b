"""The store's key is sent only to a port our server holds (scanner.store.processes.listens_on):
another local user who binds the port between the ports check and the server's own bind
would otherwise receive the key."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

from scanner.store.processes import free_port, listens_on


def test_a_port_this_process_listens_on_is_ours():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        assert listens_on(sock.getsockname()[1], {os.getpid()})


def test_a_port_another_process_listens_on_is_not_ours():
    port = free_port()
    squatter = subprocess.Popen([sys.executable, "-c", (
        "import socket, time; s = socket.socket(); "
        f"s.bind(('127.0.0.1', {port})); s.listen(); time.sleep(60)")])
    try:
        deadline = time.monotonic() + 10
        while not listens_on(port, {squatter.pid}):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert not listens_on(port, {os.getpid()})
    finally:
        squatter.kill()
        squatter.wait()
    assert not listens_on(port, {os.getpid()})  # nobody listens: not ours either
