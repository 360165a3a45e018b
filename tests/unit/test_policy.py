"""Every row of the SPEC §3 resolution table, in order, on hand-built pairs (no parsing)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from extractors import Cardinality, Triple
from scanner.core.detect import CandidatePair, stances
from scanner.core.keys import Assertion, GroupKey
from scanner.core.policy import decide, epoch_event, severity
from scanner.core.policy_config import PolicyConfig, Strategy
from scanner.models import MemoryRecord

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)


def record(rid: str, *, value: str = "celadon", days: float = 0.0, **kw) -> MemoryRecord:
    base = dict(id=rid, text=f"The preferred glaze is {value}.", user_id="potter-1",
                source="chat", source_class="user", observed_at=T0 + timedelta(days=days),
                epoch="e1")
    base.update(kw)
    return MemoryRecord(**base)


def pair(a: MemoryRecord, b: MemoryRecord, *, relation: str = "preferred glaze",
         cardinality: Cardinality = Cardinality.functional, unconfirmed: bool = False,
         values: tuple[str, str] = ("celadon", "tenmoku")) -> CandidatePair:
    key = GroupKey(a.scope(), "user", relation)
    sa, sb = (stances([Assertion(r, Triple("user", relation, v, rule="attribute"))])[0]
              for r, v in ((a, values[0]), (b, values[1])))
    return CandidatePair(key=key, kind="value_mismatch", a=sa, b=sb, cardinality=cardinality,
                         subject_unconfirmed=unconfirmed,
                         other_key=GroupKey(a.scope(), "user x", relation) if unconfirmed
                         else None)


def test_unknown_cardinality_is_possible_never_resolved():
    c = decide(pair(record("m1"), record("m2", days=3), cardinality=Cardinality.unknown))
    assert (c.verdict, c.winner, c.superseded) == ("possible", None, [])


@pytest.mark.parametrize("missing", ["source", "observed_at", "epoch"])
def test_missing_provenance_quarantines_and_names_field_and_record(missing):
    b = record("m2", days=3, **{missing: None})
    c = decide(pair(record("m1"), b))
    assert c.verdict == "quarantined" and c.winner is None
    assert f"missing_provenance:{missing}@m2" in c.reasons


def test_missing_provenance_beats_every_later_row():
    # different epochs and classes too: row 1 still decides
    b = record("m2", days=3, source=None, epoch="e2", source_class="observation")
    assert decide(pair(record("m1"), b)).rule == "missing_provenance"


def test_single_epoch_declaration_fills_missing_epoch_and_is_recorded():
    a, b = record("m1", epoch=None), record("m2", days=3, epoch=None)
    assert decide(pair(a, b)).verdict == "quarantined"
    c = decide(pair(a, b), PolicyConfig(single_epoch=True))
    assert (c.verdict, c.winner, c.rule) == ("resolved", "m2", "recency")
    assert "declared:single_epoch" in c.reasons


def test_epoch_property_declaration():
    a = record("m1", epoch=None, properties={"deploy": "d4"})
    b = record("m2", days=3, epoch=None, properties={"deploy": "d7"})
    c = decide(pair(a, b), PolicyConfig(epoch_property="deploy"))
    assert c.verdict == "epoch_change" and "declared:epoch_property=deploy" in c.reasons


def test_subject_unconfirmed_quarantines():
    c = decide(pair(record("m1"), record("m2", days=3), unconfirmed=True))
    assert (c.verdict, c.rule) == ("quarantined", "subject_unconfirmed")


def test_epoch_change_reports_latest_not_winner_and_event():
    a, b = record("m1", epoch="deploy-4"), record("m2", days=30, epoch="deploy-7")
    c = decide(pair(a, b))
    assert (c.verdict, c.winner, c.latest, c.superseded) == ("epoch_change", None, "m2", [])
    event = epoch_event(c, a, b)
    assert event.from_["epoch"] == "deploy-4" and event.to["epoch"] == "deploy-7"
    assert event.from_["value"] == "celadon" and event.to["value"] == "tenmoku"
    assert event.to["source"] == "chat"


def test_safety_relation_escalates_with_recommendation():
    c = decide(pair(record("m1"), record("m2", days=3)),
               PolicyConfig(safety_relations=frozenset({"preferred glaze"})))
    assert (c.verdict, c.winner) == ("escalated", None)
    assert "recommended:m2" in c.reasons


@pytest.mark.parametrize("config", [
    PolicyConfig(safety_relations=frozenset({"preferred glaze"})),
    PolicyConfig(strategies={"preferred glaze": Strategy.manual_review})],
    ids=["safety_relation", "manual_review"])
def test_an_escalated_pair_is_high_severity_whatever_its_members(config):
    """Issue 35 item 6: an escalated safety item showed "low" (no confidences: 0.5 each);
    its severity is that of its escalation (seed 001's escalation queue: "high")."""
    low = (record("m1"), record("m2", days=1))
    assert severity(*low) == "low"
    c = decide(pair(*low), config)
    assert (c.verdict, c.severity) == ("escalated", "high")
    assert severity(*low, "escalated") == "high"
    assert decide(pair(*low)).severity == "low"  # the same pair, not escalated


def test_source_class_wins_even_if_older_and_logs_override():
    a = record("m1", source_class="observation")
    b = record("m2", days=3, source_class="user")
    c = decide(pair(a, b))
    assert (c.verdict, c.winner, c.superseded, c.rule) == ("resolved", "m1", ["m2"],
                                                           "source_class")
    assert any(r.startswith("override:source_class") for r in c.reasons)


def test_recency_within_class():
    c = decide(pair(record("m1"), record("m2", days=3)))
    assert (c.verdict, c.winner, c.superseded, c.rule) == ("resolved", "m2", ["m1"], "recency")


def test_tie_quarantines():
    c = decide(pair(record("m1"), record("m2", source="wiki")))
    assert (c.verdict, c.rule, c.winner) == ("quarantined", "tie", None)


def test_recency_override_is_logged():
    a = record("m1", source_class="observation")
    b = record("m2", days=3, source_class="user")
    c = decide(pair(a, b), PolicyConfig(recency_override=True))
    assert (c.verdict, c.winner, c.rule) == ("resolved", "m2", "recency_override")
    assert any(r.startswith("override:recency") for r in c.reasons)


def test_named_strategies_per_relation():
    a = record("m1", confidence=0.9)
    b = record("m2", days=3, confidence=0.4)
    conf = PolicyConfig(strategies={"preferred glaze": Strategy.confidence})
    c = decide(pair(a, b), conf)
    assert (c.winner, c.rule) == ("m1", "confidence")
    manual = PolicyConfig(strategies={"preferred glaze": Strategy.manual_review})
    assert decide(pair(a, b), manual).verdict == "escalated"
    weighted = PolicyConfig(strategies={"preferred glaze": Strategy.weighted})
    # recency 1.0*0.6 + 0.4*0.4 = 0.76 for m2 against 0 + 0.9*0.4 = 0.36 for m1
    assert decide(pair(a, b), weighted).winner == "m2"


def test_inputs_record_the_provenance_read():
    c = decide(pair(record("m1"), record("m2", days=3)))
    assert c.inputs["m2"]["source_class"] == "user" and c.inputs["m1"]["epoch"] == "e1"


@pytest.mark.parametrize(("ca", "cb", "days", "expected"), [
    (0.9, 0.95, 10, "high"), (0.9, 0.95, 2, "medium"), (0.7, 0.65, 10, "medium"),
    (0.9, None, 10, "low"), (None, None, 0, "low")])
def test_severity(ca, cb, days, expected):
    assert severity(record("a", confidence=ca), record("b", confidence=cb, days=days)) == expected


def test_decide_does_not_mutate_inputs():
    a, b = record("m1"), record("m2", days=3)
    p = pair(a, b)
    before = (a.model_dump(), b.model_dump())
    decide(p)
    assert (a.model_dump(), b.model_dump()) == before
