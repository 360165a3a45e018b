"""The one pass of a batch scan over a tenant's stored memories (issue 4, "Batch scans that
scale"). Pure: no I/O; the store hands over the property dicts its cursor read.

A batch scan reads every memory of a tenant, yet most memories can take part in no conflict
and no duplicate. So the pass keeps per memory only what finding the candidates needs — its
id, keys, status, and a hash of its normalised text — and decodes into
:class:`~scanner.models.MemoryRecord` and :class:`~extractors.Triple` objects only the
memories that can conflict or repeat another:

* memories holding a key another memory holds (``(scope, canonical subject, relation)``,
  SPEC §1);
* memories holding a key whose subject may be a short form of another key's subject in the same
  scope and relation (``subject_unconfirmed``, :func:`scanner.core.keys.near_key_pairs`);
* memories whose normalised text another memory of the same scope repeats
  (:func:`scanner.core.duplicates.duplicate_groups`; equal fact sets already share keys).

Scanning that subset with :func:`scanner.scan.scan_records` gives the conflicts, events and
duplicates of scanning the whole tenant when detection only compares memories of one key, of
two near keys, or of one normalised text: every such memory is in the subset. With the pair
judge, the scan also runs the finders outside the keys (a denial of any time, a value or a
named thing changed in other words, an ending; :func:`scanner.scan.scan_records`), which pair
memories that share no key; then every memory is a candidate (:attr:`TenantPass.every_memory`),
or the batch scan would miss what a scan of the same memories finds, and withdraw the verdicts
a read-time scan recorded (issue 18: one stored set, one state). ``tests/unit/test_batch.py``
checks the equality both ways.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from extractors import Triple
from scanner.core.duplicates import normalised_text
from scanner.core.keys import AliasTable, GroupKey, near_subject_pairs
from scanner.models import MemoryRecord, Scope
from scanner.store.codec import STATUS_ACTIVE, decode_record

INPUT_PROPERTIES = ("memory_id", "text", "scope_group", "properties_json", "source",
                    "source_class", "observed_at", "epoch", "confidence", "priority",
                    "source_trust", "triples_json")
"""The stored properties a batch scan decides from, besides a memory's status (hashed into
:attr:`TenantPass.inputs_digest`)."""

_Key = tuple[tuple[str | None, tuple[tuple[str, str], ...]], str, str]
"""``((group, sorted properties), canonical subject, relation)``: a key inside one tenant."""


@dataclass
class TenantPass:
    """Memories of one tenant fed one at a time; then the subset worth scanning.

    Args:
        user_id: the tenant's user (every record gets it; the store keeps one user per
            tenant, :func:`scanner.store.memories.tenant_name`).
        aliases: subject aliases resolved before keys are formed (the scan's own table).
        keep_ids: also keep every memory id (for a report that lists ``cite``).

    Memory: per memory one tuple (its property dict, decoded triple dicts and keys), plus the
    decoded candidates, so it is bounded by the size of one tenant, not by the number of
    memories scanned over all tenants.
    """

    user_id: str
    aliases: AliasTable = field(default_factory=AliasTable)
    keep_ids: bool = False
    every_memory: bool = False
    """Every memory is a candidate: for a scan that runs the finders outside the keys (a
    configured pair judge; module docstring)."""
    decode_early: bool = True
    """Find and decode each candidate as a memory arrives (the work overlaps the cursor's
    next page); False only keeps the memories, hashes them and notes their status, and
    leaves the rest to :meth:`candidates`: for a scan likely to need no candidates at all
    (a tenant with a checkpoint, ``Service.scan_tenant``)."""
    scanned: int = 0
    states: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    """memory id -> ``(status, retired_rule)`` of every memory that is not ``active``."""
    ids: list[str] = field(default_factory=list)
    """Every memory id, in cursor order (only with ``keep_ids``)."""
    _rows: list[tuple[Mapping[str, Any], list[dict[str, Any]], tuple[_Key, ...]]] = \
        field(default_factory=list)
    _first: dict[_Key, int] = field(default_factory=dict)
    """key -> row of the first memory holding it."""
    _shared: set[_Key] = field(default_factory=set)
    _texts: dict[int, int] = field(default_factory=dict)
    """hash of (scope, normalised text) -> row of the first memory with it."""
    _decoded: dict[int, tuple[MemoryRecord, list[Triple]] | None] = field(default_factory=dict)
    """row -> record and triples of the memories known to be candidates so far (decoded as
    soon as that is known, so the work overlaps the cursor's next page)."""
    _properties: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """``properties_json`` -> its items, sorted (memories of a tenant share few scopes)."""
    _inputs: Any = field(default_factory=lambda: hashlib.blake2b(digest_size=16))
    _deferred: list[Mapping[str, Any]] = field(default_factory=list)
    """Memories added but not indexed yet (``decode_early`` False)."""

    @property
    def inputs_digest(self) -> str:
        """Hex digest (32 characters) of every memory's :data:`INPUT_PROPERTIES`, in the order
        they were added (the cursor's: by object UUID): a change of any of them, and any
        memory added or removed, changes it (statuses are hashed apart,
        :func:`states_digest`)."""
        return self._inputs.hexdigest()

    def add(self, props: Mapping[str, Any]) -> None:
        """One stored memory: its properties as the store holds them (``memory_id``, ``text``,
        ``scope_group``, ``properties_json``, provenance, ``triples_json``, ``status``,
        ``retired_rule``; see :data:`scanner.store.memories.BATCH_SCAN_PROPERTIES`)."""
        mid = props["memory_id"]
        self._inputs.update(repr(tuple(map(props.get, INPUT_PROPERTIES))).encode())
        status = props.get("status") or STATUS_ACTIVE
        if status != STATUS_ACTIVE:
            self.states[mid] = (status, props.get("retired_rule") or None)
        if self.keep_ids:
            self.ids.append(mid)
        self.scanned += 1
        if self.decode_early:
            self._index(props)
        else:
            self._deferred.append(props)

    def _index(self, props: Mapping[str, Any]) -> None:
        """Keys and normalised text of one memory; candidates marked (decoded when early)."""
        row = len(self._rows)
        scope = (props.get("scope_group") or None, self._sorted(props))
        raw = props.get("triples_json")
        triples = json.loads(raw) if raw and raw != "[]" else []
        resolve = self.aliases.resolve
        keys = tuple({(scope, resolve(t["subject"]), t["relation"]): None
                      for t in triples})
        self._rows.append((props, triples, keys))
        first = self._first
        candidate = self.every_memory
        for key in keys:
            other = first.setdefault(key, row)
            if other != row:
                self._shared.add(key)
                self._decode(other)
                candidate = True
        other = self._texts.setdefault(hash((scope, normalised_text(props["text"]))), row)
        if other != row:
            self._decode(other)
            candidate = True
        if candidate:
            self._decode(row)

    def candidates(self) -> tuple[list[MemoryRecord], list[list[Triple]],
                                  list[tuple[GroupKey, GroupKey]]]:
        """The memories that can take part in a conflict or a duplicate (module docstring),
        decoded, in the order they were added; their triples; and the near-key pairs of the
        tenant (for :func:`scanner.scan.scan_records`'s ``near_pairs``). Call once, after the
        last :meth:`add` (the pass's rows are released)."""
        deferred, self._deferred = self._deferred, []
        for props in deferred:
            self._index(props)
        near_pairs = self._near_pairs()
        if near_pairs:
            near = {self._key(k) for pair in near_pairs for k in pair}
            for row, (_, _, keys) in enumerate(self._rows):
                if row not in self._decoded and any(k in near for k in keys):
                    self._decode(row)
        decoded = self._decoded
        found = [decoded[row] or self._decoded_row(row) for row in sorted(decoded)]
        self._rows, self._decoded = [], {}
        self._first, self._shared, self._texts = {}, set(), {}
        return [r for r, _ in found], [t for _, t in found], near_pairs

    def _decode(self, row: int) -> None:
        if row not in self._decoded:
            self._decoded[row] = self._decoded_row(row) if self.decode_early else None

    def _decoded_row(self, row: int) -> tuple[MemoryRecord, list[Triple]]:
        props, raw, _ = self._rows[row]
        return self._record(props), [Triple.from_dict(t) for t in raw]

    def _sorted(self, props: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        raw = props.get("properties_json") or "{}"
        items = self._properties.get(raw)
        if items is None:
            items = self._properties[raw] = tuple(sorted(json.loads(raw).items()))
        return items

    def _near_pairs(self) -> list[tuple[GroupKey, GroupKey]]:
        """:func:`scanner.core.keys.near_key_pairs` over every key of the tenant, found on the
        pass's plain key tuples (keys are built only for the pairs found)."""
        by_relation: dict[tuple[Any, str], list[str]] = {}
        for scope, subject, relation in self._first:
            names = by_relation.get((scope, relation))
            if names is None:
                by_relation[(scope, relation)] = [subject]
            else:
                names.append(subject)
        scopes: dict[Any, Scope] = {}
        pairs = []
        for (scope, relation), a, b in near_subject_pairs(by_relation):
            found = scopes.get(scope)
            if found is None:
                found = scopes[scope] = Scope.model_construct(
                    user_id=self.user_id, group=scope[0], properties=scope[1])
            pairs.append((GroupKey(found, a, relation), GroupKey(found, b, relation)))
        return pairs

    @staticmethod
    def _key(key: GroupKey) -> _Key:
        return ((key.scope.group, key.scope.properties), key.subject, key.relation)

    def _record(self, p: Mapping[str, Any]) -> MemoryRecord:
        return decode_record(p, self.user_id, dict(self._sorted(p)))


# ------------------------------------------------------------------------------ checkpoints

CHECKPOINT_FORMAT = 1


@dataclass(frozen=True)
class ScanCheckpoint:
    """What a complete batch scan of one tenant left behind: enough for the next scan to know,
    after its cursor pass, that deciding again would write nothing.

    A scan's verdicts, ledger entries and status changes are a deterministic function of the
    tenant's stored memories (:data:`INPUT_PROPERTIES`), their statuses, the ledger it compares
    against, the configuration and the code (:func:`decision_digest`). When all of these hash
    as recorded here, the full scan would find every ledger entry stored unchanged and every
    status as it wants it, so it may report the recorded counts instead.

    Attributes:
        decision: :func:`decision_digest` of the configuration and code it ran under.
        inputs: :attr:`TenantPass.inputs_digest` of the pass it decided on.
        states: :func:`states_digest` of the statuses after its writes.
        ledger: :func:`ledger_digest` of the tenant's ledger after its writes.
        scanned: memories in that pass.
        conflicts: its conflicts, ``(verdict, rule)`` -> number (rule ``""`` when none).
    """

    decision: str
    inputs: str
    states: str
    ledger: str
    scanned: int
    conflicts: Mapping[tuple[str, str], int]
    format: int = CHECKPOINT_FORMAT

    @property
    def by_verdict(self) -> dict[str, int]:
        """The conflicts by verdict."""
        out: dict[str, int] = {}
        for (verdict, _), n in self.conflicts.items():
            out[verdict] = out.get(verdict, 0) + n
        return out

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (stored as ``checkpoint_json``)."""
        return {"format": self.format, "decision": self.decision, "inputs": self.inputs,
                "states": self.states, "ledger": self.ledger, "scanned": self.scanned,
                "conflicts": [[v, r, n] for (v, r), n in sorted(self.conflicts.items())]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScanCheckpoint:
        """Inverse of :meth:`to_json`.

        Raises:
            KeyError, TypeError, ValueError: not a checkpoint of this format.
        """
        if data["format"] != CHECKPOINT_FORMAT:
            raise ValueError(f"checkpoint format {data['format']!r}")
        return cls(decision=str(data["decision"]), inputs=str(data["inputs"]),
                   states=str(data["states"]), ledger=str(data["ledger"]),
                   scanned=int(data["scanned"]),
                   conflicts={(str(v), str(r)): int(n) for v, r, n in data["conflicts"]})


def states_digest(states: Mapping[str, tuple[str, str | None]]) -> str:
    """Hex digest of the statuses a scan decides from: memory id -> ``(status, rule)`` of every
    memory that is not ``active`` (:attr:`TenantPass.states`). The rule counts only for
    ``superseded`` memories: the scan compares it only there."""
    h = hashlib.blake2b(digest_size=16)
    for mid in sorted(states):
        status, rule = states[mid]
        if status == STATUS_ACTIVE:
            continue
        h.update(repr((mid, status, rule if status == "superseded" else None)).encode())
    return h.hexdigest()


def ledger_digest(digests: Mapping[str, str]) -> str:
    """Hex digest of a tenant's ledger: entry id -> stored content digest of every entry
    (:meth:`scanner.store.ledger.LedgerStore.all_digests`)."""
    h = hashlib.blake2b(digest_size=16)
    for eid in sorted(digests):
        h.update(f"{eid}={digests[eid]};".encode())
    return h.hexdigest()


def _canonical(value: Any) -> Any:
    """``value`` with sets as sorted lists and mappings as sorted items (JSON-ready)."""
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if hasattr(value, "model_dump"):
        return _canonical(value.model_dump())
    return value


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """sha256 of the source of the ``scanner`` and ``extractors`` packages and their data
    files: any change of code or shipped tables invalidates every checkpoint."""
    h = hashlib.sha256()
    for package in ("scanner", "extractors"):
        root = Path(__import__(package).__file__).resolve().parent
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".json", ".jsonl", ".txt", ".tsv") \
                    and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(root)).encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def decision_digest(config: Any) -> str:
    """Hex digest of what a scan's decisions depend on besides the stored data: every field
    of the scan configuration (:class:`scanner.scan.ScanConfig`: relation table, aliases,
    policy, extra patterns, relation similarity) and the code (:func:`_code_digest`)."""
    data: dict[str, Any] = {"code": _code_digest()}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if isinstance(value, AliasTable):
            value = value.as_dict()
        elif dataclasses.is_dataclass(value):
            value = vars(value)
        data[f.name] = _canonical(value)
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()
