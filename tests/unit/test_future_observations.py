"""A record observed after the scan's clock never wins (issue 18 item 7): its pairs are
quarantined with a reason that says so, within a configurable skew."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from scanner.config import Settings
from scanner.core.policy import decide
from scanner.core.policy_config import PolicyConfig
from tests.unit.test_policy import T0, pair, record

NOW = T0 + timedelta(days=10)


def test_a_far_future_observation_is_quarantined_not_a_recency_winner():
    far = record("m2", value="tenmoku", observed_at=datetime(9999, 1, 1, tzinfo=timezone.utc))
    c = decide(pair(record("m1"), far), PolicyConfig(now=NOW))
    assert (c.verdict, c.rule, c.winner, c.superseded) == ("quarantined", "future_observed_at",
                                                           None, [])
    assert "future_observed_at:m2@9999-01-01T00:00:00+00:00" in c.reasons
    assert f"after_clock:{NOW.isoformat()}+300s" in c.reasons


def test_a_future_observation_loses_its_source_class_advantage_too():
    future = record("m2", value="tenmoku", days=11, source_class="observation")
    c = decide(pair(record("m1"), future), PolicyConfig(now=NOW))
    assert c.rule == "future_observed_at" and c.winner is None


def test_the_skew_is_configurable():
    ahead = record("m2", value="tenmoku", observed_at=NOW + timedelta(seconds=200))
    assert decide(pair(record("m1"), ahead), PolicyConfig(now=NOW)).winner == "m2"
    tight = decide(pair(record("m1"), ahead), PolicyConfig(now=NOW, max_clock_skew_s=60))
    assert tight.rule == "future_observed_at"
    settings = Settings.model_validate({"epochs": {"max_clock_skew_s": 60}})
    assert settings.scan_config().policy.max_clock_skew_s == 60


def test_scan_file_uses_the_current_clock(engine, tmp_path):
    rows = [
        {"id": "now", "text": "The preferred glaze is celadon.", "observed_at": "2026-03-01T10:00:00Z"},
        {"id": "far", "text": "The preferred glaze is tenmoku.", "observed_at": "9999-12-31T00:00:00Z"},
        {"id": "later", "text": "The preferred glaze is shino.", "observed_at": "2026-03-05T10:00:00Z"},
    ]
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps({**r, "user_id": "p1", "source": "chat",
                                        "source_class": "user", "epoch": "e1"}) + "\n"
                            for r in rows))
    report = engine.scan_file(path)
    by_members = {tuple(c.members): c for c in report.conflicts}
    assert by_members[("far", "later")].rule == "future_observed_at"
    assert by_members[("far", "now")].rule == "future_observed_at"
    assert by_members[("later", "now")].winner == "later"
    assert "far" in report.unresolved and "far" not in report.cite
    assert all(c.winner != "far" and c.settled_by != "far" for c in report.conflicts)
