"""A command loads only what it uses (issue 15): ``--help`` imports neither spaCy nor torch, and
``scan-file`` parses with spaCy without loading torch, which stays importable for embedding.

Each check runs a fresh interpreter, since what a process imported cannot be undone. Times are
measured by ``python -m benchmarks.bench_startup``, never here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("torch", "spacy", "sentence_transformers", "weaviate", "fastapi")


def _loaded_after(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; return its JSON line on stdout."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"}, check=True, timeout=300)
    return json.loads(done.stdout.strip().splitlines()[-1])


_PROBE = (
    "import json, sys\n"
    "loaded = sorted(m for m in {heavy!r} if sys.modules.get(m) is not None)\n"
    "print(json.dumps({{'loaded': loaded, 'out': out}}))\n"
)


def _run_cli(args: list[str]) -> str:
    return (
        "import contextlib, io\n"
        "from scanner.cli import main\n"
        "buffer = io.StringIO()\n"
        "with contextlib.redirect_stdout(buffer):\n"
        "    try:\n"
        f"        main({args!r})\n"
        "    except SystemExit as exit_:\n"
        "        assert exit_.code in (0, None), exit_.code\n"
        "out = buffer.getvalue()\n"
    ) + _PROBE.format(heavy=HEAVY)


def test_help_imports_no_heavy_package():
    result = _loaded_after(_run_cli(["--help"]))
    assert "scan-file" in result["out"]
    assert result["loaded"] == []


def test_scan_file_parses_without_torch(tmp_path: Path):
    two = tmp_path / "two.jsonl"
    two.write_text('{"id": "m1", "text": "Ann lives in Paris.", "user_id": "u1"}\n'
                   '{"id": "m2", "text": "Ann lives in Rome.", "user_id": "u1"}\n',
                   encoding="utf-8")
    code = "import os\nos.environ['CONTRASCAN_PAIR_JUDGE'] = 'off'\n" + _run_cli(
        ["scan-file", str(two), "--json"])  # the rules alone
    result = _loaded_after(code)
    report = json.loads(result["out"])
    assert [c["values"] for c in report["conflicts"]] == [{"m1": "paris", "m2": "rome"}]
    assert result["loaded"] == ["spacy"]


def test_scan_file_loads_torch_only_to_judge_a_pair(tmp_path: Path):
    """With the pair judge (the default, docs/pair-judge.md), a candidate pair is read by it:
    torch loads then, after the parse, and not sentence-transformers (the judge is read with
    transformers alone: scanner.embeddings.PairClassifier)."""
    two = tmp_path / "two.jsonl"
    two.write_text('{"id": "m1", "text": "Ann lives in Paris.", "user_id": "u1"}\n'
                   '{"id": "m2", "text": "Ann lives in Rome.", "user_id": "u1"}\n',
                   encoding="utf-8")
    code = "import os\nos.environ.pop('CONTRASCAN_PAIR_JUDGE', None)\n" + _run_cli(
        ["scan-file", str(two), "--json"])
    result = _loaded_after(code)
    report = json.loads(result["out"])
    assert [c["values"] for c in report["conflicts"]] == [{"m1": "paris", "m2": "rome"}]
    assert result["loaded"] == ["spacy", "torch"]


def test_torch_stays_importable_after_spacy():
    result = _loaded_after(
        "from scanner.startup import defer_torch\n"
        "defer_torch()\n"
        "import spacy, thinc.compat\n"
        "import torch\n"
        "out = [thinc.compat.has_torch, torch.tensor([1.0, 2.0]).sum().item()]\n"
        + _PROBE.format(heavy=("torch", "spacy")))
    assert result["out"] == [False, 3.0]
    assert result["loaded"] == ["spacy", "torch"]
