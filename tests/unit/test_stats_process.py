"""The pieces of the out-of-process store statistics and scan workers that need no server
(issue 18, items 12-13): the figures survive the trip through JSON, both are switched by the
environment, and clients whose server cannot be named stay in-process."""

from __future__ import annotations

import json

import pytest

from scanner.api import ApiSettings
from scanner.core.ledger_stats import ImportRate, Stats
from scanner.scan_workers import ScanWorkers
from scanner.stats_process import StatsProcess
from scanner.store.address import server_address


def test_statistics_survive_the_json_trip_between_processes():
    stats = Stats(users=["u1", "u2"], conflicts=7, by_relation={"lives in": 5, "?": 2},
                  by_verdict={"quarantined": 3, "resolved": 4},
                  by_rule={"recency": 4, "tie": 3}, open=3, settled=1, moot=1,
                  imports=[ImportRate("u1", "2026-03-02T09:00:00+00:00", 10, 4),
                           ImportRate("u2", "2026-03-03T09:00:00+00:00", 3, 3)],
                  read_scans=9, read_scans_with_conflict=2)
    back = Stats.from_json_dict(json.loads(json.dumps(stats.to_json_dict())))
    assert back == stats
    assert back.read_scan_conflict_share == 2 / 9


def test_the_statistics_process_is_the_default_and_can_be_turned_off():
    assert ApiSettings().stats_process is True
    assert ApiSettings.from_env({"CONTRASCAN_STATS_PROCESS": "0"}).stats_process is False
    assert ApiSettings.from_env({}).stats_process is True


class _NotAClient:
    pass


def test_a_client_whose_server_cannot_be_named_keeps_the_statistics_in_process():
    assert server_address(_NotAClient()) is None
    assert StatsProcess.for_service(_NotAClient()) is None


def test_scan_workers_are_set_from_the_environment_and_need_a_named_server():

    from scanner.api.settings import DEFAULT_SCAN_WORKERS

    assert ApiSettings().scan_workers == 0  # an app built with explicit settings: threads
    assert ApiSettings.from_env({}).scan_workers == DEFAULT_SCAN_WORKERS >= 1  # serve
    assert ApiSettings.from_env({"CONTRASCAN_SCAN_WORKERS": "2"}).scan_workers == 2
    assert ApiSettings.from_env({"CONTRASCAN_SCAN_WORKERS": "0"}).scan_workers == 0
    assert ScanWorkers.for_service(_NotAClient(), workers=2) is None
    with pytest.raises(ValueError):
        ScanWorkers("http://127.0.0.1:1", None, "C", None, "m", workers=0)


def _scrape_twice(max_age_s: float) -> tuple[str, str]:
    from fastapi.testclient import TestClient

    from scanner.api import create_app

    # the lifespan never runs (no `with`): /metrics needs no service
    app = create_app(service_factory=lambda: None, warm_up=False,
                     settings=ApiSettings(metrics_max_age_s=max_age_s))
    client = TestClient(app)
    first = client.get("/metrics").text
    app.state.metrics.memories_written.inc(7)
    return first, client.get("/metrics").text


def test_scrapes_within_the_max_age_get_the_same_exposition():
    first, second = _scrape_twice(60.0)
    assert second == first and "contrascan_memories_written_total 0.0" in second
    first, second = _scrape_twice(0.0)
    assert "contrascan_memories_written_total 7.0" in second
