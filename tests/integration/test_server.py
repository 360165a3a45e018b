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

import numpy as np
import pytest
from click.testing import CliRunner

from scanner.cli import main
from scanner.errors import ConfigurationError, DataDirectoryBusy, WeaviateUnavailable
from scanner.models import Conflict, ConflictKey, MemoryRecord
from scanner.store import server
from scanner.store.memories import STATUS_SUPERSEDED, MemoryStore, object_uuid

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
    # its watchdog (scanner.store.lifecycle) would stop the server: kill it first
    watchdog = json.loads((tmp_path / server.STATE_FILE_NAME).read_text())["watchdog_pid"]
    os.kill(watchdog, signal.SIGKILL)
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


def test_connect_url_reaches_a_running_server(tmp_path, monkeypatch):
    port, grpc_port = server.free_ports()
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as owner:
        owner.collections.create("UrlProbe")
        # the embedded server accepts only its own key (scanner.store.access)
        monkeypatch.setenv(server.API_KEY_ENV,
                           (tmp_path / ".contrascan-weaviate.key").read_text().strip())
        with server.connect_url(f"http://127.0.0.1:{port}?grpc_port={grpc_port}") as client:
            assert client.collections.exists("UrlProbe")
        assert owner.is_ready()  # a URL client never stops the server


def test_connect_url_errors_are_one_line_scanner_errors():
    with pytest.raises(ConfigurationError):
        server.connect_url("localhost:8080")
    closed_port, closed_grpc = server.free_ports()
    with pytest.raises(WeaviateUnavailable):
        server.connect_url(f"http://127.0.0.1:{closed_port}?grpc_port={closed_grpc}")


# --------------------------------------------------------------------------- guests


_IMPORTER = """
        import os, time
        from pathlib import Path
        import numpy as np
        from scanner.models import MemoryRecord
        from scanner.store import server
        from scanner.store.memories import MemoryStore
"""  # indented as the snippets of the tests below, which textwrap.dedent together


def test_closing_the_owner_waits_for_a_guest_process_to_finish(tmp_path):
    port, grpc_port = server.free_ports()
    said: list[str] = []
    owner = server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port, log=said.append)
    guest = _spawn(_IMPORTER + f"""
        client = server.connect_embedded(Path({str(tmp_path)!r}))
        store = MemoryStore(client, "GuestProbe")
        store.ensure_schema()
        print("ready", flush=True)
        written = 0
        for batch in range(4):  # over 4 s of work, all of it after the owner starts closing
            time.sleep(1.0)
            records = [MemoryRecord(id=f"g{{batch}}-{{i}}", text=f"fact {{batch}} {{i}}",
                                    user_id="guest-user") for i in range(10)]
            written += store.import_memories(records, [[] for _ in records],
                                             np.ones((10, 8), dtype=np.float32)).written
        client.close()
        print("written", written, flush=True)
    """)
    try:
        started = time.monotonic()
        owner.close()  # returns once the guest is done
        waited = time.monotonic() - started
        out, _ = guest.communicate(timeout=120)
    finally:
        _reap(guest)

    assert guest.returncode == 0
    assert out.split() == ["written", "40"]
    assert waited > 2
    assert any(line.startswith("waiting for 1 other contrascan process(es) using this Weaviate")
               and str(guest.pid) in line for line in said), said
    assert server.server_pids(tmp_path) == []
    assert _lock_is_free(tmp_path)
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as client:
        assert MemoryStore(client, "GuestProbe").count("guest-user") == 40
    assert server.server_pids(tmp_path) == []


def test_the_owner_stops_the_server_anyway_after_the_guest_wait(tmp_path):
    port, grpc_port = server.free_ports()
    said: list[str] = []
    owner = server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port, guest_wait_s=1,
                                    log=said.append)
    guest = _spawn(f"""
        import time
        from pathlib import Path
        from scanner.store import server
        client = server.connect_embedded(Path({str(tmp_path)!r}))
        print("ready", flush=True)
        time.sleep(600)
    """)
    try:
        started = time.monotonic()
        owner.close()
        assert time.monotonic() - started < 30
        assert server.server_pids(tmp_path) == []
        assert said[-1] == ("1 other contrascan process(es) still using this Weaviate after 1 s; "
                            "stopping it anyway")
    finally:
        _reap(guest)


def test_a_guest_that_closed_or_died_does_not_hold_the_owner(tmp_path):
    port, grpc_port = server.free_ports()
    said: list[str] = []
    owner = server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port, log=said.append)
    guest = _spawn(f"""
        import time
        from pathlib import Path
        from scanner.store import server
        client = server.connect_embedded(Path({str(tmp_path)!r}))
        print("ready", flush=True)
        time.sleep(600)
    """)
    guest.send_signal(signal.SIGKILL)
    _reap(guest)
    in_process_guest = server.connect_embedded(tmp_path)  # the owner's own process: no wait
    started = time.monotonic()
    owner.close()
    assert time.monotonic() - started < 15
    assert not any("waiting" in line for line in said)
    assert server.server_pids(tmp_path) == []
    in_process_guest.close()


# --------------------------------------------------------------------------- concurrent imports


def _import_twice_at_once(data_dir: Path, go: Path, n: int) -> list[list[int]]:
    """Run two processes that import the same ``n`` records into ``ImportRace`` at the same
    moment; their ``[written, unchanged, failed]``."""
    code = _IMPORTER + f"""
        client = server.connect_embedded(Path({str(data_dir)!r}))
        store = MemoryStore(client, "ImportRace")
        records = [MemoryRecord(id=f"m{{i}}", text=f"fact number {{i}}", user_id="racer")
                   for i in range({n})]
        vectors = np.ones(({n}, 8), dtype=np.float32)
        print("ready", flush=True)
        while not os.path.exists({str(go)!r}):
            time.sleep(0.005)
        result = store.import_memories(records, [[] for _ in records], vectors, batch_size=20)
        client.close()
        print(result.written, result.unchanged, len(result.failures), flush=True)
    """
    procs = [_spawn(code), _spawn(code)]
    try:
        go.touch()
        outs = [proc.communicate(timeout=300)[0] for proc in procs]
    finally:
        for proc in procs:
            _reap(proc)
    go.unlink()
    assert [proc.returncode for proc in procs] == [0, 0]
    return [[int(x) for x in out.split()] for out in outs]


def test_two_processes_importing_the_same_ids_write_each_id_once(tmp_path):
    data_dir, go, n = tmp_path / "data", tmp_path / "go", 60
    port, grpc_port = server.free_ports()
    with server.connect_embedded(data_dir, port=port, grpc_port=grpc_port) as owner:
        store = MemoryStore(owner, "ImportRace")
        store.ensure_schema()

        counts = _import_twice_at_once(data_dir, go, n)
        assert sum(c[0] for c in counts) == n  # written
        assert sum(c[1] for c in counts) == n  # unchanged
        assert sum(c[2] for c in counts) == 0  # failed
        assert store.count("racer") == n

        key = ConflictKey(user_id="racer", subject="fact", relation="number")
        store.apply_conflicts("racer", [Conflict(
            key=key, kind="value_mismatch", members=["m0", "m1"],
            values={"m0": "0", "m1": "1"}, verdict="resolved", winner="m1",
            superseded=["m0"], rule="recency")])

        counts = _import_twice_at_once(data_dir, go, n)
        assert counts == [[0, n, 0], [0, n, 0]]
        loser, winner = store.get("racer", "m0"), store.get("racer", "m1")
        assert (loser.status, loser.retired_rule) == (STATUS_SUPERSEDED, "recency")
        assert winner.supersedes == [object_uuid("racer", "m0")]
        assert store.count("racer") == n


# --------------------------------------------------------------------------- store errors


def test_a_port_of_another_data_dirs_server_is_named_with_that_dir(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    port, grpc_port = server.free_ports()
    _, other_grpc = server.free_ports()
    with server.connect_embedded(first, port=port, grpc_port=grpc_port):
        with pytest.raises(WeaviateUnavailable) as raised:
            server.connect_embedded(second, port=port, grpc_port=other_grpc)
    assert str(raised.value).startswith(
        f"port {port} (REST of the embedded Weaviate) is in use by the embedded Weaviate of "
        f"another contrascan data directory, {first}, started by process {os.getpid()} (")
    assert f"--data-dir {first} to share that server" in str(raised.value)
    assert not isinstance(raised.value, DataDirectoryBusy)
    assert _lock_is_free(second)


def test_a_server_that_went_away_is_weaviate_unavailable_not_a_client_error(tmp_path,
                                                                            monkeypatch):
    port, grpc_port = server.free_ports()
    owner = server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port)
    monkeypatch.setenv(server.API_KEY_ENV,
                       (tmp_path / ".contrascan-weaviate.key").read_text().strip())
    try:
        client = server.connect_url(f"http://127.0.0.1:{port}?grpc_port={grpc_port}")
        store = MemoryStore(client, "GoneProbe")
        store.ensure_schema()
    finally:
        owner.close()  # a URL client is no guest: the server stops
    try:
        with pytest.raises(WeaviateUnavailable) as raised:  # REST: httpx.ConnectError inside
            store.import_memories([MemoryRecord(id="m1", text="a fact", user_id="new-user")],
                                  [[]], np.ones((1, 8), dtype=np.float32))
        assert str(raised.value) == (f"cannot reach Weaviate at http://127.0.0.1:{port} "
                                     "(connection refused)")
        assert "\n" not in str(raised.value)
    finally:
        client.close()


# --------------------------------------------------------------------------- CLI: ports, errors


def _cli(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


def _one_error_line(result) -> str:
    """The single ``contrascan: …`` line a failed command printed (no traceback)."""
    assert result.exit_code == 1, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("contrascan: ")
    return line


def test_a_second_data_dir_runs_its_own_server_on_the_ports_given(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    port, grpc_port = server.free_ports()
    with socket.socket() as squatter, \
            server.connect_embedded(first, port=port, grpc_port=grpc_port):
        try:  # keep the defaults (8079, 8074) from the command: only --port can make it work
            squatter.bind(("127.0.0.1", server.DEFAULT_PORT))
            squatter.listen()
        except OSError:
            pass  # taken already, which does as well
        other_port, other_grpc = server.free_ports()
        result = _cli("batch-scan", "--json", "--data-dir", str(second),
                      "--port", str(other_port), "--grpc-port", str(other_grpc))
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["scanned"] == 0
        env = {"CONTRASCAN_PORT": str(other_port), "CONTRASCAN_GRPC_PORT": str(other_grpc)}
        assert _cli("batch-scan", "--json", "--data-dir", str(second), env=env).exit_code == 0
    assert server.server_pids(first) == server.server_pids(second) == []


def test_the_cli_names_the_data_dir_whose_server_holds_a_port(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    port, grpc_port = server.free_ports()
    other_port, other_grpc = server.free_ports()
    with server.connect_embedded(first, port=port, grpc_port=grpc_port):
        line = _one_error_line(_cli("batch-scan", "--data-dir", str(second), "--port", str(port),
                                    "--grpc-port", str(other_grpc)))
        assert f"port {port} (REST of the embedded Weaviate) is in use by the embedded " \
               f"Weaviate of another contrascan data directory, {first}" in line
        env = {"CONTRASCAN_PORT": str(other_port), "CONTRASCAN_GRPC_PORT": str(grpc_port)}
        line = _one_error_line(_cli("batch-scan", "--data-dir", str(second), env=env))
        assert f"port {grpc_port} (gRPC of the embedded Weaviate) is in use by the embedded " \
               f"Weaviate of another contrascan data directory, {first}" in line


def test_ports_do_not_apply_to_a_weaviate_url(tmp_path):
    port, grpc_port = server.free_ports()
    url = f"http://127.0.0.1:{port}?grpc_port={grpc_port}"
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port):
        env = {"CONTRASCAN_PORT": "9100", "CONTRASCAN_GRPC_PORT": "9200",  # dropped for a URL
               server.API_KEY_ENV: (tmp_path / ".contrascan-weaviate.key").read_text().strip()}
        result = _cli("batch-scan", "--json", "--weaviate-url", url, env=env)
        assert result.exit_code == 0, result.output
        line = _one_error_line(_cli("batch-scan", "--weaviate-url", url, "--port", "9100"))
        assert "apply to the embedded server only" in line


def test_a_url_where_nothing_listens_is_one_line_and_exit_1():
    port, grpc_port = server.free_ports()
    line = _one_error_line(_cli("batch-scan", "--weaviate-url",
                                f"http://127.0.0.1:{port}?grpc_port={grpc_port}"))
    assert f"cannot connect to Weaviate at http://127.0.0.1:{port}" in line
    assert "Connection refused" in line


def test_sigterm_stops_the_sidecar_and_its_embedded_server(tmp_path):
    """`contrascan serve` stopped the usual way (systemd, Docker: SIGTERM) closes its store:
    the embedded Weaviate it started is stopped and the data dir released."""
    port, grpc_port = server.free_ports()
    http_port = server.free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scanner.cli", "serve", "--port", str(http_port),
         "--data-dir", str(tmp_path), "--weaviate-port", str(port),
         "--weaviate-grpc-port", str(grpc_port), "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "HF_HUB_OFFLINE": "1"})
    try:
        deadline = time.monotonic() + 300
        while not (tmp_path / server.STATE_FILE_NAME).exists() or not _answers(http_port):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.5)
        weaviate_pid = json.loads((tmp_path / server.STATE_FILE_NAME).read_text())["server_pid"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=120) == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not _alive(weaviate_pid)
    assert server.server_pids(tmp_path) == [] and _lock_is_free(tmp_path)


def _answers(http_port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", http_port), timeout=1) as conn:
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return conn.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False
