"""Session fixtures shared by every test: the spaCy pipeline and the engine load once."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

SHARED = Path(__file__).resolve().parents[2] / "shared"
CASES = SHARED / "cases" / "acceptance.jsonl"


@pytest.fixture(scope="session")
def extractor():
    from extractors import TripleExtractor

    return TripleExtractor()


@pytest.fixture(scope="session")
def engine(extractor):
    from scanner.engine import Engine

    return Engine(extractor=extractor)


def load_cases() -> list[dict]:
    """The acceptance cases of ``../shared/cases/acceptance.jsonl`` (empty when absent)."""
    if not CASES.exists():
        return []
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines()
            if line.strip()]
