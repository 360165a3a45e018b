"""Text -> subject–relation–object triples with spaCy. Never imports ``scanner``."""

from extractors.errors import ExtractorError, PipelineUnavailable
from extractors.pipeline import DEFAULT_PIPELINE, load_pipeline
from extractors.relations import DEFAULT_TABLE, Cardinality, RelationTable
from extractors.rules import USER, TripleExtractor, extract
from extractors.types import Triple
from extractors.values import normalize_value

__all__ = [
    "DEFAULT_PIPELINE", "DEFAULT_TABLE", "USER", "Cardinality", "ExtractorError",
    "PipelineUnavailable", "RelationTable", "Triple", "TripleExtractor", "extract",
    "load_pipeline", "normalize_value",
]
