"""A small Python client of the HTTP sidecar (:mod:`scanner.api`), on httpx.

An agent calls it in two lines before it answers::

    from scanner.client import Contrascan
    report = Contrascan("http://127.0.0.1:8765").scan("potter-1", "preferred glaze")

``report.cite`` are the memories safe to use as current, ``report.withhold`` the superseded
ones, ``report.unresolved`` the members of pairs nobody may present as settled (SPEC §5), and
``report.hits`` the search hits with their scores. The API key, when the server wants one,
comes from ``$CONTRASCAN_API_KEY`` unless passed. Every error answer becomes a
:class:`~scanner.errors.SidecarError` carrying the server's stable ``code``.

Importing this module loads httpx, pydantic and the scan answers' models only
(:mod:`scanner.api.wire`: no FastAPI, Weaviate, spaCy or torch), so a short-lived process
(``contrascan source scan --sidecar URL``) pays for none of them; the models of the other
answers (history, batch-scan jobs, added memories) are imported by the calls that return
them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from scanner.api.settings import API_KEY_ENV, API_KEY_HEADER
from scanner.api.wire import ScanResponse, SourceScanResponse
from scanner.defaults import DEFAULT_ALPHA, DEFAULT_HOST, DEFAULT_LIMIT, DEFAULT_PORT
from scanner.errors import SidecarError
from scanner.models import MemoryRecord

if TYPE_CHECKING:
    from scanner.api.schemas import AddMemoriesResponse, BatchScanJob, HistoryResponse

DEFAULT_URL = f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"
"""Where ``contrascan serve`` listens by default."""

_Model = TypeVar("_Model", bound=BaseModel)


class Contrascan:
    """Client of one sidecar.

    Args:
        base_url: the sidecar, e.g. ``"http://127.0.0.1:8765"``.
        api_key: sent as ``X-API-Key``; default ``$CONTRASCAN_API_KEY`` (unset = none).
        timeout_s: per-request timeout, seconds.
        http: an ``httpx.Client`` to use instead of a new one (e.g. Starlette's
            ``TestClient``, which is one); ``base_url`` is then ignored and the caller
            closes it.

    Usable as a context manager; :meth:`close` closes the connection pool it created.
    """

    def __init__(self, base_url: str = DEFAULT_URL, *, api_key: str | None = None,
                 timeout_s: float = 10.0, http: httpx.Client | None = None):
        key = api_key if api_key is not None else os.environ.get(API_KEY_ENV) or None
        self._headers = {API_KEY_HEADER: key} if key else {}
        self._owned = http is None
        self._http = http if http is not None else httpx.Client(base_url=base_url,
                                                                timeout=timeout_s)

    def __enter__(self) -> Contrascan:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool (only one this client created)."""
        if self._owned:
            self._http.close()

    # -- calls ----------------------------------------------------------------------------
    def scan(self, user_id: str, query: str, *, group: str | None = None,
             properties: Mapping[str, str] | None = None, limit: int = DEFAULT_LIMIT,
             alpha: float = DEFAULT_ALPHA, apply: bool = True,
             vector: Sequence[float] | None = None) -> ScanResponse:
        """Read-time scan (``POST /v1/scan``) before answering ``query``.

        Args:
            user_id: the scope's user (the only tenant searched).
            query: what the agent is about to answer.
            group, properties: the rest of the scope (filters inside the tenant).
            limit: hits to scan (k); alpha: hybrid weight, 0 = BM25 only, 1 = vector only.
            apply: let the sidecar record the verdicts (supersedes edges, status).
            vector: the query's embedding by the sidecar's model (all-MiniLM-L6-v2, 384
                floats; a numpy array is fine), when the agent already computed it: the
                sidecar then skips embedding the query.

        Returns:
            The SPEC §5 report plus ``hits`` (best first, with fused scores in [0, 1]).

        Raises:
            SidecarError: the sidecar answered with an error, or did not answer.
        """
        body = {"user_id": user_id, "query": query, "group": group,
                "properties": dict(properties or {}), "limit": limit, "alpha": alpha,
                "apply": apply}
        if vector is not None:
            body["vector"] = [float(x) for x in vector]
        return self._call("POST", "/v1/scan", ScanResponse, json=body)

    def add(self, records: Iterable[MemoryRecord | Mapping[str, Any]], *,
            user_id: str | None = None, check: bool = False) -> AddMemoriesResponse:
        """Store records of one user (``POST /v1/memories``); ids already stored stay as
        they are.

        Args:
            records: SPEC §4 records (models or plain dicts), all of one user.
            user_id: the tenant written; default the first record's ``user_id``.
            check: scan the new records against stored memories sharing their keys and
                return that report (write-time check).

        Raises:
            SidecarError: e.g. ``validation_error`` (422, naming the field) or
                ``store_write_failed`` (502; posting the same records again is safe).
        """
        from scanner.api.schemas import AddMemoriesResponse

        items = [r.model_dump(mode="json") if isinstance(r, BaseModel) else dict(r)
                 for r in records]
        if user_id is None:
            user_id = str(items[0].get("user_id", "")) if items else ""
        body = {"user_id": user_id, "records": items, "check": check}
        return self._call("POST", "/v1/memories", AddMemoriesResponse, json=body)

    def start_batch_scan(self, user_id: str) -> BatchScanJob:
        """Start a batch scan of one tenant (``POST /v1/batch-scans``); returns the job."""
        from scanner.api.schemas import BatchScanJob

        return self._call("POST", "/v1/batch-scans", BatchScanJob, json={"user_id": user_id})

    def batch_scan_job(self, job_id: str, user_id: str) -> BatchScanJob:
        """A job's progress and, once ``done``, its report."""
        from scanner.api.schemas import BatchScanJob

        return self._call("GET", f"/v1/batch-scans/{job_id}", BatchScanJob,
                          params={"user_id": user_id})

    def batch_scan(self, user_id: str, *, poll_s: float = 0.5,
                   timeout_s: float = 3600.0) -> BatchScanJob:
        """Start a batch scan and wait for it to end (``done`` or ``failed``).

        Raises:
            SidecarError: an error answer, or ``timeout`` after ``timeout_s`` seconds (the
                job keeps running in the server).
        """
        job = self.start_batch_scan(user_id)
        deadline = time.monotonic() + timeout_s
        while job.status in ("queued", "running"):
            if time.monotonic() > deadline:
                raise SidecarError(0, "timeout", f"batch scan {job.id} still {job.status} "
                                                 f"after {timeout_s:.0f} s")
            time.sleep(poll_s)
            job = self.batch_scan_job(job.id, user_id)
        return job

    def history(self, memory_id: str, user_id: str) -> HistoryResponse:
        """What changed around a memory, and why (``GET /v1/memories/{id}/history``): the
        supersedes chain, the ledger entries about it and a readable story; a memory of an
        attached collection is found by its object's uuid."""
        from scanner.api.schemas import HistoryResponse

        return self._call("GET", f"/v1/memories/{quote(memory_id, safe='')}/history",
                          HistoryResponse, params={"user_id": user_id})

    # -- attached sources (``contrascan serve --sources FILE``) ---------------------------
    def source_scan(self, source: str, user_id: str, query: str, *,
                    limit: int = DEFAULT_LIMIT, alpha: float = DEFAULT_ALPHA,
                    apply: bool = True,
                    vector: Sequence[float] | None = None) -> SourceScanResponse:
        """Scoped hybrid search on an attached collection, then the scan of its hits
        (``POST /v1/sources/{source}/scan``), by the sidecar that holds spaCy, the model
        and the connection already.

        Args:
            source: the source's name in the sidecar's ``--sources`` file.
            user_id: the scope's user; query: the BM25 text.
            limit: hits (k); alpha: hybrid weight, 0 = BM25 only, 1 = vector only.
            apply: let the sidecar record the verdicts.
            vector: the query's embedding in the collection's vector space, when the agent
                has it.

        Returns:
            The SPEC §5 report (ids are the objects' uuids), the hits with their fused
            scores in [0, 1] and stored statuses, and how many were ``extracted`` now.

        Raises:
            SidecarError: e.g. ``not_found`` (404) for a source the sidecar does not serve.
        """
        body: dict[str, Any] = {"user_id": user_id, "query": query, "limit": limit,
                                "alpha": alpha, "apply": apply}
        if vector is not None:
            body["vector"] = [float(x) for x in vector]
        return self._call("POST", f"/v1/sources/{quote(source, safe='')}/scan",
                          SourceScanResponse, json=body)

    def source_scan_hits(self, source: str, user_id: str, *,
                         ids: Sequence[str] | None = None,
                         objects: Sequence[Mapping[str, Any]] | None = None,
                         apply: bool = True) -> SourceScanResponse:
        """Scan the hits the agent's own search returned, with no second search
        (``POST /v1/sources/{source}/scan-hits``): their uuids, or the objects themselves
        (their properties, the uuid under ``_id``).

        Raises:
            SidecarError: e.g. ``validation_error`` (422) for neither or both of ``ids``
                and ``objects``.
        """
        body: dict[str, Any] = {"user_id": user_id, "apply": apply}
        if ids is not None:
            body["ids"] = [str(i) for i in ids]
        if objects is not None:
            body["objects"] = [dict(o) for o in objects]
        return self._call("POST", f"/v1/sources/{quote(source, safe='')}/scan-hits",
                          SourceScanResponse, json=body)

    def ready(self) -> bool:
        """Whether the sidecar and its Weaviate answer (``GET /healthz``); never raises."""
        try:
            return self._http.get("/healthz").status_code == 200
        except httpx.HTTPError:
            return False

    # -- plumbing -------------------------------------------------------------------------
    def _call(self, method: str, path: str, model: type[_Model], **kwargs: Any) -> _Model:
        try:
            response = self._http.request(method, path, headers=self._headers, **kwargs)
        except httpx.HTTPError as err:
            raise SidecarError(0, "unreachable", f"{type(err).__name__}: {err}") from err
        if response.is_success:
            return model.model_validate_json(response.content)
        raise _error(response)


def _error(response: httpx.Response) -> SidecarError:
    try:
        detail = response.json()["error"]
        return SidecarError(response.status_code, str(detail["code"]), str(detail["message"]),
                            [(f["field"], f["message"]) for f in detail.get("fields", [])])
    except (ValueError, KeyError, TypeError):
        return SidecarError(response.status_code, "http_error", response.text[:200])
