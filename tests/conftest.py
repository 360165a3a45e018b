"""Session fixtures shared by every test: the spaCy pipeline and the engine load once."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

SHARED_ENV = "CONTRASCAN_SHARED"
"""Env var naming the folder with ``cases/`` and ``data/`` (the acceptance cases and the
public data sets), when it is not ``../shared`` beside the checkout."""


def _shared_dir() -> Path:
    """``$CONTRASCAN_SHARED`` when set, else ``../shared`` beside the checkout (as CI lays it
    out)."""
    named = os.environ.get(SHARED_ENV)
    return Path(named) if named else Path(__file__).resolve().parents[2] / "shared"


SHARED = _shared_dir()
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
    """The acceptance cases of ``../shared/cases/acceptance.jsonl``.

    Raises:
        FileNotFoundError: the file is missing: the acceptance tests must fail, never skip.
    """
    if not CASES.exists():
        raise FileNotFoundError(f"{CASES} is missing: set CONTRASCAN_SHARED to the folder "
                                "that holds cases/acceptance.jsonl")
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines()
            if line.strip()]
