"""``contrascan demo``: the main job on bundled real data.

Imports the CounterFact demo memories (see ``scanner/data/PROVENANCE.md``) into the store
(the embedded default unless ``--weaviate-url``), runs a batch scan that records verdicts,
then a few read-time scans as an agent would before answering, prints a summary by verdict and
writes the whole JSON report to a path it names.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import click
import platformdirs

from scanner.defaults import DEFAULT_LIMIT
from scanner.models import ScanReport
from scanner.records import read_jsonl

DEMO_FILE = "demo_memories.jsonl"


def demo_records_path() -> Path:
    """Path of the bundled demo memories."""
    return Path(str(resources.files("scanner.data").joinpath(DEMO_FILE)))


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


def run_demo(*, out: Path | None, queries: int, weaviate_url: str | None,
             data_dir: Path | None, as_json: bool, open_service: Callable,
             progress: Callable) -> dict[str, Any]:
    """Run the demo; returns the document written to ``out``."""
    say = (lambda *a, **k: None) if as_json else click.echo
    records, rejected = read_jsonl(demo_records_path())
    out = out or default_report_path(data_dir, weaviate_url)
    started = time.perf_counter()
    with open_service(weaviate_url, data_dir, quiet=as_json) as service:
        say(f"importing {len(records)} memories of {len({r.user_id for r in records})} users "
            f"from {demo_records_path().name} (CounterFact)")
        t0 = time.perf_counter()
        with progress(len(records), "importing", not as_json) as advance:
            imported = service.import_records(records, progress=advance)
        t_import = time.perf_counter() - t0
        say(f"  written {imported.written}, already stored {imported.unchanged}, "
            f"failed {len(imported.failures)} ({t_import:.1f} s)")
        t0 = time.perf_counter()
        with progress(len(records), "scanning", not as_json) as advance:
            batch = service.batch_scan(progress=advance)
        t_scan = time.perf_counter() - t0
        say(f"batch scan of {batch.scanned} memories ({t_scan:.1f} s): "
            f"{len(batch.conflicts)} conflicting pairs, {len(batch.duplicates)} duplicate "
            f"groups")
        read_time = []
        picks: dict[str, Any] = {}
        for c in batch.conflicts:
            picks.setdefault(c.verdict, c)
        by_id = {r.id: r for r in records}
        for conflict in list(picks.values())[:queries]:
            first = by_id[conflict.members[0]]
            query = first.text.rstrip(".")
            scan = service.scan(first.user_id, query, group=first.group, limit=DEFAULT_LIMIT)
            read_time.append({"user_id": first.user_id, "query": query,
                              "hits": [{"id": h.record.id, "score": h.score, "text": h.record.text}
                                       for h in scan.hits],
                              "report": scan.report.to_json_dict()})
            if not as_json:
                from scanner.render import render_report
                say(f"\nread-time scan for {first.user_id}: {query!r}")
                render_report(scan.report, title=query)
        explained = None
        change = next((c for c in batch.conflicts if c.verdict == "epoch_change"), None)
        if change is not None:  # what the ledger says about a value that changed epochs
            explained = service.history_report(change.members[0], change.key.user_id)
            say(f"\nhistory of {change.members[0]} (contrascan history {change.members[0]} "
                f"--user {change.key.user_id}):")
            for line in explained.story:
                say(f"  {line}")
        stats = service.stats()
    document = {
        "data": {"file": str(demo_records_path()), "memories": len(records),
                 "rejected": len(rejected)},
        "import": {"written": imported.written, "unchanged": imported.unchanged,
                   "failed": [list(f) for f in imported.failures], "seconds": t_import},
        "batch_scan": {"seconds": t_scan, "by_verdict": verdict_counts(batch),
                       "report": batch.to_json_dict()},
        "read_time_scans": read_time,
        "history_example": explained.to_json_dict() if explained is not None else None,
        "stats": stats.to_json_dict(),
        "seconds_total": time.perf_counter() - started,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
    if as_json:
        click.echo(json.dumps({"report_path": str(out), "by_verdict": verdict_counts(batch),
                               "scanned": batch.scanned}))
    else:
        say("\nsummary by verdict/rule:")
        for name, n in verdict_counts(batch).items():
            say(f"  {name:40s} {n:5d}")
        say(f"  cite {len(batch.cite)}, withhold {len(batch.withhold)}, "
            f"unresolved {len(batch.unresolved)}, epoch-change events {len(batch.events)}")
        say(f"\nfull JSON report: {out}")
    return document
