"""Mem0: scan what ``Memory.search`` returned for a user (``contrascan[mem0]``).

Mem0 (mem0ai) keeps memories in its vector store; with the Weaviate store they are objects of
one collection whose uuid is the memory id (mem0/vector_stores/weaviate.py). The helper takes
the search result as Mem0 returns it (``{"results": [...]}`` or the list), scans those ids with
no second search, and returns the results minus the withheld memories, unresolved ones marked
under ``"contrascan"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scanner.sources.service import AttachedSource, SourceScan
from scanner.store.memories import STATUS_SUPERSEDED

RESULT_KEY = "contrascan"


def scan_mem0_results(source: AttachedSource, user_id: str,
                      results: Mapping[str, Any] | Sequence[Mapping[str, Any]], *,
                      apply: bool = True) -> tuple[list[dict[str, Any]], SourceScan]:
    """Filter a Mem0 search result.

    Args:
        source: the attached Mem0 collection (preset ``mem0``).
        user_id: the user the search was for.
        results: ``Memory.search(...)``'s return value (a dict with ``results``, or the list);
            each item has the memory ``id``.
        apply: record verdicts (see :meth:`AttachedSource.scan_hits`).

    Returns:
        The items without the withheld ones (order kept; unresolved ones get
        ``item["contrascan"] = {"status": "unresolved", "question": ...}``), and the scan.
    """
    items = list(results.get("results", []) if isinstance(results, Mapping) else results)
    scan = source.scan_hits(user_id, ids=[str(i["id"]) for i in items], apply=apply)
    scanned = {h.record.id for h in scan.hits}
    questions = {m: c.question for c in scan.report.conflicts for m in c.members if c.question}
    kept = []
    for item in items:
        mid = str(item["id"])
        status = scan.status(mid) if mid in scanned else None
        if status == STATUS_SUPERSEDED:
            continue
        item = dict(item)
        if status is not None and status != "active":
            item[RESULT_KEY] = {"status": status, "question": questions.get(mid)}
        kept.append(item)
    return kept, scan
