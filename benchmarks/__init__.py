"""Benchmarks: pair sets built from ``../shared/data``, evaluators, and runners that write JSON
results and PNG figures under ``results/``.

* :mod:`benchmarks.pairs` — labelled sentence pairs (CounterFact's six classes, Breaking NLI,
  persona statements), built by code from the public files, never by hand;
* :mod:`benchmarks.evaluators` — evaluator objects with a ``primary_metric`` and the metric
  functions (scikit-learn);
* :mod:`benchmarks.detectors` — the detectors compared: cosine, BM25 and hybrid scores from a
  real Weaviate, token-set Jaccard, and contrascan's structural detector;
* :mod:`benchmarks.run_similarity` — issue 5's runner (``python -m benchmarks.run_similarity``);
* :mod:`benchmarks.report` — the table of ``docs/similarity.md``, generated from a run's JSON;
* :mod:`benchmarks.bench_startup` — start-up of light commands (whole-process runs).
"""
