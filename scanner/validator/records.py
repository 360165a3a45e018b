"""The four records a validation run writes, all metadata only (issue 7).

* ``result.json`` — status, source, config, counts per decision and reason code, digests, and
  the paths written;
* ``board.json`` — one line per check: status, rows checked, quarantined, codes, rule source;
* ``validation.json`` — one verdict per row (line, id, kind, decision, status, code) plus the
  log-level findings and the malformed lines;
* ``signoff.json`` — the status with the sha256 of the three other records, which checks
  blocked, could not verify or were disabled, and what a pass does and does not cover.

None of them holds a memory body, a transcript or a replay answer: those never get past intake
(:mod:`scanner.validator.intake`), and the records are built from verdicts, counts and digests
only. Output is deterministic (no wall-clock time) so two runs over one log diff cleanly.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from scanner.validator.errors import OutputError
from scanner.validator.intake import sha256_hex
from scanner.validator.models import (
    DECISIONS,
    Counts,
    Digests,
    Finding,
    MalformedLine,
    MemoryEvent,
    ParsedRow,
    ReplayRow,
    RowVerdict,
    ValidationResult,
)

RECORD_FILES: dict[str, str] = {"result": "result.json", "board": "board.json",
                                "validation": "validation.json", "signoff": "signoff.json"}
"""Record name -> file name inside the output directory."""

SCHEMA = "contrascan.validate-log"
PASS_SCOPE = (
    "A pass covers this log only: every accepted row was re-derived from its own order, "
    "event time, priority, source trust, references and digests; every declared "
    "falsification row was rejected with its own code; and the positive floor was met. It "
    "is not a measure of how well any agent remembers, and a row that could not be verified "
    "is never counted as accepted."
)


def planned_paths(out_dir: str | Path) -> dict[str, str]:
    """Where the four records go: ``{"result": ".../result.json", ...}`` (absolute)."""
    base = Path(out_dir).resolve()
    return {name: str(base / file) for name, file in RECORD_FILES.items()}


def _status_counter() -> dict[str, int]:
    return {"accepted": 0, "quarantined": 0, "unverified": 0}


def count_rows(verdicts: Sequence[RowVerdict], findings: Sequence[Finding],
               malformed: Sequence[MalformedLine], lines: int) -> Counts:
    """Counts per status, per decision, per replay side, per reason code and per field that
    could not be verified.

    Args:
        verdicts: one per parsed row.
        findings: log-level findings (their ``count`` adds to the reason-code counts).
        malformed: lines that did not parse.
        lines: non-blank input lines (or rows given as objects).
    """
    by_status = _status_counter()
    decisions = {d: _status_counter() for d in DECISIONS}
    replay = {"on": _status_counter(), "off": _status_counter()}
    delta = _status_counter()
    codes: Counter[str] = Counter()
    fields: Counter[str] = Counter()
    for v in verdicts:
        by_status[v.status] += 1
        if v.decision is not None:
            decisions[v.decision][v.status] += 1
        elif v.memory is not None:
            replay[v.memory][v.status] += 1
        else:
            delta[v.status] += 1
        if v.code is not None:
            codes[v.code.value] += 1
        fields.update(v.unverifiable)
    for f in findings:
        codes[f.code.value] += f.count
    return Counts(lines=lines, rows=len(verdicts), malformed=len(malformed),
                  by_status=by_status, decisions=decisions, replay=replay, answer_delta=delta,
                  reason_codes=dict(sorted(codes.items())),
                  unverifiable_fields=dict(sorted(fields.items())))


def summarise_digests(rows: Sequence[ParsedRow], body_digests: Mapping[str, str] | None, *,
                      input_sha256: str, bodies_sha256: str | None) -> Digests:
    """How many row digests were checked against supplied bodies, matched, or left unchecked."""
    checked = matched = unchecked = 0
    for parsed in rows:
        row = parsed.row
        digest = (row.body_sha256 if isinstance(row, MemoryEvent)
                  else row.answer_sha256 if isinstance(row, ReplayRow) else None)
        if digest is None:
            continue
        if body_digests is not None and row.id in body_digests:
            checked += 1
            matched += body_digests[row.id] == digest
        else:
            unchecked += 1
    return Digests(input_sha256=input_sha256, bodies_sha256=bodies_sha256,
                   bodies_supplied=len(body_digests or {}), bodies_checked=checked,
                   bodies_matched=matched, digests_unchecked=unchecked)


def _dump(items: Sequence[Any]) -> list[dict[str, Any]]:
    return [i.model_dump(mode="json") for i in items]


def result_record(result: ValidationResult) -> dict[str, Any]:
    """The metadata-only result record."""
    return {
        "record": f"{SCHEMA}.result", "version": 1, "status": result.status,
        "source": result.source.model_dump(mode="json"),
        "config": result.config_dict(),
        "checks": {c.name.value: c.status for c in result.checks},
        "counts": result.counts.model_dump(mode="json"),
        "digests": result.digests.model_dump(mode="json"),
        "paths": dict(result.paths),
    }


def board_record(result: ValidationResult) -> dict[str, Any]:
    """The board: one line per check, in check order, and the log-level findings."""
    return {"record": f"{SCHEMA}.board", "version": 1, "status": result.status,
            "checks": _dump(result.checks), "findings": _dump(result.findings)}


def validation_record(result: ValidationResult) -> dict[str, Any]:
    """Per-row verdicts in log order, findings and malformed lines."""
    return {"record": f"{SCHEMA}.validation", "version": 1, "status": result.status,
            "rows": _dump(result.rows), "findings": _dump(result.findings),
            "malformed": _dump(result.malformed)}


def signoff_record(result: ValidationResult, written: Mapping[str, bytes]) -> dict[str, Any]:
    """The sign-off: status, the sha256 of each other record as written, and its scope."""
    by_status = {s: [c.name.value for c in result.checks if c.status == s]
                 for s in ("blocked", "unverified", "disabled")}
    return {
        "record": f"{SCHEMA}.signoff", "version": 1, "status": result.status,
        "signed": result.status == "pass",
        "blocked_checks": by_status["blocked"],
        "unverified_checks": by_status["unverified"],
        "disabled_checks": by_status["disabled"],
        "input_sha256": result.digests.input_sha256,
        "records": {name: {"path": result.paths[name], "sha256": sha256_hex(data)}
                    for name, data in written.items()},
        "scope": PASS_SCOPE,
    }


def _encode(record: Mapping[str, Any]) -> bytes:
    return (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_records(result: ValidationResult, out_dir: str | Path) -> dict[str, str]:
    """Write the four records into ``out_dir`` (created if needed; files are overwritten).

    Returns:
        ``result.paths``.

    Raises:
        OutputError: the directory cannot be created or a file cannot be written.
    """
    base = Path(out_dir)
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(str(base), err.strerror or str(err)) from err
    written = {"validation": _encode(validation_record(result)),
               "board": _encode(board_record(result)),
               "result": _encode(result_record(result))}
    written_all = dict(written, signoff=_encode(signoff_record(result, written)))
    for name, data in written_all.items():
        path = Path(result.paths[name])
        try:
            path.write_bytes(data)
        except OSError as err:
            raise OutputError(str(path), err.strerror or str(err)) from err
    return dict(result.paths)


def summary_lines(result: ValidationResult) -> list[str]:
    """A short human-readable summary of a run (what ``validate-log`` prints without --json).

    Metadata only, like the records: statuses, counts, codes and paths.
    """
    c = result.counts
    lines = [f"validate-log: {result.status} (input sha256 {result.digests.input_sha256[:16]}…)"]
    for check in result.checks:
        codes = ", ".join(f"{k} {v}" for k, v in check.codes.items())
        lines.append(f"  {check.order} {check.name.value:<20} {check.status:<10} "
                     f"{check.rows_checked:>4} checked {check.quarantined:>3} quarantined"
                     + (f"  {codes}" if codes else ""))
    lines.append(f"rows: {c.by_status['accepted']} accepted, {c.by_status['quarantined']} "
                 f"quarantined, {c.by_status['unverified']} unverified; "
                 f"malformed lines: {c.malformed}")
    decisions = ", ".join(f"{d} {n['accepted']}/{sum(n.values())}"
                          for d, n in c.decisions.items())
    lines.append(f"accepted/total by decision: {decisions}")
    for f in result.findings:
        lines.append(f"finding: {f.code.value} {f.detail}" + (f" ×{f.count}" if f.count > 1
                                                              else ""))
    if c.unverifiable_fields:
        lines.append("unverifiable: " + ", ".join(f"{k} ({v} rows)"
                                                  for k, v in c.unverifiable_fields.items()))
    if result.digests.bodies_supplied == 0 and result.digests.digests_unchecked:
        lines.append(f"digests: {result.digests.digests_unchecked} unchecked (no --bodies)")
    if result.paths:
        lines.append("records: " + ", ".join(result.paths[n] for n in RECORD_FILES))
    return lines
