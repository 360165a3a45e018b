"""The embedded server as an operating-system process: ports, environment, output, stopping.

The server's ports are fixed per REST port (:func:`cluster_ports`), its environment is built by
:func:`server_environment`, its output goes to a log file (:func:`output_to`), and servers left
running on a data dir by a killed owner are found (:func:`server_pids`) and stopped
(:func:`stop_orphans`).

Sources cited below: ``client:PATH`` is a file of the installed weaviate-client 4.24.1
(``weaviate/PATH``); ``repo:PATH`` is a file of weaviate/weaviate at tag v1.39.0;
``weaviate#N`` is an issue of weaviate/weaviate; ``WEAVIATE.md`` is the project's Weaviate notes.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil

from scanner.errors import ConfigurationError, WeaviateUnavailable
from scanner.store import access
from scanner.store.locks import Log, read_state, wait_for_guests

DEFAULT_PORT = 8079
"""Embedded server REST port; its four cluster ports are the four ports below it."""


DEFAULT_GRPC_PORT = 8074
"""Embedded server gRPC port: the port below the cluster ports, outside Linux's ephemeral range
(32768–60999), where an outgoing connection's local port can make a fixed port such as the
client's default 50050 unavailable at random (seen here while tests ran)."""


CLUSTER_HOSTNAME = "contrascan"
"""Fixed node name. Raft stores the node ID on disk, so a changed name leaves the node without a
leader and ``/v1/.well-known/ready`` answers 503 forever (weaviate#5491; verified: renaming the
node of an existing data dir hangs). The client's default ``Embedded_at_<port>`` changes with
the port, so it is overridden."""


LOG_FILE_NAME = "weaviate-server.log"
"""File in the data dir that receives the embedded server's stdout and stderr."""


LAUNCHER_DIR_NAME = ".contrascan-launcher"
"""Directory in the data dir holding the script that embedded mode runs as the server binary
(:func:`launcher_dir`)."""


SERVER_STOP_TIMEOUT_S = 30.0  # --graceful-timeout defaults to 15 s (repo:…/rest/server.go)


_LOG_ROTATE_BYTES = 10 * 1024 * 1024


def cluster_ports(port: int) -> dict[str, int]:
    """Internal ports of an embedded server, derived from its REST ``port``.

    They must not change between restarts of a data dir, so they are fixed rather than random
    (the client picks random ones, client:embedded.py ``_get_server_ports``). The server needs
    data = gossip + 1 (repo:usecases/config/environment.go, ``parseClusterConfig``) and, with
    ``CLUSTER_IN_LOCALHOST``, dials Raft RPC at Raft + 1 (repo:cluster/resolver/rpc.go).

    Args:
        port: REST port, at least 1029.

    Returns:
        ``{"CLUSTER_GOSSIP_BIND_PORT": port - 4, "CLUSTER_DATA_BIND_PORT": port - 3,
        "RAFT_PORT": port - 2, "RAFT_INTERNAL_RPC_PORT": port - 1}``.

    Raises:
        ConfigurationError: ``port`` is out of range.
    """
    if not 1029 <= port <= 65535:
        raise ConfigurationError("port", f"{port} is not in 1029..65535")
    return {
        "CLUSTER_GOSSIP_BIND_PORT": port - 4,
        "CLUSTER_DATA_BIND_PORT": port - 3,
        "RAFT_PORT": port - 2,
        "RAFT_INTERNAL_RPC_PORT": port - 1,
    }


def port_in_use(port: int) -> bool:
    """Whether something listens on TCP ``port`` (any interface) or holds UDP ``port``.

    Weaviate binds gRPC and the cluster data port on all interfaces regardless of ``--host``
    (WEAVIATE.md §1) where it runs in the host's network, so the probe binds the wildcard
    address. SO_REUSEADDR ignores sockets in TIME_WAIT left by a previous server, as Go's
    listeners do.
    """
    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
        with socket.socket(socket.AF_INET, kind) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("", port))
            except OSError:
                return True
    return False


def free_port() -> int:
    """A free TCP port for :func:`connect_embedded`, for tests.

    Returns:
        A port ``p`` such that ``p`` and its four cluster ports (``p - 4 .. p - 1``, see
        :func:`cluster_ports`) were free when probed. Another process may take them before use.
    """
    for _ in range(200):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("", 0))
            port = int(s.getsockname()[1])
        if port >= 1029 and not any(port_in_use(p) for p in range(port - 4, port + 1)):
            return port
    raise WeaviateUnavailable("found no free block of 5 TCP ports")


def free_ports() -> tuple[int, int]:
    """``(port, grpc_port)`` for :func:`connect_embedded` from :func:`free_port`, not
    overlapping (the gRPC port is none of ``port - 4 .. port``)."""
    port = free_port()
    while True:
        grpc_port = free_port()
        if grpc_port not in range(port - 4, port + 1):
            return port, grpc_port


def is_ready(port: int, timeout_s: float = 2.0) -> bool:
    """Whether ``GET http://127.0.0.1:<port>/v1/.well-known/ready`` answers 200.

    ``ready`` is 200 only once Raft has a leader and memberlist is healthy; ``live`` would
    answer earlier (repo:adapters/handlers/rest/middlewares.go).
    """
    url = f"http://127.0.0.1:{port}/v1/.well-known/ready"
    try:  # never via a proxy (trust_env=False ignores $HTTP_PROXY and friends)
        return httpx.get(url, timeout=timeout_s, trust_env=False).status_code == 200
    except httpx.HTTPError:  # refused, reset, timed out
        return False


def listens_on(port: int, pids: set[int]) -> bool:
    """Whether a process of ``pids`` holds the socket listening on 127.0.0.1:``port``, and no
    other process does: the port a client is about to send the store's key to is the server's
    we started, not one another local user bound in the moment between the ports check and
    the server's own bind (that user would receive the key). A socket of another user's
    process is listed without its pid (psutil cannot read that process's descriptors), so it
    counts as another process's."""
    try:
        listening = [c for c in psutil.net_connections(kind="tcp")
                     if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port]
    except psutil.Error:
        return False
    return bool(listening) and all(c.pid in pids for c in listening)


def _process_args(pid: int) -> list[str]:
    """Command line of ``pid`` (empty when the process is gone, is a zombie or cannot be
    read)."""
    try:
        return psutil.Process(pid).cmdline()
    except psutil.Error:  # NoSuchProcess, ZombieProcess, AccessDenied
        return []


def is_weaviate_process(pid: int) -> bool:
    args = _process_args(pid)
    return bool(args) and Path(args[0]).name.startswith("weaviate")


def server_pids(data_dir: Path) -> list[int]:
    """Process ids of Weaviate servers whose ``PERSISTENCE_DATA_PATH`` is ``data_dir``.

    Reads the environment of every process (psutil; only processes of the same user are
    readable).

    Args:
        data_dir: data directory of an embedded server.

    Returns:
        Sorted pids, empty when no server runs on ``data_dir``.
    """
    wanted = str(Path(data_dir).expanduser().resolve())
    return sorted(pid for pid, environ in _environments()
                  if environ.get("PERSISTENCE_DATA_PATH") == wanted
                  and is_weaviate_process(pid))


def _environments() -> Iterator[tuple[int, dict[str, str]]]:
    """``(pid, environment)`` of each process whose environment can be read."""
    for process in psutil.process_iter():
        try:
            yield process.pid, process.environ()
        except psutil.Error:  # gone, a zombie, or another user's
            continue


def _server_ports(pid: int, environ: dict[str, str]) -> set[int]:
    """Ports a Weaviate server process listens on: ``--port`` of its command line (how
    weaviate-client starts it), ``GRPC_PORT`` and the cluster ports of its environment."""
    args = _process_args(pid)
    ports = {int(v) for k, v in environ.items()
             if (k == "GRPC_PORT" or k in cluster_ports(DEFAULT_PORT)) and v.isdigit()}
    for flag, value in zip(args, args[1:]):
        if flag == "--port" and value.isdigit():
            ports.add(int(value))
    return ports


def _contrascan_server_on(port: int) -> tuple[Path, int | None] | None:
    """The data dir (and its owner's pid, if its state file names one) of a contrascan embedded
    server that uses ``port`` for REST, gRPC or the cluster, or ``None`` (also when that
    server belongs to another user)."""
    for pid, environ in _environments():
        data_path = environ.get("PERSISTENCE_DATA_PATH")
        if (environ.get("CLUSTER_HOSTNAME") != CLUSTER_HOSTNAME or not data_path
                or not is_weaviate_process(pid) or port not in _server_ports(pid, environ)):
            continue
        state = read_state(Path(data_path)) or {}
        owner = state.get("pid")
        return Path(data_path), owner if isinstance(owner, int) else None
    return None


def _pid_gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)  # reap it if it is our own child
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return not _process_args(pid)  # a zombie has no command line


def stop_process(pid: int, timeout_s: float = SERVER_STOP_TIMEOUT_S) -> None:
    """SIGTERM ``pid``, wait up to ``timeout_s`` seconds for it to exit, then SIGKILL it."""
    for sig, wait_s in ((signal.SIGTERM, timeout_s), (signal.SIGKILL, 5.0)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if _pid_gone(pid):
                return
            time.sleep(0.1)


def server_environment(data_dir: Path, port: int, grpc_port: int, key: str) -> dict[str, str]:
    """Env vars of the embedded server. They override the client's ``setdefault`` values and
    any same-named variable of the caller's environment (client:embedded.py ``start``): the
    caller's ``CONTRASCAN_*`` variables are blanked and only ``key`` is accepted
    (:mod:`scanner.store.access`)."""
    ports = cluster_ports(port)
    return {
        **access.scrubbed_environment(),
        # weaviate#5491: fixed node name and ports, so Raft finds itself after a restart.
        "CLUSTER_HOSTNAME": CLUSTER_HOSTNAME,
        "CLUSTER_IN_LOCALHOST": "true",
        # memberlist needs a private IP unless an address is given (weaviate#7474, #4482).
        "CLUSTER_BIND_ADDR": "127.0.0.1",
        "CLUSTER_ADVERTISE_ADDR": "127.0.0.1",
        **{name: str(value) for name, value in ports.items()},
        "RAFT_JOIN": f"{CLUSTER_HOSTNAME}:{ports['RAFT_PORT']}",
        "RAFT_BOOTSTRAP_EXPECT": "1",
        # Raft timeouts x5 by default (repo:usecases/config/environment.go) make every start
        # wait ~5 s for a leader election; one local voter needs no network slack (measured:
        # ready after ~8 s with the default, ~2.4 s with 1).
        "RAFT_TIMEOUTS_MULTIPLIER": "1",
        # setdefault in the client would let a caller's PERSISTENCE_DATA_PATH/GRPC_PORT win.
        "PERSISTENCE_DATA_PATH": str(data_dir),
        "GRPC_PORT": str(grpc_port),
        **access.auth_environment(key),
        "DISABLE_TELEMETRY": "true",
        # the client sets PROFILING_PORT, which the server ignores (it reads GO_PROFILING_PORT);
        # without this pprof listens on :6060 on all interfaces (repo:…/rest/configure_api.go).
        "GO_PROFILING_DISABLE": "true",
        # on, as in a default Weaviate: LangChain, LlamaIndex and Mem0 write properties their
        # collections never declared, and with it off every such object is rejected while
        # the framework returns its id (issue 35 item 2). Weaviate has the setting only
        # server-wide (weaviate#4379); contrascan's own collections are kept strict by the
        # store itself (scanner.store.schema.undeclared).
        "AUTOSCHEMA_ENABLED": "true",
        "API_BASED_MODULES_DISABLED": "true",
        "DEFAULT_VECTORIZER_MODULE": "none",
        "ENABLE_MODULES": "",  # empty = none (the client's default enables five API modules)
        "ASYNC_INDEXING": "false",
        "LOG_LEVEL": "warning",
        "LOG_FORMAT": "text",
    }


def launcher_dir(data_dir: Path, binary: Path) -> Path:
    """A directory to give embedded mode as its ``binary_path``, so that the server runs in a
    network namespace of its own (:mod:`scanner.store.private_network`).

    Embedded mode runs the file named ``weaviate-v<version>-<sha256>`` in ``binary_path``
    (client:embedded.py ``ensure_weaviate_binary_exists`` and ``start``); the directory holds
    a shell script of that name (``binary.name``), mode 0700, that execs
    ``python -I -S private_network.py BINARY ARGS...`` with this interpreter. It is rewritten
    on every start, so a moved checkout or virtualenv never leaves a stale one.

    Args:
        data_dir: the server's data directory (private, see :mod:`scanner.store.access`).
        binary: the ``weaviate-server`` binary (:func:`scanner.store.binary.embedded_binary_path`).

    Returns:
        ``<data_dir>/.contrascan-launcher``.
    """
    directory = data_dir / LAUNCHER_DIR_NAME
    program = Path(__file__).resolve().with_name("private_network.py")
    script = ("#!/bin/sh\n# written by contrascan: runs Weaviate in a network namespace of "
              "its own\nexec " + shlex.join([sys.executable, "-I", "-S", str(program),
                                              str(binary)]) + ' "$@"\n')
    with access.private_umask():
        directory.mkdir(mode=0o700, exist_ok=True)
        staging = directory / f".{binary.name}.tmp-{os.getpid()}"
        staging.write_text(script)
        os.chmod(staging, 0o700)
        os.replace(staging, directory / binary.name)
    return directory


def in_private_network(pid: int) -> bool | None:
    """Whether process ``pid`` runs in another network namespace than this process
    (``/proc/<pid>/ns/net``, namespaces(7)); ``None`` when that cannot be read (no ``/proc``,
    the process is gone or not ours)."""
    try:
        return os.readlink(f"/proc/{pid}/ns/net") != os.readlink("/proc/self/ns/net")
    except OSError:
        return None


@contextlib.contextmanager
def output_to(log_path: Path) -> Iterator[None]:
    """Point file descriptors 1 and 2 at ``log_path`` for the duration of the block.

    weaviate-client starts the server with ``subprocess.Popen`` without redirection
    (client:embedded.py ``start``), so the server inherits our stdout/stderr. Swapping the
    descriptors while the client spawns it sends the server's output to the log instead. Our
    own output written during the block (the client waits up to 30 s for the ports) lands in
    the log too.
    """
    if log_path.exists() and log_path.stat().st_size > _LOG_ROTATE_BYTES:
        os.replace(log_path, log_path.with_name(log_path.name + ".1"))
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        saved = [os.dup(1), os.dup(2)]
    except OSError:  # no stdout/stderr to redirect
        yield
        return
    target = access.open_private(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        os.dup2(target, 1)
        os.dup2(target, 2)
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, target):
            os.close(fd)


def check_ports_free(data_dir: Path, port: int, grpc_port: int) -> None:
    """Raise :class:`WeaviateUnavailable` naming the first port of the server that is taken,
    and who holds it when that is the embedded server of another contrascan data dir."""
    roles = {"REST": port, "gRPC": grpc_port, **cluster_ports(port)}
    for role, number in roles.items():
        if not port_in_use(number):
            continue
        hint = ("pass other ports with --port / --grpc-port (or CONTRASCAN_PORT / "
                "CONTRASCAN_GRPC_PORT; the four ports below the REST port are used too)")
        other = _contrascan_server_on(number)
        if other is not None and other[0] != data_dir:
            owner = f", started by process {other[1]}" if other[1] else ""
            raise WeaviateUnavailable(
                f"port {number} ({role} of the embedded Weaviate) is in use by the embedded "
                f"Weaviate of another contrascan data directory, {other[0]}{owner}",
                f"{hint}, or --data-dir {other[0]} to share that server",
            )
        raise WeaviateUnavailable(
            f"port {number} ({role} of the embedded Weaviate) is in use by another program",
            f"{hint}, or stop that program",
        )


def stop_orphans(data_dir: Path, say: Log, guest_wait_s: float) -> None:
    """Stop servers left running on ``data_dir`` by an owner that died without closing them
    (e.g. SIGKILL: the server is a child process and outlives it), once the guests that still
    use them are done (:func:`wait_for_guests`)."""
    previous = read_state(data_dir)
    orphans = set(server_pids(data_dir))
    recorded = previous.get("server_pid") if previous else None
    if isinstance(recorded, int) and is_weaviate_process(recorded):
        orphans.add(recorded)
    if not orphans:
        return
    guests_fd = wait_for_guests(data_dir, guest_wait_s, say)
    try:
        for pid in sorted(orphans):
            owner = previous.get("pid") if previous else None
            say(f"stopping Weaviate server {pid} left running on {data_dir} by process {owner}")
            stop_process(pid)
    finally:
        if guests_fd is not None:
            os.close(guests_fd)
