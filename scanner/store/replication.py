"""Replication factor and consistency levels of contrascan's collections.

On a Weaviate cluster each tenant is a shard kept on ``factor`` nodes (its *replicas*). A
write is acknowledged once ``write_consistency`` replicas stored it; a read is answered once
``read_consistency`` replicas agree (the newest version wins, and a replica found stale is
repaired on the way: *read repair*). Weaviate also repairs in the background (*async
replication*: replicas compare hash trees of their objects every ``frequency`` ms and send each
other what differs), on by default for every collection with a factor > 1 since 1.38
(weaviate-client 4.24.1, ``Configure.replication`` docstring). Sources: Weaviate's docs,
https://docs.weaviate.io/deploy/configuration/replication (a factor cannot be changed by
updating the collection; ``REPLICATION_MINIMUM_FACTOR``) and
https://docs.weaviate.io/deploy/configuration/async-rep (async replication, per tenant).

The levels count replicas: ``ONE`` = 1, ``QUORUM`` = ``factor // 2 + 1``, ``ALL`` = ``factor``.
A read sees the last acknowledged write when read and write replicas overlap, i.e. when
``R + W > factor`` (the quorum rule of Dynamo, DeCandia et al., SOSP 2007, §4.5);
:class:`ReplicationSettings` refuses levels that break it. A write at ``ALL`` counts as a
majority there, not as every replica: Weaviate 1.39 refuses ``ALL`` only until the cluster
has marked a dead node as gone (~3 s after a SIGKILL, measured on the loopback cluster),
then acknowledges it from the live replicas alone ("cannot reach enough replicas: required 3
replicas, got 2" before, success after), so ``ALL`` guarantees no more than ``QUORUM`` while a
node is down. Verdict and status writes default to ``QUORUM`` (a cluster of 3 keeps
accepting them with one node down). Decision reads (the cursor pass of a batch scan, the
hybrid search and key lookups of a read-time scan, the stored statuses and edges read before
writing) default to ``QUORUM``.

How settings reach the store: :func:`configure` attaches them to a client; the store modules
create collections with :func:`replication_config` and scope every tenant handle with
:func:`for_reads` / :func:`for_writes`. A client that was never configured gets the defaults
(factor 1, ``QUORUM`` / ``QUORUM``): on one node every level means the one replica.
"""

from __future__ import annotations

import enum
import threading
import weakref
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator
# (weaviate and tenacity are imported where they are used: scanner.config reads
# ReplicationSettings, and a command that connects to nothing, such as scan-file, never loads
# the client)

from scanner.errors import ConfigurationError


class Consistency(str, enum.Enum):
    """How many replicas must answer: ``ONE``, ``QUORUM`` (a majority) or ``ALL``."""

    ONE = "ONE"
    QUORUM = "QUORUM"
    ALL = "ALL"

    def replicas(self, factor: int) -> int:
        """Replicas this level waits for when a shard has ``factor`` replicas."""
        return {"ONE": 1, "QUORUM": factor // 2 + 1, "ALL": factor}[self.value]


class ReplicationSettings(BaseModel):
    """The ``[replication]`` table of the configuration file (:mod:`scanner.config`).

    Attributes:
        factor: replicas of every tenant, ``1`` .. the number of nodes (Weaviate refuses a
            factor above the node count when the collection is created). Applies to
            collections contrascan creates; an existing collection keeps its factor
            (:func:`check_collection` reports a mismatch).
        write_consistency: ``QUORUM`` or ``ALL`` for imports, verdicts, statuses, ledger
            entries and checkpoints (``ONE`` is refused: an acknowledged verdict could sit on
            one node only and be lost with it).
        read_consistency: ``QUORUM`` or ``ALL`` for the reads scans decide on (``ONE`` only
            with a factor of 1 or 2: with ``ALL`` writes counted as a majority, see the module
            docstring, a read of one replica could miss a verdict).
        async_frequency_ms: how often replicas compare their hash trees (Weaviate's
            ``asyncConfig.frequency``, milliseconds); ``None`` keeps the server's default.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    factor: int = Field(default=1, ge=1)
    write_consistency: Consistency = Consistency.QUORUM
    read_consistency: Consistency = Consistency.QUORUM
    async_frequency_ms: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _overlapping(self) -> ReplicationSettings:
        if self.write_consistency is Consistency.ONE:
            raise ValueError("write_consistency ONE could lose an acknowledged verdict with "
                             "the one node that holds it; use QUORUM or ALL")
        r = self.read_consistency.replicas(self.factor)
        w = Consistency.QUORUM.replicas(self.factor)  # ALL, too, once a node is marked dead
        if r + w <= self.factor:
            raise ValueError(
                f"read_consistency {self.read_consistency.value} ({r} of {self.factor}) and "
                f"write_consistency {self.write_consistency.value} (acknowledged by {w} of "
                f"{self.factor} when a node is down) do not overlap (R + W must exceed the "
                "factor): a read could miss a verdict")
        return self


DEFAULT = ReplicationSettings()

_SETTINGS: weakref.WeakKeyDictionary[Any, ReplicationSettings] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def configure(client: Any, settings: ReplicationSettings) -> None:
    """Use ``settings`` for every collection and tenant handle made through ``client``.

    Call it right after connecting, before the first store call; tenant handles are cached
    per client and keep the levels they were made with.
    """
    with _LOCK:
        _SETTINGS[client] = settings


def settings_of(client: Any) -> ReplicationSettings:
    """The settings :func:`configure` attached to ``client``, else :data:`DEFAULT`."""
    try:
        with _LOCK:
            return _SETTINGS.get(client, DEFAULT)
    except TypeError:  # not weak-referenceable
        return DEFAULT


def _level(value: Consistency) -> Any:
    from weaviate.classes.config import ConsistencyLevel

    return ConsistencyLevel(value.value)


def for_reads(client: Any, handle: Any) -> Any:
    """``handle`` (a tenant-bound collection) reading at the client's ``read_consistency``."""
    return handle.with_consistency_level(_level(settings_of(client).read_consistency))


def for_writes(client: Any, handle: Any) -> Any:
    """``handle`` writing at the client's ``write_consistency`` (a new handle; the client's
    handles are light: names and the level)."""
    return handle.with_consistency_level(_level(settings_of(client).write_consistency))


def replication_config(client: Any) -> Any:
    """The ``replication_config`` for ``collections.create``, or ``None`` for a factor of 1
    without async settings (the server default, as before replication was configurable)."""
    s = settings_of(client)
    if s.factor == 1 and s.async_frequency_ms is None:
        return None
    from weaviate.classes.config import Configure

    async_config = (Configure.Replication.async_config(frequency=s.async_frequency_ms)
                    if s.async_frequency_ms is not None else None)
    return Configure.replication(factor=s.factor, async_config=async_config)


def check_collection(client: Any, name: str) -> None:
    """Refuse to use an existing collection whose replication factor is below the configured
    one (it would silently keep one copy per tenant on a cluster).

    A factor above the configured one is accepted (more copies than asked for).

    Raises:
        ConfigurationError: names the collection and both factors.
    """
    wanted = settings_of(client).factor
    if wanted == 1:
        return
    from weaviate.exceptions import WeaviateBaseError

    try:
        stored = client.collections.use(name).config.get().replication_config.factor
    except WeaviateBaseError:
        return  # the caller's next request reports the server's state
    if stored < wanted:
        raise ConfigurationError(
            "replication.factor",
            f"collection {name} exists with replication factor {stored}, configured "
            f"{wanted}; a collection's factor cannot be changed by updating its definition "
            "(add replicas with Weaviate's replica movement, >= 1.32) or use a new collection")


LEADER_WAIT_S = 30.0
"""Seconds :func:`tenant_names` keeps retrying while the cluster has no Raft leader."""
_NO_LEADER = ("failed to execute query", "leader", "the client connection is closing",
              "deadline exceeded")
"""Fragments of the errors a schema read gets while the cluster elects a new Raft leader.
Measured on Weaviate 1.39 with the leader SIGKILLed: ``get tenants: failed to execute query:
rpc error: code = Canceled desc = grpc: the client connection is closing``, or the node keeps
waiting on the dead leader until the client's query timeout (30 s) ends the call with
``Deadline Exceeded``; a new leader was elected within ~7 s and the next call succeeded."""


def through_election(call: Any, *args: Any, wait_s: float = LEADER_WAIT_S, **kwargs: Any
                     ) -> Any:
    """``call(*args, **kwargs)``, retried while the cluster has no Raft leader.

    Schema reads (listing tenants), schema writes (creating a collection or a tenant) and batch
    reference writes (which check their target against the schema) go to the cluster's Raft
    leader. When the leader has just died they fail until the remaining nodes elect a new one
    (~7 s measured, three nodes on loopback), and just after a node restarts they can fail
    while its connections to the others come up. Failures whose message says so
    (:data:`_NO_LEADER`) are retried by tenacity, 0.2 s after the first and twice as long after
    each next up to 2 s, for up to ``wait_s`` seconds and at least once (the first attempt may
    itself have waited out the client's timeout); any other failure, and one still there after
    that, is raised at once. Only for idempotent calls, or calls whose repetition the
    caller repairs (a duplicated ``supersedes`` edge is found and removed by
    :meth:`scanner.store.memories.MemoryStore.apply_effects`).

    Raises:
        weaviate.exceptions.WeaviateBaseError: the call failed for another reason, or the
            cluster had no leader for ``wait_s`` seconds.
    """
    import tenacity
    from weaviate.exceptions import WeaviateBaseError

    def no_leader(err: BaseException) -> bool:
        return isinstance(err, WeaviateBaseError) and any(
            f in str(err).lower() for f in _NO_LEADER)

    retrying = tenacity.Retrying(
        retry=tenacity.retry_if_exception(no_leader),
        wait=tenacity.wait_exponential(multiplier=0.2, max=2.0),
        stop=tenacity.stop_after_delay(wait_s) & tenacity.stop_after_attempt(2),
        reraise=True)
    return retrying(call, *args, **kwargs)


def tenant_names(collection: Any, *, wait_s: float = LEADER_WAIT_S) -> list[str]:
    """Tenant names of ``collection`` (a collection handle), sorted; a schema read, retried
    through a leader election (:func:`through_election`).

    Raises:
        weaviate.exceptions.WeaviateBaseError: see :func:`through_election`.
    """
    return sorted(through_election(collection.tenants.get, wait_s=wait_s).keys())
