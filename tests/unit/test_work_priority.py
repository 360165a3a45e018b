"""Work threads run below the event loop's CPU priority, and the load benchmark's measuring
helpers read real figures (issue 18: /healthz and /metrics p99 under 100 ms at 200 clients)."""

from __future__ import annotations

import asyncio
import http.server
import os
import sys
import threading
import time

import pytest
from prometheus_client import CollectorRegistry, generate_latest
from pydantic import ValidationError

from benchmarks import service_load
from scanner.api.loop_lag import LoopLag
from scanner.api.priority import DEFAULT_WORK_NICE, lower_thread_priority, thread_nice
from scanner.api.settings import WORK_NICE_ENV, ApiSettings

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="a thread's own nice value exists on Linux only")


def _in_thread(fn):
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("value", fn()))
    t.start()
    t.join(timeout=30)
    return out["value"]


@linux_only
def test_a_work_thread_gets_a_higher_nice_value_and_the_calling_thread_keeps_its_own():
    before = thread_nice()

    def work():
        first = lower_thread_priority(5)
        again = lower_thread_priority(5)  # once per thread: not 10
        return first, again, thread_nice()

    first, again, seen = _in_thread(work)
    assert first == again == seen == min(19, before + 5)
    assert thread_nice() == before  # this thread (the event loop's stand-in) is unchanged
    assert os.getpriority(os.PRIO_PROCESS, 0) == before


@linux_only
def test_nice_zero_leaves_the_thread_as_it_is():
    before = thread_nice()
    assert _in_thread(lambda: (lower_thread_priority(0), thread_nice())) == (None, before)


def test_the_work_nice_value_comes_from_the_environment_and_is_bounded():
    assert ApiSettings.from_env({}).work_nice == DEFAULT_WORK_NICE
    assert ApiSettings.from_env({WORK_NICE_ENV: "0"}).work_nice == 0
    assert ApiSettings.from_env({WORK_NICE_ENV: "19"}).work_nice == 19
    with pytest.raises(ValidationError, match="work_nice"):
        ApiSettings.from_env({WORK_NICE_ENV: "20"})
    with pytest.raises(ValidationError, match="work_nice"):
        ApiSettings.from_env({WORK_NICE_ENV: "high"})


def test_the_loop_lag_histogram_counts_a_blocked_loop():
    registry = CollectorRegistry()
    lag = LoopLag(registry, interval_s=0.01)

    async def run() -> None:
        lag.start()
        await asyncio.sleep(0.05)
        time.sleep(0.2)  # the loop is blocked: the next timer fires ~200 ms late
        await asyncio.sleep(0.05)
        await lag.stop()

    asyncio.run(run())
    summary = service_load.loop_lag_summary(generate_latest(registry).decode())
    assert summary["n"] >= 3
    assert summary["p99_ms_upper_bound"] >= 150  # the blocked timer's bucket (150-250 ms)
    assert summary["mean_ms"] > 10


def test_loop_lag_summary_is_empty_without_the_histogram():
    assert service_load.loop_lag_summary("") == {}


@linux_only
def test_sched_stats_read_this_process_threads():
    before = service_load.sched_stats(os.getpid())
    sum(i * i for i in range(2_000_000))  # some CPU on the main thread
    after = service_load.sched_stats(os.getpid())
    delta = service_load.sched_delta(before, after, 1.0)
    assert delta["main"]["cpu_share"] > 0
    assert delta["main"]["runqueue_wait_share"] >= 0
    assert service_load.sched_stats(2**22 + 12345) == {}  # no such process


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        status = {"/ok": 200, "/busy": 503, "/bare-busy": 503, "/broken": 500}[self.path]
        body = b"x"
        self.send_response(status)
        if self.path == "/busy":
            self.send_header("Retry-After", "1")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_probe_clients_count_outcomes_and_time_each_request():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        out = service_load.probe_in_process(
            url, ("/ok", "/busy", "/bare-busy", "/broken"), clients=2, seconds=0.5,
            interval_s=0.05)
    finally:
        server.shutdown()
        server.server_close()
    assert set(out["/ok"]["outcomes"]) == {"ok"}
    assert set(out["/busy"]["outcomes"]) == {"refused 503"}  # 503 with Retry-After
    assert set(out["/bare-busy"]["outcomes"]) == {"error 503"}  # 503 without it is an error
    assert set(out["/broken"]["outcomes"]) == {"error 500"}
    ok = out["/ok"]
    assert ok["latency"]["n"] == sum(ok["outcomes"].values()) >= 4
    assert 0 < ok["latency"]["p50_ms"] < 500
    assert ok["client_lateness"]["n"] == ok["latency"]["n"]
    assert ok["method"] == "process"


def test_probes_in_a_process_of_their_own_report_as_in_this_one():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        proc = service_load.probe_apart(f"http://127.0.0.1:{server.server_address[1]}",
                                        ("/ok",), 1, 0.5, 0.05)
        out = service_load.probe_result(proc, 60)
    finally:
        server.shutdown()
        server.server_close()
    assert out["/ok"]["outcomes"]["ok"] >= 3
    assert proc.pid != os.getpid()


def test_the_refresh_window_is_read_from_the_scrape_and_splits_the_probes():
    registry = CollectorRegistry()
    from prometheus_client import Gauge

    Gauge("contrascan_store_stats_age_seconds", "age", registry=registry).set(10.0)
    Gauge("contrascan_store_stats_refresh_seconds", "took", registry=registry).set(30.0)
    window = service_load.refresh_window(generate_latest(registry).decode(), now=100.0)
    assert window == [60.0, 90.0]  # ended 10 s before the scrape, after 30 s
    part = {"samples": [[50.0, 5.0], [61.0, 120.0], [89.0, 130.0], [95.0, 7.0]]}
    split = service_load.split_by_window(part, window)
    assert split["inside"]["n"] == 2 and split["inside"]["max_ms"] == 130.0
    assert split["outside"]["n"] == 2 and split["outside"]["max_ms"] == 7.0
    assert service_load.refresh_window("", now=1.0) is None  # no refresh ended yet
    assert service_load.split_by_window(part, None) == {}

