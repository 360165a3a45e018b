"""A ``source scan --sidecar`` call is cheap to start (issue 35, item 5): the command and
:mod:`scanner.client` load neither the store, spaCy, torch nor FastAPI, so the call costs
Python's start, the CLI's imports and the request."""

from __future__ import annotations

import os
import subprocess
import sys


def test_a_sidecar_call_loads_no_store_no_model_and_no_web_framework():
    """The command fails (no sidecar answers on port 9 of the loopback), after importing
    everything its successful path imports up to the request."""
    probe = ("import sys\n"
             "from scanner.cli import main\n"
             "try:\n"
             "    main(['source', 'scan', '--sidecar', 'http://127.0.0.1:9', '--source', 'notes',"
             " '--user', 'u1', '--query', 'glaze', '--json'])\n"
             "except SystemExit as exit:\n"
             "    print(exit.code)\n"
             "print(sorted(m for m in ('spacy', 'torch', 'weaviate', 'fastapi',"
             " 'sentence_transformers') if m in sys.modules))\n")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert run.stdout.splitlines() == ["1", "[]"], (run.stdout, run.stderr)
    assert "sidecar unreachable" in run.stderr
