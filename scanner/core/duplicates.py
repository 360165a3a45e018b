"""Duplicate groups: records of one scope that restate each other (SPEC §5 ``duplicates``).

Two records are duplicates when their normalised texts are equal, or when both carry triples
and their fact sets are equal. One pass with a union-find over the records: no pairwise scan.
Pure functions: no I/O, inputs never mutated.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from extractors import Triple
from scanner.models import MemoryRecord, Scope

_PUNCT = re.compile(r"[^\w\s]")


def normalised_text(text: str) -> str:
    """Lower-cased text with punctuation removed and white space folded."""
    return " ".join(_PUNCT.sub(" ", text.lower()).split())


def duplicate_groups(items: Iterable[tuple[MemoryRecord, Sequence[Triple]]]) -> list[list[str]]:
    """Groups of records, in one scope, that restate each other.

    Two records are duplicates when their normalised texts are equal, or when both carry
    triples and their sets of ``(subject, relation, object, negated)`` facts, with their
    ``except`` and ``time`` qualifiers, are equal
    ("Acme acquired Beta" / "Beta was acquired by Acme"; "$2,000,000" / "2M USD").

    Returns:
        Sorted groups of sorted ids, each of size ≥ 2.
    """
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(x: str, y: str) -> None:
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)

    # scope -> (normalised text -> first id, fact set -> first id); records of one scope
    # mostly come in runs, so the scope is looked up (and hashed) once per run
    firsts: dict[Scope, tuple[dict[str, str], dict[frozenset, str]]] = {}
    last = None
    by_text: dict[str, str] = {}
    by_facts: dict[frozenset, str] = {}
    for record, triples in items:
        rid = record.id
        parent.setdefault(rid, rid)
        scope = record.scope()
        if scope is not last:
            found = firsts.get(scope)
            if found is None:
                found = firsts[scope] = ({}, {})
            by_text, by_facts = found
            last = scope
        first = by_text.setdefault(normalised_text(record.text), rid)
        if first != rid:
            union(rid, first)
        triples = _labelled_reading(record.text, triples)
        if triples:  # Triple.fact plus the "except" and "time" qualifiers, without the calls
            # ("I wake up at 6am" / "… at 9am" say two things, as "lived" / "live" do)
            facts = frozenset([(t.subject, t.relation, t.object, t.negated,
                                t.qualifier("except") if t.qualifiers else None,
                                t.qualifier("time") if t.qualifiers else None)
                               for t in triples])
            first = by_facts.setdefault(facts, rid)
            if first != rid:
                union(rid, first)
    groups: dict[str, list[str]] = defaultdict(list)
    for rid in parent:
        groups[find(rid)].append(rid)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def _labelled_reading(text: str, triples: Sequence[Triple]) -> Sequence[Triple]:
    """The ``key: value`` triples of a record that is one labelled line ("Node f2 read
    throughput ceiling: 3.3k ops/s at 128 agents"), else ``triples``: such a line says its
    key's value and nothing else, whatever a verb reading of its words made of it."""
    line = text.strip()
    labelled = [t for t in triples if t.rule == "key_value"]
    if labelled and "\n" not in line and any(
            t.start <= len(text) - len(text.lstrip()) and t.end >= len(text.rstrip())
            for t in labelled):
        return labelled
    return triples
