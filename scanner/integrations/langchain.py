"""LangChain: a retriever that wraps any retriever and drops withheld documents
(``contrascan[langchain]``).

Documents of the wrapped retriever are scanned as they are ("scan these hits": no second
search); a document whose memory a verdict superseded is dropped, one in an unresolved pair
(quarantined, epoch change, escalated) is kept and marked in its metadata under
``contrascan``: ``{"status": "unresolved", "question": ...}``. The document's uuid is read from
``metadata["uuid"]`` (langchain-weaviate's ``return_uuids=True``) or ``Document.id``.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from scanner.sources.service import AttachedSource, SourceScan
from scanner.store.memories import STATUS_SUPERSEDED

METADATA_KEY = "contrascan"
"""The metadata key under which a kept document's status is written."""


class SentenceEmbeddings(Embeddings):
    """LangChain embeddings from the sidecar's sentence-transformers model (default
    all-MiniLM-L6-v2 from its PyPI package, no hub download), so a LangChain store and the
    sidecar's query vectors share one space.

    Args:
        embedder: a :class:`scanner.embeddings.Embedder` (default: the default model).
    """

    def __init__(self, embedder: Any = None):
        from scanner.embeddings import Embedder

        self.embedder = embedder or Embedder()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """``len(texts)`` vectors, L2-normalised."""
        return self.embedder.encode(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        """One L2-normalised vector."""
        return self.embedder.encode([text])[0].tolist()


def document_object(doc: Document, text_property: str) -> dict[str, Any]:
    """The collection properties a LangChain document stands for (text + metadata), with its
    uuid under ``_id`` when known."""
    props = {k: v for k, v in doc.metadata.items() if k != METADATA_KEY}
    uuid = props.pop("uuid", None) or doc.id
    props[text_property] = doc.page_content
    if uuid:
        props["_id"] = str(uuid)
    return props


class ContrascanRetriever(BaseRetriever):
    """Wraps ``retriever``; returns its documents minus the withheld ones.

    Attributes:
        retriever: any LangChain retriever over the attached collection.
        source: the attached source the documents come from.
        user_id: the scope the retriever searches.
        apply: record verdicts (see :meth:`AttachedSource.scan_hits`).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    retriever: BaseRetriever
    source: Any
    user_id: str
    apply: bool = True

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        docs = self.retriever.invoke(query, config={"callbacks": run_manager.get_child()})
        return filter_documents(self.source, self.user_id, docs, apply=self.apply)[0]


def filter_documents(source: AttachedSource, user_id: str, docs: list[Document], *,
                     apply: bool = True) -> tuple[list[Document], SourceScan]:
    """``docs`` without the withheld ones, unresolved ones marked; and the scan.

    Documents that are not readable memories (no text, another user) are kept unmarked and
    listed in the scan's ``report.rejected``.
    """
    objects = [document_object(d, source.mapping.text_property) for d in docs]
    scan = source.scan_hits(user_id, objects=objects, apply=apply)
    by_id = {h.record.id: h for h in scan.hits}
    questions = {m: c.question for c in scan.report.conflicts for m in c.members if c.question}
    kept = []
    for doc, obj in zip(docs, [source.attached_object(o).uuid for o in objects]):
        if obj not in by_id:
            kept.append(doc)
            continue
        status = scan.status(obj)
        if status == STATUS_SUPERSEDED:
            continue
        if status != "active":
            doc = doc.model_copy(update={"metadata": {
                **doc.metadata, METADATA_KEY: {"status": status, "question": questions.get(obj)}}})
        kept.append(doc)
    return kept, scan
