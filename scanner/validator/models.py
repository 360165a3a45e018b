"""Data shapes of the replay validator (issue 7): the JSON Lines input, its verdicts, the config.

The input is a memory writer's log, one JSON object per line, of three kinds told apart by
``kind``:

* ``memory_event`` — one ADD, UPDATE, DELETE or NOOP decision of the writer, with the fields the
  validator can re-derive a supersession from (order, event time, priority, source trust) and
  references to the prior write, the conflict edge and the downgrade evidence. The memory body
  never travels: only its sha256 digest does.
* ``replay`` — one run of a task with memory ``on`` or ``off``; the two runs of one task share a
  ``replay_group_id``. The answer never travels either, only its digest.
* ``answer_delta`` — binds one replay pair and says on what basis memory is credited.

Every model is frozen and forbids unknown fields. Timestamps are timezone-aware and converted to
UTC; naive ones are rejected rather than guessed (SPEC §4's rule, kept here).

A field the source does not carry is *unverifiable*: a measurement left out (``event_time``,
``priority``, ``source_trust``) is unverifiable by itself, and an exporter that cannot carry a
reference lists its name in ``unverifiable``. A reference that is simply ``null`` and not listed
there is a claim that it does not exist (seed 002: a label is a claim, never an authority).
"""

from __future__ import annotations

import enum
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
"""A sha256 digest: 64 lower-case hex characters."""
Ref = Annotated[str, Field(min_length=1, max_length=256)]
"""An identifier or reference: 1–256 characters, compared as an exact string."""

Decision = Literal["ADD", "UPDATE", "DELETE", "NOOP"]
DECISIONS: tuple[Decision, ...] = ("ADD", "UPDATE", "DELETE", "NOOP")
RowStatus = Literal["accepted", "quarantined", "unverified"]
CheckStatus = Literal["pass", "blocked", "unverified", "disabled"]
ResultStatus = Literal["pass", "blocked", "unverified"]

RAW_TEXT_FIELDS = frozenset({
    "body", "text", "content", "data", "transcript", "messages", "prompt",
    "completion", "answer", "final_answer", "old_memory", "new_memory", "raw",
})
"""Field names that carry text instead of metadata. A row holding any of them (non-null) is a
raw export; the value is dropped when the line is read and never reaches a check or an output."""


class CheckName(str, enum.Enum):
    """The checks, in the order they run (issue 7; ``intake`` goes first so no later check ever
    sees a body, and digests are checked before anything relies on a row)."""

    intake = "intake"
    temporal_order = "temporal_order"
    semantic_recompute = "semantic_recompute"
    replay = "replay"
    positive_floor = "positive_floor"
    negative_coverage = "negative_coverage"

    @property
    def order(self) -> int:
        """0 for ``intake`` … 5 for ``negative_coverage``."""
        return list(CheckName).index(self)


class ReasonCode(str, enum.Enum):
    """Why a row was quarantined or a check blocked. The prefix names the check."""

    # intake
    intake_malformed_line = "intake_malformed_line"
    intake_raw_text_field = "intake_raw_text_field"
    intake_digest_mismatch = "intake_digest_mismatch"
    # temporal order
    temporal_conflict_edge_absent = "temporal_conflict_edge_absent"
    temporal_conflict_edge_early = "temporal_conflict_edge_early"
    temporal_noop_before_evidence = "temporal_noop_before_evidence"
    # semantic recompute
    semantic_prior_write_missing = "semantic_prior_write_missing"
    semantic_prior_write_not_latest = "semantic_prior_write_not_latest"
    semantic_prior_body_mismatch = "semantic_prior_body_mismatch"
    semantic_add_over_live_write = "semantic_add_over_live_write"
    semantic_timestamp_not_later = "semantic_timestamp_not_later"
    semantic_priority_fell = "semantic_priority_fell"
    semantic_trust_below_floor = "semantic_trust_below_floor"
    semantic_trust_fell = "semantic_trust_fell"
    # replay
    replay_cold_reference_missing = "replay_cold_reference_missing"
    replay_evidence_unresolved = "replay_evidence_unresolved"
    replay_pair_mismatch = "replay_pair_mismatch"
    replay_evidence_handle_missing = "replay_evidence_handle_missing"
    replay_final_answer_only = "replay_final_answer_only"
    replay_pair_unbound = "replay_pair_unbound"
    # positive floor
    floor_decision_missing = "floor_decision_missing"
    floor_conflict_edges_short = "floor_conflict_edges_short"
    floor_stale_downgrade_missing = "floor_stale_downgrade_missing"
    floor_prompt_adoption_missing = "floor_prompt_adoption_missing"
    # negative-case coverage
    negative_case_missed = "negative_case_missed"
    negative_case_absent = "negative_case_absent"

    @property
    def check(self) -> CheckName:
        """The check that emits this code."""
        prefix = self.value.split("_", 1)[0]
        return {"intake": CheckName.intake, "temporal": CheckName.temporal_order,
                "semantic": CheckName.semantic_recompute, "replay": CheckName.replay,
                "floor": CheckName.positive_floor,
                "negative": CheckName.negative_coverage}[prefix]


class NegativeCase(str, enum.Enum):
    """The seven falsification cases of issue 7 a fixture must show rejected."""

    raw_transcript_export = "raw_transcript_export"
    private_candidate_auto_promotion = "private_candidate_auto_promotion"
    stale_preference_override = "stale_preference_override"
    memory_as_source_authority = "memory_as_source_authority"
    vector_recall_without_evidence_handle = "vector_recall_without_evidence_handle"
    final_answer_only_memory_credit = "final_answer_only_memory_credit"
    active_injection_as_authoritative = "active_injection_as_authoritative"


NEGATIVE_CASE_CODES: dict[NegativeCase, ReasonCode] = {
    NegativeCase.raw_transcript_export: ReasonCode.intake_raw_text_field,
    NegativeCase.private_candidate_auto_promotion: ReasonCode.semantic_trust_below_floor,
    NegativeCase.stale_preference_override: ReasonCode.semantic_timestamp_not_later,
    NegativeCase.memory_as_source_authority: ReasonCode.replay_evidence_unresolved,
    NegativeCase.vector_recall_without_evidence_handle: ReasonCode.replay_evidence_handle_missing,
    NegativeCase.final_answer_only_memory_credit: ReasonCode.replay_final_answer_only,
    NegativeCase.active_injection_as_authoritative: ReasonCode.temporal_conflict_edge_absent,
}
"""The code each falsification row must be rejected with; every case has its own (issue 7).

* a raw transcript export carries text where only digests may go;
* an unreviewed private candidate promoted over a memory comes from a source below the trust
  floor;
* a stale preference that overrides the current one is not later than what it replaces;
* a memory-on replay that treats recalled memory as its source cites references that do not
  resolve to accepted event rows;
* a vector recall without an evidence handle gives the answer-delta record nothing to bind to;
* final-answer-only credit is refused as such;
* injected text adopted as authoritative rewrites memory without any conflict edge.
"""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _utc(value: datetime | None) -> datetime | None:
    return value.astimezone(timezone.utc) if value is not None else None


class _Row(_Frozen):
    """Fields every row kind has."""

    id: Ref
    episode: Ref
    episode_order: int = Field(ge=0, description="Position of the episode in the story.")
    sequence: int = Field(ge=0, description="Position of the row in the log; unique.")
    trace_ref: Ref | None = None
    negative_case: NegativeCase | None = Field(
        default=None, description="Declares a falsification row; read only by the "
                                  "negative-coverage check, never by the checks it tests.")


MemoryEventField = Literal["event_time", "priority", "source_trust", "prior_write_ref",
                           "prior_body_sha256", "conflict_edge_ref", "downgrade_evidence_ref",
                           "body_sha256", "trace_ref", "prompt_adoption_ref"]


class MemoryEvent(_Row):
    """One decision of a memory writer (issue 7, "memory events").

    ``priority`` is an ordinal (higher = more important); ``source_trust`` is in [0, 1]
    (higher = more trusted). ``body_sha256`` is required for ADD and UPDATE, which write a body.
    ``depends_on`` names the conflict edges and downgrade evidence a NOOP relies on.
    """

    kind: Literal["memory_event"] = "memory_event"
    decision: Decision
    memory_id: Ref
    conflict_group: Ref
    event_time: AwareDatetime | None = None
    priority: int | None = None
    source_trust: float | None = Field(default=None, ge=0.0, le=1.0)
    prior_write_ref: Ref | None = None
    prior_body_sha256: Sha256 | None = None
    conflict_edge_ref: Ref | None = None
    downgrade_evidence_ref: Ref | None = None
    depends_on: tuple[Ref, ...] = ()
    prompt_adoption_ref: Ref | None = None
    unverifiable: tuple[MemoryEventField, ...] = ()
    body_sha256: Sha256 | None = Field(default=None, validate_default=True)

    @field_validator("event_time")
    @classmethod
    def _to_utc(cls, value: datetime | None) -> datetime | None:
        return _utc(value)

    @field_validator("body_sha256")
    @classmethod
    def _body_for_writes(cls, value: str | None, info: ValidationInfo) -> str | None:
        if (value is None and info.data.get("decision") in ("ADD", "UPDATE")
                and "body_sha256" not in info.data.get("unverifiable", ())):
            raise ValueError("required for ADD and UPDATE")
        return value


ReplayField = Literal["cold_replay_ref", "evidence_refs", "answer_sha256", "trace_ref",
                      "prompt_adoption_ref"]


class ReplayRow(_Row):
    """One replay of a task with memory on or off (issue 7, "replay rows").

    ``evidence_refs`` name the memory events the memory-on run used; ``cold_replay_ref`` names
    the record of the cold (fresh-state) replay run.
    """

    kind: Literal["replay"] = "replay"
    replay_group_id: Ref
    memory: Literal["on", "off"]
    cold_replay_ref: Ref | None = None
    evidence_refs: tuple[Ref, ...] = ()
    answer_sha256: Sha256 | None = None
    prompt_adoption_ref: Ref | None = None
    unverifiable: tuple[ReplayField, ...] = ()


class AnswerDelta(_Row):
    """Binds one replay pair and states the basis of memory credit (issue 7).

    ``credit_basis`` is ``evidence_handle`` (memory is credited through a logged evidence
    handle) or ``final_answer_only`` (credited from the final wording alone — always refused).
    """

    kind: Literal["answer_delta"] = "answer_delta"
    replay_group_id: Ref
    memory_on_ref: Ref
    memory_off_ref: Ref
    evidence_handle: Ref | None = None
    memory_credit_requires_evidence_handle: bool
    credit_basis: Literal["evidence_handle", "final_answer_only"]
    answer_changed: bool | None = None
    unverifiable: tuple[Literal["trace_ref"], ...] = ()


LogRow = MemoryEvent | ReplayRow | AnswerDelta
ROW_KINDS: dict[str, type[_Row]] = {"memory_event": MemoryEvent, "replay": ReplayRow,
                                    "answer_delta": AnswerDelta}


class ParsedRow(_Frozen):
    """A row that parsed, with its 1-based line (or row number) and any raw text field names
    that were stripped from it at intake (the names only; the values are gone)."""

    line: int
    row: MemoryEvent | ReplayRow | AnswerDelta
    raw_text_fields: tuple[str, ...] = ()


class MalformedLine(_Frozen):
    """A line that could not be read as a row. ``reason`` never quotes the line's values."""

    line: int
    source: Literal["log", "bodies"] = "log"
    id: str | None = None
    field: str
    reason: str


class PositiveFloor(_Frozen):
    """Least evidence the accepted, trace-backed rows must show (issue 7, check 4).

    Rows declared as falsification rows never count.
    """

    decisions: tuple[Decision, ...] = DECISIONS
    conflict_edges: int = Field(default=2, ge=0)
    stale_downgrades: int = Field(default=1, ge=0)
    prompt_adoptions: int = Field(default=1, ge=0)


class ValidatorConfig(_Frozen):
    """What a validation run enforces.

    Attributes:
        trust_floor: least ``source_trust`` in [0, 1] an UPDATE or DELETE may come from
            (0.6, issue 7 and seed 002).
        floor: the positive floor (check 4).
        require_negative_cases: every one of the seven falsification cases must have a row
            (on for the bundled fixture; a production log has none).
        disabled_checks: checks to skip; the board shows them as ``disabled``. Meant for
            mutation tests and for skipping the positive floor on production logs.
    """

    trust_floor: float = Field(default=0.6, ge=0.0, le=1.0)
    floor: PositiveFloor = Field(default_factory=PositiveFloor)
    require_negative_cases: bool = False
    disabled_checks: frozenset[CheckName] = frozenset()

    def enabled(self, check: CheckName) -> bool:
        """Whether ``check`` runs."""
        return check not in self.disabled_checks


class RowVerdict(_Frozen):
    """What the checks decided about one row (metadata only)."""

    line: int
    id: str
    kind: Literal["memory_event", "replay", "answer_delta"]
    decision: Decision | None = None
    memory: Literal["on", "off"] | None = None
    episode: str
    sequence: int
    status: RowStatus
    check: CheckName | None = None
    code: ReasonCode | None = None
    unverifiable: tuple[str, ...] = ()
    negative_case: NegativeCase | None = None


class Finding(_Frozen):
    """A log-level failure (not tied to one row): a shortfall, a missed case, bad lines."""

    check: CheckName
    code: ReasonCode
    detail: str
    count: int = 1


class CheckReport(_Frozen):
    """One line of the board: how a check went.

    ``blocked`` when it quarantined a row that is not a declared falsification row or raised a
    finding; ``unverified`` when some rule could not run for lack of a field; ``pass`` otherwise.
    """

    name: CheckName
    order: int
    status: CheckStatus
    rows_checked: int = 0
    quarantined: int = 0
    unverified: int = 0
    codes: dict[str, int] = Field(default_factory=dict)
    rule_source: str


class SourceInfo(_Frozen):
    """Where the rows came from and which fields that source cannot carry (and why)."""

    format: Literal["jsonl", "rows", "mem0-sqlite", "contrascan"]
    name: str | None = None
    input_sha256: str
    unverifiable_fields: dict[str, str] = Field(default_factory=dict)


class Digests(_Frozen):
    """Digests the run read and checked (sha256, hex)."""

    input_sha256: str
    bodies_sha256: str | None = None
    bodies_supplied: int = 0
    bodies_checked: int = 0
    bodies_matched: int = 0
    digests_unchecked: int = 0


class Counts(_Frozen):
    """Counts of a run: rows by kind and status, decisions, replay sides, reason codes."""

    lines: int
    rows: int
    malformed: int
    by_status: dict[str, int]
    decisions: dict[str, dict[str, int]]
    replay: dict[str, dict[str, int]]
    answer_delta: dict[str, int]
    reason_codes: dict[str, int]
    unverifiable_fields: dict[str, int]


class ValidationResult(_Frozen):
    """Everything a run decided; metadata only (no body, transcript or answer text).

    ``paths`` names the records written (``result``, ``board``, ``validation``, ``signoff``),
    empty when no output directory was given.
    """

    status: ResultStatus
    source: SourceInfo
    config: ValidatorConfig
    checks: tuple[CheckReport, ...]
    rows: tuple[RowVerdict, ...]
    findings: tuple[Finding, ...]
    malformed: tuple[MalformedLine, ...]
    counts: Counts
    digests: Digests
    paths: dict[str, str] = Field(default_factory=dict)

    def check(self, name: CheckName | str) -> CheckReport:
        """The board line of one check."""
        return next(c for c in self.checks if c.name == CheckName(name))

    def row(self, row_id: str) -> RowVerdict:
        """The verdict of the row with this id.

        Raises:
            KeyError: no row has this id.
        """
        for verdict in self.rows:
            if verdict.id == row_id:
                return verdict
        raise KeyError(row_id)

    def config_dict(self) -> dict[str, Any]:
        """The config as plain JSON types (sets sorted)."""
        data = self.config.model_dump(mode="json")
        data["disabled_checks"] = sorted(data["disabled_checks"])
        return data
