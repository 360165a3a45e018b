"""Choose the relation-similarity threshold on ``counterfact-train.json`` only.

For every training case whose prompt instantiates a ParaRel pattern, the rewording (last
sentence of ``rephrase_prompt`` + the true object) is extracted; each triple about the case's
subject whose relation the tables do not know is matched to its nearest known relation
(:class:`scanner.relation_matching.RelationMatcher`). A match is correct when it names the
relation of the prompt. The chosen threshold is the lowest cosine whose matches are at least
``--precision`` correct; the script prints it with the precision/coverage curve and writes
JSON under ``results/``.

Usage: ``python -m benchmarks.tune_relation_threshold``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from benchmarks.pairs import DATA_DIR  # noqa: E402

DATA = DATA_DIR / "counterfact"


def main() -> None:
    """Print and write the precision/coverage curve and the chosen threshold."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--precision", type=float, default=0.9)
    ap.add_argument("--out", type=Path, default=Path("results") / "relation-threshold.json")
    args = ap.parse_args()

    from benchmarks.mine_patterns import last_sentence, prompt_relation
    from scanner.engine import Engine
    from scanner.records import parse_record
    from scanner.scan import ScanConfig

    cases = json.loads((DATA / "counterfact-train.json").read_text())
    engine = Engine(ScanConfig(relation_similarity=False))
    labelled = [(c, prompt_relation(c)) for c in cases]
    labelled = [(c, r) for c, r in labelled if r]
    records = [parse_record({"id": str(i), "user_id": "u",
                             "text": f"{last_sentence(c['rephrase_prompt'])} {c['ground_truth']}."})
               for i, (c, _) in enumerate(labelled)]
    triples = engine.extract(records)
    subject_of = engine.extractor._span_entity
    phrases, gold = [], []
    for (case, relation), ts, rec in zip(labelled, triples, records):
        doc = engine.extractor.nlp(case["subject"])
        subject = subject_of(doc[:])
        for t in ts:
            if t.subject == subject and engine.config.table.cardinality(
                    t.relation).value == "unknown" and t.rule not in ("pattern", "key_value"):
                phrases.append(t.relation)
                gold.append(relation)
    matcher = Engine(ScanConfig(relation_similarity=True)).relation_matcher
    nearest = matcher.nearest(phrases)
    cos = np.array([c for _, c in nearest])
    ok = np.array([m == g for (m, _), g in zip(nearest, gold)])
    curve = []
    for t in np.arange(0.30, 0.96, 0.05):
        sel = cos >= t
        prec = float(ok[sel].mean()) if sel.any() else None
        curve.append({"threshold": round(float(t), 2), "coverage": float(sel.mean()),
                      "precision": prec})
        print(f"cos >= {t:.2f}: coverage {sel.mean():.3f} precision "
              f"{'-' if prec is None else f'{prec:.3f}'}")
    chosen = next((c["threshold"] for c in curve
                   if c["precision"] is not None and c["precision"] >= args.precision), None)
    print(f"{len(phrases)} unknown phrases from {len(labelled)} training cases; chosen "
          f"threshold {chosen} (precision >= {args.precision})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"phrases": len(phrases), "curve": curve,
                                    "precision_target": args.precision, "chosen": chosen},
                                   indent=2))


if __name__ == "__main__":
    main()
