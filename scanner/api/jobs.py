"""The batch-scan job runner: jobs run in their own executor, independent of any request."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from scanner.api.errors import ErrorCode, ErrorDetail, classify, Problem
from scanner.api.schemas import BatchScanJob, JobProgress
from scanner.core.changes import grouped_report
from scanner.metrics import SidecarMetrics
from scanner.models import ScanReport

if TYPE_CHECKING:
    from scanner.service import Service

logger = logging.getLogger("scanner.api")

@dataclass
class _Job:
    id: str
    user_id: str
    created_at: datetime
    status: str = "queued"
    done: int = 0
    total: int | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    report: ScanReport | None = None
    error: ErrorDetail | None = None

    def snapshot(self) -> BatchScanJob:
        return BatchScanJob(id=self.id, user_id=self.user_id, status=self.status,  # type: ignore[arg-type]
                            progress=JobProgress(done=self.done, total=self.total),
                            created_at=self.created_at, started_at=self.started_at,
                            finished_at=self.finished_at,
                            report=grouped_report(self.report) if self.report else None,
                            error=self.error)


@dataclass
class BatchScanJobs:
    """Batch-scan jobs, run in their own executor: independent of any request or connection."""

    executor: ThreadPoolExecutor
    metrics: SidecarMetrics
    max_jobs: int
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _jobs: OrderedDict[str, _Job] = field(default_factory=OrderedDict)

    def submit(self, service: Service, user_id: str) -> BatchScanJob:
        with self._lock:
            active = sum(j.status in ("queued", "running") for j in self._jobs.values())
            if active >= self.max_jobs:
                raise Problem(429, ErrorCode.too_many_jobs,
                               f"{active} batch scans are queued or running; retry later")
            job = _Job(id=uuid.uuid4().hex, user_id=user_id, created_at=_now())
            self._jobs[job.id] = job
            finished = [j.id for j in self._jobs.values() if j.status in ("done", "failed")]
            for old in finished[:max(0, len(self._jobs) - self.max_jobs)]:
                del self._jobs[old]
            snapshot = job.snapshot()
            self._count()
        self.executor.submit(self._run, service, job)
        return snapshot

    def get(self, job_id: str, user_id: str) -> BatchScanJob | None:
        with self._lock:
            job = self._jobs.get(job_id)
            return job.snapshot() if job is not None and job.user_id == user_id else None

    def _update(self, job: _Job, **changes: Any) -> None:
        with self._lock:
            for name, value in changes.items():
                setattr(job, name, value)
            self._count()

    def _count(self) -> None:
        for status in ("queued", "running", "done", "failed"):
            self.metrics.jobs.labels(status).set(
                sum(j.status == status for j in self._jobs.values()))

    def _run(self, service: Service, job: _Job) -> None:
        self._update(job, status="running", started_at=_now())
        try:
            total = service.store.count(job.user_id)
            self._update(job, total=total)

            def advance(n: int) -> None:
                self._update(job, done=job.done + n)

            started = time.perf_counter()
            report = service.batch_scan(job.user_id, progress=advance)
            self.metrics.observe_scan("batch", report, time.perf_counter() - started)
            self._update(job, status="done", report=report, finished_at=_now())
        except Exception as err:  # noqa: BLE001 - a job records its failure instead of dying
            status, code, message = classify(err)
            if status >= 500 and code is ErrorCode.internal_error:
                logger.exception("batch scan %s of user %r failed", job.id, job.user_id)
            self._update(job, status="failed", finished_at=_now(),
                         error=ErrorDetail(code=code, message=message))


def _now() -> datetime:
    return datetime.now(timezone.utc)

