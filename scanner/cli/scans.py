"""Scanning commands: ``scan-file`` (a JSONL file, no store), ``scan`` (a scoped query of
stored memories) and ``batch-scan`` (every stored memory of one or all users).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from scanner.cli.base import (
    FiniteFloatRange,
    EXIT_CONFLICTS,
    _UserMistake,
    _engine,
    _errors_to_exit,
    _json_option,
    _open_service,
    _phases,
    _policy_options,
    _progress,
    _store_options,
    emit_report,
    main,
)
from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT


BATCH_THREADS = 2
"""Most torch threads a ``scan-file`` run takes by default: the two cores of the reference
machine (docs/benchmarks.md#pair-judge: the judge's share of a 29,053-memory scan falls from
~60 s to ~35 s); a server or an import keeps one (:func:`scanner.embeddings.compute_threads`)."""


@main.command("scan-file")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_json_option
@_policy_options
@_errors_to_exit
def scan_file(file: Path, as_json: bool, fail_on_conflict: bool, single_epoch: bool,
              recency_override: bool) -> None:
    """Scan a JSON Lines file of memories without any store.

    Use it on an export, or on a bulk import before it lands. On a terminal, progress on
    stderr (extracting, then deciding); none with --json.

    \b
    Example:
      contrascan scan-file memories.jsonl --json --fail-on-conflict
    """
    from scanner.records import IgnoredFields

    ignored = IgnoredFields()
    engine = _engine(single_epoch, recency_override)
    if hasattr(engine.config.judge, "threads") and not os.environ.get("OMP_NUM_THREADS"):
        # a file scan runs beside no store: the pair judge's forward passes may use the
        # machine's cores (two here), unless OMP_NUM_THREADS says otherwise
        engine.config.judge.threads = min(BATCH_THREADS, os.cpu_count() or 1)
    with _phases(not as_json) as phases:
        report = engine.scan_file(file, ignored=ignored, phases=phases)
    if report.scanned == 0 and not report.rejected:
        click.echo(f"contrascan: {file} holds no memory records (it is empty or blank)",
                   err=True)
    emit_report(report, as_json=as_json, fail_on_conflict=fail_on_conflict, title=str(file),
                ignored=ignored)


def _parse_properties(values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in values:
        if "=" not in item:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--property")
        key, value = item.split("=", 1)
        out[key] = value
    return out


@main.command("scan")
@click.option("--user", "user_id", required=True, help="The scope's user (one tenant).")
@click.option("--query", required=True, help="What the agent is about to answer.")
@click.option("--group", default=None, help="Only memories of this group.")
@click.option("--property", "props", multiple=True, metavar="KEY=VALUE",
              help="Only memories with this scope property (repeatable).")
@click.option("--limit", default=DEFAULT_LIMIT, show_default=True, type=click.IntRange(1, 1000),
              help="Hits to scan.")
@click.option("--alpha", default=DEFAULT_ALPHA, show_default=True, type=FiniteFloatRange(0, 1),
              help="Hybrid weight: 0 = BM25 only, 1 = vector only.")
@_store_options
@_json_option
@_policy_options
@_errors_to_exit
def scan_cmd(user_id: str, query: str, group: str | None, props: tuple[str, ...], limit: int,
             alpha: float, weaviate_url: str | None, data_dir: Path | None, as_json: bool,
             fail_on_conflict: bool, single_epoch: bool, recency_override: bool) -> None:
    """Read-time scan: scoped hybrid search, then flag hits that cannot both be true.

    \b
    Example:
      contrascan scan --user potter-1 --query "preferred glaze" --property rack_id=rack-4
    """
    properties = _parse_properties(props)
    with _open_service(weaviate_url, data_dir, quiet=as_json, single_epoch=single_epoch,
                       recency_override=recency_override) as service:
        result = service.scan(user_id, query, group=group, properties=properties,
                              limit=limit, alpha=alpha)
    emit_report(result.report, as_json=as_json, fail_on_conflict=fail_on_conflict,
                title=f"{user_id}: {query!r}")


@main.command("batch-scan")
@click.option("--user", "user_id", default=None, help="Only this user (default: every user).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Tenants scanned at once (one worker per tenant).")
@click.option("--summary", is_flag=True,
              help="Print counts per tenant instead of the full report (memory bounded by one "
                   "tenant's keys; a tenant unchanged since its last scan is only checked).")
@click.option("--full", is_flag=True,
              help="With --summary: decide every tenant again, even one unchanged since its "
                   "last scan.")
@_store_options
@_json_option
@_policy_options
@_errors_to_exit
def batch_scan_cmd(user_id: str | None, workers: int, summary: bool, full: bool,
                   weaviate_url: str | None, data_dir: Path | None, as_json: bool,
                   fail_on_conflict: bool, single_epoch: bool, recency_override: bool) -> None:
    """Scan every stored memory (after a bulk import) and record the verdicts.

    Each tenant is streamed once with the cursor API; verdicts go to the memories
    (supersedes edges, status) and to the ledger, in batches. Re-running changes nothing.

    The full report (SPEC §5) lists every memory id. With --summary only counts are kept:
    per tenant, memories scanned, conflicts by verdict and what was written. A tenant found
    exactly as the last complete scan of it left it (same memories, statuses, ledger,
    configuration and code) is then reported from that scan's counts without deciding
    again ("unchanged"); --full decides it anyway.

    \b
    Example:
      contrascan batch-scan --user potter-1 --json
      contrascan batch-scan --workers 4
      contrascan batch-scan --summary --json
    """
    if full and not summary:
        raise _UserMistake("--full applies to --summary (the full report always decides)")
    with _open_service(weaviate_url, data_dir, quiet=as_json, single_epoch=single_epoch,
                       recency_override=recency_override) as service:
        total = service.store.count(user_id)
        if user_id is not None and total == 0:
            click.echo(f"contrascan: no memories stored for user {user_id!r}", err=True)
        with _progress(total, "scanning", not as_json) as advance:
            if summary:
                result = service.run_batch_scan(user_id, progress=advance, workers=workers,
                                                full=full)
            else:
                report = service.batch_scan(user_id, progress=advance, workers=workers)
    if not summary:
        emit_report(report, as_json=as_json, fail_on_conflict=fail_on_conflict,
                    title="batch scan")
        return
    emit_batch_summary(result, as_json=as_json)
    if fail_on_conflict and any(n for t in result.tenants
                                for verdict, n in t.by_verdict.items() if verdict != "possible"):
        sys.exit(EXIT_CONFLICTS)


def emit_batch_summary(result: Any, *, as_json: bool) -> None:
    """Print a summary batch scan (:class:`scanner.service.BatchScanResult`): JSON
    ``{"scanned", "seconds", "tenants": [{"user_id", "scanned", "conflicts", "by_verdict",
    "unchanged_since_checkpoint", "edges_added", "statuses_changed", "ledger_written",
    "seconds"}]}`` or a table."""
    rows = [{"user_id": t.user_id, "scanned": t.scanned, "conflicts": t.conflicts,
             "by_verdict": dict(sorted(t.by_verdict.items())),
             "unchanged_since_checkpoint": t.unchanged_since_checkpoint,
             "edges_added": t.applied.edges_added,
             "statuses_changed": t.applied.statuses_changed,
             "ledger_written": t.ledger.written + t.ledger.replaced,
             "seconds": round(t.seconds, 3)} for t in result.tenants]
    if as_json:
        click.echo(json.dumps({"scanned": result.scanned, "seconds": round(result.seconds, 3),
                               "tenants": rows}, indent=2, ensure_ascii=False))
        return
    from scanner.render import render_batch_summary
    render_batch_summary(rows, scanned=result.scanned, seconds=result.seconds)
