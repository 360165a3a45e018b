"""Failed keys slowed per client, and a logout that ends the session on the server (issue 38,
item 4), on the sidecar app itself (no store is needed to refuse a request)."""

from __future__ import annotations

import contextlib

import pytest
from fastapi.testclient import TestClient
from starlette.requests import Request

from scanner.api import ApiSettings, create_app
from scanner.api.attempts import MAX_FAILURES, WINDOW_S, FailedAttempts

KEY = "k" * 32


@pytest.fixture()
def app():
    return create_app(service_factory=lambda: contextlib.nullcontext(None), warm_up=False,
                      settings=ApiSettings(api_key=KEY))


def test_failures_are_counted_in_a_sliding_window():
    now = [0.0]
    attempts = FailedAttempts(max_failures=3, window_s=60, clock=lambda: now[0], max_clients=2)
    for t in (0, 10, 20):
        now[0] = t
        assert attempts.retry_after("a") is None
        attempts.failed("a")
    assert attempts.retry_after("a") == 40  # until the first failure leaves the window
    now[0] = 60.5
    assert attempts.retry_after("a") is None
    attempts.failed("b"), attempts.failed("c")  # "a" is forgotten first
    assert set(attempts._failures) == {"b", "c"}


def test_wrong_keys_on_v1_are_slowed_to_429_with_retry_after(app):
    http = TestClient(app)  # (no lifespan: nothing here needs the store)
    for _ in range(MAX_FAILURES):
        wrong = http.get("/v1/reviews", params={"user_id": "u1"},
                         headers={"X-API-Key": "guess"})
        assert wrong.status_code == 401
    for key in ("guess", KEY):  # blocked whatever it sends now
        slowed = http.get("/v1/reviews", params={"user_id": "u1"},
                          headers={"X-API-Key": key})
        assert slowed.status_code == 429, slowed.text
        assert slowed.json()["error"]["code"] == "too_many_attempts"
        assert 1 <= int(slowed.headers["retry-after"]) <= WINDOW_S


def test_wrong_logins_are_slowed_to_429_with_retry_after(app):
    http = TestClient(app, follow_redirects=False)
    for _ in range(MAX_FAILURES):
        assert http.post("/review/login", data={"reviewer": "ana", "api_key": "guess"}
                         ).status_code == 401
    slowed = http.post("/review/login", data={"reviewer": "ana", "api_key": KEY})
    assert slowed.status_code == 429 and "retry-after" in slowed.headers
    assert "contrascan_review" not in slowed.cookies


def test_a_logout_ends_the_session_on_the_server(app):
    sessions = app.state.review_sessions
    http = TestClient(app, follow_redirects=False)
    login = http.post("/review/login", data={"reviewer": "ana", "api_key": KEY})
    assert login.status_code == 303
    cookie = login.cookies["contrascan_review"]

    def request_with(value: str) -> Request:
        return Request({"type": "http", "headers": [
            (b"cookie", f"contrascan_review={value}".encode())]})

    session = sessions.read(request_with(cookie))
    assert session is not None
    out = http.post("/review/logout", data={"csrf": sessions.csrf(session)})
    assert out.status_code == 303
    # a copy of the cookie kept before the logout is refused from now on
    assert sessions.read(request_with(cookie)) is None
