"""The walk of the replay validator (issue 7): :func:`run_checks` puts every row of a log
through the row-level checks of :mod:`scanner.validator.checks` in log order, then runs the
log-level checks 4. ``positive_floor`` and 5. ``negative_coverage`` and builds the board.

Pure functions over frozen models: nothing here reads a file, and the inputs are never mutated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from scanner.validator.checks import (
    ROW_CHECKS,
    ROW_CHECK_FUNCTIONS,
    RULE_SOURCES,
    CheckRun,
    LedgerState,
    _Group,
)
from scanner.validator.models import (
    NEGATIVE_CASE_CODES,
    AnswerDelta,
    CheckName,
    CheckReport,
    Finding,
    MalformedLine,
    MemoryEvent,
    NegativeCase,
    ParsedRow,
    ReasonCode,
    ReplayRow,
    ResultStatus,
    RowVerdict,
    ValidatorConfig,
)


# -- the walk -----------------------------------------------------------------------------
def _verdict(parsed: ParsedRow, status: str, check: CheckName | None, code: ReasonCode | None,
             unverifiable: tuple[str, ...]) -> RowVerdict:
    row = parsed.row
    return RowVerdict(
        line=parsed.line, id=row.id, kind=row.kind,
        decision=row.decision if isinstance(row, MemoryEvent) else None,
        memory=row.memory if isinstance(row, ReplayRow) else None,
        episode=row.episode, sequence=row.sequence, status=status, check=check, code=code,
        unverifiable=unverifiable, negative_case=row.negative_case)


def _settle(state: LedgerState, parsed: ParsedRow, verdict: RowVerdict) -> None:
    row = parsed.row
    state.rows[row.id] = row
    state.verdicts[row.id] = verdict
    if verdict.status == "quarantined" or not isinstance(row, MemoryEvent):
        return
    for ref in (row.conflict_edge_ref, row.downgrade_evidence_ref):
        if ref is not None:
            state.declared.setdefault(ref, row.id)
    if row.decision in ("ADD", "UPDATE", "DELETE"):
        state.groups[row.conflict_group] = _Group(last=row.id, live=row.decision != "DELETE")


def run_checks(rows: tuple[ParsedRow, ...] | list[ParsedRow], config: ValidatorConfig, *,
               malformed: tuple[MalformedLine, ...] | list[MalformedLine] = (),
               body_digests: Mapping[str, str] | None = None) -> CheckRun:
    """Run every enabled check over a parsed log.

    Args:
        rows: parsed rows in any order; they are walked in ``(episode_order, sequence)`` order.
        config: trust floor, positive floor, negative-case requirement, disabled checks.
        malformed: lines that did not parse; any of them blocks the intake check.
        body_digests: sha256 of supplied bodies by row id, or ``None`` when none were given.

    Returns:
        Verdicts in log order, findings, the board (one line per check, in check order) and
        the overall status: ``blocked`` if any check blocked, else ``unverified`` if any
        check could not verify a row, else ``pass``.
    """
    state = LedgerState()
    ordered = sorted(rows, key=lambda p: (p.row.episode_order, p.row.sequence))
    reached: Counter[CheckName] = Counter()
    unverified_by: dict[CheckName, set[str]] = {c: set() for c in ROW_CHECKS}
    verdicts: list[RowVerdict] = []
    for parsed in ordered:
        fields: list[str] = []
        failed: tuple[CheckName, ReasonCode] | None = None
        for name in ROW_CHECKS:
            if not config.enabled(name):
                continue
            reached[name] += 1
            outcome = ROW_CHECK_FUNCTIONS[name](parsed, state, config, body_digests)
            if outcome.unverifiable:
                unverified_by[name].add(parsed.row.id)
                fields.extend(f for f in outcome.unverifiable if f not in fields)
            if outcome.code is not None:
                failed = (name, outcome.code)
                break
        if failed is not None:
            verdict = _verdict(parsed, "quarantined", failed[0], failed[1], tuple(fields))
        else:
            verdict = _verdict(parsed, "unverified" if fields else "accepted", None, None,
                               tuple(fields))
        _settle(state, parsed, verdict)
        verdicts.append(verdict)

    findings: list[Finding] = []
    if malformed and config.enabled(CheckName.intake):
        findings.append(Finding(check=CheckName.intake, code=ReasonCode.intake_malformed_line,
                                detail="lines that could not be read", count=len(malformed)))
    if config.enabled(CheckName.replay):
        findings.extend(_unbound_pairs(state))
    if config.enabled(CheckName.positive_floor):
        findings.extend(positive_floor(verdicts, state, config))
    if config.enabled(CheckName.negative_coverage):
        findings.extend(negative_coverage(verdicts, config))

    board = tuple(_board_line(name, config, verdicts, findings, reached[name],
                              len(unverified_by.get(name, ())))
                  for name in CheckName)
    if any(c.status == "blocked" for c in board):
        status: ResultStatus = "blocked"
    elif any(c.status == "unverified" for c in board):
        status = "unverified"
    else:
        status = "pass"
    return CheckRun(status=status, verdicts=tuple(verdicts), findings=tuple(findings),
                    checks=board)


def _board_line(name: CheckName, config: ValidatorConfig, verdicts: list[RowVerdict],
                findings: list[Finding], reached: int, unverified: int) -> CheckReport:
    if not config.enabled(name):
        return CheckReport(name=name, order=name.order, status="disabled",
                           rule_source=RULE_SOURCES[name])
    mine = [v for v in verdicts if v.check == name]
    mine_findings = [f for f in findings if f.check == name]
    codes: Counter[str] = Counter(v.code.value for v in mine if v.code is not None)
    for f in mine_findings:
        codes[f.code.value] += f.count
    undeclared = any(v.negative_case is None for v in mine)
    if undeclared or mine_findings:
        status = "blocked"
    elif unverified:
        status = "unverified"
    else:
        status = "pass"
    return CheckReport(name=name, order=name.order, status=status,
                       rows_checked=reached if name in ROW_CHECKS else len(verdicts),
                       quarantined=len(mine), unverified=unverified,
                       codes=dict(sorted(codes.items())), rule_source=RULE_SOURCES[name])


def _unbound_pairs(state: LedgerState) -> list[Finding]:
    """Replay groups whose live rows lack a memory-on row, a memory-off row, or a binding
    answer-delta record (issue 7: an answer-delta record binds each replay pair)."""
    sides: dict[str, set[str]] = {}
    bound: set[str] = set()
    for rid, row in state.rows.items():
        if state.verdicts[rid].status == "quarantined":
            continue
        if isinstance(row, ReplayRow):
            sides.setdefault(row.replay_group_id, set()).add(row.memory)
        elif isinstance(row, AnswerDelta):
            bound.add(row.replay_group_id)
    return [Finding(check=CheckName.replay, code=ReasonCode.replay_pair_unbound, detail=group)
            for group in sorted(sides) if sides[group] != {"on", "off"} or group not in bound]


# -- 4. positive floor --------------------------------------------------------------------
def positive_floor(verdicts: list[RowVerdict] | tuple[RowVerdict, ...], state: LedgerState,
                   config: ValidatorConfig) -> list[Finding]:
    """Shortfalls against the positive floor (issue 7 check 4).

    Counts only rows that are ``accepted`` (not merely unverified), carry a ``trace_ref`` and
    are not declared falsification rows.

    Returns:
        One finding per shortfall: ``floor_decision_missing`` (detail: the decision),
        ``floor_conflict_edges_short``, ``floor_stale_downgrade_missing``,
        ``floor_prompt_adoption_missing`` (detail: ``found/required``).
    """
    floor = config.floor
    counted = [state.rows[v.id] for v in verdicts
               if v.status == "accepted" and v.negative_case is None
               and state.rows[v.id].trace_ref is not None]
    events = [r for r in counted if isinstance(r, MemoryEvent)]
    out: list[Finding] = []
    seen = {e.decision for e in events}
    for decision in floor.decisions:
        if decision not in seen:
            out.append(Finding(check=CheckName.positive_floor,
                               code=ReasonCode.floor_decision_missing, detail=decision))
    for code, found, need in (
            (ReasonCode.floor_conflict_edges_short,
             sum(e.conflict_edge_ref is not None for e in events), floor.conflict_edges),
            (ReasonCode.floor_stale_downgrade_missing,
             sum(e.downgrade_evidence_ref is not None for e in events), floor.stale_downgrades),
            (ReasonCode.floor_prompt_adoption_missing,
             sum(getattr(r, "prompt_adoption_ref", None) is not None for r in counted),
             floor.prompt_adoptions)):
        if found < need:
            out.append(Finding(check=CheckName.positive_floor, code=code,
                               detail=f"{found}/{need}"))
    return out


# -- 5. negative-case coverage ------------------------------------------------------------
def negative_coverage(verdicts: list[RowVerdict] | tuple[RowVerdict, ...],
                      config: ValidatorConfig) -> list[Finding]:
    """Declared falsification rows that were not rejected with their own code (issue 7
    check 5), and, when ``config.require_negative_cases``, cases without any row.

    Returns:
        ``negative_case_missed`` (detail: ``case@row id``) and ``negative_case_absent``
        (detail: the case) findings.
    """
    out: list[Finding] = []
    present: set[NegativeCase] = set()
    for v in verdicts:
        if v.negative_case is None:
            continue
        present.add(v.negative_case)
        expected = NEGATIVE_CASE_CODES[v.negative_case]
        if v.status != "quarantined" or v.code != expected:
            out.append(Finding(check=CheckName.negative_coverage,
                               code=ReasonCode.negative_case_missed,
                               detail=f"{v.negative_case.value}@{v.id}"))
    if config.require_negative_cases:
        for case in NegativeCase:
            if case not in present:
                out.append(Finding(check=CheckName.negative_coverage,
                                   code=ReasonCode.negative_case_absent, detail=case.value))
    return out
