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
    ("POST", "/v1/stats", "GET"),
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


def test_the_stats_route_documents_the_document_contrascan_stats_prints(client):
    """GET /v1/stats answers Stats.to_json_dict(), what `contrascan stats --json` prints
    (tests/integration/test_ledger.py compares the two over one store); its OpenAPI model
    names exactly those fields."""
    from scanner.api.schemas import StatsResponse
    from scanner.core.ledger_stats import ImportRate, Stats

    stats = Stats(users=["potter-1"], conflicts=3, by_relation={"preferred glaze": 3},
                  by_verdict={"resolved": 2, "quarantined": 1}, by_rule={"recency": 2},
                  open=1, settled=0, moot=0,
                  imports=[ImportRate("potter-1", "2026-03-02T10:00:00+00:00", 4, 3)],
                  read_scans=4, read_scans_with_conflict=1)
    document = stats.to_json_dict()
    assert list(StatsResponse.model_fields) == list(document)
    assert StatsResponse.model_validate(document).model_dump(mode="json") == document
    answers = client.app.openapi()["paths"]["/v1/stats"]["get"]["responses"]
    assert answers["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/StatsResponse"}


@pytest.mark.parametrize(("page", "assets"), [
    ("/docs", {"/openapi.json", "/docs/assets/swagger-ui-bundle.js",
               "/docs/assets/swagger-ui.css", "/docs/assets/favicon.png"}),
    ("/redoc", {"/openapi.json", "/docs/assets/redoc.standalone.js",
                "/docs/assets/favicon.png"}),
])
def test_the_contracts_pages_load_everything_from_the_sidecar(client, page, assets):
    """Issue 35, item 4: FastAPI's /docs loads Swagger UI from a CDN and is blank offline.
    Every URL the pages name is the sidecar's own, and each answers 200 with its content."""
    import re

    answer = client.get(page)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    html = answer.text
    named = set(re.findall(r'(?:src|href|spec-url)="([^"]+)"', html))
    named |= set(re.findall(r"url: '([^']+)'", html))
    assert named == assets
    assert "http://" not in html and "https://" not in html  # no other host, no web fonts
    kinds = {".js": "text/javascript", ".css": "text/css", ".png": "image/png",
             ".json": "application/json"}
    for url in sorted(named):
        got = client.get(url)
        assert got.status_code == 200, url
        assert got.headers["content-type"].startswith(kinds[url[url.rindex("."):]]), url
        assert len(got.content) > 1000, url
    if page == "/docs":
        assert '"validatorUrl": null' in html  # Swagger UI's online validator is off
        assert "SwaggerUIBundle" in client.get("/docs/assets/swagger-ui-bundle.js").text


def test_only_the_pages_own_assets_are_served(client):
    for name in ("index.html", "..%2Fcore.py", "swagger-ui-bundle.js.map"):
        answer = client.get(f"/docs/assets/{name}")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
