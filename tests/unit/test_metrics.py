"""The one definition of "a scan with a conflict" (scanner.metrics.has_conflict), as both the
process counters and the sidecar's own metrics count it."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from scanner.metrics import ScanCounters, SidecarMetrics, has_conflict
from scanner.models import Conflict, ConflictKey, ScanReport


def report(*verdicts: str) -> ScanReport:
    key = ConflictKey(user_id="u1", subject="user", relation="preferred glaze")
    conflicts = [Conflict(key=key, kind="value_mismatch", members=[f"a{i}", f"b{i}"],
                          values={f"a{i}": "celadon", f"b{i}": "tenmoku"}, verdict=v)
                 for i, v in enumerate(verdicts)]
    return ScanReport(scanned=2 * len(verdicts) or 1, conflicts=conflicts)


@pytest.mark.parametrize(("verdicts", "want"), [
    ((), False),
    (("possible",), False),
    (("possible", "possible"), False),
    (("resolved",), True),
    (("possible", "quarantined"), True),
    (("epoch_change",), True),
    (("escalated",), True),
])
def test_a_scan_has_a_conflict_when_a_pair_is_decided(verdicts, want):
    assert has_conflict(report(*verdicts)) is want


def samples(registry: CollectorRegistry) -> dict:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(generate_latest(registry).decode())
            for s in family.samples}


def test_process_counters_and_sidecar_metrics_count_the_same_scans():
    scans = [report("possible"), report("resolved"), report(), report("possible", "escalated")]
    counters, sidecar = ScanCounters(), SidecarMetrics()
    registry = CollectorRegistry()
    registry.register(counters)
    for r in scans:
        counters.observe_scan("read_time", r)
        sidecar.observe_scan("read_time", r, 0.01)
    process, app = samples(registry), samples(sidecar.registry)
    kind, mode = (("kind", "read_time"),), (("mode", "read_time"),)
    assert process[("contrascan_scan_incompatible_total", mode)] == 2
    assert app[("contrascan_scans_with_conflicts_total", kind)] == 2
    assert app[("contrascan_conflict_rate", kind)] == pytest.approx(2 / 4)
    assert app[("contrascan_conflicts_total", (("kind", "read_time"), ("verdict", "possible")))] == 2
