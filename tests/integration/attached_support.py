"""What the attached-source tests share: a Weaviate as a framework's user reaches it (their own
client, the key), the count of what a framework stored, and ``contrascan source …`` run as
the user runs it, by ``--weaviate-url``."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass

import weaviate
from click.testing import CliRunner, Result
from weaviate.classes.init import Auth

from scanner.cli import main
from scanner.store.attached import cache_collection_name
from scanner.store.server import API_KEY_ENV


@dataclass(frozen=True)
class UserWeaviate:
    """A Weaviate on 127.0.0.1.

    Attributes:
        kind: ``embedded`` (contrascan's) or ``plain``.
        port, grpc_port: REST and gRPC ports; api_key: the key it accepts.
    """

    kind: str
    port: int
    grpc_port: int
    api_key: str

    @property
    def url(self) -> str:
        """What ``--weaviate-url`` takes."""
        return f"http://127.0.0.1:{self.port}?grpc_port={self.grpc_port}"

    @contextlib.contextmanager
    def client(self) -> Iterator[weaviate.WeaviateClient]:
        """The user's own client, as the frameworks' documentation makes one."""
        client = weaviate.connect_to_local(host="127.0.0.1", port=self.port,
                                           grpc_port=self.grpc_port,
                                           auth_credentials=Auth.api_key(self.api_key))
        try:
            yield client
        finally:
            client.close()


def stored(client: weaviate.WeaviateClient, collection: str) -> int:
    """Objects in ``collection`` (every tenant's, when it has tenants)."""
    col = client.collections.use(collection)
    if not col.config.get().multi_tenancy_config.enabled:
        return col.aggregate.over_all(total_count=True).total_count or 0
    return sum(col.with_tenant(t).aggregate.over_all(total_count=True).total_count or 0
               for t in col.tenants.get())


def source_cli(target: UserWeaviate, *args: str) -> Result:
    """``contrascan source ARGS --weaviate-url URL`` with the server's key in the
    environment, as a user runs it; fails the test on an exit code other than 0."""
    result = CliRunner().invoke(main, ["source", *args, "--weaviate-url", target.url],
                                env={API_KEY_ENV: target.api_key})
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def source_report(target: UserWeaviate, *args: str) -> dict:
    """The SPEC §5 report of ``contrascan source scan ARGS --json``."""
    return json.loads(source_cli(target, "scan", *args, "--json").stdout)


def source_collections(collection: str) -> tuple[str, ...]:
    """An attached collection and the three contrascan keeps for it (triple cache, ledger,
    scan state)."""
    cache = cache_collection_name(collection)
    return collection, cache, cache + "Ledger", cache + "ScanState"


@contextlib.contextmanager
def dropped_afterwards(client: weaviate.WeaviateClient, *collections: str) -> Iterator[None]:
    """Drop ``collections`` after the block, and those of contrascan's default collections
    that it created (a ``contrascan`` command makes them on a server that lacks them)."""
    own = ("ContrascanMemory", "ContrascanMemoryLedger", "ContrascanMemoryScanState")
    before = {name for name in own if client.collections.exists(name)}
    try:
        yield
    finally:
        for name in (*collections, *(n for n in own if n not in before)):
            client.collections.delete(name)
