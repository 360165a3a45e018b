"""The embedded Weaviate lifecycle against a real server (scanner.store.server, SPEC §7)."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from scanner.errors import ConfigurationError, DataDirectoryBusy, WeaviateUnavailable
from scanner.store import server

pytestmark = pytest.mark.integration


def _alive(pid: int) -> bool:
    """Whether ``ps`` still lists ``pid``."""
    return subprocess.run(["ps", "-p", str(pid)], capture_output=True).returncode == 0


def _lock_is_free(data_dir: Path) -> bool:
    fd = os.open(data_dir / server.LOCK_FILE_NAME, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def _spawn(code: str) -> subprocess.Popen[str]:
    """Run ``code`` in another Python process; it prints one line once it is set up."""
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    return proc


def _reap(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()
    assert proc.stdout is not None
    proc.stdout.close()


def test_server_is_ready_and_reports_the_pinned_version(weaviate_server):
    assert weaviate_server.is_ready()
    assert weaviate_server.get_meta()["version"] == server.WEAVIATE_VERSION == "1.39.0"


def test_data_survives_a_restart(tmp_path):
    port, grpc_port = server.free_ports()
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as client:
        client.collections.create("RestartProbe")
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as client:
        assert client.collections.exists("RestartProbe")


def test_second_connect_joins_the_owner_and_closing_it_keeps_the_server(tmp_path):
    port, grpc_port = server.free_ports()
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as owner:
        owner.collections.create("SharedProbe")
        (server_pid,) = server.server_pids(tmp_path)

        other_port, other_grpc = server.free_ports()  # ignored: the owner's ports win
        second = server.connect_embedded(tmp_path, port=other_port, grpc_port=other_grpc)
        assert second.collections.exists("SharedProbe")
        second.close()

        assert server.server_pids(tmp_path) == [server_pid]
        assert owner.is_ready()
        assert owner.collections.exists("SharedProbe")


def test_closing_the_owner_stops_its_server_and_releases_the_lock(tmp_path):
    port, grpc_port = server.free_ports()
    client = server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port)
    state = json.loads((tmp_path / server.STATE_FILE_NAME).read_text())
    assert state["pid"] == os.getpid()
    assert (state["port"], state["grpc_port"], state["version"]) == (port, grpc_port, "1.39.0")
    assert server.server_pids(tmp_path) == [state["server_pid"]]
    assert not _lock_is_free(tmp_path)

    client.close()

    assert not _alive(state["server_pid"])
    assert server.server_pids(tmp_path) == []
    assert _lock_is_free(tmp_path)
    assert not (tmp_path / server.STATE_FILE_NAME).exists()
    assert (tmp_path / server.LOG_FILE_NAME).exists()


def test_a_server_orphaned_by_a_killed_owner_is_stopped_on_the_next_start(tmp_path):
    port, grpc_port = server.free_ports()
    owner = _spawn(f"""
        import time
        from pathlib import Path
        from scanner.store import server
        client = server.connect_embedded(
            Path({str(tmp_path)!r}), port={port}, grpc_port={grpc_port}
        )
        client.collections.create("OrphanProbe")
        print("ready", flush=True)
        time.sleep(600)
    """)
    owner.send_signal(signal.SIGKILL)
    _reap(owner)
    (orphan,) = server.server_pids(tmp_path)  # the server outlives its killed parent

    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as client:
        assert not _alive(orphan)
        assert client.collections.exists("OrphanProbe")
    assert server.server_pids(tmp_path) == []


def test_a_live_owner_whose_server_does_not_answer_makes_the_dir_busy(tmp_path):
    silent_port, silent_grpc = server.free_ports()  # nothing listens there
    holder = _spawn(f"""
        import fcntl, json, os, time
        os.makedirs({str(tmp_path)!r}, exist_ok=True)
        fd = os.open({str(tmp_path / server.LOCK_FILE_NAME)!r}, os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_EX)
        with open({str(tmp_path / server.STATE_FILE_NAME)!r}, "w") as f:
            json.dump({{"pid": os.getpid(), "port": {silent_port}, "grpc_port": {silent_grpc}}}, f)
        print("ready", flush=True)
        time.sleep(600)
    """)
    try:
        started = time.monotonic()
        with pytest.raises(DataDirectoryBusy) as raised:
            server.connect_embedded(tmp_path, startup_timeout_s=1)
        assert raised.value.owner_pid == holder.pid
        assert time.monotonic() - started < 10
    finally:
        _reap(holder)


def test_a_port_taken_by_another_program_is_reported_and_the_lock_released(tmp_path):
    port, grpc_port = server.free_ports()
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        with pytest.raises(WeaviateUnavailable, match=f"port {port} ") as raised:
            server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port)
    assert not isinstance(raised.value, DataDirectoryBusy)
    assert _lock_is_free(tmp_path)
    assert not (tmp_path / server.STATE_FILE_NAME).exists()


def test_connect_url_reaches_a_running_server(tmp_path):
    port, grpc_port = server.free_ports()
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as owner:
        owner.collections.create("UrlProbe")
        with server.connect_url(f"http://127.0.0.1:{port}?grpc_port={grpc_port}") as client:
            assert client.collections.exists("UrlProbe")
        assert owner.is_ready()  # a URL client never stops the server


def test_connect_url_errors_are_one_line_scanner_errors():
    with pytest.raises(ConfigurationError):
        server.connect_url("localhost:8080")
    closed_port, closed_grpc = server.free_ports()
    with pytest.raises(WeaviateUnavailable):
        server.connect_url(f"http://127.0.0.1:{closed_port}?grpc_port={closed_grpc}")
