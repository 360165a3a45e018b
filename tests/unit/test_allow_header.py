"""A 405's Allow header names every method the path answers (issue 38, item 7; RFC 9110
§15.5.6), on the sidecar app itself (no store is needed to route a request)."""

from __future__ import annotations

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
