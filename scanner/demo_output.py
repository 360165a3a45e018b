"""What ``contrascan demo`` prints: the four steps of :func:`scanner.demo.run_demo` in plain
lines that wrap at word boundaries at the terminal's width (80 columns when piped), and
tables drawn by :func:`scanner.render.word_wrapped_table`. Memory-derived text is escaped
(:func:`scanner.redaction.terminal_text`). Reads plain values only."""

from __future__ import annotations

import shlex
import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from scanner.models import Conflict, MemoryRecord, ScanReport
from scanner.redaction import terminal_text
from scanner.render import word_wrapped_table
from scanner.store.codec import STATUS_ACTIVE, STATUS_SUPERSEDED, STATUS_UNRESOLVED
from scanner.verdict_text import explain
from scanner.wording import counted

VERDICTS = ("resolved", "quarantined", "epoch_change", "escalated", "possible")
"""Verdicts in the order the steps list them."""
MEANING = {
    "resolved": "one memory is cited, the other withheld from the agent",
    "quarantined": "neither may be presented as settled; a re-observation is asked for",
    "epoch_change": "both kept; the later epoch's value is the latest, nobody wins",
    "escalated": "a person decides, a resolution is recommended",
    "possible": "for a person to look at; nothing is withheld",
}
"""What each verdict means for the agent (SPEC §3, §5)."""


def serve_command(weaviate_url: str | None, data_dir: Path | None) -> str:
    """The command that serves the review page over the store the demo used."""
    if weaviate_url:
        return f".venv/bin/contrascan serve --weaviate-url {shlex.quote(weaviate_url)}"
    if data_dir is not None:
        return f".venv/bin/contrascan serve --data-dir {shlex.quote(str(data_dir))}"
    return "make serve"


class Printer:
    """Prints the demo's steps; prints nothing when ``quiet`` (``--json``).

    Args:
        quiet: print nothing.
        console: where tables go and whose width lines wrap at (stdout by default).
    """

    def __init__(self, *, quiet: bool = False, console: Console | None = None):
        self.quiet = quiet
        self.console = console or Console()
        self.by_id: dict[str, MemoryRecord] = {}

    # -- plain lines ------------------------------------------------------------------------
    def line(self, text: str = "", indent: int = 0, hang: int = 2) -> None:
        """One paragraph, wrapped at word boundaries; continuation lines ``hang`` further."""
        if self.quiet:
            return
        lead = text[:len(text) - len(text.lstrip("\n"))]
        body = text[len(lead):]
        for _ in lead:
            click.echo("")
        if not body:
            click.echo("")
            return
        click.echo(textwrap.fill(body, width=max(self.console.width, 40),
                                 initial_indent=" " * indent,
                                 subsequent_indent=" " * (indent + hang),
                                 break_long_words=False, break_on_hyphens=False))

    def heading(self, text: str) -> None:
        """A step's title, after an empty line."""
        self.line("\n" + text)
        self.line("-" * min(len(text), max(self.console.width, 40)))

    def _memory(self, mid: str) -> str:
        r = self.by_id.get(mid)
        if r is None:
            return mid
        when = r.observed_at.strftime("%Y-%m-%d") if r.observed_at else "no time"
        return (f"{mid} “{terminal_text(r.text)}” ({terminal_text(r.source or 'no source')}, "
                f"{r.source_class.value}, {when})")

    # -- the data ---------------------------------------------------------------------------
    def data(self, sources: Sequence[tuple[Path, str]], records: Sequence[MemoryRecord]
             ) -> None:
        """What is imported."""
        self.by_id = {r.id: r for r in records}
        users = Counter(r.user_id for r in records)
        self.line(f"contrascan demo: {counted(len(records), 'memory')} of "
                  f"{counted(len(users), 'user')}, agent memories that change over weeks")
        for path, words in sources:
            self.line(f"{path.name}: {words}", indent=2)
        self.line("(sources and licences: scanner/data/PROVENANCE.md)", indent=2)

    # -- step 1 -----------------------------------------------------------------------------
    def batch_step(self, imported: Any, t_import: float, batch: ScanReport, t_scan: float,
                   labels: Mapping[str, Any], users: Sequence[str]) -> None:
        """Step 1: the import, the batch scan's verdicts, the labels, one example of each."""
        self.heading("Step 1. Batch scan after a bulk import")
        self.line(f"import: {imported.written} written, {imported.unchanged} already stored, "
                  f"{len(imported.failures)} failed ({t_import:.1f} s)", indent=2)
        self.line(f"batch scan of {counted(batch.scanned, 'memory')} of "
                  f"{counted(len(users), 'user')} ({t_scan:.1f} s): "
                  f"{counted(len(batch.conflicts), 'pair')} flagged", indent=2)
        by_verdict: dict[str, Counter] = {}
        for c in batch.conflicts:
            by_verdict.setdefault(c.verdict, Counter())[c.rule or c.verdict] += 1
        for verdict in VERDICTS:
            rules = by_verdict.get(verdict)
            if not rules:
                continue
            named = ", ".join(f"{rule} {n}" for rule, n in sorted(rules.items()))
            self.line(f"{verdict:<13}{sum(rules.values()):>4}  ({named}): {MEANING[verdict]}",
                      indent=4, hang=19)
        self.line(f"{counted(len(batch.duplicates), 'duplicate group')} (the same thing said "
                  "twice: never a conflict)", indent=4)
        self.line(f"for the agent: cite {len(batch.cite)}, withhold {len(batch.withhold)}, "
                  f"unresolved {len(batch.unresolved)}", indent=2)
        if labels.get("updates"):
            tracks = "; ".join(
                f"{track} {n.get('resolved_for_update', 0)} of {sum(n.values())}"
                for track, n in labels["by_track"].items())
            self.line(f"StateBench's own labels: {labels['updates']} updates in these "
                      f"timelines; {labels['resolved_for_update']} resolved for the update, "
                      f"{labels['flagged_otherwise']} flagged otherwise, {labels['missed']} "
                      f"not flagged (resolved for the update, by track: {tracks})", indent=2)
        self.line("one example of each verdict (every pair: the JSON report):", indent=2)
        for c in examples(batch, users[0] if users else ""):
            self.conflict(c)

    def conflict(self, c: Conflict) -> None:
        """One verdict: the key, each member with its part, the rule, the details."""
        key = terminal_text(f"{c.key.user_id} · {c.key.subject} · {c.key.relation}")
        self.line(f"{c.verdict} · {key}", indent=4)
        for mid in c.members:
            part = ("cited" if mid == c.winner else "withheld" if mid in c.superseded
                    else "latest" if mid == c.latest else "unresolved"
                    if c.verdict in ("quarantined", "epoch_change", "escalated") else "member")
            self.line(f"{part:<10} {self._memory(mid)}", indent=6, hang=11)
        told = explain(c)
        self.line(f"{'why':<10} {terminal_text(told.rule)}", indent=6, hang=11)
        for detail in told.details:
            self.line(f"{'detail':<10} {terminal_text(detail)}", indent=6, hang=11)
        if c.question:
            self.line(f"{'ask':<10} {terminal_text(c.question)}", indent=6, hang=11)

    # -- step 2 -----------------------------------------------------------------------------
    def read_time_step(self, n: int, user_id: str, question: str, scan: Any,
                       withheld: Mapping[str, Conflict | None]) -> None:
        """Step 2: one read-time scan: the question, the hits, what is withheld and why."""
        if n == 1:
            self.heading("Step 2. Read-time scan before an answer")
        report = scan.report
        self.line(f"\n{user_id} asks: “{terminal_text(question)}”", indent=2)
        self.line(f"(.venv/bin/contrascan scan --user {shlex.quote(user_id)} --query "
                  f"{shlex.quote(question)})", indent=4)
        use = {**{m: "cite" for m in report.cite}, **{m: "withhold" for m in report.withhold},
               **{m: "unresolved" for m in report.unresolved}}
        rows = [[str(i), h.record.id, use.get(h.record.id, "cite"), h.record.text]
                for i, h in enumerate(scan.hits, 1)]
        if not self.quiet:
            self.console.print(word_wrapped_table(None, ("#", "hit", "use", "text"), rows,
                                                  self.console))
        if not report.withhold:
            self.line("withheld from the agent: nothing", indent=2)
        for mid, c in withheld.items():
            self.line(f"withheld from the agent: {self._memory(mid)}", indent=2, hang=4)
            if c is not None:
                self.line(f"superseded by {self._memory(c.winner or '?')}", indent=4, hang=2)
                self.line(f"why: {terminal_text(explain(c).rule)}", indent=4, hang=2)
        if report.unresolved:
            self.line("not to be presented as settled: " + ", ".join(report.unresolved),
                      indent=2, hang=4)

    # -- step 3 -----------------------------------------------------------------------------
    def history_step(self, history: Any, by_id: Mapping[str, MemoryRecord]) -> None:
        """Step 3: what changed around one memory, and when."""
        self.heading("Step 3. What changed, and when")
        self.line(f"(.venv/bin/contrascan history {shlex.quote(history.memory_id)} --user "
                  f"{shlex.quote(history.user_id)})", indent=2)
        for e in history.chain:
            when = (e.observed_at or "time unknown")[:16].replace("T", " ")
            fate = e.status
            if e.status == STATUS_SUPERSEDED:
                fate = f"withheld since {e.retired_by or ', '.join(e.superseded_by)} " \
                       f"(rule {e.retired_rule or '?'})"
            elif e.status == STATUS_ACTIVE:
                fate = "cited as current"
            elif e.status == STATUS_UNRESOLVED:
                fate = "unresolved: not to be presented as settled"
            source = terminal_text(e.source or "no source")
            self.line(f"{when}  {e.id}  “{terminal_text(e.text)}” ({source}, "
                      f"{e.source_class}): {fate}", indent=2, hang=19)
        ledger = history.story[len(history.chain):]
        if ledger:
            self.line("the ledger:", indent=2)
        for entry in ledger:
            self.line(terminal_text(entry), indent=4, hang=2)

    # -- step 4 -----------------------------------------------------------------------------
    def review_step(self, review: Mapping[str, Any], user_id: str) -> None:
        """Step 4: where the review page is and how much waits there."""
        self.heading("Step 4. The review page")
        kinds = ", ".join(f"{v} {n}" for v, n in sorted(review["by_verdict"].items()))
        self.line(f"{counted(review['waiting'], 'item')} of these users wait for review"
                  + (f" ({kinds})" if kinds else "") + ": pairs nobody may settle without a "
                  "person or a new observation", indent=2)
        self.line(f"to review them: run `{review['command']}` (it serves until Ctrl-C), open "
                  f"{review['url']}?user_id={user_id} and log in with a reviewer name; each "
                  "item offers 'this one is current', 'both are true' and 'dismiss'",
                  indent=2)


def examples(report: ScanReport, first_user: str) -> list[Conflict]:
    """One conflict per verdict and rule, ``first_user``'s first, then by user, key and
    members; and the first resolved conflict of another user, when ``first_user``'s cover
    every kind."""
    order = sorted(report.conflicts, key=lambda c: (c.key.user_id != first_user,
                                                    c.key.user_id, c.members))
    picked: dict[tuple[str, str | None], Conflict] = {}
    for c in order:
        picked.setdefault((c.verdict, c.rule), c)
    rank = {v: i for i, v in enumerate(VERDICTS)}
    shown = sorted(picked.values(), key=lambda c: (rank.get(c.verdict, 9), c.rule or ""))
    other = next((c for c in order if c.key.user_id != first_user
                  and c.verdict == "resolved"), None)
    if other is not None and other not in shown:
        shown.append(other)
    return shown
