"""Verdicts that explain themselves, without a store: recorded configuration, clarification
questions, settlement by re-observation, ledger entries, effects, narration and statistics."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from extractors import Cardinality, Triple
from scanner.detect import CandidatePair, stances
from scanner.keys import Assertion, GroupKey, similar_candidates, similar_subjects
from scanner.models import MemoryRecord
from scanner.policy import PolicyConfig, Strategy, clarification_question, decide
from scanner.scan import scan_records

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)


def record(rid: str, *, value: str = "celadon", days: float = 0.0, **kw) -> MemoryRecord:
    base = dict(id=rid, text=f"The preferred glaze is {value}.", user_id="potter-1",
                source="chat", source_class="user", observed_at=T0 + timedelta(days=days),
                epoch="e1")
    base.update(kw)
    return MemoryRecord(**base)


def triple(value: str, relation: str = "preferred glaze", subject: str = "user",
           negated: bool = False) -> Triple:
    return Triple(subject, relation, value, negated=negated, rule="attribute")


def pair(a: MemoryRecord, b: MemoryRecord, va: str = "celadon", vb: str = "tenmoku",
         relation: str = "preferred glaze") -> CandidatePair:
    key = GroupKey(a.scope(), "user", relation)
    sa, sb = (stances([Assertion(r, triple(v, relation))])[0] for r, v in ((a, va), (b, vb)))
    return CandidatePair(key=key, kind="value_mismatch", a=sa, b=sb,
                         cardinality=Cardinality.functional)


def scan(*items: tuple[MemoryRecord, str], config: PolicyConfig | None = None):
    from scanner.scan import ScanConfig

    records = [r for r, _ in items]
    triples = [[triple(v)] for _, v in items]
    return scan_records(records, triples, ScanConfig(policy=config or PolicyConfig()))


# -- what every verdict records -----------------------------------------------------------

def test_every_verdict_records_rule_inputs_configuration_and_severity():
    config = PolicyConfig(single_epoch=True,
                          strategies={"preferred glaze": Strategy.weighted})
    c = decide(pair(record("m1", epoch=None), record("m2", days=3, epoch=None)), config)
    assert c.rule == "weighted" and c.severity in ("low", "medium", "high")
    assert c.inputs["m1"]["epoch"] == "single_epoch" and c.inputs["m2"]["source"] == "chat"
    assert c.config == {"strategy": "weighted", "single_epoch": True, "epoch_property": None,
                        "recency_override": False, "safety_relation": False,
                        "weights": {"recency": 0.6, "confidence": 0.4}}
    declared = decide(pair(record("m1", epoch=None, properties={"deploy": "d4"}),
                           record("m2", days=3, epoch=None, properties={"deploy": "d7"})),
                      PolicyConfig(epoch_property="deploy"))
    assert declared.config["epoch_property"] == "deploy"
    assert "declared:epoch_property=deploy" in declared.reasons


def test_escalation_names_its_recommended_resolution():
    a, b = record("m1", source_class="observation"), record("m2", days=3)
    c = decide(pair(a, b), PolicyConfig(safety_relations=frozenset({"preferred glaze"})))
    assert (c.verdict, c.recommended, c.config["safety_relation"]) == ("escalated", "m1", True)


# -- clarification questions --------------------------------------------------------------

def test_unresolved_pairs_carry_a_user_facing_question():
    tie = decide(pair(record("m1"), record("m2", source="wiki")))
    assert tie.question == "Is the preferred glaze still celadon, or tenmoku?"
    resolved = decide(pair(record("m1"), record("m2", days=2)))
    assert resolved.question is None
    epochs = decide(pair(record("m1", epoch="studio-v3"), record("m2", days=9, epoch="v4")))
    assert epochs.question == ("Is the preferred glaze still celadon (epoch studio-v3), or "
                               "tenmoku (epoch v4)?")


@pytest.mark.parametrize(("texts", "relation", "subject", "values", "negated", "kind", "want"), [
    (("Sam lives in Lyon.", "Sam lives in Nice."), "live in", "sam", ("lyon", "nice"),
     (False, False), "value_mismatch", "Does Sam still live in Lyon, or Nice?"),
    (("I like coffee.", "I don't like coffee anymore."), "like", "user", ("coffee", "coffee"),
     (False, True), "polarity", "Do you still like coffee?"),
    (("Deploying on Fridays is allowed.", "Deploying on Fridays is not allowed."),
     "be allowed", "deploy on friday", ("", ""), (False, True), "polarity",
     "Is this still true: “Deploying on Fridays is allowed”?"),
])
def test_question_forms(texts, relation, subject, values, negated, kind, want):
    a = record("m1", text=texts[0])
    b = record("m2", text=texts[1], days=1)
    sa, sb = (stances([Assertion(r, Triple(subject, relation, v, negated=n, rule="svo"))])[0]
              for r, v, n in zip((a, b), values, negated))
    p = CandidatePair(key=GroupKey(a.scope(), subject, relation), kind=kind, a=sa, b=sb,
                      cardinality=Cardinality.functional)
    assert clarification_question(p) == want


# -- settlement by re-observation ---------------------------------------------------------

def test_a_later_observation_settles_a_quarantined_pair_and_both_steps_show():
    no_source = record("m1", source=None)
    other = record("m2", value="tenmoku", days=1)
    first = scan((no_source, "celadon"), (other, "tenmoku"))
    (c,) = first.conflicts
    assert (c.verdict, c.rule, c.settled_by) == ("quarantined", "missing_provenance", None)
    assert first.unresolved == ["m1", "m2"] and c.question

    fresh = record("m3", value="tenmoku", days=5, source="tool:glaze-log",
                   source_class="observation")
    second = scan((no_source, "celadon"), (other, "tenmoku"), (fresh, "tenmoku"))
    by_members = {tuple(x.members): x for x in second.conflicts}
    settled = by_members[("m1", "m2")]
    assert (settled.verdict, settled.rule) == ("quarantined", "missing_provenance")  # step 1
    assert (settled.settled_by, settled.superseded) == ("m3", ["m1"])                # step 2
    assert any(r == "settled:reobservation@m3" for r in settled.reasons)
    assert by_members[("m1", "m3")].settled_by == "m3"  # the retired member's pair with m3
    assert second.withhold == ["m1"] and second.unresolved == [] and second.cite == ["m2", "m3"]


def test_a_reobservation_in_the_new_epoch_retires_the_old_epoch_value():
    old = record("m1", value="30 s", epoch="deploy-4", source_class="observation")
    new = record("m2", value="5 s", days=7, epoch="deploy-7", source_class="observation")
    probe = record("m3", value="5 s", days=8, epoch="deploy-7", source_class="observation")
    report = scan((old, "30 s"), (new, "5 s"), (probe, "5 s"))
    change = {tuple(c.members): c for c in report.conflicts}[("m1", "m2")]
    assert (change.verdict, change.latest, change.settled_by) == ("epoch_change", "m2", "m3")
    assert change.superseded == ["m1"] and len(report.events) == 2
    assert report.withhold == ["m1"] and report.unresolved == []


@pytest.mark.parametrize("settler", [
    dict(days=5, epoch="deploy-4"),                       # not in the later member's epoch
    dict(days=5, source_class="inference"),               # less trusted than the members
    dict(days=5, source=None),                            # itself lacks provenance
])
def test_what_does_not_settle_a_pair(settler):
    old = record("m1", value="30 s", epoch="deploy-4")
    new = record("m2", value="5 s", days=1, epoch="deploy-7")
    other = record("m3", value="5 s", **{"epoch": "deploy-7", **settler})
    report = scan((old, "30 s"), (new, "5 s"), (other, "5 s"))
    change = {tuple(c.members): c for c in report.conflicts}[("m1", "m2")]
    assert change.settled_by is None and change.question
    assert "m2" in report.unresolved


def test_safety_relations_and_manual_review_are_never_settled():
    a, b = record("m1", source=None), record("m2", days=1)
    fresh = record("m3", days=4, source_class="observation", value="tenmoku")
    for config in (PolicyConfig(safety_relations=frozenset({"preferred glaze"})),
                   PolicyConfig(strategies={"preferred glaze": Strategy.manual_review})):
        report = scan((a, "celadon"), (b, "tenmoku"), (fresh, "tenmoku"), config=config)
        assert all(c.settled_by is None for c in report.conflicts)


# -- the subject-similarity index used by batch scans -------------------------------------

def test_similar_candidates_lose_no_pair_that_brute_force_finds():
    rng = random.Random(7)
    syllables = ["ka", "lo", "mi", "ren", "dus", "vo", "qua", "ter", "a", "e"]
    base = [" ".join("".join(rng.choice(syllables) for _ in range(rng.randint(1, 3)))
                     for _ in range(rng.randint(1, 3))) for _ in range(150)]

    def mutate(s: str) -> str:
        chars = list(s)
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(chars) + 1)
            if rng.random() < 0.5 and chars:
                chars.pop(min(at, len(chars) - 1))
            else:
                chars.insert(at, rng.choice("abc "))
        return "".join(chars).strip() or "q"

    subjects = sorted(set(base + [mutate(rng.choice(base)) for _ in range(150)]
                          + ["a", "b", "ab", "x y", "y", "sam", "sam lee"]))
    brute = [(i, j) for i in range(len(subjects)) for j in range(i + 1, len(subjects))
             if similar_subjects(subjects[i], subjects[j])]
    found = [(i, j) for i, j in similar_candidates(subjects)
             if similar_subjects(subjects[i], subjects[j])]
    assert found == brute and len(brute) > 20
