"""The checks of the replay validator, in order (issue 7; intent from seed 002).

Pure functions over frozen models: nothing here reads a file, and the inputs are never mutated.
:func:`scanner.validator.walk.run_checks` walks the rows once in log order —
``(episode_order, sequence)`` — and puts every row through the row-level checks in turn:

0. ``intake``: the row carries no raw text (body, transcript, answer) and its digest matches a
   supplied body. Issue 7 asks for digests instead of bodies and for a tampered body to fail;
   the check runs first so that no later check ever depends on a row whose body is in doubt.
1. ``temporal_order``: an UPDATE or DELETE carries a conflict edge, and a conflict edge names an
   earlier write that was not quarantined; every conflict edge and downgrade evidence a NOOP
   depends on was declared by an earlier, non-quarantined row (issue 7 check 1). The issue
   states the NOOP rule for replay NOOPs; it applies to any row that lists ``depends_on``.
2. ``semantic_recompute``: per conflict group in log order, each UPDATE or DELETE is recomputed
   against the group's last write that was not quarantined — it exists and is the write
   referenced, its body digest matches when both are known, the event time is strictly later,
   priority does not fall, source trust is at least the floor (0.6) and does not fall (issue 7
   check 2). An ADD into a group whose last write is still live is a supersession without the
   label and is quarantined too (seed 002: the label is a claim to recompute).
3. ``replay``: both rows of a replay pair carry a cold-replay reference; a memory-on row's
   evidence references resolve to earlier accepted memory events; an answer-delta record binds
   a memory-on and a memory-off row of its own group, requires and carries an evidence handle
   that the memory-on row cites, and never credits memory from the final answer alone
   (issue 7 check 3).

A row quarantined by one check is not seen by the later ones and never becomes a prior write,
an evidence target or a counted row. A rule that needs a field the source does not carry does
not pass or fail: the field is recorded and the row ends ``unverified`` (issue 7: fields a
source does not carry are reported as unverifiable, never assumed). An unverified row may still
be the prior write of a later one, which is then unverified too.

After the pass come the log-level checks (:mod:`scanner.validator.walk`): 4. ``positive_floor``
over accepted, trace-backed rows, and 5. ``negative_coverage``: every declared falsification
row was rejected with its own code (:data:`~scanner.validator.models.NEGATIVE_CASE_CODES`).
One blocked check blocks the result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from scanner.validator.models import (
    AnswerDelta,
    CheckName,
    CheckReport,
    Finding,
    LogRow,
    MemoryEvent,
    ParsedRow,
    ReasonCode,
    ReplayRow,
    ResultStatus,
    RowVerdict,
    ValidatorConfig,
)

RULE_SOURCES: dict[CheckName, str] = {
    CheckName.intake: "issue 7 (digests instead of bodies; a tampered body fails; no body, "
                      "transcript or answer in any output); seed 002",
    CheckName.temporal_order: "issue 7 check 1; seed 002 (coarse order before the recompute)",
    CheckName.semantic_recompute: "issue 7 check 2; seed 002 (labels are claims; trust floor "
                                  "0.6)",
    CheckName.replay: "issue 7 check 3; seed 002 (memory-on credit needs resolving evidence)",
    CheckName.positive_floor: "issue 7 check 4; seed 002",
    CheckName.negative_coverage: "issue 7 check 5; seed 002 (a missed rejection blocks)",
}
"""Where each check's rules come from (shown on the board)."""

ROW_CHECKS: tuple[CheckName, ...] = (CheckName.intake, CheckName.temporal_order,
                                     CheckName.semantic_recompute, CheckName.replay)


@dataclass(frozen=True)
class Outcome:
    """What one check decided about one row: a failure code, or the fields it could not use."""

    code: ReasonCode | None = None
    unverifiable: tuple[str, ...] = ()


@dataclass
class _Group:
    last: str
    live: bool


@dataclass
class LedgerState:
    """What the walk has settled so far (rows earlier in log order). Read by the checks,
    written only by :func:`scanner.validator.walk.run_checks`."""

    rows: dict[str, LogRow] = field(default_factory=dict)
    verdicts: dict[str, RowVerdict] = field(default_factory=dict)
    groups: dict[str, _Group] = field(default_factory=dict)
    declared: dict[str, str] = field(default_factory=dict)

    def live_event(self, ref: str) -> tuple[MemoryEvent, RowVerdict] | None:
        """The earlier memory event ``ref`` if it was not quarantined, else ``None``."""
        row, verdict = self.rows.get(ref), self.verdicts.get(ref)
        if not isinstance(row, MemoryEvent) or verdict is None or verdict.status == "quarantined":
            return None
        return row, verdict


@dataclass(frozen=True)
class CheckRun:
    """Everything the checks decided: per-row verdicts in log order, log-level findings, and
    one board line per check (in check order), plus the overall status."""

    status: ResultStatus
    verdicts: tuple[RowVerdict, ...]
    findings: tuple[Finding, ...]
    checks: tuple[CheckReport, ...]


class _Unverifiable:
    """Collects field names a rule could not use, in first-seen order."""

    def __init__(self, declared: tuple[str, ...]):
        self.declared = declared
        self.fields: list[str] = []

    def note(self, name: str) -> None:
        if name not in self.fields:
            self.fields.append(name)

    def missing(self, name: str, value: object) -> bool:
        """True when ``value`` is absent *and* the source declared it cannot carry it."""
        if value is None and name in self.declared:
            self.note(name)
            return True
        return False

    def outcome(self, code: ReasonCode | None = None) -> Outcome:
        return Outcome(code, tuple(self.fields))


# -- 0. intake ----------------------------------------------------------------------------
def check_intake(parsed: ParsedRow, state: LedgerState, config: ValidatorConfig,
                 body_digests: Mapping[str, str] | None) -> Outcome:
    """Raw text and body digests.

    Args:
        parsed: the row, with the names of raw text fields removed from it at reading.
        body_digests: sha256 of each supplied body by row id, or ``None`` when no bodies were
            supplied (digests are then reported unchecked, not assumed good).

    Returns:
        ``intake_raw_text_field`` when the row carried text; ``intake_digest_mismatch`` when
        its ``body_sha256`` (memory event) or ``answer_sha256`` (replay row) differs from the
        sha256 of the supplied body.
    """
    if parsed.raw_text_fields:
        return Outcome(ReasonCode.intake_raw_text_field)
    digest = _row_digest(parsed.row)
    if body_digests is not None and digest is not None and parsed.row.id in body_digests:
        if body_digests[parsed.row.id] != digest:
            return Outcome(ReasonCode.intake_digest_mismatch)
    return Outcome()


def _row_digest(row: LogRow) -> str | None:
    if isinstance(row, MemoryEvent):
        return row.body_sha256
    if isinstance(row, ReplayRow):
        return row.answer_sha256
    return None


# -- 1. temporal order --------------------------------------------------------------------
def check_temporal_order(parsed: ParsedRow, state: LedgerState, config: ValidatorConfig,
                         body_digests: Mapping[str, str] | None = None) -> Outcome:
    """Coarse order of conflict edges and NOOP dependencies (issue 7 check 1).

    Returns:
        ``temporal_conflict_edge_absent`` for an UPDATE or DELETE without a conflict edge;
        ``temporal_conflict_edge_early`` for a conflict edge whose prior write is absent, later
        in the log, a NOOP, or quarantined; ``temporal_noop_before_evidence`` for a dependency
        not declared by an earlier, non-quarantined row.
    """
    row = parsed.row
    if not isinstance(row, MemoryEvent):
        return Outcome()
    unv = _Unverifiable(row.unverifiable)
    if row.decision in ("UPDATE", "DELETE") and row.conflict_edge_ref is None:
        if not unv.missing("conflict_edge_ref", row.conflict_edge_ref):
            return unv.outcome(ReasonCode.temporal_conflict_edge_absent)
    if row.conflict_edge_ref is not None:
        if row.prior_write_ref is None:
            if not unv.missing("prior_write_ref", row.prior_write_ref):
                return unv.outcome(ReasonCode.temporal_conflict_edge_early)
        else:
            prior = state.live_event(row.prior_write_ref)
            if prior is None or prior[0].decision == "NOOP":
                return unv.outcome(ReasonCode.temporal_conflict_edge_early)
    for ref in row.depends_on:
        if ref not in state.declared:
            return unv.outcome(ReasonCode.temporal_noop_before_evidence)
    return unv.outcome()


# -- 2. semantic recompute ----------------------------------------------------------------
def check_semantic_recompute(parsed: ParsedRow, state: LedgerState, config: ValidatorConfig,
                             body_digests: Mapping[str, str] | None = None) -> Outcome:
    """Recompute a supersession against the group's last write (issue 7 check 2).

    Event times are compared as UTC instants (strictly later passes); ``priority`` is an
    ordinal (equal passes); ``source_trust`` is in [0, 1] and must be at least
    ``config.trust_floor`` (0.6 by default) and not below the prior write's.

    Returns:
        The first failing rule's code, in this order: ``semantic_add_over_live_write`` (ADD),
        ``semantic_prior_write_missing``, ``semantic_prior_write_not_latest``,
        ``semantic_prior_body_mismatch``, ``semantic_timestamp_not_later``,
        ``semantic_priority_fell``, ``semantic_trust_below_floor``, ``semantic_trust_fell``.
    """
    row = parsed.row
    if not isinstance(row, MemoryEvent) or row.decision == "NOOP":
        return Outcome()
    group = state.groups.get(row.conflict_group)
    if row.decision == "ADD":
        if group is not None and group.live:
            return Outcome(ReasonCode.semantic_add_over_live_write)
        return Outcome()
    unv = _Unverifiable(row.unverifiable)
    if group is None or not group.live:
        return unv.outcome(ReasonCode.semantic_prior_write_missing)
    prior: MemoryEvent = state.rows[group.last]  # type: ignore[assignment]
    if row.prior_write_ref is None:
        if not unv.missing("prior_write_ref", None):
            return unv.outcome(ReasonCode.semantic_prior_write_missing)
    elif row.prior_write_ref != prior.id:
        return unv.outcome(ReasonCode.semantic_prior_write_not_latest)
    if state.verdicts[prior.id].status == "unverified":
        unv.note("prior_write")
    if (row.prior_body_sha256 is not None and prior.body_sha256 is not None
            and row.prior_body_sha256 != prior.body_sha256):
        return unv.outcome(ReasonCode.semantic_prior_body_mismatch)
    if row.event_time is None or prior.event_time is None:
        unv.note("event_time")
    elif row.event_time <= prior.event_time:
        return unv.outcome(ReasonCode.semantic_timestamp_not_later)
    if row.priority is None or prior.priority is None:
        unv.note("priority")
    elif row.priority < prior.priority:
        return unv.outcome(ReasonCode.semantic_priority_fell)
    if row.source_trust is None:
        unv.note("source_trust")
    elif row.source_trust < config.trust_floor:
        return unv.outcome(ReasonCode.semantic_trust_below_floor)
    if row.source_trust is None or prior.source_trust is None:
        unv.note("source_trust")
    elif row.source_trust < prior.source_trust:
        return unv.outcome(ReasonCode.semantic_trust_fell)
    return unv.outcome()


# -- 3. replay ----------------------------------------------------------------------------
def check_replay(parsed: ParsedRow, state: LedgerState, config: ValidatorConfig,
                 body_digests: Mapping[str, str] | None = None) -> Outcome:
    """Replay rows and answer-delta records (issue 7 check 3).

    Returns:
        For a replay row: ``replay_cold_reference_missing``; for a memory-on row,
        ``replay_evidence_unresolved`` when it cites nothing or a reference that is not an
        earlier, non-quarantined memory event. For an answer-delta record:
        ``replay_pair_mismatch`` (its two references are not an earlier memory-on and
        memory-off row of its own group), ``replay_evidence_handle_missing`` (no handle, the
        handle is not required, or the memory-on row does not cite it),
        ``replay_final_answer_only``.
    """
    row = parsed.row
    if isinstance(row, ReplayRow):
        return _check_replay_row(row, state)
    if isinstance(row, AnswerDelta):
        return _check_answer_delta(row, state)
    return Outcome()


def _check_replay_row(row: ReplayRow, state: LedgerState) -> Outcome:
    unv = _Unverifiable(row.unverifiable)
    if row.cold_replay_ref is None and not unv.missing("cold_replay_ref", None):
        return unv.outcome(ReasonCode.replay_cold_reference_missing)
    if row.memory == "on":
        if not row.evidence_refs:
            if not unv.missing("evidence_refs", None):
                return unv.outcome(ReasonCode.replay_evidence_unresolved)
        for ref in row.evidence_refs:
            target = state.live_event(ref)
            if target is None:
                return unv.outcome(ReasonCode.replay_evidence_unresolved)
            if target[1].status == "unverified":
                unv.note("evidence_refs")
    return unv.outcome()


def _check_answer_delta(row: AnswerDelta, state: LedgerState) -> Outcome:
    unv = _Unverifiable(row.unverifiable)
    sides = []
    for ref, side in ((row.memory_on_ref, "on"), (row.memory_off_ref, "off")):
        target, verdict = state.rows.get(ref), state.verdicts.get(ref)
        if (not isinstance(target, ReplayRow) or verdict is None
                or verdict.status == "quarantined" or target.memory != side
                or target.replay_group_id != row.replay_group_id):
            return unv.outcome(ReasonCode.replay_pair_mismatch)
        if verdict.status == "unverified":
            unv.note(f"memory_{side}_ref")
        sides.append(target)
    memory_on = sides[0]
    if (not row.memory_credit_requires_evidence_handle or row.evidence_handle is None
            or row.evidence_handle not in memory_on.evidence_refs):
        return unv.outcome(ReasonCode.replay_evidence_handle_missing)
    if row.credit_basis == "final_answer_only":
        return unv.outcome(ReasonCode.replay_final_answer_only)
    return unv.outcome()


RowCheck = Callable[[ParsedRow, LedgerState, ValidatorConfig, Mapping[str, str] | None], Outcome]
ROW_CHECK_FUNCTIONS: dict[CheckName, RowCheck] = {
    CheckName.intake: check_intake,
    CheckName.temporal_order: check_temporal_order,
    CheckName.semantic_recompute: check_semantic_recompute,
    CheckName.replay: check_replay,
}
