"""Load guards that need no server (issue 18 items 12-13): a metrics scrape never computes the
store statistics itself, and every embedding entry point bounds torch's threads."""

from __future__ import annotations

import os
import threading

import pytest
import torch
from prometheus_client import CollectorRegistry, generate_latest

from scanner.core.ledger_stats import compute_stats
from scanner.embeddings import Embedder, compute_threads
from scanner.metrics import StoreStatsCollector


def test_a_scrape_returns_at_once_while_one_background_refresh_runs():
    gate, calls = threading.Event(), []

    def slow_stats():
        calls.append(1)
        gate.wait()
        return compute_stats([], {})

    collector = StoreStatsCollector(slow_stats, ttl_s=60)
    registry = CollectorRegistry()
    registry.register(collector)
    scrapes = [threading.Thread(target=generate_latest, args=(registry,)) for _ in range(20)]
    for t in scrapes:
        t.start()
    for t in scrapes:
        t.join(timeout=30)
    blocked = [t for t in scrapes if t.is_alive()]
    gate.set()
    assert blocked == []  # no scrape waited for the computation
    assert len(calls) == 1  # one refresh for twenty scrapes


def test_the_refreshed_figures_are_served_once_computed():
    collector = StoreStatsCollector(lambda: compute_stats([], {}), ttl_s=60)
    registry = CollectorRegistry()
    registry.register(collector)
    collector.refresh_now()
    assert b"contrascan_store_open_pairs 0.0" in generate_latest(registry)


def test_embedding_bounds_torch_threads():
    Embedder().encode(["one short query"])
    assert torch.get_num_threads() == compute_threads()
    expected = int(os.environ["OMP_NUM_THREADS"]) if os.environ.get(
        "OMP_NUM_THREADS", "").isdigit() else 1
    assert compute_threads() == expected


def test_requests_past_the_in_flight_limit_and_a_full_queue_get_503_and_probes_pass():
    import anyio

    from scanner.backpressure import RETRY_AFTER_S

    refused: list[int] = []

    async def main():
        limit, release, entered, answers, call = _limited(
            2, 0, 5.0, on_refused=lambda: refused.append(1))
        async with anyio.create_task_group() as tg:
            tg.start_soon(call, "/v1/scan")
            tg.start_soon(call, "/v1/scan")
            while len(entered) < 2:
                await anyio.sleep(0.01)
            await call("/v1/scan")  # the third: refused at once
            await call("/healthz")  # never counted
            assert limit.in_flight == 2 and refused == [1]
            release.set()
        assert limit.in_flight == 0
        return answers, call.headers

    answers, headers = anyio.run(main)
    assert answers[0] == ("/v1/scan", 503) and headers[0] == {
        b"content-type": b"application/json", b"content-length": headers[0][b"content-length"],
        b"retry-after": str(RETRY_AFTER_S).encode()}
    assert answers[1] == ("/healthz", 200)
    assert sorted(a[1] for a in answers[2:]) == [200, 200]


def _limited(max_in_flight, max_queued, queue_timeout_s, on_refused=None):
    """An InFlightLimit around an app whose /v1/ requests wait for ``release``; the answers
    are collected in the order given as (path, status), their headers in ``call.headers``."""
    import anyio

    from scanner.backpressure import InFlightLimit

    release = anyio.Event()
    entered: list[str] = []

    async def slow_app(scope, receive, send):
        entered.append(scope["path"])
        if scope["path"].startswith("/v1/"):
            await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    limit = InFlightLimit(slow_app, max_in_flight=max_in_flight, max_queued=max_queued,
                          queue_timeout_s=queue_timeout_s, on_refused=on_refused)
    answers: list[tuple[str, int]] = []

    async def call(path: str) -> None:
        start: dict = {}

        async def send(message):
            if message["type"] == "http.response.start":
                start.update(message)

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        await limit({"type": "http", "path": path}, receive, send)
        answers.append((path, start["status"]))
        call.headers.append(dict(start["headers"]))

    call.headers = []
    return limit, release, entered, answers, call


def test_requests_past_the_limit_wait_their_turn_first_come_first_served():
    import anyio

    async def main():
        limit, release, entered, answers, call = _limited(1, 4, 30.0)
        async with anyio.create_task_group() as tg:
            for n in range(4):
                tg.start_soon(call, f"/v1/scan/{n}")
                await anyio.sleep(0.02)  # they arrive in this order
            assert entered == ["/v1/scan/0"] and limit.queued == 3 and limit.in_flight == 1
            release.set()
        assert limit.in_flight == 0 and limit.queued == 0
        return entered, answers

    entered, answers = anyio.run(main)
    assert entered == [f"/v1/scan/{n}" for n in range(4)]  # in the order they came
    assert [status for _, status in answers] == [200] * 4  # none refused


def test_a_request_whose_turn_does_not_come_in_time_gets_503_and_leaves_the_line():
    import anyio

    async def main():
        limit, release, entered, answers, call = _limited(1, 4, 0.2)
        async with anyio.create_task_group() as tg:
            tg.start_soon(call, "/v1/scan/slow")
            await anyio.sleep(0.02)
            await call("/v1/scan/late")  # waits 0.2 s, then refused
            assert limit.queued == 0 and limit.in_flight == 1
            release.set()
        tg_answers = list(answers)
        await call("/v1/scan/after")  # the turn the refused one never took is free
        return limit, tg_answers, answers

    limit, during, answers = anyio.run(main)
    assert during == [("/v1/scan/late", 503), ("/v1/scan/slow", 200)]
    assert answers[-1] == ("/v1/scan/after", 200) and limit.in_flight == 0


def test_a_client_that_goes_away_while_waiting_frees_its_place():
    import anyio

    async def main():
        limit, release, entered, answers, call = _limited(1, 4, 30.0)
        async with anyio.create_task_group() as tg:
            tg.start_soon(call, "/v1/scan/first")
            await anyio.sleep(0.02)
            with anyio.move_on_after(0.1):  # the client disconnects: its task is cancelled
                await call("/v1/scan/gone")
            assert limit.queued == 0
            release.set()
        return limit, answers

    limit, answers = anyio.run(main)
    assert answers == [("/v1/scan/first", 200)] and limit.in_flight == 0


def test_readiness_is_read_without_waiting_for_a_slow_check_and_expires():
    from scanner.health import ReadinessMonitor

    answers = iter([True])
    gate = threading.Event()

    def check() -> bool:
        try:
            return next(answers)
        except StopIteration:
            gate.wait()  # every later check hangs, as a stalled Weaviate would
            return True

    monitor = ReadinessMonitor(check, interval_s=0.05, max_age_s=0.5)
    monitor.start()
    try:
        assert monitor.ready  # the first check ran at start
        reads = []
        while len(reads) < 1000:
            reads.append(monitor.ready)  # never blocks on the hung check
        import time

        time.sleep(0.7)
        assert not monitor.ready  # no successful check for longer than max_age_s
    finally:
        gate.set()
        monitor.stop()
    assert not monitor.ready


def test_a_failing_check_is_not_ready():
    from scanner.health import ReadinessMonitor

    def broken() -> bool:
        raise ConnectionError("refused")

    monitor = ReadinessMonitor(broken)
    assert monitor.check_now() is False and not monitor.ready


def test_a_slow_refresh_is_not_started_again_before_nine_times_its_duration():
    import time

    from scanner.metrics import MAX_REFRESH_SHARE

    calls = []

    def slow_stats():
        calls.append(time.monotonic())
        time.sleep(0.2)
        return compute_stats([], {})

    collector = StoreStatsCollector(slow_stats, ttl_s=0)
    registry = CollectorRegistry()
    registry.register(collector)
    collector.refresh_now()
    wait_s = 0.2 * (1 / MAX_REFRESH_SHARE - 1)
    until = time.monotonic() + wait_s * 0.5
    while time.monotonic() < until:
        assert b"contrascan_store_open_pairs 0.0" in generate_latest(registry)
        time.sleep(0.02)
    assert len(calls) == 1  # ttl 0, yet no refresh while the last one's share would exceed
    assert b"contrascan_store_stats_refresh_seconds 0.2" in generate_latest(registry)


def test_a_refusal_says_whether_the_line_was_full_or_the_turn_did_not_come():
    import json

    import anyio

    from scanner.backpressure import _overloaded

    async def body(waited):
        sent = []

        async def send(message):
            sent.append(message)

        await _overloaded(send, 1, waited)
        return json.loads(sent[1]["body"])["error"]["message"]

    assert anyio.run(body, None).startswith(
        "1 request is in progress and the line of waiting requests is full")
    assert anyio.run(body, 5.0).startswith("1 request is in progress and no turn came within 5 s")


@pytest.mark.parametrize("option", ["--header-timeout", "--body-timeout", "--shutdown-timeout",
                                    "--queue-timeout"])
def test_serve_refuses_a_timeout_that_is_not_a_finite_number(option):
    # nan compares false with both bounds of a range: it passed, and a nan header timeout
    # armed no timer and hung every connection
    from click.testing import CliRunner

    from scanner.cli import main

    result = CliRunner().invoke(main, ["serve", option, "nan"])
    assert result.exit_code == 1 and "not a finite number" in result.output, result.output


async def _asgi(app, method: str, path: str, body: bytes = b"",
                logged: list[str] | None = None) -> tuple[int, bytes]:
    """One request through the whole app; ``logged`` gets what the access log line shows as
    the response starts (uvicorn writes it then)."""
    from scanner.redaction import logged_target

    start: dict = {}
    chunks: list[bytes] = []

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            start.update(message)
            if logged is not None:
                logged.append(logged_target(path))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    scope = {"type": "http", "asgi": {"version": "3.0"}, "method": method, "path": path,
             "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())],
             "http_version": "1.1", "scheme": "http", "server": ("testserver", 80),
             "client": ("127.0.0.1", 5)}
    await app(scope, receive, send)
    return start["status"], b"".join(chunks)


def test_a_refused_request_is_counted_and_logged_under_its_route_with_the_line_measured():
    """Issue 35: a 503 overloaded was counted and logged as route <unmatched> (back-pressure
    answers before the router runs); it is counted under the route its path matches, with
    the refusals by reason and the line's depth in /metrics."""
    import contextlib
    import json

    import anyio

    from scanner.api import ApiSettings, create_app

    app = create_app(service_factory=lambda: contextlib.nullcontext(None), warm_up=False,
                     settings=ApiSettings(max_in_flight=1, max_queued=1, queue_timeout_s=2.0))
    gauge = app.state.metrics.registry.get_sample_value
    logged: list[str] = []

    async def main():
        release = anyio.Event()

        async def held() -> dict:  # a /v1/ request that keeps its turn until released
            await release.wait()
            return {}

        app.add_api_route("/v1/held", held, methods=["GET"])
        answers: dict[str, tuple[int, bytes]] = {}

        async def call(name: str, method: str, path: str, body: bytes = b"") -> None:
            answers[name] = await _asgi(app, method, path, body, logged)

        async with anyio.create_task_group() as tg:
            tg.start_soon(call, "holder", "GET", "/v1/held")
            while gauge("contrascan_http_requests_in_flight") != 1:
                await anyio.sleep(0.01)
            tg.start_soon(call, "waiter", "GET", "/v1/held")
            while gauge("contrascan_http_requests_queued") != 1:
                await anyio.sleep(0.01)
            # the line is full: refused at once
            await call("full", "POST", "/v1/scan", b'{"user_id": "u", "query": "q"}')
            while "waiter" not in answers:  # its turn never comes
                await anyio.sleep(0.01)
            during = (gauge("contrascan_http_requests_in_flight"),
                      gauge("contrascan_http_requests_queued"))
            release.set()
        after = (gauge("contrascan_http_requests_in_flight"),
                 gauge("contrascan_http_requests_queued"))
        return answers, during, after, (await _asgi(app, "GET", "/metrics"))[1].decode()

    answers, during, after, exposition = anyio.run(main)
    assert answers["holder"][0] == 200
    assert answers["full"][0] == answers["waiter"][0] == 503
    assert "line of waiting requests is full" in json.loads(answers["full"][1])["error"]["message"]
    assert "no turn came within 2 s" in json.loads(answers["waiter"][1])["error"]["message"]
    assert during == (1.0, 0.0) and after == (0.0, 0.0)
    assert sorted(logged) == ["/v1/held", "/v1/held", "/v1/scan"]
    for line in (
            'contrascan_http_requests_refused_total{method="POST",reason="queue_full",'
            'route="/v1/scan"} 1.0',
            'contrascan_http_requests_refused_total{method="GET",reason="queue_timeout",'
            'route="/v1/held"} 1.0',
            'contrascan_http_request_duration_seconds_count{method="POST",route="/v1/scan",'
            'status="503"} 1.0',
            'contrascan_http_request_duration_seconds_count{method="GET",route="/v1/held",'
            'status="503"} 1.0',
            'contrascan_http_request_duration_seconds_count{method="GET",route="/v1/held",'
            'status="200"} 1.0'):
        assert line in exposition, line
    assert "<unmatched>" not in exposition


def test_a_body_refused_before_routing_is_counted_under_its_route_a_made_up_path_is_not():
    import contextlib

    from fastapi.testclient import TestClient

    from scanner.api import ApiSettings, create_app

    app = create_app(service_factory=lambda: contextlib.nullcontext(None), warm_up=False,
                     settings=ApiSettings(max_body_bytes=1024))
    client = TestClient(app)
    for path in ("/v1/memories", "/v1/memories/PATHLEAK7/history", "/v1/PATHLEAK8"):
        assert client.post(path, content=b"x" * 2048).status_code == 413
    exposition = client.get("/metrics").text
    for route in ("/v1/memories", "/v1/memories/{memory_id:path}/history", "<unmatched>"):
        assert ('contrascan_http_request_duration_seconds_count{method="POST",'
                f'route="{route}",status="413"}} 1.0') in exposition, route
    assert "PATHLEAK" not in exposition
