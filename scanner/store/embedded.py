"""Start (or join) the embedded Weaviate server of a data directory (SPEC §7).

weaviate-client's embedded mode runs the ``weaviate-server`` binary that
:mod:`scanner.store.binary` provisions, with its data under
:func:`scanner.store.connection.default_data_dir`. One process owns a data directory at a time
and others join its server as guests (:mod:`scanner.store.locks` describes the sharing).

**Access.** The embedded server accepts only contrascan: anonymous access is off and its own
API key, generated on first start, sits in the data dir (0600); the data dir is private (0700)
and locks held by another user are never waited for (:mod:`scanner.store.access`). It runs in
a network namespace of its own, so that its cluster ports, which take no key, are out of every
other process's reach (:mod:`scanner.store.private_network`).

Sources cited below: ``client:PATH`` is a file of the installed weaviate-client 4.24.1
(``weaviate/PATH``); ``weaviate#N`` is an issue of weaviate/weaviate; ``WEAVIATE.md`` is the
project's Weaviate notes.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import os
import subprocess
import time
import weakref
from pathlib import Path
from typing import Any

import weaviate
from weaviate.classes.init import Auth
from weaviate.connect import ConnectionParams
from weaviate.embedded import EmbeddedOptions, EmbeddedV4
from weaviate.exceptions import WeaviateBaseError

from scanner.errors import ConfigurationError, DataDirectoryBusy, WeaviateUnavailable
from scanner.store import access, lifecycle
from scanner.store.binary import BINARY_ENV, WEAVIATE_VERSION, check_version, embedded_binary_path
from scanner.store.connection import RestEndpoint, register
from scanner.store.locks import (
    GUEST_WAIT_S,
    GUESTS_LOCK_FILE_NAME,
    IMPORT_LOCK_FILE_NAME,
    LOCK_FILE_NAME,
    STATE_FILE_NAME,
    Log,
    join_as_guest,
    quiet,
    read_state,
    wait_for_guests,
    write_state,
)
from scanner.store.processes import (
    DEFAULT_GRPC_PORT,
    DEFAULT_PORT,
    LOG_FILE_NAME,
    SERVER_STOP_TIMEOUT_S,
    check_ports_free,
    cluster_ports,
    in_private_network,
    is_ready,
    launcher_dir,
    listens_on,
    output_to,
    server_environment,
    server_pids,
    stop_orphans,
    stop_process,
)

class _OwnedEmbeddedClient(weaviate.WeaviateClient):
    """Embedded-mode client that also owns the data dir lock; ``close()`` releases it.

    ``close()`` first waits for the guests (:func:`wait_for_guests`), then lets the client stop
    the server (``terminate()`` + ``wait()``, client:embedded.py ``stop``), then removes the
    state file and releases the data dir lock, and last the guests lock. The server is stopped
    even when the wait is interrupted (e.g. Ctrl-C).
    """

    def __init__(self, *, lock_fd: int, data_dir: Path, guest_wait_s: float, log: Log,
                 **kwargs: Any) -> None:
        self._contrascan_lock_fd: int | None = lock_fd
        self._contrascan_data_dir = data_dir
        self._contrascan_guest_wait_s = guest_wait_s
        self._contrascan_log = log
        self._contrascan_watchdog: lifecycle.Watchdog | None = None
        try:
            super().__init__(**kwargs)  # starts the server
        except BaseException:
            self._contrascan_lock_fd = None  # the caller closes it
            raise

    def _server_process(self) -> subprocess.Popen[bytes] | None:
        # client:connect/v4.py keeps the EmbeddedV4 as ``embedded_db``; its ``process`` is the
        # Popen of the server. Read defensively: both are private to the client.
        embedded = getattr(getattr(self, "_connection", None), "embedded_db", None)
        return getattr(embedded, "process", None)

    def close(self) -> None:  # type: ignore[override]
        if self._contrascan_lock_fd is None:  # closed before, or never owned
            super().close()
            return
        guests_fd = None
        try:
            guests_fd = wait_for_guests(self._contrascan_data_dir,
                                         self._contrascan_guest_wait_s, self._contrascan_log)
        finally:
            try:
                super().close()
            finally:
                self._release_data_dir()
                if guests_fd is not None:
                    os.close(guests_fd)
                watchdog, self._contrascan_watchdog = self._contrascan_watchdog, None
                if watchdog is not None:
                    watchdog.release()

    def _release_data_dir(self) -> None:
        fd, self._contrascan_lock_fd = self._contrascan_lock_fd, None
        if fd is None:
            return
        try:
            state = read_state(self._contrascan_data_dir)
            if state and state.get("pid") == os.getpid():
                (self._contrascan_data_dir / STATE_FILE_NAME).unlink(missing_ok=True)
        finally:
            os.close(fd)


class _GuestClient(weaviate.WeaviateClient):
    """Client of a server that another process owns; holds this process's guest registration
    (see :func:`join_as_guest`) until ``close()``. Closing it leaves the server running."""

    def __init__(self, *, guest_fd: int | None, **kwargs: Any) -> None:
        self._contrascan_guest_fd = guest_fd
        try:
            super().__init__(**kwargs)  # no request yet
        except BaseException:
            self._release_guest()
            raise

    def close(self) -> None:  # type: ignore[override]
        try:
            super().close()
        finally:
            self._release_guest()

    def _release_guest(self) -> None:
        fd, self._contrascan_guest_fd = self._contrascan_guest_fd, None
        if fd is not None:
            os.close(fd)


def _close_at_exit(ref: weakref.ReferenceType[_OwnedEmbeddedClient]) -> None:
    client = ref()
    if client is not None:
        with contextlib.suppress(Exception):
            client.close()


def _verify_version(client: weaviate.WeaviateClient, version: str) -> None:
    try:
        reported = client.get_meta().get("version")
    except WeaviateBaseError as err:
        raise WeaviateUnavailable("Weaviate did not answer GET /v1/meta", str(err)) from err
    if reported != version:
        raise WeaviateUnavailable(
            f"the server reports Weaviate {reported}, expected {version}",
            f"remove {embedded_binary_path(version)} and run `make setup`",
        )


def _connect_to_owner(
    data_dir: Path, state: dict[str, Any], version: str, guest_fd: int | None
) -> weaviate.WeaviateClient:
    """A client of the server another process (or this one) owns; closing it leaves that
    server up. Owns ``guest_fd`` (the guest registration, ``None`` when the owner is this
    process) from here on: the client releases it on ``close()``."""
    port, grpc_port = int(state["port"]), int(state["grpc_port"])
    try:
        key = access.server_key(data_dir)
    except BaseException:
        if guest_fd is not None:
            os.close(guest_fd)
        raise
    client = _GuestClient(
        guest_fd=guest_fd,
        auth_client_secret=Auth.api_key(key),
        connection_params=ConnectionParams.from_params(
            http_host="127.0.0.1", http_port=port, http_secure=False,
            grpc_host="127.0.0.1", grpc_port=grpc_port, grpc_secure=False,
        ),
        # readiness was checked; this also skips the PyPI query (client:connect/v4.py)
        skip_init_checks=True,
    )
    try:
        client.connect()
        _verify_version(client, version)
    except BaseException as err:
        client.close()
        if isinstance(err, WeaviateBaseError):
            raise DataDirectoryBusy(str(data_dir), state.get("pid")) from err
        raise
    owner = state.get("pid")
    register(client, f"the embedded Weaviate of {data_dir} (127.0.0.1:{port}"
                      + (f", started by process {owner})" if owner else ")"),
              data_dir / IMPORT_LOCK_FILE_NAME, RestEndpoint("127.0.0.1", port, _bearer(key)))
    return client


def _bearer(key: str) -> tuple[tuple[str, str], ...]:
    """The ``Authorization`` header of the embedded server's API key."""
    return (("Authorization", f"Bearer {key}"),)


def _start_owned(
    data_dir: Path, lock_fd: int, port: int, grpc_port: int, version: str,
    startup_timeout_s: float, guest_wait_s: float, say: Log,
) -> weaviate.WeaviateClient:
    """Start the embedded server while holding the data dir lock (see connect_embedded).

    Owns ``lock_fd`` from here on: on failure it is closed, on success the client closes it.
    """
    binary = embedded_binary_path(version)
    log_path = data_dir / LOG_FILE_NAME
    key = access.server_key(data_dir)
    state: dict[str, Any] = {"pid": os.getpid(), "server_pid": None, "port": port,
                             "grpc_port": grpc_port, "version": version, "data_dir": str(data_dir)}
    try:
        stop_orphans(data_dir, say, guest_wait_s)
        check_ports_free(data_dir, port, grpc_port)
        write_state(data_dir, state)
        options = EmbeddedOptions(
            hostname="127.0.0.1",
            port=port,
            grpc_port=grpc_port,
            version=version,
            persistence_data_path=str(data_dir),
            binary_path=str(binary.parent),
            additional_env_vars=server_environment(data_dir, port, grpc_port, key),
        )
        if not binary.exists():  # the client's own download (GitHub), as embedded mode does
            EmbeddedV4(options).ensure_weaviate_binary_exists()
        # the server runs through the launcher script, in a network namespace of its own
        options.binary_path = str(launcher_dir(data_dir, binary))
        started = time.monotonic()
        with output_to(log_path), access.private_umask():
            # Starts the server and waits up to 30 s for both ports to accept TCP
            # (client:embedded.py ``wait_till_listening``).
            client = _OwnedEmbeddedClient(
                lock_fd=lock_fd, data_dir=data_dir, guest_wait_s=guest_wait_s, log=say,
                embedded_options=options, skip_init_checks=True,
                auth_client_secret=Auth.api_key(key),
            )
    except BaseException as err:
        for pid in server_pids(data_dir):
            stop_process(pid)
        (data_dir / STATE_FILE_NAME).unlink(missing_ok=True)
        os.close(lock_fd)
        if not isinstance(err, (WeaviateBaseError, OSError)):  # OSError: download or exec
            raise
        hint = f"see {log_path}"
        if not binary.exists():
            hint = (f"no server binary at {binary} and the download failed; run `make setup` "
                    f"(needs Go >= 1.26) or set {BINARY_ENV}")
        raise WeaviateUnavailable(
            f"could not start embedded Weaviate {version}: {err}", hint
        ) from err

    atexit.register(_close_at_exit, weakref.ref(client))
    try:
        process = client._server_process()
        state["server_pid"] = process.pid if process is not None else None
        if process is not None:  # stops the server if this process dies (lifecycle module)
            client._contrascan_watchdog = lifecycle.watch_server(
                process.pid, data_dir, guest_wait_s=guest_wait_s,
                stop_timeout_s=SERVER_STOP_TIMEOUT_S)
            if client._contrascan_watchdog is not None:
                state["watchdog_pid"] = client._contrascan_watchdog.pid
        write_state(data_dir, state)
        _wait_until_ready(process, port, started, startup_timeout_s, log_path)
        weaviate = server_pids(data_dir)
        foreign = [] if process is None else [
            p for p in (port, grpc_port) if not listens_on(p, {process.pid, *weaviate})]
        if foreign:  # checked before the key is sent (client.connect below)
            raise WeaviateUnavailable(
                f"another process listens on 127.0.0.1:{foreign[0]}, not the embedded Weaviate "
                f"started here; its key was not sent", f"see {log_path}; choose other ports "
                f"with --weaviate-port and --weaviate-grpc-port")
        if process is not None and weaviate and weaviate != [process.pid]:
            # in a network of its own: Weaviate is the launcher's child (private_network)
            state["launcher_pid"], state["server_pid"] = process.pid, weaviate[0]
        state["private_network"] = _report_network(weaviate, port, log_path, say)
        write_state(data_dir, state)
        try:
            client.connect()
        except WeaviateBaseError as err:
            raise WeaviateUnavailable("could not connect to embedded Weaviate", str(err)) from err
        _verify_version(client, version)
    except BaseException:
        client.close()
        raise
    register(client, f"the embedded Weaviate of {data_dir} (127.0.0.1:{port})",
              data_dir / IMPORT_LOCK_FILE_NAME, RestEndpoint("127.0.0.1", port, _bearer(key)))
    return client


def _report_network(weaviate: list[int], port: int, log_path: Path, say: Log) -> bool:
    """Whether the Weaviate processes ``weaviate`` run in a network namespace of their own
    (:mod:`scanner.store.private_network`); when they do not, ``say`` a warning naming the
    cluster ports every local user can reach."""
    private = [in_private_network(pid) for pid in weaviate]
    if private and all(private):
        return True
    ports = cluster_ports(port)
    say(f"warning: the embedded Weaviate runs in this machine's network, so every local user "
        f"can reach its cluster ports {min(ports.values())}..{max(ports.values())}, which "
        f"take no key (Raft RPC lists and deletes collections and tenants); the reason is in "
        f"{log_path}")
    return False


def _wait_until_ready(process: subprocess.Popen[bytes] | None, port: int, started: float,
                      timeout_s: float, log_path: Path) -> None:
    """Poll ``/v1/.well-known/ready`` of the server we started until it answers 200.

    The client's own wait for /ready is 10 s, after which it kills the server
    (client:connect/v4.py ``wait_for_weaviate``); a large data dir can take longer.

    Raises:
        WeaviateUnavailable: the server process exited, or ``timeout_s`` seconds passed since
            ``started`` (``time.monotonic()``); both name the server's log file.
    """
    deadline = started + timeout_s
    while not is_ready(port):
        exited = process.poll() if process is not None else None
        if exited is not None:
            raise WeaviateUnavailable(
                f"embedded Weaviate exited with code {exited}", f"see {log_path}"
            )
        if time.monotonic() > deadline:
            raise WeaviateUnavailable(
                f"embedded Weaviate was not ready after {timeout_s:.0f} s", f"see {log_path}",
            )
        time.sleep(0.1)


def connect_embedded(
    data_dir: Path,
    *,
    port: int = DEFAULT_PORT,
    grpc_port: int = DEFAULT_GRPC_PORT,
    version: str = WEAVIATE_VERSION,
    startup_timeout_s: float = 120,
    guest_wait_s: float = GUEST_WAIT_S,
    log: Log | None = None,
) -> weaviate.WeaviateClient:
    """Start (or join) the embedded Weaviate server of ``data_dir`` and connect to it.

    The first process takes an exclusive ``flock`` on ``<data_dir>/.contrascan.lock`` and
    writes ``{pid, server_pid, port, grpc_port, version, data_dir}`` to
    ``<data_dir>/.contrascan-server.json``. It stops any server left running on the data dir by
    a killed owner, checks that its ports are free, and starts the server with weaviate-client's
    embedded mode (the same ``WeaviateClient(embedded_options=...)`` that
    ``weaviate.connect_to_embedded`` builds, client:connect/helpers.py), with the settings of
    ``server_environment`` (fixed node name and ports, so Raft survives restarts, weaviate#5491),
    through the launcher of :func:`scanner.store.processes.launcher_dir`: the server runs in a
    network namespace of its own, where no other local user reaches its cluster ports
    (:mod:`scanner.store.private_network`; where none can be made, ``log`` receives a warning).
    The server's stdout/stderr go to ``<data_dir>/weaviate-server.log``. Closing the returned
    client waits until no other process uses the server (at most ``guest_wait_s``), then stops
    the server, removes the state file and releases the lock.

    Any other process (or a second call in this one) finds the lock taken, reads the owner's
    ports from the state file and returns a client of that server (the same as
    ``weaviate.connect_to_local``); closing it leaves the server running. A client in another
    process than the owner registers as a guest (a shared ``flock`` on
    ``<data_dir>/.contrascan-guests.lock`` until it is closed), so that the owner keeps the
    server up for it (module docstring).

    Process notes (verified on Linux): the server is our child in our process group, so Ctrl-C
    stops it as well (it shuts down cleanly; ``close()`` reaps it); after a SIGKILL of our
    process a watchdog process stops it (:mod:`scanner.store.lifecycle`), and should the
    watchdog be killed too, the next owner stops it. If the server dies, the client starts
    it again on its next REST request (client:embedded.py ``ensure_running``); that restart
    writes to our terminal and skips the readiness wait.

    Args:
        data_dir: directory of the server's files; created if missing.
        port: REST port on 127.0.0.1; ``port - 4 .. port - 1`` are the cluster ports
            (:func:`cluster_ports`). Ignored when joining another process's server.
        grpc_port: gRPC port on 127.0.0.1 (on all interfaces where the server runs in the
            host's network, WEAVIATE.md §1). Ignored when joining.
        version: server version; the binary must be at :func:`embedded_binary_path` (see
            :func:`ensure_binary`) or weaviate-client downloads it.
        startup_timeout_s: seconds to wait for ``/v1/.well-known/ready``, either for our own
            server or for another owner's. The client separately allows 30 s for the ports to
            open (client:embedded.py).
        guest_wait_s: as the owner, how long closing waits for guests before it stops the
            server anyway (and before stopping a server orphaned by a killed owner).
        log: receives progress messages (e.g. an orphaned server being stopped, or the owner
            waiting for its guests when it is closed).

    Returns:
        A connected client.

    Raises:
        DataDirectoryBusy: another live process holds the lock and its server does not answer
            within ``startup_timeout_s``.
        WeaviateUnavailable: a port is taken (by another program, or by the server of another
            contrascan data dir, which the message names), the binary is missing and cannot be
            downloaded, or the server fails to start, to become ready or reports a version
            other than ``version``.
        ConfigurationError: ``version`` or ``port`` is invalid, or ``grpc_port`` collides with
            the REST or cluster ports.
    """
    say = log or quiet
    check_version(version)
    if grpc_port in (port, *cluster_ports(port).values()) or not 1 <= grpc_port <= 65535:
        raise ConfigurationError("grpc port", f"{grpc_port} collides with {port - 4}..{port}")
    data_dir = access.prepare_data_dir(Path(data_dir).expanduser().resolve())
    lock_fd = access.open_private(data_dir / LOCK_FILE_NAME)
    try:
        joined = _lock_or_find_owner(lock_fd, data_dir, startup_timeout_s)
    except BaseException:
        os.close(lock_fd)
        raise
    if joined is not None:
        os.close(lock_fd)
        return _connect_to_owner(data_dir, joined[0], version, joined[1])
    return _start_owned(data_dir, lock_fd, port, grpc_port, version, startup_timeout_s,
                        guest_wait_s, say)


def _lock_or_find_owner(
    lock_fd: int, data_dir: Path, timeout_s: float
) -> tuple[dict[str, Any], int | None] | None:
    """Take the data dir lock (``None``), or join a live owner whose server is ready: its
    state, and this process's guest registration (:func:`join_as_guest`; ``None`` when the
    owner is this process). Polls up to ``timeout_s`` seconds: the owner may still be starting
    its server, or be stopping it (then the lock comes free and this process starts one)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return None
        except OSError as err:
            if err.errno not in (errno.EAGAIN, errno.EACCES):
                raise
        holders = access.lock_holders(data_dir / LOCK_FILE_NAME, "WRITE")
        if access.held_by_another_user(data_dir / LOCK_FILE_NAME, holders):
            # another user's process: its server would not be ours to use, never wait for it
            raise DataDirectoryBusy(str(data_dir), holders[0] if holders else None,
                                    lock=LOCK_FILE_NAME)
        state = read_state(data_dir)  # the owner writes it before starting its server
        if state and isinstance(state.get("port"), int):
            if state.get("pid") == os.getpid():
                if is_ready(state["port"]):
                    return state, None
            else:
                guest_fd = join_as_guest(data_dir)
                guests = data_dir / GUESTS_LOCK_FILE_NAME
                if guest_fd is None and access.held_by_another_user(
                        guests, access.lock_holders(guests, "WRITE")):
                    raise DataDirectoryBusy(str(data_dir), None, lock=GUESTS_LOCK_FILE_NAME)
                if guest_fd is not None:
                    # Registered: whoever owns the server now waits for us before stopping it.
                    # Read the state again, it may have changed hands before we registered.
                    state = read_state(data_dir)
                    if state and isinstance(state.get("port"), int) and is_ready(state["port"]):
                        return state, guest_fd
                    os.close(guest_fd)
        if time.monotonic() > deadline:
            raise DataDirectoryBusy(str(data_dir), state.get("pid") if state else None)
        time.sleep(0.25)
