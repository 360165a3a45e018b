"""Where the shared folder is: the acceptance cases (``cases/``) and the public data sets
(``data/``) that are read in place, never bundled (their licences, e.g. LoCoMo's CC BY-NC)."""

from __future__ import annotations

import os
from pathlib import Path

SHARED_ENV = "CONTRASCAN_SHARED"
"""Env var naming the shared folder (the one holding ``cases/`` and ``data/``)."""


def shared_dir(checkout: Path | None = None) -> Path:
    """``$CONTRASCAN_SHARED`` when set; else the nearest folder named ``shared`` beside the
    checkout or beside one of its parents that holds ``cases/`` or ``data/`` (a clone at
    ``/work/main`` or at ``/work/ci/run-1`` finds ``/work/shared``); else ``../shared`` beside
    the checkout, which the callers report as missing by name.

    Args:
        checkout: the repository root; default: the one this file is in.
    """
    named = os.environ.get(SHARED_ENV)
    if named:
        return Path(named)
    root = (checkout or Path(__file__).resolve().parents[1]).resolve()
    for parent in root.parents:
        candidate = parent / "shared"
        if (candidate / "cases").is_dir() or (candidate / "data").is_dir():
            return candidate
    return root.parent / "shared"
