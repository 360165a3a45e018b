"""A small set of memories whose scan leaves one item of each kind open for review: a tie, an
epoch change, an escalation (with :data:`SAFETY_RELATIONS` declared), a quarantine for missing
provenance, and one whose texts carry markup (``<script>``, ``onerror=``) that the page must
show as text. Used by the screenshots command and the browser tests."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from scanner.models import MemoryRecord

SAFETY_RELATIONS = frozenset({"timeout"})
"""Relations declared as safety rules for the sample, so its timeout pair is escalated."""
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)
MARKUP_SCRIPT = "<script>window.__pwned = 1</script>"
MARKUP_ONERROR = '<img src=x onerror="window.__pwned = 2">'


def sample_records(user_id: str, t0: datetime = T0) -> list[MemoryRecord]:
    """Ten records of one user; the verdicts each pair gets are listed in :data:`PAIRS`."""
    def rec(rid: str, text: str, days: float = 0, **kw: Any) -> MemoryRecord:
        fields: dict[str, Any] = dict(id=rid, text=text, user_id=user_id, source="chat:onboarding",
                                      source_class="user",
                                      observed_at=t0 + timedelta(days=days), epoch="studio-v3")
        fields.update(kw)
        return MemoryRecord(**fields)

    return [
        rec("glaze-1", "The preferred glaze is celadon.", source="chat:session-12"),
        rec("glaze-2", "The preferred glaze is tenmoku.", source="chat:session-13"),
        rec("home-1", "Sam lives in Lyon.", epoch="address-2025"),
        rec("home-2", "Sam lives in Nice.", days=30, epoch="address-2026", source="crm:export"),
        rec("timeout-1", "The deploy timeout is 30 seconds.", source="config:v41",
            source_class="observation", epoch="deploy-41"),
        rec("timeout-2", "The deploy timeout is 60 seconds.", days=1, source="chat:ops",
            epoch="deploy-41"),
        rec("work-1", "Sam works at Acme.", source=None),
        rec("work-2", "Sam works at Globex.", days=2, source="crm:export"),
        rec("color-1", f"The preferred color is red. {MARKUP_SCRIPT}", source=None),
        rec("color-2", f"The preferred color is {MARKUP_ONERROR}blue.", days=1),
    ]


PAIRS = {("glaze-1", "glaze-2"): ("quarantined", "tie"),
         ("home-1", "home-2"): ("epoch_change", "epoch_change"),
         ("timeout-1", "timeout-2"): ("escalated", "safety_relation"),
         ("work-1", "work-2"): ("quarantined", "missing_provenance"),
         ("color-1", "color-2"): ("quarantined", "missing_provenance")}
"""Pair -> (verdict, rule) under ``PolicyConfig(safety_relations=SAFETY_RELATIONS)``."""
