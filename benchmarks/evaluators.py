"""Evaluators in the sentence-transformers style, metrics from scikit-learn.

An evaluator is built once with its pairs and called with one detector's scores; it returns a
flat dict of metrics whose keys carry the evaluator's name, and names its ``primary_metric``
(as ``sentence_transformers.evaluation.SentenceEvaluator`` does; that class is not imported
here because only ``scanner.embeddings`` imports sentence-transformers).

Conventions:

* a detector's *score* is in its own units (cosine similarity in [-1, 1], BM25 score >= 0,
  hybrid score in [0, 1], Jaccard in [0, 1], structural outcome 0 / 0.5 / 1);
* its *direction* says which end means "conflict": +1 when a higher score is more likely a
  conflict, -1 when a lower one is (``1 - cosine`` as a contradiction score is direction -1);
* a pair is *flagged* at threshold ``t`` when ``direction * score >= direction * t``;
* thresholds are chosen on training pairs (:func:`best_f1_threshold`) and only applied to
  evaluation pairs; the evaluation set's own best-F1 threshold is reported as an ``oracle``
  upper bound and never used.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.metrics import (average_precision_score, f1_score, precision_recall_curve,
                             precision_score, recall_score, roc_auc_score)

from benchmarks.pairs import Pair


def _clean(value: float | None) -> float | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return float(value)


def roc_auc(labels: Sequence[int], scores: Sequence[float]) -> float | None:
    """Area under the ROC curve (scikit-learn ``roc_auc_score``), or None with one class.

    Args:
        labels: 0/1, 1 = conflict.
        scores: higher = more likely a conflict.
    """
    labels = np.asarray(labels)
    if labels.size == 0 or labels.min() == labels.max():
        return None
    return _clean(roc_auc_score(labels, scores))


def average_precision(labels: Sequence[int], scores: Sequence[float]) -> float | None:
    """Average precision (scikit-learn ``average_precision_score``), or None without
    positives."""
    labels = np.asarray(labels)
    if labels.size == 0 or labels.max() == 0:
        return None
    return _clean(average_precision_score(labels, scores))


@dataclass(frozen=True)
class ThresholdResult:
    """A threshold and what it gives.

    Attributes:
        threshold: flag when ``score >= threshold`` (scores oriented so higher = conflict).
        precision, recall, f1: of the flagged pairs against the labels.
        flagged_negatives: share of label-0 pairs flagged (false-positive rate).
    """

    threshold: float
    precision: float
    recall: float
    f1: float
    flagged_negatives: float


def at_threshold(labels: Sequence[int], scores: Sequence[float],
                 threshold: float) -> ThresholdResult:
    """Precision, recall and F1 (scikit-learn) of ``score >= threshold``."""
    labels = np.asarray(labels, dtype=int)
    flagged = (np.asarray(scores, dtype=float) >= threshold).astype(int)
    negatives = labels == 0
    fpr = float(flagged[negatives].mean()) if negatives.any() else 0.0
    return ThresholdResult(
        threshold=float(threshold),
        precision=float(precision_score(labels, flagged, zero_division=0)),
        recall=float(recall_score(labels, flagged, zero_division=0)),
        f1=float(f1_score(labels, flagged, zero_division=0)),
        flagged_negatives=fpr)


def best_f1_threshold(labels: Sequence[int], scores: Sequence[float]) -> ThresholdResult:
    """The threshold with the highest F1 on these pairs (scikit-learn
    ``precision_recall_curve``); ties go to the higher threshold.

    Raises:
        ValueError: no positive label.
    """
    labels = np.asarray(labels, dtype=int)
    scores = np.asarray(scores, dtype=float)
    if labels.size == 0 or labels.max() == 0:
        raise ValueError("best_f1_threshold needs at least one positive pair")
    precision, recall, thresholds = precision_recall_curve(labels, scores)
    p, r = precision[:-1], recall[:-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(p + r > 0, 2 * p * r / (p + r), 0.0)
    best = int(np.flatnonzero(f1 == f1.max())[-1])
    return at_threshold(labels, scores, float(thresholds[best]))


def choose_orientation(labels: Sequence[int], scores: Sequence[float]) -> int:
    """+1 when higher scores separate conflicts better (ROC AUC >= 0.5), else -1. Choose it on
    training pairs only."""
    auc = roc_auc(labels, scores)
    return 1 if auc is None or auc >= 0.5 else -1


def _binary(labels: Sequence[int], oriented: np.ndarray,
            threshold: float | None) -> dict[str, float | int | None]:
    labels = np.asarray(labels, dtype=int)
    out: dict[str, float | int | None] = {
        "n": int(labels.size), "positives": int(labels.sum()),
        "roc_auc": roc_auc(labels, oriented), "average_precision":
        average_precision(labels, oriented)}
    auc = out["roc_auc"]
    out["roc_auc_best_direction"] = None if auc is None else max(auc, 1.0 - auc)
    if labels.size and labels.max() == 1:
        oracle = best_f1_threshold(labels, oriented)
        out.update(oracle_threshold=oracle.threshold, oracle_precision=oracle.precision,
                   oracle_recall=oracle.recall, oracle_f1=oracle.f1)
    if threshold is not None and labels.size:
        res = at_threshold(labels, oriented, threshold)
        out.update(precision=res.precision, recall=res.recall, f1=res.f1,
                   flagged_negatives=res.flagged_negatives)
    return out


class ContradictionEvaluator:
    """Scores one detector on one set of labelled pairs.

    Args:
        pairs: the pairs, in the order of the scores the evaluator will receive. Pairs with
            ``label=None`` (contradictions on non-functional relations) are reported apart as
            ``possible`` and never enter the binary metrics.
        name: prefix of every metric key ("counterfact_eval").
        positive_kinds: pair classes whose pairs are conflicts (for per-class metrics).
        min_group: per-relation metrics are computed for groups with at least this many pairs.
        structural_levels: for a categorical detector, score -> outcome name
            (``{1.0: "flagged", 0.5: "possible", 0.0: "none"}``); each class then reports the
            share of every outcome.

    Calling the evaluator with ``scores`` (``(n,)`` floats in the detector's units), its
    ``direction`` (+1 / -1) and a ``threshold`` in those units returns a dict with keys
    ``<name>_<metric>`` for the whole set, ``<name>_class_<kind>_<metric>`` per class,
    ``<name>_class_<kind>__<variant>_<metric>`` per class and :attr:`Pair.variant` where pairs
    have one, and a nested ``<name>_relations`` table (per relation template: counts, ROC AUC,
    recall, flagged negatives and, per class, the share flagged) and, when pairs carry
    Wikidata ids, the same table per id as ``<name>_relation_ids``. ``primary_metric`` is
    ``<name>_roc_auc``.
    """

    greater_is_better = True

    def __init__(self, pairs: Sequence[Pair], name: str, *,
                 positive_kinds: Sequence[str] = (), min_group: int = 10,
                 structural_levels: Mapping[float, str] | None = None):
        self.pairs = list(pairs)
        self.name = name
        self.positive_kinds = tuple(positive_kinds)
        self.min_group = min_group
        self.structural_levels = dict(structural_levels or {})
        self.primary_metric = f"{name}_roc_auc"

    def __call__(self, scores: Sequence[float], *, direction: int = 1,
                 threshold: float | None = None) -> dict:
        scores = np.asarray(scores, dtype=float)
        if scores.shape != (len(self.pairs),):
            raise ValueError(f"{len(self.pairs)} pairs but scores of shape {scores.shape}")
        oriented = direction * scores
        oriented_t = None if threshold is None else direction * threshold
        labelled = np.array([p.label is not None for p in self.pairs], dtype=bool)
        labels = np.array([p.label or 0 for p in self.pairs], dtype=int)
        pre = self.name
        out: dict = {f"{pre}_direction": direction, f"{pre}_threshold": threshold}
        for key, value in _binary(labels[labelled], oriented[labelled], oriented_t).items():
            out[f"{pre}_{key}"] = value
        if out.get(f"{pre}_oracle_threshold") is not None:
            out[f"{pre}_oracle_threshold"] = direction * out[f"{pre}_oracle_threshold"]

        kinds = sorted({p.kind for p in self.pairs})
        kind_of = np.array([p.kind for p in self.pairs])
        variant_of = np.array([p.variant for p in self.pairs])
        pos_mask = labelled & (labels == 1)
        neg_mask = labelled & (labels == 0)
        groups = [(kind, kind_of == kind) for kind in kinds]
        groups += [(f"{kind}__{variant}", (kind_of == kind) & (variant_of == variant))
                   for kind in kinds for variant in sorted(set(variant_of[kind_of == kind]))
                   if variant]
        for group, mine in groups:
            kind = group.split("__")[0]
            key = f"{pre}_class_{group}"
            out[f"{key}_n"] = int(mine.sum())
            out[f"{key}_mean_score"] = _clean(float(scores[mine].mean())) if mine.any() else None
            labelled_mine = mine & labelled
            if labelled_mine.any():
                if kind in self.positive_kinds:
                    versus = labelled_mine | neg_mask
                else:
                    versus = labelled_mine | pos_mask
                out[f"{key}_roc_auc"] = roc_auc(labels[versus], oriented[versus])
                out[f"{key}_average_precision"] = average_precision(labels[versus],
                                                                    oriented[versus])
            if oriented_t is not None and labelled_mine.any():
                out[f"{key}_flagged"] = float((oriented[labelled_mine] >= oriented_t).mean())
            possible = mine & ~labelled
            if possible.any():
                out[f"{key}_possible_n"] = int(possible.sum())
                if oriented_t is not None:
                    out[f"{key}_possible_flagged"] = float((oriented[possible] >= oriented_t)
                                                           .mean())
            if self.structural_levels:
                for level, outcome in self.structural_levels.items():
                    for subset, suffix in ((labelled_mine, ""), (possible, "_possible")):
                        if subset.any():
                            out[f"{key}{suffix}_share_{outcome}"] = float(
                                np.isclose(scores[subset], level).mean())
        out[f"{pre}_relations"] = self._by_group(
            lambda p: p.relation, labels, labelled, oriented, scores, oriented_t)
        if any(p.relation_id for p in self.pairs):
            out[f"{pre}_relation_ids"] = self._by_group(
                lambda p: p.relation_id or "unmapped", labels, labelled, oriented, scores,
                oriented_t)
        return out

    def _by_group(self, group_of: Callable[[Pair], str], labels: np.ndarray,
                  labelled: np.ndarray, oriented: np.ndarray, scores: np.ndarray,
                  oriented_t: float | None) -> dict[str, dict]:
        index: dict[str, list[int]] = defaultdict(list)
        for i, pair in enumerate(self.pairs):
            index[group_of(pair)].append(i)
        table = {}
        for group, rows in sorted(index.items()):
            if len(rows) < self.min_group:
                continue
            rows_a = np.asarray(rows)
            lab = rows_a[labelled[rows_a]]
            entry = {"n": len(rows), "relation_id": self.pairs[rows[0]].relation_id,
                     "functional": self.pairs[rows[0]].functional,
                     "possible": int((~labelled[rows_a]).sum()),
                     "positives": int(labels[lab].sum()),
                     "roc_auc": roc_auc(labels[lab], oriented[lab]),
                     "mean_score": _clean(float(scores[rows_a].mean()))}
            if oriented_t is not None:
                flagged = oriented[lab] >= oriented_t
                pos = labels[lab] == 1
                entry["recall"] = float(flagged[pos].mean()) if pos.any() else None
                entry["flagged_negatives"] = (float(flagged[~pos].mean())
                                              if (~pos).any() else None)
                classes: dict[str, dict] = {}
                for kind in sorted({self.pairs[i].kind for i in rows}):
                    in_kind = rows_a[[self.pairs[i].kind == kind for i in rows]]
                    kept = in_kind[labelled[in_kind]]
                    classes[kind] = {"n": int(in_kind.size), "labelled": int(kept.size),
                                     "flagged": (float((oriented[kept] >= oriented_t).mean())
                                                 if kept.size else None)}
                entry["classes"] = classes
            table[group] = entry
        return table


class ThresholdChooser:
    """Chooses a detector's direction and best-F1 threshold on training pairs.

    Args:
        pairs: training pairs (``label`` None pairs are ignored).
        name: prefix of the metric keys.

    Calling it with ``scores`` returns ``{"<name>_direction", "<name>_threshold" (in the
    detector's units), "<name>_precision", "<name>_recall", "<name>_f1", "<name>_roc_auc"}``.
    ``primary_metric`` is ``<name>_f1``.
    """

    greater_is_better = True

    def __init__(self, pairs: Sequence[Pair], name: str = "train"):
        self.pairs = [p for p in pairs if p.label is not None]
        self.keep = np.array([p.label is not None for p in pairs], dtype=bool)
        self.labels = np.array([p.label for p in self.pairs], dtype=int)
        self.name = name
        self.primary_metric = f"{name}_f1"

    def __call__(self, scores: Sequence[float], *, direction: int | None = None) -> dict:
        scores = np.asarray(scores, dtype=float)[self.keep]
        if direction is None:
            direction = choose_orientation(self.labels, scores)
        best = best_f1_threshold(self.labels, direction * scores)
        pre = self.name
        return {f"{pre}_direction": direction, f"{pre}_threshold": direction * best.threshold,
                f"{pre}_precision": best.precision, f"{pre}_recall": best.recall,
                f"{pre}_f1": best.f1, f"{pre}_flagged_negatives": best.flagged_negatives,
                f"{pre}_roc_auc": roc_auc(self.labels, direction * scores), f"{pre}_n":
                int(self.labels.size)}
