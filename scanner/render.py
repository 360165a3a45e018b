"""Human-readable rendering of reports and histories with rich (terminal output only)."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.table import Table

from scanner.models import ScanReport

_VERDICT_STYLE = {"resolved": "green", "quarantined": "yellow", "epoch_change": "cyan",
                  "escalated": "magenta", "possible": "dim"}


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
            table.add_row(key, vals, f"[{style}]{c.verdict}[/{style}]", who, why)
        console.print(table)
        if len(report.conflicts) > limit:
            console.print(f"… {len(report.conflicts) - limit} more conflicts (use --json)")
    counts = Counter(c.verdict for c in report.conflicts)
    summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no conflicts"
    console.print(
        f"scanned {report.scanned} memories: {summary}; {len(report.duplicates)} duplicate "
        f"group(s); cite {len(report.cite)}, withhold {len(report.withhold)}, unresolved "
        f"{len(report.unresolved)}" + (f"; {len(report.rejected)} line(s) rejected"
                                       if report.rejected else ""))


def render_history(entries, memory_id: str, console: Console | None = None) -> None:
    """Print a supersedes chain, oldest observation first."""
    console = console or Console()
    table = Table(title=f"History of {memory_id}")
    for col in ("id", "observed_at", "epoch", "source (class)", "status", "values",
                "supersedes", "superseded by"):
        table.add_column(col, overflow="fold")
    for e in entries:
        status = e.status + (f" ({e.retired_rule})" if e.retired_rule else "")
        table.add_row(e.id, e.observed_at or "—", e.epoch or "—",
                      f"{e.source or '—'} ({e.source_class})", status, "\n".join(e.values),
                      ", ".join(e.supersedes), ", ".join(e.superseded_by))
    console.print(table)
