"""The sidecar's paced store statistics (scanner.api.paced_stats) are the service's own, on a
real Weaviate: pacing changes when the work is done, never what it counts."""

from __future__ import annotations

import pytest

from scanner.api.paced_stats import PacedStats
from scanner.demo import demo_records_path
from scanner.records import read_jsonl

pytestmark = pytest.mark.integration


@pytest.fixture()
def demo_records():
    records, rejected = read_jsonl(demo_records_path())
    assert not rejected
    return records[:300]


def test_paced_statistics_equal_the_services_own(service, demo_records):
    service.import_records(demo_records)
    report = service.batch_scan()
    assert report.conflicts  # something to count
    member = next(r for r in demo_records if r.id == report.conflicts[0].members[0])
    service.scan(member.user_id, member.text, group=member.group)  # a read-time scan to flush
    paced = PacedStats(service, busy_share=0.5).stats()
    assert paced.read_scans >= 1
    assert paced.to_json_dict() == service.stats().to_json_dict()
    assert paced.conflicts > 0
