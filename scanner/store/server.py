"""Provision, start and connect to Weaviate (SPEC §7): the store's way to a server.

Two ways to reach a server:

* **Embedded** (default): weaviate-client's embedded mode runs a ``weaviate-server`` binary
  that this package provisions (:func:`ensure_binary`), with its data under
  :func:`default_data_dir`. One process owns a data directory at a time
  (:func:`connect_embedded`); other processes connect to the owner's server.
* **By URL**: any Weaviate, for scale-out (:func:`connect_url`).

:func:`open_client` picks one of the two for the CLI and the service. The work is split by
concern, and every public name is re-exported here:

================================  ==========================================================
:mod:`scanner.store.binary`       the ``weaviate-server`` binary: find, install or build it
:mod:`scanner.store.processes`    ports, the server's environment and log, finding and
                                  stopping server processes
:mod:`scanner.store.locks`        the data dir's owner and guest locks and ownership record
:mod:`scanner.store.embedded`     start or join the embedded server of a data dir
:mod:`scanner.store.connection`   connect by URL; what is known of every client made
================================  ==========================================================

Run ``python -m scanner.store.server`` to provision the binary ahead of time (``make setup``).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from scanner.errors import ConfigurationError
from scanner.store.binary import BINARY_ENV, WEAVIATE_VERSION, embedded_binary_path, ensure_binary
from scanner.store.connection import (
    API_KEY_ENV,
    DATA_DIR_ENV,
    DEFAULT_URL_GRPC_PORT,
    RestEndpoint,
    WeaviateClient,
    connect_url,
    default_data_dir,
    describe,
    import_lock,
    one_line,
    rest_endpoint,
)
from scanner.store.embedded import connect_embedded
from scanner.store.locks import (
    GUEST_WAIT_S,
    GUESTS_LOCK_FILE_NAME,
    IMPORT_LOCK_FILE_NAME,
    LOCK_FILE_NAME,
    STATE_FILE_NAME,
    Log,
)
from scanner.store.processes import (
    CLUSTER_HOSTNAME,
    DEFAULT_GRPC_PORT,
    DEFAULT_PORT,
    LOG_FILE_NAME,
    cluster_ports,
    free_port,
    free_ports,
    server_pids,
)

__all__ = [
    "API_KEY_ENV", "BINARY_ENV", "CLUSTER_HOSTNAME", "DATA_DIR_ENV", "DEFAULT_GRPC_PORT",
    "DEFAULT_PORT", "DEFAULT_URL_GRPC_PORT", "GUESTS_LOCK_FILE_NAME", "GUEST_WAIT_S",
    "IMPORT_LOCK_FILE_NAME", "LOCK_FILE_NAME", "LOG_FILE_NAME", "STATE_FILE_NAME",
    "WEAVIATE_VERSION", "Log", "RestEndpoint", "WeaviateClient", "cluster_ports",
    "connect_embedded", "connect_url", "default_data_dir", "describe", "embedded_binary_path",
    "ensure_binary", "free_port", "free_ports", "import_lock", "main", "one_line",
    "open_client", "rest_endpoint", "server_pids",
]


@contextlib.contextmanager
def open_client(
    *,
    weaviate_url: str | None = None,
    data_dir: Path | None = None,
    port: int | None = None,
    grpc_port: int | None = None,
    log: Log | None = None,
) -> Iterator[WeaviateClient]:
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
