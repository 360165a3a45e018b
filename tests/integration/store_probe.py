"""A probe of the embedded Weaviate's ports by another local user, who has no key.

Run by tests/integration/test_store_ports.py as root: it loads what it needs (gRPC, the
request bytes), then becomes the user it is given (``setgroups``, ``setgid``, ``setuid``)
before it opens a single socket, and tries every port it is given:

* TCP: whether a connection is accepted; on an accepted port, every read and every change it
  knows, without a key:

  - REST (``GET /v1/schema``, the collection's tenants, a tenant's objects, the cluster data
    API's ``/nodes/status``; ``DELETE`` of a tenant and of the ledger collection);
  - Weaviate's gRPC API (``TenantsGet``, ``Search`` of a tenant);
  - the internal Raft RPC service (``weaviate.internal.cluster.ClusterService``, hand-built
    protobuf: ``Query`` of the tenants and of the schema; ``Apply`` deleting a tenant and the
    ledger collection), as in repo:cluster/proto/api/message.proto;

* UDP (memberlist gossip): whether a datagram is refused (ICMP port unreachable) or taken.

Input (stdin, JSON): ``{"uid", "gid", "tcp": [ports], "udp": [ports], "collection",
"ledger", "tenant"}``. Output (stdout, JSON): ``{"uid": the user it ran as, "tcp": {port:
{"open": bool, "answered": [attempts that succeeded], "refused": {attempt: detail}}},
"udp": {port: "refused" | "taken"}}``. An attempt *succeeded* when the server answered it as
it answers its owner: HTTP 2xx, gRPC ``OK``.

``repo:PATH`` is a file of weaviate/weaviate at tag v1.39.0.
"""

from __future__ import annotations

import encodings.idna  # noqa: F401 - socket's lazy import, made while the files are readable
import http.client
import json
import os
import socket
import sys

import grpc
import grpc._channel  # noqa: F401 - loaded before the user changes (the venv is root's)
import grpc._compression  # noqa: F401
import grpc._interceptor  # noqa: F401
import grpc._utilities  # noqa: F401
from weaviate.proto.v1 import search_get_pb2, tenants_pb2

TIMEOUT_S = 3.0

# weaviate.internal.cluster.QueryRequest.Type / ApplyRequest.Type (message.proto)
_QUERY_GET_SCHEMA = 2
_QUERY_GET_TENANTS = 3
_APPLY_DELETE_CLASS = 3
_APPLY_DELETE_TENANT = 18


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, value: int | bytes) -> bytes:
    """One protobuf field: a varint (wire type 0) or length-delimited bytes (wire type 2)."""
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value)
    return _varint(number << 3 | 2) + _varint(len(value)) + value


def raft_requests(collection: str, ledger: str, tenant: str) -> dict[str, tuple[str, bytes]]:
    """attempt name -> (gRPC method, request bytes) of the Raft RPC service."""
    service = "/weaviate.internal.cluster.ClusterService/"
    tenants = json.dumps({"Class": collection, "Tenants": []}).encode()
    return {
        "raft Query tenants": (service + "Query",
                               _field(1, _QUERY_GET_TENANTS) + _field(2, tenants)),
        "raft Query schema": (service + "Query", _field(1, _QUERY_GET_SCHEMA)),
        # ApplyRequest{type, class, sub_command = DeleteTenantsRequest{tenants}}
        "raft Apply delete tenant": (service + "Apply", _field(1, _APPLY_DELETE_TENANT)
                                     + _field(2, collection.encode())
                                     + _field(4, _field(1, tenant.encode()))),
        "raft Apply delete ledger": (service + "Apply", _field(1, _APPLY_DELETE_CLASS)
                                     + _field(2, ledger.encode())),
    }


def weaviate_requests(collection: str, tenant: str) -> dict[str, tuple[str, bytes]]:
    """attempt name -> (gRPC method, request bytes) of Weaviate's own gRPC API."""
    return {
        "gRPC TenantsGet": ("/weaviate.v1.Weaviate/TenantsGet",
                            tenants_pb2.TenantsGetRequest(collection=collection)
                            .SerializeToString()),
        "gRPC Search": ("/weaviate.v1.Weaviate/Search",
                        search_get_pb2.SearchRequest(collection=collection, tenant=tenant,
                                                     limit=5).SerializeToString()),
    }


def http_requests(collection: str, ledger: str, tenant: str) -> dict[str, tuple[str, str]]:
    """attempt name -> (method, path) of REST and the cluster data API."""
    return {
        "REST schema": ("GET", "/v1/schema"),
        "REST tenants": ("GET", f"/v1/schema/{collection}/tenants"),
        "REST objects": ("GET", f"/v1/objects?class={collection}&tenant={tenant}"),
        "cluster API nodes": ("GET", "/nodes/status"),
        "REST delete tenant": ("DELETE", f"/v1/schema/{collection}/tenants"),
        "REST delete ledger": ("DELETE", f"/v1/schema/{ledger}"),
    }


def _http(port: int, method: str, path: str, tenant: str) -> tuple[bool, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
    try:
        body = json.dumps([tenant]).encode() if path.endswith("/tenants") and \
            method == "DELETE" else None
        conn.request(method, path, body=body,
                     headers={"Content-Type": "application/json"} if body else {})
        status = conn.getresponse().status
        return 200 <= status < 300, f"HTTP {status}"
    except (OSError, http.client.HTTPException) as err:
        return False, f"{type(err).__name__}: {err}"
    finally:
        conn.close()


def _grpc(channel: grpc.Channel, method: str, request: bytes) -> tuple[bool, str]:
    call = channel.unary_unary(method)  # bytes in, bytes out: no serializers
    try:
        call(request, timeout=TIMEOUT_S)
        return True, "OK"
    except grpc.RpcError as err:
        return False, f"{err.code().name}: {err.details()}"[:300]


def _tcp_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S):
            return True
    except OSError:
        return False


def _udp(port: int) -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(1.0)
        s.connect(("127.0.0.1", port))
        try:
            s.send(b"\x00")
            s.recv(1)
        except ConnectionRefusedError:
            return "refused"
        except OSError:
            return "taken"
    return "taken"


def probe_tcp(port: int, spec: dict) -> dict:
    collection, ledger, tenant = spec["collection"], spec["ledger"], spec["tenant"]
    if not _tcp_open(port):
        return {"open": False, "answered": [], "refused": {}}
    results: dict[str, tuple[bool, str]] = {}
    reads = {**http_requests(collection, ledger, tenant)}
    for name, (method, path) in reads.items():
        results[name] = _http(port, method, path, tenant)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        calls = {**weaviate_requests(collection, tenant),
                 **raft_requests(collection, ledger, tenant)}
        for name, (method, request) in calls.items():
            results[name] = _grpc(channel, method, request)
    return {"open": True,
            "answered": sorted(n for n, (ok, _) in results.items() if ok),
            "refused": {n: detail for n, (ok, detail) in results.items() if not ok}}


def main() -> int:
    spec = json.loads(sys.stdin.read())
    os.setgroups([])
    os.setgid(spec["gid"])
    os.setuid(spec["uid"])
    report = {"uid": os.getuid(),
              "tcp": {str(p): probe_tcp(p, spec) for p in spec["tcp"]},
              "udp": {str(p): _udp(p) for p in spec["udp"]}}
    json.dump(report, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
