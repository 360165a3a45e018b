"""The attached sources a sidecar serves (``contrascan serve --sources FILE``), attached once
and shared by every route that reads them: the scans under ``/v1/sources/{name}/…``, the
review inbox and actions, and history.

One :class:`~scanner.sources.service.AttachedSource` per name, built on first use over the
sidecar's own :class:`~scanner.service.Service` (its Weaviate client, engine configuration and
embedder), so a review decision and a read-time scan of one source hold the same write lock
and the same in-process memo.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

from scanner.errors import ScannerError, UnknownSource, WeaviateUnavailable
from scanner.sources.mapping import SourceMapping
from scanner.store.attached import cache_collection_name
from scanner.store.ledger import ledger_collection_name

if TYPE_CHECKING:
    from scanner.service import Service
    from scanner.sources.service import AttachedSource

logger = logging.getLogger(__name__)


class AttachedSources:
    """Sources by name, each attached on first use.

    Args:
        mappings: name -> mapping (:func:`scanner.sources.mapping.load_sources`).

    Thread-safe: two requests for a source not attached yet attach it once.
    """

    def __init__(self, mappings: Mapping[str, SourceMapping]):
        self.mappings = dict(mappings)
        self._attached: dict[str, AttachedSource] = {}
        self._lock = threading.Lock()

    def __contains__(self, name: object) -> bool:
        return name in self.mappings

    def names(self) -> list[str]:
        """The sources' names, sorted."""
        return sorted(self.mappings)

    def get(self, service: Service, name: str) -> AttachedSource:
        """The attached source ``name`` over ``service``'s client, configuration and embedder.

        Raises:
            UnknownSource: no source of that name.
            ConfigurationError: its collection or a mapped property does not exist.
            WeaviateUnavailable: the server does not answer.
        """
        if name not in self.mappings:
            raise UnknownSource(name, self.names())
        with self._lock:
            found = self._attached.get(name)
            if found is None:
                from scanner.sources.service import AttachedSource

                found = AttachedSource(service.store.client, self.mappings[name],
                                       config=service.engine.config,
                                       embedder=service.embedder)
                self._attached[name] = found
            return found

    def with_ledger(self, service: Service) -> dict[str, AttachedSource]:
        """The sources that have recorded verdicts (their ledger collection exists), attached:
        what the review inbox reads besides contrascan's own ledger. A source whose ledger
        does not exist yet is not attached (attaching creates contrascan's collections for
        it); one that cannot be attached any more (its collection was dropped) is left out
        and logged.

        Raises:
            WeaviateUnavailable: the server does not answer.
        """
        client = service.store.client
        out: dict[str, AttachedSource] = {}
        for name in self.names():
            if not client.collections.exists(ledger_collection_name(
                    cache_collection_name(self.mappings[name].name))):
                continue
            try:
                out[name] = self.get(service, name)
            except WeaviateUnavailable:
                raise
            except ScannerError as err:
                logger.warning("source %s left out of the review inbox: %s", name, err)
        return out
