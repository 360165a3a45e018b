"""Whether every collection and tenant a process has seen in Weaviate is still there.

contrascan deletes no collection and no tenant (SPEC §3: "Nothing is deleted, ever"), so one
that was there and is gone was deleted from outside: by a client holding the server's key, or
by a caller of a port that takes no key (a Weaviate cluster's Raft RPC, docs/weaviate.md).
Every later scan of that user would then find nothing and answer an empty report as if the
user were new. :class:`StorePresence` remembers what it has seen and, on each
:meth:`~StorePresence.check`, lists the collections (one ``GET /v1/schema``) and the tenants of
the collections that have one per user (one tenant listing each); anything seen before and
missing now is a :class:`~scanner.errors.StoreDamaged`, kept from then on (the loss does not
heal when a later import creates the tenant again, empty).

The sidecar checks it once a second off the request path (:mod:`scanner.health`) and refuses
its ``/v1`` requests while the store is damaged (:func:`scanner.api.dependencies.require_service`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence

import weaviate

from scanner.errors import StoreDamaged
from scanner.store import replication
from scanner.store.failures import translate_unreachable


@translate_unreachable
class StorePresence:
    """The collections and tenants of one service that this object has seen.

    Args:
        client: a connected client.
        collections: collection names to watch; one created later (the scan state is created
            on its first write) is watched from the first check that finds it.
        tenant_collections: those of ``collections`` whose tenants are watched too (one per
            user: the memories and the ledger).
        known: per collection of ``tenant_collections``, the tenants this process created or
            found there since the last check (e.g.
            :meth:`scanner.store.tenants.TenantCollection.known_tenants`): seen as well, so a
            tenant created and deleted between two checks is not missed. Read before the
            listing, so a tenant created meanwhile is never taken for a lost one.

    Raises:
        WeaviateUnavailable: from :meth:`check`, when the server does not answer.
    """

    def __init__(self, client: weaviate.WeaviateClient, collections: Sequence[str],
                 tenant_collections: Sequence[str] = (), *,
                 known: Mapping[str, Callable[[], Iterable[str]]] | None = None):
        self.client = client
        self.collections = tuple(collections)
        self.tenant_collections = tuple(c for c in tenant_collections if c in self.collections)
        self._known = dict(known or {})
        self._seen: set[str] = set()
        self._tenants: dict[str, set[str]] = {c: set() for c in self.tenant_collections}
        self._damage: StoreDamaged | None = None
        self._lock = threading.Lock()

    @property
    def damage(self) -> StoreDamaged | None:
        """The first loss found by :meth:`check`, or ``None``. O(1), no request."""
        return self._damage

    def check(self) -> None:
        """List the collections and the watched collections' tenants, and compare them with
        what earlier checks saw. Costs ``1 + len(tenant_collections)`` requests (fewer when a
        collection does not exist yet); the tenant listings grow with the number of users.

        Raises:
            StoreDamaged: a collection or tenant seen by an earlier check is gone (also every
                later call, without a request).
            WeaviateUnavailable: the server does not answer.
        """
        with self._lock:
            if self._damage is not None:
                raise self._damage
            for name, found in self._known.items():  # before the listings (see ``known``)
                if name in self._tenants:
                    self._tenants[name].update(found())
            present = set(self.client.collections.list_all(simple=True))
            for name in self.collections:
                if name in self._seen and name not in present:
                    self._damage = StoreDamaged(name, evidence="it was there before")
                    raise self._damage
            self._seen.update(n for n in self.collections if n in present)
            for name in self.tenant_collections:
                if name not in present:
                    continue
                tenants = set(replication.tenant_names(self.client.collections.use(name)))
                gone = sorted(self._tenants[name] - tenants)
                if gone:
                    more = f"; {len(gone) - 1} other tenant(s) too" if len(gone) > 1 else ""
                    self._damage = StoreDamaged(name, gone[0],
                                                evidence=f"it was there before{more}")
                    raise self._damage
                self._tenants[name] |= tenants
