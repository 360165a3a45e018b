"""Human-readable rendering of reports and histories with rich (terminal output only)."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.table import Table
from rich.text import Text

from scanner.models import ScanReport
from scanner.redaction import terminal_text
from scanner.wording import counted

_VERDICT_STYLE = {"resolved": "green", "quarantined": "yellow", "epoch_change": "cyan",
                  "escalated": "magenta", "possible": "dim"}


def _cell(text: str) -> Text:
    """Memory-derived text as a table cell: control sequences escaped, no rich markup read."""
    return Text(terminal_text(text))


def render_report(report: ScanReport, *, title: str = "scan",
                  console: Console | None = None, limit: int = 50) -> None:
    """Print a conflicts table and a summary line.

    Args:
        report: the scan report.
        title: table caption.
        console: where to print (stdout by default).
        limit: most conflict rows shown; the summary always counts all.
    """
    console = console or Console()
    if report.conflicts:
        table = Table(title=f"Conflicts — {title}", show_lines=False)
        for col in ("key", "members: values", "verdict", "winner/latest", "rule / reasons"):
            table.add_column(col, overflow="fold")
        for c in report.conflicts[:limit]:
            key = f"{c.key.user_id} · {c.key.subject} · {c.key.relation}"
            vals = "\n".join(f"{m}: {c.values.get(m, '')}" for m in c.members)
            style = _VERDICT_STYLE.get(c.verdict, "")
            who = c.winner or (f"latest {c.latest}" if c.latest else "—")
            why = c.rule or ""
            if c.reasons:
                why += "\n" + "\n".join(c.reasons)
            table.add_row(_cell(key), _cell(vals), f"[{style}]{c.verdict}[/{style}]",
                          _cell(who), _cell(why))
        console.print(table)
        if len(report.conflicts) > limit:
            console.print(f"… {counted(len(report.conflicts) - limit, 'more conflict')} "
                          "(use --json)")
    counts = Counter(c.verdict for c in report.conflicts)
    summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no conflicts"
    console.print(
        f"scanned {counted(report.scanned, 'memory')}: {summary}; "
        f"{counted(len(report.duplicates), 'duplicate group')}; cite {len(report.cite)}, "
        f"withhold {len(report.withhold)}, unresolved {len(report.unresolved)}"
        + (f"; {counted(len(report.rejected), 'line')} rejected" if report.rejected else ""),
        soft_wrap=True)  # one line at any width, for a reader's grep
    for line in declared_lines(report.declared):
        console.print(_cell(line), soft_wrap=True)


_DECLARED_MEANING = {
    "declared:single_epoch": "every memory without an epoch is taken to be in one epoch",
    "declared:source=": "a memory that names no source is taken to come from {}",
    "declared:observed_at=": "a memory without an observation time is taken to be observed "
                             "when its {} says",
    "declared:epoch_property=": "the epoch is read from the memory's property {}",
}


def declared_lines(declared) -> list[str]:
    """One line per declaration of the store (``report.declared``), saying what it assumes:
    ``assumed (declared:single_epoch): every memory without an epoch is taken to be in one
    epoch``; empty when nothing is declared."""
    lines = []
    for d in declared:
        meaning = next((text.format(d[len(prefix):]) for prefix, text in
                        _DECLARED_MEANING.items() if d == prefix or
                        (prefix.endswith("=") and d.startswith(prefix))), None)
        lines.append(f"assumed ({d})" + (f": {meaning}" if meaning else ""))
    return lines


def render_history(entries, memory_id: str, console: Console | None = None, *,
                   story: list[str] | None = None) -> None:
    """Print a chain of memories, oldest observation first, then the ledger's story.

    Args:
        entries: :class:`scanner.service.HistoryEntry` items.
        memory_id: the memory asked about (table title).
        console: where to print (stdout by default).
        story: narrated ledger lines (:attr:`scanner.service.History.story`).
    """
    console = console or Console()
    table = Table(title=Text(f"History of {terminal_text(memory_id)}"))
    for col in ("id", "observed_at", "epoch", "source (class)", "status", "values",
                "supersedes", "superseded by"):
        table.add_column(col, overflow="fold")
    for e in entries:
        status = e.status + (f" ({e.retired_rule})" if e.retired_rule else "")
        if getattr(e, "retired_by", None):
            status += f" by {e.retired_by}"
        table.add_row(*(_cell(cell) for cell in (
            e.id, e.observed_at or "—", e.epoch or "—", f"{e.source or '—'} ({e.source_class})",
            status, "\n".join(e.values), ", ".join(e.supersedes), ", ".join(e.superseded_by))))
    console.print(table)
    if story:
        console.print("[bold]What happened[/bold]")
        for line in story:
            console.print("  " + terminal_text(line), markup=False, highlight=False,
                          soft_wrap=True)


def render_stats(stats, console: Console | None = None) -> None:
    """Print :class:`scanner.core.ledger.Stats`: pairs by verdict, rule and relation, imports and
    the read-time conflict share."""
    console = console or Console()
    console.print(f"users {len(stats.users)}; conflicting pairs {stats.conflicts} (open "
                  f"{stats.open}, settled by re-observation {stats.settled})", soft_wrap=True)
    for title, counts in (("verdict", stats.by_verdict), ("rule", stats.by_rule),
                          ("relation", stats.by_relation)):
        if not counts:
            continue
        table = Table(title=f"Pairs by {title}")
        table.add_column(title)
        table.add_column("pairs", justify="right")
        for name, n in list(counts.items())[:25]:
            table.add_row(name, str(n))
        if len(counts) > 25:
            table.add_row(f"… {len(counts) - 25} more", str(sum(list(counts.values())[25:])))
        console.print(table)
    if stats.imports:
        table = Table(title="Conflict rate per import (pairs introduced / memories)")
        for col in ("user", "imported at", "memories", "pairs", "rate"):
            table.add_column(col, justify="right" if col in ("memories", "pairs", "rate")
                             else "left")
        for i in stats.imports[-25:]:
            table.add_row(i.user_id, i.imported_at, str(i.memories), str(i.conflicts),
                          f"{i.rate:.3f}")
        console.print(table)
    share = stats.read_scan_conflict_share
    console.print(f"read-time scans {stats.read_scans}; with incompatible values for one key "
                  f"{stats.read_scans_with_conflict}"
                  + (f" ({share:.1%})" if share is not None else ""), soft_wrap=True)


def render_batch_summary(rows: list[dict], *, scanned: int, seconds: float) -> None:
    """One line per tenant of a summary batch scan (rows as ``contrascan batch-scan --summary
    --json`` prints them); state "unchanged": found as its last complete scan left it."""
    table = Table(title=f"batch scan: {counted(scanned, 'memory')} in "
                        f"{counted(len(rows), 'tenant')}, {seconds:.1f} s")
    for column in ("user", "scanned", "conflicts by verdict", "written", "state"):
        table.add_column(column)
    for r in rows:
        verdicts = ", ".join(f"{v} {n}" for v, n in r["by_verdict"].items()) or "none"
        written = (f"{counted(r['ledger_written'], 'entry')}, "
                   f"{counted(r['edges_added'], 'edge')}, "
                   f"{counted(r['statuses_changed'], 'status')}")
        table.add_row(r["user_id"], str(r["scanned"]), verdicts, written,
                      "unchanged" if r["unchanged_since_checkpoint"]
                      else "decided")
    Console().print(table)
