"""The resolution policy: one verdict per conflicting pair (SPEC §3, seed 000, seed 001).

Rows are evaluated in order and the first that applies decides:

1. unknown relation cardinality -> ``possible`` (reported, never auto-resolved; SPEC §1);
2. either record lacks ``source``, ``observed_at`` or ``epoch`` -> ``quarantined``
   (``missing_provenance:<field>@<id>``; seed 000 condition 1);
3. subject identity only string-similar -> ``quarantined`` (``subject_unconfirmed``; seed 000
   condition 3);
4. epochs differ -> ``epoch_change`` (both kept; the later one is ``latest``, not a winner;
   seed 000 "Cross-epoch");
5. the relation is a declared safety rule -> ``escalated`` with a recommended resolution
   (seed 004 "For safety rules, escalate instead of auto-picking");
6. a named alternative strategy configured for the relation (seed 001: confidence, weighted
   recency+confidence, manual review) decides, and is recorded as the rule;
7. an explicit recency override from the caller -> ``resolved``, rule ``recency_override``
   (seed 000 condition 4: a discard "explicitly logged as a recency-based override");
8. source classes differ -> ``resolved``, rule ``source_class``: the higher class wins even if
   older (seed 000 "Recency is a tiebreaker, not a trust ordering");
9. ``observed_at`` differ -> ``resolved``, rule ``recency``;
10. otherwise -> ``quarantined`` (``tie``).

``decide`` is pure: it reads frozen records and returns a new :class:`Conflict`.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from extractors import Cardinality
from scanner.detect import CandidatePair
from scanner.models import Conflict, EpochChangeEvent, MemoryRecord, Severity


class Strategy(str, enum.Enum):
    """Named resolution strategies selectable per relation (seed 001)."""

    provenance = "provenance"
    """The default table: source class, then recency."""
    confidence = "confidence"
    """Higher ``confidence`` wins; equal confidence falls back to the default table."""
    weighted = "weighted"
    """0.6 x recency + 0.4 x confidence (seed 001's hybrid weights)."""
    manual_review = "manual_review"
    """Never decided automatically: escalated to a person."""


class PolicyConfig(BaseModel):
    """Everything a verdict depends on besides the two records; recorded with each verdict.

    Attributes:
        single_epoch: the store has no epochs and declares all records to share one; a
            missing ``epoch`` then does not quarantine.
        epoch_property: name of the record property the epoch is read from, when declared.
        recency_override: the caller asks for recency to decide within an epoch, ignoring
            source class (logged as ``recency_override``).
        safety_relations: relations whose conflicts always escalate.
        strategies: relation -> named strategy.
        recency_weight, confidence_weight: weights of the ``weighted`` strategy.
    """

    model_config = ConfigDict(frozen=True)

    single_epoch: bool = False
    epoch_property: str | None = None
    recency_override: bool = False
    safety_relations: frozenset[str] = frozenset()
    strategies: dict[str, Strategy] = Field(default_factory=dict)
    recency_weight: float = 0.6
    confidence_weight: float = 0.4

    def declarations(self) -> list[str]:
        """The epoch declarations that verdicts must carry (SPEC §3, last paragraph)."""
        out = []
        if self.single_epoch:
            out.append("declared:single_epoch")
        if self.epoch_property:
            out.append(f"declared:epoch_property={self.epoch_property}")
        return out


def epoch_of(record: MemoryRecord, config: PolicyConfig) -> str | None:
    """The record's epoch, or the declared single epoch, or None."""
    if record.epoch is not None:
        return record.epoch
    if config.epoch_property and config.epoch_property in record.properties:
        return record.properties[config.epoch_property]
    return "single_epoch" if config.single_epoch else None


def severity(a: MemoryRecord, b: MemoryRecord) -> Severity:
    """low / medium / high from confidence and time divergence (seed 001).

    ``high``: both confidences > 0.8 and observations more than 7 days apart; ``medium``:
    both > 0.6; else ``low``. A missing confidence counts as 0.5.
    """
    ca = a.confidence if a.confidence is not None else 0.5
    cb = b.confidence if b.confidence is not None else 0.5
    days = None
    if a.observed_at and b.observed_at:
        days = abs((a.observed_at - b.observed_at).total_seconds()) / 86400.0
    if ca > 0.8 and cb > 0.8 and days is not None and days > 7:
        return "high"
    if ca > 0.6 and cb > 0.6:
        return "medium"
    return "low"


def _inputs(record: MemoryRecord, config: PolicyConfig) -> dict[str, Any]:
    return {"source": record.source, "source_class": record.source_class.value,
            "observed_at": record.observed_at.isoformat() if record.observed_at else None,
            "epoch": epoch_of(record, config), "confidence": record.confidence}


def _newer(a: MemoryRecord, b: MemoryRecord) -> MemoryRecord | None:
    if a.observed_at is None or b.observed_at is None or a.observed_at == b.observed_at:
        return None
    return a if a.observed_at > b.observed_at else b


def _by_strategy(strategy: Strategy, a: MemoryRecord, b: MemoryRecord,
                 config: PolicyConfig) -> MemoryRecord | None:
    if strategy is Strategy.confidence:
        ca, cb = a.confidence, b.confidence
        if ca is None or cb is None or ca == cb:
            return None
        return a if ca > cb else b
    if strategy is Strategy.weighted:
        ta, tb = a.observed_at, b.observed_at
        if ta is None or tb is None:
            return None
        oldest = min(ta, tb)
        span = max((max(ta, tb) - oldest).total_seconds(), 1.0)

        def score(r: MemoryRecord, t: datetime) -> float:
            recency = (t - oldest).total_seconds() / span
            conf = r.confidence if r.confidence is not None else 0.5
            return config.recency_weight * recency + config.confidence_weight * conf

        sa, sb = score(a, ta), score(b, tb)
        if sa == sb:
            return None
        return a if sa > sb else b
    return None


def decide(pair: CandidatePair, config: PolicyConfig | None = None) -> Conflict:
    """The verdict for one conflicting pair.

    Args:
        pair: the candidate from :mod:`scanner.detect`.
        config: policy settings; defaults to the SPEC §3 table with nothing declared.

    Returns:
        A :class:`Conflict` whose ``rule`` names the row that decided, whose ``reasons``
        explain quarantines and declarations, and whose ``inputs`` hold the provenance read.
    """
    config = config or PolicyConfig()
    a, b = pair.a.record, pair.b.record
    relation = pair.key.relation
    members = [a.id, b.id]
    values = {a.id: pair.a.value_text(relation), b.id: pair.b.value_text(relation)}
    declared = config.declarations()
    base: dict[str, Any] = dict(key=pair.key.public(), kind=pair.kind, members=members,
                                values=values, severity=severity(a, b),
                                inputs={a.id: _inputs(a, config), b.id: _inputs(b, config)})

    def verdict(name: str, *, winner: MemoryRecord | None = None, rule: str | None = None,
                reasons: list[str] | None = None, latest: MemoryRecord | None = None) -> Conflict:
        loser = None if winner is None else (b if winner is a else a)
        return Conflict(**base, verdict=name, winner=winner.id if winner else None,
                        superseded=[loser.id] if loser else [],
                        latest=(latest or winner).id if (latest or winner) else None,
                        rule=rule, reasons=(reasons or []) + declared)

    if pair.kind == "value_mismatch" and pair.cardinality is Cardinality.unknown:
        return verdict("possible", rule="unknown_cardinality",
                       reasons=[f"relation '{relation}' has unknown cardinality"])
    missing = [f"missing_provenance:{field}@{r.id}" for r in (a, b)
               for field in ("source", "observed_at", "epoch")
               if (epoch_of(r, config) if field == "epoch" else getattr(r, field)) is None]
    if missing:
        return verdict("quarantined", rule="missing_provenance", reasons=missing)
    if pair.subject_unconfirmed:
        other = pair.other_key.subject if pair.other_key else "?"
        return verdict("quarantined", rule="subject_unconfirmed",
                       reasons=[f"subject_unconfirmed:{pair.key.subject}~{other}"])
    if epoch_of(a, config) != epoch_of(b, config):
        return verdict("epoch_change", rule="epoch_change", latest=_newer(a, b),
                       reasons=[f"epochs {epoch_of(a, config)} != {epoch_of(b, config)}"])
    recommended = _recommend(a, b)
    if relation in config.safety_relations:
        return verdict("escalated", rule="safety_relation",
                       reasons=[f"recommended:{recommended.id}" if recommended
                                else "recommended:none"])
    strategy = config.strategies.get(relation, Strategy.provenance)
    if strategy is Strategy.manual_review:
        return verdict("escalated", rule="manual_review",
                       reasons=[f"recommended:{recommended.id}" if recommended
                                else "recommended:none"])
    if strategy in (Strategy.confidence, Strategy.weighted):
        chosen = _by_strategy(strategy, a, b, config)
        if chosen is not None:
            return verdict("resolved", winner=chosen, rule=strategy.value)
    if config.recency_override:
        newer = _newer(a, b)
        if newer is not None:
            return verdict("resolved", winner=newer, rule="recency_override",
                           reasons=["override:recency requested by caller"])
    if a.source_class != b.source_class:
        winner = a if a.source_class.rank > b.source_class.rank else b
        reasons = []
        if _newer(a, b) not in (None, winner):
            reasons.append(f"override:source_class {winner.source_class.value} beats newer "
                           f"{(b if winner is a else a).source_class.value}")
        return verdict("resolved", winner=winner, rule="source_class", reasons=reasons)
    newer = _newer(a, b)
    if newer is not None:
        return verdict("resolved", winner=newer, rule="recency")
    return verdict("quarantined", rule="tie", reasons=["tie:same class and observed_at"])


def _recommend(a: MemoryRecord, b: MemoryRecord) -> MemoryRecord | None:
    """What the default table would pick, offered to a human reviewer."""
    if a.source_class != b.source_class:
        return a if a.source_class.rank > b.source_class.rank else b
    return _newer(a, b)


def epoch_event(conflict: Conflict, a: MemoryRecord, b: MemoryRecord,
                config: PolicyConfig | None = None) -> EpochChangeEvent:
    """The epoch-change event of an ``epoch_change`` verdict: old and new value, both epochs
    and sources (SPEC §3 row 3). ``from`` is the earlier observation."""
    config = config or PolicyConfig()
    older, newer = (a, b) if conflict.latest in (b.id, None) else (b, a)

    def side(r: MemoryRecord) -> dict[str, Any]:
        return {"id": r.id, "value": conflict.values.get(r.id), "epoch": epoch_of(r, config),
                "source": r.source, "observed_at": r.observed_at.isoformat()
                if r.observed_at else None}

    return EpochChangeEvent(key=conflict.key, **{"from": side(older)}, to=side(newer))
