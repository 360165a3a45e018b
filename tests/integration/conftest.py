"""Session fixtures for integration tests: a real embedded Weaviate on free loopback ports."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import pytest

from scanner.store import server


@pytest.fixture(scope="session")
def weaviate_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[server.WeaviateClient]:
    """A client of an embedded Weaviate server started for this test session.

    The binary is provisioned first (``make setup`` normally did it already). Each test should
    use its own uniquely named collection or tenant and drop it afterwards.
    """
    if server.ensure_binary() is None:
        pytest.fail("no weaviate-server binary: run `make setup` (needs Go >= 1.26)")
    port, grpc_port = server.free_ports()
    data_dir = tmp_path_factory.mktemp("weaviate")
    client = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
    _DATA_DIRS[client] = data_dir
    _PORTS[client] = (port, grpc_port)
    try:
        yield client
    finally:
        client.close()


_DATA_DIRS: dict = {}
"""The session server's data directory, by client (for its API key)."""
_PORTS: dict = {}
"""The session server's REST and gRPC ports, by client."""


@pytest.fixture(scope="session")
def embedded_weaviate(weaviate_server, weaviate_api_key):
    """The session's embedded Weaviate (contrascan's: auto-schema on, anonymous access off) as
    a framework's user reaches it: its ports on 127.0.0.1 and its key
    (:class:`tests.integration.attached_support.UserWeaviate`)."""
    from tests.integration.attached_support import UserWeaviate

    port, grpc_port = _PORTS[weaviate_server]
    return UserWeaviate("embedded", port, grpc_port, weaviate_api_key)


@pytest.fixture(scope="session")
def plain_weaviate(tmp_path_factory):
    """A second, plain Weaviate reached by ``--weaviate-url``: one ``weaviate-server`` process
    started as the cluster tests start theirs (:class:`scanner.store.cluster.LocalCluster`,
    one node, an API key), with Weaviate's default auto-schema."""
    from scanner.store.cluster import LocalCluster
    from tests.integration.attached_support import UserWeaviate

    if server.ensure_binary() is None:
        pytest.fail("no weaviate-server binary: run `make setup` (needs Go >= 1.26)")
    with LocalCluster(tmp_path_factory.mktemp("plain-weaviate"), nodes=1,
                      extra_env={"AUTOSCHEMA_ENABLED": "true"}) as plain:
        node = plain.nodes[0]
        yield UserWeaviate("plain", node.ports.rest, node.ports.grpc, plain.api_key)


@pytest.fixture(params=["embedded", "plain"])
def user_weaviate(request):
    """Each Weaviate a framework's user would point it at: contrascan's embedded one, and a
    plain one given to contrascan by ``--weaviate-url``."""
    return request.getfixturevalue(f"{request.param}_weaviate")


@pytest.fixture(scope="session")
def weaviate_api_key(weaviate_server) -> str:
    """The API key the session's embedded server was started with (anonymous access is off;
    :func:`scanner.store.access.server_key`), for third-party clients the tests configure."""
    from scanner.store import access

    return access.server_key(_DATA_DIRS[weaviate_server])


@contextlib.contextmanager
def scoped_service(client: server.WeaviateClient, engine, prefix: str = "T"):
    """A :class:`scanner.service.Service` over a fresh collection named ``prefix`` + a random
    suffix, scanning with ``engine``; its memory, ledger and scan-state collections are dropped
    afterwards. The one way integration tests build a service over the session's Weaviate: the
    ``service`` fixture below, and modules that need another engine or a module-wide service
    (``with scoped_service(weaviate_server, engine, "Api") as svc: yield svc``)."""
    from scanner.service import Service
    from scanner.store.wiring import weaviate_stores

    name = prefix + uuid.uuid4().hex[:12]
    svc = Service(weaviate_stores(client, name), engine=engine)
    try:
        yield svc
    finally:
        for col in (svc.scan_state.name, svc.ledger.name, name):
            client.collections.delete(col)


@pytest.fixture()
def service(weaviate_server, engine):
    """A service over its own collection of the session's Weaviate, dropped after the test."""
    with scoped_service(weaviate_server, engine) as svc:
        yield svc


def review_engine(extractor):
    """An engine whose policy escalates the review sample's safety relations."""
    from scanner.engine import Engine
    from scanner.core.policy_config import PolicyConfig
    from scanner.review.sample import SAFETY_RELATIONS
    from scanner.scan import ScanConfig

    return Engine(ScanConfig(policy=PolicyConfig(safety_relations=SAFETY_RELATIONS)),
                  extractor=extractor)
