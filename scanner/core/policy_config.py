"""The settings a resolution verdict runs under (SPEC §3, seed 001): the named strategies, the
:class:`PolicyConfig` recorded with every verdict, and the epoch a record is read in.

Pure: imports nothing of the store, the service, the API or the CLI.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from scanner.models import MemoryRecord
from scanner.core.judgment import DEFAULT_THRESHOLD

DEFAULT_CLOCK_SKEW_S = 300.0
"""Seconds an ``observed_at`` may lie after the scan's clock and still count (5 minutes:
Kerberos' default maximum clock skew, RFC 4120 §1.6, a common bound for unsynchronised
clocks)."""


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
        now: the scan's clock (UTC); a record observed after ``now + max_clock_skew_s`` never
            wins, its pairs are quarantined. ``None`` = no check (scan functions fill it in
            with the current time, :func:`scanner.scan.scan_records`).
        max_clock_skew_s: seconds an ``observed_at`` may lie ahead of ``now``.
        judge_threshold: probability in [0, 1] of "update or contradiction" at which the pair
            judge confirms a conflict the keys found (:mod:`scanner.pair_judge`); below it
            the pair is at most ``possible``.
        declared: further declarations of the store the records come from (e.g. an attached
            source's ``declared:observed_at=created_at``), recorded in every verdict.
    """

    model_config = ConfigDict(frozen=True)

    single_epoch: bool = False
    epoch_property: str | None = None
    recency_override: bool = False
    safety_relations: frozenset[str] = frozenset()
    strategies: dict[str, Strategy] = Field(default_factory=dict)
    recency_weight: float = 0.6
    confidence_weight: float = 0.4
    now: datetime | None = None
    max_clock_skew_s: float = Field(DEFAULT_CLOCK_SKEW_S, ge=0.0)
    declared: tuple[str, ...] = ()
    judge_threshold: float = Field(DEFAULT_THRESHOLD, ge=0.0, le=1.0)

    def is_future(self, record: MemoryRecord) -> bool:
        """Whether ``record`` is observed after ``now`` plus the allowed skew."""
        return (self.now is not None and record.observed_at is not None
                and (record.observed_at - self.now).total_seconds() > self.max_clock_skew_s)

    def for_relation(self, relation: str) -> dict[str, Any]:
        """The settings a verdict about ``relation`` ran under, as recorded with it.

        Returns:
            ``strategy``, ``single_epoch``, ``epoch_property``, ``recency_override``,
            ``safety_relation`` and, for the ``weighted`` strategy, its ``weights``.
        """
        strategy = self.strategies.get(relation, Strategy.provenance)
        out: dict[str, Any] = {"strategy": strategy.value, "single_epoch": self.single_epoch,
                               "epoch_property": self.epoch_property,
                               "recency_override": self.recency_override,
                               "safety_relation": relation in self.safety_relations}
        if strategy is Strategy.weighted:
            out["weights"] = {"recency": self.recency_weight,
                              "confidence": self.confidence_weight}
        return out

    def declarations(self) -> list[str]:
        """The epoch declarations that verdicts must carry (SPEC §3, last paragraph)."""
        out = []
        if self.single_epoch:
            out.append("declared:single_epoch")
        if self.epoch_property:
            out.append(f"declared:epoch_property={self.epoch_property}")
        out.extend(self.declared)
        return out


def epoch_of(record: MemoryRecord, config: PolicyConfig) -> str | None:
    """The record's epoch, or the declared single epoch, or None."""
    if record.epoch is not None:
        return record.epoch
    if config.epoch_property and config.epoch_property in record.properties:
        return record.properties[config.epoch_property]
    return "single_epoch" if config.single_epoch else None
