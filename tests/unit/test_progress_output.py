"""Progress goes to the terminal, never into the report (issue 35, item 5): ``scan-file`` run
with its stderr on a pseudo-terminal draws its phases there; with ``--json`` it draws nothing
and stdout is the report alone, the same as it prints with no terminal at all."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files

from tests.terminal import run_at_terminal

MEMORIES = str(files("scanner.data").joinpath("demo_one_user.jsonl"))
RULES_ONLY = {"CONTRASCAN_PAIR_JUDGE": "off"}  # no torch: the phases are the same


def test_scan_file_shows_its_phases_on_the_terminal_and_keeps_stdout_clean():
    shown = run_at_terminal(["scan-file", MEMORIES], env=RULES_ONLY)
    assert shown.returncode == 0, shown.terminal[-2000:]
    assert b"extracting" in shown.terminal and b"deciding" in shown.terminal
    assert "\x1b" not in shown.stdout and "extracting" not in shown.stdout  # the table only

    quiet = run_at_terminal(["scan-file", MEMORIES, "--json"], env=RULES_ONLY)
    assert quiet.returncode == 0, quiet.terminal[-2000:]
    assert b"extracting" not in quiet.terminal and b"deciding" not in quiet.terminal
    report = json.loads(quiet.stdout)  # the whole of stdout is the report
    assert report["scanned"] == 34
    piped = subprocess.run([sys.executable, "-m", "scanner.cli", "scan-file", MEMORIES,
                            "--json"], capture_output=True, text=True,
                           env={**_environment(), **RULES_ONLY})
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout) == report


def _environment() -> dict[str, str]:
    import os

    return {**os.environ, "HF_HUB_OFFLINE": "1"}
