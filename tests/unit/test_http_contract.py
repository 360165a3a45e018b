"""The sidecar's answers match its contract (issue 38, item 7), on the app itself (no store is
needed to route a request): a 405's Allow header names every method the path answers (RFC
9110 §15.5.6), and every status a POST endpoint gives is in its OpenAPI document."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from fastapi.testclient import TestClient

from scanner.api import create_app


@pytest.fixture(scope="module")
def client():
    app = create_app(service_factory=lambda: contextlib.nullcontext(None), warm_up=False)
    return TestClient(app)


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("OPTIONS", "/v1/reviews", "GET, POST"),  # the router named the first route's only
    ("DELETE", "/v1/reviews", "GET, POST"),
    ("OPTIONS", "/review/items/3f2a", "GET, POST"),
    ("GET", "/v1/scan", "POST"),
    ("PUT", "/v1/memories/m1/history", "GET"),
])
def test_a_405_names_every_method_of_the_path(client, method, path, allow):
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allow
    assert response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize("path", ["/v1/scan", "/v1/memories", "/v1/reviews", "/v1/batch-scans"])
def test_a_malformed_content_length_gets_the_documented_400(client, path):
    app = client.app
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "http_version": "1.1", "scheme": "http",
             "server": ("x", 80), "client": ("127.0.0.1", 5),
             "headers": [(b"content-type", b"application/json"), (b"content-length", b"1e3")]}
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    assert status == 400
    assert "400" in app.openapi()["paths"][path]["post"]["responses"]
