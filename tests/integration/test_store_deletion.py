"""A collection or tenant deleted under a running `contrascan serve` (by the owner, through
Weaviate's REST API with the key) turns /healthz to 503 with the problem named and every /v1
request to 503 store_damaged, never an empty report (scanner.store.presence,
docs/weaviate.md). Against a real embedded Weaviate and a real `contrascan serve`."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from scanner.store.ledger import ledger_collection_name
from tests.integration.serve_process import running_serve

pytestmark = pytest.mark.integration

USERS = ("potter-1", "potter-2")


def _records(user_id: str, n: int) -> list[dict]:
    return [{"id": f"{user_id}-m{i}", "user_id": user_id,
             "text": f"{user_id} prefers glaze number {i} for the tall vases."}
            for i in range(n)]


class Sidecar:
    """A running `contrascan serve` on its own embedded Weaviate."""

    def __init__(self, url: str, data_dir: Path, weaviate_port: int):
        self.url, self.data_dir, self.weaviate_port = url, data_dir, weaviate_port

    def weaviate(self, method: str, path: str, **kwargs) -> httpx.Response:
        """A request to the embedded Weaviate's REST API as its owner (with its key)."""
        key = (self.data_dir / ".contrascan-weaviate.key").read_text().strip()
        return httpx.request(method, f"http://127.0.0.1:{self.weaviate_port}{path}",
                             headers={"Authorization": f"Bearer {key}"}, timeout=30, **kwargs)


@contextmanager
def sidecar(tmp_path: Path) -> Iterator[Sidecar]:
    with running_serve(tmp_path, stop_grace_s=120) as serve:
        yield Sidecar(serve.url, serve.data_dir, serve.weaviate_port)


def _health(url: str) -> tuple[int, dict]:
    try:
        answer = httpx.get(url + "/healthz", timeout=5)
        return answer.status_code, answer.json()
    except httpx.HTTPError:
        return 0, {}


def _delete_tenant(s: Sidecar) -> httpx.Response:
    return s.weaviate("DELETE", "/v1/schema/ContrascanMemory/tenants", json=[USERS[0]])


def _delete_ledger(s: Sidecar) -> httpx.Response:
    return s.weaviate("DELETE", f"/v1/schema/{ledger_collection_name()}")


@pytest.mark.parametrize("delete, gone", [
    (_delete_tenant, f"tenant '{USERS[0]}' of collection ContrascanMemory is gone"),
    (_delete_ledger, f"collection {ledger_collection_name()} is gone"),
], ids=["a tenant", "the ledger collection"])
def test_a_deletion_under_the_sidecar_turns_health_and_requests_to_503(tmp_path, delete, gone):
    with sidecar(tmp_path) as s:
        for user_id in USERS:
            added = httpx.post(s.url + "/v1/memories", timeout=120,
                               json={"user_id": user_id, "records": _records(user_id, 8)})
            assert added.status_code == 200, added.text
        scan = {"user_id": USERS[0], "query": "glaze for the tall vases"}
        first = httpx.post(s.url + "/v1/scan", json=scan, timeout=60)
        assert first.status_code == 200 and len(first.json()["hits"]) >= 5, first.text

        assert delete(s).status_code == 200

        deadline = time.monotonic() + 15  # the readiness check runs once a second
        while (health := _health(s.url))[0] == 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert health[0] == 503 and health[1]["status"] == "unavailable", health
        assert gone in health[1]["problem"], health
        for method, path, kwargs in [
            ("POST", "/v1/scan", {"json": scan}),
            ("POST", "/v1/scan", {"json": {**scan, "user_id": USERS[1]}}),
            ("GET", f"/v1/memories/{USERS[0]}-m1/history", {"params": {"user_id": USERS[0]}}),
            ("POST", "/v1/memories", {"json": {"user_id": USERS[0], "records": [
                {"id": "late", "user_id": USERS[0], "text": "A late memory."}]}}),
        ]:
            answer = httpx.request(method, s.url + path, timeout=60, **kwargs)
            assert answer.status_code == 503, (path, answer.text)
            assert answer.json()["error"]["code"] == "store_damaged", answer.text
            assert gone in answer.json()["error"]["message"], answer.text
        time.sleep(2)  # still so: the loss is kept, not healed by a check that sees less
        assert _health(s.url)[0] == 503
