"""The detectors compared on the same pairs.

* :func:`cosine_scores`: cosine similarity of the product's sentence embeddings
  (:class:`scanner.embeddings.Embedder`, all-MiniLM-L6-v2 by default), in [-1, 1];
* :func:`jaccard_scores`: token-set Jaccard similarity, in [0, 1], the trivial lexical baseline;
* :func:`retrieval_scores` (in :mod:`benchmarks.retrieval_index`): BM25 and hybrid scores from
  a real Weaviate;
* :class:`StructuralDetector`: contrascan's own detector, through the code path of
  ``contrascan scan-file`` (:meth:`scanner.engine.Engine.scan` with the shipped default
  configuration, :func:`shipped_engine`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone

import numpy as np

from benchmarks.pairs import Pair
from extractors import Triple
from scanner.core.detect import stances
from scanner.core.keys import AliasTable, group_by_key
from scanner.engine import Engine
from scanner.models import MemoryRecord, ScanReport

FLAGGED = "flagged"
UNCONFIRMED = "subject_unconfirmed"
POSSIBLE = "possible"
NONE = "none"
AGREEMENT = "agreement"
OUTCOME_SCORES = {FLAGGED: 1.0, UNCONFIRMED: 0.75, POSSIBLE: 0.5, NONE: 0.25, AGREEMENT: 0.0}
"""Structural outcome -> score in [0, 1], ordered by how strongly the scan says the two
records cannot both be true (SPEC §2 and §3):

* ``flagged`` 1.0: a conflict on one confirmed key (a functional relation's value mismatch, or
  a polarity conflict) with a verdict other than ``possible``;
* ``subject_unconfirmed`` 0.75: the same, but one subject is only a short form of the other, so the
  policy quarantines it (SPEC §3 row 2);
* ``possible`` 0.5: a value mismatch on a relation of unknown cardinality (SPEC §1), never
  auto-resolved;
* ``none`` 0.25: no conflict and no agreement (no shared key, or a shared key of a
  multi-valued relation with different values);
* ``agreement`` 0.0: the two records say the same thing on at least one key — the report
  lists them as duplicates (SPEC §2: restatement, never a conflict), or the scan's own key
  grouping (:func:`scanner.core.keys.group_by_key`, with the scan's aliases) puts a triple of
  each under one key and their asserted values overlap, which is exactly the case in which
  :func:`scanner.core.detect.pairs_in_group` finds no value mismatch (and no conflict links them).

Every level is read off the scan of the two records alone (:func:`outcomes_from_report`,
:func:`agreeing_pairs`); no number comes from the pairs, and nothing is tuned. A ROC curve
over these levels is the curve of the scan's own verdict strength. Flagging, for recall and
the flagged share, means a score of at least :data:`FLAG_THRESHOLD` (a conflict with a verdict
other than ``possible``), as ``bench_extractor`` counts it."""

FLAG_THRESHOLD = OUTCOME_SCORES[UNCONFIRMED]
"""Score at and above which the scan reported a conflict with a verdict (not ``possible``)."""

_TOKEN = re.compile(r"\w+")


class SentenceIndex:
    """Distinct sentences of a pair set, each with an integer id.

    Attributes:
        texts: the distinct sentences, in first-seen order.
    """

    def __init__(self, pairs: Sequence[Pair] = ()):
        self.texts: list[str] = []
        self._ids: dict[str, int] = {}
        for pair in pairs:
            self.add(pair.left)
            self.add(pair.right)

    def add(self, text: str) -> int:
        """The id of ``text``, added when new."""
        if text not in self._ids:
            self._ids[text] = len(self.texts)
            self.texts.append(text)
        return self._ids[text]

    def __getitem__(self, text: str) -> int:
        return self._ids[text]

    def __len__(self) -> int:
        return len(self.texts)


def cosine_scores(pairs: Sequence[Pair], index: SentenceIndex, vectors: np.ndarray) -> np.ndarray:
    """Cosine similarity of each pair.

    Args:
        pairs: the pairs.
        index: ids of their sentences.
        vectors: ``(len(index), d)`` float32, L2-normalised (``Embedder.encode``).

    Returns:
        ``(len(pairs),)`` float64 in [-1, 1], higher = closer.
    """
    left = np.array([index[p.left] for p in pairs], dtype=np.int64)
    right = np.array([index[p.right] for p in pairs], dtype=np.int64)
    if not len(pairs):
        return np.zeros(0)
    return np.einsum("ij,ij->i", vectors[left], vectors[right]).astype(np.float64)


def tokens(text: str) -> frozenset[str]:
    """Lower-cased word tokens (``\\w+``) of a sentence, as a set."""
    return frozenset(_TOKEN.findall(text.lower()))


def jaccard(a: str, b: str) -> float:
    """Token-set Jaccard similarity |A ∩ B| / |A ∪ B| in [0, 1] (1.0 for two empty sets)."""
    ta, tb = tokens(a), tokens(b)
    union = ta | tb
    return len(ta & tb) / len(union) if union else 1.0


def jaccard_scores(pairs: Sequence[Pair]) -> np.ndarray:
    """``(len(pairs),)`` float64 token-set Jaccard similarities, higher = closer."""
    return np.array([jaccard(p.left, p.right) for p in pairs], dtype=np.float64)


_T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def pair_records(pair_index: int, pair: Pair) -> tuple[MemoryRecord, MemoryRecord]:
    """The two memory records of one pair, in a scope of their own.

    Both carry full provenance from one epoch, the right one observed a day later (it plays
    the update), so a conflict gets a real verdict rather than a missing-provenance quarantine;
    either way a verdict other than ``possible`` counts as flagged.
    """
    common = dict(user_id=f"bench-{pair_index}", source="benchmark", source_class="user",
                  epoch="bench")
    return (MemoryRecord(id=f"p{pair_index}-a", text=pair.left, observed_at=_T0, **common),
            MemoryRecord(id=f"p{pair_index}-b", text=pair.right,
                         observed_at=_T0 + timedelta(days=1), **common))


def outcomes_from_report(report: ScanReport, n_pairs: int, offset: int = 0,
                         agreeing: set[int] | frozenset[int] = frozenset()) -> list[str]:
    """Read each pair's outcome off a scan report of :func:`pair_records` records.

    Args:
        report: the scan of the pairs' records.
        n_pairs: how many pairs the report covers.
        offset: index of its first pair.
        agreeing: indices of pairs that agree on a key (:func:`agreeing_pairs`).

    Returns:
        For pairs ``offset .. offset + n_pairs - 1``, the strongest of (:data:`OUTCOME_SCORES`):
        ``flagged`` when a conflict with a verdict other than ``possible`` links the pair's
        two records on a confirmed subject, ``subject_unconfirmed`` when its verdict is the
        ``subject_unconfirmed`` quarantine, ``possible`` when only a ``possible`` one does;
        else ``agreement`` when the report groups them as duplicates or the pair is in
        ``agreeing``; else ``none``.
    """
    found: dict[int, str] = {}
    for conflict in report.conflicts:
        ids = sorted(conflict.members)
        if len(ids) != 2 or ids[0][:-2] != ids[1][:-2]:
            continue
        i = int(ids[0][1:-2])
        if conflict.verdict == "possible":
            outcome = POSSIBLE
        elif conflict.rule == "subject_unconfirmed":
            outcome = UNCONFIRMED
        else:
            outcome = FLAGGED
        if OUTCOME_SCORES[outcome] > OUTCOME_SCORES[found.get(i, AGREEMENT)]:
            found[i] = outcome
    for group in report.duplicates:
        for rid in group:
            found.setdefault(int(rid[1:-2]), AGREEMENT)
    for i in agreeing:
        found.setdefault(i, AGREEMENT)
    return [found.get(i, NONE) for i in range(offset, offset + n_pairs)]


def agreeing_pairs(records: Sequence[MemoryRecord], triples: Sequence[Sequence[Triple]],
                   aliases: AliasTable | None = None) -> set[int]:
    """Pairs whose two records agree on at least one key, by the scan's own grouping.

    Triples are grouped as :func:`scanner.scan.scan_records` groups them
    (:func:`scanner.core.keys.group_by_key`, scope + aliased subject + relation) and folded into one
    stance per record (:func:`scanner.core.detect.stances`); a pair agrees when one key holds a
    stance of each of its records and their asserted values overlap — the condition under
    which :func:`scanner.core.detect.pairs_in_group` finds no value mismatch.

    Args:
        records: :func:`pair_records` records (ids ``p<i>-a`` / ``p<i>-b``), any number of pairs.
        triples: ``triples[k]`` are the triples of ``records[k]``.
        aliases: the scan's subject aliases (``ScanConfig.aliases``).

    Returns:
        The pair indices ``i`` that agree.
    """
    out: set[int] = set()
    for key, assertions in group_by_key(zip(records, triples), aliases).items():
        if len(assertions) < 2:
            continue
        by_pair: dict[int, list] = defaultdict(list)
        for stance in stances(assertions):
            by_pair[int(stance.record.id[1:-2])].append(stance)
        for i, both in by_pair.items():
            if len(both) == 2 and both[0].asserted & both[1].asserted:
                out.add(i)
    return out


def shipped_engine() -> Engine:
    """The engine of ``contrascan scan-file`` without ``--config``: ``Engine(Settings()
    .scan_config())`` (``scanner.cli.base._engine``), whose extractor reads the curated tables and
    the ParaRel lexicon, and no pattern pack."""
    from scanner.config import Settings

    return Engine(Settings().scan_config())


def pattern_pack_engine() -> Engine:
    """The default configuration with the opt-in ``counterfact-train`` pattern pack
    (``[extraction] pattern_packs = ["counterfact-train"]``): the rewording templates mined from
    ``counterfact-train.json`` by ``python -m benchmarks.mine_patterns --ship``."""
    from scanner.config import Settings

    settings = Settings.model_validate({"extraction": {"pattern_packs": ["counterfact-train"]}})
    return Engine(settings.scan_config())


class StructuralDetector:
    """contrascan's detector: each pair becomes two memory records in one scope, scanned by
    :meth:`scanner.engine.Engine.scan` — the method ``contrascan scan-file`` calls after reading
    its file.

    Every distinct sentence is parsed once (``Engine.extract``, batched); the scan then gets
    those triples, exactly as a read-time scan of stored memories does.

    Args:
        engine: the engine (default: :func:`shipped_engine`, the configuration of
            ``scan-file``).
        chunk: pairs per ``Engine.scan`` call.
    """

    def __init__(self, engine: Engine | None = None, chunk: int = 5000):
        self.engine = engine or shipped_engine()
        self.chunk = chunk

    def outcomes(self, pairs: Sequence[Pair],
                 progress: Callable[[int], None] | None = None) -> list[str]:
        """One outcome per pair (see :func:`outcomes_from_report`)."""
        index = SentenceIndex(pairs)
        unique = [MemoryRecord(id=f"s{i}", text=t, user_id="parse")
                  for i, t in enumerate(index.texts)]
        triples = self.engine.extract(unique)
        out: list[str] = []
        for start in range(0, len(pairs), self.chunk):
            part = pairs[start:start + self.chunk]
            records, trs = [], []
            for k, pair in enumerate(part):
                a, b = pair_records(start + k, pair)
                records += [a, b]
                trs += [triples[index[pair.left]], triples[index[pair.right]]]
            report = self.engine.scan(records, trs)
            agreeing = agreeing_pairs(records, trs, self.engine.config.aliases)
            out += outcomes_from_report(report, len(part), offset=start, agreeing=agreeing)
            if progress:
                progress(len(part))
        return out

    def scores(self, pairs: Sequence[Pair]) -> tuple[np.ndarray, list[str]]:
        """``(len(pairs),)`` float64 outcome scores (:data:`OUTCOME_SCORES`) and the outcomes."""
        outcomes = self.outcomes(pairs)
        return np.array([OUTCOME_SCORES[o] for o in outcomes], dtype=np.float64), outcomes
