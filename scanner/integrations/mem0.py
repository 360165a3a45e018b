"""Mem0: scan what ``Memory.search`` returned for a user (``contrascan[mem0]``).

Mem0 (mem0ai) keeps memories in its vector store; with the Weaviate store they are objects of
one collection whose uuid is the memory id (mem0/vector_stores/weaviate.py). The helper takes
the search result as Mem0 returns it, scans those ids with no second search, and gives the
result back in the same shape minus the withheld memories, unresolved ones marked under
``"contrascan"``:

* ``{"results": [...]}`` (mem0ai >= 1.1, ``Memory.search`` and ``Memory.get_all``; any other
  key, such as a graph store's ``relations``, is kept as it is) gives a :class:`Mem0Results`:
  that dict, with the scan as its :attr:`~Mem0Results.scan` attribute, so the agent's code
  reads it as it read Mem0's own result;
* a list of items (mem0ai < 1.1) gives ``(items, scan)``, as this helper always did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, overload

from scanner.sources.service import AttachedSource, SourceScan
from scanner.store.memories import STATUS_SUPERSEDED

RESULT_KEY = "contrascan"
"""The key under which an unresolved item is marked: ``{"status", "question"}``."""


class Mem0Results(dict):
    """Mem0's search result with the withheld memories taken out: ``{"results": [...]}`` and
    any other key Mem0 returned, unchanged.

    A ``dict`` (JSON-serialisable, read as Mem0's own result); the scan that filtered it is
    kept beside the data, not in it.

    Attributes:
        scan: the :class:`~scanner.sources.service.SourceScan` of the items (``report``,
            ``hits``, ``status(id)``); a copy of the dict (``dict(result)``) does not carry it.
    """

    def __init__(self, data: Mapping[str, Any], scan: SourceScan):
        super().__init__(data)
        self.scan = scan


@overload
def scan_mem0_results(source: AttachedSource, user_id: str, results: Mapping[str, Any], *,
                      apply: bool = True) -> Mem0Results: ...


@overload
def scan_mem0_results(source: AttachedSource, user_id: str,
                      results: Sequence[Mapping[str, Any]], *,
                      apply: bool = True) -> tuple[list[dict[str, Any]], SourceScan]: ...


def scan_mem0_results(source: AttachedSource, user_id: str,
                      results: Mapping[str, Any] | Sequence[Mapping[str, Any]], *,
                      apply: bool = True
                      ) -> Mem0Results | tuple[list[dict[str, Any]], SourceScan]:
    """Filter a Mem0 search result, keeping its shape.

    Args:
        source: the attached Mem0 collection (preset ``mem0``).
        user_id: the user the search was for.
        results: ``Memory.search(...)``'s return value: ``{"results": [item, ...]}``, or the
            list of items; each item has the memory ``id`` (the object's uuid).
        apply: record verdicts (see :meth:`AttachedSource.scan_hits`).

    Returns:
        For a dict, a :class:`Mem0Results`: the same keys, ``"results"`` without the withheld
        items (order kept; an unresolved item gets ``item["contrascan"] = {"status":
        "unresolved", "question": ...}``), and the scan as ``.scan``. For a list, the kept
        items and the scan, ``(items, scan)``. The input is not changed.

    Raises:
        ValueError: a dict without a ``"results"`` list, or an item without an ``"id"``
            (naming the item).
    """
    if isinstance(results, Mapping):
        items = results.get("results")
        if not isinstance(items, list):
            raise ValueError("results: expected what Memory.search returns, "
                             f"{{'results': [...]}}; got a dict with keys {sorted(results)}")
    else:
        items = list(results)
    ids = []
    for i, item in enumerate(items):
        if not isinstance(item, Mapping) or item.get("id") in (None, ""):
            raise ValueError(f"results[{i}]: no 'id' (the Mem0 memory id); a Memory.search "
                             "item has one")
        ids.append(str(item["id"]))
    scan = source.scan_hits(user_id, ids=ids, apply=apply)
    kept = _kept(items, scan)
    if isinstance(results, Mapping):
        return Mem0Results({**results, "results": kept}, scan)
    return kept, scan


def _kept(items: Sequence[Mapping[str, Any]], scan: SourceScan) -> list[dict[str, Any]]:
    """The items without the withheld ones, unresolved ones marked (copies)."""
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
    return kept
