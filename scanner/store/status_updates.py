"""Status merge updates of many memories of one tenant (``data.update``, a PATCH each).

Weaviate has no batch form of a merge update (weaviate#2131): every status change is one
``PATCH /v1/objects/{collection}/{uuid}``, which keeps the vector and the ``supersedes``
edges. :func:`update_many` sends them ``workers`` at a time through the client's
``data.update`` — except on a loopback server over plain HTTP
(:func:`scanner.store.connection.rest_endpoint`), where they go out on keep-alive connections of
our own (:class:`LoopbackPatcher`, the same request as ``data.update``): there no proxy,
certificate or token refresh of the client's HTTP stack can apply, and the client takes about
twice the time. Measured by ``python -m benchmarks.bench_status_updates`` (3,000 updates in one
tenant, 8 threads, median of 5 alternating rounds, embedded Weaviate 1.39.0, weaviate-client
4.24.1, a shared 2-core machine): our connections 2.91 s, the client's ``data.update`` 5.49 s
(x1.9, load average ~10; x2.2 in an earlier run at load ~8, and 0.7 s against 2.7 s on an idle
machine). A batch scan's first pass over a tenant with many verdicts spends that time once per
retired or held memory.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import weaviate
from weaviate.exceptions import WeaviateBaseError

from scanner.errors import StoreWriteError
from scanner.store.connection import RestEndpoint, rest_endpoint
from scanner.store.schema import undeclared
from scanner.store.tenants import object_uuid


def update_many(client: weaviate.WeaviateClient, col: Any, user_id: str,
                updates: Sequence[tuple[str, dict[str, Any]]], workers: int = 8) -> None:
    """Merge updates (PATCH) of one object each, ``workers`` at a time; every failure is
    collected with its memory id (module docstring says which way they are sent).

    Args:
        client: the client ``col`` belongs to.
        col: a tenant-bound handle of the memory collection.
        user_id: the tenant's user (object UUIDs are :func:`~scanner.store.tenants.object_uuid`).
        updates: ``(memory id, properties to set)``.
        workers: threads; 1, or fewer than 4 updates, sends them one after another.

    Raises:
        StoreWriteError: the updates Weaviate rejected or that failed, each with its id, and
            how many were written; an update naming a property the collection does not
            declare is not sent and is one of them (:func:`scanner.store.schema.undeclared`).
    """
    if not updates:
        return
    asked = len(updates)
    failures: list[tuple[str, str]] = []
    sent = []
    for mid, props in updates:
        why = undeclared(col, props)
        if why is None:
            sent.append((mid, props))
        else:
            failures.append((mid, why))
    updates = sent
    endpoint = rest_endpoint(client)
    level = getattr(col, "consistency_level", None)
    patch = LoopbackPatcher(endpoint, col.name, col.tenant, user_id, failures,
                            consistency_level=level.value if level is not None else None) \
        if endpoint is not None else None

    def one(item: tuple[str, dict[str, Any]]) -> None:
        mid, props = item
        try:
            col.data.update(uuid=object_uuid(user_id, mid), properties=props)
        except WeaviateBaseError as err:
            failures.append((mid, str(err)))

    send = patch if patch is not None else one
    try:
        if workers <= 1 or len(updates) < 4:
            for item in updates:
                send(item)
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(send, updates))
    finally:
        if patch is not None:
            patch.close()
    if failures:
        raise StoreWriteError(failures, asked - len(failures))


class LoopbackPatcher:
    """PATCH /v1/objects/{collection}/{uuid} of one tenant's objects on a loopback REST
    endpoint, one keep-alive connection per thread (the request ``data.update`` sends: class,
    properties, tenant; 200 or 204 is success). Failures go to ``failures`` as
    ``(memory id, message)``; a request on a reused connection that the server closed is sent
    once more on a new one (setting the same properties twice is the same update)."""

    def __init__(self, endpoint: RestEndpoint, collection: str, tenant: str | None,
                 user_id: str, failures: list[tuple[str, str]], timeout_s: float = 90.0,
                 consistency_level: str | None = None):
        self.endpoint = endpoint
        self.query = f"?consistency_level={consistency_level}" if consistency_level else ""
        self.collection = collection
        self.tenant = tenant
        self.user_id = user_id
        self.failures = failures
        self.timeout_s = timeout_s
        self.headers = {"Content-Type": "application/json", **dict(endpoint.headers)}
        self._local = threading.local()
        self._opened: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    def _connection(self, fresh: bool = False) -> http.client.HTTPConnection:
        conn = getattr(self._local, "conn", None)
        if conn is not None and not fresh:
            return conn
        if conn is not None:
            conn.close()
        conn = http.client.HTTPConnection(self.endpoint.host, self.endpoint.port,
                                          timeout=self.timeout_s)
        self._local.conn = conn
        with self._lock:
            self._opened.append(conn)
        return conn

    def __call__(self, item: tuple[str, dict[str, Any]]) -> None:
        mid, props = item
        body: dict[str, Any] = {"class": self.collection, "properties": props}
        if self.tenant is not None:
            body["tenant"] = self.tenant
        payload = json.dumps(body).encode()
        path = f"/v1/objects/{self.collection}/{object_uuid(self.user_id, mid)}{self.query}"
        reused = getattr(self._local, "conn", None) is not None
        for attempt in (0, 1):
            conn = self._connection(fresh=attempt > 0)
            try:
                conn.request("PATCH", path, body=payload, headers=self.headers)
                response = conn.getresponse()
                text = response.read()
            except (OSError, http.client.HTTPException) as err:
                conn.close()
                self._local.conn = None
                if attempt == 0 and reused:
                    continue
                self.failures.append((mid, f"update object: {type(err).__name__}: {err}"))
                return
            if response.status not in (200, 204):
                self.failures.append((mid, f"update object: HTTP {response.status}: "
                                           f"{text[:300].decode(errors='replace')}"))
            return

    def close(self) -> None:
        with self._lock:
            for conn in self._opened:
                conn.close()
            self._opened.clear()
