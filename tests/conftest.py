"""Session fixtures shared by every test: the spaCy pipeline and the engine load once."""

from __future__ import annotations

import json
import os

import pytest

from benchmarks.shared_data import SHARED_ENV, shared_dir

os.environ.setdefault("HF_HUB_OFFLINE", "1")

SHARED = shared_dir()
"""The shared folder (:func:`benchmarks.shared_data.shared_dir`)."""
CASES = SHARED / "cases" / "acceptance.jsonl"


@pytest.fixture(scope="session")
def extractor():
    from extractors import TripleExtractor

    return TripleExtractor()


@pytest.fixture(autouse=True)
def no_extraction_rule_failure(caplog):
    """Every test fails when an extraction rule raised on a clause: in production the clause is
    skipped and logged (:data:`extractors.rules.RULE_FAILURE`), in the tests it is a defect."""
    yield
    failed = [r.getMessage() for r in caplog.records
              if r.name == "extractors.rules" and r.levelname == "WARNING"]
    assert not failed, failed


@pytest.fixture(scope="session")
def engine(extractor):
    from scanner.engine import Engine

    return Engine(extractor=extractor)


MISSING_CASES = (f"{CASES} is missing: set {SHARED_ENV} to the folder that holds "
                 "cases/acceptance.jsonl")


COUNTERFACT_TRAIN = SHARED / "data" / "counterfact" / "counterfact-train.json"
needs_counterfact = pytest.mark.skipif(
    not COUNTERFACT_TRAIN.exists(),
    reason=f"{COUNTERFACT_TRAIN} is not present: a clone with nothing beside it (set "
           f"{SHARED_ENV} to the folder whose data/ holds it)")
needs_cases = pytest.mark.skipif(not CASES.exists(), reason=MISSING_CASES)


def load_cases() -> list[dict]:
    """The acceptance cases of the shared folder's ``cases/acceptance.jsonl``; empty when the
    file is missing: the tests that need them skip then, saying why (a clone with nothing
    beside it), and never stop the collection of every other test."""
    if not CASES.exists():
        return []
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines()
            if line.strip()]
