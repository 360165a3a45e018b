"""The scan answers' bodies, apart from the rest of the sidecar's models: they need only
pydantic and :mod:`scanner.models`, so a client reading them (:mod:`scanner.client`, the
CLI's ``--sidecar`` calls) loads neither FastAPI, spaCy nor torch.
:mod:`scanner.api.schemas` re-exports them."""

from __future__ import annotations

from pydantic import BaseModel, Field

from scanner.models import MemoryRecord, ScanReport


class Hit(BaseModel):
    """One search hit, best first."""

    id: str
    score: float | None = Field(description="Fused hybrid score in [0, 1] (relative-score "
                                            "fusion), higher = better.")
    status: str = Field(description="'active', 'superseded' or 'unresolved' as stored before "
                                    "this scan.")
    memory: MemoryRecord


class ScanResponse(ScanReport):
    """The SPEC §5 report over the hits, plus the hits themselves."""

    hits: list[Hit] = Field(default_factory=list)

    def report(self) -> ScanReport:
        """The SPEC §5 report alone, without the hits (what ``--json`` prints)."""
        return ScanReport.model_construct(**{name: getattr(self, name)
                                             for name in ScanReport.model_fields})


class SourceScanResponse(ScanResponse):
    """What ``POST /v1/sources/{name}/scan`` and ``…/scan-hits`` answer: the shape of
    ``POST /v1/scan`` (the SPEC §5 report at the top level, then the hits, each with its
    memory), plus how many hits were extracted now. The stages' times are in the
    ``Server-Timing`` header, as for ``/v1/scan``."""

    extracted: int = Field(description="Hits whose triples were extracted now (not found in "
                                       "the source's triple cache).")
