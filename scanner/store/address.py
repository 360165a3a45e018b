"""The address of a connected client's server, for another process to connect to it.

A helper process of the sidecar (the store statistics' refresh, :mod:`scanner.stats_process`)
opens its own client with :func:`scanner.store.connection.connect_url`; :func:`server_address`
gives it the URL and API key of the server a client of this process is connected to. The
client keeps them in its connection (``_connection._connection_params``, a
``ConnectionParams`` of REST and gRPC host, port and TLS, and ``_connection._auth``, client:
connect/v4.py ``ConnectionV4.__init__``), which weaviate-client 4.24.1 does not expose
publicly; they are read defensively, and anything unexpected gives None, so that the caller
keeps its work in-process.

``client:PATH`` is a file of the installed weaviate-client 4.24.1 (``weaviate/PATH``).
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ServerAddress:
    """Where a Weaviate server answers, in the form :func:`connect_url` takes.

    Attributes:
        url: ``http(s)://host:port?grpc_port=N&grpc_host=H``.
        api_key: the key the client authenticates with, or None (anonymous).
    """

    url: str
    api_key: str | None = None

    def __repr__(self) -> str:  # never print the key
        return f"ServerAddress(url={self.url!r}, api_key={'***' if self.api_key else None})"


def server_address(client: Any) -> ServerAddress | None:
    """The server of ``client`` as a URL and API key, or None where that cannot say it.

    Args:
        client: a connected ``weaviate.WeaviateClient`` (embedded or by URL).

    Returns:
        The address; None for a client whose connection is not the one weaviate-client 4.24.1
        builds, whose REST and gRPC differ in TLS (one URL scheme cannot say both), that
        reaches gRPC through a grpc-web prefix, or that authenticates otherwise than with an
        API key (OIDC tokens expire and are refreshed by the client that holds them).
    """
    connection = getattr(client, "_connection", None)
    params = getattr(connection, "_connection_params", None)
    http, grpc = getattr(params, "http", None), getattr(params, "grpc", None)
    try:
        hosts = (str(http.host), str(grpc.host))
        ports = (int(http.port), int(grpc.port))
        secure = (bool(http.secure), bool(grpc.secure))
    except (AttributeError, TypeError, ValueError):
        return None
    if secure[0] != secure[1] or getattr(params, "grpc_path_prefix", None):
        return None
    auth = getattr(connection, "_auth", None)
    api_key = getattr(auth, "api_key", None) if auth is not None else None
    if auth is not None and not isinstance(api_key, str):
        return None
    host = f"[{hosts[0]}]" if ":" in hosts[0] else hosts[0]
    query = urllib.parse.urlencode({"grpc_port": ports[1], "grpc_host": hosts[1]})
    return ServerAddress(f"{'https' if secure[0] else 'http'}://{host}:{ports[0]}?{query}",
                         api_key)
