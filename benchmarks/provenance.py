"""What a benchmark result records about the code and packages that produced it."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def package_versions(distributions: Iterable[str]) -> dict[str, str]:
    """Installed version of each distribution, ``"missing"`` when it is not installed."""
    out = {}
    for dist in distributions:
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "missing"
    return out


def git_state(repo: Path = REPO) -> dict[str, Any]:
    """``{"commit": HEAD sha or "", "dirty": uncommitted changes?}`` of the checkout."""
    def run(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                                  timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    return {"commit": run("rev-parse", "HEAD"), "dirty": bool(run("status", "--porcelain"))}
