"""The pipeline's neural layers multiply through numpy's BLAS (:mod:`extractors.blas`): the
parse is the one BLIS gives, and the BLAS runs on the threads the rule sets."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SHARED, needs_counterfact
from tests.unit.test_extractor import RULER_SENTENCES, TABLE


def _nodes(nlp):
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if model is not None and hasattr(model, "walk"):
            yield from model.walk()


def test_every_layer_multiplies_through_numpy(extractor):
    from extractors.blas import BLAS_OPS

    nodes = list(_nodes(extractor.nlp))
    assert len(nodes) > 20
    assert all(node.ops is BLAS_OPS for node in nodes)
    assert BLAS_OPS.use_blis is False


@needs_counterfact
def test_parse_is_the_parse_blis_gives(extractor):
    """Tags, heads, labels and lemmas equal those of the same pipeline left on BLIS, on the
    extractor's sentence tables and 400 CounterFact sentences."""
    import spacy

    from extractors.pipeline import DEFAULT_PIPELINE, keep_iso_dates

    reference = keep_iso_dates(spacy.load(DEFAULT_PIPELINE, exclude=["ner"]))
    assert not any(node.ops is not None and getattr(node.ops, "use_blis", True) is False
                   for node in _nodes(reference))
    train = json.loads((SHARED / "data" / "counterfact" / "counterfact-train.json").read_text())
    texts = (RULER_SENTENCES + [sentence for sentence, _ in TABLE]
             + [f"{c['prompt']} {c['ground_truth']}." for c in train[:400]])
    ours = extractor.nlp.pipe(texts, batch_size=64)
    for mine, theirs in zip(ours, reference.pipe(texts, batch_size=64)):
        assert [(t.tag_, t.dep_, t.head.i, t.lemma_) for t in mine] == [
            (t.tag_, t.dep_, t.head.i, t.lemma_) for t in theirs], mine.text


@pytest.mark.parametrize(("value", "threads"), [
    (None, 1), ("", 1), ("3", 3), ("0", 1), ("-2", 1), ("two", 1)])
def test_blas_threads_follow_omp_num_threads(monkeypatch, value, threads):
    from extractors.blas import blas_threads

    if value is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", value)
    assert blas_threads() == threads


def test_loaded_pipeline_limits_the_blas(extractor):
    from threadpoolctl import threadpool_info

    from extractors.blas import blas_threads

    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas
    assert all(pool["num_threads"] <= max(blas_threads(), 1) for pool in blas
               if pool["internal_api"] == "openblas")
