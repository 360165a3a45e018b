"""Provision, start and connect to Weaviate (SPEC §7).

Two ways to reach a server:

* **Embedded** (default): weaviate-client's embedded mode runs a ``weaviate-server`` binary
  that this module provisions (:func:`ensure_binary`), with its data under
  :func:`default_data_dir`. One process owns a data directory at a time
  (:func:`connect_embedded`); other processes connect to the owner's server.
* **By URL**: any Weaviate, for scale-out (:func:`connect_url`).

:func:`open_client` picks one of the two for the CLI and the service.

**Sharing one embedded server between processes.** The process that starts the server (the
*owner*) holds an exclusive ``flock`` on ``<data_dir>/.contrascan.lock``; any other contrascan
process on the same data dir (a *guest*) connects to the owner's server and, for as long as its
client is open, holds a shared ``flock`` on ``<data_dir>/.contrascan-guests.lock``. The owner
does not hand its server over: when it closes (also at interpreter exit), it waits until it can
take that file exclusively, i.e. until no guest uses the server, logging ``waiting for N other
contrascan process(es) using this Weaviate``; after ``guest_wait_s`` (default 10 min) it stops the
server anyway and says so. While it holds the file exclusively no new guest can join: a process
arriving then waits for the data dir lock and starts a fresh server itself. The kernel drops a
``flock`` when its process dies, so a killed guest never blocks an owner. A new owner that finds
a server orphaned by a killed owner waits the same way for that server's guests before stopping
it. A long-running guest (``contrascan serve``) keeps an owner waiting for the whole wait: start
it first, so that it owns the server. Not covered: a Ctrl-C in the owner's terminal reaches the server too (it is in the owner's
process group, started by weaviate-client) and stops it at once; guests then fail with a
one-line :class:`~scanner.errors.WeaviateUnavailable`.

**Imports from several processes.** Weaviate has no create-if-absent write: batch inserts are
upserts that replace a stored object whole (its ``status`` and ``supersedes`` edges included).
:func:`import_lock` serialises the check-then-insert of imports across processes: a ``flock`` on
``<data_dir>/.contrascan-import.lock`` for the embedded server (every writer is a contrascan
process on this machine), and on a file under the user's cache dir keyed by host and port for a
server reached by URL, which covers the processes of one user on one machine only. Imports of
the same ids into one server by URL from several machines (or users) can still race: both may
find an id absent and both insert it, the second replacing the first together with any verdict
written in between. Run such imports from one machine.

Sources cited below: ``client:PATH`` is a file of the installed weaviate-client 4.24.1
(``weaviate/PATH``); ``repo:PATH`` is a file of weaviate/weaviate at tag v1.39.0;
``weaviate#N`` is an issue of weaviate/weaviate; ``WEAVIATE.md`` is /work/shared/WEAVIATE.md.

**Access.** The embedded server accepts only contrascan: anonymous access is off and its own
API key, generated on first start, sits in the data dir (0600); the data dir is private (0700)
and locks held by another user are never waited for (:mod:`scanner.store.access`).

Run ``python -m scanner.store.server`` to provision the binary ahead of time (``make setup``).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import hashlib
import json
import mmap
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import warnings
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
import weaviate
from weaviate.classes.init import Auth
from weaviate.connect import ConnectionParams
from weaviate.embedded import EmbeddedOptions
from weaviate.exceptions import WeaviateBaseError

from scanner.errors import ConfigurationError, DataDirectoryBusy, WeaviateUnavailable
from scanner.store import access

WEAVIATE_VERSION = "1.39.0"
"""Pinned server version. weaviate-client 4.24.1 defaults to 1.40.2 (client:embedded.py), so it
is always passed explicitly."""

DEFAULT_PORT = 8079
"""Embedded server REST port; its four cluster ports are the four ports below it."""
DEFAULT_GRPC_PORT = 8074
"""Embedded server gRPC port: the port below the cluster ports, outside Linux's ephemeral range
(32768–60999), where an outgoing connection's local port can make a fixed port such as the
client's default 50050 unavailable at random (seen here while tests ran)."""
DEFAULT_URL_GRPC_PORT = 50051
"""gRPC port assumed for :func:`connect_url` when the URL names none (Weaviate's default)."""

CLUSTER_HOSTNAME = "contrascan"
"""Fixed node name. Raft stores the node ID on disk, so a changed name leaves the node without a
leader and ``/v1/.well-known/ready`` answers 503 forever (weaviate#5491; verified: renaming the
node of an existing data dir hangs). The client's default ``Embedded_at_<port>`` changes with
the port, so it is overridden."""

BINARY_ENV = "CONTRASCAN_WEAVIATE_BINARY"
"""Env var naming a ``weaviate-server`` binary to use instead of searching for one."""
DATA_DIR_ENV = "CONTRASCAN_DATA_DIR"
"""Env var overriding :func:`default_data_dir`."""
API_KEY_ENV = "CONTRASCAN_WEAVIATE_API_KEY"
"""Env var holding the API key for :func:`connect_url`."""

LOCK_FILE_NAME = ".contrascan.lock"
"""File in the data dir that the owning process holds an exclusive ``flock`` on."""
GUESTS_LOCK_FILE_NAME = ".contrascan-guests.lock"
"""File in the data dir that every guest process holds a shared ``flock`` on while it uses the
owner's server; the owner takes it exclusively before it stops the server."""
IMPORT_LOCK_FILE_NAME = ".contrascan-import.lock"
"""File in the data dir that :func:`import_lock` holds an exclusive ``flock`` on."""
STATE_FILE_NAME = ".contrascan-server.json"
"""File in the data dir with the owner's ``{pid, server_pid, port, grpc_port, version,
data_dir}``."""
GUEST_WAIT_S = 600.0
"""Default seconds an owner waits for its guests to finish before it stops the server anyway."""
LOG_FILE_NAME = "weaviate-server.log"
"""File in the data dir that receives the embedded server's stdout and stderr."""

_GO_PACKAGE = "github.com/weaviate/weaviate/cmd/weaviate-server"
_VERSION_RE = re.compile(r"^\d\.\d{1,2}\.\d{1,2}$")  # client:embedded.py accepts this (and -rc.N)
_GO_BUILDINFO_MAGIC = b"\xff Go buildinf:"  # Go's debug/buildinfo header, Go >= 1.18
_SERVER_STOP_TIMEOUT_S = 30.0  # --graceful-timeout defaults to 15 s (repo:…/rest/server.go)
_LOG_ROTATE_BYTES = 10 * 1024 * 1024

Log = Callable[[str], None]
WeaviateClient = weaviate.WeaviateClient
"""The client type, re-exported so that modules outside the store need not import weaviate."""


def _quiet(_message: str) -> None:
    """Default ``log`` callable: discard progress messages."""


# --------------------------------------------------------------------------- binary


def _check_version(version: str) -> None:
    if not _VERSION_RE.match(version):
        raise ConfigurationError("weaviate version", f"{version!r} is not of the form 1.39.0")


def embedded_binary_path(version: str = WEAVIATE_VERSION) -> Path:
    """Where weaviate-client's embedded mode looks for the server binary of ``version``.

    Rule (client:embedded.py, ``EmbeddedOptions`` and ``ensure_weaviate_binary_exists``): the
    directory is ``$XDG_CACHE_HOME`` **itself** when that variable is set (no
    ``weaviate-embedded/`` subfolder, despite the docstring of ``connect_to_embedded``), else
    ``~/.cache/weaviate-embedded``; the file is ``weaviate-v<version>-<sha256("v<version>")>``.
    The client reads the variable once, at import time; this function reads it on every call
    and :func:`connect_embedded` passes the directory explicitly, so both always agree. An empty
    ``XDG_CACHE_HOME`` counts as unset (the XDG rule; the client would use the working dir).

    Args:
        version: server version, e.g. ``"1.39.0"``.

    Returns:
        Absolute path of the binary (it may not exist yet), e.g.
        ``~/.cache/weaviate-embedded/weaviate-v1.39.0-f5768c3a…676e``.

    Raises:
        ConfigurationError: ``version`` is not of the form ``1.39.0``.
    """
    _check_version(version)
    cache = os.environ.get("XDG_CACHE_HOME")
    base = Path(cache) if cache else Path.home() / ".cache" / "weaviate-embedded"
    tag = "v" + version
    digest = hashlib.sha256(tag.encode()).hexdigest()
    return base.expanduser().absolute() / f"weaviate-{tag}-{digest}"


def _go_build_info(path: Path) -> tuple[str, str] | None:
    """Main package path and main-module version that the Go toolchain recorded in a binary.

    Reads the build-info blob (Go >= 1.18 layout, as Go's ``debug/buildinfo`` does: 16-byte
    aligned 14-byte magic, pointer size, flags byte with bit 2 = inline strings, then two
    uvarint-length strings from offset 32: Go version and module info). ``go install
    github.com/weaviate/weaviate/cmd/weaviate-server@v1.39.0`` records
    ``("github.com/weaviate/weaviate/cmd/weaviate-server", "v1.39.0")``; a build from a
    checkout records the version ``"(devel)"``.

    Returns:
        ``(package path, version)``, or ``None`` when the file has no readable build info.
    """
    try:
        with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            at = data.find(_GO_BUILDINFO_MAGIC)
            while at != -1:
                if at % 16 == 0 and data[at + 15] & 0x2:
                    strings: list[bytes] = []
                    pos = at + 32
                    for _ in range(2):
                        length, shift = 0, 0
                        while True:
                            byte = data[pos]
                            pos += 1
                            length |= (byte & 0x7F) << shift
                            shift += 7
                            if byte < 0x80:
                                break
                        strings.append(data[pos : pos + length])
                        pos += length
                    if strings[0].startswith(b"go"):
                        info = strings[1].decode("utf-8", "replace")
                        main_path = re.search(r"path\t(\S+)", info)  # after a 16-byte sentinel
                        module = re.search(r"^mod\t\S+\t(\S+)", info, re.MULTILINE)
                        return (
                            main_path.group(1) if main_path else "",
                            module.group(1) if module else "(devel)",
                        )
                at = data.find(_GO_BUILDINFO_MAGIC, at + 1)
    except (OSError, ValueError, IndexError):
        return None
    return None


def _binary_candidates() -> list[tuple[Path, str]]:
    """``weaviate-server`` binaries that could be installed, with where each was found."""
    found: list[tuple[Path, str]] = []
    explicit = os.environ.get(BINARY_ENV)
    if explicit:
        found.append((Path(explicit).expanduser(), BINARY_ENV))
    go = shutil.which("go")
    bin_dirs: list[Path] = []
    if go:
        try:
            out = subprocess.run(
                [go, "env", "GOBIN", "GOPATH"],
                capture_output=True, text=True, timeout=60, check=True,
            ).stdout.splitlines()
        except (OSError, subprocess.SubprocessError):
            out = []
        if out and out[0].strip():
            bin_dirs.append(Path(out[0].strip()))
        if len(out) > 1:
            bin_dirs += [Path(p) / "bin" for p in out[1].split(os.pathsep) if p]
    else:
        bin_dirs.append(Path.home() / "go" / "bin")  # Go's default GOPATH
    for directory in bin_dirs:
        found.append((directory / "weaviate-server", "GOPATH/bin"))
    on_path = shutil.which("weaviate-server")
    if on_path:
        found.append((Path(on_path), "PATH"))
    unique: dict[Path, tuple[Path, str]] = {}
    for path, origin in found:
        key = path.resolve() if path.exists() else path
        unique.setdefault(key, (path, origin))
    return list(unique.values())


def _install_binary(source: Path, target: Path) -> None:
    """Hard-link (or copy) ``source`` to ``target`` with mode 755, atomically via os.replace."""
    staging = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    staging.unlink(missing_ok=True)
    try:
        if source.stat().st_mode & 0o777 == 0o755:
            try:
                os.link(source, staging)  # same inode; no 150 MB copy
            except OSError:
                shutil.copyfile(source, staging)
        else:
            shutil.copyfile(source, staging)  # a link would change the mode of the user's file
        os.chmod(staging, 0o755)
        os.replace(staging, target)
    finally:
        staging.unlink(missing_ok=True)


def _go_build(go: str, version: str, target: Path, log: Log) -> Path | None:
    """``go install`` the server into a temp GOBIN next to ``target``, then move it in place."""
    build_dir = Path(tempfile.mkdtemp(prefix=".go-build-", dir=target.parent))
    command = [go, "install", "-v", "-trimpath", "-ldflags=-s -w", f"{_GO_PACKAGE}@v{version}"]
    env = {**os.environ, "CGO_ENABLED": "0", "GOBIN": str(build_dir)}
    log(f"building Weaviate {version} from source (~10-20 min cold, 1-2 min with a warm Go "
        f"build cache): CGO_ENABLED=0 GOBIN={build_dir} {shlex.join(command)}")
    tail: deque[str] = deque(maxlen=15)
    started = time.monotonic()
    try:
        with subprocess.Popen(
            command, cwd=build_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, errors="replace",
        ) as proc:
            try:
                for line in proc.stdout or ():
                    line = line.rstrip()
                    tail.append(line)
                    log(line)
                code = proc.wait()
            finally:
                if proc.poll() is None:
                    proc.kill()
        built = build_dir / "weaviate-server"
        if code != 0 or not built.is_file():
            log(f"go install failed (exit {code}):\n" + "\n".join(tail))
            return None
        os.chmod(built, 0o755)
        os.replace(built, target)
        log(f"built {target} in {time.monotonic() - started:.0f} s")
        return target
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def _is_executable_file(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def ensure_binary(
    version: str = WEAVIATE_VERSION, *, build: bool = True, log: Log | None = None
) -> Path | None:
    """Make the ``weaviate-server`` binary available where embedded mode looks for it.

    Order (SPEC §7):

    1. the binary already at :func:`embedded_binary_path`;
    2. a ``weaviate-server`` named by ``$CONTRASCAN_WEAVIATE_BINARY``, or found in
       ``$(go env GOBIN)``, ``$(go env GOPATH)/bin`` or on ``PATH``, whose Go build info (read
       from the file, no process started) names the ``weaviate-server`` package at module
       version ``v<version>``; a binary named by the env var is also accepted when its version
       is unknown (no build info, or ``(devel)`` as in builds from a checkout). It is
       hard-linked or copied into place with mode 755;
    3. ``CGO_ENABLED=0 go install -v -trimpath -ldflags="-s -w"
       github.com/weaviate/weaviate/cmd/weaviate-server@v<version>`` into a temp ``GOBIN``,
       then an atomic ``os.replace`` into place (build recipe: WEAVIATE.md §2; release builds
       also use CGO_ENABLED=0, repo:.goreleaser.yaml); needs Go >= 1.26 (repo:go.mod);
    4. otherwise ``None``: weaviate-client then downloads the release from GitHub on first
       start (client:embedded.py), which fails without internet access.

    Steps 2-3 run under an exclusive ``flock`` on a lock file next to the binary, so two
    processes never write it at the same time; the second one waits and reuses the result.

    Args:
        version: server version, e.g. ``"1.39.0"``.
        build: whether step 3 may run (it takes minutes and ~2 GB of Go module cache).
        log: receives one progress line at a time (the ``go install -v`` output included);
            ``None`` discards them.

    Returns:
        Path of the executable binary, or ``None`` when neither a binary nor Go was found or the
        build failed (the reason was sent to ``log``).

    Raises:
        ConfigurationError: ``version`` is malformed, or ``$CONTRASCAN_WEAVIATE_BINARY`` names no
            executable file or a binary of another version.
    """
    say = log or _quiet
    target = embedded_binary_path(version)
    if _is_executable_file(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with _flocked(target.parent / f".{target.name}.lock"):
        if target.is_file() and not os.access(target, os.X_OK):
            os.chmod(target, 0o755)  # the client only chmods what it downloads itself
        if _is_executable_file(target):
            return target  # present, or another process finished while we waited
        wanted = "v" + version
        for candidate, origin in _binary_candidates():
            explicit = origin == BINARY_ENV
            if not _is_executable_file(candidate):
                if explicit:
                    raise ConfigurationError(BINARY_ENV, f"{candidate} is not an executable file")
                continue
            info = _go_build_info(candidate)
            if info is not None and info[0] != _GO_PACKAGE:
                problem = f"{candidate} is {info[0] or 'a Go program'}, not {_GO_PACKAGE}"
            elif info is not None and info[1] not in (wanted, "(devel)"):
                problem = f"{candidate} is Weaviate {info[1]}, not {wanted}"
            elif (info is None or info[1] == "(devel)") and not explicit:
                problem = f"cannot tell the version of {candidate}; set {BINARY_ENV} to use it"
            else:
                problem = ""
            if problem:
                if explicit:
                    raise ConfigurationError(BINARY_ENV, problem)
                say(f"skipping {candidate} ({origin}): {problem}")
                continue
            _install_binary(candidate, target)
            say(f"installed {candidate} ({origin}) as {target}")
            return target
        go = shutil.which("go")
        if build and go:
            return _go_build(go, version, target, say)
        say("no weaviate-server binary found" + ("" if go else " and Go is not installed")
            + f"; weaviate-client will try to download Weaviate {version} on first start")
        return None


@contextlib.contextmanager
def _flocked(path: Path) -> Iterator[None]:
    """Hold an exclusive, blocking ``flock`` on ``path`` for the duration of the block."""
    fd = access.open_private(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


# --------------------------------------------------------------------------- clients we made


@dataclass(frozen=True)
class _ClientInfo:
    where: str  # the server, as messages name it
    import_lock: Path  # the file :func:`import_lock` flocks
    rest: RestEndpoint | None = None  # see :func:`rest_endpoint`


@dataclass(frozen=True)
class RestEndpoint:
    """A server's REST API on a loopback address over plain HTTP (see :func:`rest_endpoint`).

    Attributes:
        host: ``127.0.0.1``, ``localhost`` or ``::1``.
        port: the REST port.
        headers: sent with every request (the API key's ``Authorization``, when one is set).
    """

    host: str
    port: int
    headers: tuple[tuple[str, str], ...] = ()


_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_CLIENTS: weakref.WeakKeyDictionary[weaviate.WeaviateClient, _ClientInfo] = (
    weakref.WeakKeyDictionary()
)
_PROCESS_IMPORT_LOCK = threading.Lock()


def _register(client: weaviate.WeaviateClient, where: str, import_lock_file: Path,
              rest: RestEndpoint | None = None) -> None:
    _CLIENTS[client] = _ClientInfo(where=where, import_lock=import_lock_file, rest=rest)


def rest_endpoint(client: Any) -> RestEndpoint | None:
    """The loopback plain-HTTP REST endpoint of a client made by :func:`connect_embedded` or
    :func:`connect_url`, or None (any other client, TLS, a remote host).

    For requests the client has no batch form of (a merge update of one object is a PATCH
    per object, weaviate#2131): the store sends them on its own keep-alive connections, which
    costs a fifth of the client CPU per request (measured, 3,000 status PATCHes: 2.7 s ->
    0.7 s). Only on loopback without TLS, where no proxy, certificate or token refresh of the
    client's HTTP stack can apply.
    """
    info = _client_info(client)
    return info.rest if info is not None else None


def _client_info(client: Any) -> _ClientInfo | None:
    try:
        return _CLIENTS.get(client)
    except TypeError:  # not weak-referenceable (None, a mock)
        return None


def describe(client: weaviate.WeaviateClient) -> str:
    """The server of ``client`` as messages name it.

    Returns:
        e.g. ``"the embedded Weaviate of /data (127.0.0.1:8079)"`` or ``"Weaviate at
        http://host:8080"``; ``"Weaviate"`` for a client this module did not create.
    """
    info = _client_info(client)
    return info.where if info is not None else "Weaviate"


@contextlib.contextmanager
def import_lock(client: weaviate.WeaviateClient) -> Iterator[None]:
    """Hold the cross-process import lock of ``client``'s server for the block.

    Imports hold it around "which of these ids are stored?" + "insert the others", so that no
    two imports insert the same id (see the module docstring for what it covers). The file is
    ``<data_dir>/.contrascan-import.lock`` for an embedded server, and
    ``<user cache dir>/locks/import-<digest of scheme, host and port>.lock`` for a server
    reached by URL. A client this module did not create gets a lock of this process only.
    Threads of one process exclude each other too (each call opens its own descriptor).
    """
    info = _client_info(client)
    if info is None:
        with _PROCESS_IMPORT_LOCK:
            yield
        return
    info.import_lock.parent.mkdir(parents=True, exist_ok=True)
    with _flocked(info.import_lock):
        yield


# --------------------------------------------------------------------------- ports, processes


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


def _port_in_use(port: int) -> bool:
    """Whether something listens on TCP ``port`` (any interface) or holds UDP ``port``.

    Weaviate binds gRPC and the cluster data port on all interfaces regardless of ``--host``
    (WEAVIATE.md §1), so the probe binds the wildcard address. SO_REUSEADDR ignores sockets in
    TIME_WAIT left by a previous server, as Go's listeners do.
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
        if port >= 1029 and not any(_port_in_use(p) for p in range(port - 4, port + 1)):
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


def _is_ready(port: int, timeout_s: float = 2.0) -> bool:
    """Whether ``GET http://127.0.0.1:<port>/v1/.well-known/ready`` answers 200.

    ``ready`` is 200 only once Raft has a leader and memberlist is healthy; ``live`` would
    answer earlier (repo:adapters/handlers/rest/middlewares.go).
    """
    url = f"http://127.0.0.1:{port}/v1/.well-known/ready"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy
    try:
        with opener.open(url, timeout=timeout_s) as response:
            return int(response.status) == 200
    except (OSError, ValueError):  # URLError, HTTPError (503), timeouts are OSErrors
        return False


def _process_args(pid: int) -> list[str]:
    """Command line of ``pid`` (empty when the process is gone or is a zombie)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        return [a.decode("utf-8", "replace") for a in raw.split(b"\0") if a]
    except FileNotFoundError:
        return []
    except OSError:
        pass
    try:  # no /proc (macOS)
        out = subprocess.run(
            ["ps", "-o", "args=", "-p", str(pid)], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return []
    return out.split() if out else []


def _is_weaviate_process(pid: int) -> bool:
    args = _process_args(pid)
    return bool(args) and Path(args[0]).name.startswith("weaviate")


def server_pids(data_dir: Path) -> list[int]:
    """Process ids of Weaviate servers whose ``PERSISTENCE_DATA_PATH`` is ``data_dir``.

    Reads ``/proc/<pid>/environ`` (Linux; only processes of the same user are readable). On
    systems without ``/proc`` it returns the server recorded in the data dir's state file if
    that process is still a Weaviate server.

    Args:
        data_dir: data directory of an embedded server.

    Returns:
        Sorted pids, empty when no server runs on ``data_dir``.
    """
    wanted = str(Path(data_dir).expanduser().resolve())
    proc = Path("/proc")
    if not proc.is_dir():
        state = _read_state(Path(wanted))
        pid = state.get("server_pid") if state else None
        return [pid] if isinstance(pid, int) and _is_weaviate_process(pid) else []
    pids = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"PERSISTENCE_DATA_PATH={wanted}".encode() in environ and _is_weaviate_process(
            int(entry.name)
        ):
            pids.append(int(entry.name))
    return sorted(pids)


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
    server that uses ``port`` for REST, gRPC or the cluster, or ``None`` (also without
    ``/proc``, or when that server belongs to another user)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        environ = dict(item.decode("utf-8", "replace").partition("=")[::2] for item in raw if item)
        data_path = environ.get("PERSISTENCE_DATA_PATH")
        if (environ.get("CLUSTER_HOSTNAME") != CLUSTER_HOSTNAME or not data_path
                or not _is_weaviate_process(int(entry.name))
                or port not in _server_ports(int(entry.name), environ)):
            continue
        state = _read_state(Path(data_path)) or {}
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


def _stop_process(pid: int, timeout_s: float = _SERVER_STOP_TIMEOUT_S) -> None:
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


# --------------------------------------------------------------------------- embedded server


def _read_state(data_dir: Path) -> dict[str, Any] | None:
    try:
        state = json.loads((data_dir / STATE_FILE_NAME).read_text())
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def _write_state(data_dir: Path, state: dict[str, Any]) -> None:
    path = data_dir / STATE_FILE_NAME
    staging = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    with os.fdopen(access.open_private(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                   "w") as out:
        out.write(json.dumps(state, indent=1) + "\n")
    os.replace(staging, path)


def _server_environment(data_dir: Path, port: int, grpc_port: int, key: str) -> dict[str, str]:
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
        "AUTOSCHEMA_ENABLED": "false",
        "API_BASED_MODULES_DISABLED": "true",
        "DEFAULT_VECTORIZER_MODULE": "none",
        "ENABLE_MODULES": "",  # empty = none (the client's default enables five API modules)
        "ASYNC_INDEXING": "false",
        "LOG_LEVEL": "warning",
        "LOG_FORMAT": "text",
    }


@contextlib.contextmanager
def _output_to(log_path: Path) -> Iterator[None]:
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


def _join_as_guest(data_dir: Path) -> int | None:
    """Register this process as a guest of the data dir's server: a descriptor holding a shared
    ``flock`` on the guests lock file, or ``None`` when the owner holds it exclusively (it is
    stopping its server)."""
    fd = access.open_private(data_dir / GUESTS_LOCK_FILE_NAME)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as err:
        os.close(fd)
        if err.errno not in (errno.EAGAIN, errno.EACCES):
            raise
        return None
    return fd


def _wait_for_guests(data_dir: Path, wait_s: float, say: Log) -> int | None:
    """Wait until no guest uses the data dir's server, then keep new ones out.

    Returns:
        A descriptor holding the guests lock file exclusively (close it once the server is
        stopped and the data dir lock released), or ``None`` when guests still held it after
        ``wait_s`` seconds (both outcomes are logged).
    """
    path = data_dir / GUESTS_LOCK_FILE_NAME
    fd = access.open_private(path)
    deadline = time.monotonic() + wait_s
    waited = False
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if waited:
                    say("the other contrascan processes are done; stopping Weaviate")
                return fd
            except OSError as err:
                if err.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
            holders = access.lock_holders(path, "READ")
            if holders and access.foreign_holders(holders) == holders:
                # another user opened the file while the dir was readable: not a guest of ours
                say(f"ignoring the lock on {path} held by another user's process "
                    f"(pid {', '.join(map(str, holders))}); stopping Weaviate")
                os.close(fd)
                return None
            who = (f"{len(holders)} other contrascan process(es)" if holders
                   else "other contrascan process(es)")
            if not waited:
                pids = f"pid {', '.join(map(str, holders))}; " if holders else ""
                say(f"waiting for {who} using this Weaviate to finish ({pids}data dir "
                    f"{data_dir}; at most {wait_s:.0f} s)")
                waited = True
            if time.monotonic() >= deadline:
                say(f"{who} still using this Weaviate after {wait_s:.0f} s; stopping it anyway")
                os.close(fd)
                return None
            time.sleep(0.2)
    except BaseException:
        os.close(fd)
        raise


class _OwnedEmbeddedClient(weaviate.WeaviateClient):
    """Embedded-mode client that also owns the data dir lock; ``close()`` releases it.

    ``close()`` first waits for the guests (:func:`_wait_for_guests`), then lets the client stop
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
            guests_fd = _wait_for_guests(self._contrascan_data_dir,
                                         self._contrascan_guest_wait_s, self._contrascan_log)
        finally:
            try:
                super().close()
            finally:
                self._release_data_dir()
                if guests_fd is not None:
                    os.close(guests_fd)

    def _release_data_dir(self) -> None:
        fd, self._contrascan_lock_fd = self._contrascan_lock_fd, None
        if fd is None:
            return
        try:
            state = _read_state(self._contrascan_data_dir)
            if state and state.get("pid") == os.getpid():
                (self._contrascan_data_dir / STATE_FILE_NAME).unlink(missing_ok=True)
        finally:
            os.close(fd)


class _GuestClient(weaviate.WeaviateClient):
    """Client of a server that another process owns; holds this process's guest registration
    (see :func:`_join_as_guest`) until ``close()``. Closing it leaves the server running."""

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
    _register(client, f"the embedded Weaviate of {data_dir} (127.0.0.1:{port}"
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
        _stop_orphans(data_dir, say, guest_wait_s)
        _check_ports_free(data_dir, port, grpc_port)
        _write_state(data_dir, state)
        options = EmbeddedOptions(
            hostname="127.0.0.1",
            port=port,
            grpc_port=grpc_port,
            version=version,
            persistence_data_path=str(data_dir),
            binary_path=str(binary.parent),
            additional_env_vars=_server_environment(data_dir, port, grpc_port, key),
        )
        started = time.monotonic()
        with _output_to(log_path), access.private_umask():
            # Starts the server and waits up to 30 s for both ports to accept TCP
            # (client:embedded.py ``wait_till_listening``).
            client = _OwnedEmbeddedClient(
                lock_fd=lock_fd, data_dir=data_dir, guest_wait_s=guest_wait_s, log=say,
                embedded_options=options, skip_init_checks=True,
                auth_client_secret=Auth.api_key(key),
            )
    except BaseException as err:
        for pid in server_pids(data_dir):
            _stop_process(pid)
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
        _write_state(data_dir, state)
        # The client's own wait for /ready is 10 s, after which it kills the server
        # (client:connect/v4.py ``wait_for_weaviate``); a large data dir can take longer.
        deadline = started + startup_timeout_s
        while not _is_ready(port):
            exited = process.poll() if process is not None else None
            if exited is not None:
                raise WeaviateUnavailable(
                    f"embedded Weaviate exited with code {exited}", f"see {log_path}"
                )
            if time.monotonic() > deadline:
                raise WeaviateUnavailable(
                    f"embedded Weaviate was not ready after {startup_timeout_s:.0f} s",
                    f"see {log_path}",
                )
            time.sleep(0.1)
        try:
            client.connect()
        except WeaviateBaseError as err:
            raise WeaviateUnavailable("could not connect to embedded Weaviate", str(err)) from err
        _verify_version(client, version)
    except BaseException:
        client.close()
        raise
    _register(client, f"the embedded Weaviate of {data_dir} (127.0.0.1:{port})",
              data_dir / IMPORT_LOCK_FILE_NAME, RestEndpoint("127.0.0.1", port, _bearer(key)))
    return client


def _check_ports_free(data_dir: Path, port: int, grpc_port: int) -> None:
    """Raise :class:`WeaviateUnavailable` naming the first port of the server that is taken,
    and who holds it when that is the embedded server of another contrascan data dir."""
    roles = {"REST": port, "gRPC": grpc_port, **cluster_ports(port)}
    for role, number in roles.items():
        if not _port_in_use(number):
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


def _stop_orphans(data_dir: Path, say: Log, guest_wait_s: float) -> None:
    """Stop servers left running on ``data_dir`` by an owner that died without closing them
    (e.g. SIGKILL: the server is a child process and outlives it), once the guests that still
    use them are done (:func:`_wait_for_guests`)."""
    previous = _read_state(data_dir)
    orphans = set(server_pids(data_dir))
    recorded = previous.get("server_pid") if previous else None
    if isinstance(recorded, int) and _is_weaviate_process(recorded):
        orphans.add(recorded)
    if not orphans:
        return
    guests_fd = _wait_for_guests(data_dir, guest_wait_s, say)
    try:
        for pid in sorted(orphans):
            owner = previous.get("pid") if previous else None
            say(f"stopping Weaviate server {pid} left running on {data_dir} by process {owner}")
            _stop_process(pid)
    finally:
        if guests_fd is not None:
            os.close(guests_fd)


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
    ``_server_environment`` (fixed node name and ports, so Raft survives restarts, weaviate#5491).
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
    process it keeps running and the next owner stops it. If the server dies, the client starts
    it again on its next REST request (client:embedded.py ``ensure_running``); that restart
    writes to our terminal and skips the readiness wait.

    Args:
        data_dir: directory of the server's files; created if missing.
        port: REST port on 127.0.0.1; ``port - 4 .. port - 1`` are the cluster ports
            (:func:`cluster_ports`). Ignored when joining another process's server.
        grpc_port: gRPC port (binds all interfaces, WEAVIATE.md §1). Ignored when joining.
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
    say = log or _quiet
    _check_version(version)
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
    state, and this process's guest registration (:func:`_join_as_guest`; ``None`` when the
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
        if holders and access.foreign_holders(holders) == holders:
            # another user's process: its server would not be ours to use, never wait for it
            raise DataDirectoryBusy(str(data_dir), holders[0])
        state = _read_state(data_dir)  # the owner writes it before starting its server
        if state and isinstance(state.get("port"), int):
            if state.get("pid") == os.getpid():
                if _is_ready(state["port"]):
                    return state, None
            else:
                guest_fd = _join_as_guest(data_dir)
                if guest_fd is not None:
                    # Registered: whoever owns the server now waits for us before stopping it.
                    # Read the state again, it may have changed hands before we registered.
                    state = _read_state(data_dir)
                    if state and isinstance(state.get("port"), int) and _is_ready(state["port"]):
                        return state, guest_fd
                    os.close(guest_fd)
        if time.monotonic() > deadline:
            raise DataDirectoryBusy(str(data_dir), state.get("pid") if state else None)
        time.sleep(0.25)


# --------------------------------------------------------------------------- any Weaviate by URL


def connect_url(url: str, *, api_key_env: str = API_KEY_ENV,
                api_key: str | None = None) -> weaviate.WeaviateClient:
    """Connect to a Weaviate server by URL (scale-out, SPEC §7).

    Args:
        url: ``http(s)://host[:port][?grpc_port=N][&grpc_host=H]``. The REST port defaults to
            80/443; ``grpc_port`` to 50051 (Weaviate's default); ``grpc_host`` to ``host``
            (Weaviate Cloud uses ``grpc-<host>``). gRPC uses TLS when the URL is https.
        api_key_env: name of the env var holding an API key; unset or empty = anonymous.
        api_key: the API key itself (wins over ``api_key_env``).

    Returns:
        A connected client. The client's init checks ran: REST ``/v1/meta``, a gRPC health
        ping, and a best-effort PyPI version query (2 s timeout, client:connect/v4.py).

    Raises:
        ConfigurationError: the URL is malformed.
        WeaviateUnavailable: the server cannot be reached over REST or gRPC, or rejects the key.
    """
    parts = urllib.parse.urlsplit(url)
    try:
        rest_port = parts.port
    except ValueError as err:
        raise ConfigurationError("weaviate-url", f"{url!r}: {err}") from err
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise ConfigurationError("weaviate-url", f"{url!r} is not http(s)://host[:port]")
    secure = parts.scheme == "https"
    query = urllib.parse.parse_qs(parts.query)
    try:
        grpc_port = int(query.get("grpc_port", [str(DEFAULT_URL_GRPC_PORT)])[0])
    except ValueError as err:
        raise ConfigurationError("weaviate-url", f"{url!r}: grpc_port is not a number") from err
    api_key = api_key or os.environ.get(api_key_env) or None
    shown = urllib.parse.urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], "", "", ""))
    try:
        with warnings.catch_warnings():
            # "Dep005: You are using weaviate-client version X. The latest version is Y": advice
            # from the PyPI query; the client version is pinned in pyproject.toml.
            warnings.filterwarnings("ignore", message="Dep005", category=DeprecationWarning)
            client = weaviate.connect_to_custom(
                http_host=parts.hostname,
                http_port=rest_port or (443 if secure else 80),
                http_secure=secure,
                grpc_host=query.get("grpc_host", [parts.hostname])[0],
                grpc_port=grpc_port,
                grpc_secure=secure,
                auth_credentials=Auth.api_key(api_key) if api_key else None,
            )
    except WeaviateBaseError as err:
        raise WeaviateUnavailable(
            f"cannot connect to Weaviate at {shown} (gRPC port {grpc_port})", one_line(str(err))
        ) from err
    lock_key = f"{parts.scheme}://{parts.hostname}:{rest_port or (443 if secure else 80)}"
    rest = None
    if not secure and parts.hostname in _LOOPBACK_HOSTS:
        rest = RestEndpoint(parts.hostname, rest_port or 80,
                            (("Authorization", f"Bearer {api_key}"),) if api_key else ())
    _register(client, f"Weaviate at {shown}",
              Path(platformdirs.user_cache_dir("contrascan", appauthor=False)) / "locks"
              / f"import-{hashlib.sha256(lock_key.encode()).hexdigest()[:16]}.lock", rest)
    return client


def one_line(text: str, limit: int = 300) -> str:
    """``text`` with its whitespace runs (newlines included) collapsed to one space, cut to
    ``limit`` characters: error details from the client span lines."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# --------------------------------------------------------------------------- defaults, CLI glue


def default_data_dir() -> Path:
    """Data directory of the embedded server.

    Returns:
        ``$CONTRASCAN_DATA_DIR`` if set, else ``platformdirs.user_data_dir("contrascan") /
        "weaviate"`` (``~/.local/share/contrascan/weaviate`` on Linux).
    """
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("contrascan", appauthor=False)) / "weaviate"


@contextlib.contextmanager
def open_client(
    *,
    weaviate_url: str | None = None,
    data_dir: Path | None = None,
    port: int | None = None,
    grpc_port: int | None = None,
    log: Log | None = None,
) -> Iterator[weaviate.WeaviateClient]:
    """The client the CLI and the service use: by URL, else embedded. Closed on exit.

    Args:
        weaviate_url: use this server (:func:`connect_url`); the other options must be unset.
        data_dir: embedded data dir; default :func:`default_data_dir`.
        port: embedded REST port; default 8079 (cluster ports 8075-8078).
        grpc_port: embedded gRPC port; default 8074.
        log: receives provisioning progress (:func:`ensure_binary` may build for minutes).

    Yields:
        A connected client.

    Raises:
        ConfigurationError: ``weaviate_url`` combined with embedded options, or bad options.
        WeaviateUnavailable: see :func:`connect_url` and :func:`connect_embedded`.
        DataDirectoryBusy: see :func:`connect_embedded`.
    """
    if weaviate_url:
        if data_dir is not None or port is not None or grpc_port is not None:
            raise ConfigurationError(
                "weaviate-url", "--data-dir, --port and --grpc-port apply to the embedded "
                "server only; drop them or drop --weaviate-url"
            )
        client = connect_url(weaviate_url)
    else:
        ensure_binary(log=log)
        client = connect_embedded(
            data_dir if data_dir is not None else default_data_dir(),
            port=port if port is not None else DEFAULT_PORT,
            grpc_port=grpc_port if grpc_port is not None else DEFAULT_GRPC_PORT,
            log=log,
        )
    try:
        yield client
    finally:
        client.close()


def main() -> int:
    """``python -m scanner.store.server``: provision the binary, print its path on stdout.

    Progress goes to stderr. Exits 0 also when no binary could be provisioned (weaviate-client
    then tries its download on first start), 1 on a configuration error.
    """
    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        path = ensure_binary(log=progress)
    except ConfigurationError as err:
        progress(f"error: {err}")
        return 1
    if path is None:
        progress(f"weaviate-server {WEAVIATE_VERSION}: not provisioned; the client will try to "
                 "download it on first start")
        return 0
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
