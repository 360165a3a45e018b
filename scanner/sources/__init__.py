"""Attached sources: scan memories an agent already keeps in Weaviate through Mem0, LangChain,
LlamaIndex or its own collection, without importing them (issue 16)."""

from scanner.sources.mapping import (
    PRESETS,
    SourceMapping,
    SourceRecordError,
    build_mapping,
    load_sources,
    preset,
)

__all__ = ["PRESETS", "SourceMapping", "SourceRecordError", "build_mapping", "load_sources",
           "preset"]
