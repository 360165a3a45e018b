"""Keys and grouping: one pass over the hits, no pairwise scan of the store (seed 001).

A key is ``(scope, canonical subject, canonical relation)`` (SPEC §1). Grouping is a single
dictionary pass, so its cost is linear in the number of triples and its memory is bounded by
the number of distinct keys. Pure functions: no I/O, inputs never mutated.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from extractors import Triple
from scanner.models import ConflictKey, MemoryRecord, Scope
from scanner.short_forms import short_form_candidates

_H = TypeVar("_H")


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


def near_key_pairs(groups: Mapping[GroupKey, list[Assertion]]) -> list[tuple[GroupKey, GroupKey]]:
    """Pairs of keys in one scope and relation whose subjects differ but one can be a short
    form of the other (:func:`scanner.short_forms.is_short_form`: a person's first or last name
    alone, an acronym, a name without its legal form; never string similarity; issue 14).

    Subjects are paired by a hash join (:func:`scanner.short_forms.short_form_candidates`), so
    a batch scan of a tenant with thousands of subjects per relation does not compare every
    pair; the result is the same as comparing every pair.
    """
    by_relation: dict[tuple[Scope, str], list[str]] = defaultdict(list)
    for key in groups:
        by_relation[(key.scope, key.relation)].append(key.subject)
    return [(GroupKey(scope, a, relation), GroupKey(scope, b, relation))
            for (scope, relation), a, b in near_subject_pairs(by_relation)]


def near_subject_pairs(subjects: Mapping[_H, list[str]]) -> list[tuple[_H, str, str]]:
    """The short-form subject pairs of each group of distinct subjects (one scope and
    relation each: :func:`near_key_pairs` without building keys).

    Args:
        subjects: group -> its distinct subjects, any order.

    Returns:
        ``(group, a, b)`` with ``a < b`` and :func:`scanner.short_forms.is_short_form` true,
        in group order, then by ``a``, then by ``b``.
    """
    pairs = []
    for group, names in subjects.items():
        if len(names) < 2:
            continue
        names = sorted(names)
        pairs.extend((group, names[i], names[j]) for i, j in short_form_candidates(names))
    return pairs


def dated_by_scope(records: Iterable[MemoryRecord]) -> list[list[MemoryRecord]]:
    """The records that carry ``observed_at``, one list per scope (user, group, properties),
    each sorted by ``observed_at`` then id: what the finders outside the keys pair, earlier
    with later (a record without a time is never paired: which came first is unknown)."""
    by_scope: dict[tuple, list[MemoryRecord]] = defaultdict(list)
    for r in records:
        if r.observed_at is not None:
            by_scope[(r.user_id, r.group, tuple(sorted(r.properties.items())))].append(r)
    for items in by_scope.values():
        items.sort(key=lambda r: (r.observed_at, r.id))
    return list(by_scope.values())
