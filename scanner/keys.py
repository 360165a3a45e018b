"""Keys and grouping: one pass over the hits, no pairwise scan of the store (seed 001).

A key is ``(scope, canonical subject, canonical relation)`` (SPEC §1). Grouping is a single
dictionary pass, so its cost is linear in the number of triples and its memory is bounded by
the number of distinct keys. Pure functions: no I/O, inputs never mutated.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from extractors import Triple
from scanner.models import ConflictKey, MemoryRecord, Scope


@dataclass(frozen=True, slots=True)
class GroupKey:
    """Hashable key: scope + canonical subject + canonical relation."""

    scope: Scope
    subject: str
    relation: str

    def public(self) -> ConflictKey:
        """The key as reported (SPEC §5)."""
        return ConflictKey(user_id=self.scope.user_id, group=self.scope.group,
                           properties=dict(self.scope.properties), subject=self.subject,
                           relation=self.relation)


@dataclass(frozen=True, slots=True)
class Assertion:
    """One triple of one record, the unit that grouping moves around."""

    record: MemoryRecord
    triple: Triple


class AliasTable:
    """Subject aliases resolved before comparison ("bob" ≡ "robert").

    Args:
        aliases: alias -> canonical name; compared lower-cased.

    Identity is confirmed only by equality after this table; string similarity never
    confirms it (seed 000, condition 3; SPEC §3 ``subject_unconfirmed``).
    """

    def __init__(self, aliases: Mapping[str, str] | None = None):
        self._map = {k.strip().lower(): v.strip().lower() for k, v in (aliases or {}).items()}

    def resolve(self, subject: str) -> str:
        """Canonical name for ``subject`` (itself when it has no alias)."""
        return self._map.get(subject, subject)

    def as_dict(self) -> dict[str, str]:
        """The table as a plain dict (for recording the configuration a verdict ran under)."""
        return dict(self._map)


def group_by_key(items: Iterable[tuple[MemoryRecord, Sequence[Triple]]],
                 aliases: AliasTable | None = None) -> dict[GroupKey, list[Assertion]]:
    """Group every triple of every record under its key, in one pass.

    Args:
        items: ``(record, triples)`` pairs.
        aliases: subject aliases to resolve first.

    Returns:
        key -> assertions in input order. Memory is O(number of triples).
    """
    aliases = aliases or AliasTable()
    groups: dict[GroupKey, list[Assertion]] = defaultdict(list)
    for record, triples in items:
        scope = record.scope()
        for triple in triples:
            key = GroupKey(scope, aliases.resolve(triple.subject), triple.relation)
            groups[key].append(Assertion(record, triple))
    return dict(groups)


def similar_subjects(a: str, b: str) -> bool:
    """True when two different subjects look alike as strings (and so might be one entity).

    "sam" / "sam lee" (one's words contained in the other's) or a character ratio ≥ 0.85
    (difflib): candidates for ``subject_unconfirmed`` quarantine, never for a merge.
    """
    if a == b or not a or not b:
        return False
    wa, wb = set(a.split()), set(b.split())
    if wa <= wb or wb <= wa:
        return True
    return difflib.SequenceMatcher(None, a, b).ratio() >= 0.85


def near_key_pairs(groups: Mapping[GroupKey, list[Assertion]]) -> list[tuple[GroupKey, GroupKey]]:
    """Pairs of keys in one scope and relation whose subjects are string-similar but not equal.

    Cost is quadratic only in the number of distinct subjects per (scope, relation), which is
    small; the store is never scanned pairwise.
    """
    by_relation: dict[tuple[Scope, str], list[GroupKey]] = defaultdict(list)
    for key in groups:
        by_relation[(key.scope, key.relation)].append(key)
    pairs = []
    for keys in by_relation.values():
        if len(keys) < 2:
            continue
        keys = sorted(keys, key=lambda k: k.subject)
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                if similar_subjects(a.subject, b.subject):
                    pairs.append((a, b))
    return pairs
