"""The embedded Weaviate accepts only contrascan (scanner.store.access), against a real server:
no anonymous REST, gRPC or cluster-API use, a private data dir, no secrets in its environment,
and no waiting for a lock another user holds."""

from __future__ import annotations

import base64
import fcntl
import os
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import numpy as np
import pytest
from weaviate.proto.v1 import search_get_pb2, weaviate_pb2_grpc

from scanner.errors import DataDirectoryBusy
from scanner.models import MemoryRecord
from scanner.store import access, server
from scanner.store.memories import MemoryStore

pytestmark = pytest.mark.integration

SIDECAR_KEY = "sidecar-key-that-must-stay-in-contrascan"
MEMORY_TEXT = "The vault code is 4711 and only the owner may read it."


class _Store:
    def __init__(self, data_dir: Path, port: int, grpc_port: int, client: server.WeaviateClient):
        self.data_dir, self.port, self.grpc_port, self.client = data_dir, port, grpc_port, client

    @property
    def key(self) -> str:
        return (self.data_dir / access.KEY_FILE_NAME).read_text().strip()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Store]:
    """An embedded server started while ``CONTRASCAN_API_KEY`` is set, holding one memory."""
    data_dir = tmp_path_factory.mktemp("access") / "weaviate"
    port, grpc_port = server.free_ports()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("CONTRASCAN_API_KEY", SIDECAR_KEY)
        client = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
    try:
        memories = MemoryStore(client, collection="AccessProbe")
        memories.ensure_schema()
        record = MemoryRecord(id="vault", text=MEMORY_TEXT, user_id="owner")
        memories.import_memories([record], [[]],
                                 np.ones((1, 384), dtype=np.float32) / np.sqrt(384))
        yield _Store(data_dir, port, grpc_port, client)
    finally:
        client.close()


def _status(url: str, headers: dict[str, str] | None = None) -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as err:
        return err.code


def _grpc_search(store: _Store, metadata: tuple[tuple[str, str], ...] = ()) -> str:
    """``"ok"``, or the error details of a gRPC ``Search`` of the probe tenant."""
    with grpc.insecure_channel(f"127.0.0.1:{store.grpc_port}") as channel:
        stub = weaviate_pb2_grpc.WeaviateStub(channel)
        request = search_get_pb2.SearchRequest(collection="AccessProbe", tenant="owner", limit=5)
        try:
            stub.Search(request, timeout=10, metadata=metadata)
        except grpc.RpcError as err:
            return f"{err.code().name}: {err.details()}"
    return "ok"


def test_rest_refuses_a_client_without_the_key(store):
    schema = f"http://127.0.0.1:{store.port}/v1/schema"
    objects = f"http://127.0.0.1:{store.port}/v1/objects?class=AccessProbe&tenant=owner"
    assert _status(schema) == 401
    assert _status(objects) == 401
    assert _status(schema, {"Authorization": "Bearer not-the-key"}) == 401
    assert _status(schema, {"Authorization": f"Bearer {SIDECAR_KEY}"}) == 401
    assert _status(schema, {"Authorization": f"Bearer {store.key}"}) == 200


def test_grpc_refuses_a_client_without_the_key(store):
    anonymous = _grpc_search(store)
    assert "unauthorized" in anonymous, anonymous
    wrong = _grpc_search(store, (("authorization", "Bearer not-the-key"),))
    assert wrong != "ok" and "invalid api key" in wrong.lower(), wrong
    assert _grpc_search(store, (("authorization", f"Bearer {store.key}"),)) == "ok"


def test_the_cluster_ports_are_out_of_reach(store):
    # Weaviate runs in a network namespace of its own (scanner.store.private_network)
    for port in range(store.port - 4, store.port):  # gossip, data API, Raft, Raft RPC
        with pytest.raises(urllib.error.URLError, match="Connection refused"):
            _status(f"http://127.0.0.1:{port}/nodes/status")


def test_contrascan_itself_reads_through_the_key(store):
    memories = MemoryStore(store.client, collection="AccessProbe")
    assert memories.get("owner", "vault").record.text == MEMORY_TEXT


def test_the_key_file_and_the_data_dir_are_private(store):
    key_file = store.data_dir / access.KEY_FILE_NAME
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(store.key) >= 40
    assert stat.S_IMODE(store.data_dir.stat().st_mode) == 0o700
    exposed = [(str(p.relative_to(store.data_dir)), oct(stat.S_IMODE(p.lstat().st_mode)))
               for p in store.data_dir.rglob("*")
               if not p.is_symlink() and stat.S_IMODE(p.lstat().st_mode) & 0o077]
    assert exposed == []
    segment_files = [p for p in store.data_dir.rglob("*") if p.is_file()]
    assert len(segment_files) > 5  # the walk saw the server's own files, not just ours


def test_the_servers_environment_holds_no_contrascan_secret(store):
    (pid,) = server.server_pids(store.data_dir)
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert not any(SIDECAR_KEY.encode() in item for item in environ)
    assert b"CONTRASCAN_API_KEY=" in environ  # blanked, not inherited


def test_a_world_readable_data_dir_is_made_private_on_start(tmp_path):
    data_dir = tmp_path / "old"
    data_dir.mkdir(mode=0o755)
    os.chmod(data_dir, 0o755)
    port, grpc_port = server.free_ports()
    with server.connect_embedded(data_dir, port=port, grpc_port=grpc_port):
        assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
        assert stat.S_IMODE((data_dir / access.KEY_FILE_NAME).stat().st_mode) == 0o600


def test_the_key_survives_a_restart(tmp_path):
    port, grpc_port = server.free_ports()
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as client:
        client.collections.create("KeyProbe")
        first = (tmp_path / access.KEY_FILE_NAME).read_text()
    with server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port) as client:
        assert client.collections.exists("KeyProbe")
    assert (tmp_path / access.KEY_FILE_NAME).read_text() == first


# --------------------------------------------------------------------------- other users

_NOBODY = 65534


def _hold_as_nobody(path: Path, how: int, *, through_a_child: bool = False
                    ) -> subprocess.Popen[str]:
    """A process that opens ``path``, becomes user ``nobody`` and holds a ``flock`` on it;
    ``through_a_child``: the lock is taken by a child that then exits, as a shell's ``exec
    9<>lock; flock 9`` does, so ``/proc/locks`` names a pid that is gone (issue 38, item 3)."""
    take = (f"child = os.fork()\nif child == 0:\n    fcntl.flock(fd, {how})\n    os._exit(0)\n"
            "os.waitpid(child, 0)") if through_a_child else f"fcntl.flock(fd, {how})"
    code = "\n".join([
        "import fcntl, os, sys, time",
        f"fd = os.open({str(path)!r}, os.O_RDONLY)",
        f"os.setgroups([]); os.setgid({_NOBODY}); os.setuid({_NOBODY})",
        take, 'print("ready", flush=True)', "time.sleep(600)"])
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def _reap(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


needs_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="acting as another user (setuid to nobody) needs root")


@needs_root
def test_a_guest_lock_held_by_another_user_does_not_keep_the_owner_waiting(tmp_path):
    port, grpc_port = server.free_ports()
    said: list[str] = []
    owner = server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port,
                                    guest_wait_s=300, log=said.append)
    (tmp_path / server.GUESTS_LOCK_FILE_NAME).touch()  # left by an earlier guest
    stranger = _hold_as_nobody(tmp_path / server.GUESTS_LOCK_FILE_NAME, fcntl.LOCK_SH)
    try:
        (server_pid,) = server.server_pids(tmp_path)
        owner.close()
    finally:
        _reap(stranger)
    assert any("held by another user's process" in line for line in said), said
    assert not any("still using this Weaviate" in line for line in said), said
    assert server_pid not in server.server_pids(tmp_path)


@needs_root
@pytest.mark.parametrize("through_a_child", [False, True])
def test_a_data_dir_lock_held_by_another_user_is_busy_at_once(tmp_path, through_a_child):
    lock = tmp_path / server.LOCK_FILE_NAME
    lock.touch()
    stranger = _hold_as_nobody(lock, fcntl.LOCK_EX, through_a_child=through_a_child)
    try:
        port, grpc_port = server.free_ports()
        started = time.monotonic()
        with pytest.raises(DataDirectoryBusy, match="another user's process") as raised:
            # a wait would last startup_timeout_s; the stranger's lock is refused before it
            server.connect_embedded(tmp_path, port=port, grpc_port=grpc_port,
                                    startup_timeout_s=600)
        assert time.monotonic() - started < 60
        if not through_a_child:  # (through a child, /proc/locks names a pid that is gone)
            assert raised.value.owner_pid == stranger.pid
    finally:
        _reap(stranger)


@needs_root
def test_the_import_lock_of_another_user_is_refused_at_once(tmp_path):
    from scanner.store.locks import IMPORT_LOCK_FILE_NAME, flocked

    lock = tmp_path / IMPORT_LOCK_FILE_NAME
    lock.touch()
    for through_a_child in (False, True):
        stranger = _hold_as_nobody(lock, fcntl.LOCK_EX, through_a_child=through_a_child)
        try:
            with pytest.raises(DataDirectoryBusy, match=IMPORT_LOCK_FILE_NAME):
                with flocked(lock):
                    pass
        finally:
            _reap(stranger)
    with flocked(lock):  # free again: taken at once
        pass


@needs_root
def test_inside_its_network_the_cluster_api_still_asks_for_the_key(store):
    (pid,) = server.server_pids(store.data_dir)
    good = base64.b64encode(f"{access.SERVER_USER}:{store.key}".encode()).decode()
    code = "\n".join([
        "import sys, urllib.error, urllib.request",
        f"url = 'http://127.0.0.1:{store.port - 3}/nodes/status'",  # CLUSTER_DATA_BIND_PORT
        "opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))",
        "for headers in ({}, {'Authorization': sys.argv[1]}):",
        "    try:",
        "        print(opener.open(urllib.request.Request(url, headers=headers)).status)",
        "    except urllib.error.HTTPError as err:",
        "        print(err.code)"])
    done = subprocess.run(["nsenter", f"--net=/proc/{pid}/ns/net", sys.executable, "-c", code,
                           f"Basic {good}"], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["401", "200"], done.stderr
