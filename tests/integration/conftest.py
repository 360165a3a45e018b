"""Session fixtures for integration tests: a real embedded Weaviate on free loopback ports."""

from __future__ import annotations

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
    client = server.connect_embedded(
        tmp_path_factory.mktemp("weaviate"), port=port, grpc_port=grpc_port
    )
    try:
        yield client
    finally:
        client.close()
