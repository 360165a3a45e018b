"""Every case of ../shared/cases/acceptance.jsonl through the ``contrascan scan-file`` path.

The CLI command runs in-process (click's runner) on a file holding the case's memories, and its
``--json`` report is checked against the case: every expected conflict with its verdict,
winner and latest; no other decided conflict; and every other expectation key the cases'
README documents (duplicates and excluded duplicates, ``max_possible``,
``conflicts_max_verdict``, ``conflicts_any``, cite / withhold lists, ``no_resolved``). A case
not fixed yet is a strict xfail naming its kind of failure (:data:`KNOWN_GAPS`).
"""

from __future__ import annotations

import json
from itertools import combinations

import pytest
from click.testing import CliRunner

from scanner.cli import main
from tests.conftest import MISSING_CASES, load_cases, needs_cases

CASES = load_cases()


def _pairs(members):
    return set(combinations(sorted(members), 2))


def problems_of(case: dict, report: dict) -> list[str]:
    """Every expectation key of ``../shared/cases/README.md`` checked against a report."""
    exp = case["expect"]
    out = []
    conflicts = report["conflicts"]
    decided = [c for c in conflicts if c["verdict"] != "possible"]
    want_pairs = set().union(*(_pairs(c["members"]) for c in exp.get("conflicts", [])))
    got_pairs = set().union(*(_pairs(c["members"]) for c in decided))
    if "conflicts" in exp and got_pairs - want_pairs:
        out.append(f"unexpected conflicts {sorted(got_pairs - want_pairs)}")
    for want in exp.get("conflicts", []):
        found = [c for c in conflicts if set(want["members"]) <= set(c["members"])]
        if not found:
            out.append(f"missing conflict {want['members']}")
            continue
        got = found[0]
        for field in ("verdict", "winner", "latest"):
            if field in want and got.get(field) != want[field]:
                out.append(f"{want['members']} {field} {got.get(field)!r} != {want[field]!r}")
    dup_pairs = set().union(*(_pairs(d) for d in report["duplicates"]))
    for d in exp.get("duplicates", []):
        if tuple(sorted(d)) not in dup_pairs:
            out.append(f"missing duplicate {d}")
    for d in exp.get("duplicates_excluded", []):
        if tuple(sorted(d)) in dup_pairs:
            out.append(f"{d} wrongly reported as duplicates")
    if "max_possible" in exp:
        n = sum(1 for c in conflicts if c["verdict"] == "possible")
        if n > exp["max_possible"]:
            out.append(f"{n} possible conflicts > {exp['max_possible']}")
    if exp.get("conflicts_max_verdict") == "possible" and decided:
        out.append(f"decided where only possible is allowed: {[c['members'] for c in decided]}")
    for members in exp.get("conflicts_any", []):
        if not any(set(members) <= set(c["members"]) for c in conflicts):
            out.append(f"missing conflict {members}")
    for mid in exp.get("cite_includes", []):
        if mid not in report["cite"]:
            out.append(f"{mid} not in cite")
    for mid in exp.get("withhold_includes", []):
        if mid not in report["withhold"]:
            out.append(f"{mid} not in withhold")
    for mid in exp.get("cite_excludes", []):
        if mid in report["cite"]:
            out.append(f"{mid} wrongly in cite")
    if exp.get("no_resolved") and any(c["verdict"] == "resolved" for c in conflicts):
        out.append("resolved a pair")
    return out


KNOWN_GAPS: dict[str, str] = {}
"""Cases not fixed yet, by the kind of failure; each runs as a strict xfail."""


@needs_cases
def test_cases_file_is_present():
    assert CASES, MISSING_CASES
    assert len(CASES) >= 13


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[c["case"]]))
    if c["case"] in KNOWN_GAPS else c for c in CASES], ids=[c["case"] for c in CASES])
def test_acceptance_case_through_scan_file(case, tmp_path):
    path = tmp_path / "memories.jsonl"
    path.write_text("".join(json.dumps(m) + "\n" for m in case["memories"]), encoding="utf-8")
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["scanned"] == len(case["memories"])
    assert problems_of(case, report) == []


@needs_cases
def test_fail_on_conflict_exit_code(tmp_path):
    case = next(c for c in CASES if c["expect"].get("conflicts"))
    path = tmp_path / "memories.jsonl"
    path.write_text("".join(json.dumps(m) + "\n" for m in case["memories"]), encoding="utf-8")
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json", "--fail-on-conflict"])
    assert result.exit_code == 3
