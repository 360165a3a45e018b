"""``contrascan demo``: the main job on bundled agent memories that change over weeks.

The memories (``scanner/data/PROVENANCE.md``): one user's stream written for the project
(:data:`ONE_USER_FILE`: work, money, health and settings over ten weeks) and twelve StateBench
timelines (:data:`STATEBENCH_FILE`, MIT, chosen by a fixed rule) with StateBench's own labels
of which memory updates which (:data:`STATEBENCH_LABELS`). They are imported into the store
(the embedded default unless ``--weaviate-url``), then four steps are shown and written to one
JSON report (:func:`run_demo`):

1. the batch scan after the bulk import: what was flagged, counted by verdict, an example of
   each kind, and how the StateBench timelines compare with their labels;
2. read-time scans before an answer: a question, the hits, what is withheld from the agent
   and why (:data:`QUESTIONS`);
3. what changed, and when: the history of the memory at the end of the longest chain of
   updates;
4. where the review page is, and how many items wait there.

The terminal output is :mod:`scanner.demo_output`.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import click
import platformdirs

from scanner.core.report import merge_reports
from scanner.defaults import DEFAULT_LIMIT
from scanner.models import Conflict, MemoryRecord, ScanReport
from scanner.records import read_jsonl

DEMO_FILE = "demo_memories.jsonl"
"""The CounterFact bundle: tests, benchmarks and ``contrascan source demo`` read it."""
ONE_USER_FILE = "demo_one_user.jsonl"
"""One user's memories over ten weeks, written for the project."""
STATEBENCH_FILE = "demo_statebench.jsonl"
"""Twelve StateBench timelines (``benchmarks/demo_timelines.py`` chose them)."""
STATEBENCH_LABELS = "demo_statebench_labels.jsonl"
"""StateBench's labelled updates of those timelines (``{"update", "target", "why"}``)."""
STREAM_USER = "maya"
"""The user of :data:`ONE_USER_FILE`."""
QUESTIONS: tuple[tuple[str, str], ...] = (
    (STREAM_USER, "When is my dentist appointment?"),
    (STREAM_USER, "What time is the team standup?"),
    (STREAM_USER, "How much is my grocery budget?"),
)
"""``(user, question)`` asked before an answer in step 2, written with :data:`ONE_USER_FILE`."""
REVIEW_PORT = 8765
"""``contrascan serve``'s default port, where the review page is served."""


def _data_path(name: str) -> Path:
    return Path(str(resources.files("scanner.data").joinpath(name)))


def demo_records_path() -> Path:
    """Path of the bundled CounterFact memories (:data:`DEMO_FILE`)."""
    return _data_path(DEMO_FILE)


def demo_sources() -> list[tuple[Path, str]]:
    """The files ``contrascan demo`` imports, with a few words on each."""
    return [(_data_path(ONE_USER_FILE), "one user over ten weeks, written for the project"),
            (_data_path(STATEBENCH_FILE), "12 StateBench timelines (MIT)")]


def read_demo_records() -> tuple[list[MemoryRecord], int]:
    """The demo's memories from every file of :func:`demo_sources`, and the lines rejected
    (0 for the bundled files)."""
    records, rejected = [], 0
    for path, _ in demo_sources():
        found, bad = read_jsonl(path)
        records.extend(found)
        rejected += len(bad)
    return records, rejected


def statebench_labels() -> list[dict[str, Any]]:
    """StateBench's labelled updates of the bundled timelines (:data:`STATEBENCH_LABELS`)."""
    text = _data_path(STATEBENCH_LABELS).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def default_report_path(data_dir: Path | None = None, weaviate_url: str | None = None) -> Path:
    """Where the demo writes its report when ``--out`` is not given.

    ``demo-report.json`` beside the embedded data directory (so two data directories keep
    two reports), or in the user's data directory when a ``--weaviate-url`` is used.
    """
    if weaviate_url:
        return Path(platformdirs.user_data_dir("contrascan", appauthor=False)) / \
            "demo-report.json"
    from scanner.store.server import default_data_dir

    return (data_dir or default_data_dir()).parent / "demo-report.json"


def verdict_counts(report: ScanReport) -> dict[str, int]:
    """Conflicts counted by ``verdict/rule``, sorted by name."""
    counts = Counter(f"{c.verdict}/{c.rule}" for c in report.conflicts)
    return dict(sorted(counts.items()))


def label_agreement(report: ScanReport, labels: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """How a report meets labelled updates, as ``../shared/tools/external_eval.py`` counts.

    Args:
        report: the scan report.
        labels: ``{"update": ID, "target": ID, "why": TRACK}`` each.

    Returns:
        ``{"updates", "resolved_for_update", "flagged_otherwise", "missed", "by_track"}``:
        a labelled update is *resolved for the update* when a ``resolved`` verdict on the pair
        names the update the winner, *flagged otherwise* when the pair is in any other
        verdict (``possible`` included), *missed* when no verdict holds the pair;
        ``by_track`` counts the three per StateBench track.
    """
    pairs: dict[frozenset[str], Conflict] = {}
    for c in report.conflicts:
        for i, a in enumerate(c.members):
            for b in c.members[i + 1:]:
                pairs[frozenset((a, b))] = c
    out: dict[str, Any] = {"updates": 0, "resolved_for_update": 0, "flagged_otherwise": 0,
                           "missed": 0, "by_track": {}}
    for label in labels:
        c = pairs.get(frozenset((label["update"], label["target"])))
        outcome = ("missed" if c is None else "resolved_for_update"
                   if (c.verdict, c.winner) == ("resolved", label["update"])
                   else "flagged_otherwise")
        out["updates"] += 1
        out[outcome] += 1
        track = out["by_track"].setdefault(label.get("why", ""), Counter())
        track[outcome] += 1
    out["by_track"] = {k: dict(v) for k, v in sorted(out["by_track"].items())}
    return out


def longest_chain(report: ScanReport, prefer_user: str = STREAM_USER) -> tuple[str, str] | None:
    """``(user, memory id)`` of the memory at the end of the longest chain of resolved
    updates (winner supersedes loser), the user ``prefer_user`` first among equals; None
    without a resolved verdict."""
    retired: dict[str, set[str]] = {}
    user_of: dict[str, str] = {}
    for c in report.conflicts:
        if c.verdict == "resolved" and c.winner:
            retired.setdefault(c.winner, set()).update(c.superseded)
            user_of[c.winner] = c.key.user_id

    def depth(mid: str, seen: frozenset[str] = frozenset()) -> int:
        return 1 + max((depth(m, seen | {mid}) for m in retired.get(mid, ())
                        if m not in seen), default=0)

    if not retired:
        return None
    best = max(sorted(retired), key=lambda m: (depth(m), user_of[m] == prefer_user))
    return user_of[best], best


def why_withheld(memory_id: str, reports: Sequence[ScanReport]) -> Conflict | None:
    """The verdict that retired ``memory_id``: the first resolved conflict of ``reports``
    (the read-time scan's, then the batch scan's) that lists it as superseded."""
    for report in reports:
        for c in report.conflicts:
            if memory_id in c.superseded:
                return c
    return None


def run_demo(*, out: Path | None, queries: int, weaviate_url: str | None,
             data_dir: Path | None, as_json: bool, open_service: Callable,
             progress: Callable) -> dict[str, Any]:
    """Run the demo: import, then the four steps (see the module docstring).

    Args:
        out: where the JSON report goes (default :func:`default_report_path`).
        queries: read-time scans to show (at most ``len(QUESTIONS)``).
        weaviate_url, data_dir: the store (the embedded default when both are None).
        as_json: print only a one-line JSON summary (no progress, no steps).
        open_service: ``(weaviate_url, data_dir, quiet=) -> context manager of a Service``.
        progress: ``(total, label, shown) -> context manager of an advance(n) callable``.

    Returns:
        The document written to ``out``: ``data``, ``import``, ``batch_scan`` (with
        ``by_verdict``, ``statebench_labels`` and the report), ``read_time_scans``,
        ``history``, ``review`` and ``stats``.

    Raises:
        WeaviateUnavailable: the store does not answer.
    """
    from scanner import demo_output as show
    from scanner.review.service import ReviewService

    say = show.Printer(quiet=as_json)
    records, rejected = read_demo_records()
    users = sorted({r.user_id for r in records}, key=lambda u: (u != STREAM_USER, u))
    out = out or default_report_path(data_dir, weaviate_url)
    started = time.perf_counter()
    with open_service(weaviate_url, data_dir, quiet=as_json) as service:
        say.data(demo_sources(), records)
        t0 = time.perf_counter()
        with progress(len(records), "importing", not as_json) as advance:
            imported = service.import_records(records, progress=advance)
        t_import = time.perf_counter() - t0
        t0 = time.perf_counter()
        with progress(len(records), "scanning", not as_json) as advance:
            batch = merge_reports([service.batch_scan(u, progress=advance) for u in users])
        t_scan = time.perf_counter() - t0
        labels = label_agreement(batch, statebench_labels())
        say.batch_step(imported, t_import, batch, t_scan, labels, users)

        by_id = {r.id: r for r in records}
        read_time = []
        for user_id, question in QUESTIONS[:queries]:
            scan = service.scan(user_id, question, limit=DEFAULT_LIMIT)
            withheld = {m: why_withheld(m, (scan.report, batch)) for m in scan.report.withhold}
            read_time.append({
                "user_id": user_id, "query": question,
                "hits": [{"id": h.record.id, "score": h.score, "text": h.record.text}
                         for h in scan.hits],
                "withheld": {m: {"superseded_by": c.winner, "rule": c.rule} if c else None
                             for m, c in withheld.items()},
                "report": scan.report.to_json_dict()})
            say.read_time_step(len(read_time), user_id, question, scan, withheld)

        chain_end = longest_chain(batch)
        history = None
        if chain_end is not None:
            history = service.history_report(chain_end[1], chain_end[0])
            say.history_step(history, by_id)

        reviews = ReviewService(service)
        waiting = {u: reviews.inbox(u).counts for u in users}
        waiting = {u: c for u, c in waiting.items() if c["total"]}
        review = {"url": f"http://127.0.0.1:{REVIEW_PORT}/review",
                  "command": show.serve_command(weaviate_url, data_dir),
                  "waiting": sum(c["total"] for c in waiting.values()),
                  "by_verdict": dict(sum((Counter(c["verdict"]) for c in waiting.values()),
                                         Counter())),
                  "by_user": {u: c["total"] for u, c in waiting.items()}}
        say.review_step(review, STREAM_USER)
        stats = service.stats()
    document = {
        "data": {"files": [str(p) for p, _ in demo_sources()], "memories": len(records),
                 "users": len(users), "rejected": rejected},
        "import": {"written": imported.written, "unchanged": imported.unchanged,
                   "failed": [list(f) for f in imported.failures], "seconds": t_import},
        "batch_scan": {"seconds": t_scan, "by_verdict": verdict_counts(batch),
                       "statebench_labels": labels, "report": batch.to_json_dict()},
        "read_time_scans": read_time,
        "history": history.to_json_dict() if history is not None else None,
        "review": review,
        "stats": stats.to_json_dict(),
        "seconds_total": time.perf_counter() - started,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
    if as_json:
        click.echo(json.dumps({"report_path": str(out), "by_verdict": verdict_counts(batch),
                               "scanned": batch.scanned, "review_waiting": review["waiting"],
                               "review_url": review["url"]}))
    else:
        say.line(f"\nThe whole JSON report: {out}")
    return document
