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
from typing import TypeVar

import numpy as np

from extractors import Triple
from scanner.models import ConflictKey, MemoryRecord, Scope

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
    # the cheap upper bounds first, as difflib.get_close_matches does: same answers
    matcher = difflib.SequenceMatcher(None, a, b)
    return (matcher.real_quick_ratio() >= _RATIO and matcher.quick_ratio() >= _RATIO
            and matcher.ratio() >= _RATIO)


def near_key_pairs(groups: Mapping[GroupKey, list[Assertion]]) -> list[tuple[GroupKey, GroupKey]]:
    """Pairs of keys in one scope and relation whose subjects are string-similar but not equal.

    Subjects are compared only when an index says they could be similar
    (:func:`similar_candidates`), so a batch scan of a tenant with thousands of subjects per
    relation does not compare every pair; the result is the same as comparing every pair.
    """
    by_relation: dict[tuple[Scope, str], list[str]] = defaultdict(list)
    for key in groups:
        by_relation[(key.scope, key.relation)].append(key.subject)
    return [(GroupKey(scope, a, relation), GroupKey(scope, b, relation))
            for (scope, relation), a, b in near_subject_pairs(by_relation)]


def near_subject_pairs(subjects: Mapping[_H, list[str]]) -> list[tuple[_H, str, str]]:
    """The string-similar subject pairs of each group of distinct subjects (one scope and
    relation each: :func:`near_key_pairs` without building keys).

    Args:
        subjects: group -> its distinct subjects, any order.

    Returns:
        ``(group, a, b)`` with ``a < b`` and :func:`similar_subjects` true, in group order,
        then by ``a``, then by ``b``.
    """
    pairs = []
    for group, names in subjects.items():
        if len(names) < 2:
            continue
        names = sorted(names)
        for i, j in similar_candidates(names):
            if similar_subjects(names[i], names[j]):
                pairs.append((group, names[i], names[j]))
    return pairs


_RATIO = 0.85  # similar_subjects' difflib threshold
_SMALL = 4  # up to this many subjects, every pair is a candidate (at most 6 comparisons)
_DENSE_CELLS = 2_000_000  # n x n x alphabet counts compared in one call up to this size


def similar_candidates(subjects: Sequence[str]) -> list[tuple[int, int]]:
    """Index pairs ``(i, j)``, ``i < j``, that :func:`similar_subjects` might accept; sorted.

    A superset of the accepted pairs, computed without calling difflib on every pair:

    * words: one's words contained in the other's means both hold the first's rarest word,
      so a word index yields those pairs;
    * characters: difflib's ``ratio`` never exceeds its ``quick_ratio`` (2 x the size of the
      two strings' character-multiset intersection / total length; difflib documents it as an
      upper bound), which numpy computes for all pairs of compatible length at once.

    Args:
        subjects: the subjects, any order.

    Returns:
        Sorted candidate index pairs; the caller confirms each with :func:`similar_subjects`.
    """
    n = len(subjects)
    if n <= _SMALL:  # fewer pairs than the index costs: let the caller compare them all
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    out: set[tuple[int, int]] = set()
    words = [frozenset(s.split()) for s in subjects]
    postings: dict[str, list[int]] = defaultdict(list)
    for i, ws in enumerate(words):
        for w in ws:
            postings[w].append(i)
    for i, ws in enumerate(words):
        pool = min((postings[w] for w in ws), key=len) if ws else range(n)
        out.update((min(i, j), max(i, j)) for j in pool if j != i)
    if n < 2:
        return sorted(out)
    alphabet = {ch: k for k, ch in enumerate(sorted({ch for s in subjects for ch in s}))}
    order = sorted(range(n), key=lambda i: len(subjects[i]))
    lengths = np.array([len(subjects[i]) for i in order], dtype=np.float64)
    width = max(len(alphabet), 1)
    cells = [row * width + alphabet[ch] for row, i in enumerate(order) for ch in subjects[i]]
    counts = np.bincount(np.array(cells, dtype=np.int64), minlength=n * width).reshape(
        n, width).astype(np.int32)
    # 2 * min(la, lb) / (la + lb) >= 0.85  <=>  lb <= la * (2 - 0.85) / 0.85 for la <= lb
    limits = np.searchsorted(lengths, lengths * (2 - _RATIO) / _RATIO + 1e-9, side="right")
    if n * n * width <= _DENSE_CELLS:  # all rows at once: the same bounds, one numpy call
        shared = np.minimum(counts[:, None, :], counts[None, :, :]).sum(axis=2)
        bound = 2.0 * shared / (lengths[:, None] + lengths[None, :])
        index = np.arange(n)
        keep = ((bound >= _RATIO - 1e-9) & (index[None, :] > index[:, None])
                & (index[None, :] < limits[:, None]))
        for row, col in zip(*np.nonzero(keep)):
            i, j = order[int(row)], order[int(col)]
            out.add((min(i, j), max(i, j)))
        return sorted(out)
    for row in range(n - 1):
        hi = int(limits[row])
        if hi <= row + 1:
            continue
        shared = np.minimum(counts[row], counts[row + 1:hi]).sum(axis=1)
        bound = 2.0 * shared / (lengths[row] + lengths[row + 1:hi])
        for col in np.nonzero(bound >= _RATIO - 1e-9)[0]:
            i, j = order[row], order[row + 1 + int(col)]
            out.add((min(i, j), max(i, j)))
    return sorted(out)
