"""Clients of a Weaviate server: by URL, and what this package knows of the clients it made.

:func:`connect_url` reaches any Weaviate (scale-out, SPEC §7); the embedded server is reached
through :mod:`scanner.store.embedded`. Every client made by either is registered here with how
messages name its server (:func:`describe`), its import lock (:func:`import_lock`) and, on a
loopback server, its plain REST endpoint (:func:`rest_endpoint`).

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
(``weaviate/PATH``); ``weaviate#N`` is an issue of weaviate/weaviate.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import urllib.parse
import warnings
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
import weaviate
from weaviate.classes.init import Auth
from weaviate.exceptions import WeaviateBaseError

from scanner.errors import ConfigurationError, WeaviateUnavailable
from scanner.store.locks import flocked

DEFAULT_URL_GRPC_PORT = 50051
"""gRPC port assumed for :func:`connect_url` when the URL names none (Weaviate's default)."""


DATA_DIR_ENV = "CONTRASCAN_DATA_DIR"
"""Env var overriding :func:`default_data_dir`."""


API_KEY_ENV = "CONTRASCAN_WEAVIATE_API_KEY"
"""Env var holding the API key for :func:`connect_url`."""


WeaviateClient = weaviate.WeaviateClient
"""The client type, re-exported so that modules outside the store need not import weaviate."""


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


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


_CLIENTS: weakref.WeakKeyDictionary[weaviate.WeaviateClient, _ClientInfo] = (
    weakref.WeakKeyDictionary()
)


_PROCESS_IMPORT_LOCK = threading.Lock()


def register(client: weaviate.WeaviateClient, where: str, import_lock_file: Path,
              rest: RestEndpoint | None = None) -> None:
    _CLIENTS[client] = _ClientInfo(where=where, import_lock=import_lock_file, rest=rest)


def rest_endpoint(client: Any) -> RestEndpoint | None:
    """The loopback plain-HTTP REST endpoint of a client made by :func:`connect_embedded` or
    :func:`connect_url`, or None (any other client, TLS, a remote host).

    For requests the client has no batch form of (a merge update of one object is a PATCH
    per object, weaviate#2131): the store sends them on its own keep-alive connections
    (:mod:`scanner.store.status_updates`, which gives the measured figures). Only on loopback
    without TLS, where no proxy, certificate or token refresh of the client's HTTP stack can
    apply.
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
    with flocked(info.import_lock):
        yield


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
    if not secure and parts.hostname in LOOPBACK_HOSTS:
        rest = RestEndpoint(parts.hostname, rest_port or 80,
                            (("Authorization", f"Bearer {api_key}"),) if api_key else ())
    register(client, f"Weaviate at {shown}",
              Path(platformdirs.user_cache_dir("contrascan", appauthor=False)) / "locks"
              / f"import-{hashlib.sha256(lock_key.encode()).hexdigest()[:16]}.lock", rest)
    return client


def one_line(text: str, limit: int = 300) -> str:
    """``text`` with its whitespace runs (newlines included) collapsed to one space, cut to
    ``limit`` characters: error details from the client span lines."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


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
