"""Nearest-neighbour matching of relation phrases the tables do not know (issue 3).

A relation phrase that neither the curated tables nor the ParaRel lexicon knows ("hails
from") is embedded with the product's sentence model and compared with the phrases the
lexicon does know (canonical relation names and the phrases induced from ParaRel patterns). If
the cosine similarity of the nearest one reaches :data:`DEFAULT_THRESHOLD`, the triple takes
that relation and is marked ``rule="similar:<phrase>"``.

Such a match only ever *surfaces* a pair: detection turns every pair that rests on a
similarity-matched relation into a ``possible`` conflict, never a decided one, because
embedding similarity alone must never decide a row of SPEC §2.

The threshold was studied on ``counterfact-train.json`` only, with
``python -m benchmarks.tune_relation_threshold``: of 1,511 unknown relation phrases in the
rewordings of 5,595 training cases, at no cosine threshold did 90 % of the matches name the
relation of the case's prompt (best: 48 % precision at cosine ≥ 0.75, covering 2 % of the
phrases; about 10 % below 0.5). Matching is therefore off by default
(:attr:`scanner.scan.ScanConfig.relation_similarity`); a configuration can turn it on, with
:data:`DEFAULT_THRESHOLD` unless it sets its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from extractors import DEFAULT_TABLE, Cardinality, RelationTable, Triple
from scanner.embeddings import Embedder

DEFAULT_THRESHOLD = 0.75
"""Cosine similarity in [-1, 1] (higher = closer) a phrase needs to its nearest known phrase:
the most precise point on counterfact-train (see module docstring)."""
SIMILAR_PREFIX = "similar:"


class RelationMatcher:
    """Maps unknown relation phrases to the nearest known relation.

    Args:
        embedder: the product's sentence embedder.
        known: known phrase -> canonical relation (names map to themselves).
        table: decides which relations are already known (any cardinality but unknown).
        threshold: minimum cosine similarity, in [-1, 1].
    """

    def __init__(self, embedder: Embedder, known: Mapping[str, str],
                 table: RelationTable = DEFAULT_TABLE, threshold: float = DEFAULT_THRESHOLD):
        self.embedder = embedder
        self.table = table
        self.threshold = threshold
        self._phrases = sorted(known)
        self._targets = [known[p] for p in self._phrases]
        self._matrix: np.ndarray | None = None
        self._cache: dict[str, tuple[str | None, float]] = {}

    def nearest(self, phrases: Sequence[str]) -> list[tuple[str | None, float]]:
        """``(relation or None, cosine)`` of the nearest known phrase for each phrase."""
        todo = [p for p in dict.fromkeys(phrases) if p not in self._cache]
        if todo:
            if self._matrix is None:
                self._matrix = self.embedder.encode(self._phrases)
            sims = self.embedder.encode(todo) @ self._matrix.T  # (len(todo), n_known)
            for phrase, row in zip(todo, sims):
                j = int(np.argmax(row))
                self._cache[phrase] = (self._targets[j], float(row[j]))
        return [self._cache[p] for p in phrases]

    def _unknown(self, triple: Triple) -> bool:
        return (triple.rule not in ("key_value", "pattern")
                and not triple.rule.startswith(SIMILAR_PREFIX)
                and self.table.cardinality(triple.relation) is Cardinality.unknown)

    def apply(self, triples: Sequence[Sequence[Triple]]) -> list[list[Triple]]:
        """The same triples, with unknown relations replaced by their match when close
        enough; inputs are not mutated."""
        phrases = sorted({t.relation for ts in triples for t in ts if self._unknown(t)})
        matches = dict(zip(phrases, self.nearest(phrases))) if phrases else {}
        out = []
        for ts in triples:
            row = []
            for t in ts:
                target, cosine = matches.get(t.relation, (None, 0.0)) if self._unknown(t) \
                    else (None, 0.0)
                if target is not None and cosine >= self.threshold and target != t.relation:
                    t = replace(t, relation=target, rule=f"{SIMILAR_PREFIX}{t.relation}")
                row.append(t)
            out.append(row)
        return out
