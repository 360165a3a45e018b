"""Human-readable rendering of reports and histories with rich (terminal output only)."""

from __future__ import annotations

from collections import Counter

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from scanner.models import ScanReport
from scanner.redaction import terminal_text
from scanner.verdict_text import explain
from scanner.wording import counted

_VERDICT_STYLE = {"resolved": "green", "quarantined": "yellow", "epoch_change": "cyan",
                  "escalated": "magenta", "possible": "dim"}


def _cell(text: str) -> Text:
    """Memory-derived text as a table cell: control sequences escaped, no rich markup read."""
    return Text(terminal_text(text))


def column_widths(columns: Sequence[Sequence[str]], available: int) -> list[int]:
    """Widths, in terminal cells, that let every column wrap at word boundaries.

    rich shrinks the widest columns of a table that does not fit to equal widths, whatever the
    longest word of each, and a ``fold`` column then cuts words in the middle ("judge:restatem"
    / "ent"). Here each column gets at least its longest word, and what is left is shared in
    proportion to how much more each column would take on one line.

    Args:
        columns: the plain text of each column's cells (the header first), column by column.
        available: cells for the content of all columns (the console width less borders and
            padding: 3 per column and 1).

    Returns:
        One width per column. When even the longest words do not fit side by side, the
        columns holding the longest of them are narrowed until they do, and only those words
        fold.
    """
    words = [max((cell_len(w) for text in col for w in text.split()), default=1)
             for col in columns]
    lines = [max((cell_len(line) for text in col for line in text.splitlines()), default=1)
             for col in columns]
    lines = [max(a, b) for a, b in zip(lines, words)]
    if sum(lines) <= available:
        return lines
    while sum(words) > available and max(words) > 1:
        # the columns of the longest words give way first; only theirs fold
        top = max(words)
        words = [w - 1 if w == top else w for w in words]
    spare, wants = available - sum(words), [max(0, b - a) for a, b in zip(words, lines)]
    if spare <= 0 or not sum(wants):
        return words
    extra = [spare * want // sum(wants) for want in wants]
    return [w + e for w, e in zip(words, extra)]


def word_wrapped_table(title: str | Text | None, headers: Sequence[str],
                       rows: Sequence[Sequence[str]], console: Console, *,
                       styles: Sequence[str] | None = None, styled_column: int = 0) -> Table:
    """A table whose cells wrap at word boundaries at the console's width
    (:func:`column_widths`).

    Args:
        title: the caption.
        headers: column names.
        rows: plain text per cell (memory-derived text is escaped here).
        console: the console it will be printed on (its width is read).
        styles: a rich style per row ("" for none), given to its cell in ``styled_column``.
    """
    available = console.width - 3 * len(headers) - 1
    widths = column_widths([[h, *(r[i] for r in rows)] for i, h in enumerate(headers)],
                           available)
    table = Table(title=title)
    for header, width in zip(headers, widths):
        table.add_column(header, width=width, overflow="fold")
    for i, row in enumerate(rows):
        cells = [_cell(c) for c in row]
        if styles and styles[i]:
            cells[styled_column].stylize(styles[i])
        table.add_row(*cells)
    return table


CONFLICT_HEADERS = ("key", "members: values", "verdict", "rule: why (details)")
"""The columns of the conflicts table (:func:`conflict_rows`)."""


def conflict_rows(report: ScanReport, limit: int = 50) -> tuple[list[list[str]], list[str]]:
    """The rows of the conflicts table (:data:`CONFLICT_HEADERS`: the key, the members with
    their values, the verdict with its winner or latest member, the rule that decided and why,
    then its details) and a style per row."""
    rows, styles = [], []
    for c in report.conflicts[:limit]:
        told = explain(c)
        who = (f"winner {c.winner}" if c.winner else f"latest {c.latest}" if c.latest
               else "")
        rows.append([f"{c.key.user_id} · {c.key.subject} · {c.key.relation}",
                     "\n".join(f"{m}: {c.values.get(m, '')}" for m in c.members),
                     "\n".join(filter(None, (c.verdict, who))),
                     "\n".join([told.rule, *told.details])])
        styles.append(_VERDICT_STYLE.get(c.verdict, ""))
    return rows, styles


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
        rows, styles = conflict_rows(report, limit)
        console.print(word_wrapped_table(
            Text(f"Conflicts — {terminal_text(title)}"),
            CONFLICT_HEADERS, rows, console, styles=styles, styled_column=2))
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
    rows = []
    for e in entries:
        status = e.status + (f" ({e.retired_rule})" if e.retired_rule else "")
        by = getattr(e, "retired_by", None) or ", ".join(e.superseded_by)
        if by:
            status += f" by {by}"
        if e.supersedes:
            status += "; supersedes " + ", ".join(e.supersedes)
        when = (e.observed_at or "—")[:19].replace("T", " ")
        rows.append([e.id, when, f"{e.source or '—'} ({e.source_class}), epoch {e.epoch or '—'}",
                     status, "\n".join(e.values)])
    console.print(word_wrapped_table(
        Text(f"History of {terminal_text(memory_id)}"),
        ("id", "observed (UTC)", "source (class), epoch", "status", "values"), rows, console))
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
