"""A real `contrascan serve` runs `/v1/` work on threads below its event loop's CPU priority and
reports its event loop's lag (issue 18: `/healthz` and `/metrics` answered first on a busy
machine; scanner.api.priority, scanner.api.loop_lag)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from scanner.api.priority import DEFAULT_WORK_NICE
from scanner.api.settings import WORK_NICE_ENV
from tests.integration.test_serve_load import sidecar

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="threads' nice values are read from Linux's /proc")]


def _thread_nice(pid: int) -> dict[int, int]:
    """Nice value of each thread of ``pid`` (proc(5): field 19 of /proc/PID/task/TID/stat)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
        out[int(tid)] = int(stat.rpartition(")")[2].split()[16])
    return out


def _work(url: str) -> None:
    """A write with its check and a few read-time scans: work on the sidecar's threads."""
    records = [{"id": f"m{i}", "text": f"The preferred glaze is {colour}.", "user_id": "potter-1",
                "observed_at": f"2026-0{i + 1}-01T00:00:00Z"}
               for i, colour in enumerate(("celadon", "tenmoku", "shino"))]
    with httpx.Client(base_url=url, timeout=120) as http:
        written = http.post("/v1/memories", json={"user_id": "potter-1", "records": records,
                                                  "check": True})
        assert written.status_code == 200, written.text
        for _ in range(3):
            scanned = http.post("/v1/scan", json={"user_id": "potter-1",
                                                  "query": "preferred glaze"})
            assert scanned.status_code == 200, scanned.text
            assert {h["id"] for h in scanned.json()["hits"]} == {"m0", "m1", "m2"}


def _loop_lag_count(url: str) -> float:
    text = httpx.get(url + "/metrics", timeout=30).text
    return next(s.value for f in text_string_to_metric_families(text) for s in f.samples
                if s.name == "contrascan_event_loop_lag_seconds_count")


def test_work_runs_below_the_event_loop_and_the_loop_lag_is_reported(tmp_path):
    own = os.getpriority(os.PRIO_PROCESS, 0)
    with sidecar(tmp_path) as running:
        _work(running.url)
        nice = _thread_nice(running.proc.pid)
        # the main thread runs uvicorn's event loop (healthz, metrics): its priority is kept
        assert nice[running.proc.pid] == own
        # the threads that ran the write and the scans were lowered
        assert min(19, own + DEFAULT_WORK_NICE) in set(nice.values())
        assert max(nice.values()) == min(19, own + DEFAULT_WORK_NICE)
        assert httpx.get(running.url + "/healthz", timeout=10).status_code == 200
        assert _loop_lag_count(running.url) > 0  # sampled 20 times a second since start-up


def test_work_nice_zero_leaves_every_thread_at_the_process_priority(tmp_path, monkeypatch):
    monkeypatch.setenv(WORK_NICE_ENV, "0")
    own = os.getpriority(os.PRIO_PROCESS, 0)
    with sidecar(tmp_path) as running:
        _work(running.url)
        assert set(_thread_nice(running.proc.pid).values()) == {own}
