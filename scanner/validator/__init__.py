"""Temporal-conflict replay validator: audit a memory writer's ADD/UPDATE/DELETE/NOOP log
without trusting its labels (issue 7; intent from seed 002).

A row may say UPDATE and carry a tidy conflict edge and still be a stale row wearing the
costume of a valid supersession. So every supersession is re-derived from fields the validator
can check itself — log order, event time, priority, source trust, references and digests — and
a row that fails is quarantined and dropped from the accepted counts. Replays with memory on and
off must earn memory credit through logged evidence, never through the final wording alone.

Entry point: :func:`validate_log`. The input format is in :mod:`scanner.validator.models` and
``docs/validator.md``; the checks in :mod:`scanner.validator.checks`; adapters for Mem0's
history table and contrascan's own verdicts in :mod:`scanner.validator.adapters`; the bundled
fixture in :mod:`scanner.validator.fixture`. Nothing a run outputs holds a memory body,
transcript or answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from scanner.validator.adapters import (
    AdaptedLog,
    from_contrascan,
    from_mem0_history,
    read_contrascan,
)
from scanner.validator.errors import LogInputError, OutputError, ValidatorError
from scanner.validator.intake import read_bodies, read_log, read_rows
from scanner.validator.models import (
    NEGATIVE_CASE_CODES,
    CheckName,
    NegativeCase,
    PositiveFloor,
    ReasonCode,
    SourceInfo,
    ValidationResult,
    ValidatorConfig,
)
from scanner.validator.records import (
    count_rows,
    planned_paths,
    summarise_digests,
    write_records,
)
from scanner.validator.walk import run_checks

__all__ = [
    "NEGATIVE_CASE_CODES", "AdaptedLog", "CheckName", "LogInputError", "NegativeCase",
    "OutputError", "PositiveFloor", "ReasonCode", "ValidationResult", "ValidatorConfig",
    "ValidatorError", "from_contrascan", "from_mem0_history", "read_contrascan", "validate_log",
]


def validate_log(path_or_rows: str | Path | AdaptedLog | Iterable[Mapping[str, Any]], *,
                 out_dir: str | Path | None = None, config: ValidatorConfig | None = None,
                 bodies: str | Path | Mapping[str, str] | None = None) -> ValidationResult:
    """Validate a memory log and, given ``out_dir``, write its four metadata-only records.

    Args:
        path_or_rows: a JSON Lines log file; rows as objects (row ``i`` is reported as line
            ``i + 1``); or an :class:`AdaptedLog` from an adapter.
        out_dir: directory for ``result.json``, ``board.json``, ``validation.json`` and
            ``signoff.json`` (created if needed); ``None`` writes nothing.
        config: trust floor, positive floor, negative-case requirement, disabled checks
            (defaults: floor 0.6 as in issue 7, every check on, negative cases not required).
        bodies: the bodies behind the digests — a JSON Lines file of
            ``{"ref": "<row id>", "body": "<text>"}`` or a mapping ``row id -> text`` — to
            check ``body_sha256`` (memory events) and ``answer_sha256`` (replay rows). They are
            hashed on reading and never kept or written. Without them digests are reported
            unchecked.

    Returns:
        The result: ``status`` is ``pass``, ``blocked`` (a check blocked) or ``unverified``
        (nothing blocked, but some row could not be verified for lack of a field).

    Raises:
        LogInputError: the log or bodies file is missing or unreadable as a whole (bad lines
            are reported in the result, never raised).
        OutputError: ``out_dir`` cannot be written.
    """
    config = config or ValidatorConfig()
    if isinstance(path_or_rows, AdaptedLog):
        rows, malformed, lines, _ = read_rows(path_or_rows.rows)
        malformed = list(path_or_rows.malformed) + malformed
        source = SourceInfo(format=path_or_rows.format, name=path_or_rows.name,
                            input_sha256=path_or_rows.source_sha256,
                            unverifiable_fields=path_or_rows.unverifiable_fields)
    elif isinstance(path_or_rows, (str, Path)):
        rows, malformed, lines, digest = read_log(path_or_rows)
        source = SourceInfo(format="jsonl", name=str(path_or_rows), input_sha256=digest)
    else:
        rows, malformed, lines, digest = read_rows(path_or_rows)
        source = SourceInfo(format="rows", input_sha256=digest)

    body_digests: dict[str, str] | None = None
    bodies_sha256: str | None = None
    if bodies is not None:
        body_digests, bad_bodies, bodies_sha256 = read_bodies(bodies)
        malformed = malformed + bad_bodies

    run = run_checks(rows, config, malformed=malformed, body_digests=body_digests)
    result = ValidationResult(
        status=run.status, source=source, config=config, checks=run.checks, rows=run.verdicts,
        findings=run.findings, malformed=tuple(malformed),
        counts=count_rows(run.verdicts, run.findings, malformed, lines),
        digests=summarise_digests(rows, body_digests, input_sha256=source.input_sha256,
                                  bodies_sha256=bodies_sha256),
        paths=planned_paths(out_dir) if out_dir is not None else {})
    if out_dir is not None:
        write_records(result, out_dir)
    return result
